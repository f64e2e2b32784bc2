import CX11
import SwitchCore
import SwitchInput
import SwitchDisplay
@testable import SwitchDisplayServers
@testable import SwitchOverlay
import Testing

/// Point scanning and group selection on screen (issue 11), under a real X server, read back as
/// screenshots; part of `OverlayTests` (one X test at a time). The tree is OverlayTests.tree()
/// (screen 800 × 600; a at 100,100 200×60, b at 100,200, c at 100,320 120×40, d at 100,400).
extension OverlayTests {
    static func band(_ axis: Sweep.Axis, _ width: Double, _ from: Double, _ to: Double, _ seconds: Double) -> TranscriptEvent {
        .sweep(Sweep(.band, axis, width: width, .moving(from: from, to: to, duration: .seconds(seconds))))
    }

    static func sweepLine(_ axis: Sweep.Axis, _ from: Double, _ to: Double, _ seconds: Double) -> TranscriptEvent {
        .sweep(Sweep(.line, axis, width: 0, .moving(from: from, to: to, duration: .seconds(seconds))))
    }

    static func stopped(_ kind: Sweep.Kind, _ axis: Sweep.Axis, _ width: Double, at: Double) -> TranscriptEvent {
        .sweep(Sweep(kind, axis, width: width, .stopped(at: at)))
    }

    /// The x-run of `color` along row `y` (first and last pixel), nil when it is not on that row.
    static func span(_ s: Screenshot, _ color: CursorColor, row y: Int) -> [Int] {
        (0..<s.width).filter { s.has(color, $0, y) }
    }

    @Test func pointScanningDrawsTheBandTheLineAndTheCrosshairWhereTheTranscriptSays() throws {
        let x = try XvfbServer()
        let overlay = try Overlay(settings: .init(), display: x.display)
        let model = ScanModel(tree: Self.tree())
        // The x band, 150 wide, 0 → 650 in 13 s (50 pt/s); at 2 s its leading edge is at 100.
        func at(_ s: Double, _ e: TranscriptEvent) { _ = overlay.observe(TranscriptLine(t: .seconds(s), e), model: model) }
        at(0, .scan(started: true))
        at(0, Self.band(.x, 150, 0, 650, 13))
        overlay.advance(to: .seconds(2))
        overlay.sync()
        var s = try #require(Screenshot.capture(display: x.display))
        Self.keep(s, "point-x-band")
        // Two 4-px edges: 100…103 and 246…249, the inside and outside untouched, full height.
        #expect(Self.span(s, Self.blue, row: 50) == Array(100...103) + Array(246...249), "\(Self.span(s, Self.blue, row: 50))")
        #expect(Self.span(s, Self.blue, row: 599) == Array(100...103) + Array(246...249))
        // Later it has moved on by itself (the overlay's own frames between sweep lines).
        overlay.advance(to: .seconds(3))
        overlay.sync()
        s = try #require(Screenshot.capture(display: x.display))
        #expect(Self.span(s, Self.blue, row: 50) == Array(150...153) + Array(296...299))
        // Select: the band stops at 80, the line sweeps inside it; at 2.6 s it is at 105.
        at(3, Self.stopped(.band, .x, 150, at: 80))
        at(3, Self.sweepLine(.x, 80, 230, 6))
        overlay.advance(to: .seconds(4))
        overlay.sync()
        s = try #require(Screenshot.capture(display: x.display))
        Self.keep(s, "point-x-line")
        #expect(Self.span(s, Self.blue, row: 50) == Array(80...83) + [104, 105] + Array(226...229), "\(Self.span(s, Self.blue, row: 50))")
        // x fixed at 150; the y band sweeps down: at 5.2 s its top is at 100 (120 tall).
        at(4.6, Self.stopped(.line, .x, 0, at: 150))
        at(4.6, Self.band(.y, 120, 0, 480, 9.6))
        overlay.advance(to: .seconds(6.6))
        overlay.sync()
        s = try #require(Screenshot.capture(display: x.display))
        Self.keep(s, "point-y-band")
        #expect(Self.span(s, Self.blue, row: 50) == [149, 150])                      // the fixed x line
        #expect(s.has(Self.blue, 10, 100) && s.has(Self.blue, 10, 103) && s.has(Self.blue, 10, 216) && s.has(Self.blue, 10, 219))
        #expect(!s.has(Self.blue, 10, 99) && !s.has(Self.blue, 10, 104) && !s.has(Self.blue, 10, 215) && !s.has(Self.blue, 10, 220))
        #expect(Self.span(s, Self.blue, row: 150) == [149, 150])                     // inside the band: only the x line
        // The y line: stopped at 130 → the point (150, 130), on a: the crosshair, a ringed, the menu.
        at(6.6, Self.stopped(.band, .y, 120, at: 100))
        at(6.6, Self.sweepLine(.y, 100, 220, 4.8))
        overlay.advance(to: .seconds(7.6))
        overlay.sync()
        s = try #require(Screenshot.capture(display: x.display))
        #expect(s.has(Self.blue, 10, 124) && s.has(Self.blue, 10, 125) && !s.has(Self.blue, 10, 126))
        let p = Point(x: 150, y: 130)
        at(8.4, Self.stopped(.line, .y, 0, at: 130))
        at(8.4, .point(p, id: "a", label: "A"))
        at(8.4, .pointMenuOpened(point: p, id: "a", label: "A", items: Self.entries(["menu:tap", "menu:escape", "menu:close"])))
        overlay.sync()
        s = try #require(Screenshot.capture(display: x.display))
        Self.keep(s, "point-menu")
        for (px, py) in [(130, 130), (146, 130), (154, 130), (170, 130), (150, 110), (150, 126), (150, 134), (150, 150)] {
            #expect(s.has(Self.blue, px, py), "crosshair pixel \(px),\(py)")
        }
        for (px, py) in [(150, 130), (152, 130), (150, 132), (140, 140), (129, 130), (150, 151)] {
            #expect(!s.has(Self.blue, px, py), "not crosshair \(px),\(py)")
        }
        #expect(Self.span(s, Self.blue, row: 50).isEmpty)                             // no line or band left
        #expect(s.has(Self.blue, 98, 120))                                            // a's ring (Snap's element)
        let panel = overlay.menu.window.frame
        #expect(overlay.menu.window.isShown && overlay.menu.lines == ["Tap", "Escape", "Close menu"])
        #expect(panel.x == 170 + 1 + 10 && panel.y == 110, "panel \(panel)")           // right of the crosshair
        // Scanning stops: nothing is left on the screen.
        at(9.4, .menuClosed)
        at(9.4, .scan(started: false))
        overlay.advance(to: .seconds(10))
        overlay.sync()
        s = try #require(Screenshot.capture(display: x.display))
        #expect(s.pixels.allSatisfy { $0 == 0 }, "something is still drawn")
    }

