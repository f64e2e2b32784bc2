import Foundation

/// What a Wayland overlay draws, as a pure value (issue 30, docs: the display seam): the list of
/// primitives the layer-shell renderer (cairo) and the GNOME Shell extension (St) both draw, made
/// from the overlay surface's calls by one translator, so every desktop shows the same picture.
///
/// Coordinates are logical (compositor) pixels of the whole desktop, all outputs, origin top-left;
/// an output of scale 2 draws each logical pixel as 2×2. Colours are "#RRGGBB" or "#RRGGBBAA".
/// The scene is replaced whole on every change; an empty scene clears. Nothing in it takes input.
///
///     rect  x y w h, optional fill, optional stroke of lineWidth drawn INSIDE the rect (the
///           stroke's outer edge is the rect's edge, as the X11 ring is), optional dash [on, off]
///     text  x y = top-left of the text's layout box, size in pixels, colour, font
///     pie   a sector filled from 12 o'clock clockwise over `fraction` of the circle (the hold
///           countdown), with an optional outline of the whole circle
///
/// The JSON form (`json`, `init(json:)`) is what goes to the GNOME extension over D-Bus and what
/// tests compare: `{"shapes": [{"kind": "rect", "x": 10, …}, …]}`, keys in the order above.
public struct OverlayScene: Equatable, Sendable {
    public var shapes: [Shape]

    public init(shapes: [Shape] = []) { self.shapes = shapes }

    public static let empty = OverlayScene()
    public var isEmpty: Bool { shapes.isEmpty }

    public enum Shape: Equatable, Sendable {
        case rect(RectShape)
        case text(TextShape)
        case pie(PieShape)
    }

    public struct RectShape: Equatable, Sendable {
        public var x: Double, y: Double, w: Double, h: Double
        public var fill: SceneColor?
        public var stroke: SceneColor?
        /// The stroke's width, inside the rect (ignored without a stroke).
        public var lineWidth: Double
        /// [on, off] lengths along the stroke, starting at the top-left corner; nil: solid.
        public var dash: [Double]?

        public init(x: Double, y: Double, w: Double, h: Double, fill: SceneColor? = nil, stroke: SceneColor? = nil,
                    lineWidth: Double = 1, dash: [Double]? = nil) {
            (self.x, self.y, self.w, self.h) = (x, y, w, h)
            self.fill = fill
            self.stroke = stroke
            self.lineWidth = lineWidth
            self.dash = dash
        }
    }

    public struct TextShape: Equatable, Sendable {
        public var x: Double, y: Double
        public var text: String
        /// Pixel size of the font (Pango's absolute size, Xft's pixelsize).
        public var size: Double
        public var color: SceneColor
        public var font: String

        public static let defaultFont = "DejaVu Sans"

        public init(x: Double, y: Double, text: String, size: Double, color: SceneColor, font: String = TextShape.defaultFont) {
            (self.x, self.y) = (x, y)
            self.text = text
            self.size = size
            self.color = color
            self.font = font
        }
    }

    public struct PieShape: Equatable, Sendable {
        public var cx: Double, cy: Double, r: Double
        /// 0 … 1 of the circle, clockwise from 12 o'clock.
        public var fraction: Double
        public var fill: SceneColor
        public var stroke: SceneColor?
        public var lineWidth: Double

        public init(cx: Double, cy: Double, r: Double, fraction: Double, fill: SceneColor, stroke: SceneColor? = nil, lineWidth: Double = 1) {
            (self.cx, self.cy, self.r) = (cx, cy, r)
            self.fraction = fraction
            self.fill = fill
            self.stroke = stroke
            self.lineWidth = lineWidth
        }
    }
}

