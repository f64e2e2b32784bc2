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
        Timestamps are seconds since scanning started; a recording whose first timestamp is above \
        100000 s is shifted so its first event is at 0. Without --until the run ends once no input \
        remains and either no timer is pending or 5 s have passed since the last input.
        """
    )

    @Option(help: "The element tree (native JSON or an imported dump).")
    var tree: String

    @Option(help: "A profile: a path, or a name (see `switchscan profiles`). Default: ~/.config/switchscan/profile.json, else the built-in defaults.")
    var profile: String?

    @Option(help: "The recorded input (evemu or libinput-record).")
    var events: String

    @Option(help: "A device description (evemu .desc) for an events-only recording.")
    var desc: String?

    @Option(help: "End the run at this time (seconds).")
    var until: Double?

    @Option(help: "Load another tree at a time, as SECONDS:FILE (repeatable): a layout change.")
    var layout: [String] = []

    @OptionGroup var output: TranscriptOptions

    @Option(help: ArgumentHelp("Also write a report of the session: one self-contained HTML page (figures, the screen, the path of the highlight, every press and perform). - writes it to standard output instead of the transcript.", valueName: "FILE.html"))
    var report: String?

    func validate() throws {
        if let until, !(until >= 0 && until.isFinite) { throw ValidationError("--until must be a number of seconds ≥ 0") }
    }

    func run() throws {
        let setup = try reportingInputErrors { () throws(InputError) -> SimulationSetup in
            try SimulationSetup.load(tree: tree, profile: profile, events: events, desc: desc, layouts: layout)
        }
        guard let report else {
            setup.run(until: until.map { Instant.seconds($0) }, output: output)
            return
        }
        // The page is written once the run is over; with `-` it replaces the transcript.
        var lines: [TranscriptLine] = []
        let end = setup.run(until: until.map { Instant.seconds($0) }, output: report == "-" ? nil : output) { lines.append($0) }
        var screens = [SessionReport.Screen(at: .zero, name: InputFiles.displayName(tree), tree: setup.tree)]
        for (k, (t, layoutTree)) in setup.layouts.enumerated() {
            screens.append(SessionReport.Screen(at: t, name: setup.layoutNames.indices.contains(k) ? setup.layoutNames[k] : "layout \(k + 1)", tree: layoutTree))
        }
        let profileName = (profile.map { InputFiles.displayName($0) + ": " } ?? "") + setup.profile.name
        let page = SessionReport.html(SessionReport.Session(treeName: InputFiles.displayName(tree), profileName: profileName,
                                                            inputName: InputFiles.displayName(events), screens: screens,
                                                            lines: lines, end: end))
        try reportingInputErrors { try OutputFiles.write(page, to: report) }
    }
}

/// Everything a simulation needs, loaded and checked before anything is printed.
struct SimulationSetup {
    var tree: ElementTree
    var profile: Profile
    var recording: Recording
    var layouts: [(Instant, ElementTree)]
    /// The files of `layouts`, as given.
    var layoutNames: [String] = []

    static func load(tree: String, profile: String?, events: String, desc: String?, layouts: [String]) throws(InputError) -> SimulationSetup {
        let t = try InputFiles.tree(tree)
        let p = try ProfileLibrary.load(profile).profile
        var recording = try loadRecording(events, desc: desc)
        recording = recording.rebasedForSimulation()
        var changes: [(Instant, ElementTree)] = []
        var names: [String] = []
        for spec in layouts {
            guard let colon = spec.firstIndex(of: ":"), let seconds = Double(spec[..<colon]), seconds >= 0, seconds.isFinite else {
                throw InputError(file: spec, message: "--layout expects SECONDS:FILE, e.g. 2.5:second-screen.json")
            }
            let file = String(spec[spec.index(after: colon)...])
            changes.append((.seconds(seconds), try InputFiles.tree(file)))
            names.append(InputFiles.displayName(file))
        }
        return SimulationSetup(tree: t, profile: p, recording: recording, layouts: changes, layoutNames: names)
    }

    static func loadRecording(_ path: String, desc: String?) throws(InputError) -> Recording {
        if let desc {
            return try RecordingFile.decode(events: (try InputFiles.read(path), InputFiles.displayName(path)),
                                            description: (try InputFiles.read(desc), InputFiles.displayName(desc)))
        }
        return try RecordingFile.decode(InputFiles.read(path), file: InputFiles.displayName(path))
    }

    func inputs() -> [Simulation.Input] {
        var inputs = recording.mergedFrames().map { Simulation.Input.frame($0.frame, device: $0.device) }
        for (t, tree) in layouts { inputs.append(.layout(tree, at: t)) }
        return inputs
    }

    /// Prints the transcript in 64 KB writes: an offline run has no reason to flush every line,
    /// and a write per line was most of the cost of printing it.
    /// - Parameters:
    ///   - output: how to print the transcript; nil prints nothing.
    ///   - observe: sees every line (a report collects them).
    /// - Returns: the instant the run ended at.
    @discardableResult
    func run(until: Instant?, output: TranscriptOptions?, observe: (TranscriptLine) -> Void = { _ in }) -> Instant {
        var engine = Engine(tree: tree, profile: profile, devices: recording.devices.map(\.description))
        var pending = ""
        // With speech on, phrases take the speech-time model's time (speech-paced scanning).
        let voice = profile.scanning.speech ? SpeechTimeModel(speechRate: profile.scanning.speechRate) : nil
        let end = Simulation.run(&engine, inputs: inputs(), until: until, speech: voice) { line in
            observe(line)
            guard let output else { return }
            pending += TranscriptFormat.render(line, as: output.format, ids: output.ids)
            pending += "\n"
            if pending.utf8.count >= 65_536 {
                Output.write(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        Output.write(pending)
        return end
    }
}
