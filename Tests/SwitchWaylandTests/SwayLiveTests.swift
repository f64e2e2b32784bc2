import Foundation
import SwitchCore
import SwitchDisplay
import SwitchDisplayServers
import Testing

/// The wlroots building blocks of issue 30 against a real headless sway 1.7
/// (scripts/wayland-tests/run-sway.sh), each checked by something that is not the component: grim
/// screenshots read as pixels, the test application's state read back through pyatspi, sway's own
/// tree. Each test has its own session; nothing waits a fixed time.
@Suite(.serialized, .enabled(if: SwaySession.usable, "\(SwaySession.skipMessage)"))
struct SwayLiveTests {
    /// The outputs through xdg-output equal sway's configuration and its IPC's answer; the session
    /// leaves no process behind.
    @Test func outputsReadFromXdgOutputOnOneAndTwoOutputs() throws {
        do {
            let s = try SwaySession()
            let c = try WaylandConnection(environment: s.environment)
            #expect(c.outputs.map(\.description) == ["HEADLESS-1 1280x800+0+0 scale 1 (1280x800 px)"])
            #expect(c.layoutBounds == (0, 0, 1280, 800))
            s.close()
            #expect(s.exitStatus == 0)
            #expect(s.leftovers().isEmpty, "processes left: \(s.leftovers())")
        }
        let s = try SwaySession(outputs: ["1280x800", "1024x768@2"])
        defer { s.close() }
        let c = try WaylandConnection(environment: s.environment)
        #expect(c.outputs.map(\.description) == ["HEADLESS-1 1280x800+0+0 scale 1 (1280x800 px)",
                                                 "HEADLESS-2 1024x768+1280+0 scale 2 (2048x1536 px)"])
        #expect(c.layoutBounds == (0, 0, 2304, 800))
        let ipc = try SwayIPC(environment: s.environment)
        #expect(try ipc.outputs().map { "\($0.name) \($0.rect) \($0.scale ?? 0)" } == ["HEADLESS-1 1280x800+0+0 1.0", "HEADLESS-2 1024x768+1280+0 2.0"])
    }
}

extension SwayLiveTests {
    static let ringColor = SceneColor(hex: "#0072B2")!

    /// Shows a ring of `t` inside `rect` and checks every device pixel of `output` around it by
    /// grim: the band is exactly the ring's colour, everything else inside and around the rect is
    /// what it was before; then clears and checks that all of it is back.
    func checkRing(_ s: SwaySession, _ c: WaylandConnection, _ overlay: LayerShellOverlay, output: WaylandOutputInfo,
                   rect: (x: Int, y: Int, w: Int, h: Int), t: Int) throws {
        let k = output.scale
        let before = try s.screenshot(output: output.name)
        #expect(before.width == output.pixelWidth && before.height == output.pixelHeight)
        // Device pixels of the rect (in the output's picture), and a margin of 3 logical pixels.
        let x0 = (rect.x - output.x) * k, y0 = (rect.y - output.y) * k, x1 = x0 + rect.w * k, y1 = y0 + rect.h * k
        let m = 3 * k
        overlay.show(OverlayScene(shapes: [.rect(.init(x: Double(rect.x), y: Double(rect.y), w: Double(rect.w), h: Double(rect.h),
                                                       stroke: Self.ringColor, lineWidth: Double(t)))]))
        try c.roundtrip()
        let after = try s.waitFor("the ring on \(output.name)") {
            let shot = try s.screenshot(output: output.name)
            return shot.pixel(x0, y0) == "#0072B2" && shot.pixel(x1 - 1, y1 - 1) == "#0072B2" ? shot : nil
        }
        var band = 0, bandWrong = 0, kept = 0, keptWrong = 0
        for y in max(0, y0 - m)..<min(after.height, y1 + m) {
            for x in max(0, x0 - m)..<min(after.width, x1 + m) {
                let inRect = x >= x0 && x < x1 && y >= y0 && y < y1
                let inHole = x >= x0 + t * k && x < x1 - t * k && y >= y0 + t * k && y < y1 - t * k
                if inRect && !inHole {
                    band += 1
                    if after.pixel(x, y) != "#0072B2" { bandWrong += 1 }
                } else {
                    kept += 1
                    if after.pixel(x, y) != before.pixel(x, y) { keptWrong += 1 }
                }
            }
        }
        #expect(band == (rect.w * rect.h - (rect.w - 2 * t) * (rect.h - 2 * t)) * k * k)
        #expect(bandWrong == 0, "\(bandWrong) of \(band) ring pixels on \(output.name) are not the ring's colour")
        #expect(keptWrong == 0, "\(keptWrong) of \(kept) pixels inside and around the ring on \(output.name) changed")
        overlay.show(.empty)
        try c.roundtrip()
        _ = try s.waitFor("the ring gone from \(output.name)") {
            let shot = try s.screenshot(output: output.name)
            return shot.rgb == before.rgb ? shot : nil
        }
    }