    @Test func aSweepMovesByItselfInTheLiveLoopAndStopsWhenScanningStops() throws {
        let x = try XvfbServer()
        let overlay = try Overlay(settings: .init(), display: x.display)
        let model = ScanModel(tree: Self.tree())
        overlay.engineStarted(atMonotonic: 1_000_000)
        _ = overlay.observe(TranscriptLine(t: .zero, Self.band(.x, 150, 0, 650, 13)), model: model)
        // The overlay asks to be woken when the band reaches its next pixel (20 ms at 50 pt/s) …
        #expect(overlay.prepare(nowMonotonic: 1_000_000).deadline == 1_020_000)
        _ = overlay.dispatch(ready: [], nowMonotonic: 1_500_000)
        overlay.sync()
        let s = try #require(Screenshot.capture(display: x.display))
        #expect(Self.span(s, Self.blue, row: 50).first == 25)                          // … and draws it there
        #expect(overlay.prepare(nowMonotonic: 1_500_000).deadline == 1_520_000)
        // Stopped: no deadline, nothing drawn.
        _ = overlay.observe(TranscriptLine(t: .seconds(0.6), .scan(started: false)), model: model)
        #expect(overlay.prepare(nowMonotonic: 1_600_000).deadline == nil)
        overlay.sync()
        #expect(try #require(Screenshot.capture(display: x.display)).pixels.allSatisfy { $0 == 0 })
    }

