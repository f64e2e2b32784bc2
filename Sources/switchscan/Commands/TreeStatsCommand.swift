import ArgumentParser
import SwitchCore
import SwitchFormats

/// `switchscan tree stats FILE [--profile PROFILE.json] [--format text|json]`.
struct TreeStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count elements, scan items and groups, and the time each scanning method takes to reach an item.",
        discussion: """
        elements: every node; accessibility elements: what assistive technology sees; scan items: \
        the stops of item scanning; groups: the groups of group scanning; depth: levels (a root \
        alone is 1).

        The profile (--profile; without it the default profile, else the built-in defaults) is \
        named in the report. Auto scanning: time to reach an item, with T = autoScanningTime, \
        P = pauseOnFirstItem and H = holdDuration: a level's first stop is highlighted at once \
        and stays T + P, every later stop T; the person has the whole dwell of a stop to press \
        it, so selecting the stop at index j (from 0) costs P + (j+1)·T + H. An item's time is \
        the sum over the levels on its way down, its presses the number of levels. Manual \
        scanning: presses only (j nexts and a select per level); single switch step: a press \
        per stop passed, a dwell T selects; a touch-only profile does not scan (said so). \
        Methods: linear (one level), group scanning (the app's containers), row-column \
        (containers and rows of three or more), auto grouping (per level the cheapest of \
        declared, rows, row-column and balanced chunks), and group selection with 2 to 6 \
        switches (T + H per press). Average over the scan items, and the worst.
        """)

    @Argument(help: "A tree file (native JSON, or a dump switchscan can import).")
    var file: String

    @Option(help: "A profile (a path, or a name: see `switchscan profiles`) whose scanning settings to use.")
    var profile: String?

    @Option(help: "text or json.")
    var format: ReportFormat = .text

    @Option(help: ArgumentHelp("Also the seconds a simulated person (a JSON file, docs/typing.md) takes to activate each item with each method, errors and corrections included.", valueName: "FILE"))
    var person: String?


    func run() throws {
        let progress = Progress("tree stats")
        let loaded = try reportingInputErrors { try ProfileLibrary.load(profile) }
        let tree = try reportingInputErrors { try InputFiles.tree(file) }
        let name = loaded.path.map { "\(loaded.profile.name) (\(InputFiles.displayName($0)))" } ?? ProfileLibrary.builtInName
        let personModel = try person.map { file in try reportingInputErrors { try PersonFiles.load(file) } }
        if personModel != nil, loaded.profile.scanning.style != .auto || !loaded.profile.scans {
            throw fail("--person: the profile must scan automatically (scanning.style \"auto\") with a switch; a person sets the pace of manual and step scanning")
        }
        let stats = TreeStats(tree: tree, profile: loaded.profile, profileName: name) { step in progress.update(step) }
        let personRows = personModel.map { Self.personRows(tree: tree, profile: loaded.profile, person: $0) { step in progress.update(step) } }
        progress.finish("done")
        defer { KeptUntilExit.keep((tree, stats)) }
        switch format {
        case .json:
            var json = stats.json
            if let personRows, let personModel, case .object(let members) = json { json = .object(members + [("person", Self.personJSON(personRows, person: personModel))]) }
            Output.line(json.rendered(indent: 2))
        case .text:
            for line in stats.text { Output.line(line) }
            if let personRows, let personModel { for line in Self.personText(personRows, person: personModel) { Output.line(line) } }
        }
    }
}
