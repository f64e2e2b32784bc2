/// Reads a `keyboards/NAME.json` layout (docs/typing.md) with the profile reader's error quality:
/// every mistake is an `InputError` with the file, line, column and JSON path and what was
/// expected.
///
///     {"name": "qwerty", "language": "en",
///      "pages": [{"name": "letters", "rows": [["q", "w", …], …, [{"key": "page", "page": "digits", "label": "123"}, {"key": "space", "width": 5}]]},
///                {"name": "frequency", "computed": {"keys": ["e", "t", …, {"key": "space"}], "frequencies": {"e": 12.7, "space": 18.3},
///                                                   "columns": [4, 8], "fixed": [[…]]}}]}
///
/// A key is a string (a text key: it types that string) or an object: `{"key": KIND}` with KIND
/// one of space, backspace, deleteWord, return, shift, capsLock, left, right, close, page (with
/// `"page"`), or `{"text": "q"}`; both may add `"label"` and `"width"` (0.25–10, 1 = a letter).
public enum KeyboardLayoutDecoder {
    static let topKeys: Set<String> = ["name", "language", "description", "pages"]
    static let pageKeys: Set<String> = ["name", "rows", "computed"]
    static let computedKeys: Set<String> = ["keys", "frequencies", "columns", "fixed"]
    static let keyKeys: Set<String> = ["key", "text", "page", "label", "width"]

    public static func decode(_ bytes: [UInt8], file: String) throws(InputError) -> KeyboardLayout {
        let json = try JSONParser.parse(bytes, file: file)
        let r = JSONReader(file: file, bytes: bytes)
        let top = try r.object(json, "", allowed: topKeys)
        guard let nameNode = top["name"] else { throw r.error(json, "", "missing key \"name\" (the layout's name)") }
        let name = try r.string(nameNode, "name")
        guard !name.trimmed.isEmpty else { throw r.error(nameNode, "name", "expected a non-empty name") }
        var language = "en"
        if let v = top["language"] {
            language = try r.string(v, "language")
            guard !language.isEmpty, language.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else {
                throw r.error(v, "language", "expected a language tag such as \"en\" or \"es\", found \"\(language)\"")
            }
        }
        if let v = top["description"] { _ = try r.string(v, "description") }
        guard let pagesNode = top["pages"] else { throw r.error(json, "", "missing key \"pages\" (at least one page of keys)") }
        let pageNodes = try r.array(pagesNode, "pages")
        guard !pageNodes.isEmpty else { throw r.error(pagesNode, "pages", "expected at least one page") }

        var pages: [KeyboardLayout.Page] = []
        var pageRefs: [(page: String, node: JSONNode, path: String)] = []
        for (k, p) in pageNodes.enumerated() {
            let path = r.join("pages", k)
            let m = try r.object(p, path, allowed: pageKeys)
            guard let pn = m["name"] else { throw r.error(p, path, "missing key \"name\"") }
            let pageName = try r.string(pn, r.join(path, "name"))
            guard !pageName.isEmpty else { throw r.error(pn, r.join(path, "name"), "expected a non-empty page name") }
            if pages.contains(where: { $0.name == pageName }) {
                throw r.error(pn, r.join(path, "name"), "page \"\(pageName)\" appears twice")
            }
            var page = KeyboardLayout.Page(name: pageName, rows: [])
            switch (m["rows"], m["computed"]) {
            case (let rows?, nil):
                page.rows = try self.rows(rows, r.join(path, "rows"), r, &pageRefs)
            case (nil, let c?):
                page.computed = try computed(c, r.join(path, "computed"), r, &pageRefs)
            case (_?, _?):
                throw r.error(p, path, "give either \"rows\" or \"computed\", not both")
            case (nil, nil):
                throw r.error(p, path, "missing key \"rows\" (the keys, row by row) or \"computed\"")
            }
            try checkUnique(page, p, path, r)
            pages.append(page)
        }
        for ref in pageRefs where !pages.contains(where: { $0.name == ref.page }) {
            throw r.error(ref.node, ref.path, "no page named \"\(ref.page)\" (pages: \(pages.map(\.name).joined(separator: ", ")))")
        }
        // Every page but a single one needs a way to another: a person must never be stuck on one.
        if pages.count > 1 {
            for (k, page) in pages.enumerated() {
                let keys = page.rows.joined() + (page.computed.map { $0.keys + $0.fixed.joined() } ?? [])
                if !keys.contains(where: { if case .page = $0.kind { return true } else { return false } }) {
                    throw r.error(pageNodes[k], r.join("pages", k), "page \"\(page.name)\" has no page key: a person on it could not reach the other pages")
                }
            }
        }
        return KeyboardLayout(name: name, language: language, pages: pages)
    }

    private static func rows(_ node: JSONNode, _ path: String, _ r: JSONReader,
                             _ refs: inout [(page: String, node: JSONNode, path: String)]) throws(InputError) -> [[KeyboardLayout.Key]] {
        let rowNodes = try r.array(node, path)
        guard !rowNodes.isEmpty else { throw r.error(node, path, "expected at least one row") }
        var rows: [[KeyboardLayout.Key]] = []
        for (k, rowNode) in rowNodes.enumerated() {
            let rowPath = r.join(path, k)
            let keyNodes = try r.array(rowNode, rowPath)
            guard !keyNodes.isEmpty else { throw r.error(rowNode, rowPath, "expected at least one key in the row") }
            var row: [KeyboardLayout.Key] = []
            for (j, keyNode) in keyNodes.enumerated() {
                row.append(try key(keyNode, r.join(rowPath, j), r, &refs))
            }
            rows.append(row)
        }
        return rows
    }

