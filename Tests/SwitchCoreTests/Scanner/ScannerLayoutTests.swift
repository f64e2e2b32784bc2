import Testing
@testable import SwitchCore

/// Layout changes: the highlight keeps its item or group by id, else takes the stop in its place;
/// the menu closes or re-opens; an empty screen stops scanning and a non-empty one restarts it.
@Suite struct ScannerLayoutTests {
    typealias F = Fixture

    @Test func layout_same_id_stays() {
        var h = ScannerHarness(F.abc, F.settings(.auto))
        h.start()
        h.run(until: 1)  // b, dwell until 2
        #expect(h.layout(F.model([F.button("n"), F.button("a"), F.button("b"), F.button("c")]), at: 1.5) == [])
        // Timers continue: the dwell still ends at 2, and the next stop is the one after b now.
        #expect(h.pendingTimers.map(\.at) == [.seconds(2)])
        #expect(h.run(until: 3) == ["2.000 highlight item c", "3.000 highlight item n"])
    }

    @Test func layout_same_id_moves_into_group() {
        var h = ScannerHarness(F.abc, F.settings(.manual) { $0.groupItems = true })
        h.start()
        h.press(.next, at: 1)  // b
        let grouped = F.model([F.button("a"), F.group("g", [F.button("b"), F.button("c")])])
        #expect(h.layout(grouped, at: 2) == [])
        // b is now highlighted in its innermost group's level.
        #expect(h.press(.next, at: 3) == ["3.000 highlight item c"])
        #expect(h.press(.next, at: 4) == ["4.000 highlight groupExit g"])
    }

    @Test func layout_replacement_by_order() {
        var h = ScannerHarness(F.abc, F.settings(.auto))
        h.start()
        h.run(until: 1)  // b (index 1)
        #expect(h.layout(F.model([F.button("a"), F.button("c"), F.button("d")]), at: 1.5) == ["1.500 highlight item c"])
        #expect(h.run(until: 2.5) == ["2.500 highlight item d"])
    }

    @Test func layout_replacement_clamped_to_last() {
        var h = ScannerHarness(F.abc, F.settings(.manual))
        h.start()
        h.press(.previous, at: 1)  // c (index 2)
        #expect(h.layout(F.model([F.button("p"), F.button("q")]), at: 2) == ["2.000 highlight item q"])
    }

    @Test func layout_replacement_keeps_dwell_off_in_step() {
        var h = ScannerHarness(F.abc, F.settings(.singleSwitchStep))
        h.start()
        #expect(h.layout(F.model([F.button("p"), F.button("q")]), at: 1) == ["1.000 highlight item p"])
        #expect(h.pendingTimers.isEmpty)
        h.press(.next, at: 2)  // q, dwell running
        #expect(h.layout(F.model([F.button("p"), F.button("r")]), at: 2.5) == ["2.500 highlight item r"])
        #expect(h.run(until: 3.5) == ["3.500 menu open on r: menu:tap, menu:escape, menu:close", "3.500 highlight menuItem menu:tap"])
    }

    @Test func layout_group_kept() {
        var h = ScannerHarness(F.groupThenC, F.settings(.manual) { $0.groupItems = true })
        h.start()  // g
        let changed = F.model([F.button("new"), F.group("g", label: "Tools", [F.button("x"), F.button("z"), F.button("w")])])
        #expect(h.layout(changed, at: 1) == [])
        #expect(h.press(.select, at: 2) == ["2.000 highlight item x"])
        #expect(h.press(.previous, at: 3) == ["3.000 highlight groupExit g"])
    }

    @Test func layout_escape_stop_kept_when_group_remains() {
        var h = ScannerHarness(F.groupThenC, F.settings(.manual) { $0.groupItems = true })
        h.start()
        h.press(.select, at: 1)
        h.press(.previous, at: 2)  // exit g
        let changed = F.model([F.group("g", [F.button("x"), F.button("y"), F.button("z")]), F.button("c")])
        #expect(h.layout(changed, at: 3) == [])
        #expect(h.press(.previous, at: 4) == ["4.000 highlight item z"])
    }

    @Test func layout_level_vanished_goes_to_top() {
        var h = ScannerHarness(F.groupThenC, F.settings(.manual) { $0.groupItems = true })
        h.start()
        h.press(.select, at: 1)
        h.press(.next, at: 2)  // y (index 1 in g)
        #expect(h.layout(F.model([F.button("p"), F.button("q"), F.button("r")]), at: 3) == ["3.000 highlight item q"])
        #expect(h.press(.escape, at: 4) == ["4.000 perform escape root", "4.000 highlight item p"])  // at the top level now
    }

