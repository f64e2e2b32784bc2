import ArgumentParser
import SwitchCore
import SwitchFormats
import SwitchDesktop

struct TreeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree",
        abstract: "Show, audit and convert accessibility element trees.",
        subcommands: [Show.self, Audit.self, TreeImportCommand.self, TreeStatsCommand.self, TreeDumpCommand.self]
    )

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the scan order: number, id, description, frame, group path.")

        @Argument(help: "A tree file (native JSON, or a dump switchscan can import).")
        var file: String?

        @OptionGroup var live: DesktopOptions

        @Option(help: "text or json.")
        var format: ReportFormat = .text

        func validate() throws { try live.validate(file: file) }

        func run() throws {
            let tree = try live.desktop ? live.readTree() : reportingInputErrors { try InputFiles.tree(file!) }
            let model = ScanModel(tree: tree)
            switch format {
            case .json: Output.line(TreeReport.json(model).rendered(indent: 2))
            case .text: for line in TreeReport.text(model) { Output.line(line) }
            }
        }
    }

    struct Audit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Report accessibility problems, one line per problem with the element id.",
            discussion: "Exit status 1 when anything is found, 0 when nothing is, 2 for a malformed file.")

        @Argument(help: "A tree file.")
        var file: String

        func run() throws {
            let tree = try reportingInputErrors { try InputFiles.tree(file) }
            let findings = TreeAudit.findings(tree)
            for f in findings { Output.line(f.description) }
            if !findings.isEmpty { throw Exit.findings }
        }
    }
}
