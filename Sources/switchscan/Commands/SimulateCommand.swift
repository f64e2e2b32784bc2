import ArgumentParser
import Foundation
import SwitchCore
import SwitchFormats
import SwitchReport

/// Transcript options shared by `simulate`, `demo` and `run`.
struct TranscriptOptions: ParsableArguments {
    @Option(help: "Transcript format: text (aligned, for people) or jsonl (one JSON object per line).")
    var format: TranscriptFormat.Style = .text

    @Flag(help: "Text format: print each element's id next to its label.")
    var ids = false
}

extension TranscriptFormat.Style: ExpressibleByArgument {}

struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Replay recorded input against a tree on a virtual clock and print the transcript.",
        discussion: """
        The very engine `run` uses, driven by a recording instead of devices: the same recording \
        always gives the same transcript. EVENTS is an evemu-record file (description and events, \
        or events only; with --desc for an events-only file) or a libinput-record YAML file. \
        The scanning keyboard opens as in `run` (the profile's layout and predictions); what is \
        written is learned into your own model only with --learn. \
        Timestamps are seconds since scanning started; a recording whose first timestamp is above \
        100000 s is shifted so its first event is at 0. Without --until the run ends once no input \
        remains and either no timer is pending or 5 s have passed since the last input.
        """
    )

    @Option(help: "The element tree (native JSON or an imported dump).")
    var tree: String

    @Option(help: "A profile: a path, or a name (see `switchscan profiles`). Default: ~/.config/switchscan/profile.json, else the built-in defaults.")
    var profile: String?

    @Option(help: "The recorded input (evemu or libinput-record). Without it, --until watches the scan with no input, or --person types.")
    var events: String?

    @Option(help: ArgumentHelp("Instead of a recording: a simulated person (a JSON file, docs/typing.md) who activates each of --targets in turn, on the virtual clock; their counts follow on stderr.", valueName: "FILE"))
    var person: String?

    @Option(help: ArgumentHelp("With --person: the ids of the elements to activate, in order, comma-separated.", valueName: "IDS"))
    var targets: String?

    @Option(help: "A device description (evemu .desc) for an events-only recording.")
    var desc: String?

    @Option(help: "End the run at this time (seconds).")
    var until: Double?

    @Option(help: "Load another tree at a time, as SECONDS:FILE (repeatable): a layout change.")
    var layout: [String] = []

    @OptionGroup var output: TranscriptOptions

    @Flag(help: "Learn what the session writes with the keyboard into your own model ($XDG_DATA_HOME/switchscan), as `run` does when the profile's keyboard.learning is on. Without it nothing of yours is read or written, so a simulation gives the same transcript every time.")
    var learn = false

    @Option(help: ArgumentHelp("Also write a report of the session: one self-contained HTML page (figures, the screen, the path of the highlight, every press and perform). - writes it to standard output instead of the transcript.", valueName: "FILE.html"))
    var report: String?

    func validate() throws {
        try validateUntil(until)
        if events != nil && person != nil { throw ValidationError("--events and --person are two inputs; give one of them") }
        if person != nil && (targets ?? "").split(separator: ",").isEmpty { throw ValidationError("--person needs --targets: the ids of the elements the person activates, comma-separated") }
        if person == nil && targets != nil { throw ValidationError("--targets is for --person") }
        if person != nil && (report != nil || desc != nil || !layout.isEmpty || learn) { throw ValidationError("--person runs alone: not with --report, --desc, --layout or --learn") }
        if events == nil && until == nil && person == nil {
            throw ValidationError("give --events FILE (a recording to replay), or --until SECONDS to watch the scan without input (or --person FILE --targets IDS: a simulated person)")
        }
        if events == nil && desc != nil { throw ValidationError("--desc describes the device of --events; give --events too") }
    }

    func run() throws {
        if let person { return try runPerson(person) }
        try reportingInputErrors {
            var setup = try SimulationSetup.load(tree: tree, profile: profile, events: events, desc: desc, layouts: layout, watching: until != nil)
            setup.learn = learn
            // Without --profile, say which one is used (as `run` does): the figures depend on it.
            if profile == nil { note("profile: " + setup.loadedProfile.described) }
            guard let report else {
                try setup.run(until: until.map { Instant.seconds($0) }, output: output)
                return
            }
            // The page is written once the run is over; with `-` it replaces the transcript. The
            // recorder keeps the figures of the whole session and the lines of its first part
            // only, so memory does not grow with the recording.
            var recorder = SessionReport.Recorder(trees: [setup.tree] + setup.layouts.map(\.1))
            let end = try setup.run(until: until.map { Instant.seconds($0) }, output: report == "-" ? nil : output) { recorder.observe($0) }
            var screens = [SessionReport.Screen(at: .zero, name: InputFiles.displayName(tree), tree: setup.tree)]
            for (k, (t, layoutTree)) in setup.layouts.enumerated() {
                screens.append(SessionReport.Screen(at: t, name: setup.layoutNames.indices.contains(k) ? setup.layoutNames[k] : "layout \(k + 1)", tree: layoutTree))
            }
            let profileName = (profile.map { InputFiles.displayName($0) + ": " } ?? "") + setup.profile.name
            let page = SessionReport.html(SessionReport.Session(treeName: InputFiles.displayName(tree), profileName: profileName,
                                                                inputName: events.map(InputFiles.displayName) ?? SimulationSetup.noRecording, screens: screens,
                                                                recorder: recorder, end: end))
            try OutputFiles.write(page, to: report)
        }
    }
}