    @Test func layout_menu_item_vanishes() {
        var h = ScannerHarness(F.abc, F.settings(.auto))
        h.start()
        h.run(until: 1)
        h.press(.select, at: 1.5)  // menu on b
        #expect(h.layout(F.model([F.button("a"), F.button("c")]), at: 2) == ["2.000 menu closed", "2.000 highlight item c"])
        #expect(!h.scanner.isMenuOpen)
        #expect(h.run(until: 3) == ["3.000 highlight item a"])
    }

    @Test func layout_menu_entries_change_reopens() {
        var h = ScannerHarness(F.abc, F.settings(.auto))
        h.start()
        h.press(.select, at: 0.5)  // menu on a
        h.run(until: 1.5)  // menu:escape
        let changed = F.model([F.button("a", actions: ["Delete"]), F.button("b")])
        #expect(h.layout(changed, at: 2) == [
            "2.000 menu open on a: menu:tap, menu:action:Delete, menu:escape, menu:close", "2.000 highlight menuItem menu:tap",
        ])
        #expect(h.run(until: 3) == ["3.000 highlight menuItem menu:action:Delete"])
    }

    @Test func layout_menu_item_remains_unchanged() {
        var h = ScannerHarness(F.abc, F.settings(.auto))
        h.start()
        h.press(.select, at: 0.5)
        #expect(h.layout(F.model([F.button("z"), F.button("a")]), at: 1) == [])
        #expect(h.scanner.isMenuOpen)
        #expect(h.run(until: 1.5) == ["1.500 highlight menuItem menu:escape"])
        // Close resumes at a where it is now (second).
        h.run(until: 2.5)
        #expect(h.press(.select, at: 2.6) == ["2.600 menu closed", "2.600 highlight item a"])
        #expect(h.run(until: 3.6) == ["3.600 highlight item z"])
    }

    @Test func layout_auto_tap_item_vanishes() {
        var h = ScannerHarness(F.abc, F.settings(.auto) { $0.tapBehavior = .autoTap })
        h.start()
        h.press(.select, at: 0.5)  // window on a until 1.25
        #expect(h.layout(F.model([F.button("b"), F.button("c")]), at: 1) == ["1.000 highlight item b"])
        #expect(h.pendingTimers.map(\.id) == [.dwell])
        #expect(h.run(until: 2) == ["2.000 highlight item c"])
    }

    @Test func layout_auto_tap_item_remains() {
        var h = ScannerHarness(F.abc, F.settings(.auto) { $0.tapBehavior = .autoTap; $0.focusedItemAfterTap = .current })
        h.start()
        h.press(.select, at: 0.5)
        #expect(h.layout(F.model([F.button("z"), F.button("a")]), at: 1) == [])
        #expect(h.run(until: 1.25) == ["1.250 perform activate a", "1.250 highlight item a"])
        #expect(h.run(until: 2.25) == ["2.250 highlight item z"])
    }

    @Test func layout_empty_model_stops() {
        var h = ScannerHarness(F.abc, F.settings(.auto))
        h.start()
        #expect(h.layout(F.model([]), at: 0.5) == ["0.500 scan stopped (noItems)"])
        #expect(h.pendingTimers.isEmpty)
        #expect(h.press(.select, at: 1) == [])
        #expect(h.press(.resumeScanning, at: 1.5) == [])
        #expect(h.scanner.currentTarget == nil)
    }

    @Test func layout_empty_model_closes_menu() {
        var h = ScannerHarness(F.abc, F.settings(.auto))
        h.start()
        h.press(.select, at: 0.5)
        #expect(h.layout(F.model([]), at: 0.6) == ["0.600 menu closed", "0.600 scan stopped (noItems)"])
        #expect(h.pendingTimers.isEmpty)
    }

    @Test func layout_empty_model_cancels_auto_tap() {
        var h = ScannerHarness(F.abc, F.settings(.auto) { $0.tapBehavior = .autoTap })
        h.start()
        h.press(.select, at: 0.5)
        #expect(h.layout(F.model([]), at: 0.6) == ["0.600 scan stopped (noItems)"])
        #expect(h.pendingTimers.isEmpty)
    }

    @Test func start_empty_model() {
        var h = ScannerHarness(F.model([]), F.settings(.auto))
        #expect(h.start() == ["0.000 scan started", "0.000 scan stopped (noItems)"])
        #expect(h.pendingTimers.isEmpty)
        #expect(!h.scanner.isScanning)
    }

    @Test func layout_empty_to_non_empty_restarts() {
        var h = ScannerHarness(F.model([]), F.settings(.auto))
        h.start()
        #expect(h.layout(F.model([]), at: 1) == [])
        #expect(h.layout(F.abc, at: 2) == ["2.000 scan started", "2.000 highlight item a"])
        #expect(h.run(until: 3) == ["3.000 highlight item b"])
    }

    @Test func layout_after_user_stop_stays_stopped() {
        var h = ScannerHarness(F.abc, F.settings(.auto))
        h.start()
        h.press(.stopScanning, at: 0.5)
        #expect(h.layout(F.model([F.button("p")]), at: 1) == [])
        #expect(h.press(.select, at: 2) == ["2.000 scan started", "2.000 highlight item p"])
    }

    @Test func layout_after_loops_stays_stopped() {
        var h = ScannerHarness(F.abc, F.settings(.auto) { $0.loops = 1 })
        h.start()
        h.run(until: 3)
        #expect(h.layout(F.model([F.button("p")]), at: 4) == [])
        #expect(!h.scanner.isScanning)
    }

    @Test func layout_before_start_is_used_by_start() {
        var h = ScannerHarness(F.abc, F.settings(.auto))
        #expect(h.layout(F.model([F.button("p")]), at: 0) == [])
        #expect(h.start() == ["0.000 scan started", "0.000 highlight item p"])
    }

    @Test func layout_unchanged_keeps_timers() {
        var h = ScannerHarness(F.abc, F.settings(.auto))
        h.start()
        h.layout(F.abc, at: 0.7)
        #expect(h.pendingTimers.map(\.at) == [.seconds(1)])
    }
}

