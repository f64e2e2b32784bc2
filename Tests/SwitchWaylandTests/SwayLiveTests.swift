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
