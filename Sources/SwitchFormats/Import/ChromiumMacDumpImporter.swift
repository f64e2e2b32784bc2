import SwitchCore

/// Chromium's `dump_accessibility_tree` text in its macOS flavour (the `*-expected-mac.txt`
/// files of Chromium's accessibility tests, `ax_dump_tree` on a Mac): one node per line, two `+`
/// per level of depth, the NSAccessibility role, then `AXName=value` or `AXName='text'`
/// attributes. Lines starting with `#` and blank lines are skipped.
///
///     AXWebArea
///     ++AXGroup
///     ++++AXPopUpButton AXExpanded=0
///     ++++++AXMenuItem AXTitle='First item'
///
/// Mapping (docs/formats.md "Chromium dump, macOS roles"): the role decides the traits and whether the
/// node is one element; AXTitle, else AXDescription, is the label (AXValue for static text),
/// AXValue the value (a checkbox's 0/1/2: not checked/checked/mixed), AXHelp the hint,
/// AXExpanded the value "expanded"/"collapsed", AXEnabled=0 → notEnabled, AXSelected=1 →
/// selected, AXSubrole=AXSearchField → searchField, AXDOMIdentifier the id. Like a DevTools
/// dump it has no geometry: no frames, declared order, a 1280×800 screen.
enum ChromiumMacDumpImporter {
    static let defaultScreen = Size(width: 1280, height: 800)

