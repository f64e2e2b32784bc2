import Foundation
import SwitchCore

/// Where profiles are found, the way Linux tools look for their configuration:
///
/// | order | folder | source |
/// |---|---|---|
/// | 1 | `$SWITCHSCAN_PROFILES` (when set) | `environment` |
/// | 2 | `$XDG_CONFIG_HOME/switchscan/profiles` (`~/.config/…` when unset) | `user` |
/// | 3 | `<prefix>/share/switchscan/profiles`, `<prefix>` being two levels above the executable's real path (`/usr/local/bin/switchscan` → `/usr/local`) | `installed` |
/// | 4 | `./Profiles` | `working directory` |
/// | 5 | the `Profiles/` folder of the checkout the executable was built in (`swift run`, `.build/*/switchscan`) | `build tree` |
///
/// `--profile NAME` takes the first `NAME.json` in that order; a value with a `/` or ending in
/// `.json`, or naming an existing file, is a path; `-` is standard input. Without `--profile`,
/// the default profile `$XDG_CONFIG_HOME/switchscan/profile.json` is used when it exists, else the
/// built-in defaults (docs/profiles.md).
enum ProfileLibrary {
    struct Folder: Equatable {
        var path: String
        var source: String
    }

    /// A profile found by name: where it is, and the files of the same name it hides.
    struct Entry {
        var name: String
        var path: String
        var source: String
        var hidden: [String]
    }

    /// The profile a command uses and where it came from (a path, or nil for the built-in defaults).
    struct Loaded {
        var profile: Profile
        var path: String?

        /// How a note names it: `PATH ("name")`, or the built-in defaults.
        var described: String {
            path.map { "\(InputFiles.displayName($0)) (\(TerminalText.quoted(profile.name)))" } ?? ProfileLibrary.builtInName
        }
    }

    static let builtInName = "built-in defaults"

    /// `--profile` when given, else the default profile, else the built-in defaults.
    static func load(_ nameOrPath: String?) throws(InputError) -> Loaded {
        if let nameOrPath {
            let path = try resolve(nameOrPath)
            return Loaded(profile: try decode(path), path: path)
        }
        let path = defaultProfilePath()
        if FileManager.default.fileExists(atPath: path) {
            return Loaded(profile: try decode(path), path: path)
        }
        var builtIn = Profile()
        builtIn.name = builtInName
        return Loaded(profile: builtIn, path: nil)
    }

    private static func decode(_ path: String) throws(InputError) -> Profile {
        var warnings: [InputError] = []
        let bytes = try InputFiles.read(path, .profile)
        let file = InputFiles.displayName(path)
        let profile = try ProfileDecoder.decode(bytes, file: file, warnings: &warnings)
        for w in warnings { note("warning: \(w)") }
        try checkLayout(profile, bytes, file: file)
        return profile
    }

    /// The keyboard layout a profile names is read now, not when the keyboard first opens in a
    /// session (issue 32: a misspelt layout passed `profiles show` and failed mid-session). The
    /// error points at `keyboard.layout` in the profile and says why the layout does not load.
    static func checkLayout(_ profile: Profile, _ bytes: [UInt8], file: String) throws(InputError) {
        guard let json = try? JSONParser.parse(bytes, file: file), let node = json["keyboard"]?["layout"] else { return }
        do {
            _ = try KeyboardLibrary.load(profile.keyboard.layout)
        } catch {
            let reader = JSONReader(file: file, bytes: bytes)
            let why = error.file == profile.keyboard.layout && error.line == nil ? error.message : error.description
            throw reader.error(node, "keyboard.layout", "\(TerminalText.quoted(TerminalText.shortened(profile.keyboard.layout))): \(why)")
        }
    }

    static func resolve(_ nameOrPath: String) throws(InputError) -> String {
        if nameOrPath == "-" || FileManager.default.fileExists(atPath: nameOrPath) { return nameOrPath }
        let looksLikePath = nameOrPath.contains("/") || nameOrPath.hasSuffix(".json")
        if !looksLikePath, let found = entries().first(where: { $0.name == nameOrPath }) {
            return found.path
        }
        let known = entries().map(\.name)
        let list = known.isEmpty ? "" : "; profiles available by name: " + known.joined(separator: ", ")
        throw InputError(file: nameOrPath, message: "no such profile file\(looksLikePath ? "" : " or profile name")\(list)")
    }

