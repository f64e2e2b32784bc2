import ArgumentParser
import Foundation
import SwitchCore
import SwitchFormats

/// `switchscan calibrate`: which switch settings would have counted a recorded session right.
/// A clinician asks the user to press N times, records it (`switchscan record`), and replays the
/// recording over a grid of hold duration × ignore repeat × debounce; the settings that accept
/// exactly N presses are the candidates. The work is `Calibration` (pure, in SwitchCore); this is
/// the shell: files, option lists, the report.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Replay recorded switch presses over a grid of filter settings and count what each lets through.",
        discussion: """
        For every combination of --hold, --ignore and --debounce (the profile's other switch \
        settings stay as they are) the recording's presses of the profile's switches go through \
        the switch filters, and the report gives, per setting, the presses accepted and the \
        presses rejected by reason (debounce, holdDuration, ignoreRepeat), plus the autorepeat \
        events, which are never presses. With --expect N it ranks the settings that accept \
        exactly N presses (or, when none does, those nearest), best first: the fewest neighbours in \
        the grid that count otherwise, then the shortest hold, the shortest ignore repeat, the \
        debounce nearest 25 ms; it shows the best 10 and leaves the table out, unless --all.

        LIST is comma-separated seconds (0,0.1,0.25) or START:STOP:STEP (0:0.5:0.05, STOP \
        included). Defaults: hold 0:0.5:0.05, ignore 0:1:0.1, debounce \
        0,0.01,0.02,0.025,0.03,0.04,0.05,0.075,0.1 (1,089 settings). Touchscreens in the \
        recording are left out (calibration counts switch presses). The tree is read and checked \
        like `simulate` does, although counting presses does not depend on it.
        """
    )

    @Option(help: ArgumentHelp("The recorded input (evemu or libinput-record).", valueName: "REC"))
    var events: String

    @Option(help: "The element tree the session was recorded against (native JSON or an imported dump).")
    var tree: String

    @Option(help: "A profile: a path, or a name (see `switchscan profiles`); default: the default profile. Its switches are the keys counted.")
    var profile: String?

    @Option(help: "A device description (evemu .desc) for an events-only recording.")
    var desc: String?

    @Option(help: ArgumentHelp("The number of presses the user meant to make: report the settings that accept exactly that many.", valueName: "N"))
    var expect: String?

    @Option(name: .customLong("hold"), help: ArgumentHelp("Hold durations to try (seconds).", valueName: "LIST"))
    var holdList: String?

    @Option(name: .customLong("ignore"), help: ArgumentHelp("Ignore-repeat times to try (seconds).", valueName: "LIST"))
    var ignoreList: String?

    @Option(name: .customLong("debounce"), help: ArgumentHelp("Debounce windows to try (seconds).", valueName: "LIST"))
    var debounceList: String?

    @Option(help: "Report format: text (a table) or json.")
    var format: ReportFormat = .text

    @Flag(help: "With --expect: every setting that matches, and the table of every setting (text format; JSON always has them all).")
    var all = false


    func run() throws {
        let setup = try reportingInputErrors { () throws(InputError) -> CalibrationSetup in
            try CalibrationSetup.load(events: events, desc: desc, tree: tree, profile: profile, expect: expect,
                                      hold: holdList, ignore: ignoreList, debounce: debounceList)
        }
        // Progress on stderr when it is a terminal (`Progress`): a long recording times a large
        // grid takes minutes. Ctrl-C stops the run (nothing is printed before the end, so nothing
        // half-written is left on stdout).
        let progress = Progress("calibrate")
        let outcomes = ParallelCalibration.run(events: setup.events, profile: setup.profile, grid: setup.grid) { done, total in
            progress.update("\(done) of \(total) settings replayed")
            if done == total { progress.finish("\(done) of \(total) settings replayed") }
        }
        let report = CalibrationReport(setup: setup, outcomes: outcomes, all: all)
        let lines = format == .json ? report.json() : report.text()
        for line in lines { Output.line(line) }
    }
}

/// Everything `calibrate` needs, read and checked before anything is printed.
struct CalibrationSetup {
    var eventsFile: String
    var profile: Profile
    var grid: Calibration.Grid
    /// Key events of the recording's non-touchscreen devices.
    var events: [TimedEvent]
    /// Presses (EV_KEY value 1) and autorepeats (value 2) of the profile's switches.
    var presses: Int
    var autorepeats: Int
    var expect: Int?

