/// Screen geometry in points (UIKit's coordinate space: origin top-left, y grows downwards).
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// Printed points (the text transcript) are rounded to a thousandth of a point, as the JSONL
    /// transcript's are (`TranscriptFormat`): a mapped touch coordinate reads 123.457.
    public var description: String { "(\(formatNumber(Point.rounded(x))), \(formatNumber(Point.rounded(y))))" }
    /// Exact, like `Rect.json`: a tree written by `tree import` loads back unchanged.
    public var json: JSONOut { .array([.number(x), .number(y)]) }

    /// A thousandth of a point: enough for any screen.
    static func rounded(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
}

/// The bound on every screen size, frame coordinate and frame size read from outside (README
/// "Limits of the readers"): a million points, far beyond any screen (an 8K display is 7,680
/// pixels wide), and small enough that no sum or product of coordinates in a picture, a hit
/// test or a conversion to a whole number can overflow or trap.
public enum CoordinateLimit {
    public static let maximum = 1_000_000.0

    /// Within ±`maximum` (and finite).
    public static func contains(_ d: Double) -> Bool { d.isFinite && abs(d) <= maximum }

    /// "expected … at most 1000000 points" phrases, for the readers' messages.
    public static let words = "1000000 points"
}

extension Int {
    /// `d` rounded toward zero, clamped to ±10^15 (NaN is 0): a conversion of a computed Double
    /// (a picture's width in characters, an overlay's pixel) that can never trap.
    public init(saturating d: Double) {
        guard d.isFinite else {
            self = d.isNaN ? 0 : (d > 0 ? 1_000_000_000_000_000 : -1_000_000_000_000_000)
            return
        }
        self = Int(Swift.max(Swift.min(d, 1e15), -1e15))
    }
}

public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
}

public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var center: Point { Point(x: x + width / 2, y: y + height / 2) }
    public var area: Double { width * height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Half-open containment `[x, x+w) × [y, y+h)`: a point on the shared edge of two adjacent
    /// frames belongs to exactly one of them.
    public func contains(_ p: Point) -> Bool { p.x >= x && p.x < maxX && p.y >= y && p.y < maxY }

    /// The smallest rectangle containing both.
    public func union(_ r: Rect) -> Rect {
        let x0 = min(x, r.x), y0 = min(y, r.y)
        return Rect(x: x0, y: y0, width: max(maxX, r.maxX) - x0, height: max(maxY, r.maxY) - y0)
    }

    public func intersects(_ r: Rect) -> Bool { x < r.maxX && r.x < maxX && y < r.maxY && r.y < maxY }

    /// "[16, 60, 120, 44]", the same shape as in the tree format.
    public var description: String { "[\(formatNumber(x)), \(formatNumber(y)), \(formatNumber(width)), \(formatNumber(height))]" }
    public var json: JSONOut { .array([.number(x), .number(y), .number(width), .number(height)]) }
}
