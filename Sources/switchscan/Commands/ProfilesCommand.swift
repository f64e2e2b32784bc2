import ArgumentParser
import Foundation
import SwitchCore

/// `switchscan profiles`: the profiles available by name and where each comes from;
/// `switchscan profiles show NAME`: one profile with every setting filled in.
struct ProfilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profiles",
        abstract: "List the profiles available by name, or show one with every setting.",
        discussion: """
        Profiles are found by name in $SWITCHSCAN_PROFILES (when set), then \
        $XDG_CONFIG_HOME/switchscan/profiles (~/.config/… by default), then in the installed \
        share/switchscan/profiles, then in ./Profiles, then in the Profiles folder of the checkout \
        the binary was built in; the first NAME.json wins. Without --profile, commands use \
        $XDG_CONFIG_HOME/switchscan/profile.json when it exists, else the built-in defaults. To \
        start from a bundled profile: mkdir -p ~/.config/switchscan && switchscan profiles show \
        tremor > ~/.config/switchscan/profile.json
        """,
        subcommands: [List.self, Show.self],
        defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the profiles available by name: name, source, title and file (the default).")

        @Option(help: "text or json.")
        var format: ReportFormat = .text

        func run() throws {
            let entries = ProfileLibrary.entries()
            let defaultPath = ProfileLibrary.defaultProfilePath()
            let defaultExists = FileManager.default.fileExists(atPath: defaultPath)
            switch format {
            case .json:
                let profiles: [JSONOut] = entries.map { e in
                    .object([("name", .string(e.name)), ("source", .string(e.source)), ("path", .string(e.path)),
                             ("title", title(e.path).map { .string($0) } ?? .null),
                             ("hides", .array(e.hidden.map { .string($0) }))])
                }
                Output.line(JSONOut.object([
                    ("profiles", .array(profiles)),
                    ("default", .object([("path", .string(defaultPath)), ("exists", .bool(defaultExists))])),
                ]).rendered(indent: 2))
            case .text:
                // Names, paths and titles come from file names and files: escaped (`TerminalText`).
                let entries = entries.map { e in
                    var e = e
                    e.name = TerminalText.line(e.name)
                    e.hidden = e.hidden.map(TerminalText.line)
                    return e
                }
                let nameWidth = max(4, entries.map(\.name.count).max() ?? 0) + 2
                let sourceWidth = max(6, entries.map(\.source.count).max() ?? 0) + 2
                func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(1, n - s.count)) }
                Output.line(pad("NAME", nameWidth) + pad("SOURCE", sourceWidth) + "FILE  (TITLE)")
                for e in entries {
                    Output.line(pad(e.name, nameWidth) + pad(e.source, sourceWidth) + TerminalText.line(e.path) + "  ("
                                + TerminalText.line(title(e.path) ?? "cannot be read") + ")")
                    for hidden in e.hidden {
                        Output.line(String(repeating: " ", count: nameWidth + sourceWidth) + "hides " + hidden)
                    }
                }
                if entries.isEmpty { Output.line("(none: looked in " + ProfileLibrary.searchFolders().map { TerminalText.line($0.path) }.joined(separator: ", ") + ")") }
                Output.line("")
                Output.line("default profile: " + TerminalText.line(defaultPath) + (defaultExists ? "" : " (absent: the built-in defaults are used)"))
            }
        }

        /// The profile's own `name`, or an error sentence when it does not load.
        private func title(_ path: String) -> String? {
            do {
                return try ProfileDecoder.decode(InputFiles.read(path, .profile), file: path).name
            } catch {
                return "error: \(error)"
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a profile as JSON with every setting, defaults included.",
            discussion: "Without NAME: the profile commands use when --profile is absent. The output is a valid profile.")

        @Argument(help: "A profile name or path (- is standard input).")
        var name: String?

        func run() throws {
            let loaded = try reportingInputErrors { try ProfileLibrary.load(name) }
            note("\(loaded.path.map(InputFiles.displayName) ?? ProfileLibrary.builtInName)")
            Output.line(ProfileEncoder.encode(loaded.profile).rendered(indent: 2))
        }
    }
}
