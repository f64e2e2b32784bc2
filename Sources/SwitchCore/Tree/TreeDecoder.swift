/// Reads the native tree format (docs/formats.md "Element trees"). Every bad input is an `InputError` with
/// the file, line, column and JSON path; unknown keys are errors so a typo cannot silently change
/// behaviour. Repeated ids are not errors: they are renamed and reported by `tree audit`.
public enum TreeDecoder {
    static let topKeys: Set<String> = ["screen", "layoutDirection", "root"]
    static let screenKeys: Set<String> = ["width", "height"]
    static let elementKeys: Set<String> = [
        "id", "isAccessibilityElement", "label", "value", "hint", "traits", "frame", "activationPoint",
        "customActions", "elementsHidden", "viewIsModal", "shouldGroupChildren",
        "respondsToUserInteraction", "order", "scrollable", "children", "textEntry",
    ]
    static let actionKeys: Set<String> = ["name"]

    public static func decode(_ bytes: [UInt8], file: String, limits: ReaderLimits = .standard) throws(InputError) -> ElementTree {
        let json = try JSONParser.parse(bytes, file: file)
        return try decode(json, reader: JSONReader(file: file, bytes: bytes), limits: limits)
    }

    public static func decode(_ json: JSONNode, reader r: JSONReader, limits: ReaderLimits = .standard) throws(InputError) -> ElementTree {
        let top = try r.object(json, "", allowed: topKeys)
        guard let rootNode = top["root"] else { throw r.error(json, "", "missing key \"root\" (the root element)") }
        var budget = ElementBudget(limits)
        var root = try element(rootNode, { "root" }, r, &budget)

        var direction = ElementTree.LayoutDirection.leftToRight
        if let d = top["layoutDirection"] {
            direction = try r.choice(d, "layoutDirection", ["leftToRight": .leftToRight, "rightToLeft": .rightToLeft])
        }

        let screen: Size
        if let s = top["screen"] {
            let m = try r.object(s, "screen", allowed: screenKeys)
            guard let w = m["width"] else { throw r.error(s, "screen", "missing key \"width\"") }
            guard let h = m["height"] else { throw r.error(s, "screen", "missing key \"height\"") }
            let width = try r.number(w, "screen.width")
            let height = try r.number(h, "screen.height")
            guard width > 0, width <= CoordinateLimit.maximum else {
                throw r.error(w, "screen.width", "expected a positive width of at most \(CoordinateLimit.words), found \(formatNumber(width))")
            }
            guard height > 0, height <= CoordinateLimit.maximum else {
                throw r.error(h, "screen.height", "expected a positive height of at most \(CoordinateLimit.words), found \(formatNumber(height))")
            }
            screen = Size(width: width, height: height)
        } else if let f = root.frame, f.width > 0, f.height > 0 {
            screen = Size(width: f.maxX, height: f.maxY)
        } else {
            throw r.error(json, "", "no \"screen\" and the root has no frame to take the screen size from")
        }

        let duplicates = ElementTree.assignIDs(&root)
        return ElementTree(screen: screen, layoutDirection: direction, root: root, duplicateIds: duplicates)
    }

