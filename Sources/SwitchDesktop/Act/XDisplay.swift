internal import CXTest
import SwitchCore

/// The X display, for what AT-SPI cannot do: a real pointer click where an element has no
/// accessible action, the Escape key, and the screen's size. XTest events are real input: they
/// reach whatever window is under the pointer or has the keyboard focus.
final class XDisplay {
    private let display: OpaquePointer
    let hasXTest: Bool

    /// nil without a display (no DISPLAY, or the server refuses).
    init?() {
        _ = XDisplay.threadsInitialized
        guard let d = XOpenDisplay(nil) else { return nil }
        display = d
        hasXTest = switchscan_x_has_xtest(d) != 0
    }

    deinit { XCloseDisplay(display) }

    /// Xlib's thread support before this process's first Xlib call (as the overlay does; the
    /// desktop opens its display first in `run --desktop`, and libX11 before 1.8 does not do it
    /// by itself).
    private static let threadsInitialized: Bool = XInitThreads() != 0

    var screenSize: Size {
        Size(width: Double(switchscan_x_screen_width(display)), height: Double(switchscan_x_screen_height(display)))
    }

    /// A left click at a screen pixel (the point rounded down and kept on the screen).
    func click(at p: Point) -> Bool {
        guard hasXTest else { return false }
        let size = screenSize
        let x = Int32(min(max(0, p.x.rounded(.down)), size.width - 1))
        let y = Int32(min(max(0, p.y.rounded(.down)), size.height - 1))
        return switchscan_x_click(display, x, y, 1) != 0
    }

    func pressEscape() -> Bool {
        guard hasXTest else { return false }
        return switchscan_x_key(display, switchscan_x_escape_keysym()) != 0
    }
}