    /// `$XDG_CONFIG_HOME/switchscan`, `~/.config/switchscan` when XDG_CONFIG_HOME is unset, empty
    /// or relative (the XDG Base Directory rule).
    static func configDirectory() -> String {
        let env = ProcessInfo.processInfo.environment
        if let xdg = env["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/switchscan" }
        return homeDirectory() + "/.config/switchscan"
    }

    static func defaultProfilePath() -> String { configDirectory() + "/profile.json" }

    static func homeDirectory() -> String {
        if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty { return home }
        return NSHomeDirectory()
    }

    /// The executable's real path (symbolic links resolved).
    static func executablePath() -> String? {
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return URL(fileURLWithPath: exe).resolvingSymlinksInPath().path
    }

    /// `<prefix>/share/switchscan` for an executable at `<prefix>/bin/switchscan`.
    static func installedDataDirectory() -> String? {
        guard let exe = executablePath() else { return nil }
        let prefix = URL(fileURLWithPath: exe).deletingLastPathComponent().deletingLastPathComponent()
        return prefix.appendingPathComponent("share/switchscan").path
    }

    static func searchFolders() -> [Folder] {
        searchFolders(environment: "SWITCHSCAN_PROFILES", folder: "profiles", checkoutFolder: "Profiles",
                      checkoutMarker: "single-switch-auto.json")
    }

    /// The search order shared by profiles and keyboard layouts: `$ENVIRONMENT` when set, the
    /// user's `$XDG_CONFIG_HOME/switchscan/FOLDER`, the installed `share/switchscan/FOLDER`, the
    /// working directory's `CHECKOUTFOLDER`, and the checkout the executable was built in (found by
    /// `checkoutMarker`); a folder reached two ways appears once.
    static func searchFolders(environment: String, folder: String, checkoutFolder: String, checkoutMarker: String) -> [Folder] {
        var folders: [Folder] = []
        if let env = ProcessInfo.processInfo.environment[environment], !env.isEmpty {
            folders.append(Folder(path: env, source: "environment"))
        }
        folders.append(Folder(path: configDirectory() + "/" + folder, source: "user"))
        if let share = installedDataDirectory() {
            folders.append(Folder(path: share + "/" + folder, source: "installed"))
        }
        folders.append(Folder(path: FileManager.default.currentDirectoryPath + "/" + checkoutFolder, source: "working directory"))
        // The checkout this executable was built in: .../<repo>/.build/<triple>/<config>/switchscan
        if let exe = executablePath() {
            var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
            for _ in 0..<6 {
                let candidate = dir.appendingPathComponent(checkoutFolder).path
                if FileManager.default.fileExists(atPath: candidate + "/" + checkoutMarker) {
                    folders.append(Folder(path: candidate, source: "build tree"))
                    break
                }
                dir = dir.deletingLastPathComponent()
            }
        }
        // One folder reached two ways (run from the checkout: working directory = build tree) once.
        var seen = Set<String>()
        return folders.filter { seen.insert(URL(fileURLWithPath: $0.path).standardizedFileURL.resolvingSymlinksInPath().path).inserted }
    }

    /// Every profile available by name, sorted by name, each from the first folder that has it.
    static func entries() -> [Entry] { entries(in: searchFolders()) }

    /// Every `NAME.json` of `folders` by name, sorted, each from the first folder that has it and
    /// with the files of the same name it hides.
    static func entries(in folders: [Folder]) -> [Entry] {
        var byName: [String: Entry] = [:]
        for folder in folders {
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for file in files.sorted() where file.hasSuffix(".json") && !file.hasPrefix(".") {
                let name = String(file.dropLast(5))
                let path = folder.path + "/" + file
                if byName[name] != nil {
                    byName[name]!.hidden.append(path)
                } else {
                    byName[name] = Entry(name: name, path: path, source: folder.source, hidden: [])
                }
            }
        }
        return byName.values.sorted { $0.name < $1.name }
    }
}
