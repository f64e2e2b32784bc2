import ArgumentParser
import Foundation
import SwitchCore

/// `switchscan setup`: the guided setup (issue 31, docs/clinicians.md "Guided setup"). The switch
/// test, the recommendation and the confirmation scan are the pure `SetupSession`; this shell
/// drives it live (`SetupLive`: the live loop over the switch, the overlay or the terminal), or
/// with a simulated person on the virtual clock (`--person`), and writes the profile.
struct SetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Measure the switch user and write a profile that fits them (the guided setup).",
        discussion: """
        The switch test: about 20 prompts, each lit after a random wait (on the screen with \
        --show, and in the terminal, with a sound); the person presses the switch as soon as \
        they see it. Measured: the reaction time (mean, SD, CV), anticipations (a press within \
        0.15 s of the prompt), press durations, bounces (a second closure within 0.15 s of a \
        release), presses with no prompt. Recommended: autoScanningTime (the larger of the \
        reaction time's mean ÷ 0.65 and its mean + 2 SD), a debounce that removes the bounces \
        seen, a hold duration when short unprompted presses were seen, pauseOnFirstItem. Then a \
        confirmation scan: the person selects item 3 of a 4-item auto scan 4 times; more than \
        25 % errors (wrong selections, passes with no press): one step slower, and again. The \
        numbers are printed (--format json for a file), and the profile is written as the \
        default profile ($XDG_CONFIG_HOME/switchscan/profile.json), the old one kept beside it \
        (profile.json.before-setup-DATE); --dry-run writes nothing. No press for --wait seconds, \
        or too few prompts answered: a clear message, nothing written (status 2). Ctrl-C: \
        nothing written (status 130). --person FILE runs the same steps with a simulated person \
        on the virtual clock and writes nothing.
        """)

    @Option(help: "The profile to start from (path or name): its switches and other settings are kept. Default: the default profile, else the built-in defaults.")
    var profile: String?

    @Option(help: ArgumentHelp("A simulated person (a JSON file, docs/typing.md) instead of the live switch: the same steps on the virtual clock; nothing is written.", valueName: "FILE"))
    var person: String?

    @Option(name: .customLong("device"), help: "The switch device: node path, name or vendor:product (repeatable). Default: the devices with the profile's switch keys.")
    var devices: [String] = []

    @Option(help: "Prompts in the switch test.")
    var presses: Int = 20

    @Option(help: ArgumentHelp("Seconds without any press before the setup gives up.", valueName: "SECONDS"))
    var wait: Double = 30

    @Option(help: "text or json (the numbers and the profile, on standard output).")
    var format: ReportFormat = .text

    @Flag(inversion: .prefixedNo, help: "Show the prompts and the confirmation scan on the screen (the overlay). Default: when there is a display.")
    var show: Bool?

    @Flag(help: "Measure and print; write no profile.")
    var dryRun = false

    @Option(help: .hidden)
    var seed: UInt64?

    func validate() throws {
        guard (5...100).contains(presses) else { throw ValidationError("--presses: expected 5 to 100 prompts, found \(presses)") }
        guard wait >= 1, wait <= 600 else { throw ValidationError("--wait: expected 1 to 600 seconds, found \(formatNumber(wait))") }
        if person != nil && (!devices.isEmpty || show == true) { throw ValidationError("--person runs on the virtual clock: not with --device or --show") }
    }

    var settings: SetupSession.Settings {
        var s = SetupSession.Settings()
        s.presses = presses
        s.idleLimit = .seconds(wait)
        s.minimumAnswers = min(s.minimumAnswers, presses)
        s.seed = seed ?? (person != nil ? 1 : UInt64(truncatingIfNeeded: Int64(Date().timeIntervalSince1970 * 1000)))
        return s
    }

    func run() throws {
        let loaded = try reportingInputErrors { try ProfileLibrary.load(profile) }
        guard loaded.profile.scans, !loaded.profile.switches.isEmpty else {
            throw fail("setup measures a switch: the profile binds none (a touch-only profile)")
        }
        var session = SetupSession(base: loaded.profile, settings: settings)
        if let person {
            let model = try reportingInputErrors { try PersonFiles.load(person) }
            var driver = PersonDriver(session, person: model)
            var task = SetupTask()
            driver.take(driver.withWorld { $0.start(at: .zero) }, &task) { _ in }
            _ = driver.run(&task, until: .seconds(3600)) { _ in }
            session = driver.world
            return try finish(session, write: false)
        }
        let ending = try SetupLive.run(&session, profile: loaded, devices: devices, show: show, terminal: format == .text || isatty(1) == 0)
        if ending == .interrupted {
            note("setup stopped before it was done; nothing written")
            throw ExitCode(130)
        }
        try finish(session, write: !dryRun)
    }

    /// The result on stdout, the profile written (or the failure, nothing written).
    func finish(_ session: SetupSession, write: Bool) throws {
        if let why = session.failure { throw fail(why + "; nothing written") }
        guard let result = session.result else { throw fail("setup did not finish; nothing written") }
        switch format {
        case .json: Output.line(result.json.rendered(indent: 2))
        case .text: Output.lines(result.text)
        }
        guard write else { return }
        do {
            let (path, kept) = try SetupSaving.write(result.profile)
            note("wrote \(path)" + (kept.map { "; the previous profile is kept as \($0)" } ?? ""))
        } catch {
            throw fail("the profile was not written: \(error)")
        }
    }
}

/// The setup's profile as the person's default profile: the whole profile (every setting, as
/// `profiles show` writes it), written like the menu's settings are (`AtomicFile`: a file
/// beside it, then renamed over it), the previous one kept beside it under a dated name.
enum SetupSaving {
    static func write(_ profile: Profile, to path: String = ProfileLibrary.defaultProfilePath(), at date: Date = Date()) throws -> (String, String?) {
        var kept: String?
        if FileManager.default.fileExists(atPath: path) {
            let stamp = ISO8601DateFormatter.string(from: date, timeZone: .current, formatOptions: [.withFullDate, .withTime, .withColonSeparatorInTime])
                .replacingOccurrences(of: ":", with: "")
            let old = path + ".before-setup-" + stamp
            try FileManager.default.copyItem(atPath: try AtomicFile.resolved(path), toPath: old)
            kept = old
        }
        try AtomicFile.makeFolder((try AtomicFile.resolved(path) as NSString).deletingLastPathComponent)
        try AtomicFile.replace(path, with: Array((ProfileEncoder.encode(profile).rendered(indent: 2) + "\n").utf8), newMode: 0o644)
        return (path, kept)
    }
}
