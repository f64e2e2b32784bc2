import Testing
@testable import SwitchCore

/// Auto scanning: the dwell, the pause on first items, loops at every level, manual moves.
@Suite struct ScannerAutoTests {
    @Test func auto_advance() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto))
        #expect(h.start() == ["0.000 scan started", "0.000 highlight item a"])
        #expect(h.run(until: 3.5) == ["1.000 highlight item b", "2.000 highlight item c", "3.000 highlight item a"])
        #expect(h.pendingTimers.map(\.at) == [.seconds(4)])
    }

    @Test func auto_advance_uses_autoScanningTime() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.autoScanningTime = .seconds(1.8) })
        h.start()
        #expect(h.run(until: 5.4) == ["1.800 highlight item b", "3.600 highlight item c", "5.400 highlight item a"])
    }

    @Test func auto_start_outputs_exact_timer_request() {
        var s = Scanner(model: Fixture.abc, settings: Fixture.settings(.auto))
        #expect(s.handle(.start, at: .zero) == [
            .emit(.scan(started: true)), .emit(.highlight(id: "a", kind: .item, label: "A, button")), .setTimer(.dwell, at: .seconds(1)),
        ])
        // Re-arming reuses the id: no cancel first.
        #expect(s.handle(.action(.next, target: nil), at: .seconds(0.25)) == [
            .emit(.highlight(id: "b", kind: .item, label: "B, button")), .setTimer(.dwell, at: .seconds(1.25)),
        ])
        #expect(s.handle(.timer(.dwell), at: .seconds(1.25)) == [
            .emit(.highlight(id: "c", kind: .item, label: "C, button")), .setTimer(.dwell, at: .seconds(2.25)),
        ])
        #expect(s.handle(.action(.stopScanning, target: nil), at: .seconds(1.5)) == [
            .emit(.scan(started: false)), .cancelTimer(.dwell),
        ])
    }

    @Test func auto_pause_on_first_item() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.pauseOnFirstItem = .seconds(0.5) })
        h.start()
        #expect(h.run(until: 5.0) == [
            "1.500 highlight item b", "2.500 highlight item c", "3.500 highlight item a", "5.000 highlight item b",
        ])
    }

    @Test func auto_pause_on_first_item_of_group_and_menu() {
        var h = ScannerHarness(Fixture.groupThenC, Fixture.settings(.auto) {
            $0.groupItems = true
            $0.pauseOnFirstItem = .seconds(0.5)
        })
        h.start()
        // g is first at the top level: 1.5 s.
        #expect(h.press(.select, at: 1.0) == ["1.000 highlight item x"])
        #expect(h.run(until: 3.5) == ["2.500 highlight item y", "3.500 highlight groupExit g"])
        #expect(h.press(.select, at: 3.6) == ["3.600 highlight group g"])
        #expect(h.press(.next, at: 3.7) == ["3.700 highlight item c"])
        #expect(h.press(.select, at: 3.8) == ["3.800 menu open on c: menu:tap, menu:escape, menu:close", "3.800 highlight menuItem menu:tap"])
        #expect(h.run(until: 6.3) == ["5.300 highlight menuItem menu:escape", "6.300 highlight menuItem menu:close"])
    }

    @Test func auto_loops_stop() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.loops = 2 })
        h.start()
        #expect(h.run(until: 20) == [
            "1.000 highlight item b", "2.000 highlight item c",
            "3.000 highlight item a", "4.000 highlight item b", "5.000 highlight item c",
            "6.000 scan stopped",
        ])
        #expect(h.pendingTimers.isEmpty)
        #expect(!h.scanner.isScanning)
        #expect(h.scanner.currentTarget == nil)
    }

    @Test func auto_loops_one_pass() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.loops = 1 })
        h.start()
        #expect(h.run(until: 10) == ["1.000 highlight item b", "2.000 highlight item c", "3.000 scan stopped"])
    }

    @Test func auto_loops_count_restarts_at_selection() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.loops = 1; $0.tapBehavior = .alwaysTap })
        h.start()
        h.run(until: 2.0)
        // A selection at c restarts the count: a full pass again from a.
        #expect(h.press(.select, at: 2.5) == ["2.500 perform activate c", "2.500 highlight item a"])
        #expect(h.run(until: 10) == ["3.500 highlight item b", "4.500 highlight item c", "5.500 scan stopped"])
    }

    @Test func restart_after_loops() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.loops = 1 })
        h.start()
        h.run(until: 3)
        #expect(h.press(.select, at: 7) == ["7.000 scan started", "7.000 highlight item a"])
        #expect(h.run(until: 10.5) == ["8.000 highlight item b", "9.000 highlight item c", "10.000 scan stopped"])
    }

    @Test func auto_loops_leave_group() {
        var h = ScannerHarness(Fixture.groupThenC, Fixture.settings(.auto) { $0.groupItems = true; $0.loops = 2 })
        #expect(h.start() == ["0.000 scan started", "0.000 highlight group g"])
        #expect(h.press(.select, at: 0.5) == ["0.500 highlight item x"])
        #expect(h.run(until: 7.5) == [
            "1.500 highlight item y", "2.500 highlight groupExit g",
            "3.500 highlight item x", "4.500 highlight item y", "5.500 highlight groupExit g",
            "6.500 highlight group g", "7.500 highlight item c",
        ])
        // Leaving the group restarted the count: two full passes at the top level.
        #expect(h.run(until: 20) == [
            "8.500 highlight group g", "9.500 highlight item c", "10.500 scan stopped",
        ])
    }

    @Test func auto_loops_close_menu() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.loops = 1 })
        h.start()
        #expect(h.press(.select, at: 0.5) == ["0.500 menu open on a: menu:tap, menu:escape, menu:close", "0.500 highlight menuItem menu:tap"])
        #expect(h.run(until: 4.5) == [
            "1.500 highlight menuItem menu:escape", "2.500 highlight menuItem menu:close",
            "3.500 menu closed", "3.500 highlight item a",
            "4.500 highlight item b",
        ])
        #expect(!h.scanner.isMenuOpen)
    }

    @Test func auto_loops_close_menu_resumes_at_item_in_its_group() {
        var h = ScannerHarness(Fixture.groupThenC, Fixture.settings(.auto) { $0.groupItems = true; $0.loops = 1 })
        h.start()
        h.press(.select, at: 0.5)  // into g: x
        h.press(.next, at: 0.6)  // y
        #expect(h.press(.select, at: 0.7) == ["0.700 menu open on y: menu:tap, menu:escape, menu:close", "0.700 highlight menuItem menu:tap"])
        #expect(h.run(until: 4.7) == [
            "1.700 highlight menuItem menu:escape", "2.700 highlight menuItem menu:close",
            "3.700 menu closed", "3.700 highlight item y", "4.700 highlight groupExit g",
        ])
    }

    @Test func auto_next_restarts_dwell() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto))
        h.start()
        #expect(h.press(.next, at: 0.4) == ["0.400 highlight item b"])
        #expect(h.run(until: 2.4) == ["1.400 highlight item c", "2.400 highlight item a"])
    }

    @Test func auto_previous_wraps_backwards() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto))
        h.start()
        #expect(h.press(.previous, at: 0.4) == ["0.400 highlight item c"])
        #expect(h.press(.previous, at: 0.5) == ["0.500 highlight item b"])
        #expect(h.run(until: 1.5) == ["1.500 highlight item c"])
    }

    @Test func auto_manual_wraps_are_not_passes() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.loops = 1 })
        h.start()
        h.run(until: 2.0)  // at c
        #expect(h.press(.next, at: 2.5) == ["2.500 highlight item a"])  // wraps by hand
        #expect(h.press(.previous, at: 2.6) == ["2.600 highlight item c"])  // and back
        #expect(h.press(.next, at: 2.7) == ["2.700 highlight item a"])
        #expect(h.run(until: 10) == ["3.700 highlight item b", "4.700 highlight item c", "5.700 scan stopped"])
    }

    @Test func auto_single_stop_rehighlights_each_dwell() {
        var h = ScannerHarness(Fixture.model([Fixture.button("a")]), Fixture.settings(.auto) { $0.loops = 3 })
        h.start()
        #expect(h.run(until: 10) == ["1.000 highlight item a", "2.000 highlight item a", "3.000 scan stopped"])
    }

    @Test func auto_dwell_always_pending_while_scanning() {
        var h = ScannerHarness(Fixture.groupThenC, Fixture.settings(.auto) { $0.groupItems = true })
        h.start()
        for (k, action) in [SwitchAction.select, .next, .previous, .select, .next, .next, .escape, .menu].enumerated() {
            h.press(action, at: 0.1 * Double(k + 1))
            #expect(h.pendingTimers.map(\.id) == [.dwell], "after \(action)")
        }
    }
}
