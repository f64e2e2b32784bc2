import Testing
@testable import SwitchCore

/// Group selection, named after the timelines in Scanner+GroupSelection.swift.
@Suite struct ScannerGroupSelectionTests {
    static let six = Fixture.model(["a", "b", "c", "d", "e", "f"].map { Fixture.button($0) })

    static func settings(_ change: (inout ScanningSettings) -> Void = { _ in }) -> ScanningSettings {
        Fixture.settings(.auto) {
            $0.mode = .groupSelection
            change(&$0)
        }
    }

    @Test func groups_narrow_then_choose() {
        var h = ScannerHarness(Self.six, Self.settings(), groupSwitches: 3)
        #expect(h.start() == ["0.000 scan started", "0.000 groups blue: a | red: b | green: c d e f"])
        #expect(h.pendingTimers.isEmpty)
        #expect(h.press(.group3, at: 1) == ["1.000 groups blue: c | red: d | green: e f (back)"])
        #expect(h.press(.group3, at: 2) == ["2.000 groups blue: e | red: f | green: (back)"])
        #expect(h.press(.group2, at: 3) == [
            "3.000 highlight item f",
            "3.000 menu open on f: menu:tap, menu:escape, menu:close",
            "3.000 groups blue: menu:tap | red: menu:escape | green: menu:close",
        ])
        #expect(h.press(.group1, at: 4) == [
            "4.000 highlight menuItem menu:tap",
            "4.000 perform activate f",
            "4.000 menu closed",
            // f was chosen once: it weighs 2 now and gets a colour of its own (groups_likely_items).
            "4.000 groups blue: a | red: b c d e | green: f",
        ])
        #expect(h.pendingTimers.isEmpty && h.violations.isEmpty)
    }

    @Test func groups_two_switches_halve() {
        var h = ScannerHarness(Self.six, Self.settings { $0.tapBehavior = .alwaysTap }, groupSwitches: 2)
        #expect(h.start().last == "0.000 groups blue: a b c | red: d e f")
        #expect(h.press(.group1, at: 1) == ["1.000 groups blue: a | red: b c (back)"])
        #expect(h.press(.group2, at: 2) == ["2.000 groups blue: b | red: c (back)"])
        #expect(h.press(.group2, at: 3) == ["3.000 groups blue: c | red: (back)"])
        // Back alone: out of every level its colour led into, to the first level.
        #expect(h.press(.group2, at: 4) == ["4.000 groups blue: a b c | red: d e f"])
        h.press(.group1, at: 5)
        h.press(.group2, at: 6)
        #expect(h.press(.group1, at: 7) == ["7.000 highlight item b", "7.000 perform activate b", "7.000 groups blue: a b c | red: d e f"])
    }

    @Test func groups_back_returns() {
        var h = ScannerHarness(Self.six, Self.settings(), groupSwitches: 3)
        h.start()
        #expect(h.press(.group3, at: 1) == ["1.000 groups blue: c | red: d | green: e f (back)"])
        #expect(h.press(.group3, at: 2) == ["2.000 groups blue: e | red: f | green: (back)"])
        // The back colour leads out to the level before the run that first held back ...
        #expect(h.press(.group3, at: 3) == ["3.000 groups blue: a | red: b | green: c d e f"])
        // ... the escape switch goes back exactly one level.
        h.press(.group3, at: 4)
        h.press(.group3, at: 5)
        #expect(h.press(.escape, at: 6) == ["6.000 groups blue: c | red: d | green: e f (back)"])
        #expect(h.press(.escape, at: 7) == ["7.000 groups blue: a | red: b | green: c d e f"])
    }

    @Test func groups_escape_action() {
        var h = ScannerHarness(Self.six, Self.settings(), groupSwitches: 3)
        h.start()
        h.press(.group3, at: 1)
        #expect(h.press(.escape, at: 2) == ["2.000 groups blue: a | red: b | green: c d e f"])
        #expect(h.press(.escape, at: 3) == ["3.000 perform escape root", "3.000 groups blue: a | red: b | green: c d e f"])
    }

    @Test func groups_menu_in_colors_escape_closes() {
        var h = ScannerHarness(Self.six, Self.settings(), groupSwitches: 6)
        h.start()
        #expect(h.press(.group2, at: 1) == [
            "1.000 highlight item b",
            "1.000 menu open on b: menu:tap, menu:escape, menu:close",
            "1.000 groups blue: menu:tap | red: menu:escape | green: menu:close",
        ])
        #expect(h.scanner.isMenuOpen)
        #expect(h.press(.escape, at: 2) == ["2.000 menu closed", "2.000 groups blue: a | red: b | green: c | white: d | orange: e | purple: f"])
        h.press(.group1, at: 3)
        #expect(h.press(.group3, at: 4) == ["4.000 highlight menuItem menu:close", "4.000 menu closed",
                                             "4.000 groups blue: a | red: b | green: c | white: d | orange: e | purple: f"])
    }

    @Test func groups_likely_items() {
        // f takes three presses; chosen once, it weighs 2 and takes one.
        var h = ScannerHarness(Self.six, Self.settings { $0.tapBehavior = .alwaysTap }, groupSwitches: 3)
        h.start()
        h.press(.group3, at: 1)
        h.press(.group3, at: 2)
        #expect(h.press(.group2, at: 3) == ["3.000 highlight item f", "3.000 perform activate f", "3.000 groups blue: a | red: b c d e | green: f"])
        #expect(h.press(.group3, at: 4) == ["4.000 highlight item f", "4.000 perform activate f", "4.000 groups blue: a | red: b c d e | green: f"])
        #expect(h.scanner.uses == ["f": 2])
    }

    @Test func groups_ignore_empty_color_and_item_switches() {
        var h = ScannerHarness(Fixture.abc, Self.settings(), groupSwitches: 4)
        #expect(h.start().last == "0.000 groups blue: a | red: b | green: c")
        for (n, action) in [SwitchAction.group4, .group6, .select, .next, .previous, .resumeScanning, .menu].enumerated() {
            #expect(h.press(action, at: Double(n + 1)) == [])
        }
        #expect(h.press(.stopScanning, at: 9) == ["9.000 scan stopped"])
        #expect(h.press(.group2, at: 10) == ["10.000 scan started", "10.000 groups blue: a | red: b | green: c"])
    }

    @Test func groups_auto_tap_second_press_opens_menu() {
        var h = ScannerHarness(Fixture.abc, Self.settings { $0.tapBehavior = .autoTap }, groupSwitches: 3)
        h.start()
        #expect(h.press(.group1, at: 1) == ["1.000 highlight item a"])
        #expect(h.press(.group2, at: 1.5).first == "1.500 menu open on a: menu:tap, menu:escape, menu:close")
        var g = ScannerHarness(Fixture.abc, Self.settings { $0.tapBehavior = .autoTap }, groupSwitches: 3)
        g.start()
        g.press(.group2, at: 1)
        #expect(g.run(until: 3) == ["1.750 perform activate b", "1.750 groups blue: a | red: b | green: c"])
    }

    @Test func groups_layout_same_ids_keep_changed_restart() {
        var h = ScannerHarness(Self.six, Self.settings(), groupSwitches: 3)
        h.start()
        h.press(.group3, at: 1)
        #expect(h.layout(Self.six, at: 2) == [])
        #expect(h.press(.group1, at: 3).first == "3.000 highlight item c")
        var g = ScannerHarness(Self.six, Self.settings(), groupSwitches: 3)
        g.start()
        g.press(.group3, at: 1)
        #expect(g.layout(Fixture.abc, at: 2) == ["2.000 groups blue: a | red: b | green: c"])
        #expect(g.layout(Fixture.model([]), at: 3) == ["3.000 scan stopped (noItems)"])
    }

    @Test func groups_layout_menu_item_gone() {
        var h = ScannerHarness(Self.six, Self.settings(), groupSwitches: 3)
        h.start()
        h.press(.group3, at: 1)
        h.press(.group3, at: 2)
        h.press(.group2, at: 3)   // f's menu
        #expect(h.layout(Fixture.abc, at: 4) == ["4.000 menu closed", "4.000 groups blue: a | red: b | green: c"])
    }
}
