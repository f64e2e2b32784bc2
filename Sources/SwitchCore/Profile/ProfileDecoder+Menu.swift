/// The profile's `"menu"` section (`MenuSettings`), checked as strictly as the rest: an unknown
/// id is an error that suggests the nearest known one; Escape, Close and Back cannot be hidden;
/// only an entry of a page can be moved to the top level; a shortcut's name may not clash with
/// another's (built-in or the profile's, ignoring case) and its keys are checked as the pause
/// chord is (`KeyCombo`).
extension ProfileDecoder {
    static let menuKeys: Set<String> = ["hide", "show", "top", "shortcuts", "speedStep", "holdTime"]
    static let shortcutKeys: Set<String> = ["name", "keys"]

    static func menuSettings(_ node: JSONNode, _ r: JSONReader) throws(InputError) -> MenuSettings {
        let m = try r.object(node, "menu", allowed: menuKeys)
        var settings = MenuSettings()
        if let v = m["speedStep"] { settings.speedStep = .seconds(try r.number(v, "menu.speedStep", in: MenuSettings.speedStepRange)) }
        if let v = m["holdTime"] { settings.holdTime = .seconds(try r.number(v, "menu.holdTime", in: MenuSettings.holdTimeRange)) }
        if let v = m["shortcuts"] { settings.shortcuts = try shortcuts(v, r) }

        let known = MenuEntry.knownIDs(shortcuts: settings.shortcuts)
        let pages = Dictionary(known.map { ($0.id, $0.page) }, uniquingKeysWith: { a, _ in a })
        func ids(_ key: String) throws(InputError) -> [(String, JSONNode)] {
            guard let v = m[key] else { return [] }
            var out: [(String, JSONNode)] = []
            var seen = Set<String>()
            for (k, item) in try r.array(v, "menu." + key).enumerated() {
                let path = "menu.\(key)[\(k)]"
                let id = try r.string(item, path)
                guard pages[id] != nil else {
                    throw r.error(item, path, "unknown menu entry \(TerminalText.quoted(TerminalText.shortened(id))) (\(suggestion(id, known.map(\.id))))")
                }
                if !seen.insert(id).inserted { throw r.error(item, path, "\"\(id)\" is listed twice") }
                out.append((id, item))
            }
            return out
        }
        let hide = try ids("hide"), show = try ids("show"), top = try ids("top")
        let hidden = Set(hide.map(\.0))
        for (k, (id, item)) in hide.enumerated() where MenuEntry.unhideable.contains(id) {
            throw r.error(item, "menu.hide[\(k)]", "\"\(id)\" cannot be hidden: Escape, Close and Back are how a person leaves the menu")
        }
        for (k, (id, item)) in top.enumerated() {
            guard pages[id] != nil, pages[id]! != nil else {
                throw r.error(item, "menu.top[\(k)]", "\"\(id)\" is not an entry of a page (only the entries of Gestures, Device, Shortcuts and Settings can be moved to the top level)")
            }
            if hidden.contains(id) {
                throw r.error(item, "menu.top[\(k)]", "\"\(id)\" is also in menu.hide; give it in one of the two")
            }
        }
        settings.hide = hide.map(\.0)
        settings.show = show.map(\.0)
        settings.top = top.map(\.0)
        return settings
    }

    /// `[{"name": "Print", "keys": "Ctrl+P"}, …]`: names unique among all shortcuts, keys canonical.
    static func shortcuts(_ node: JSONNode, _ r: JSONReader) throws(InputError) -> [ProfileShortcut] {
        var out: [ProfileShortcut] = []
        // Names seen, lower case: one look-up per shortcut (25,000 shortcuts took 11 s compared
        // each with every one before it).
        var earlierByName: [String: Int] = [:]
        for (k, item) in try r.array(node, "menu.shortcuts").enumerated() {
            let path = "menu.shortcuts[\(k)]"
            let m = try r.object(item, path, allowed: shortcutKeys)
            guard let nameNode = m["name"] else { throw r.error(item, path, "missing key \"name\" (what the menu says, e.g. \"Print\")") }
            guard let keysNode = m["keys"] else { throw r.error(item, path, "missing key \"keys\" (a key combination such as \"Ctrl+P\")") }
            let name = try r.string(nameNode, path + ".name")
            guard !name.trimmed.isEmpty, name.count <= 40, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw r.error(nameNode, path + ".name", "expected a name of 1 to 40 characters without control characters")
            }
            let lower = name.trimmed.lowercased()
            if let clash = Shortcut.builtIn.first(where: { $0.name.lowercased() == lower || $0.label.lowercased() == lower }) {
                throw r.error(nameNode, path + ".name", "\"\(name)\" clashes with the built-in shortcut \"\(clash.label)\" (\(clash.keys)); give it another name")
            }
            if let e = earlierByName[lower] {
                let earlier = out[e]
                throw r.error(nameNode, path + ".name", "\"\(name)\" clashes with the shortcut \"\(earlier.name)\" (\(earlier.keys)) before it; give it another name")
            }
            earlierByName[lower] = out.count
            let keysText = try r.string(keysNode, path + ".keys")
            let keys: KeyCombo
            do { keys = try KeyCombo(parsing: keysText) } catch { throw r.error(keysNode, path + ".keys", error.message) }
            out.append(ProfileShortcut(name: name, keys: keys.description))
        }
        return out
    }

    /// "did you mean …" for the nearest id (few edits, or the same ignoring case), else the list.
    static func suggestion(_ id: String, _ known: [String]) -> String {
        // Two ids whose lengths differ by more than the distance allowed are never that close:
        // an id of 900,000 characters is compared with none.
        let allowed = max(2, id.count / 4)
        let best = known.filter { abs($0.count - id.count) <= allowed }
            .map { ($0, editDistance(id.lowercased(), $0.lowercased())) }.min { $0.1 < $1.1 }
        if let (k, d) = best, d <= allowed { return "did you mean \"\(k)\"?" }
        let listed = 40
        return "expected one of: " + known.prefix(listed).joined(separator: ", ") + (known.count > listed ? ", … (\(known.count - listed) more)" : "")
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in 1...max(1, b.count) where !b.isEmpty {
                let old = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = old
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }
}