/// An sRGB colour with alpha, written "#RRGGBB" (opaque) or "#RRGGBBAA".
public struct SceneColor: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    /// Parses "#RRGGBB" or "#RRGGBBAA" (hex digits in either case); nil for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.first == UInt8(ascii: "#"), digits.count == 7 || digits.count == 9 else { return nil }
        var bytes: [UInt8] = []
        var k = 1
        while k < digits.count {
            guard let hi = SceneColor.nibble(digits[k]), let lo = SceneColor.nibble(digits[k + 1]) else { return nil }
            bytes.append(hi << 4 | lo)
            k += 2
        }
        self.init(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes.count == 4 ? bytes[3] : 255)
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// "#RRGGBB" when opaque, else "#RRGGBBAA" (upper-case digits).
    public var description: String {
        let parts = alpha == 255 ? [red, green, blue] : [red, green, blue, alpha]
        return "#" + parts.map { byte in
            let s = String(byte, radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }.joined()
    }
}

// MARK: - JSON

/// A scene's JSON that does not describe a scene: where (a path such as `shapes[2].stroke`) and
/// what was expected.
public struct OverlaySceneError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

extension OverlayScene {
    /// The JSON form, keys in the documented order, whole numbers without a fraction.
    public var json: String {
        "{\"shapes\": [" + shapes.map(\.json).joined(separator: ", ") + "]}"
    }

    /// Reads the JSON form; the error names the path and what it expected.
    public init(json: String) throws(OverlaySceneError) {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        } catch {
            throw OverlaySceneError(path: "", message: "not JSON (expected {\"shapes\": [...]})")
        }
        guard let top = object as? [String: Any], let list = top["shapes"] as? [Any] else {
            throw OverlaySceneError(path: "", message: "expected an object {\"shapes\": [...]}")
        }
        var shapes: [Shape] = []
        for (k, item) in list.enumerated() {
            shapes.append(try Shape(json: item, path: "shapes[\(k)]"))
        }
        self.init(shapes: shapes)
    }
}

extension OverlayScene.Shape {
    var json: String {
        var fields: [(String, String)]
        switch self {
        case .rect(let r):
            fields = [("kind", jsonString("rect")), ("x", jsonNumber(r.x)), ("y", jsonNumber(r.y)), ("w", jsonNumber(r.w)), ("h", jsonNumber(r.h))]
            if let f = r.fill { fields.append(("fill", jsonString(f.description))) }
            if let s = r.stroke {
                fields.append(("stroke", jsonString(s.description)))
                fields.append(("lineWidth", jsonNumber(r.lineWidth)))
                if let d = r.dash { fields.append(("dash", "[" + d.map(jsonNumber).joined(separator: ", ") + "]")) }
            }
        case .text(let t):
            fields = [("kind", jsonString("text")), ("x", jsonNumber(t.x)), ("y", jsonNumber(t.y)), ("text", jsonString(t.text)),
                      ("size", jsonNumber(t.size)), ("color", jsonString(t.color.description)), ("font", jsonString(t.font))]
        case .pie(let p):
            fields = [("kind", jsonString("pie")), ("cx", jsonNumber(p.cx)), ("cy", jsonNumber(p.cy)), ("r", jsonNumber(p.r)),
                      ("fraction", jsonNumber(p.fraction)), ("fill", jsonString(p.fill.description))]
            if let s = p.stroke {
                fields.append(("stroke", jsonString(s.description)))
                fields.append(("lineWidth", jsonNumber(p.lineWidth)))
            }
        }
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    init(json item: Any, path: String) throws(OverlaySceneError) {
        guard let o = item as? [String: Any] else { throw OverlaySceneError(path: path, message: "expected an object with a \"kind\"") }
        let fields = SceneFields(object: o, path: path)
        switch o["kind"] as? String {
        case "rect":
            let stroke = try fields.color("stroke", required: false)
            let dash = try fields.dash()
            var r = OverlayScene.RectShape(x: try fields.number("x"), y: try fields.number("y"),
                                           w: try fields.number("w", atLeast: 0), h: try fields.number("h", atLeast: 0),
                                           fill: try fields.color("fill", required: false), stroke: stroke, dash: dash)
            if stroke != nil { r.lineWidth = try fields.number("lineWidth", above: 0) }
            self = .rect(r)
        case "text":
            guard let text = o["text"] as? String else { throw OverlaySceneError(path: path + ".text", message: "expected a string") }
            let font = o["font"] == nil ? OverlayScene.TextShape.defaultFont : o["font"] as? String
            guard let font, !font.isEmpty else { throw OverlaySceneError(path: path + ".font", message: "expected a font family name") }
            self = .text(OverlayScene.TextShape(x: try fields.number("x"), y: try fields.number("y"), text: text,
                                                size: try fields.number("size", above: 0), color: try fields.color("color")!, font: font))
        case "pie":
            let stroke = try fields.color("stroke", required: false)
            let fraction = try fields.number("fraction", atLeast: 0)
            guard fraction <= 1 else { throw OverlaySceneError(path: path + ".fraction", message: "\(jsonNumber(fraction)) is more than 1 (expected 0 … 1)") }
            var p = OverlayScene.PieShape(cx: try fields.number("cx"), cy: try fields.number("cy"), r: try fields.number("r", above: 0),
                                          fraction: fraction, fill: try fields.color("fill")!, stroke: stroke)
            if stroke != nil { p.lineWidth = try fields.number("lineWidth", above: 0) }
            self = .pie(p)
        default:
            throw OverlaySceneError(path: path + ".kind", message: "expected \"rect\", \"text\" or \"pie\"")
        }
    }
}

/// Reading one shape's fields, with the path in every error.
private struct SceneFields {
    let object: [String: Any]
    let path: String

