import Foundation
import SwitchCore
import SwitchDisplay
@testable import SwitchDisplayServers
import SwitchInput
@testable import SwitchOverlay
import Testing

/// The overlay's logic (SwitchOverlay's `Overlay`, the same the X11 presence tests drive) on the
/// wlroots backend's surface (`LayerShellSurface`: the scene builder and the layer shell) of a real
/// headless sway, read back by grim: what a person sees of the groups, the menu panel, point
/// scanning and the hold countdown. The tree is the presence tests' (a at 100,100 200×60; b below
/// it; a group g at 80,300 320×200 holding c and d) on an output of 1280×800 whose background
/// is sway's #204060.
@Suite(.serialized, .needs(SwaySession.needs, python: SwaySession.python))
struct SwayOverlayTests {
    static let blue: UInt32 = 0x007AFF
    static let background: UInt32 = 0x204060

    static func tree() -> ElementTree {
        func button(_ id: String, _ f: Rect, actions: [String] = []) -> Element {
            Element(id: id, label: id.uppercased(), traits: .button, frame: f, customActions: actions)
        }
        let group = Element(id: "g", label: "Tools", frame: Rect(x: 80, y: 300, width: 320, height: 200), shouldGroupChildren: true,
                            children: [button("c", Rect(x: 100, y: 320, width: 120, height: 40), actions: ["Delete"]),
                                       button("d", Rect(x: 100, y: 400, width: 120, height: 40))])
        return ElementTree(screen: Size(width: 1280, height: 800),
                           root: Element(id: "root", frame: Rect(x: 0, y: 0, width: 1280, height: 800),
                                         children: [button("a", Rect(x: 100, y: 100, width: 200, height: 60)),
                                                    button("b", Rect(x: 100, y: 200, width: 200, height: 60)), group]))
    }

    /// A session, the backend's surface on it, and the overlay drawing there.
    static func overlay(_ s: SwaySession) throws -> (Overlay, LayerShellSurface) {
        let c = try WaylandConnection(environment: s.environment)
        let surface = try LayerShellSurface(connection: c, compositor: "sway")
        return (try Overlay(settings: .init(), surface: surface), surface)
    }

    static func show(_ overlay: Overlay, _ events: [TranscriptEvent], model: ScanModel, at t: Double = 0) {
        for e in events { _ = overlay.observe(TranscriptLine(t: .seconds(t), e), model: model) }
        overlay.sync()
    }

    /// The screenshot once `done` holds of it (the compositor draws after our commit).
    static func shot(_ s: SwaySession, _ what: String, _ done: (Image) -> Bool) throws -> Image {
        var latest: Image?
        defer { latest?.keep("sway-overlay-" + what.replacingOccurrences(of: " ", with: "-")) }
        return try s.waitFor(what) { () throws -> Image? in
            let shot = try s.screenshot()
            latest = shot
            return done(shot) ? shot : nil
        }
    }

    static func runs(_ row: [Bool]) -> (on: [Int], off: [Int]) {
        var on: [Int] = [], off: [Int] = [], k = 0
        while k < row.count {
            var n = 0
            let v = row[k]
            while k < row.count && row[k] == v { n += 1; k += 1 }
            if v { on.append(n) } else { off.append(n) }
        }
        // The gaps between dashes only (not what is before the first or after the last).
        if row.first == false { off.removeFirst() }
        if row.last == false, !off.isEmpty { off.removeLast() }
        return (on, off)
    }

    @Test func anItemsRingAGroupsDashedRingAndItsExitTab() throws {
        let s = try SwaySession()
        defer { s.close() }
        let (overlay, _) = try Self.overlay(s)
        let model = ScanModel(tree: Self.tree())
        Self.show(overlay, [.scan(started: true), .highlight(id: "a", kind: .item, label: "")], model: model)
        var shot = try Self.shot(s, "item ring") { $0.rgb(98, 130) == Self.blue }
        // 4 px just outside the frame (96…99, 300…303), the inside untouched, nothing beyond.
        for (x, y) in [(96, 130), (99, 130), (300, 130), (303, 130), (200, 96), (200, 99), (200, 160), (200, 163), (96, 96), (303, 163)] {
            #expect(shot.rgb(x, y) == Self.blue, "ring pixel \(x),\(y) is \(shot.pixel(x, y))")
        }
        for (x, y) in [(100, 130), (200, 130), (299, 159), (95, 130), (304, 130), (200, 164)] {
            #expect(shot.rgb(x, y) == Self.background, "\(x),\(y) is \(shot.pixel(x, y))")
        }
        Self.show(overlay, [.highlight(id: "g", kind: .group, label: "")], model: model)
        shot = try Self.shot(s, "group ring") { $0.rgb(76, 298) == Self.blue && $0.rgb(98, 130) != Self.blue }
        let top = Self.runs((76...403).map { shot.rgb($0, 298) == Self.blue })
        #expect(top.on.count >= 10 && top.off.count >= 9, "dashes \(top)")
        #expect(top.on.allSatisfy { $0 == 12 }, "dash lengths \(top.on)")
        #expect(top.off.allSatisfy { (8...10).contains($0) }, "gap lengths \(top.off)")
        #expect(shot.rgb(80, 288) != Self.blue)  // no exit tab for the group itself
        Self.show(overlay, [.highlight(id: "g", kind: .groupExit, label: "")], model: model)
        shot = try Self.shot(s, "group exit") { $0.rgb(80, 288) == Self.blue }
        #expect(shot.rgb(78, 285) == Self.blue, "the tab above the ring's corner")
        Self.show(overlay, [.scan(started: false)], model: model)
        _ = try Self.shot(s, "all gone") { shot in (0..<shot.height).allSatisfy { y in (0..<shot.width).allSatisfy { shot.rgb($0, y) == Self.background } } }
    }

