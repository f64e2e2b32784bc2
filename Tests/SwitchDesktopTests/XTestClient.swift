import CX11
import Foundation
import Testing

/// An X client of the test's own on the session's display: a window that takes the keyboard focus
/// (or, with `grab`, leaves it and grabs keys as a media-key daemon does) and reports every key,
/// button and motion event the server delivers, keysyms read with the client's XKB keymap.
final class XTestClient {
    let display: OpaquePointer
    let window: UInt

    /// `grab`: keysyms whose keys this client grabs on the root window, whatever the focus (the
    /// focus is then left alone).
    init(_ name: String, grab: [UInt] = []) throws {
        guard let d = cx11_open_display(name) else { throw DesktopSession.SessionError("no X display \(name)") }
        display = d
        let screen = cx11_default_screen(d)
        let root = cx11_root_window(d, screen)
        guard grab.isEmpty else {
            // No window of its own (nothing covers the applications): the keys grabbed on the root.
            window = root
            for keysym in grab {
                XGrabKey(d, Int32(XKeysymToKeycode(d, keysym)), UInt32(AnyModifier), root, 1, GrabModeAsync, GrabModeAsync)
            }
            XSync(d, 0)
            _ = events()
            return
        }
        window = XCreateSimpleWindow(d, root, 0, 0, 400, 300, 0, 0, 0)
        XSelectInput(d, window, KeyPressMask | KeyReleaseMask | ButtonPressMask | ButtonReleaseMask | PointerMotionMask)
        XMapRaised(d, window)
        XSync(d, 0)
        // Wait until it is viewable, then give it the focus.
        for _ in 0..<200 {
            var attributes = XWindowAttributes()
            XGetWindowAttributes(d, window, &attributes)
            if attributes.map_state == IsViewable { break }
            usleep(10_000)
        }
        XSetInputFocus(d, window, RevertToParent, UInt(CurrentTime))
        XSync(d, 0)
        _ = events()
    }

    deinit { XCloseDisplay(display) }

    /// Every event delivered so far: `down a Control`, `up a`, `button 3 down at (50, 60)`, `motion
    /// (70, 60) button1`.
    func events() -> [String] {
        // The senders (KeySender, XDisplay) XSync, so the server has made every event of their
        // requests before this round trip's reply, which comes after those events on this
        // connection: no wait is needed.
        XSync(display, 0)
        var out: [String] = []
        var e = XEvent()
        while XPending(display) > 0 {
            XNextEvent(display, &e)
            switch e.type {
            case KeyPress, KeyRelease:
                var mods: UInt32 = 0
                var keysym: UInt = 0
                _ = XkbLookupKeySym(display, UInt8(e.xkey.keycode), e.xkey.state, &mods, &keysym)
                let name = XKeysymToString(keysym).map { String(cString: $0) } ?? String(keysym, radix: 16)
                var s = (e.type == KeyPress ? "down " : "up ") + name
                if e.xkey.state & UInt32(ControlMask) != 0 { s += " Control" }
                if e.xkey.state & UInt32(ShiftMask) != 0 { s += " Shift" }
                if e.xkey.state & UInt32(Mod1Mask) != 0 { s += " Alt" }
                out.append(s)
            case ButtonPress, ButtonRelease:
                out.append("button \(e.xbutton.button) \(e.type == ButtonPress ? "down" : "up") at (\(e.xbutton.x), \(e.xbutton.y))")
            case MotionNotify:
                out.append("motion (\(e.xmotion.x), \(e.xmotion.y))" + (e.xmotion.state & UInt32(Button1Mask) != 0 ? " button1" : ""))
            case MappingNotify:
                XRefreshKeyboardMapping(&e.xmapping)
            default:
                break
            }
        }
        return out
    }

    /// Only the key presses' keysyms and modifiers.
    func presses() -> [String] { events().filter { $0.hasPrefix("down ") }.map { String($0.dropFirst(5)) } }
}
