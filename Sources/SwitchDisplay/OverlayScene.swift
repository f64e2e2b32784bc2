import SwitchCore

/// Everything the overlay shows, as a list of primitives drawn in order (later over earlier): what
/// a Wayland overlay draws, the layer-shell surface with cairo and the GNOME Shell extension with
/// St alike, so both show the same thing (`OverlaySceneBuilder` makes one from the overlay
/// surface's calls).
///
///     rect   x, y, w, h; optional fill; optional stroke of lineWidth drawn INSIDE the rect (the
///            stroke's outer edge is the rect's edge, as the X11 ring is); optional dash [on, off]
///     text   x, y = the top-left of the text's layout box (the baseline is y + the font's
///            ascent); size in pixels; drawn in `font`
///     pie    a sector of the circle around the centre pixel (cx, cy) of outer radius r, from
///            12 o'clock clockwise over `fraction` of the circle (the hold countdown), filled;
///            with `inner` > 0 only the ring between inner and r (an arc of that thickness); an
///            optional outline of the whole circle, lineWidth wide inside r, drawn under the fill
///
/// Coordinates are logical (compositor) pixels of the whole desktop, all outputs, origin top-left.
/// The scene is replaced whole on every change; an empty scene clears. Nothing in it takes input.
/// Its JSON (`json`, `init(json:)`) is what goes to the GNOME extension and what tests compare:
///
///     {"shapes":[{"kind":"rect","x":10,"y":20,"w":100,"h":40,"stroke":"#0072B2","lineWidth":4,"dash":[8,4]},
///                {"kind":"text","x":12,"y":22,"text":"Exit group","size":15,"color":"#000000","font":"DejaVu Sans"},
///                {"kind":"pie","cx":300,"cy":200,"r":30,"inner":23,"fraction":0.25,"fill":"#0072B2"}]}
public struct OverlayScene: Equatable, Sendable {
    public var shapes: [Shape]

    public init(_ shapes: [Shape] = []) {
        self.shapes = shapes
    }

    public var isEmpty: Bool { shapes.isEmpty }

    public enum Shape: Equatable, Sendable {
        case rect(RectShape)
        case text(TextShape)
        case pie(PieShape)

        /// The same shape moved by (dx, dy).
        public func offsetBy(_ dx: Int, _ dy: Int) -> Shape {
            switch self {
            case .rect(var r):
                r.x += dx
                r.y += dy
                return .rect(r)
            case .text(var t):
                t.x += dx
                t.y += dy
                return .text(t)
            case .pie(var p):
                p.cx += dx
                p.cy += dy
                return .pie(p)
            }
        }
    }

    public struct RectShape: Equatable, Sendable {
        public var x: Int
        public var y: Int
        public var w: Int
        public var h: Int
        public var fill: Color?
        public var stroke: Color?
        /// The stroke's width, inside the rect (0 without a stroke).
        public var lineWidth: Int
        /// [on, off] along the stroke, in pixels (nil: solid).
        public var dash: [Int]?

        public init(x: Int, y: Int, w: Int, h: Int, fill: Color? = nil, stroke: Color? = nil, lineWidth: Int = 0, dash: [Int]? = nil) {
            self.x = x
            self.y = y
            self.w = w
            self.h = h
            self.fill = fill
            self.stroke = stroke
            self.lineWidth = stroke == nil ? 0 : lineWidth
            self.dash = dash
        }

        /// A filled rectangle.
        public init(_ r: PixelRect, fill: Color) {
            self.init(x: r.x, y: r.y, w: r.width, h: r.height, fill: fill)
        }

        public var frame: PixelRect { PixelRect(x: x, y: y, width: w, height: h) }
    }

    public struct TextShape: Equatable, Sendable {
        public static let defaultFont = "DejaVu Sans"

        public var x: Int
        public var y: Int
        public var text: String
        /// Pixels.
        public var size: Int
        public var color: Color
        public var font: String

        public init(x: Int, y: Int, text: String, size: Int, color: Color, font: String = TextShape.defaultFont) {
            self.x = x
            self.y = y
            self.text = text
            self.size = size
            self.color = color
            self.font = font
        }
    }

    public struct PieShape: Equatable, Sendable {
        public var cx: Int
        public var cy: Int
        public var r: Int
        /// 0: a filled sector; else only the ring from here out to `r`.
        public var inner: Int
        /// 0 … 1 of the circle, clockwise from 12 o'clock.
        public var fraction: Double
        public var fill: Color?
        public var stroke: Color?
        public var lineWidth: Int

        public init(cx: Int, cy: Int, r: Int, inner: Int = 0, fraction: Double, fill: Color? = nil, stroke: Color? = nil, lineWidth: Int = 0) {
            self.cx = cx
            self.cy = cy
            self.r = r
            self.inner = inner
            self.fraction = fraction
            self.fill = fill
            self.stroke = stroke
            self.lineWidth = stroke == nil ? 0 : lineWidth
        }
    }

    /// "#RRGGBB", or "#RRGGBBAA" when not opaque.
    public struct Color: Equatable, Hashable, Sendable, CustomStringConvertible {
        public var red: UInt8
        public var green: UInt8
        public var blue: UInt8
        public var alpha: UInt8

        public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
            self.red = red
            self.green = green
            self.blue = blue
            self.alpha = alpha
        }

        public init(_ c: CursorColor, alpha: UInt8 = 255) {
            self.init(red: c.red, green: c.green, blue: c.blue, alpha: alpha)
        }

        /// "#0072B2", "#FFFFFFE0" (either case); nil for anything else.
        public init?(parsing text: String) {
            let u = Array(text.utf8)
            guard u.first == UInt8(ascii: "#"), u.count == 7 || u.count == 9 else { return nil }
            var bytes: [UInt8] = []
            for k in stride(from: 1, to: u.count, by: 2) {
                guard let hi = Self.hexDigit(u[k]), let lo = Self.hexDigit(u[k + 1]) else { return nil }
                bytes.append(hi << 4 | lo)
            }
            self.init(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes.count == 4 ? bytes[3] : 255)
        }

        /// The opaque colour (the alpha dropped).
        public var cursorColor: CursorColor { CursorColor(red: red, green: green, blue: blue) }

        public var description: String {
            let digits = Array("0123456789ABCDEF")
            var s = "#"
            for v in alpha == 255 ? [red, green, blue] : [red, green, blue, alpha] {
                s.append(digits[Int(v >> 4)])
                s.append(digits[Int(v & 15)])
            }
            return s
        }

        private static func hexDigit(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
    }
}
