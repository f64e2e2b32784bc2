internal import CX11
import SwitchCore

/// The root window's pixels, read back from the X server (what a person sees, for tests and the
/// benchmark). 24-bit TrueColor only (Xvfb's `-screen 0 WxHx24`, every current desktop).
public struct Screenshot: Sendable {
    public let width: Int
    public let height: Int
    /// 0xRRGGBB per pixel, row by row.
    public let pixels: [UInt32]

    /// The whole screen of `display` (nil: `DISPLAY`); nil when it cannot be read (no server, or
    /// it went away while reading).
    public static func capture(display: String? = nil) -> Screenshot? {
        guard let c = try? OverlayDisplay(name: display) else { return nil }
        let w = c.bounds.width, h = c.bounds.height
        guard let image = XGetImage(c.display, c.root, 0, 0, UInt32(w), UInt32(h), ~0, ZPixmap) else { return nil }
        defer { cx11_destroy_image(image) }
        var pixels = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                pixels[y * w + x] = UInt32(truncatingIfNeeded: cx11_get_pixel(image, Int32(x), Int32(y))) & 0xFFFFFF
            }
        }
        return Screenshot(width: w, height: h, pixels: pixels)
    }

    public func rgb(_ x: Int, _ y: Int) -> UInt32 {
        guard x >= 0, y >= 0, x < width, y < height else { return 0 }
        return pixels[y * width + x]
    }

    public func has(_ c: CursorColor, _ x: Int, _ y: Int) -> Bool { rgb(x, y) == c.rgb }

    /// Binary PPM (P6), for looking at it (`convert shot.ppm shot.png`).
    public var ppm: [UInt8] {
        var out = Array("P6\n\(width) \(height)\n255\n".utf8)
        out.reserveCapacity(out.count + pixels.count * 3)
        for p in pixels { out += [UInt8(p >> 16 & 0xFF), UInt8(p >> 8 & 0xFF), UInt8(p & 0xFF)] }
        return out
    }
}

extension CursorColor {
    /// 0xRRGGBB.
    public var rgb: UInt32 { UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }
}
