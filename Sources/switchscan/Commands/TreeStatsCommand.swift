import ArgumentParser
import SwitchCore
import SwitchFormats

/// `switchscan tree stats FILE [--profile PROFILE.json] [--format text|json]`.
struct TreeStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count elements, scan items and groups, and the time auto scanning takes to reach an item.",
        discussion: """
        elements: every node; accessibility elements: what assistive technology sees; scan items: \
        the stops of item scanning; groups: the groups of group scanning; depth: levels (a root \
        alone is 1).

        Time to reach an item, with T = autoScanningTime and P = pauseOnFirstItem of the profile \
        (without --profile: the default profile, else the built-in defaults): a level's first stop is highlighted at 0 and \
        stays T + P, every later stop T, so the stop at index k (from 0) is highlighted after 0 \
        for k = 0 and P + k·T for k > 0, and is selected at that moment. Linear: every scan item \
        in one level, one press. Group scanning: the top-level stops, then inside the selected \
        group, recursively, each level starting over; the time is the sum over the levels, the \
        presses one per group entered plus one. Average over the scan items, and the worst.
        """)

    @Argument(help: "A tree file (native JSON, or a dump switchscan can import).")
    var file: String

    @Option(help: "A profile (a path, or a name: see `switchscan profiles`) whose scanning settings to use.")
    var profile: String?

    @Option(help: "text or json.")
    var format: ReportFormat = .text


    func run() throws {
        let tree = try reportingInputErrors { try InputFiles.tree(file) }
        let scanning = try reportingInputErrors { try ProfileLibrary.load(profile) }.profile.scanning
        let stats = TreeStats(tree: tree, scanning: scanning)
        switch format {
        case .json: Output.line(stats.json.rendered(indent: 2))
        case .text: for line in stats.text { Output.line(line) }
        }
    }
}
