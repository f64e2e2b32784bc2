import ArgumentParser
import Foundation
import SwitchCore
import SwitchDisplay
import SwitchDisplayServers
import SwitchInput
import SwitchOverlay
import SwitchSpeech
import SwitchDesktop

/// `switchscan run`: the live engine on real devices. Prints the transcript as it happens; ends
/// at --until or on Ctrl-C (status 0); SIGHUP re-reads the tree.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the engine on live input devices and print the transcript as it happens.",
        discussion: """
        Devices: --device options, else the profile's "devices", else every device that has one of \
        the profile's switch keys (plus touchscreens when the profile uses touch). The picked devices \
        are named on stderr. Ctrl-C or SIGTERM ends the run (status 0); SIGHUP re-reads --tree. \
        With --desktop the tree is the live desktop's (AT-SPI: the active window, or --app NAME), \
        read again whenever the UI changes, every perform is carried out there and answered by a \
        `result` line, and the highlight is shown on the screen (--no-show: not). \
        The display backend (--display) is the session's: which one, and why, is said on stderr. \
        Touch passthrough (a profile without switches, or touchAccommodations.output \
        "virtualTouchscreen"): every picked touchscreen is grabbed and mirrored by a virtual \
        touchscreen that gets what the touch accommodations let through; no tree is needed. \
        Exit status 2 for bad input, a device that cannot be opened, --inject or touch passthrough without a writable /dev/uinput, \
        --show without an X server, or speech on in the profile without speech-dispatcher. \
        Safety exit: holding any switch for the profile's pauseHold (3 s by default) or pressing \
        Ctrl+Alt+Shift+S on a keyboard pauses scanning and releases every grab; the same again resumes.
        """)

    @Option(help: "The element tree file (or --desktop; neither for a profile that only passes touches on).")
    var tree: String?

    @OptionGroup var live: DesktopOptions

    @Option(help: "A profile: a path, or a name (see `switchscan profiles`). Default: ~/.config/switchscan/profile.json, else the built-in defaults.")
    var profile: String?

    @Option(name: .customLong("device"), help: "A device: node path, name (or a unique part of it) or vendor:product. Repeatable.")
    var devices: [String] = []

    @Option(help: "Stop after this many seconds.")
    var until: Double?

    @OptionGroup var output: TranscriptOptions

    @Flag(help: "Grab the devices (EVIOCGRAB) so their keys reach no other program. Never grabs your only full keyboard unless named.")
    var grab = false

    @Flag(help: "Perform activations and escape on the desktop through a uinput device (needs /dev/uinput).")
    var inject = false

    @Flag(inversion: .prefixedNo, help: "Draw the highlight and the scanner menu on the screen (an X server: Xorg, or Xwayland for X11 apps). Default: on with --desktop, else off.")
    var show: Bool?

    @Flag(help: "Print every frame the engine receives on stderr.")
    var showFrames = false

    func validate() throws {
        try validateUntil(until)
        try live.validate(file: tree, optional: true)
        if inject && tree == nil { throw ValidationError("--inject performs on a tree: give --tree") }
        if live.desktop && inject { throw ValidationError("--desktop performs through AT-SPI; --inject is for a tree file") }
    }

    func run() throws {
        // A write that fails (a full disk) loses output: said once, the engine goes on, status 2
        // at the end (`Output`, `OutputQueue`).
        Output.keepGoing()
        let loaded = try reportingInputErrors { try ProfileLibrary.load(profile) }
        var profileValue = loaded.profile
        // Without --profile, say which one is used (the journal of the user service shows it).
        if profile == nil { note("profile: " + loaded.described) }
        // The display server, when the run draws or acts on it: which backend, and why.
        var showing = show ?? live.desktop
        let display = live.desktop || showing ? try live.displayBackend() : nil
        display?.notes.forEach(note)
        // A display nothing can be drawn on (an unknown Wayland compositor): speech says what the
        // highlight would have shown (unless --show asked for the highlight: that fails below).
        let speechInstead = display?.speaksInstead == true && show == nil
        if speechInstead {
            showing = false
            if !profileValue.scanning.speech {
                profileValue.scanning.speech = true
                note("speech is on: nothing can be drawn on this display")
            }
        }
        // The live desktop: its first read is the tree the engine starts with.
        var desktop: DesktopSource?
        var firstLines: [TranscriptEvent] = []
        var treeValue: ElementTree
        if live.desktop, let display {
            let source = try live.source(on: display)
            source.holdTime = profileValue.menu.holdTime
            if ProcessInfo.processInfo.environment["SWITCHSCAN_DESKTOP_TRACE"] != nil { source.trace = { note("desktop: " + $0) } }
            if let file = ProcessInfo.processInfo.environment["SWITCHSCAN_DESKTOP_TREE"] {
                // The tests' check of partial re-reads: the latest tree, as `tree dump --desktop` writes it.
                source.newTree = { try? Data((TreeEncoder.encode($0).rendered(indent: 2) + "\n").utf8).write(to: URL(fileURLWithPath: file)) }
            }
            (treeValue, firstLines) = source.start()
            desktop = source
        } else if let tree {
            treeValue = try reportingInputErrors { try InputFiles.tree(tree) }
        } else {
            try TouchPassthroughRun.checkTreeless(profileValue)
            treeValue = TouchPassthroughRun.screenOnly(TouchPassthroughRun.defaultScreen)
        }

        var injector: UInputOutput?
        if inject {
            do {
                injector = try UInputOutput(screen: treeValue.screen, holdTime: profileValue.menu.holdTime)
            } catch {
                throw fail("\(error)")
            }
            if let node = injector?.node { note("injecting into \(node) \"\(UInputOutput.deviceName)\"") }
            InjectNotes.devices(injector).forEach(note)
        }

        // What the person sees and hears: set up before the devices, so a missing X server or
        // speech-dispatcher is said at once.
        var presenters: [LoopAdapter] = []
        if showing, let display {
            do {
                let overlay = try Overlay(settings: Overlay.Settings(profileValue.scanning), surface: display.openOverlay())
                if ProcessInfo.processInfo.environment["SWITCHSCAN_OVERLAY_TRACE"] != nil { overlay.trace = { note("overlay: " + $0) } }
                note("showing the highlight on \(overlay.surfaceName) (\(overlay.screen.width)x\(overlay.screen.height))")
                presenters.append(overlay)
                // No tree: touches are mapped onto the screen, where the hold countdown is drawn.
                if tree == nil && desktop == nil { treeValue = TouchPassthroughRun.screenOnly(Size(width: Double(overlay.screen.width), height: Double(overlay.screen.height))) }
            } catch {
                // On by default with --desktop: say how to scan without it.
                throw fail("\(error)" + (show == nil ? "; --no-show scans without drawing the highlight" : ""))
            }
        }
        if profileValue.scanning.speech || profileValue.scanning.soundEffects {
            do {
                let speech = try SpeechOutput(settings: SpeechOutput.Settings(profileValue.scanning))
                note("speaking through speech-dispatcher at \(speech.address)")
                presenters.append(speech)
            } catch where speechInstead && !loaded.profile.scanning.speech {
                // Turned on for the display, not by the profile: scanning goes on silently.
                note("warning: \(error); scanning goes on without speech and without a highlight")
                profileValue.scanning.speech = false
                presenters.append(SpeechOnDemand(SpeechOutput.Settings(profileValue.scanning)))
            } catch {
                throw fail("\(error)")
            }
        } else {
            presenters.append(SpeechOnDemand(SpeechOutput.Settings(profileValue.scanning)))  // the menu's Settings can turn them on
        }

        let (selected, entries) = try reportingInputErrors {
            try DevicePicking.pick(options: devices, profile: profileValue, profileFile: loaded.path ?? ProfileLibrary.builtInName)
        }
        let grabs = grab ? DeviceSelection.grabDecisions(selected, entries: entries)
                         : selected.map { _ in GrabDecision(grab: false, warning: nil) }
        let mirrors = try TouchPassthroughRun.mirrors(profileValue, selected)
        for (s, g) in zip(selected, grabs) {
            let passed = mirrors && s.description.isTouchscreen
            note("reading \(s.node) \"\(s.description.name)\" (\(s.reason))" + (passed ? ", grabbed, passed on to a virtual touchscreen" : g.grab ? ", grabbed" : ""))
            if let w = g.warning { note(w) }
        }

        let style = output.format, ids = output.ids
        let treePath = tree ?? ""
        // Neither output may hold the loop back (docs/live.md "Faults in the live loop"): lines wait in
        // memory for a reader that is behind, up to a bound, and what is dropped is said.
        let limit = ProcessInfo.processInfo.environment["SWITCHSCAN_OUTPUT_BUFFER"].flatMap { Int($0) } ?? OutputQueue.defaultLimit
        let errors = OutputQueue(name: "stderr", fd: 2, limit: limit, gapLine: { count, _, _ in
            "switchscan: \(count) note\(count == 1 ? " was" : "s were") not written: stderr was not being read\n"
        })
        let log: (String) -> Void = { errors.append(TerminalText.line("switchscan: " + $0) + "\n"); errors.flush() }
        let transcript = OutputQueue(name: "stdout", fd: 1, limit: limit, gapLine: { count, from, until in
            droppedLine(count, from: from, until: until, style: style) + "\n"
        }, log: log, failed: { e in
            log("warning: standard output: \(String(cString: strerror(e))); the transcript is no longer written")
        })
        // The lines of one wakeup go out in one write(2), before the loop sleeps again (a write
        // per line was a third of the CPU time of a switch press in the VM benchmark).
        var hooks = LiveRunner.Hooks(
            emit: { line in transcript.append(TranscriptFormat.render(line, as: style, ids: ids) + "\n", t: line.t) },
            flush: { transcript.flush(); errors.flush() },
            log: log,
            showFrame: showFrames ? { errors.append(TerminalText.line($0) + "\n") } : nil,
            reloadTree: desktop != nil || tree == nil ? nil : { () throws(InputError) -> ElementTree in try InputFiles.tree(treePath, notes: false) })
        if desktop == nil && tree != nil { hooks.reloadFile = InputFiles.displayName(treePath) }
        // The scanning keyboard and its predictions (docs/typing.md, Live/LiveTyping.swift).
        let typing = LiveTyping.start(profile: profileValue, quiet: !live.desktop && !treeValue.hasTextEntry, learn: profileValue.keyboard.learning, log: log)
        defer { typing?.stop() }
        hooks.predict = typing?.predict
        hooks.learn = typing?.learn
        hooks.learningNotices = typing?.takeNotices
        // Where the live tree comes from, before the engine's first line.
        for e in firstLines { hooks.emit(TranscriptLine(t: .zero, e)) }
        let chordWatch = DeviceSelection.chordWatch(profileValue.safetyExit.pauseChord, selected: selected, entries: entries)
        let runner: LiveRunner
        do {
            let plan: [(SelectedDevice, grab: Bool)] = zip(selected, grabs).map { ($0, grab: $1.grab) }
            // The desktop first: it answers performs before the presenters show what follows.
            let menu: [LoopAdapter] = [LockScreen(), SettingsKeeper(.forProfileOption(profile))]  // the scanner menu's (issue 23)
            // The display's own connection (a Wayland compositor, sway's events) first: what it
            // reads (a window moved) reaches the desktop in the same wakeup.
            let server: [LoopAdapter] = display.flatMap(DisplayBackends.loopAdapter).map { [$0] } ?? []
            let adapters: [LoopAdapter] = server + (injector.map { [$0] } ?? []) + (desktop.map { [$0] } ?? []) + menu + presenters + [transcript, errors]
            runner = try LiveRunner(devices: plan, chordWatch: chordWatch, adapters: adapters, hooks: hooks, mirrorTouchscreens: mirrors)
        } catch {
            desktop?.finish()
            throw fail("\(error)")
        }
        note(SafetyExitNote.text(profile: profileValue, watching: runner.chordWatchNames))
        if let unread = DeviceSelection.chordUnreadNote(profileValue.safetyExit.pauseChord, read: runner.descriptions, entries: entries) {
            note(unread)
        }
        var engine = Engine(tree: treeValue, profile: profileValue, devices: runner.descriptions, chordOnly: runner.chordOnlyDevices)
        engine.keyboardLayout = typing?.layout
        do {
            // The display server went away mid-run (the Wayland compositor): the loop ended with
            // every grab released; said on stderr, status 1.
            if case .failed(let why) = try runner.run(&engine, until: until.map { Instant.seconds($0) }) {
                // Said from the devices' state, so the person's carer learns the switches are free.
                let held = runner.grabbedNodes
                note(held.isEmpty ? "every switch device released" : "still grabbed: " + held.joined(separator: ", "))
                printError("switchscan: error: \(why)")
                throw ExitCode.failure
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            printError("switchscan: error: \(error)")
            throw ExitCode.failure
        }
        // Output was lost on the way (a full disk): the run went on, its status says so.
        if transcript.failure != nil || errors.failure != nil || Output.failure != nil { throw Exit.badInput }
    }
}