    @Test func theMenuPanelListsTheEntriesNextToTheItemAndMarksTheHighlightedOne() throws {
        let s = try SwaySession()
        defer { s.close() }
        let (overlay, _) = try Self.overlay(s)
        let model = ScanModel(tree: Self.tree())
        let names = ["menu:tap": "Tap", "menu:action:Delete": "Delete", "menu:escape": "Escape", "menu:close": "Close menu"]
        let ids = ["menu:tap", "menu:action:Delete", "menu:escape", "menu:close"]
        Self.show(overlay, [.highlight(id: "c", kind: .item, label: ""),
                            .menuOpened(id: "c", label: "", items: ids.map { MenuEntryName(id: $0, label: names[$0]!) })], model: model)
        let panel = overlay.menu.window.frame
        // Right of c's ring (c ends at 220, its ring at 224), 6 px further, top-aligned with c.
        #expect(panel.x == 230 && panel.y == 320, "panel \(panel)")
        #expect(overlay.menu.lines == ["Tap", "Delete", "Escape", "Close menu"])
        var shot = try Self.shot(s, "menu panel") { $0.rgb(panel.x + 1, panel.y + 1) == Self.blue }
        // White inside, black text on it (Pango's DejaVu Sans), the border the cursor colour.
        let inside = (panel.y + 4..<panel.maxY - 4).flatMap { y in (panel.x + 4..<panel.maxX - 4).map { shot.rgb($0, y) } }
        #expect(inside.filter { $0 == 0xFFFFFF }.count > inside.count / 2, "the panel is white")
        #expect(inside.contains(0x000000), "black text on it")
        for (k, id) in ids.enumerated() {
            Self.show(overlay, [.highlight(id: id, kind: .menuItem, label: "")], model: model)
            let band = overlay.menu.rowRect(k, panelWidth: panel.width)
            let (px, py) = (panel.x + band.x + 3, panel.y + band.y + 2)
            shot = try Self.shot(s, "menu entry \(k)") { $0.rgb(px, py) == Self.blue }
            for row in 0..<ids.count where row != k {
                let other = overlay.menu.rowRect(row, panelWidth: panel.width)
                #expect(shot.rgb(panel.x + other.x + 3, panel.y + other.y + 2) != Self.blue, "entry \(k) marked, row \(row) too")
            }
        }
        Self.show(overlay, [.menuClosed, .highlight(id: "c", kind: .item, label: "")], model: model)
        _ = try Self.shot(s, "menu closed") { $0.rgb(panel.x + panel.width / 2, panel.y + panel.height / 2) == Self.background }
    }

