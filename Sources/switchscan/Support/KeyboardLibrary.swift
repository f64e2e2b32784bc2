import Foundation
import SwitchCore

/// Where keyboard layouts (`NAME.json`) and word lists (`words/LANGUAGE.txt`) are found, the way
/// profiles are (`ProfileLibrary`):
///
/// | order | folder | source |
/// |---|---|---|
/// | 1 | `$SWITCHSCAN_KEYBOARDS` (when set) | `environment` |
/// | 2 | `$XDG_CONFIG_HOME/switchscan/keyboards` | `user` |
/// | 3 | `<prefix>/share/switchscan/keyboards` | `installed` |
/// | 4 | `./Keyboards` | `working directory` |
/// | 5 | the `Keyboards/` folder of the checkout the executable was built in | `build tree` |
///
/// A value with a `/` or ending in `.json`, or naming an existing file, is a path.
enum KeyboardLibrary {
    struct Entry {
        var name: String
        var path: String
        var source: String
    }

    static func searchFolders() -> [ProfileLibrary.Folder] {
        var folders: [ProfileLibrary.Folder] = []
        if let env = ProcessInfo.processInfo.environment["SWITCHSCAN_KEYBOARDS"], !env.isEmpty {
            folders.append(.init(path: env, source: "environment"))
        }
        folders.append(.init(path: ProfileLibrary.configDirectory() + "/keyboards", source: "user"))
        if let share = ProfileLibrary.installedDataDirectory() { folders.append(.init(path: share + "/keyboards", source: "installed")) }
        folders.append(.init(path: FileManager.default.currentDirectoryPath + "/Keyboards", source: "working directory"))
        if let exe = ProfileLibrary.executablePath() {
            var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
            for _ in 0..<6 {
                let candidate = dir.appendingPathComponent("Keyboards").path
                if FileManager.default.fileExists(atPath: candidate + "/qwerty.json") {
                    folders.append(.init(path: candidate, source: "build tree"))
                    break
                }
                dir = dir.deletingLastPathComponent()
            }
        }
        var seen = Set<String>()
        return folders.filter { seen.insert(URL(fileURLWithPath: $0.path).standardizedFileURL.resolvingSymlinksInPath().path).inserted }
    }

    /// Every layout available by name, sorted, each from the first folder that has it.
    static func entries() -> [Entry] {
        var byName: [String: Entry] = [:]
        for folder in searchFolders() {
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for file in files.sorted() where file.hasSuffix(".json") && !file.hasPrefix(".") {
                let name = String(file.dropLast(5))
                if byName[name] == nil { byName[name] = Entry(name: name, path: folder.path + "/" + file, source: folder.source) }
            }
        }
        return byName.values.sorted { $0.name < $1.name }
    }

    static func resolve(_ nameOrPath: String) throws(InputError) -> String {
        if FileManager.default.fileExists(atPath: nameOrPath) && (nameOrPath.contains("/") || nameOrPath.hasSuffix(".json")) { return nameOrPath }
        let looksLikePath = nameOrPath.contains("/") || nameOrPath.hasSuffix(".json")
        if !looksLikePath, let found = entries().first(where: { $0.name == nameOrPath }) { return found.path }
        let known = entries().map(\.name)
        let list = known.isEmpty ? "" : "; layouts available by name: " + known.joined(separator: ", ")
        throw InputError(file: nameOrPath, message: "no such keyboard layout file\(looksLikePath ? "" : " or layout name")\(list)")
    }

    static func load(_ nameOrPath: String) throws(InputError) -> KeyboardLayout {
        let path = try resolve(nameOrPath)
        return try KeyboardLayoutDecoder.decode(InputFiles.read(path, .profile), file: InputFiles.displayName(path))
    }

    /// The word list for `language` (`words/LANGUAGE.txt` in the first folder that has it).
    static func wordList(language: String) throws(InputError) -> WordList {
        for folder in searchFolders() {
            let path = folder.path + "/words/" + language + ".txt"
            if FileManager.default.fileExists(atPath: path) {
                let bytes = try InputFiles.read(path, .profile)
                return try WordList(text: String(decoding: bytes, as: UTF8.self), file: path)
            }
        }
        throw InputError(file: "words/\(language).txt", message: "no word list for \"\(language)\" in \(searchFolders().map(\.path).joined(separator: ", "))")
    }
}
