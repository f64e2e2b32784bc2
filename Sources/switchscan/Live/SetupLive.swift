import Foundation
import Glibc
import SwitchCore
import SwitchDisplayServers
import SwitchInput
import SwitchOverlay
import SwitchSpeech

/// `switchscan setup` on the live switch (issue 31): the project's live loop (`LiveRunner`) reads
/// the switch; every frame goes to the pure `SetupSession` (`LiveRunner.Hooks.frame`), its timers
/// through this adapter's deadline, and what it shows goes to the terminal (stderr), the overlay
/// (`--show`) and a sound. The loop's own engine scans nothing (an empty screen). When the
/// session is over the adapter ends the loop (`ShellInput.end`); Ctrl-C or SIGTERM end it before.
enum SetupLive {
    enum Ending { case done, interrupted }

    static func run(_ session: inout SetupSession, profile loaded: ProfileLibrary.Loaded, devices: [String], show: Bool?, terminal: Bool) throws -> Ending {
        let profile = loaded.profile
        let (selected, _) = try reportingInputErrors {
            try DevicePicking.pick(options: devices, profile: profile, profileFile: loaded.path.map(InputFiles.displayName) ?? ProfileLibrary.builtInName)
        }
        for s in selected { note("reading \(s.node) \"\(s.description.name)\" (\(s.reason))") }
        var presenters: [LoopAdapter] = []
        var overlay: Overlay?
        if show != false {
            switch DisplayBackends.open(ProcessInfo.processInfo.environment) {
            case .success(let display):
                do {
                    let o = try Overlay(settings: Overlay.Settings(profile.scanning), surface: display.openOverlay())
                    note("showing the prompts on \(o.surfaceName)")
                    overlay = o
                    presenters.append(o)
                } catch {
                    if show == true { throw fail("\(error)") }
                    note("no overlay (\(error)): the prompts are shown in the terminal")
                }
            case .failure(let refusal):
                if show == true { throw fail(refusal.description) }
                note("no display: the prompts are shown in the terminal")
            }
        }
        var speech: SpeechOutput?
        if profile.scanning.soundEffects || profile.scanning.speech {
            do {
                var settings = SpeechOutput.Settings(profile.scanning)
                settings.speech = false
                settings.soundEffects = true
                speech = try SpeechOutput(settings: settings)
                presenters.append(speech!)
            } catch {
                note("no sound through speech-dispatcher (\(error)): the terminal's bell instead")
            }
        }
        let adapter = SetupAdapter(session, printer: SetupPrinter(bell: speech == nil), overlay: overlay, speech: speech)
        let hooks = LiveRunner.Hooks(emit: { _ in }, log: note, frame: { _, frame in adapter.frame(frame) })
        let runner: LiveRunner
        do {
            runner = try LiveRunner(devices: selected.map { ($0, grab: false) }, adapters: [adapter] + presenters, hooks: hooks)
        } catch {
            throw fail("\(error)")
        }
        // The loop's own engine: the profile's switches over an empty screen (nothing to scan).
        var engine = Engine(tree: ElementTree(screen: SetupSession.promptTree.screen, root: Element(id: "setup")), profile: profile,
                            devices: runner.descriptions)
        let ending: LiveRunner.Ending
        do {
            ending = try runner.run(&engine, until: nil)
        } catch {
            throw fail("\(error)")
        }
        session = adapter.session
        if case .signal = ending, !session.isOver { return .interrupted }
        if case .failed(let why) = ending, !session.isOver { throw fail(why + "; nothing written") }
        return .done
    }
}

/// The loop adapter that holds the session: its deadline, the frames, what it shows.
final class SetupAdapter: LoopAdapter {
    let name = "setup"
    private(set) var session: SetupSession
    private let printer: SetupPrinter
    private let overlay: Overlay?
    private let speech: SpeechOutput?
    private var start: Int64 = 0
    private var model: ScanModel?

    init(_ session: SetupSession, printer: SetupPrinter, overlay: Overlay?, speech: SpeechOutput?) {
        self.session = session
        self.printer = printer
        self.overlay = overlay
        self.speech = speech
    }

    func engineStarted(atMonotonic: Int64) {
        start = atMonotonic
        printer.begin(session.settings.presses)
        show(session.start(at: .zero))
    }

    func prepare(nowMonotonic: Int64) -> LoopInterest {
        if session.isOver { return LoopInterest(deadline: nowMonotonic) }
        return LoopInterest(deadline: session.nextDeadline().map { start + $0.microseconds })
    }

    func dispatch(ready: [LoopFD], nowMonotonic: Int64) -> [ShellInput] {
        if !session.isOver { show(session.advance(to: Instant(microseconds: max(0, nowMonotonic - start)))) }
        return session.isOver ? [.end] : []
    }

    /// A frame from the switch (engine time).
    func frame(_ frame: InputFrame) {
        guard !session.isOver else { return }
        show(session.handle(frame: frame, device: 0))
    }

    private func show(_ lines: [TranscriptLine]) {
        let m = session.model
        if let overlay, model.map({ $0.items.map(\.id) != m.items.map(\.id) }) ?? true { overlay.layoutChanged(model: m) }
        model = m
        for n in session.takeNotes() { printer.note(n) }
        for line in lines {
            _ = overlay?.observe(line, model: m)
            _ = speech?.observe(line, model: m)
            printer.line(line)
        }
    }
}

/// The setup in the terminal, for the person and the clinician (stderr; the result goes to
/// stdout at the end): each prompt, each answer, the confirmation's highlight.
final class SetupPrinter {
    private let bell: Bool
    private let terminal = isatty(2) == 1

    init(bell: Bool) { self.bell = bell }

    func begin(_ presses: Int) {
        say("switch test: \(presses) prompts; press the switch as soon as you see ● PRESS NOW")
    }

    func line(_ line: TranscriptLine) {
        guard case .highlight(let id, _, _) = line.event, id != SetupSession.promptID else { return }
        // The confirmation's highlight: the four items, the lit one in brackets.
        let k = Int(id.dropFirst("setup:".count)) ?? 0
        say("  " + (1...4).map { $0 == k ? "[\($0)]" : " \($0) " }.joined(separator: " ") + (k == 3 ? "   ← select" : ""))
    }

    func note(_ n: SetupSession.Note) {
        switch n {
        case .prompt(let k, let of): say("[\(k)/\(of)] ● PRESS NOW" + (bell && terminal ? "\u{7}" : ""))
        case .answered(_, let rt): say("      \(formatFixed(rt, 2)) s")
        case .unanswered: say("      no press")
        case .anticipation: say("      too soon: pressed before the prompt could be seen")
        case .unprompted(let d): say("  a press with no prompt (held \(formatFixed(d, 3)) s)")
        case .bounce(let gap): say("  a bounce \(formatFixed(gap, 3)) s after the release")
        case .measured(let r):
            say("measured; recommended:")
            for reason in r.reasons { say("  \(reason.setting): \(reason.reason)") }
        case .round(let k, let t):
            say("confirmation \(k): select 3 when it is highlighted, 4 times (scan time \(formatFixed(t.seconds, 3)) s)")
        case .roundOver(_, let errors, let attempts, let slower):
            say("  \(errors) error\(errors == 1 ? "" : "s") in \(attempts)" + (slower ? ": more than 25 %, one step slower" : ""))
        case .finished: say("done")
        case .failed(let why): say(why)
        }
    }

    private func say(_ s: String) { Output.rawError("switchscan setup: " + s + "\n") }
}
