internal import CX11
import SwitchCore

/// The X display, for what AT-SPI cannot do: a real pointer click where an element has no
/// accessible action, the Escape key, and the screen's size. XTest events are real input: they
/// reach whatever window is under the pointer or has the keyboard focus.
final class XDisplay {
    let display: OpaquePointer
    let hasXTest: Bool

    /// nil without a display (no DISPLAY, or the server refuses).
    init?() {
        guard let d = cx11_open_display(nil) else { return nil }
        display = d
        hasXTest = cx11_has_xtest(d) != 0
    }

    deinit { XCloseDisplay(display) }

    var screenSize: Size {
        Size(width: Double(cx11_display_width(display, cx11_default_screen(display))),
             height: Double(cx11_display_height(display, cx11_default_screen(display))))
    }

    /// A left click at a screen pixel (the point rounded down and kept on the screen).
    func click(at p: Point) -> Bool {
        guard hasXTest else { return false }
        let size = screenSize
        let x = Int32(min(max(0, p.x.rounded(.down)), size.width - 1))
        let y = Int32(min(max(0, p.y.rounded(.down)), size.height - 1))
        return cx11_xtest_click(display, x, y, 1) != 0
    }

    func pressEscape() -> Bool {
        guard hasXTest else { return false }
        return cx11_xtest_key(display, cx11_escape_keysym()) != 0
    }
}
