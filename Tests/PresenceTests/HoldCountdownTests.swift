import CX11
import Foundation
import SwitchCore
import SwitchInput
import SwitchDisplay
@testable import SwitchDisplayServers
@testable import SwitchOverlay
import Testing

/// Touch passthrough's hold countdown at the finger (issue 20), under a real X server, read back
/// as screenshots; part of `OverlayTests` (one X test at a time). A white window under the
/// finger at (200, 150) shows the black track; the ring's outer radius is 32 px, 7 px thick.
extension OverlayTests {
    /// A point of the ring `r` pixels from the finger, `degrees` clockwise from 12 o'clock.
    static func onRing(_ degrees: Double, r: Double) -> (Int, Int) {
        let a = degrees * Double.pi / 180
        return (Int((200 + r * sin(a)).rounded()), Int((150 - r * cos(a)).rounded()))
    }

    @Test func theHoldCountdownFillsClockwiseAtTheFingerAndGoesWhenItEnds() throws {
        let x = try XvfbServer()
        let app = try AppWindow(x.display, x: 100, y: 50, width: 200, height: 200)
        let overlay = try Overlay(settings: .init(), display: x.display)
        overlay.observeTouch(.countdown(device: 0, contact: 3, at: Point(x: 200, y: 150), from: .seconds(1), until: .seconds(2)))
        overlay.advance(to: .seconds(1.25))
        overlay.sync()
        var s = try #require(Screenshot.capture(display: x.display))
        Self.keep(s, "countdown-quarter")
        // A quarter of the way: the arc from 12 to 3 o'clock (in the ring's middle, 28 px out).
        for degrees in [5.0, 45, 85] {
            let (px, py) = Self.onRing(degrees, r: 28)
            #expect(s.has(Self.blue, px, py), "arc at \(degrees)° (\(px),\(py)) is \(String(s.rgb(px, py), radix: 16))")
        }
        for degrees in [95.0, 180, 270, 355] {
            let (px, py) = Self.onRing(degrees, r: 28)
            #expect(s.rgb(px, py) == 0xFFFFFF, "no arc yet at \(degrees)° (\(px),\(py)): \(String(s.rgb(px, py), radix: 16))")
            let (tx, ty) = Self.onRing(degrees, r: 31.5)
            #expect(s.rgb(tx, ty) == 0, "the black track at \(degrees)° (\(tx),\(ty)): \(String(s.rgb(tx, ty), radix: 16))")
        }
        #expect(s.rgb(200, 150) == 0xFFFFFF && s.rgb(215, 150) == 0xFFFFFF, "the finger's place is left clear")
        #expect(s.rgb(240, 150) == 0xFFFFFF, "nothing beyond the ring")
        // Three quarters: up to 9 o'clock; full at the end.
        overlay.advance(to: .seconds(1.75))
        overlay.sync()
        s = try #require(Screenshot.capture(display: x.display))
        #expect([95.0, 180, 265].allSatisfy { let (px, py) = Self.onRing($0, r: 28); return s.has(Self.blue, px, py) })
        #expect({ let (px, py) = Self.onRing(300, r: 28); return s.rgb(px, py) == 0xFFFFFF }())
        overlay.advance(to: .seconds(2))
        overlay.sync()
        s = try #require(Screenshot.capture(display: x.display))
        Self.keep(s, "countdown-full")
        #expect([0.0, 90, 180, 270, 355].allSatisfy { let (px, py) = Self.onRing($0, r: 28); return s.has(Self.blue, px, py) })
        // Accepted: gone.
        overlay.observeTouch(.countdownEnded(device: 0, contact: 3))
        overlay.sync()
        s = try #require(Screenshot.capture(display: x.display))
        #expect([0.0, 90, 180, 270].allSatisfy { let (px, py) = Self.onRing($0, r: 28); return s.rgb(px, py) == 0xFFFFFF })
        #expect({ let (px, py) = Self.onRing(180, r: 31.5); return s.rgb(px, py) == 0xFFFFFF }(), "the track is gone too")
        _ = app
    }

    /// The live loop wakes the overlay while a countdown runs (30 frames a second), and never
    /// after it ended.
    @Test func aRunningCountdownAsksForFramesUntilItsEnd() throws {
        let x = try XvfbServer()
        let overlay = try Overlay(settings: .init(), display: x.display)
        overlay.engineStarted(atMonotonic: 1_000_000)
        #expect(overlay.prepare(nowMonotonic: 1_000_000).deadline == nil)
        overlay.observeTouch(.countdown(device: 0, contact: 1, at: Point(x: 50, y: 50), from: .seconds(1), until: .seconds(1.5)))
        let first = overlay.prepare(nowMonotonic: 2_000_000).deadline
        #expect(first == Int64(2_033_333), "engine start + 1 s + a frame")
        overlay.advance(to: .seconds(1.49))
        let last = overlay.prepare(nowMonotonic: 2_490_000).deadline
        #expect(last == Int64(2_500_000), "the end, not a frame past it")
        overlay.observeTouch(.countdownEnded(device: 0, contact: 1))
        #expect(overlay.prepare(nowMonotonic: 2_500_000).deadline == nil)
    }
}
