import Testing
@testable import SwitchCore

/// Selecting: groups and the escape stop, the menu and its entries, tap behaviours, where scanning
/// resumes, the other switch actions, speech.
@Suite struct ScannerSelectTests {
    static let manual = Fixture.settings(.manual)

    // MARK: Groups

    @Test func select_enters_group() {
        var h = ScannerHarness(Fixture.groupThenC, Fixture.settings(.auto) { $0.groupItems = true })
        h.start()
        #expect(h.press(.select, at: 0.5) == ["0.500 highlight item x"])
        #expect(h.run(until: 2.5) == ["1.500 highlight item y", "2.500 highlight groupExit g"])
        #expect(h.press(.select, at: 3) == ["3.000 highlight group g"])
        #expect(h.run(until: 4) == ["4.000 highlight item c"])
    }

    @Test func select_without_group_items_scans_flat() {
        var h = ScannerHarness(Fixture.groupThenC, Fixture.settings(.manual))
        #expect(h.start() == ["0.000 scan started", "0.000 highlight item x"])
        #expect(h.press(.next, at: 1) == ["1.000 highlight item y"])
        #expect(h.press(.next, at: 2) == ["2.000 highlight item c"])
        #expect(h.press(.next, at: 3) == ["3.000 highlight item x"])
    }

    @Test func select_enters_nested_groups() {
        let model = Fixture.model([
            Fixture.group("outer", [Fixture.group("inner", [Fixture.button("p"), Fixture.button("q")]), Fixture.button("r")]),
            Fixture.button("s"),
        ])
        var h = ScannerHarness(model, Fixture.settings(.manual) { $0.groupItems = true })
        #expect(h.start() == ["0.000 scan started", "0.000 highlight group outer"])
        #expect(h.press(.select, at: 1) == ["1.000 highlight group inner"])
        #expect(h.press(.select, at: 2) == ["2.000 highlight item p"])
        #expect(h.press(.previous, at: 3) == ["3.000 highlight groupExit inner"])
        #expect(h.press(.select, at: 4) == ["4.000 highlight group inner"])
        #expect(h.press(.escape, at: 5) == ["5.000 highlight group outer"])
    }

    // MARK: Menu contents

    @Test func menu_contents_plain_item() {
        var h = ScannerHarness(Fixture.abc, ScannerSelectTests.manual)
        h.start()
        #expect(h.press(.select, at: 1) == ["1.000 menu open on a: menu:tap, menu:escape, menu:close", "1.000 highlight menuItem menu:tap"])
        #expect(h.scanner.isMenuOpen)
    }

