import Testing
@testable import SwitchCore

/// Point scanning, named after the timelines in Scanner+PointMode.swift. Screen 400 × 800; the
/// anchors' defaults: band 150 (x) / 120 (y), 50 pt/s, line 25 pt/s, 0.25 s at every edge.
@Suite struct ScannerPointTests {
    /// a: [100, 200, 100, 50] with a custom action; b: [0, 600, 400, 100].
    static let model = Fixture.model([
        Fixture.button("a", actions: ["Delete"], frame: Rect(x: 100, y: 200, width: 100, height: 50)),
        Fixture.button("b", frame: Rect(x: 0, y: 600, width: 400, height: 100)),
    ])

    static func settings(_ style: ScanningSettings.Style = .manual, _ change: (inout ScanningSettings) -> Void = { _ in }) -> ScanningSettings {
        Fixture.settings(style) {
            $0.mode = .point
            change(&$0)
        }
    }

    /// Band stopped at 100 (t = 2), x line to 150 (t = 4), y band at 200 (t = 8), y line at
    /// 200 + 25·(yLineAt − 8).
    static func toMenu(_ h: inout ScannerHarness, yLineAt: Double = 9) -> [String] {
        h.start()
        h.press(.select, at: 2)
        h.press(.select, at: 4)
        h.press(.select, at: 8)
        return h.press(.select, at: yLineAt)
    }

