import SwitchCore

/// The scene's JSON: written compact with keys in a fixed order (the same scene gives the same
/// bytes, so a change is seen by comparing them), optional members left out when absent; read
/// back strictly (an unknown key, a bad colour or a negative size is an error naming its path), so
/// the GNOME extension's tests and a scene written by hand are checked the same way.
extension OverlayScene {
    public var json: String { jsonValue.rendered() }

    public var jsonValue: JSONOut {
        .object([("shapes", .array(shapes.map(\.jsonValue)))])
    }

    /// Reads a scene's JSON; `file` names it in errors.
    public init(json: String, file: String = "scene") throws(InputError) {
        let bytes = Array(json.utf8)
        let root = try JSONParser.parse(bytes, file: file)
        let r = JSONReader(file: file, bytes: bytes)
        let top = try r.object(root, "", allowed: ["shapes"])
        guard let list = top["shapes"] else { throw r.error(root, "", "missing key \"shapes\"") }
        var shapes: [Shape] = []
        for (k, node) in try r.array(list, "shapes").enumerated() {
            shapes.append(try Shape(node, r, path: "shapes[\(k)]"))
        }
        self.init(shapes)
    }
}

extension OverlayScene.Shape {
    public var jsonValue: JSONOut {
        func n(_ v: Int) -> JSONOut { .number(Double(v)) }
        var members: [(String, JSONOut)]
        switch self {
        case .rect(let s):
            members = [("kind", .string("rect")), ("x", n(s.x)), ("y", n(s.y)), ("w", n(s.w)), ("h", n(s.h))]
            if let fill = s.fill { members.append(("fill", .string(fill.description))) }
            if let stroke = s.stroke {
                members.append(("stroke", .string(stroke.description)))
                members.append(("lineWidth", n(s.lineWidth)))
            }
            if let dash = s.dash { members.append(("dash", .array(dash.map(n)))) }
        case .text(let s):
            members = [("kind", .string("text")), ("x", n(s.x)), ("y", n(s.y)), ("text", .string(s.text)), ("size", n(s.size)),
                       ("color", .string(s.color.description)), ("font", .string(s.font))]
        case .pie(let s):
            members = [("kind", .string("pie")), ("cx", n(s.cx)), ("cy", n(s.cy)), ("r", n(s.r))]
            if s.inner > 0 { members.append(("inner", n(s.inner))) }
            members.append(("fraction", .number(s.fraction)))
            if let fill = s.fill { members.append(("fill", .string(fill.description))) }
            if let stroke = s.stroke {
                members.append(("stroke", .string(stroke.description)))
                members.append(("lineWidth", n(s.lineWidth)))
            }
        }
        return .object(members)
    }

    init(_ node: JSONNode, _ r: JSONReader, path: String) throws(InputError) {
        guard let kindNode = node["kind"] else { throw r.error(node, path, "missing key \"kind\" (rect, text or pie)") }
        let kind = try r.choice(kindNode, r.join(path, "kind"), ["rect": 0, "text": 1, "pie": 2])
        let keys: Set<String> = switch kind {
        case 0: ["kind", "x", "y", "w", "h", "fill", "stroke", "lineWidth", "dash"]
        case 1: ["kind", "x", "y", "text", "size", "color", "font"]
        default: ["kind", "cx", "cy", "r", "inner", "fraction", "fill", "stroke", "lineWidth"]
        }
        let o = try r.object(node, path, allowed: keys)
        let limit = 1 << 24
        func int(_ key: String, in range: ClosedRange<Int> = -limit...limit) throws(InputError) -> Int {
            guard let v = o[key] else { throw r.error(node, path, "missing key \"\(key)\"") }
            return try r.integer(v, r.join(path, key), in: range)
        }
        func optionalInt(_ key: String, in range: ClosedRange<Int>) throws(InputError) -> Int? {
            guard o[key] != nil else { return nil }
            return try int(key, in: range)
        }
        func color(_ key: String) throws(InputError) -> OverlayScene.Color? {
            guard let v = o[key] else { return nil }
            let text = try r.string(v, r.join(path, key))
            guard let c = OverlayScene.Color(parsing: text) else {
                throw r.error(v, r.join(path, key), "\"\(text)\" is not a colour (expected #RRGGBB or #RRGGBBAA)")
            }
            return c
        }
        func stroke() throws(InputError) -> (OverlayScene.Color?, Int) {
            let s = try color("stroke")
            let width = try optionalInt("lineWidth", in: 0...limit)
            if s != nil, width == nil { throw r.error(node, path, "a stroke needs \"lineWidth\"") }
            return (s, width ?? 0)
        }
        switch kind {
        case 0:
            let (s, width) = try stroke()
            var dash: [Int]?
            if let d = o["dash"] {
                let items = try r.array(d, r.join(path, "dash"))
                guard items.count == 2 else { throw r.error(d, r.join(path, "dash"), "expected [on, off], found \(items.count) numbers") }
                var values: [Int] = []
                for (k, item) in items.enumerated() { values.append(try r.integer(item, r.join(r.join(path, "dash"), k), in: 1...limit)) }
                dash = values
            }
            self = .rect(.init(x: try int("x"), y: try int("y"), w: try int("w", in: 0...limit), h: try int("h", in: 0...limit),
                               fill: try color("fill"), stroke: s, lineWidth: width, dash: dash))
        case 1:
            guard let textNode = o["text"] else { throw r.error(node, path, "missing key \"text\"") }
            guard let ink = try color("color") else { throw r.error(node, path, "missing key \"color\"") }
            let font = try o["font"].map { (v) throws(InputError) in try r.string(v, r.join(path, "font")) } ?? OverlayScene.TextShape.defaultFont
            self = .text(.init(x: try int("x"), y: try int("y"), text: try r.string(textNode, r.join(path, "text")),
                               size: try int("size", in: 1...1000), color: ink, font: font))
        default:
            guard let f = o["fraction"] else { throw r.error(node, path, "missing key \"fraction\"") }
            let radius = try int("r", in: 0...limit)
            let (s, width) = try stroke()
            self = .pie(.init(cx: try int("cx"), cy: try int("cy"), r: radius, inner: try optionalInt("inner", in: 0...radius) ?? 0,
                              fraction: try r.number(f, r.join(path, "fraction"), in: 0...1), fill: try color("fill"), stroke: s, lineWidth: width))
        }
    }
}
