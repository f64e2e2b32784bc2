import SwitchCore
import SwitchDisplay
import Testing

/// The window-origin rule on the rectangles measured on GNOME Shell 43 and KWin 5.27
/// (scripts/wayland-tests/README.md, "Where a widget is"): each case is a real window whose
/// widget was found at origin + AT-SPI extents by screenshot.
struct ToplevelOriginTests {
    static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect { Rect(x: x, y: y, width: w, height: h) }

    /// GNOME, GTK 3: the top-level is the buffer (client-side title bar and shadows inside it).
    @Test func topLevelAsLargeAsTheBufferCountsFromTheBuffer() {
        let o = ToplevelOrigin.origin(buffer: Self.rect(133, 52, 532, 689), frame: Self.rect(159, 75, 480, 637), size: Size(width: 532, height: 689))
        #expect(o == Point(x: 133, y: 52))
    }

    /// GNOME, GTK 4: AT-SPI starts at the window geometry, the frame.
    @Test func topLevelAsLargeAsTheFrameCountsFromTheFrame() {
        let o = ToplevelOrigin.origin(buffer: Self.rect(625, 396, 428, 329), frame: Self.rect(639, 408, 400, 300), size: Size(width: 400, height: 300))
        #expect(o == Point(x: 639, y: 408))
    }

    /// GNOME, Qt 5: it draws its own title bar inside the buffer: side margin 3, title bar 30.
    @Test func aTitleBarDrawnInsideTheBufferIsAboveTheTopLevel() {
        let o = ToplevelOrigin.origin(buffer: Self.rect(639, 75, 406, 333), frame: Self.rect(639, 75, 406, 333), size: Size(width: 400, height: 300))
        #expect(o == Point(x: 642, y: 105))
    }

    /// KWin, GTK 3 and Qt 5: KWin decorates outside the buffer; buffer = frame = the top-level.
    @Test func kwinDecorationsAreOutsideTheBuffer() {
        let b = Self.rect(200, 120, 400, 300)
        #expect(ToplevelOrigin.origin(buffer: b, frame: Self.rect(200, 90, 400, 330), size: Size(width: 400, height: 300)) == Point(x: 200, y: 120))
    }

    /// Nothing known of the top-level, or a top-level larger than the buffer: the buffer's corner.
    @Test func unknownOrLargerSizeTakesTheBuffer() {
        let b = Self.rect(10, 20, 300, 200), f = Self.rect(10, 20, 300, 200)
        #expect(ToplevelOrigin.origin(buffer: b, frame: f, size: nil) == Point(x: 10, y: 20))
        #expect(ToplevelOrigin.origin(buffer: b, frame: f, size: Size(width: 320, height: 200)) == Point(x: 10, y: 20))
        #expect(ToplevelOrigin.origin(buffer: b, frame: f, size: Size(width: 200, height: 199)) == Point(x: 10, y: 20))
    }
}