    @Test func point_band_sweeps_and_bounces() {
        var h = ScannerHarness(Self.model, Self.settings(.auto))
        #expect(h.start() == ["0.000 scan started", "0.000 sweep x band 150 wide 0 → 250 in 5.000 s"])
        #expect(h.pendingTimers.map(\.at) == [.seconds(5.25)])
        #expect(h.run(until: 16) == [
            "5.250 sweep x band 150 wide 250 → 0 in 5.000 s",
            "10.500 sweep x band 150 wide 0 → 250 in 5.000 s",
            "15.750 sweep x band 150 wide 250 → 0 in 5.000 s",
        ])
    }

    @Test func point_loops_give_up() {
        var h = ScannerHarness(Self.model, Self.settings(.auto) { $0.loops = 2 })
        h.start()
        #expect(h.run(until: 11) == ["5.250 sweep x band 150 wide 250 → 0 in 5.000 s", "10.500 scan stopped"])
        #expect(h.pendingTimers.isEmpty)
        // In the x line, giving up goes back to the band.
        var g = ScannerHarness(Self.model, Self.settings(.auto) { $0.loops = 1 })
        g.start()
        g.press(.select, at: 2)
        #expect(g.run(until: 9) == ["8.250 sweep x band 150 wide 0 → 250 in 5.000 s"])
    }

    @Test func point_select_band_line_point() {
        var h = ScannerHarness(Self.model, Self.settings())
        h.start()
        #expect(h.press(.select, at: 2) == ["2.000 sweep x band 150 wide stopped at 100", "2.000 sweep x line 100 → 250 in 6.000 s"])
        #expect(h.press(.select, at: 4) == ["4.000 sweep x line stopped at 150", "4.000 sweep y band 120 wide 0 → 680 in 13.600 s"])
        #expect(h.press(.select, at: 8) == ["8.000 sweep y band 120 wide stopped at 200", "8.000 sweep y line 200 → 320 in 4.800 s"])
        #expect(h.press(.select, at: 8.4) == [
            "8.400 sweep y line stopped at 210",
            "8.400 point (150, 210) → a",
            "8.400 menu open at (150, 210) on a: menu:tap, menu:snap, menu:action:Delete, menu:refine, menu:escape, menu:close",
            "8.400 highlight menuItem menu:tap",
        ])
        #expect(h.violations.isEmpty)
    }

    @Test func point_on_nothing_offers_tap_refine_escape_close() {
        var h = ScannerHarness(Self.model, Self.settings())
        #expect(Self.toMenu(&h, yLineAt: 8) == [
            "8.000 sweep y line stopped at 200",
            "8.000 point (150, 200) → a",
            "8.000 menu open at (150, 200) on a: menu:tap, menu:snap, menu:action:Delete, menu:refine, menu:escape, menu:close",
            "8.000 highlight menuItem menu:tap",
        ])
        var g = ScannerHarness(Self.model, Self.settings())
        g.start()
        g.press(.select, at: 0)        // band at 0
        g.press(.select, at: 1)        // x = 25
        g.press(.select, at: 1)        // y band at 0
        #expect(g.press(.select, at: 2) == [
            "2.000 sweep y line stopped at 25",
            "2.000 point (25, 25) → no item there",
            "2.000 menu open at (25, 25): menu:tap, menu:refine, menu:escape, menu:close",
            "2.000 highlight menuItem menu:tap",
        ])
        #expect(g.press(.select, at: 3) == ["3.000 perform tap root at (25, 25)", "3.000 menu closed", "3.000 sweep x band 150 wide 0 → 250 in 5.000 s"])
    }

    @Test func point_menu_tap() {
        var h = ScannerHarness(Self.model, Self.settings())
        _ = Self.toMenu(&h, yLineAt: 8.4)
        #expect(h.press(.select, at: 10) == ["10.000 perform tap a at (150, 210)", "10.000 menu closed", "10.000 sweep x band 150 wide 0 → 250 in 5.000 s"])
    }

    @Test func point_menu_snap_and_actions() {
        var h = ScannerHarness(Self.model, Self.settings())
        _ = Self.toMenu(&h, yLineAt: 8.4)
        h.press(.next, at: 10)
        #expect(h.press(.select, at: 11) == ["11.000 perform activate a at (150, 225)", "11.000 menu closed", "11.000 sweep x band 150 wide 0 → 250 in 5.000 s"])
        var g = ScannerHarness(Self.model, Self.settings())
        _ = Self.toMenu(&g, yLineAt: 8.4)
        g.press(.next, at: 10)
        g.press(.next, at: 10)
        #expect(g.press(.select, at: 11).first == "11.000 perform custom a \"Delete\"")
    }

    @Test func point_always_tap() {
        var h = ScannerHarness(Self.model, Self.settings { $0.tapBehavior = .alwaysTap })
        #expect(Self.toMenu(&h, yLineAt: 8.4) == [
            "8.400 sweep y line stopped at 210",
            "8.400 point (150, 210) → a",
            "8.400 perform tap a at (150, 210)",
            "8.400 sweep x band 150 wide 0 → 250 in 5.000 s",
        ])
    }

    @Test func point_refine() {
        var h = ScannerHarness(Self.model, Self.settings())
        _ = Self.toMenu(&h, yLineAt: 8.4)
        for _ in 0..<3 { h.press(.next, at: 10) }
        // Half the band (75) around x = 150, half the line speed (12.5 pt/s): 6 s.
        #expect(h.press(.select, at: 11) == ["11.000 menu closed", "11.000 sweep x line 112.5 → 187.5 in 6.000 s"])
        #expect(h.press(.select, at: 13) == ["13.000 sweep x line stopped at 137.5", "13.000 sweep y line 180 → 240 in 4.800 s"])
        #expect(h.press(.select, at: 14) == [
            "14.000 sweep y line stopped at 192.5",
            "14.000 point (137.5, 192.5) → no item there",
            "14.000 menu open at (137.5, 192.5): menu:tap, menu:refine, menu:escape, menu:close",
            "14.000 highlight menuItem menu:tap",
        ])
        // Refined again: a quarter of the band, a quarter of the speed.
        h.press(.next, at: 15)
        #expect(h.press(.select, at: 16) == ["16.000 menu closed", "16.000 sweep x line 118.75 → 156.25 in 6.000 s"])
    }

    @Test func point_escape_steps_back() {
        var h = ScannerHarness(Self.model, Self.settings())
        h.start()
        h.press(.select, at: 2)
        h.press(.select, at: 4)
        h.press(.select, at: 8)
        #expect(h.press(.escape, at: 9) == ["9.000 sweep y band 120 wide 0 → 680 in 13.600 s"])
        #expect(h.press(.escape, at: 10) == ["10.000 sweep x line 100 → 250 in 6.000 s"])
        #expect(h.press(.escape, at: 11) == ["11.000 sweep x band 150 wide 0 → 250 in 5.000 s"])
        #expect(h.press(.escape, at: 12) == ["12.000 perform escape root", "12.000 sweep x band 150 wide 0 → 250 in 5.000 s"])
        // In the menu, escape (the switch) closes it and a new sweep starts.
        var g = ScannerHarness(Self.model, Self.settings())
        _ = Self.toMenu(&g)
        #expect(g.press(.escape, at: 10) == ["10.000 menu closed", "10.000 sweep x band 150 wide 0 → 250 in 5.000 s"])
    }

    @Test func point_press_time() {
        // A press at 2 s accepted at 2.5 s (hold duration): the band stops at 100, where it was.
        var h = ScannerHarness(Self.model, Self.settings())
        h.start()
        let target = h.scanner.target(at: .seconds(2))
        #expect(h.press(.select, at: 2.5, target: target).first == "2.500 sweep x band 150 wide stopped at 100")
        // A snapshot from an earlier step no longer applies.
        #expect(h.press(.select, at: 3, target: target).first == "3.000 sweep x line stopped at 112.5")
    }

    @Test func point_ignores_other_switches() {
        var h = ScannerHarness(Self.model, Self.settings())
        h.start()
        for (n, action) in [SwitchAction.next, .previous, .menu, .resumeScanning, .group1].enumerated() {
            #expect(h.press(action, at: Double(n) * 0.1) == [])
        }
        #expect(h.press(.stopScanning, at: 1) == ["1.000 scan stopped"])
        #expect(h.pendingTimers.isEmpty)
        #expect(h.press(.select, at: 2) == ["2.000 scan started", "2.000 sweep x band 150 wide 0 → 250 in 5.000 s"])
    }

    @Test func point_layout_keeps_sweeping_unless_the_screen_changes() {
        var h = ScannerHarness(Self.model, Self.settings())
        h.start()
        #expect(h.layout(Fixture.abc, at: 1) == [])
        let wide = ScanModel(tree: ElementTree(screen: Size(width: 800, height: 600), root: Element(id: "root", children: [])))
        #expect(h.layout(wide, at: 2) == ["2.000 sweep x band 150 wide 0 → 650 in 13.000 s"])
        // Point scanning needs no items: an empty tree is still a screen to point at.
        #expect(h.scanner.isScanning)
    }

    @Test func point_menu_layout_reopens_when_the_item_under_it_changes() {
        var h = ScannerHarness(Self.model, Self.settings())
        _ = Self.toMenu(&h, yLineAt: 8.4)
        #expect(h.layout(Self.model, at: 9) == [])
        #expect(h.layout(Fixture.abc, at: 10) == [
            "10.000 menu open at (150, 210): menu:tap, menu:refine, menu:escape, menu:close",
            "10.000 highlight menuItem menu:tap",
        ])
    }

    @Test func menu_mode_switch_item_to_point_and_back() {
        var h = ScannerHarness(Self.model, Fixture.settings(.manual) { $0.modeSwitch = true })
        h.start()
        #expect(h.press(.select, at: 1) == ["1.000 menu open on a: menu:tap, menu:action:Delete, menu:pointMode, menu:escape, menu:close",
                                             "1.000 highlight menuItem menu:tap"])
        h.press(.next, at: 2)
        h.press(.next, at: 2)
        #expect(h.press(.select, at: 3) == ["3.000 menu closed", "3.000 mode point", "3.000 sweep x band 150 wide 0 → 250 in 5.000 s"])
        _ = h.press(.select, at: 5)       // band at 100
        _ = h.press(.select, at: 7)       // x = 150
        _ = h.press(.select, at: 11)      // y band at 200
        #expect(h.press(.select, at: 12).contains("12.000 menu open at (150, 225) on a: menu:tap, menu:snap, menu:action:Delete, menu:refine, menu:itemMode, menu:escape, menu:close"))
        for _ in 0..<4 { h.press(.next, at: 13) }
        #expect(h.press(.select, at: 14) == ["14.000 menu closed", "14.000 mode item", "14.000 highlight item a"])
    }
}