    @Test func groupSelectionRingsEachColoursItemsInItsColourAndNoOther() throws {
        let x = try XvfbServer()
        let app = try AppWindow(x.display, x: 100, y: 100, width: 200, height: 60)  // white under a
        let overlay = try Overlay(settings: .init(), display: x.display)
        let model = ScanModel(tree: Self.tree())
        let blue = ColorGroupPicture.color(named: "blue"), red = ColorGroupPicture.color(named: "red")
        let green = ColorGroupPicture.color(named: "green"), white = ColorGroupPicture.color(named: "white")
        let lines = [ColorGroupLine(color: "blue", ids: ["a", "b"], labels: ["A", "B"], back: false),
                     ColorGroupLine(color: "red", ids: ["c"], labels: ["C"], back: false),
                     ColorGroupLine(color: "green", ids: ["d"], labels: ["D"], back: false)]
        var s = try Self.shot(x, overlay, [.scan(started: true), .colorGroups(lines)], model: model)
        Self.keep(s, "groups")
        // Each item's ring (4 px outside its frame) in its colour, on all four sides.
        let expected: [(CursorColor, Int, Int, Int, Int)] = [(blue, 100, 100, 200, 60), (blue, 100, 200, 200, 60),
                                                            (red, 100, 320, 120, 40), (green, 100, 400, 120, 40)]
        for (color, fx, fy, fw, fh) in expected {
            for (px, py) in [(fx - 2, fy + fh / 2), (fx + fw + 1, fy + fh / 2), (fx + fw / 2, fy - 2), (fx + fw / 2, fy + fh + 1)] {
                #expect(s.has(color, px, py), "\(color) at \(px),\(py) is \(String(s.rgb(px, py), radix: 16))")
            }
            // Not another group's colour anywhere on its ring, nor inside.
            for other in [blue, red, green] where other != color {
                #expect(!s.has(other, fx - 2, fy + fh / 2) && !s.has(other, fx + fw / 2, fy + fh / 2))
            }
        }
        #expect(s.rgb(200, 130) == 0xFFFFFF)                                          // a's window untouched
        #expect(s.rgb(95, 130) == 0 && s.has(blue, 96, 130))                          // the black edge outside
        #expect(!overlay.backTab.window.isShown && !overlay.ring.isShown)
        // Below the first level: red holds back → a "Back" tab in red; the white colour shows on
        // the white application thanks to its black edge.
        let level2 = [ColorGroupLine(color: "blue", ids: ["c"], labels: ["C"], back: false),
                      ColorGroupLine(color: "white", ids: ["a"], labels: ["A"], back: false),
                      ColorGroupLine(color: "red", ids: [], labels: [], back: true)]
        s = try Self.shot(x, overlay, [.colorGroups(level2)], model: model)
        Self.keep(s, "groups-back")
        #expect(s.has(white, 98, 130) && s.rgb(95, 130) == 0 && s.has(blue, 98, 340) && !s.has(blue, 98, 230))
        #expect(overlay.backTab.window.isShown && overlay.backTab.lines == ["Back"])
        let tab = overlay.backTab.window.frame
        #expect(s.has(red, tab.x + 2, tab.y + tab.height / 2), "back tab \(tab)")
        // The item chosen: its menu with each entry's row in its colour, back as a red last row.
        let ids = ["menu:tap", "menu:escape", "menu:close"]
        s = try Self.shot(x, overlay, [.highlight(id: "c", kind: .item, label: "C"), .menuOpened(id: "c", label: "C", items: Self.entries(ids)),
                                       .colorGroups([ColorGroupLine(color: "blue", ids: ["menu:tap"], labels: ["Tap"], back: false),
                                                     ColorGroupLine(color: "red", ids: ["menu:escape", "menu:close"], labels: ["Escape", "Close menu"], back: false)])],
                          model: model)
        Self.keep(s, "groups-menu")
        let panel = overlay.menu.window.frame
        for (row, color) in [(0, blue), (1, red), (2, red)] {
            let band = overlay.menu.rowRect(row, panelWidth: panel.width)
            #expect(s.has(color, panel.x + band.x + 3, panel.y + band.y + 2), "row \(row)")
        }
        #expect(!s.has(red, 98, 340) && !s.has(green, 98, 420))                       // the items' colours are gone
        // Stopped: nothing left.
        s = try Self.shot(x, overlay, [.menuClosed, .scan(started: false)], model: model)
        #expect(s.pixels.allSatisfy { $0 == 0 || $0 == 0xFFFFFF } && !s.pixels.contains(blue.rgb) && !s.pixels.contains(red.rgb))
        #expect(overlay.colorWindows.allSatisfy { !$0.isShown } && !overlay.colorEdge.isShown && !overlay.backTab.window.isShown)
        _ = app
    }
}

/// A failed expectation names the screenshot instead of printing its 480,000 pixels.
extension Screenshot: CustomTestStringConvertible {
    public var testDescription: String { "screenshot \(width)×\(height)" }
}
