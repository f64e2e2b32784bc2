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
