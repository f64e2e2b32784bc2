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
    static func searchFolders() -> [ProfileLibrary.Folder] {
        ProfileLibrary.searchFolders(environment: "SWITCHSCAN_KEYBOARDS", folder: "keyboards", checkoutFolder: "Keyboards",
                                     checkoutMarker: "qwerty.json")
    }

    /// Every layout available by name, sorted, each from the first folder that has it.
    static func entries() -> [ProfileLibrary.Entry] { ProfileLibrary.entries(in: searchFolders()) }

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
        return try KeyboardLayoutDecoder.decode(InputFiles.read(path, .layout), file: InputFiles.displayName(path))
    }

    /// The word list for `language` (`words/LANGUAGE.txt` in the first folder that has it).
    static func wordList(language: String) throws(InputError) -> WordList {
        for folder in searchFolders() {
            let path = folder.path + "/words/" + language + ".txt"
            if FileManager.default.fileExists(atPath: path) {
                let bytes = try InputFiles.read(path, .wordList)
                return try WordList(text: String(decoding: bytes, as: UTF8.self), file: path)
            }
        }
        throw InputError(file: "words/\(language).txt", message: "no word list for \"\(language)\" in \(searchFolders().map(\.path).joined(separator: ", "))")
    }
}
