import SwitchCore

/// A rectangle in whole logical pixels of the desktop (the compositor's pixels on Wayland, the
/// root window's on X11), origin top-left: where the overlay draws and how big it is.
public struct PixelRect: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// A tree frame in screen pixels (1:1; AT-SPI's screen extents are X pixels too), grown to
    /// the whole pixels it touches.
    public init(_ r: Rect) {
        x = Int(saturating: r.x.rounded(.down))
        y = Int(saturating: r.y.rounded(.down))
        width = max(1, Int(saturating: (r.x + r.width).rounded(.up)) - x)
        height = max(1, Int(saturating: (r.y + r.height).rounded(.up)) - y)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    public func insetBy(_ d: Int) -> PixelRect { PixelRect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d) }

    public func intersection(_ o: PixelRect) -> PixelRect {
        let x0 = max(x, o.x), y0 = max(y, o.y), x1 = min(maxX, o.maxX), y1 = min(maxY, o.maxY)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    public func contains(_ px: Int, _ py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }

    /// Moved by (dx, dy).
    public func offsetBy(_ dx: Int, _ dy: Int) -> PixelRect { PixelRect(x: x + dx, y: y + dy, width: width, height: height) }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