    func number(_ key: String, atLeast minimum: Double? = nil, above floor: Double? = nil) throws(OverlaySceneError) -> Double {
        guard let v = object[key], !(v is String), let n = (v as? NSNumber)?.doubleValue, n.isFinite else {
            throw OverlaySceneError(path: "\(path).\(key)", message: object[key] == nil ? "missing (expected a number)" : "expected a number")
        }
        if let minimum, n < minimum { throw OverlaySceneError(path: "\(path).\(key)", message: "\(jsonNumber(n)) is negative (expected ≥ \(jsonNumber(minimum)))") }
        if let floor, n <= floor { throw OverlaySceneError(path: "\(path).\(key)", message: "\(jsonNumber(n)) is not positive (expected > \(jsonNumber(floor)))") }
        return n
    }

    func color(_ key: String, required: Bool = true) throws(OverlaySceneError) -> SceneColor? {
        guard let v = object[key] else {
            if required { throw OverlaySceneError(path: "\(path).\(key)", message: "missing (expected \"#RRGGBB\" or \"#RRGGBBAA\")") }
            return nil
        }
        guard let s = v as? String, let c = SceneColor(hex: s) else {
            throw OverlaySceneError(path: "\(path).\(key)", message: "\(v is String ? "\"\(v)\"" : "the value") is not a colour (expected \"#RRGGBB\" or \"#RRGGBBAA\")")
        }
        return c
    }

    func dash() throws(OverlaySceneError) -> [Double]? {
        guard let v = object["dash"] else { return nil }
        guard let list = v as? [Any], list.count == 2,
              let on = (list[0] as? NSNumber)?.doubleValue, let off = (list[1] as? NSNumber)?.doubleValue,
              on > 0, off > 0, on.isFinite, off.isFinite else {
            throw OverlaySceneError(path: "\(path).dash", message: "expected [on, off], two positive lengths")
        }
        return [on, off]
    }
}

/// A whole number without a fraction ("10"), anything else in Swift's shortest round-trip form.
private func jsonNumber(_ v: Double) -> String {
    if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
    return "\(v)"
}

private func jsonString(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where u.value < 0x20:
            let h = String(u.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
        default: out.unicodeScalars.append(u)
        }
    }
    return out + "\""
}
