import CX11
import Foundation
import SwitchCore
@testable import SwitchDesktop
@testable import SwitchDisplayServers
import Testing

/// Keys by keysym through the current layout, and the pointer gestures, through XTest on a real
/// X server (the headless desktop's Xvfb): an X client of the test's own reads back every key and
/// button event as the server delivers it, keysyms translated with the client's XKB keymap.
@Suite(.serialized)
struct KeySenderTests {
    typealias Client = XTestClient

    /// One desktop for the keys (a desktop costs seconds): AZERTY first, then US.
    @Test func keysGoByKeysymThroughTheLayout() throws {
        let s = try DesktopSession(needs: ["/usr/bin/setxkbmap"])
        defer { s.close() }
        let display = try #require(s.environment["DISPLAY"])
        #expect(s.run(["/usr/bin/setxkbmap", "-display", display, "fr"]).status == 0)
        let client = try Client(display)
        let keys = try #require(KeySender(display: display))
        defer { keys.finish() }

        // Ctrl+A on AZERTY: the key that types a is where a US keyboard has Q (by position, q).
        #expect(keys.send(try KeyCombo(parsing: "Ctrl+A")) == .success("keys Ctrl+A"))
        #expect(client.presses() == ["Control_L", "a Control"])

        // The level's modifiers come from the layout: on AZERTY the digits need Shift, € is AltGr+E.
        #expect(keys.typeText("A1€") == .success("typed 3 characters"))
        #expect(client.presses().filter { !$0.hasPrefix("Shift") && !$0.hasPrefix("ISO_Level3") } == ["A Shift", "1 Shift", "EuroSign"])

        // No key of a US layout types ж or ł: each goes on a keycode without keysyms; a second ж
        // reuses its keycode.
        #expect(s.run(["/usr/bin/setxkbmap", "-display", display, "us"]).status == 0)
        _ = client.events()
        #expect(keys.typeText("жłж") == .success("typed 3 characters"))
        #expect(client.presses() == ["Cyrillic_zhe", "lstroke", "Cyrillic_zhe"])
        // A letter is named in capitals, sent as its lower-case keysym.
        #expect(keys.send(try KeyCombo(parsing: "Ctrl+ж")) == .success("keys Ctrl+Ж"))
        #expect(client.presses() == ["Control_L", "Cyrillic_zhe Control"])

        // The media keys reach the client as their keysyms.
        for name in ["XF86AudioRaiseVolume", "XF86AudioLowerVolume", "XF86AudioMute"] {
            #expect(keys.send(try KeyCombo(parsing: name)) == .success("keys \(name)"))
        }
        #expect(client.presses() == ["XF86AudioRaiseVolume", "XF86AudioLowerVolume", "XF86AudioMute"])
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
