/// Reads the native tree format (README "Tree format"). Every bad input is an `InputError` with
/// the file, line, column and JSON path; unknown keys are errors so a typo cannot silently change
/// behaviour. Repeated ids are not errors: they are renamed and reported by `tree audit`.
public enum TreeDecoder {
    static let topKeys: Set<String> = ["screen", "layoutDirection", "root"]
    static let screenKeys: Set<String> = ["width", "height"]
    static let elementKeys: Set<String> = [
        "id", "isAccessibilityElement", "label", "value", "hint", "traits", "frame", "activationPoint",
        "customActions", "elementsHidden", "viewIsModal", "shouldGroupChildren",
        "respondsToUserInteraction", "order", "children",
    ]
    static let actionKeys: Set<String> = ["name"]

    public static func decode(_ bytes: [UInt8], file: String) throws(InputError) -> ElementTree {
        let json = try JSONParser.parse(bytes, file: file)
        return try decode(json, reader: JSONReader(file: file, bytes: bytes))
    }

    public static func decode(_ json: JSONNode, reader r: JSONReader) throws(InputError) -> ElementTree {
        let top = try r.object(json, "", allowed: topKeys)
        guard let rootNode = top["root"] else { throw r.error(json, "", "missing key \"root\" (the root element)") }
        var root = try element(rootNode, "root", r)

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
            guard width > 0 else { throw r.error(w, "screen.width", "expected a positive width, found \(formatNumber(width))") }
            guard height > 0 else { throw r.error(h, "screen.height", "expected a positive height, found \(formatNumber(height))") }
            screen = Size(width: width, height: height)
        } else if let f = root.frame, f.width > 0, f.height > 0 {
            screen = Size(width: f.maxX, height: f.maxY)
        } else {
            throw r.error(json, "", "no \"screen\" and the root has no frame to take the screen size from")
        }

        let duplicates = ElementTree.assignIDs(&root)
        return ElementTree(screen: screen, layoutDirection: direction, root: root, duplicateIds: duplicates)
    }

    static func element(_ node: JSONNode, _ path: String, _ r: JSONReader) throws(InputError) -> Element {
        let m = try r.object(node, path, allowed: elementKeys)
        var e = Element()
        if let v = m["id"] {
            e.id = try r.string(v, r.join(path, "id"))
            if e.id.isEmpty { throw r.error(v, r.join(path, "id"), "expected a non-empty id (leave the key out to get a path-based id)") }
        }
        if let v = m["isAccessibilityElement"] { e.isAccessibilityElement = try r.bool(v, r.join(path, "isAccessibilityElement")) }
        if let v = m["label"] { e.label = try r.string(v, r.join(path, "label")) }
        if let v = m["value"] { e.value = try r.string(v, r.join(path, "value")) }
        if let v = m["hint"] { e.hint = try r.string(v, r.join(path, "hint")) }
        if let v = m["traits"] {
            let p = r.join(path, "traits")
            for (k, t) in try r.array(v, p).enumerated() {
                let name = try r.string(t, r.join(p, k))
                guard let trait = Traits.named(name) else {
                    throw r.error(t, r.join(p, k), "unknown trait \"\(name)\" (expected one of: none, \(Traits.names.map(\.name).joined(separator: ", ")))")
                }
                e.traits.insert(trait)
            }
        }
        if let v = m["frame"] {
            let p = r.join(path, "frame")
            let a = try r.array(v, p)
            guard a.count == 4 else { throw r.error(v, p, "expected [x, y, width, height], found an array of \(a.count)") }
            var n = [Double]()
            for (k, x) in a.enumerated() { n.append(try r.number(x, r.join(p, k))) }
            guard n[2] >= 0 else { throw r.error(a[2], r.join(p, 2), "expected a width of 0 or more, found \(formatNumber(n[2]))") }
            guard n[3] >= 0 else { throw r.error(a[3], r.join(p, 3), "expected a height of 0 or more, found \(formatNumber(n[3]))") }
            e.frame = Rect(x: n[0], y: n[1], width: n[2], height: n[3])
        }
        if let v = m["activationPoint"] {
            let p = r.join(path, "activationPoint")
            let a = try r.array(v, p)
            guard a.count == 2 else { throw r.error(v, p, "expected [x, y], found an array of \(a.count)") }
            e.activationPoint = Point(x: try r.number(a[0], r.join(p, 0)), y: try r.number(a[1], r.join(p, 1)))
        }
        if let v = m["customActions"] {
            let p = r.join(path, "customActions")
            for (k, a) in try r.array(v, p).enumerated() {
                let ap = r.join(p, k)
                let am = try r.object(a, ap, allowed: actionKeys)
                guard let nameNode = am["name"] else { throw r.error(a, ap, "missing key \"name\"") }
                let name = try r.string(nameNode, r.join(ap, "name"))
                guard !name.isEmpty else { throw r.error(nameNode, r.join(ap, "name"), "expected a non-empty action name") }
                e.customActions.append(name)
            }
        }
        if let v = m["elementsHidden"] { e.elementsHidden = try r.bool(v, r.join(path, "elementsHidden")) }
        if let v = m["viewIsModal"] { e.viewIsModal = try r.bool(v, r.join(path, "viewIsModal")) }
        if let v = m["shouldGroupChildren"] { e.shouldGroupChildren = try r.bool(v, r.join(path, "shouldGroupChildren")) }
        if let v = m["respondsToUserInteraction"] { e.respondsToUserInteraction = try r.bool(v, r.join(path, "respondsToUserInteraction")) }
        if let v = m["order"] { e.order = try r.choice(v, r.join(path, "order"), ["reading": .reading, "declared": .declared]) }
        if let v = m["children"] {
            let p = r.join(path, "children")
            let a = try r.array(v, p)
            e.children.reserveCapacity(a.count)
            for (k, c) in a.enumerated() { e.children.append(try element(c, r.join(p, k), r)) }
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
        if !e.children.isEmpty { m.append(("children", .array(e.children.map(element)))) }
        return .object(m)
    }
}
