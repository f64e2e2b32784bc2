import ArgumentParser
import Foundation
import SwitchCore
import SwitchDesktop
import SwitchDisplay
import SwitchDisplayServers
import SwitchFormats

extension DisplayBackendName: ExpressibleByArgument {}

/// `--desktop [--app NAME] [--display NAME]`: the live desktop as the tree source
/// (docs/desktop.md), and the display server it is on.
struct DesktopOptions: ParsableArguments {
    @Flag(help: "Read the tree from the live desktop through AT-SPI (the active window, or --app).")
    var desktop = false

    @Option(help: "With --desktop: the application with this name on the accessibility bus (e.g. gtk3-widget-factory) instead of the active window.")
    var app: String?

    @Option(help: "The display backend for --desktop and --show: x11, wlroots, kwin, gnome or none. Default: the session's (WAYLAND_DISPLAY, XDG_CURRENT_DESKTOP, SWAYSOCK, DISPLAY).")
    var display: DisplayBackendName?

    /// Exactly one source: a file or the desktop (`optional`: or neither, `run` with a touch-only
    /// profile).
    func validate(file: String?, optional: Bool = false) throws {
        if app != nil && !desktop { throw ValidationError("--app needs --desktop") }
        if desktop && file != nil { throw ValidationError("give a tree file or --desktop, not both") }
        if !desktop && file == nil && !optional { throw ValidationError("give a tree file or --desktop") }
        if let display, !DisplayBackends.built.contains(display) {
            throw ValidationError(DisplaySession.Refusal(wanted: display, built: DisplayBackends.built).description)
        }
    }

    /// The display backend: `--display`'s, else the session's (its note says which and why).
    func displayBackend() throws -> DisplayBackend {
        switch DisplayBackends.open(ProcessInfo.processInfo.environment, forced: display) {
        case .success(let backend): return backend
        case .failure(let refusal): throw fail(refusal.description)  // `validate` refused it already
        }
    }

    /// Connects to the accessibility bus (exit status 2 with one line when it cannot), on `display`.
    func source(on display: DisplayBackend) throws -> DesktopSource {
        do {
            return try DesktopSource(app: app, display: display)
        } catch {
            throw fail(error.description)
        }
    }

    /// One read of the live tree.
    func readTree() throws -> ElementTree {
        let source = try source(on: displayBackend())
        defer { source.finish() }
        if ProcessInfo.processInfo.environment["SWITCHSCAN_DESKTOP_TRACE"] != nil {
            source.trace = { FileHandle.standardError.write(Data(("desktop: " + $0 + "\n").utf8)) }
        }
        do {
            return try source.readOnce()
        } catch {
            throw fail(error.description)
        }
    }
}

/// `switchscan tree dump --desktop [--app NAME] -o FILE`: the live tree in the native format, so a
/// session on a real application can be replayed with `simulate` against the very same tree.
struct TreeDumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Write the live desktop's tree (AT-SPI) in the native JSON format.",
        discussion: """
        Reads the active window, or the application named with --app, once, and writes the tree \
        `run --desktop` would scan. Ids are the application's bus name and the object's path, \
        stable while the application runs: a `simulate` on the dump names the same elements as \
        the live run. Exit status 2 when there is no accessibility bus or nothing to read.
        """)

    @OptionGroup var live: DesktopOptions

    @Option(name: .shortAndLong, help: "Write the tree here instead of standard output (- is standard output).")
    var output: String?

    func validate() throws {
        if !live.desktop { throw ValidationError("tree dump reads the live desktop: give --desktop") }
        try live.validate(file: nil)
    }

    func run() throws {
        let tree = try live.readTree()
        let json = TreeEncoder.encode(tree).rendered(indent: 2) + "\n"
        // `-o -` is standard output, as everywhere else; a file that cannot be written is named
        // with the system's reason.
        try reportingInputErrors { try OutputFiles.write(json, to: output ?? "-") }
        guard let output, output != "-" else { return }
        let model = ScanModel(tree: tree)
        printError("switchscan: desktop → \(output): \(model.accessibilityElements.count) accessibility elements, \(model.items.count) scan items")
    }
}