    /// The ring on the layer shell's overlay layer sits exactly on the rect's border, the inside
    /// untouched, and clears to the picture before.
    @Test func overlayRingPixelsExactlyOnTheBorder() throws {
        let s = try SwaySession()
        defer { s.close() }
        let c = try WaylandConnection(environment: s.environment)
        let overlay = try LayerShellOverlay(connection: c)
        try c.wait(timeout: 10, for: "the overlay's configure") { overlay.configuredOutputs == ["HEADLESS-1"] }
        try checkRing(s, c, overlay, output: c.outputs[0], rect: (100, 120, 300, 80), t: 4)
        try checkRing(s, c, overlay, output: c.outputs[0], rect: (0, 0, 50, 30), t: 10)
    }

    /// Two outputs, the second at scale 2: one surface on each; a ring on the second output is
    /// 8 device pixels wide, on whole pixels.
    @Test func overlayRingOnASecondOutputAtScaleTwo() throws {
        let s = try SwaySession(outputs: ["1280x800", "1024x768@2"])
        defer { s.close() }
        let c = try WaylandConnection(environment: s.environment)
        let overlay = try LayerShellOverlay(connection: c)
        try c.wait(timeout: 10, for: "the overlay's configure") { Set(overlay.configuredOutputs) == ["HEADLESS-1", "HEADLESS-2"] }
        try checkRing(s, c, overlay, output: c.outputs[1], rect: (1280 + 101, 33, 301, 97), t: 4)
        try checkRing(s, c, overlay, output: c.outputs[0], rect: (1100, 500, 170, 90), t: 4)
    }
}

extension SwayLiveTests {
    /// The node's centre on the desktop: its window's origin (sway IPC) plus AT-SPI's
    /// window-relative extents.
    func centre(_ s: SwaySession, _ window: SwayWindow, app: String = "wlapp.py", _ name: String) throws -> (x: Double, y: Double) {
        let e = try s.extents(app: app, name)
        let o = window.origin()
        return (Double(o.x) + Double(e.x) + Double(e.width) / 2, Double(o.y) + Double(e.y) + Double(e.height) / 2)
    }

    /// The button's accessible name, as pyatspi reads it (nil while it is not there).
    func names(_ s: SwaySession, app: String = "wlapp.py") -> [String] {
        s.state(app: app).compactMap { $0["name"] as? String }
    }

    /// A virtual-pointer click at the GTK 3 button's true centre presses it once (its name, read
    /// back through AT-SPI, becomes "Pressed 1"), through the overlay, which covers the output
    /// and shows a ring around the button while the click goes through.
    @Test func virtualPointerClickPressesAGtk3ButtonThroughTheOverlay() throws {
        let s = try SwaySession()
        defer { s.close() }
        let c = try WaylandConnection(environment: s.environment)
        let pointer = try VirtualPointer(connection: c)
        let overlay = try LayerShellOverlay(connection: c)
        let ipc = try SwayIPC(environment: s.environment)
        let window = try s.startApp(ipc: ipc)
        let e = try s.extents("Press me")
        let o = window.origin()
        overlay.show(OverlayScene(shapes: [.rect(.init(x: Double(o.x + e.x - 4), y: Double(o.y + e.y - 4), w: Double(e.width + 8),
                                                       h: Double(e.height + 8), stroke: Self.ringColor, lineWidth: 4))]))
        try c.wait(timeout: 10, for: "the ring shown") { overlay.isUpToDate }
        let p = try centre(s, window, "Press me")
        pointer.click(.left, atX: p.x, y: p.y)
        try c.roundtrip()
        _ = try s.waitFor("the button renamed \"Pressed 1\"") { names(s).contains("Pressed 1") ? true : nil }
        #expect(!names(s).contains("Pressed 2"))
        #expect(!names(s).contains("Press me"))
    }

    /// Typing through the virtual keyboard with its own keymap: a sentence with ö, é and € reaches
    /// a GTK entry, read back through AT-SPI; Ctrl+A then types over it (a shortcut with a
    /// modifier); BackSpace deletes.
    @Test func virtualKeyboardTypesNonAsciiTextAndShortcuts() throws {
        let s = try SwaySession()
        defer { s.close() }
        let c = try WaylandConnection(environment: s.environment)
        let pointer = try VirtualPointer(connection: c)
        let keyboard = try VirtualKeyboard(connection: c)
        let ipc = try SwayIPC(environment: s.environment)
        let window = try s.startApp(ipc: ipc)
        let p = try centre(s, window, "Type here")
        pointer.click(.left, atX: p.x, y: p.y)
        try c.roundtrip()
        func text() -> String? { s.state().first { $0["name"] as? String == "Type here" }?["text"] as? String }
        _ = try s.waitFor("the entry focused") {
            s.state().first { $0["name"] as? String == "Type here" }.flatMap { ($0["states"] as? [String])?.contains("focused") == true ? true : nil }
        }
        let sentence = "Hello, wörld é €"
        guard case .success = keyboard.typeText(sentence) else { Issue.record("typeText failed"); return }
        try c.roundtrip()
        _ = try s.waitFor("the sentence in the entry") { text() == sentence ? true : nil }
        #expect(keyboard.send(try KeyCombo(parsing: "Ctrl+A")) == .success("keys Ctrl+A"))
        #expect(keyboard.typeText("ß ж") == .success("typed 3 characters"))
        try c.roundtrip()
        _ = try s.waitFor("the selection typed over") { text() == "ß ж" ? true : nil }
        #expect(keyboard.send(try KeyCombo(parsing: "Backspace")) == .success("keys Backspace"))
        try c.roundtrip()
        _ = try s.waitFor("one character deleted") { text() == "ß " ? true : nil }
    }
}