    @Test func menu_contents_custom_actions() {
        var h = ScannerHarness(Fixture.model([Fixture.button("a", actions: ["Delete", "Move to top"])]), ScannerSelectTests.manual)
        h.start()
        #expect(h.press(.select, at: 1) == [
            "1.000 menu open on a: menu:tap, menu:action:Delete, menu:action:Move to top, menu:escape, menu:close",
            "1.000 highlight menuItem menu:tap",
        ])
    }

    @Test func menu_contents_adjustable() {
        var h = ScannerHarness(Fixture.model([Fixture.button("a", adjustable: true)]), ScannerSelectTests.manual)
        h.start()
        #expect(h.press(.select, at: 1) == [
            "1.000 menu open on a: menu:tap, menu:increment, menu:decrement, menu:escape, menu:close",
            "1.000 highlight menuItem menu:tap",
        ])
    }

    @Test func menu_contents_custom_and_adjustable() {
        var h = ScannerHarness(Fixture.model([Fixture.button("a", actions: ["Reset"], adjustable: true)]), ScannerSelectTests.manual)
        h.start()
        #expect(h.press(.select, at: 1).first == "1.000 menu open on a: menu:tap, menu:action:Reset, menu:increment, menu:decrement, menu:escape, menu:close")
    }

    // MARK: Menu entries (manual style: select chooses)

    /// Opens the menu on the only item and moves `steps` entries down.
    private func menuOn(_ item: Element, steps: Int, _ settings: ScanningSettings = ScannerSelectTests.manual) -> ScannerHarness {
        var h = ScannerHarness(Fixture.model([item, Fixture.button("z")]), settings)
        h.start()
        h.press(.select, at: 1)
        for k in 0..<steps { h.press(.next, at: 1 + 0.1 * Double(k + 1)) }
        return h
    }

    @Test func menu_entry_tap() {
        var h = menuOn(Fixture.button("a", frame: Rect(x: 10, y: 20, width: 40, height: 60)), steps: 0)
        #expect(h.press(.select, at: 2) == ["2.000 perform activate a at (30, 50)", "2.000 menu closed", "2.000 highlight item a"])
        #expect(!h.scanner.isMenuOpen)
    }

    @Test func menu_entry_tap_uses_activation_point() {
        var a = Fixture.button("a", frame: Rect(x: 10, y: 20, width: 40, height: 60))
        a.activationPoint = Point(x: 12, y: 22)
        var h = menuOn(a, steps: 0)
        #expect(h.press(.select, at: 2).first == "2.000 perform activate a at (12, 22)")
    }

    @Test func menu_entry_custom_action() {
        var h = menuOn(Fixture.button("a", actions: ["Delete", "Move to top"]), steps: 2)
        #expect(h.lines.last.map(ScannerHarness.render) == "1.200 highlight menuItem menu:action:Move to top")
        #expect(h.press(.select, at: 2) == ["2.000 perform custom a \"Move to top\"", "2.000 menu closed", "2.000 highlight item a"])
    }

    @Test func menu_entry_increment() {
        var h = menuOn(Fixture.button("a", adjustable: true), steps: 1)
        #expect(h.press(.select, at: 2) == ["2.000 perform increment a", "2.000 menu closed", "2.000 highlight item a"])
    }

    @Test func menu_entry_decrement() {
        var h = menuOn(Fixture.button("a", adjustable: true), steps: 2)
        #expect(h.press(.select, at: 2) == ["2.000 perform decrement a", "2.000 menu closed", "2.000 highlight item a"])
    }

    @Test func menu_entry_escape() {
        var h = menuOn(Fixture.button("a"), steps: 1)
        #expect(h.press(.select, at: 2) == ["2.000 perform escape a", "2.000 menu closed", "2.000 highlight item a"])
    }

    @Test func menu_close() {
        var h = menuOn(Fixture.button("a"), steps: 2)
        #expect(h.press(.select, at: 2) == ["2.000 menu closed", "2.000 highlight item a"])
    }

    @Test func menu_close_resumes_at_item_even_with_focus_first() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.manual) { $0.focusedItemAfterTap = .first })
        h.start()
        h.press(.next, at: 1)  // b
        h.press(.select, at: 2)
        h.press(.previous, at: 3)  // menu:close
        #expect(h.press(.select, at: 4) == ["4.000 menu closed", "4.000 highlight item b"])
    }

    @Test func menu_entry_perform_source_is_switch() {
        var s = Scanner(model: Fixture.abc, settings: ScannerSelectTests.manual)
        _ = s.handle(.start, at: .zero)
        _ = s.handle(.action(.select, target: nil), at: .seconds(1))
        let out = s.handle(.action(.select, target: nil), at: .seconds(2))
        #expect(out == [
            .emit(.perform(Perform(.activate, id: "a", label: "A, button", point: nil, source: .switch))),
            .emit(.menuClosed), .emit(.highlight(id: "a", kind: .item, label: "A, button")),
        ])
    }

    @Test func menu_entries_auto_dwell_chooses_nothing() {
        // In auto style waiting never chooses an entry; only a select does.
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto))
        h.start()
        h.press(.select, at: 0.5)
        #expect(h.press(.select, at: 1.6) == ["1.500 highlight menuItem menu:escape", "1.600 perform escape a", "1.600 menu closed", "1.600 highlight item a"])
    }

    // MARK: Tap behaviour

    @Test func auto_tap_expires() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.tapBehavior = .autoTap })
        h.start()
        h.press(.next, at: 0.2)  // b
        #expect(h.press(.select, at: 0.5) == [])
        #expect(h.pendingTimers.map(\.id) == [.autoTap])
        // The highlight stays on b during the window: no advance at 1.2.
        #expect(h.run(until: 1.2) == [])
        #expect(h.run(until: 1.25) == ["1.250 perform activate b", "1.250 highlight item a"])
        #expect(h.run(until: 2.25) == ["2.250 highlight item b"])
    }

    @Test func auto_tap_second_select() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.tapBehavior = .autoTap })
        h.start()
        h.press(.select, at: 0.5)
        #expect(h.press(.select, at: 1.0) == ["1.000 menu open on a: menu:tap, menu:escape, menu:close", "1.000 highlight menuItem menu:tap"])
        #expect(h.run(until: 2.0) == ["2.000 highlight menuItem menu:escape"])
    }

    @Test func auto_tap_other_action() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.tapBehavior = .autoTap })
        h.start()
        h.press(.select, at: 0.5)
        #expect(h.press(.next, at: 1.0) == ["1.000 highlight item b"])
        #expect(h.run(until: 2.0) == ["2.000 highlight item c"])
    }

    @Test func auto_tap_other_action_menu_opens_menu() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.tapBehavior = .autoTap })
        h.start()
        h.press(.select, at: 0.5)
        #expect(h.press(.menu, at: 0.6) == ["0.600 menu open on a: menu:tap, menu:escape, menu:close", "0.600 highlight menuItem menu:tap"])
        #expect(h.pendingTimers.map(\.id) == [.dwell])
    }

    @Test func auto_tap_other_action_escape() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.tapBehavior = .autoTap })
        h.start()
        h.press(.next, at: 0.1)
        h.press(.select, at: 0.5)
        #expect(h.press(.escape, at: 0.6) == ["0.600 perform escape root", "0.600 highlight item a"])
        #expect(h.run(until: 1.6) == ["1.600 highlight item b"])
    }

    @Test func auto_tap_other_action_resume_scanning_restarts_dwell() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.tapBehavior = .autoTap })
        h.start()
        h.press(.next, at: 0.1)
        h.press(.select, at: 0.5)
        #expect(h.press(.resumeScanning, at: 0.6) == [])
        #expect(h.pendingTimers.map(\.id) == [.dwell])
        #expect(h.run(until: 2) == ["1.600 highlight item c"])
    }

    @Test func auto_tap_other_action_stop() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.tapBehavior = .autoTap })
        h.start()
        h.press(.select, at: 0.5)
        #expect(h.press(.stopScanning, at: 0.6) == ["0.600 scan stopped"])
        #expect(h.pendingTimers.isEmpty)
        #expect(h.run(until: 5) == [])
    }

    @Test func auto_tap_enters_group_at_once() {
        var h = ScannerHarness(Fixture.groupThenC, Fixture.settings(.auto) { $0.groupItems = true; $0.tapBehavior = .autoTap })
        h.start()
        #expect(h.press(.select, at: 0.5) == ["0.500 highlight item x"])
        h.press(.previous, at: 0.6)
        #expect(h.press(.select, at: 0.7) == ["0.700 highlight group g"])
        #expect(h.pendingTimers.map(\.id) == [.dwell])
    }

    @Test func always_tap() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.tapBehavior = .alwaysTap })
        h.start()
        h.press(.next, at: 0.2)
        #expect(h.press(.select, at: 0.5) == ["0.500 perform activate b", "0.500 highlight item a"])
        #expect(h.run(until: 1.5) == ["1.500 highlight item b"])
    }

    @Test func always_tap_menu_switch_opens_menu() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.manual) { $0.tapBehavior = .alwaysTap })
        h.start()
        #expect(h.press(.menu, at: 0.5) == ["0.500 menu open on a: menu:tap, menu:escape, menu:close", "0.500 highlight menuItem menu:tap"])
        #expect(h.press(.menu, at: 0.6) == ["0.600 menu closed", "0.600 highlight item a"])
    }

    // MARK: Resume

    @Test func resume_focus_first() {
        var h = ScannerHarness(Fixture.groupThenC, Fixture.settings(.manual) { $0.groupItems = true; $0.tapBehavior = .alwaysTap; $0.focusedItemAfterTap = .first })
        h.start()
        h.press(.select, at: 1)  // x
        h.press(.next, at: 2)  // y
        #expect(h.press(.select, at: 3) == ["3.000 perform activate y", "3.000 highlight group g"])
    }

    @Test func resume_focus_current() {
        var h = ScannerHarness(Fixture.groupThenC, Fixture.settings(.manual) { $0.groupItems = true; $0.tapBehavior = .alwaysTap; $0.focusedItemAfterTap = .current })
        h.start()
        h.press(.select, at: 1)  // x
        h.press(.next, at: 2)  // y
        #expect(h.press(.select, at: 3) == ["3.000 perform activate y", "3.000 highlight item y"])
        // Still inside g.
        #expect(h.press(.next, at: 4) == ["4.000 highlight groupExit g"])
    }

    @Test func resume_focus_current_after_menu_entry() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.focusedItemAfterTap = .current })
        h.start()
        h.run(until: 1)  // b
        h.press(.select, at: 1.5)
        #expect(h.press(.select, at: 1.7) == ["1.700 perform activate b", "1.700 menu closed", "1.700 highlight item b"])
        #expect(h.run(until: 2.7) == ["2.700 highlight item c"])
    }

    @Test func resume_highlight_even_if_unchanged() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.tapBehavior = .alwaysTap; $0.pauseOnFirstItem = .seconds(0.5) })
        h.start()
        // a is highlighted and scanning resumes on a: the line is emitted again and the dwell
        // (with the first-item pause) restarts.
        #expect(h.press(.select, at: 0.5) == ["0.500 perform activate a", "0.500 highlight item a"])
        #expect(h.run(until: 2.0) == ["2.000 highlight item b"])
    }

    // MARK: Escape action

    @Test func escape_action_in_menu_closes_it() {
        var h = ScannerHarness(Fixture.abc, ScannerSelectTests.manual)
        h.start()
        h.press(.next, at: 0.5)
        h.press(.select, at: 1)
        #expect(h.press(.escape, at: 2) == ["2.000 menu closed", "2.000 highlight item b"])
    }

    @Test func escape_action_in_group_leaves_it() {
        var h = ScannerHarness(Fixture.groupThenC, Fixture.settings(.auto) { $0.groupItems = true })
        h.start()
        h.press(.select, at: 0.5)
        h.run(until: 1.5)  // y
        #expect(h.press(.escape, at: 2) == ["2.000 highlight group g"])
        #expect(h.run(until: 3) == ["3.000 highlight item c"])
    }

    @Test func escape_action_at_top_performs_escape_on_scope() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.manual) { $0.focusedItemAfterTap = .current })
        h.start()
        h.press(.next, at: 0.5)
        #expect(h.press(.escape, at: 1) == ["1.000 perform escape root", "1.000 highlight item b"])
    }

    @Test func escape_action_at_top_uses_modal_scope() {
        let model = Fixture.model([
            Fixture.button("behind"),
            Element(id: "sheet", viewIsModal: true, order: .declared, children: [Fixture.button("ok"), Fixture.button("cancel")]),
        ])
        var h = ScannerHarness(model, Fixture.settings(.manual))
        #expect(h.start() == ["0.000 scan started", "0.000 highlight item ok"])
        h.press(.next, at: 0.5)
        #expect(h.press(.escape, at: 1) == ["1.000 perform escape sheet", "1.000 highlight item ok"])
    }

    // MARK: Menu switch action

    @Test func menu_action_on_group_or_escape_stop_does_nothing() {
        var h = ScannerHarness(Fixture.groupThenC, Fixture.settings(.manual) { $0.groupItems = true })
        h.start()
        #expect(h.press(.menu, at: 1) == [])
        h.press(.select, at: 2)
        h.press(.previous, at: 3)  // escape stop
        #expect(h.press(.menu, at: 4) == [])
        #expect(!h.scanner.isMenuOpen)
    }

    @Test func menu_action_in_menu_closes_it() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto))
        h.start()
        h.press(.menu, at: 0.5)
        #expect(h.press(.menu, at: 0.7) == ["0.700 menu closed", "0.700 highlight item a"])
        #expect(h.run(until: 1.7) == ["1.700 highlight item b"])
    }

    // MARK: Stop and resume

    @Test func stop_and_resume() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto))
        h.start()
        h.run(until: 1)
        #expect(h.press(.stopScanning, at: 1.5) == ["1.500 scan stopped"])
        #expect(h.pendingTimers.isEmpty)
        for (k, action) in [SwitchAction.next, .previous, .menu, .escape, .stopScanning].enumerated() {
            #expect(h.press(action, at: 2 + Double(k)) == [], "\(action) while stopped")
        }
        #expect(h.press(.resumeScanning, at: 8) == ["8.000 scan started", "8.000 highlight item a"])
        #expect(h.run(until: 9) == ["9.000 highlight item b"])
    }

    @Test func stop_closes_open_menu() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto))
        h.start()
        h.press(.select, at: 0.5)
        #expect(h.press(.stopScanning, at: 0.8) == ["0.800 menu closed", "0.800 scan stopped"])
        #expect(h.pendingTimers.isEmpty)
        #expect(!h.scanner.isMenuOpen && !h.scanner.isScanning)
    }

    @Test func stopped_select_restarts() {
        var h = ScannerHarness(Fixture.groupThenC, Fixture.settings(.auto) { $0.groupItems = true })
        h.start()
        h.press(.select, at: 0.5)  // inside g
        h.press(.stopScanning, at: 1)
        #expect(h.press(.select, at: 2) == ["2.000 scan started", "2.000 highlight group g"])
    }

    @Test func resume_scanning_while_scanning_does_nothing() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto))
        h.start()
        #expect(h.press(.resumeScanning, at: 0.5) == [])
        #expect(h.run(until: 1) == ["1.000 highlight item b"])
        h.press(.select, at: 1.2)
        #expect(h.press(.resumeScanning, at: 1.3) == [])
        #expect(h.scanner.isMenuOpen)
    }

    @Test func start_twice_is_ignored() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto))
        h.start()
        #expect(h.start(at: 0.5) == [])
        #expect(h.run(until: 1) == ["1.000 highlight item b"])
    }

    @Test func actions_before_start_do_nothing() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto))
        for action in SwitchAction.allCases { #expect(h.press(action, at: 0) == []) }
        #expect(h.start() == ["0.000 scan started", "0.000 highlight item a"])
    }

    // MARK: Speech

    @Test func speech_after_every_highlight() {
        let model = Fixture.model([
            Fixture.group("g", label: "Tools", [Fixture.button("x", actions: ["Delete"], adjustable: true), Fixture.button("y")]),
        ])
        var h = ScannerHarness(model, Fixture.settings(.manual) { $0.groupItems = true; $0.speech = true })
        #expect(h.start() == ["0.000 scan started", "0.000 highlight group g", "0.000 speak \"Tools, group, 2 items\""])
        #expect(h.press(.select, at: 1) == ["1.000 highlight item x", "1.000 speak \"X, button, adjustable\""])
        #expect(h.press(.previous, at: 2) == ["2.000 highlight groupExit g", "2.000 speak \"Exit group\""])
        h.press(.next, at: 3)
        #expect(h.press(.select, at: 4) == [
            "4.000 menu open on x: menu:tap, menu:action:Delete, menu:increment, menu:decrement, menu:escape, menu:close",
            "4.000 highlight menuItem menu:tap", "4.000 speak \"Tap\"",
        ])
        let spoken = (5...9).map { k in h.press(.next, at: Double(k)).last ?? "" }
        #expect(spoken == [
            "5.000 speak \"Delete\"", "6.000 speak \"Increment\"", "7.000 speak \"Decrement\"",
            "8.000 speak \"Escape\"", "9.000 speak \"Close menu\"",
        ])
        #expect(h.press(.select, at: 10) == ["10.000 menu closed", "10.000 highlight item x", "10.000 speak \"X, button, adjustable\""])
    }

    @Test func speech_off_emits_no_speak_lines() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto))
        h.start()
        h.run(until: 10)
        #expect(!h.lines.contains { if case .speak = $0.event { return true } else { return false } })
    }

    @Test func demo_tree_scans_in_order() throws {
        var h = ScannerHarness(try Fixture.demoModel(), Fixture.settings(.auto) { $0.groupItems = true; $0.loops = 1 })
        h.start()
        h.run(until: 60)
        let highlights = h.lines.compactMap { line -> String? in
            if case .highlight(let id, let kind, _) = line.event { return "\(kind.rawValue) \(id)" }
            return nil
        }
        #expect(highlights.first == "group navBar")
        #expect(highlights.contains("group cityList"))
        #expect(highlights.contains("item refresh"))
        #expect(!highlights.contains("item backdrop"))
        #expect(h.lines.last.map(ScannerHarness.render) == "\(highlights.count).000 scan stopped")
    }
}