/// The line that stands for transcript lines dropped while stdout was not being read:
/// `{"t":2.100,"type":"dropped","lines":532,"until":12.300}`.
func droppedLine(_ count: Int, from: Instant?, until: Instant?, style: TranscriptFormat.Style) -> String {
    let t = (from ?? .zero).transcriptString, end = (until ?? from ?? .zero).transcriptString
    switch style {
    case .jsonl:
        return "{\"t\":\(t),\"type\":\"dropped\",\"lines\":\(count),\"until\":\(end)}"
    case .text:
        return String(repeating: " ", count: max(0, 8 - t.count)) + t + "  dropped    \(count) lines until \(end): stdout was not being read"
    }
}

/// How to pause, said once at the start of `run` (a carer reading the log must learn it there).
enum SafetyExitNote {
    static func text(profile: Profile, watching: [String]) -> String {
        var ways: [String] = []
        if !profile.pauseHold.isZero { ways.append("hold any switch \(profile.pauseHold.seconds) s") }
        if let chord = profile.safetyExit.pauseChord {
            ways.append("press \(chord)" + (watching.isEmpty ? "" : " (also watching " + watching.joined(separator: ", ") + ", not grabbed)"))
        }
        if ways.isEmpty { return "safety exit off (safetyExit in the profile): nothing but Ctrl-C or SIGTERM pauses" }
        return "to pause or resume: " + ways.joined(separator: ", or ")
    }
}