    /// Whether the first meaningful line is an AX role at depth 0.
    static func looksLikeDump(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = raw.drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\u{FEFF}" })
            if line.isEmpty || line.hasPrefix("#") { continue }
            // A role: "AX", then a capitalised word of letters ("AXWebArea"), then the attributes.
            let role = line.prefix(while: { $0 != " " })
            let word = role.dropFirst(2)
            guard role.hasPrefix("AX"), word.count >= 2, word.allSatisfy({ $0.isASCII && $0.isLetter }),
                  word.first?.isUppercase == true, word.dropFirst().first?.isLowercase == true else { return false }
            return true
        }
        return false
    }

    /// The role of a dump with Linux roles (Chromium's `*-expected-auralinux.txt`: `[document
    /// web]`, then `++[push button] name='OK'`), or nil: its first line is a role in brackets,
    /// lower-case words.
    static func auralinuxRole(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = raw.drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\u{FEFF}" || $0 == "+" })
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return nil }
            let role = line[line.index(after: line.startIndex)..<close]
            guard !role.isEmpty, role.count <= 40, role.allSatisfy({ ($0.isASCII && $0.isLowercase) || $0 == " " }) else { return nil }
            return String(role)
        }
        return nil
    }

    struct Line {
        var depth: Int
        var role: String
        var attributes: [String: String]
        var lineNumber: Int
    }

    static func decode(_ bytes: [UInt8], file: String, limits: ReaderLimits = .standard) throws(InputError) -> ImportedTree {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw InputError(file: file, message: "not UTF-8 text (expected a Chromium accessibility tree dump)")
        }
        var lines: [Line] = []
        var budget = ElementBudget(limits)
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var line = Substring(raw)
            if line.hasSuffix("\r") { line.removeLast() }
            if number == 1, line.hasPrefix("\u{FEFF}") { line.removeFirst() }
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.hasPrefix("#") { continue }
            guard budget.take() else { throw InputError(file: file, line: number, column: 1, message: budget.message) }
            lines.append(try parse(line, number, file))
        }
        guard let first = lines.first else { throw InputError(file: file, message: "no nodes in the dump") }
        guard first.depth == 0 else {
            throw InputError(file: file, line: first.lineNumber, column: 1, message: "the first node must have no '+' (it is the root)")
        }

        // Build from the indentation: a stack of open nodes, one per depth.
        var stack: [Element] = []
        var roots: [Element] = []
        func close(to depth: Int) {
            while stack.count > depth {
                let done = stack.removeLast()
                if stack.isEmpty { roots.append(done) } else { stack[stack.count - 1].children.append(done) }
            }
        }
        for line in lines {
            guard line.depth <= stack.count else {
                throw InputError(file: file, line: line.lineNumber, column: 1,
                                 message: "depth \(line.depth) ('+' × \(line.depth * 2)) under a node of depth \(stack.count - 1): a node is at most one level below the one before it")
            }
            guard line.depth < ImportSupport.maxDepth else {
                throw InputError(file: file, line: line.lineNumber, column: 1, message: "nodes nested deeper than \(ImportSupport.maxDepth) levels")
            }
            close(to: line.depth)
            stack.append(element(line))
        }
        close(to: 0)

        // An element absorbs its children (their words label it when it has none).
        func absorb(_ e: inout Element) {
            if e.isAccessibilityElement == true {
                if e.label == nil { e.label = ImportSupport.joinLabels(words(e.children)) }
                e.children = []
            }
            for k in e.children.indices { absorb(&e.children[k]) }
        }
        var root = ImportSupport.singleRoot(roots)
        absorb(&root)
        root.order = .declared
        let note = "a Chromium accessibility tree dump has no geometry: no frames, dump order, activation by id, screen set to \(formatNumber(defaultScreen.width))×\(formatNumber(defaultScreen.height))"
        return ImportedTree(format: .chromiumMacDump, tree: ImportSupport.finish(consume root, screen: defaultScreen), notes: [note])
    }

    static func words(_ nodes: [Element]) -> [String] {
        var out: [String] = []
        for n in nodes where !n.elementsHidden {
            if let l = n.label { out.append(l) } else { out += words(n.children) }
        }
        return out
    }

    /// `++++AXMenuItem AXExpanded=0 AXTitle='First item'`.
    static func parse(_ line: Substring, _ number: Int, _ file: String) throws(InputError) -> Line {
        func fail(_ at: Substring.Index, _ message: String) -> InputError {
            InputError(file: file, line: number, column: line.utf8.distance(from: line.startIndex, to: at) + 1, message: message)
        }
        var i = line.startIndex
        var pluses = 0
        while i < line.endIndex, line[i] == "+" { pluses += 1; i = line.index(after: i) }
        guard pluses % 2 == 0 else { throw fail(line.startIndex, "odd number of '+' (\(pluses)): each level of depth is '++'") }
        let roleStart = i
        while i < line.endIndex, line[i] != " " { i = line.index(after: i) }
        let role = String(line[roleStart..<i])
        guard role.hasPrefix("AX"), role.count > 2 else { throw fail(roleStart, "expected an AX role such as AXButton, found \"\(role)\"") }

        var attributes: [String: String] = [:]
        while i < line.endIndex {
            while i < line.endIndex, line[i] == " " { i = line.index(after: i) }
            guard i < line.endIndex else { break }
            let nameStart = i
            while i < line.endIndex, line[i] != "=", line[i] != " " { i = line.index(after: i) }
            let name = String(line[nameStart..<i])
            guard i < line.endIndex, line[i] == "=" else {
                // A bare word (a state such as "AXFocused" in some dumps): present, no value.
                attributes[name] = ""
                continue
            }
            i = line.index(after: i)
            let valueStart = i
            var value: Substring
            if i < line.endIndex, line[i] == "'" {
                // To the quote that ends the value: followed by a space and an attribute, or the end.
                var j = line.index(after: i)
                var end: Substring.Index?
                while j < line.endIndex {
                    if line[j] == "'" {
                        let next = line.index(after: j)
                        if next == line.endIndex || line[next] == " " { end = j; break }
                    }
                    j = line.index(after: j)
                }
                guard let end else { throw fail(valueStart, "unterminated quoted value for \(name)") }
                value = line[line.index(after: i)..<end]
                i = line.index(after: end)
            } else if i < line.endIndex, line[i] == "{" || line[i] == "[" {
                var depth = 0
                var j = i
                repeat {
                    if line[j] == "{" || line[j] == "[" { depth += 1 }
                    if line[j] == "}" || line[j] == "]" { depth -= 1 }
                    j = line.index(after: j)
                } while j < line.endIndex && depth > 0
                guard depth == 0 else { throw fail(valueStart, "unbalanced brackets in the value of \(name)") }
                value = line[i..<j]
                i = j
            } else {
                while i < line.endIndex, line[i] != " " { i = line.index(after: i) }
                value = line[valueStart..<i]
            }
            attributes[name] = String(value)
        }
        return Line(depth: pluses / 2, role: role, attributes: attributes, lineNumber: number)
    }

    static func element(_ line: Line) -> Element {
        let a = line.attributes
        let role = MacRole.table[line.role] ?? MacRole(kind: .container)
        var e = Element(id: ImportSupport.nonEmpty(a["AXDOMIdentifier"]) ?? "", order: .declared)
        e.traits = role.traits
        if a["AXSubrole"] == "AXSearchField" { e.traits = .searchField }
        e.label = ImportSupport.nonEmpty(a["AXTitle"]) ?? ImportSupport.nonEmpty(a["AXDescription"])
        let value = ImportSupport.nonEmpty(a["AXValue"])
        if line.role == "AXStaticText" && e.label == nil {
            e.label = value
        } else if role.checkable, let v = value {
            e.value = ["0": "not checked", "1": "checked", "2": "mixed"][v] ?? v
        } else {
            e.value = value
        }
        e.hint = ImportSupport.nonEmpty(a["AXHelp"])
        if e.value == nil, let x = a["AXExpanded"] { e.value = x == "1" ? "expanded" : "collapsed" }
        if a["AXEnabled"] == "0" { e.traits.insert(.notEnabled) }
        if a["AXSelected"] == "1" { e.traits.insert(.selected) }
        if a["AXModal"] == "1" { e.viewIsModal = true }
        if a["AXHidden"] == "1" { e.elementsHidden = true }
        e.respondsToUserInteraction = role.respondsToUserInteraction
        switch role.kind {
        case .element: e.isAccessibilityElement = true
        case .container: if !role.traits.isEmpty { e.isAccessibilityElement = false }
        }
        if e.value == e.label { e.value = nil }
        return e
    }
}

