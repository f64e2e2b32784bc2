import Testing
@testable import SwitchCore

/// Manual scanning (next / previous / select, no timers) and single switch step scanning (a press
/// moves; the dwell after a press-driven move selects).
@Suite struct ScannerManualStepTests {
    @Test func manual_next_previous_wrap() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.manual))
        #expect(h.start() == ["0.000 scan started", "0.000 highlight item a"])
        #expect(h.pendingTimers.isEmpty)
        #expect(h.press(.next, at: 1) == ["1.000 highlight item b"])
        #expect(h.press(.next, at: 2) == ["2.000 highlight item c"])
        #expect(h.press(.next, at: 3) == ["3.000 highlight item a"])
        #expect(h.press(.previous, at: 4) == ["4.000 highlight item c"])
        #expect(h.press(.previous, at: 5) == ["5.000 highlight item b"])
        #expect(h.run(until: 100) == [])
        #expect(h.pendingTimers.isEmpty)
    }

    @Test func manual_never_stops_by_loops() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.manual) { $0.loops = 1 })
        h.start()
        for k in 1...9 { h.press(.next, at: Double(k)) }
        #expect(h.scanner.isScanning)
        #expect(h.lines.last.map(ScannerHarness.render) == "9.000 highlight item a")
    }

    @Test func manual_menu_stays_until_closed() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.manual) { $0.loops = 1 })
        h.start()
        #expect(h.press(.select, at: 1) == ["1.000 menu open on a: menu:tap, menu:escape, menu:close", "1.000 highlight menuItem menu:tap"])
        #expect(h.pendingTimers.isEmpty)
        #expect(h.run(until: 1000) == [])
        #expect(h.scanner.isMenuOpen)
        #expect(h.press(.previous, at: 1001) == ["1001.000 highlight menuItem menu:close"])
        #expect(h.press(.next, at: 1002) == ["1002.000 highlight menuItem menu:tap"])
    }

    @Test func manual_group_enter_and_escape_stop() {
        var h = ScannerHarness(Fixture.groupThenC, Fixture.settings(.manual) { $0.groupItems = true })
        #expect(h.start() == ["0.000 scan started", "0.000 highlight group g"])
        #expect(h.press(.select, at: 1) == ["1.000 highlight item x"])
        #expect(h.press(.next, at: 2) == ["2.000 highlight item y"])
        #expect(h.press(.next, at: 3) == ["3.000 highlight groupExit g"])
        #expect(h.press(.next, at: 4) == ["4.000 highlight item x"])  // the escape stop is part of the ring
        #expect(h.press(.previous, at: 5) == ["5.000 highlight groupExit g"])
        #expect(h.press(.select, at: 6) == ["6.000 highlight group g"])
        #expect(h.press(.next, at: 7) == ["7.000 highlight item c"])
    }

    @Test func step_no_dwell_after_start() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.singleSwitchStep))
        #expect(h.start() == ["0.000 scan started", "0.000 highlight item a"])
        #expect(h.pendingTimers.isEmpty)
        #expect(h.run(until: 60) == [])
    }

    @Test func step_press_moves_dwell_selects() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.singleSwitchStep))
        h.start()
        #expect(h.press(.select, at: 1) == ["1.000 highlight item b"])
        #expect(h.press(.select, at: 1.5) == ["1.500 highlight item c"])
        #expect(h.press(.previous, at: 2) == ["2.000 highlight item b"])
        // No press for autoScanningTime: b is selected (menu), and the dwell runs in the menu too.
        #expect(h.run(until: 3.0) == ["3.000 menu open on b: menu:tap, menu:escape, menu:close", "3.000 highlight menuItem menu:tap"])
        #expect(h.run(until: 4.0) == ["4.000 perform activate b", "4.000 menu closed", "4.000 highlight item a"])
        // Resume: no dwell.
        #expect(h.pendingTimers.isEmpty)
        #expect(h.run(until: 60) == [])
    }

    @Test func step_next_moves_like_select() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.singleSwitchStep) { $0.autoScanningTime = .seconds(2) })
        h.start()
        #expect(h.press(.next, at: 1) == ["1.000 highlight item b"])
        #expect(h.press(.next, at: 2.5) == ["2.500 highlight item c"])  // restarts the dwell
        #expect(h.run(until: 4.4) == [])
        #expect(h.run(until: 4.5) == ["4.500 menu open on c: menu:tap, menu:escape, menu:close", "4.500 highlight menuItem menu:tap"])
    }

    @Test func step_menu_presses_move_dwell_chooses() {
        var h = ScannerHarness(Fixture.model([Fixture.button("a", actions: ["Delete"]), Fixture.button("b")]),
                               Fixture.settings(.singleSwitchStep))
        h.start()
        h.press(.select, at: 1)  // b
        h.press(.select, at: 1.5)  // a
        #expect(h.run(until: 2.5) == ["2.500 menu open on a: menu:tap, menu:action:Delete, menu:escape, menu:close", "2.500 highlight menuItem menu:tap"])
        #expect(h.press(.select, at: 3) == ["3.000 highlight menuItem menu:action:Delete"])
        #expect(h.run(until: 4) == ["4.000 perform custom a \"Delete\"", "4.000 menu closed", "4.000 highlight item a"])
    }

    @Test func step_no_loops_in_menu() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.singleSwitchStep) { $0.loops = 1 })
        h.start()
        h.press(.menu, at: 1)
        for k in 0..<7 { h.press(.next, at: 1.1 + 0.1 * Double(k)) }
        #expect(h.scanner.isMenuOpen)
        #expect(h.lines.last.map(ScannerHarness.render) == "1.700 highlight menuItem menu:escape")
    }

    @Test func step_dwell_enters_group_without_dwell_inside() {
        var h = ScannerHarness(Fixture.groupThenC, Fixture.settings(.singleSwitchStep) { $0.groupItems = true })
        h.start()
        h.press(.select, at: 1)  // c
        #expect(h.press(.select, at: 1.5) == ["1.500 highlight group g"])
        #expect(h.run(until: 2.5) == ["2.500 highlight item x"])
        #expect(h.pendingTimers.isEmpty)
        #expect(h.press(.select, at: 3) == ["3.000 highlight item y"])
        #expect(h.press(.select, at: 3.5) == ["3.500 highlight groupExit g"])
        #expect(h.run(until: 4.5) == ["4.500 highlight group g"])
        #expect(h.pendingTimers.isEmpty)
    }

    @Test func step_auto_tap_second_select_opens_menu() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.singleSwitchStep) { $0.tapBehavior = .autoTap })
        h.start()
        h.press(.select, at: 1)  // b
        #expect(h.run(until: 2) == [])  // window starts at 2.0
        #expect(h.press(.select, at: 2.5) == ["2.500 menu open on b: menu:tap, menu:escape, menu:close", "2.500 highlight menuItem menu:tap"])
    }

    @Test func step_auto_tap_window_expires() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.singleSwitchStep) { $0.tapBehavior = .autoTap; $0.focusedItemAfterTap = .current })
        h.start()
        h.press(.select, at: 1)  // b
        #expect(h.run(until: 3) == ["2.750 perform activate b", "2.750 highlight item b"])
        #expect(h.pendingTimers.isEmpty)
    }

    @Test func step_auto_tap_next_cancels_and_moves() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.singleSwitchStep) { $0.tapBehavior = .autoTap })
        h.start()
        h.press(.select, at: 1)  // b
        h.run(until: 2)
        #expect(h.press(.next, at: 2.2) == ["2.200 highlight item c"])
        #expect(h.pendingTimers.map(\.id) == [.dwell])
        // The dwell selects c: a new window, then the tap.
        #expect(h.run(until: 3.2) == [])
        #expect(h.run(until: 4) == ["3.950 perform activate c", "3.950 highlight item a"])
    }
}