    private static func computed(_ node: JSONNode, _ path: String, _ r: JSONReader,
                                 _ refs: inout [(page: String, node: JSONNode, path: String)]) throws(InputError) -> KeyboardLayout.Computed {
        let m = try r.object(node, path, allowed: computedKeys)
        guard let keysNode = m["keys"] else { throw r.error(node, path, "missing key \"keys\" (the keys to place)") }
        var keys: [KeyboardLayout.Key] = []
        for (j, k) in try r.array(keysNode, r.join(path, "keys")).enumerated() {
            keys.append(try key(k, r.join(r.join(path, "keys"), j), r, &refs))
        }
        guard keys.count >= 2 else { throw r.error(keysNode, r.join(path, "keys"), "expected at least two keys to place") }
        var frequencies: [String: Double] = [:]
        if let f = m["frequencies"] {
            let fm = try r.object(f, r.join(path, "frequencies"), allowed: Set(keys.map(frequencyName)))
            for (name, v) in fm {
                let value = try r.number(v, r.join(r.join(path, "frequencies"), name), in: 0...1e12)
                if let key = keys.first(where: { frequencyName($0) == name }) { frequencies[key.id] = value }
            }
        } else {
            throw r.error(node, path, "missing key \"frequencies\" (how often each key is used, e.g. {\"e\": 12.7, \"space\": 18.3})")
        }
        var columns = 4...8
        if let c = m["columns"] {
            if case .array(let a) = c.value {
                guard a.count == 2 else { throw r.error(c, r.join(path, "columns"), "expected a number of columns or [fewest, most]") }
                let lo = try r.integer(a[0], r.join(r.join(path, "columns"), 0), in: 1...40)
                let hi = try r.integer(a[1], r.join(r.join(path, "columns"), 1), in: 1...40)
                guard lo <= hi else { throw r.error(c, r.join(path, "columns"), "expected [fewest, most] with fewest ≤ most, found [\(lo), \(hi)]") }
                columns = lo...hi
            } else {
                let n = try r.integer(c, r.join(path, "columns"), in: 1...40)
                columns = n...n
            }
        }
        var fixed: [[KeyboardLayout.Key]] = []
        if let f = m["fixed"] { fixed = try rows(f, r.join(path, "fixed"), r, &refs) }
        return KeyboardLayout.Computed(keys: keys, frequencies: frequencies, columns: columns, fixed: fixed)
    }

    /// How a key is named in a frequency table: its text, or its kind's name ("space").
    static func frequencyName(_ key: KeyboardLayout.Key) -> String {
        switch key.kind {
        case .text(let t): return t
        case .page(let p): return "page:" + p
        default: return key.kind.name
        }
    }

    private static func key(_ node: JSONNode, _ path: String, _ r: JSONReader,
                            _ refs: inout [(page: String, node: JSONNode, path: String)]) throws(InputError) -> KeyboardLayout.Key {
        if case .string(let text) = node.value { return KeyboardLayout.Key(.text(try checkedText(text, node, path, r))) }
        let m = try r.object(node, path, allowed: keyKeys)
        var kind: KeyboardLayout.Kind
        switch (m["key"], m["text"]) {
        case (let k?, nil):
            let name = try r.string(k, r.join(path, "key"))
            if name == "page" {
                guard let p = m["page"] else { throw r.error(node, path, "a page key needs \"page\": the name of the page it shows") }
                let target = try r.string(p, r.join(path, "page"))
                refs.append((target, p, r.join(path, "page")))
                kind = .page(target)
            } else if let found = KeyboardLayout.Kind.named[name] {
                kind = found
            } else {
                let list = (Array(KeyboardLayout.Kind.named.keys) + ["page"]).sorted().joined(separator: ", ")
                throw r.error(k, r.join(path, "key"), "unknown key kind \"\(name)\" (expected one of: \(list); or a string, or {\"text\": …}, for a key that types)")
            }
        case (nil, let t?):
            kind = .text(try checkedText(try r.string(t, r.join(path, "text")), t, r.join(path, "text"), r))
        case (_?, _?):
            throw r.error(node, path, "give either \"key\" or \"text\", not both")
        case (nil, nil):
            throw r.error(node, path, "missing key \"key\" (space, backspace, shift, page, …) or \"text\"")
        }
        if m["page"] != nil, case .page = kind {} else if let p = m["page"] {
            throw r.error(p, r.join(path, "page"), "only a page key (\"key\": \"page\") names a page")
        }
        var key = KeyboardLayout.Key(kind)
        if let l = m["label"] {
            let label = try r.string(l, r.join(path, "label"))
            guard !label.trimmed.isEmpty else { throw r.error(l, r.join(path, "label"), "expected a non-empty label") }
            key.label = label
        }
        if let w = m["width"] { key.width = try r.number(w, r.join(path, "width"), in: 0.25...10) }
        return key
    }

    private static func checkedText(_ text: String, _ node: JSONNode, _ path: String, _ r: JSONReader) throws(InputError) -> String {
        guard !text.isEmpty else { throw r.error(node, path, "expected the text the key types, found an empty string") }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) }) else {
            throw r.error(node, path, "a key's text may not hold control characters (use {\"key\": \"return\"} for a new line)")
        }
        return text
    }

    private static func checkUnique(_ page: KeyboardLayout.Page, _ node: JSONNode, _ path: String, _ r: JSONReader) throws(InputError) {
        var seen = Set<String>()
        for key in page.rows.joined() + (page.computed.map { $0.keys + $0.fixed.joined() } ?? []) where !seen.insert(key.id).inserted {
            throw r.error(node, path, "page \"\(page.name)\" has the key \"\(frequencyName(key))\" twice (\(key.id))")
        }
    }
}