/// How an NSAccessibility role maps onto the model (docs/formats.md).
struct MacRole: Sendable {
    enum Kind: Sendable { case element, container }
    var kind: Kind
    var traits: Traits = []
    var respondsToUserInteraction: Bool? = nil
    /// AXValue 0/1/2 is a check state.
    var checkable = false

    static let table: [String: MacRole] = {
        var t: [String: MacRole] = [:]
        for role in ["AXButton", "AXPopUpButton", "AXMenuButton", "AXMenuItem", "AXMenuBarItem", "AXDisclosureTriangle"] {
            t[role] = MacRole(kind: .element, traits: .button)
        }
        for role in ["AXCheckBox", "AXRadioButton", "AXSwitch", "AXToggle"] {
            t[role] = MacRole(kind: .element, traits: .button, checkable: true)
        }
        t["AXLink"] = MacRole(kind: .element, traits: .link)
        for role in ["AXTextField", "AXTextArea", "AXComboBox", "AXDateField", "AXTimeField"] {
            t[role] = MacRole(kind: .element, respondsToUserInteraction: true)
        }
        for role in ["AXSlider", "AXIncrementor", "AXStepper", "AXScrollBar"] {
            t[role] = MacRole(kind: .element, traits: .adjustable)
        }
        t["AXStaticText"] = MacRole(kind: .element, traits: .staticText)
        t["AXImage"] = MacRole(kind: .element, traits: .image)
        t["AXHeading"] = MacRole(kind: .element, traits: .header)
        for role in ["AXProgressIndicator", "AXBusyIndicator", "AXLevelIndicator"] {
            t[role] = MacRole(kind: .element, traits: .updatesFrequently)
        }
        t["AXTabGroup"] = MacRole(kind: .container, traits: .tabBar)
        return t
    }()
}
