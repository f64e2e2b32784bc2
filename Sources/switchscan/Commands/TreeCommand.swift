import ArgumentParser
import SwitchCore
import SwitchFormats
import SwitchReport
import SwitchDesktop

struct TreeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree",
        abstract: "Show, audit and convert accessibility element trees.",
        subcommands: [Show.self, Audit.self, TreeImportCommand.self, TreeStatsCommand.self, TreeDumpCommand.self]
    )

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the scan order: number, id, description, frame, group path; or draw the screen.",
            discussion: """
            --format svg draws the screen for people: every element's frame, the scan items numbered \
            in scan order, the groups outlined (dashed), and a legend of the items in scan order. A \
            tree without frames (a Chrome dump) is drawn as the legend alone, with a note; notes \
            also go to standard error.
            """)

        enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, svg }

        @Argument(help: "A tree file (native JSON, or a dump switchscan can import).")
        var file: String?

        @OptionGroup var live: DesktopOptions

        @Option(help: "text, json or svg.")
        var format: Format = .text

        func validate() throws { try live.validate(file: file) }

        func run() throws {
            let progress = Progress("tree show")
            let tree = try live.desktop ? live.readTree() : reportingInputErrors { try InputFiles.tree(file!) }
            defer { KeptUntilExit.keep(tree) }
            progress.update("scan order")
            switch format {
            case .json: Output.line(TreeReport.json(ScanModel(tree: tree)).rendered(indent: 2))
            case .text:
                let model = ScanModel(tree: tree)
                progress.update("scan order done, writing \(model.items.count) items")
                let lines = TreeReport.text(model)
                var written = 0
                Output.lines(lines.lazy.map { line in
                    written += 1
                    if written & 4095 == 0 { progress.update("\(written) of \(lines.count) lines written") }
                    return line
                })
                KeptUntilExit.keep((model, lines))
            case .svg:
                let name = file.map(InputFiles.displayName) ?? "the live desktop"
                for note in ScreenPicture.layout(tree).notes { printError("switchscan: note: \(name): \(note)") }
                progress.update("drawing")
                Output.write(ScreenPicture.svg(tree, title: name))
            }
            progress.finish("done")
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
