import SwitchCore

/// Reads any tree file switchscan accepts, choosing the format by content, not by file name:
/// JSON with a `root` is the native format, JSON with `nodes` a Chrome DevTools
/// `Accessibility.getFullAXTree` result; XML whose first element is `<hierarchy>` an Android dump
/// (`<node>` children: `uiautomator dump`; class names as tags: Appium UiAutomator2), and
/// `<AppiumAUT>`, `<XCUIElementType…>` or `<UIA…>` an iOS page source; text whose first line is
/// an AX role (`AXWebArea`) a Chromium accessibility tree dump. docs/formats.md says how each one maps
/// onto the element model.
public enum TreeFile {
    public enum Format: String, Sendable, CaseIterable {
        case native
        /// Appium / WebDriverAgent XCUITest page source.
        case xcuitest
        /// Appium's page source from Instruments' UIAutomation (iOS 9 and before).
        case uiautomation
        /// `adb shell uiautomator dump`.
        case uiautomator
        /// Appium UiAutomator2 page source.
        case appiumUiAutomator2
        /// Chrome DevTools `Accessibility.getFullAXTree`.
        case chromeAXTree
        /// Chromium's `dump_accessibility_tree` text with macOS (NSAccessibility) roles.
        case chromiumMacDump

        public var title: String {
            switch self {
            case .native: return "switchscan tree (JSON)"
            case .xcuitest: return "iOS XCUITest page source (Appium / WebDriverAgent)"
            case .uiautomation: return "iOS UIAutomation page source (Appium, iOS 9 and before)"
            case .uiautomator: return "Android uiautomator dump"
            case .appiumUiAutomator2: return "Android Appium UiAutomator2 page source"
            case .chromeAXTree: return "Chrome DevTools Accessibility.getFullAXTree"
            case .chromiumMacDump: return "Chromium accessibility tree dump (macOS roles)"
            }
        }
    }

    /// The format of `bytes`, or nil when it is none switchscan reads. Looks at the first
    /// elements of XML; parses JSON (to see its keys).
    public static func detect(_ raw: [UInt8]) -> Format? {
        guard let bytes = try? TextEncoding.utf8(raw, file: "") else { return nil }
        switch firstByte(bytes) {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard let json = try? JSONParser.parse(bytes) else { return nil }
            return jsonFormat(json)
        case UInt8(ascii: "<"):
            return xmlFormat(XMLSniffer.firstElementNames(bytes, limit: 2))
        default:
            return ChromiumMacDumpImporter.looksLikeDump(TextEncoding.withoutCRLF(bytes)) ? .chromiumMacDump : nil
        }
    }

    /// The tree in `bytes`, whatever its format (used by `tree show`, `tree audit`, `simulate`, `run`).
    public static func decode(_ bytes: [UInt8], file: String, limits: ReaderLimits = .standard) throws(InputError) -> ElementTree {
        try importTree(bytes, file: file, limits: limits).tree
    }

    /// The tree, the format it was read as, and notes for the user (`tree import`). More elements
    /// than `limits.treeElements` is an error naming the element where the count passed it.
    public static func importTree(_ raw: [UInt8], file: String, limits: ReaderLimits = .standard) throws(InputError) -> ImportedTree {
        let bytes = try TextEncoding.utf8(raw, file: file)
        switch firstByte(bytes) {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let json: JSONNode
            do {
                json = try JSONParser.parse(bytes, file: file)
            } catch {
                // `[document web]`: not JSON that went wrong, but a dump with Linux roles.
                if let role = ChromiumMacDumpImporter.auralinuxRole(TextEncoding.withoutCRLF(bytes)) {
                    throw InputError(file: file, line: 1, column: 1, message: "a Chromium accessibility tree dump with Linux (auralinux) roles ([\(role)], *-expected-auralinux.txt); switchscan reads Chromium's dumps with macOS roles (AXWebArea …, *-expected-mac.txt), or a Chrome DevTools getFullAXTree result")
                }
                throw error
            }
            let reader = JSONReader(file: file, bytes: bytes)
            switch jsonFormat(json) {
            case .native?:
                return ImportedTree(format: .native, tree: try TreeDecoder.decode(json, reader: reader, limits: limits))
            case .chromeAXTree?:
                return try ChromeAXImporter.decode(json, reader: reader, limits: limits)
            default:
                for (key, node) in [("nodes", json["nodes"]), ("result.nodes", json["result"]?["nodes"])] {
                    if let node { throw reader.error(node, key, "expected an array of AXNode objects (a Chrome DevTools Accessibility.getFullAXTree result), found \(node.kindDescription)") }
                }
                throw reader.error(json, "", "JSON, but not a tree switchscan reads: expected an object with \"root\" (the native tree format) or with \"nodes\" (a Chrome DevTools Accessibility.getFullAXTree result, also inside \"result\")")
            }
        case UInt8(ascii: "<"):
            let names = XMLSniffer.firstElementNames(bytes, limit: 2)
            let format = xmlFormat(names)
            switch format {
            case .xcuitest?, .uiautomation?:
                // The format is the one `detect` gives (a UIA… element further down does not
                // change it: campaign 2's finding).
                return try IOSImporter.decode(bytes, file: file, format: format!, limits: limits)
            case .uiautomator?, .appiumUiAutomator2?:
                return try AndroidImporter.decode(bytes, file: file, limits: limits)
            default:
                // Malformed XML is reported as such, with its line and column, before "unknown".
                var check = RootElementRecorder()
                try XMLScanner.scan(bytes, file: file, into: &check)
                let root = check.root ?? (name: "?", offset: 0)
                throw bytes.withUnsafeBufferPointer { buf in
                    XMLScanner.error(buf, file: file, at: root.offset, "XML, but not a dump switchscan imports: the root element is <\(root.name)> (expected <hierarchy> from uiautomator or Appium UiAutomator2, or <AppiumAUT>, <XCUIElementType…> or <UIA…> from Appium / WebDriverAgent)")
                }
            }
        case nil:
            throw InputError(file: file, message: "empty file (expected a tree: native JSON, an iOS or Android XML dump, or a Chrome DevTools JSON dump)")
        default:
            // Dumps saved on Windows end lines with CRLF; the importer splits on LF. Dropping the
            // CR of each CRLF keeps every line number and every column before the line end.
            let text = TextEncoding.withoutCRLF(bytes)
            if ChromiumMacDumpImporter.looksLikeDump(text) { return try ChromiumMacDumpImporter.decode(text, file: file, limits: limits) }
            throw InputError(file: file, line: 1, column: 1, message: "not a tree file switchscan reads (expected JSON: a native tree or a Chrome DevTools getFullAXTree result; XML: an iOS or Android page source; or a Chromium accessibility tree dump with AX roles)")
        }
    }

