import ArgumentParser
import Foundation
import SwitchCore
import SwitchFormats

/// `switchscan tree import FILE [-o OUT.json]`: any tree switchscan reads, written in the native
/// format (pretty JSON), so a dump from a phone or a browser can be edited and kept.
struct TreeImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert an iOS, Android, Chrome or Chromium dump to the native tree format.",
        discussion: """
        The format is chosen by content: Appium / WebDriverAgent XCUITest page sources \
        (XCUIElementType…) and the older UIAutomation ones (UIA…), Android uiautomator dumps and \
        Appium UiAutomator2 page sources (<hierarchy>), Chrome DevTools \
        Accessibility.getFullAXTree results ({"nodes": …}), Chromium dump_accessibility_tree text \
        with macOS roles (AXWebArea, depth as ++; *-expected-mac.txt), and native trees. The tree \
        goes to standard output, or to OUT with -o; notes (a default screen size, no geometry, \
        skipped references) go to standard error, as they do for every command that reads a dump.
        """)

    @Argument(help: "The dump to import.")
    var file: String

    @Option(name: .shortAndLong, help: "Write the native tree here instead of standard output (- is standard output).")
    var output: String?

    func run() throws {
        let progress = Progress("tree import")
        let imported = try reportingInputErrors { try TreeFile.importTree(InputFiles.read(file, .tree), file: InputFiles.displayName(file), limits: InputFiles.limits()) }
        for note in imported.notes { printError("switchscan: note: \(InputFiles.displayName(file)): \(note)") }
        progress.update("read as \(imported.format.title); writing the native tree")
        let json = TreeEncoder.encode(imported.tree).rendered(indent: 2) + "\n"
        defer { progress.finish("done") }
        guard let output, output != "-" else {
            Output.write(json)
            return
        }
        try reportingInputErrors { try OutputFiles.write(json, to: output) }
        let model = ScanModel(tree: imported.tree)
        printError("switchscan: \(file): \(imported.format.title) → \(output): \(model.accessibilityElements.count) accessibility elements, \(model.items.count) scan items")
    }
}
