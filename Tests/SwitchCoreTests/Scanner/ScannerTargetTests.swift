import Testing
@testable import SwitchCore

/// Press-time snapshots (`ScanTarget`) and timers that arrive when they no longer mean anything.
@Suite struct ScannerTargetTests {
    typealias F = Fixture

    @Test func target_valid_used() {
        var h = ScannerHarness(F.abc, F.settings(.auto))
        h.start()
        h.run(until: 0.95)
        let atPress = h.scanner.currentTarget  // a, pressed at 0.95
        #expect(h.run(until: 1.0) == ["1.000 highlight item b"])
        // Accepted at 1.05 (after a hold duration): the menu opens on a, not b.
        #expect(h.press(.select, at: 1.05, target: atPress) == [
            "1.050 menu open on a: menu:tap, menu:escape, menu:close", "1.050 highlight menuItem menu:tap",
        ])
    }

    @Test func target_valid_used_after_wrap() {
        var h = ScannerHarness(F.abc, F.settings(.manual) { $0.tapBehavior = .alwaysTap })
        h.start()
        h.press(.previous, at: 0.5)  // c
        let atPress = h.scanner.currentTarget
        h.press(.next, at: 0.6)  // a (wrapped)
        #expect(h.press(.select, at: 0.7, target: atPress) == ["0.700 perform activate c", "0.700 highlight item a"])
    }

    @Test func target_valid_used_in_menu() {
        var h = ScannerHarness(F.abc, F.settings(.auto))
        h.start()
        h.press(.select, at: 0.5)
        let atPress = h.scanner.currentTarget  // menu:tap
        h.run(until: 1.5)  // menu:escape
        #expect(h.press(.select, at: 1.6, target: atPress) == ["1.600 perform activate a", "1.600 menu closed", "1.600 highlight item a"])
    }

    @Test func target_valid_for_menu_switch() {
        var h = ScannerHarness(F.abc, F.settings(.auto))
        h.start()
        let atPress = h.scanner.currentTarget  // a
        h.run(until: 1)  // b
        #expect(h.press(.menu, at: 1.1, target: atPress).first == "1.100 menu open on a: menu:tap, menu:escape, menu:close")
    }

    @Test func target_auto_tap_moves_highlight_back() {
        var h = ScannerHarness(F.abc, F.settings(.auto) { $0.tapBehavior = .autoTap })
        h.start()
        let atPress = h.scanner.currentTarget  // a
        h.run(until: 1)  // b
        // The window is on a, so the highlight shows a again.
        #expect(h.press(.select, at: 1.05, target: atPress) == ["1.050 highlight item a"])
        #expect(h.run(until: 1.8) == ["1.800 perform activate a", "1.800 highlight item a"])
    }

    @Test func target_stale_after_menu_opened() {
        var h = ScannerHarness(F.abc, F.settings(.manual))
        h.start()
        let atPress = h.scanner.currentTarget  // a, before the menu
        h.press(.select, at: 1)
        h.press(.next, at: 2)  // menu:escape
        // The snapshot is of the item level: ignored, the current entry is chosen.
        #expect(h.press(.select, at: 3, target: atPress) == ["3.000 perform escape a", "3.000 menu closed", "3.000 highlight item a"])
    }

    @Test func target_stale_after_menu_closed() {
        var h = ScannerHarness(F.abc, F.settings(.manual))
        h.start()
        h.press(.next, at: 0.5)  // b
        h.press(.select, at: 1)
        let atPress = h.scanner.currentTarget  // menu:tap
        h.press(.escape, at: 2)  // closed, on b
        #expect(h.press(.select, at: 3, target: atPress) == ["3.000 menu open on b: menu:tap, menu:escape, menu:close", "3.000 highlight menuItem menu:tap"])
    }

    @Test func target_stale_after_level_change() {
        var h = ScannerHarness(F.groupThenC, F.settings(.manual) { $0.groupItems = true; $0.tapBehavior = .alwaysTap })
        h.start()
        let atPress = h.scanner.currentTarget  // group g, index 0
        h.press(.select, at: 1)  // x, index 0 of g
        #expect(h.press(.select, at: 2, target: atPress) == ["2.000 perform activate x", "2.000 highlight group g"])
    }

    @Test func target_stale_after_layout() {
        var h = ScannerHarness(F.abc, F.settings(.manual) { $0.tapBehavior = .alwaysTap })
        h.start()
        let atPress = h.scanner.currentTarget  // a
        h.press(.next, at: 0.5)  // b
        h.layout(F.abc, at: 0.6)  // same items, still a new layout
        #expect(h.press(.select, at: 1, target: atPress) == ["1.000 perform activate b", "1.000 highlight item a"])
    }

    @Test func target_stale_after_item_gone() {
        var h = ScannerHarness(F.abc, F.settings(.manual) { $0.tapBehavior = .alwaysTap })
        h.start()
        h.press(.next, at: 0.5)
        let atPress = h.scanner.currentTarget  // b
        h.layout(F.model([F.button("a"), F.button("c")]), at: 0.6)  // b gone: c in its place
        #expect(h.press(.select, at: 1, target: atPress) == ["1.000 perform activate c", "1.000 highlight item a"])
    }

    @Test func target_stale_after_stop_and_restart() {
        var h = ScannerHarness(F.abc, F.settings(.manual) { $0.tapBehavior = .alwaysTap })
        h.start()
        h.press(.next, at: 0.5)
        let atPress = h.scanner.currentTarget  // b
        h.press(.stopScanning, at: 0.6)
        h.press(.resumeScanning, at: 0.7)
        #expect(h.press(.select, at: 1, target: atPress) == ["1.000 perform activate a", "1.000 highlight item a"])
    }

    @Test func target_ignored_in_step_style_moves() {
        var h = ScannerHarness(F.abc, F.settings(.singleSwitchStep))
        h.start()
        let atPress = h.scanner.currentTarget
        h.press(.next, at: 0.5)  // b
        #expect(h.press(.select, at: 0.6, target: atPress) == ["0.600 highlight item c"])
    }

    @Test func target_nil_when_not_scanning() {
        var s = Scanner(model: F.abc, settings: F.settings(.auto))
        #expect(s.currentTarget == nil)
        _ = s.handle(.start, at: .zero)
        #expect(s.currentTarget != nil)
        _ = s.handle(.action(.stopScanning, target: nil), at: .seconds(1))
        #expect(s.currentTarget == nil)
    }

    // MARK: Timers that no longer mean anything

    @Test func timer_stale_dwell_in_manual_ignored() {
        var h = ScannerHarness(F.abc, F.settings(.manual))
        h.start()
        #expect(h.fireStale(.dwell, at: 1) == [])
        #expect(h.fireStale(.autoTap, at: 2) == [])
        #expect(h.pendingTimers.isEmpty)
    }

    @Test func timer_stale_auto_tap_while_scanning_ignored() {
        var h = ScannerHarness(F.abc, F.settings(.auto))
        h.start()
        #expect(h.fireStale(.autoTap, at: 0.5) == [])
        #expect(h.pendingTimers.map(\.at) == [.seconds(1)])
    }

    @Test func timer_early_dwell_rearmed() {
        var h = ScannerHarness(F.abc, F.settings(.auto))
        h.start()
        // A dwell fire before its deadline: ignored, and the deadline is asked for again.
        #expect(h.fireStale(.dwell, at: 0.5) == [])
        #expect(h.pendingTimers.map(\.at) == [.seconds(1)])
        #expect(h.run(until: 1) == ["1.000 highlight item b"])
    }

    @Test func timer_early_auto_tap_rearmed() {
        var h = ScannerHarness(F.abc, F.settings(.auto) { $0.tapBehavior = .autoTap })
        h.start()
        h.press(.select, at: 0.5)
        #expect(h.fireStale(.autoTap, at: 0.6) == [])
        #expect(h.fireStale(.dwell, at: 0.7) == [])
        #expect(h.run(until: 1.25) == ["1.250 perform activate a", "1.250 highlight item a"])
    }

    @Test func timer_stale_while_stopped_or_before_start() {
        var h = ScannerHarness(F.abc, F.settings(.auto))
        #expect(h.fireStale(.dwell, at: 0) == [])
        h.start()
        h.press(.stopScanning, at: 0.5)
        #expect(h.fireStale(.dwell, at: 1) == [])
        #expect(h.fireStale(.autoTap, at: 1) == [])
        #expect(h.pendingTimers.isEmpty)
    }

    @Test func timer_stale_in_menu_ignored() {
        var h = ScannerHarness(F.abc, F.settings(.manual))
        h.start()
        h.press(.select, at: 0.5)
        #expect(h.fireStale(.dwell, at: 1) == [])
        #expect(h.fireStale(.autoTap, at: 1) == [])
        #expect(h.scanner.isMenuOpen)
    }

    @Test func settings_out_of_range_are_clamped() {
        var h = ScannerHarness(F.abc, F.settings(.auto) {
            $0.autoScanningTime = .zero
            $0.loops = 0
            $0.pauseOnFirstItem = .seconds(-1)
        })
        h.start()
        // 1 ms dwell, one pass.
        #expect(h.run(until: 1) == ["0.001 highlight item b", "0.002 highlight item c", "0.003 scan stopped"])
    }
}