    @Test func pointScanningDrawsTheBandTheLineAndTheCrosshair() throws {
        let s = try SwaySession()
        defer { s.close() }
        let (overlay, _) = try Self.overlay(s)
        let model = ScanModel(tree: Self.tree())
        func at(_ t: Double, _ e: TranscriptEvent) { _ = overlay.observe(TranscriptLine(t: .seconds(t), e), model: model) }
        func span(_ shot: Image, row y: Int) -> [Int] { (0..<shot.width).filter { shot.rgb($0, y) == Self.blue } }
        // The x band, 150 wide, 0 → 650 in 13 s (50 px/s): at 2 s its leading edge is at 100.
        at(0, .scan(started: true))
        at(0, .sweep(Sweep(.band, .x, width: 150, .moving(from: 0, to: 650, duration: .seconds(13)))))
        overlay.advance(to: .seconds(2))
        overlay.sync()
        var shot = try Self.shot(s, "x band") { span($0, row: 50) == Array(100...103) + Array(246...249) }
        #expect(span(shot, row: 799) == Array(100...103) + Array(246...249), "the band's edges go the whole height")
        // Stopped at 80, the line sweeps inside it: at 1 s of 6 it is at 105.
        at(3, .sweep(Sweep(.band, .x, width: 150, .stopped(at: 80))))
        at(3, .sweep(Sweep(.line, .x, width: 0, .moving(from: 80, to: 230, duration: .seconds(6)))))
        overlay.advance(to: .seconds(4))
        overlay.sync()
        shot = try Self.shot(s, "x line") { span($0, row: 50) == Array(80...83) + [104, 105] + Array(226...229) }
        // The point (150, 130) on a: the crosshair, a ringed (what Snap would activate).
        let p = Point(x: 150, y: 130)
        at(5, .sweep(Sweep(.line, .x, width: 0, .stopped(at: 150))))
        at(8, .point(p, id: "a", label: "A"))
        at(8, .pointMenuOpened(point: p, id: "a", label: "A", items: [MenuEntryName(id: "menu:tap", label: "Tap"),
                                                                      MenuEntryName(id: "menu:close", label: "Close menu")]))
        overlay.sync()
        shot = try Self.shot(s, "crosshair") { $0.rgb(130, 130) == Self.blue && $0.rgb(98, 120) == Self.blue }
        for (x, y) in [(130, 130), (146, 130), (154, 130), (170, 130), (150, 110), (150, 126), (150, 134), (150, 150)] {
            #expect(shot.rgb(x, y) == Self.blue, "crosshair pixel \(x),\(y)")
        }
        for (x, y) in [(150, 130), (152, 130), (150, 132), (140, 140), (129, 130), (150, 151)] {
            #expect(shot.rgb(x, y) != Self.blue, "not the crosshair: \(x),\(y)")
        }
        let panel = overlay.menu.window.frame
        #expect(overlay.menu.window.isShown && overlay.menu.lines == ["Tap", "Close menu"])
        #expect(panel.x == 170 + 1 + 10 && panel.y == 110, "the point's menu right of the crosshair: \(panel)")
        #expect(shot.rgb(panel.x + 1, panel.y + 1) == Self.blue, "its border")
        at(9, .menuClosed)
        at(9, .scan(started: false))
        overlay.sync()
        _ = try Self.shot(s, "point gone") { span($0, row: 50).isEmpty && $0.rgb(130, 130) == Self.background }
    }

    /// Touch passthrough's hold countdown at the finger (200, 150): on Wayland the scene's pie (a
    /// filled sector from 12 o'clock clockwise, over the track's circle), filling as the hold
    /// goes on, gone when it ends.
    @Test func theHoldCountdownFillsClockwiseAtTheFinger() throws {
        let s = try SwaySession()
        defer { s.close() }
        let (overlay, _) = try Self.overlay(s)
        func onRing(_ degrees: Double, r: Double) -> (Int, Int) {
            let a = degrees * Double.pi / 180
            return (Int((200 + r * sin(a)).rounded()), Int((150 - r * cos(a)).rounded()))
        }
        overlay.observeTouch(.countdown(device: 0, contact: 3, at: Point(x: 200, y: 150), from: .seconds(1), until: .seconds(2)))
        overlay.advance(to: .seconds(1.25))
        overlay.sync()
        let quarter = try Self.shot(s, "countdown quarter") { shot in [5.0, 45, 85].allSatisfy { let (x, y) = onRing($0, r: 20); return shot.rgb(x, y) == Self.blue } }
        for degrees in [95.0, 180, 270, 355] {
            let (x, y) = onRing(degrees, r: 20)
            #expect(quarter.rgb(x, y) != Self.blue, "no arc yet at \(degrees)°")
            let (tx, ty) = onRing(degrees, r: 31)
            let c = quarter.rgb(tx, ty)  // the track's middle (anti-aliased round its circle): black
            #expect(c >> 16 < 0x20 && (c >> 8) & 0xFF < 0x20 && c & 0xFF < 0x20, "the black track at \(degrees)°: \(quarter.pixel(tx, ty))")
        }
        #expect(quarter.rgb(240, 150) == Self.background, "nothing beyond the ring")
        overlay.advance(to: .seconds(1.75))
        overlay.sync()
        _ = try Self.shot(s, "countdown three quarters") { shot in
            [95.0, 180, 265].allSatisfy { let (x, y) = onRing($0, r: 20); return shot.rgb(x, y) == Self.blue }
                && { let (x, y) = onRing(300, r: 20); return shot.rgb(x, y) != Self.blue }()
        }
        overlay.observeTouch(.countdownEnded(device: 0, contact: 3))
        overlay.sync()
        _ = try Self.shot(s, "countdown gone") { shot in
            [0.0, 90, 180, 270].allSatisfy { let (x, y) = onRing($0, r: 20); return shot.rgb(x, y) == Self.background }
                && { let (x, y) = onRing(180, r: 31); return shot.rgb(x, y) == Self.background }()
        }
    }
}