    /// One element. The hot path of loading a large tree: members are read in one pass with a
    /// `switch` on the key (no per-object dictionary), and paths are only spelled out on error.
    static func element(_ node: JSONNode, _ path: () -> String, _ r: JSONReader, _ budget: inout ElementBudget) throws(InputError) -> Element {
        guard case .object(let members) = node.value else {
            throw r.error(node, path(), "expected an object, found \(node.kindDescription)")
        }
        guard budget.take() else { throw r.error(node, path(), budget.message) }
        var e = Element()
        var seen: UInt32 = 0
        /// A frame's or an activation point's x or y: within ±`CoordinateLimit.maximum`.
        func coordinate(_ n: JSONNode, _ path: @autoclosure () -> String) throws(InputError) -> Double {
            let d = try r.number(n, path())
            guard CoordinateLimit.contains(d) else {
                throw r.error(n, path(), "\(formatNumber(d)) is out of range; expected a coordinate from -\(CoordinateLimit.words) to \(CoordinateLimit.words)")
            }
            return d
        }
        for (key, v) in members {
            func at() -> String { r.join(path(), key) }
            let bit: UInt32
            switch key {
            case "id":
                bit = 1 << 0
                e.id = try r.string(v, at())
                if e.id.isEmpty { throw r.error(v, at(), "expected a non-empty id (leave the key out to get a path-based id)") }
            case "isAccessibilityElement":
                bit = 1 << 1
                e.isAccessibilityElement = try r.bool(v, at())
            case "label":
                bit = 1 << 2
                e.label = try r.string(v, at())
            case "value":
                bit = 1 << 3
                e.value = try r.string(v, at())
            case "hint":
                bit = 1 << 4
                e.hint = try r.string(v, at())
            case "traits":
                bit = 1 << 5
                for (k, t) in try r.array(v, at()).enumerated() {
                    let name = try r.string(t, r.join(at(), k))
                    guard let trait = Traits.named(name) else {
                        throw r.error(t, r.join(at(), k), "unknown trait \"\(name)\" (expected one of: none, \(Traits.names.map(\.name).joined(separator: ", ")))")
                    }
                    e.traits.insert(trait)
                }
            case "frame":
                bit = 1 << 6
                let a = try r.array(v, at())
                guard a.count == 4 else { throw r.error(v, at(), "expected [x, y, width, height], found an array of \(a.count)") }
                let x = try coordinate(a[0], r.join(at(), 0))
                let y = try coordinate(a[1], r.join(at(), 1))
                let w = try r.number(a[2], r.join(at(), 2))
                let h = try r.number(a[3], r.join(at(), 3))
                guard w >= 0, w <= CoordinateLimit.maximum else {
                    throw r.error(a[2], r.join(at(), 2), "expected a width from 0 to \(CoordinateLimit.words), found \(formatNumber(w))")
                }
                guard h >= 0, h <= CoordinateLimit.maximum else {
                    throw r.error(a[3], r.join(at(), 3), "expected a height from 0 to \(CoordinateLimit.words), found \(formatNumber(h))")
                }
                e.frame = Rect(x: x, y: y, width: w, height: h)
            case "activationPoint":
                bit = 1 << 7
                let a = try r.array(v, at())
                guard a.count == 2 else { throw r.error(v, at(), "expected [x, y], found an array of \(a.count)") }
                e.activationPoint = Point(x: try coordinate(a[0], r.join(at(), 0)), y: try coordinate(a[1], r.join(at(), 1)))
            case "customActions":
                bit = 1 << 8
                for (k, a) in try r.array(v, at()).enumerated() {
                    let am = try r.object(a, r.join(at(), k), allowed: actionKeys)
                    guard let nameNode = am["name"] else { throw r.error(a, r.join(at(), k), "missing key \"name\"") }
                    let name = try r.string(nameNode, r.join(r.join(at(), k), "name"))
                    guard !name.isEmpty else { throw r.error(nameNode, r.join(r.join(at(), k), "name"), "expected a non-empty action name") }
                    e.customActions.append(name)
                }
            case "elementsHidden":
                bit = 1 << 9
                e.elementsHidden = try r.bool(v, at())
            case "viewIsModal":
                bit = 1 << 10
                e.viewIsModal = try r.bool(v, at())
            case "shouldGroupChildren":
                bit = 1 << 11
                e.shouldGroupChildren = try r.bool(v, at())
            case "respondsToUserInteraction":
                bit = 1 << 12
                e.respondsToUserInteraction = try r.bool(v, at())
            case "order":
                bit = 1 << 13
                e.order = try r.choice(v, at(), ["reading": .reading, "declared": .declared])
            case "scrollable":
                bit = 1 << 15
                e.scrollable = try r.bool(v, at())
            case "children":
                bit = 1 << 14
                let a = try r.array(v, at())
                e.children.reserveCapacity(a.count)
                for (k, c) in a.enumerated() {
                    e.children.append(try element(c, { r.join(at(), k) }, r, &budget))
                }
            case "textEntry":
                bit = 1 << 16
                e.textEntry = try r.choice(v, at(), ["singleLine": .singleLine, "multiLine": .multiLine, "password": .password, "terminal": .terminal])
            default:
                let list = elementKeys.sorted().joined(separator: ", ")
                throw r.error(v, at(), "unknown key \"\(key)\" (expected one of: \(list))")
            }
            guard seen & bit == 0 else { throw r.error(v, at(), "key \"\(key)\" appears twice") }
            seen |= bit
        }
        return e
    }
}

/// Writes a tree in the native format (used by `tree import -o`): only keys that differ from
/// their defaults, so the output reads like a hand-written file and loads back unchanged.
public enum TreeEncoder {
    public static func encode(_ tree: ElementTree) -> JSONOut {
        var top: [(String, JSONOut)] = [("screen", .object([("width", .number(tree.screen.width)), ("height", .number(tree.screen.height))]))]
        if tree.layoutDirection == .rightToLeft { top.append(("layoutDirection", .string("rightToLeft"))) }
        top.append(("root", element(tree.root)))
        return .object(top)
    }

    static func element(_ e: Element) -> JSONOut {
        var m: [(String, JSONOut)] = [("id", .string(e.id))]
        if let v = e.isAccessibilityElement { m.append(("isAccessibilityElement", .bool(v))) }
        if let v = e.label { m.append(("label", .string(v))) }
        if let v = e.value { m.append(("value", .string(v))) }
        if let v = e.hint { m.append(("hint", .string(v))) }
        if !e.traits.isEmpty { m.append(("traits", .array(e.traits.nameList.map { .string($0) }))) }
        if let f = e.frame { m.append(("frame", f.json)) }
        if let p = e.activationPoint { m.append(("activationPoint", p.json)) }
        if !e.customActions.isEmpty { m.append(("customActions", .array(e.customActions.map { .object([("name", .string($0))]) }))) }
        if e.elementsHidden { m.append(("elementsHidden", .bool(true))) }
        if e.viewIsModal { m.append(("viewIsModal", .bool(true))) }
        if e.shouldGroupChildren { m.append(("shouldGroupChildren", .bool(true))) }
        if let v = e.respondsToUserInteraction { m.append(("respondsToUserInteraction", .bool(v))) }
        if e.order == .declared { m.append(("order", .string("declared"))) }
        if e.scrollable { m.append(("scrollable", .bool(true))) }
        if let t = e.textEntry { m.append(("textEntry", .string(t.rawValue))) }
        if !e.children.isEmpty { m.append(("children", .array(e.children.map(element)))) }
        return .object(m)
    }
}