/// Everything a simulation needs, loaded and checked before anything is printed.
struct SimulationSetup {
    var tree: ElementTree
    var profile: Profile
    var recording: RecordingInput
    var layouts: [(Instant, ElementTree)]
    /// The files of `layouts`, as given.
    var layoutNames: [String] = []
    /// `--profile` as given (nil: the default profile or the built-in defaults): where a setting
    /// the person changes from the menu would go (`SettingsSaving`).
    var profileOption: String? = nil
    /// `--learn`: the keyboard's writing is learned into the person's model.
    var learn = false
    /// The profile and where it came from.
    var loadedProfile: ProfileLibrary.Loaded

    /// What the input is called when there is none (`simulate --until` without `--events`).
    static let noRecording = "no recording"

    /// - Parameter watching: the run has an end of its own (`--until`), so a recording without
    ///   events, or none at all (`events` nil), is fine: the scan is watched without input.
    static func load(tree: String, profile: String?, events: String?, desc: String?, layouts: [String],
                     watching: Bool = false) throws(InputError) -> SimulationSetup {
        let t = try InputFiles.tree(tree)
        let loaded = try ProfileLibrary.load(profile)
        let p = loaded.profile
        let recording = try events.map { e throws(InputError) in try RecordingInput.open(e, desc: desc) }
            ?? RecordingInput(Recording(devices: []), files: (noRecording, nil))
        try recording.check(profile: p, profileFile: loaded.path.map(InputFiles.displayName) ?? ProfileLibrary.builtInName, watching: watching)
        var changes: [(Instant, ElementTree)] = []
        var names: [String] = []
        for spec in layouts {
            guard let colon = spec.firstIndex(of: ":"), let seconds = Double(spec[..<colon]) else {
                throw InputError(file: "--layout", message: "expected SECONDS:FILE, e.g. 2.5:second-screen.json, found \"\(spec)\"")
            }
            guard let at = TimeLimit.instant(seconds: seconds) else {
                throw InputError(file: "--layout", message: "\(spec[..<colon]) is out of range; expected \(TimeLimit.expected) before the colon")
            }
            let file = String(spec[spec.index(after: colon)...])
            changes.append((at, try InputFiles.tree(file)))
            names.append(InputFiles.displayName(file))
        }
        return SimulationSetup(tree: t, profile: p, recording: recording, layouts: changes, layoutNames: names, profileOption: profile,
                               loadedProfile: loaded)
    }

