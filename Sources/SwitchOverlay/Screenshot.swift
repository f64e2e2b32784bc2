internal import CX11
import SwitchCore

/// The root window's pixels, read back from the X server (what a person sees, for tests and the
/// benchmark). 24-bit TrueColor only (Xvfb's `-screen 0 WxHx24`, every current desktop).
public struct Screenshot: Sendable {
    public let width: Int
    public let height: Int
    /// 0xRRGGBB per pixel, row by row.
    public let pixels: [UInt32]

    /// The whole screen of `display` (nil: `DISPLAY`); nil when it cannot be read.
    public static func capture(display: String? = nil) -> Screenshot? {
        guard let d = XOpenDisplay(display) else { return nil }
        defer { XCloseDisplay(d) }
        let screen = cx11_default_screen(d)
        let w = cx11_display_width(d, screen), h = cx11_display_height(d, screen)
        guard let image = XGetImage(d, cx11_root_window(d, screen), 0, 0, UInt32(w), UInt32(h), ~0, ZPixmap) else { return nil }
        defer { cx11_destroy_image(image) }
        var pixels = [UInt32](repeating: 0, count: Int(w) * Int(h))
        for y in 0..<Int(h) {
            for x in 0..<Int(w) {
                pixels[y * Int(w) + x] = UInt32(truncatingIfNeeded: cx11_get_pixel(image, Int32(x), Int32(y))) & 0xFFFFFF
            }
        }
        return Screenshot(width: Int(w), height: Int(h), pixels: pixels)
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