    static let defaultHold = "0:0.5:0.05"
    static let defaultIgnore = "0:1:0.1"
    static let defaultDebounce = "0,0.01,0.02,0.025,0.03,0.04,0.05,0.075,0.1"
    /// Keeps a mistyped step from starting a run of hours.
    static let maximumValuesPerList = 1000
    static let maximumSettings = 100_000

    static func load(events: String, desc: String?, tree: String, profile: String?, expect: String?,
                     hold: String?, ignore: String?, debounce: String?) throws(InputError) -> CalibrationSetup {
        // Options first (cheap, and a typo there should not wait for a large recording).
        let holds = try CalibrationList.parse(hold ?? defaultHold, option: "--hold", setting: "holdDuration")
        let ignores = try CalibrationList.parse(ignore ?? defaultIgnore, option: "--ignore", setting: "ignoreRepeat")
        let debounces = try CalibrationList.parse(debounce ?? defaultDebounce, option: "--debounce", setting: "debounce")
        let count = holds.count * ignores.count * debounces.count
        guard count <= maximumSettings else {
            throw InputError(file: "--hold/--ignore/--debounce",
                             message: "\(holds.count) × \(ignores.count) × \(debounces.count) = \(count) settings; at most \(maximumSettings)")
        }
        let grid = try Calibration.Grid(holdDurations: holds, ignoreRepeats: ignores, debounces: debounces, file: "calibration grid")
        var expected: Int?
        if let expect {
            guard let n = Int(expect.trimmingCharacters(in: .whitespaces)), n >= 0 else {
                throw InputError(file: "--expect", message: "expected a number of presses (0 or more), found \"\(expect)\"")
            }
            expected = n
        }

        _ = try InputFiles.tree(tree)
        let loaded = try ProfileLibrary.load(profile)
        let p = loaded.profile
        guard !p.switches.isEmpty else {
            throw InputError(file: loaded.path.map(InputFiles.displayName) ?? ProfileLibrary.builtInName, path: "switches", message: "the profile binds no switch keys; calibrate counts switch presses")
        }
        let recording = try RecordingInput.open(events, desc: desc)
        try recording.check(profile: p, profileFile: loaded.path.map(InputFiles.displayName) ?? ProfileLibrary.builtInName, replaying: false)
        // Only what is counted is kept: key events of the devices that are not touchscreens.
        let touchscreens = recording.survey.devices.map(\.isTouchscreen)
        var keyEvents: [TimedEvent] = []
        try recording.forEachEvent { device, e in
            if e.event.type == EventCodes.EV_KEY && !touchscreens[device] { keyEvents.append(e) }
            return true
        }
        let bound = Set(p.switches.map(\.code))
        let presses = keyEvents.filter { bound.contains($0.event.code) && $0.event.value == 1 }.count
        let autorepeats = keyEvents.filter { bound.contains($0.event.code) && $0.event.value == 2 }.count
        guard presses > 0 else {
            let names = p.switches.map(\.keyName).joined(separator: ", ")
            var pressed: [String] = []
            for e in keyEvents where e.event.value == 1 {
                let name = EventCodes.codeName(type: EventCodes.EV_KEY, code: e.event.code) ?? "key \(e.event.code)"
                if !pressed.contains(name) { pressed.append(name) }
            }
            let found = pressed.isEmpty ? "it has no key presses at all" : "its keys pressed: " + pressed.prefix(8).joined(separator: ", ")
            throw InputError(file: events, message: "no presses of the profile's switches (\(names)); \(found)")
        }
        return CalibrationSetup(eventsFile: events, profile: p, grid: grid, events: keyEvents, presses: presses,
                                autorepeats: autorepeats, expect: expected)
    }
}

