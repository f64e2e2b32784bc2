import Glibc
import SwitchDisplay

/// An arc of a ring as the X11 overlay draws it: one rectangle per run of pixels in a row, for a
/// window's bounding shape (the hold countdown's track and arc).
enum ArcPixels {
    /// The pixels of a ring of outer radius `radius` (centre at (radius, radius)) between
    /// 12 o'clock and `sweepDegrees` clockwise, as one rectangle per run of pixels in a row.
    static func ring(radius: Int, thickness: Int, sweepDegrees: Int) -> [PixelRect] {
        guard sweepDegrees > 0 else { return [] }
        let outer = Double(radius) + 0.5, inner = Double(radius - thickness) + 0.5
        var rects: [PixelRect] = []
        for y in 0...(2 * radius) {
            var start: Int?
            for x in 0...(2 * radius + 1) {
                var inside = false
                if x <= 2 * radius {
                    let dx = Double(x - radius), dy = Double(y - radius)
                    let d = (dx * dx + dy * dy).squareRoot()
                    if d <= outer && d > inner {
                        // Clockwise from 12 o'clock, in degrees 0 ..< 360 (y grows downwards).
                        var angle = atan2Degrees(dx, -dy)
                        if angle < 0 { angle += 360 }
                        inside = sweepDegrees >= 360 || angle < Double(sweepDegrees)
                    }
                }
                if inside, start == nil { start = x }
                if !inside, let s = start {
                    rects.append(PixelRect(x: s, y: y, width: x - s, height: 1))
                    start = nil
                }
            }
        }
        return rects
    }
}

/// The angle of (x, y) from the y axis towards the x axis, in degrees.
private func atan2Degrees(_ x: Double, _ y: Double) -> Double { atan2(x, y) * 180 / Double.pi }