/// A modal dialog (a `viewIsModal` container) opening over the screen and closing again, as the
/// live desktop reports it: scanning goes into the dialog at its first stop, and comes back to the
/// stop that was highlighted when the dialog opened (by id), wherever it is now.
@Suite struct ScannerModalLayoutTests {
    typealias F = Fixture

    static func dialog(_ ids: [String]) -> Element {
        Element(id: "dialog", viewIsModal: true, order: .declared, children: ids.map { F.button($0) })
    }

    @Test func layout_modal_opens_at_first_stop_and_returns_to_opener() {
        var h = ScannerHarness(F.abc, F.settings(.manual))
        h.start()
        h.press(.next, at: 1)  // b
        let open = F.model([F.button("a"), F.button("b"), F.button("c"), Self.dialog(["x", "y"])])
        #expect(h.layout(open, at: 2) == ["2.000 highlight item x"])
        #expect(h.press(.next, at: 3) == ["3.000 highlight item y"])
        // Closed, and the screen changed meanwhile (b moved to the end): back on b by identity.
        #expect(h.layout(F.model([F.button("a"), F.button("c"), F.button("b")]), at: 4) == ["4.000 highlight item b"])
        #expect(h.press(.next, at: 5) == ["5.000 highlight item a"])
    }

    @Test func layout_modal_reopened_returns_to_its_last_stop() {
        var h = ScannerHarness(F.abc, F.settings(.manual))
        h.start()
        let open = F.model([F.button("a"), F.button("b"), F.button("c"), Self.dialog(["x", "y"])])
        #expect(h.layout(open, at: 1) == ["1.000 highlight item x"])
        h.press(.next, at: 2)  // y
        #expect(h.layout(F.abc, at: 3) == ["3.000 highlight item a"])
        #expect(h.layout(open, at: 4) == ["4.000 highlight item y"])
    }

    @Test func layout_modal_opener_gone_takes_first_stop() {
        var h = ScannerHarness(F.abc, F.settings(.manual))
        h.start()
        h.press(.previous, at: 1)  // c
        let open = F.model([F.button("a"), F.button("b"), F.button("c"), Self.dialog(["x", "y"])])
        #expect(h.layout(open, at: 2) == ["2.000 highlight item x"])
        #expect(h.layout(F.model([F.button("a"), F.button("b")]), at: 3) == ["3.000 highlight item a"])
    }

    @Test func layout_modal_menu_open_on_opener_closes_into_dialog() {
        var h = ScannerHarness(F.abc, F.settings(.manual))
        h.start()
        h.press(.select, at: 1)  // menu on a
        let open = F.model([F.button("a"), F.button("b"), F.button("c"), Self.dialog(["x", "y"])])
        #expect(h.layout(open, at: 2) == ["2.000 menu closed", "2.000 highlight item x"])
        #expect(h.layout(F.abc, at: 3) == ["3.000 highlight item a"])
    }
}
