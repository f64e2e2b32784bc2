import CX11
import Foundation
import SwitchCore
@testable import SwitchDesktop
import Testing

/// Keys by keysym through the current layout, and the pointer gestures, through XTest on a real
/// X server (the headless desktop's Xvfb): an X client of the test's own reads back every key and
/// button event as the server delivers it, keysyms translated with the client's XKB keymap.
@Suite(.serialized, .enabled(if: DesktopSession.usable, "needs the headless desktop (scripts/apt/test-desktop.list)"))
struct KeySenderTests {
    /// A window that has the keyboard focus and listens to keys, buttons and motion.
    final class Client {
        let display: OpaquePointer
        let window: UInt

        init(_ name: String) throws {
            guard let d = cx11_open_display(name) else { throw DesktopSession.SessionError("no X display \(name)") }
            display = d
            let screen = cx11_default_screen(d)
            window = XCreateSimpleWindow(d, cx11_root_window(d, screen), 0, 0, 400, 300, 0, 0, 0)
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
            usleep(100_000)
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

    @Test func ctrlAOnAZERTYIsCtrlA() throws {
        let s = try DesktopSession()
        defer { s.close() }
        let display = try #require(s.environment["DISPLAY"])
        #expect(s.run(["/usr/bin/setxkbmap", "-display", display, "fr"]).status == 0)
        let client = try Client(display)
        let keys = try #require(KeySender(display: display))
        #expect(keys.send(try KeyCombo(parsing: "Ctrl+A")) == .success("keys Ctrl+A"))
        // The key that types a on AZERTY is where a US keyboard has Q: by position it would be q.
        #expect(client.presses() == ["Control_L", "a Control"])
        keys.finish()
    }

    @Test func levelsAndAltGrComeFromTheLayout() throws {
        let s = try DesktopSession()
        defer { s.close() }
        let display = try #require(s.environment["DISPLAY"])
        #expect(s.run(["/usr/bin/setxkbmap", "-display", display, "fr"]).status == 0)
        let client = try Client(display)
        let keys = try #require(KeySender(display: display))
        // On AZERTY the digits need Shift, € is AltGr+E.
        #expect(keys.typeText("A1€") == .success("typed 3 characters"))
        let presses = client.presses()
        #expect(presses.filter { !$0.hasPrefix("Shift") && !$0.hasPrefix("ISO_Level3") } == ["A Shift", "1 Shift", "EuroSign"])
        keys.finish()
    }

    @Test func aKeysymTheLayoutLacksIsMappedOntoASpareKeycode() throws {
        let s = try DesktopSession()
        defer { s.close() }
        let display = try #require(s.environment["DISPLAY"])
        #expect(s.run(["/usr/bin/setxkbmap", "-display", display, "us"]).status == 0)
        let client = try Client(display)
        let keys = try #require(KeySender(display: display))
        // No key of a US layout types ж or ł: each goes on a keycode without keysyms; a second ж
        // reuses its keycode.
        #expect(keys.typeText("жłж") == .success("typed 3 characters"))
        #expect(client.presses() == ["Cyrillic_zhe", "lstroke", "Cyrillic_zhe"])
        // A letter is named in capitals, sent as its lower-case keysym.
        #expect(keys.send(try KeyCombo(parsing: "Ctrl+ж")) == .success("keys Ctrl+Ж"))
        #expect(client.presses() == ["Control_L", "Cyrillic_zhe Control"])
        keys.finish()
    }

    @Test func mediaKeysReachTheClientAsTheirKeysyms() throws {
        let s = try DesktopSession()
        defer { s.close() }
        let display = try #require(s.environment["DISPLAY"])
        let client = try Client(display)
        let keys = try #require(KeySender(display: display))
        for name in ["XF86AudioRaiseVolume", "XF86AudioLowerVolume", "XF86AudioMute"] {
            #expect(keys.send(try KeyCombo(parsing: name)) == .success("keys \(name)"))
        }
        #expect(client.presses() == ["XF86AudioRaiseVolume", "XF86AudioLowerVolume", "XF86AudioMute"])
        keys.finish()
    }

    @Test func pointerGesturesArriveAsButtonsAndMotion() throws {
        let s = try DesktopSession()
        defer { s.close() }
        let display = try #require(s.environment["DISPLAY"])
        let client = try Client(display)
        let x = try #require(XDisplay(name: display))
        func run(_ action: Perform.Action, at point: Point? = Point(x: 50, y: 60)) -> [String] {
            for t in PointerGesture.ops(for: Perform(action, id: "a", label: "A", point: point), holdTime: .milliseconds(10))! {
                _ = x.pointer(t.op)
            }
            return client.events().filter { !$0.hasPrefix("motion") || $0.contains("button1") }
        }
        #expect(run(.rightClick) == ["button 3 down at (50, 60)", "button 3 up at (50, 60)"])
        #expect(run(.middleClick) == ["button 2 down at (50, 60)", "button 2 up at (50, 60)"])
        #expect(run(.doubleClick) == ["button 1 down at (50, 60)", "button 1 up at (50, 60)", "button 1 down at (50, 60)", "button 1 up at (50, 60)"])
        #expect(run(.scroll(.down)) == Array(repeating: ["button 5 down at (50, 60)", "button 5 up at (50, 60)"], count: 5).flatMap { $0 })
        #expect(run(.scroll(.left)).first == "button 6 down at (50, 60)")
        let drag = run(.drag(from: Point(x: 10, y: 10), to: Point(x: 110, y: 60)), at: nil)
        #expect(drag.first == "button 1 down at (10, 10)")
        #expect(drag.last == "button 1 up at (110, 60)")
        // The moves in between carry the held button, along the line.
        #expect(drag.dropFirst().dropLast() == (1...10).map { "motion (\(10 + 10 * $0), \(10 + 5 * $0)) button1" })
    }
}
