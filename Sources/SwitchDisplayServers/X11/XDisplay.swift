internal import CX11
import SwitchCore
import SwitchDisplay

/// The X display of the live desktop, for what AT-SPI cannot do: a real pointer click where an
/// element has no accessible action, the scanner menu's pointer gestures and keys (`KeySender`
/// and `X11Windows` share this connection), and the screen's size. XTest events are real input:
/// they reach whatever window is under the pointer or has the keyboard focus.
final class XDisplay {
    let display: OpaquePointer
    let hasXTest: Bool

    /// nil without a display (no DISPLAY, or the server refuses). `name`: another display than
    /// DISPLAY's (tests).
    init?(name: String? = nil) {
        guard let d = cx11_open_display(name) else { return nil }
        display = d
        hasXTest = cx11_has_xtest(d) != 0
    }

    deinit { XCloseDisplay(display) }

    var screenSize: Size {
        Size(width: Double(cx11_display_width(display, cx11_default_screen(display))),
             height: Double(cx11_display_height(display, cx11_default_screen(display))))
    }

    /// A click of `button` (1 left; 4–7 a wheel click up, down, left, right) at a screen pixel (the
    /// point rounded down and kept on the screen).
    func click(at p: Point, button: UInt32 = 1) -> Bool {
        guard hasXTest else { return false }
        let (x, y) = pixel(p)
        return cx11_xtest_click(display, x, y, button) != 0
    }

    /// A point rounded down to a pixel, kept on the screen.
    private func pixel(_ p: Point) -> (x: Int32, y: Int32) {
        let size = screenSize
        return (Int32(min(max(0, p.x.rounded(.down)), size.width - 1)), Int32(min(max(0, p.y.rounded(.down)), size.height - 1)))
    }

    /// One pointer operation of a gesture (`PointerGesture`): a move (the point kept on the
    /// screen), a button, a wheel click (buttons 4–7).
    func pointer(_ op: PointerOp) -> Bool {
        guard hasXTest else { return false }
        let ok: Int32
        switch op {
        case .move(let p):
            let (x, y) = pixel(p)
            ok = cx11_xtest_motion(display, x, y)
        case .button(let b, let down):
            ok = cx11_xtest_button(display, UInt32(b.rawValue), down ? 1 : 0)
        case .wheel(let d):
            let button = d.wheelButton
            ok = cx11_xtest_button(display, button, 1) & cx11_xtest_button(display, button, 0)
        }
        cx11_sync(display)
        return ok != 0
    }
}

/// The pointer of the seam, through XTest.
extension XDisplay: DisplayPointer {
    var unavailable: DisplayFailure? { hasXTest ? nil : .noXTest }

    func click(_ button: PointerButton, at point: Point) -> Result<Void, DisplayFailure> {
        click(at: point, button: UInt32(button.rawValue)) ? .success(()) : .failure(.noXTest)
    }

    func wheel(_ direction: ScrollDirection, at point: Point) -> Result<Void, DisplayFailure> {
        click(at: point, button: direction.wheelButton) ? .success(()) : .failure(.noXTest)
    }

    func perform(_ op: PointerOp) -> Result<Void, DisplayFailure> {
        pointer(op) ? .success(()) : .failure(.noXTest)
    }
}

extension DisplayFailure {
    static let noXTest = DisplayFailure("the X server has no XTest")
}