extension SwayLiveTests {
    /// Waits until the screenshot shows the magenta "Target" exactly where sway's window origin
    /// plus AT-SPI's window-relative extents put it (a window settles after a layout change);
    /// fails with the last mismatch. The client's inset: a GTK 3 frame larger than sway's content
    /// area (a shadow) starts its window at its title bar's corner.
    func expectTargetOnScreen(_ s: SwaySession, _ ipc: SwayIPC, windowID: Int, title: String, _ what: String) {
        var last = "nothing measured"
        do {
            _ = try s.waitFor("the Target where IPC and AT-SPI say (\(what))") { () throws -> Bool? in
                guard let w = try ipc.windows().first(where: { $0.id == windowID }) else { return nil }
                let frame = try s.extents(title)
                let e = try s.extents("Target")
                let shadowed = frame.width > w.windowRect.width || frame.height > w.windowRect.height
                let inset = shadowed ? frame.first ?? (0, 0) : (0, 0)
                let o = w.origin(clientWidth: frame.width, clientHeight: frame.height, inset: inset)
                let expected = (x: o.x + e.x, y: o.y + e.y, width: e.width, height: e.height)
                let found = try s.screenshot(scale: 1).box(of: 0xFF00FF)
                last = "\(w), AT-SPI frame \(frame), Target \(e): expected \(expected), the screenshot has \(found.map { "\($0)" } ?? "none")"
                return found.map { $0 == expected } == true ? true : nil
            }
        } catch {
            Issue.record("\(what): \(last)")
        }
    }

    /// sway IPC's window origin plus AT-SPI's extents is the true screen rectangle of a widget,
    /// checked against the screenshot's magenta Target to the pixel: tiled, floating (sway puts a
    /// floating window where it likes and the client chooses its size), moved; GTK 3 and 4, with
    /// server-side decorations and with a header bar (the client draws its decorations and, floating,
    /// its shadow).
    @Test(arguments: [(3, false), (4, false), (3, true), (4, true)])
    func ipcOriginPlusAtspiExtentsIsTheScreenRectangle(gtk: Int, headerBar: Bool) throws {
        let s = try SwaySession()
        defer { s.close() }
        let ipc = try SwayIPC(environment: s.environment)
        let title = "Origins \(gtk)"
        let kind = "GTK \(gtk)\(headerBar ? " with a header bar" : "")"
        let window = try s.startApp(gtk: gtk, title: title, headerBar: headerBar, ipc: ipc)
        expectTargetOnScreen(s, ipc, windowID: window.id, title: title, "\(kind) tiled")
        try ipc.command("[con_id=\(window.id)] floating enable")
        _ = try s.waitFor("the window floating") { try ipc.windows().first { $0.id == window.id && $0.floating } }
        expectTargetOnScreen(s, ipc, windowID: window.id, title: title, "\(kind) floating")
        try ipc.command("[con_id=\(window.id)] move position 37 61")
        _ = try s.waitFor("the window moved") { try ipc.windows().first { $0.id == window.id && $0.rect.x == 37 } }
        expectTargetOnScreen(s, ipc, windowID: window.id, title: title, "\(kind) floating, moved")
    }

    /// A window that keeps its size (not resizable) is centred in its tile: the origin moves by
    /// half the difference, and the Target is still found to the pixel.
    @Test func aTiledWindowSmallerThanItsTileIsCentred() throws {
        let s = try SwaySession()
        defer { s.close() }
        let ipc = try SwayIPC(environment: s.environment)
        let window = try s.startApp(title: "Fixed", fixed: true, ipc: ipc)
        expectTargetOnScreen(s, ipc, windowID: window.id, title: "Fixed", "GTK 3, fixed size, tiled")
        let frame = try s.extents("Fixed")
        #expect((frame.width, frame.height) == (400, 300))
        #expect(window.origin(clientWidth: 400, clientHeight: 300) == (2 + 438, 2 + 248))
    }
}