/// A LIST option: comma-separated seconds, or START:STOP:STEP with STOP included. Values are
/// kept in microseconds, sorted, without repeats.
enum CalibrationList {
    static func parse(_ text: String, option: String, setting: String) throws(InputError) -> [Interval] {
        let range = ProfileDecoder.ranges[setting] ?? 0...10
        func seconds(_ s: Substring, _ what: String) throws(InputError) -> Int64 {
            let trimmed = s.trimmingCharacters(in: .whitespaces)
            guard let v = Double(trimmed), v.isFinite else {
                throw InputError(file: option, message: "expected \(what) in seconds, found \"\(trimmed)\" (LIST is 0,0.1,0.2 or START:STOP:STEP)")
            }
            guard range.contains(v) || what == "a step" else {
                throw InputError(file: option, message: "\(trimmed) s is outside \(setting)'s range \(formatRange(range)) s")
            }
            return Int64((v * 1_000_000).rounded())
        }

        var values: [Int64] = []
        if text.contains(":") {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3 else {
                throw InputError(file: option, message: "expected START:STOP:STEP, found \"\(text)\"")
            }
            let start = try seconds(parts[0], "a start")
            let stop = try seconds(parts[1], "a stop")
            let step = try seconds(parts[2], "a step")
            guard step > 0 else { throw InputError(file: option, message: "the step must be above 0 (at least 0.000001 s), found \"\(parts[2])\"") }
            guard stop >= start else { throw InputError(file: option, message: "the stop (\(parts[1])) is below the start (\(parts[0]))") }
            let count = (stop - start) / step + 1
            guard count <= CalibrationSetup.maximumValuesPerList else {
                throw InputError(file: option, message: "\(text) gives \(count) values; at most \(CalibrationSetup.maximumValuesPerList)")
            }
            values = (0..<count).map { start + $0 * step }
        } else {
            let items = text.split(separator: ",", omittingEmptySubsequences: false)
            guard items.count <= CalibrationSetup.maximumValuesPerList else {
                throw InputError(file: option, message: "\(items.count) values; at most \(CalibrationSetup.maximumValuesPerList)")
            }
            for item in items {
                guard !item.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw InputError(file: option, message: "an empty value in \"\(text)\" (LIST is 0,0.1,0.2 or START:STOP:STEP)")
                }
                values.append(try seconds(item, "a value"))
            }
        }
        return Array(Set(values)).sorted().map { Interval(microseconds: $0) }
    }

}

/// The report: a table per setting, then (with --expect) the settings that match.
struct CalibrationReport {
    var setup: CalibrationSetup
    var outcomes: [Calibration.Outcome]
    /// `--all`: with --expect, every match and the whole table (else the best `shown`).
    var all = false

    /// The matches a text report shows without --all.
    static let shown = 10

    /// Seconds as written in a profile: "0", "0.05", "0.025".
    static func seconds(_ i: Interval) -> String { formatNumber(Double(i.microseconds) / 1_000_000) }

    /// The settings that yield exactly `expect` presses, or (none does) those nearest to it,
    /// best first (`Calibration.ranked`).
    var matches: (exact: Bool, ranked: [Calibration.Ranked])? {
        guard let n = setup.expect else { return nil }
        let ranked = Calibration.ranked(outcomes, expect: n, grid: setup.grid)
        guard let best = ranked.first.map({ abs($0.outcome.accepted - n) }) else { return (false, []) }
        return (best == 0, ranked.filter { abs($0.outcome.accepted - n) == best })
    }

    static let columns = ["holdDuration", "ignoreRepeat", "debounce", "accepted",
                          "rejected(debounce)", "rejected(holdDuration)", "rejected(ignoreRepeat)", "autorepeat"]