    /// The first byte that is not space or a UTF-8 byte-order mark.
    static func firstByte(_ bytes: [UInt8]) -> UInt8? {
        var k = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { k = 3 }
        while k < bytes.count {
            switch bytes[k] {
            case 0x20, 0x0A, 0x0D, 0x09: k += 1
            default: return bytes[k]
            }
        }
        return nil
    }

    static func jsonFormat(_ json: JSONNode) -> Format? {
        if json["root"] != nil { return .native }
        if ChromeAXImporter.nodeList(json) != nil { return .chromeAXTree }
        return nil
    }

    static func xmlFormat(_ names: [String]) -> Format? {
        guard let first = names.first else { return nil }
        if first == "hierarchy" {
            return names.count > 1 && names[1] != "node" ? .appiumUiAutomator2 : .uiautomator
        }
        let ios = first == "AppiumAUT" && names.count > 1 ? names[1] : first
        if ios.hasPrefix("XCUIElementType") { return .xcuitest }
        if ios.hasPrefix("UIA") { return .uiautomation }
        if first == "AppiumAUT" { return .xcuitest }
        return nil
    }

    /// Remembers the root element's name, to name it in the "not a dump" message.
    struct RootElementRecorder: XMLHandler {
        var root: (name: String, offset: Int)?
        mutating func startElement(_ tag: XMLTag) throws(InputError) {
            if root == nil { root = (tag.name, tag.offset) }
        }
        mutating func endElement() throws(InputError) {}
    }
}

/// A quick look at the first element names of an XML file, skipping the declaration, comments
/// and DOCTYPE; it does not check the document (the importers' full scan does).
enum XMLSniffer {
    static func firstElementNames(_ bytes: [UInt8], limit: Int) -> [String] {
        var names: [String] = []
        var k = 0
        func starts(_ s: String, _ at: Int) -> Bool {
            let u = Array(s.utf8)
            return at + u.count <= bytes.count && Array(bytes[at..<at + u.count]) == u
        }
        func skip(past end: String, from: Int) -> Int {
            let u = Array(end.utf8)
            var j = from
            while j + u.count <= bytes.count {
                if bytes[j] == u[0] && Array(bytes[j..<j + u.count]) == u { return j + u.count }
                j += 1
            }
            return bytes.count
        }
        while k < bytes.count && names.count < limit {
            guard bytes[k] == UInt8(ascii: "<") else { k += 1; continue }
            if starts("<?", k) { k = skip(past: "?>", from: k + 2); continue }
            if starts("<!--", k) { k = skip(past: "-->", from: k + 4); continue }
            if starts("<![CDATA[", k) { k = skip(past: "]]>", from: k + 9); continue }
            if starts("<!", k) { k = skip(past: ">", from: k + 2); continue }
            if starts("</", k) { k = skip(past: ">", from: k + 2); continue }
            var end = k + 1
            while end < bytes.count, !(bytes[end] == 0x20 || bytes[end] == 0x0A || bytes[end] == 0x0D || bytes[end] == 0x09
                                       || bytes[end] == UInt8(ascii: ">") || bytes[end] == UInt8(ascii: "/")) { end += 1 }
            names.append(String(decoding: bytes[(k + 1)..<end], as: UTF8.self))
            // To the end of the tag, stepping over quoted values (they may hold '>').
            var quote: UInt8? = nil
            k = end
            while k < bytes.count {
                let c = bytes[k]
                if let q = quote {
                    if c == q { quote = nil }
                } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                    quote = c
                } else if c == UInt8(ascii: ">") {
                    break
                }
                k += 1
            }
        }
        return names
    }
}