    /// Replays the recording frame by frame and prints the transcript in 64 KB writes: an
    /// offline run has no reason to flush every line, and a write per line was most of the cost
    /// of printing it.
    /// - Parameters:
    ///   - output: how to print the transcript; nil prints nothing.
    ///   - observe: sees every line (a report collects them).
    /// - Returns: the instant the run ended at.
    @discardableResult
    func run(until: Instant?, output: TranscriptOptions?, observe: (TranscriptLine) -> Void = { _ in }) throws(InputError) -> Instant {
        // With speech on, phrases take the speech-time model's time (speech-paced scanning).
        let voice = profile.scanning.speech ? SpeechTimeModel(speechRate: profile.scanning.speechRate) : nil
        // The keyboard as `run` opens it (its layout and predictions), learning only with --learn.
        var hasField = tree.hasTextEntry
        for (_, t) in layouts where t.hasTextEntry { hasField = true }
        let typing = LiveTyping.start(profile: profile, quiet: !hasField, learn: learn && profile.keyboard.learning, log: { note($0) })
        defer { typing?.stop() }
        var engine = Engine(tree: tree, profile: profile, devices: recording.devices)
        engine.keyboardLayout = typing?.layout
        var replay = Simulation.Replay(engine: engine, layouts: layouts, layoutFiles: layoutNames, until: until, speech: voice)
        if let predict = typing?.predict {
            let box = UncheckedSendable(predict)
            replay.predict = { box.value($0) }
        }
        let learnText = typing?.learn
        var pending = ""
        var verdicts = PressVerdicts()
        let saving = SettingsSaving.forProfileOption(profileOption)
        func emit(_ lines: [TranscriptLine]) {
            for line in lines {
                verdicts.observe(line)
                observe(line)
                if case .setting(let change) = line.event { note(saving.wouldKeep(change)) }
                guard let output else { continue }
                pending += TranscriptFormat.render(line, as: output.format, ids: output.ids)
                pending += "\n"
            }
            if pending.utf8.count >= 65_536 {
                Output.write(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        emit(replay.start())
        defer { Output.write(pending) }
        // Progress on a terminal (`Progress`): how far into the recording the replay is.
        let progress = Progress("simulate")
        let last = recording.survey.lastTime.map { Instant(microseconds: $0.microseconds - recording.survey.rebaseShift) }
        let total = last.map { " of \($0.transcriptString) s" } ?? ""
        let takeNotices = typing?.takeNotices
        /// Learns what was written by `t`, and says (once) what learning could not do, as `run` does.
        func learnWritten(at t: Instant) {
            let written = replay.takeLearning()
            if let learnText { written.forEach(learnText) }
            for notice in takeNotices?() ?? [] {
                emit([TranscriptLine(t: t, .keyboard(.learning(notice)))])
                note(notice.note)
            }
        }
        try recording.forEachFrame { device, frame in
            emit(replay.deliver(frame, device: device))
            learnWritten(at: frame.time)
            progress.update("\(frame.time.transcriptString) s\(total) replayed")
            return !replay.isOver
        }
        emit(replay.finish())
        learnWritten(at: replay.end ?? .zero)
        progress.finish()
        if let message = verdicts.nothingAccepted {
            Output.write(pending)
            pending = ""
            throw InputError(file: recording.files.events, message: message)
        }
        return replay.end ?? .zero
    }
}

/// Whether any touch got through when the touchscreen is a switch (`touchAsSwitch`): a run
/// whose every touch was rejected (touches shorter than the hold time, say) did nothing, and
/// says so after its transcript instead of exiting 0. Keyed switches are left alone: their
/// rejections are the transcript's point (the bundled tremor profile over the demo recording).
struct PressVerdicts {
    var accepted = 0
    var rejected: [FilterDecision.RejectReason: Int] = [:]

    mutating func observe(_ line: TranscriptLine) {
        switch line.event {
        case .filter(let f) where f.switchName == "touchscreen":
            switch f.decision {
            case .accepted, .longPress: accepted += 1
            case .rejected(let reason): rejected[reason, default: 0] += 1
            }
        case .touch(let t):
            if case .rejected = t.decision {} else { accepted += 1 }
        default: break
        }
    }

    var nothingAccepted: String? {
        guard accepted == 0, !rejected.isEmpty else { return nil }
        let total = rejected.values.reduce(0, +)
        let why = rejected.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.rawValue < $1.key.rawValue }
            .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
        return "every press (\(total)) was rejected by the profile's filters (\(why)), so the run did nothing; the transcript shows each rejection, and `switchscan calibrate` finds settings that accept them"
    }
}

/// A value handed to a `@Sendable` closure that only this thread runs (the simulation's
/// predictor: its presage child and word list are used from the one thread that replays).
final class UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

extension ElementTree {
    /// Whether any element takes text (the keyboard could open on it).
    var hasTextEntry: Bool {
        var found = false
        forEachNode { e, _ in if e.textEntry != nil { found = true } }
        return found
    }
}