    func text() -> [String] {
        let g = setup.grid
        let names = setup.profile.switches.map(\.keyName).joined(separator: ", ")
        var lines = [
            "\(setup.eventsFile): \(setup.presses) press\(setup.presses == 1 ? "" : "es") of \(names)"
                + (setup.autorepeats > 0 ? ", \(setup.autorepeats) autorepeat event\(setup.autorepeats == 1 ? "" : "s")" : ""),
            "\(g.holdDurations.count) holdDuration × \(g.ignoreRepeats.count) ignoreRepeat × \(g.debounces.count) debounce = \(outcomes.count) settings (seconds)",
            "",
        ]
        let widths = Self.columns.map(\.count)
        func row(_ cells: [String]) -> String {
            zip(cells, widths).map { String(repeating: " ", count: max(0, $1 - $0.count)) + $0 }.joined(separator: "  ")
        }
        // With --expect the ranking is the answer; the table of every setting only with --all.
        if setup.expect == nil || all {
            lines.append(Self.columns.joined(separator: "  "))
            for o in outcomes {
                lines.append(row([Self.seconds(o.setting.holdDuration), Self.seconds(o.setting.ignoreRepeat), Self.seconds(o.setting.debounce),
                                  String(o.accepted), String(o.rejected.debounce), String(o.rejected.holdDuration),
                                  String(o.rejected.ignoreRepeat), String(o.rejected.autorepeat)]))
            }
            lines.append("")
        }
        if let n = setup.expect, let m = matches {
            let (exact, matching) = (m.exact, m.ranked)
            let count = "\(matching.count) setting\(matching.count == 1 ? "" : "s")"
            let order = "best first (the fewest neighbours in the grid that count otherwise, then the shortest hold, the shortest ignore repeat, the debounce nearest 25 ms)"
            if exact {
                lines.append("expect \(n): \(count) accept\(matching.count == 1 ? "s" : "") exactly \(n) press\(n == 1 ? "" : "es"), \(order):")
            } else {
                lines.append("expect \(n): no setting accepts exactly \(n) press\(n == 1 ? "" : "es"); nearest, \(count), \(order):")
            }
            let listed = all ? matching : Array(matching.prefix(Self.shown))
            let cells = listed.map { [Self.seconds($0.outcome.setting.holdDuration), Self.seconds($0.outcome.setting.ignoreRepeat),
                                      Self.seconds($0.outcome.setting.debounce)] }
            let w = (0..<3).map { c in cells.map { $0[c].count }.max() ?? 0 }
            func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
            let rankWidth = String(listed.count).count + 1
            for (k, (r, c)) in zip(listed, cells).enumerated() {
                lines.append("  \(pad("\(k + 1).", rankWidth)) holdDuration \(pad(c[0], w[0]))  ignoreRepeat \(pad(c[1], w[1]))  debounce \(pad(c[2], w[2]))  → \(r.outcome.accepted) accepted; \(r.sameNeighbours) of \(r.neighbours) neighbours too")
            }
            if listed.count < matching.count {
                lines.append("  (the best \(listed.count) of \(matching.count); --all lists them all, with the table of every setting)")
            }
        } else {
            lines.removeLast()  // the table's blank line
        }
        return lines
    }

    /// One JSON document; each setting on a line of its own so the file stays readable and
    /// diffable at a thousand settings.
    func json() -> [String] {
        func number(_ i: Interval) -> JSONOut { .raw(Self.seconds(i)) }
        func setting(_ o: Calibration.Outcome) -> JSONOut {
            .object([
                ("holdDuration", number(o.setting.holdDuration)), ("ignoreRepeat", number(o.setting.ignoreRepeat)),
                ("debounce", number(o.setting.debounce)), ("accepted", .number(Double(o.accepted))),
                ("rejected", .object([("debounce", .number(Double(o.rejected.debounce))),
                                      ("holdDuration", .number(Double(o.rejected.holdDuration))),
                                      ("ignoreRepeat", .number(Double(o.rejected.ignoreRepeat)))])),
                ("autorepeat", .number(Double(o.rejected.autorepeat))),
            ])
        }
        let g = setup.grid
        let head: [(String, JSONOut)] = [
            ("events", .string(setup.eventsFile)),
            ("switches", .array(setup.profile.switches.map { .string($0.keyName) })),
            ("presses", .number(Double(setup.presses))),
            ("autorepeat", .number(Double(setup.autorepeats))),
            ("grid", .object([("holdDuration", .array(g.holdDurations.map(number))),
                              ("ignoreRepeat", .array(g.ignoreRepeats.map(number))),
                              ("debounce", .array(g.debounces.map(number)))])),
        ]
        var lines = ["{"]
        for (key, value) in head { lines.append("  \(JSONOut.string(key).rendered()): \(value.rendered()),") }
        lines.append("  \"settings\": [")
        for (k, o) in outcomes.enumerated() {
            lines.append("    " + setting(o).rendered() + (k + 1 < outcomes.count ? "," : ""))
        }
        if let n = setup.expect, let m = matches {
            let (exact, matching) = (m.exact, m.ranked)
            lines.append("  ],")
            lines.append("  \"expect\": {")
            lines.append("    \"presses\": \(n),")
            lines.append("    \"exact\": \(exact),")
            lines.append("    \"settings\": [")
            for (k, r) in matching.enumerated() {
                var entry = setting(r.outcome)
                if case .object(var members) = entry {
                    members.append(("neighbours", .object([("same", .number(Double(r.sameNeighbours))), ("of", .number(Double(r.neighbours)))])))
                    entry = .object(members)
                }
                lines.append("      " + entry.rendered() + (k + 1 < matching.count ? "," : ""))
            }
            lines.append("    ]")
            lines.append("  }")
        } else {
            lines.append("  ]")
        }
        lines.append("}")
        return lines
    }
}
