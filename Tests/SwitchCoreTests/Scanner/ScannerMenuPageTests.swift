import Testing
@testable import SwitchCore

/// The scanner menu's pages, every entry, the settings and drag (Scanner+Menu.swift and
/// Scanner+Settings.swift; the timelines in their headers name these tests). Manual scanning
/// unless a test says otherwise: every line comes from a press.
@Suite struct ScannerMenuPageTests {
    /// a at (30, 50), b at (120, 50), c without a place on screen.
    static let model = Fixture.model([
        Fixture.button("a", frame: Rect(x: 10, y: 20, width: 40, height: 60)),
        Fixture.button("b", frame: Rect(x: 100, y: 20, width: 40, height: 60)),
        Fixture.button("c"),
    ])
    static let manual = Fixture.settings(.manual)
    static let top = "menu:tap, menu:gestures, menu:device, menu:shortcuts, menu:settings, menu:escape, menu:close"
    static let gestures = ["menu:rightClick", "menu:doubleClick", "menu:middleClick", "menu:hold", "menu:drag",
                           "menu:scrollUp", "menu:scrollDown", "menu:scrollLeft", "menu:scrollRight", "menu:back", "menu:close"]

    static func harness(_ settings: ScanningSettings = manual, menu: MenuContext = Fixture.fullMenu(canPause: true),
                        model: ScanModel = model) -> ScannerHarness {
        var h = ScannerHarness(model, settings, menu: menu)
        h.start()
        return h
    }

    /// Opens the menu on a (at t = 1) and the page at `page` (its index in the top level), then
    /// moves to entry `entry` of the page; returns the harness and the time of the last press.
    static func onPage(_ page: Int, entry: Int = 0, _ settings: ScanningSettings = manual,
                       menu: MenuContext = Fixture.fullMenu(canPause: true)) -> (ScannerHarness, Double) {
        var h = harness(settings, menu: menu)
        var t = 1.0
        h.press(.select, at: t)
        for _ in 0..<page { t += 0.1; h.press(.next, at: t) }
        t += 0.1
        h.press(.select, at: t)
        for _ in 0..<entry { t += 0.1; h.press(.next, at: t) }
        return (h, t)
    }

    // MARK: The top level and the pages

    @Test func menu_contents_top_level_order() {
        var h = Self.harness()
        #expect(h.press(.select, at: 1) == ["1.000 menu open on a: " + Self.top, "1.000 highlight menuItem menu:tap"])
    }

    @Test func menu_contents_no_gestures_without_a_point() {
        var h = Self.harness()
        h.press(.next, at: 0.5)
        h.press(.next, at: 0.6)
        #expect(h.press(.select, at: 1).first == "1.000 menu open on c: menu:tap, menu:device, menu:shortcuts, menu:settings, menu:escape, menu:close")
    }

    @Test func submenu_opens_page() {
        var h = Self.harness()
        h.press(.select, at: 1)
        #expect(h.press(.next, at: 2) == ["2.000 highlight menuItem menu:gestures"])
        #expect(h.press(.select, at: 3) == [
            "3.000 menu open menu:gestures on a: " + Self.gestures.joined(separator: ", "),
            "3.000 highlight menuItem menu:rightClick",
        ])
        #expect(h.scanner.isMenuOpen)
    }

    @Test func submenu_json_line_carries_the_page() {
        var h = Self.harness()
        h.press(.select, at: 1)
        h.press(.next, at: 2)
        h.press(.select, at: 3)
        let line = h.lines.first { if case .menuOpened(_, _, _, "menu:gestures"?) = $0.event { return true } else { return false } }
        #expect(line.map(TranscriptFormat.jsonl)?.hasPrefix(#"{"t":3.000,"type":"menu","open":true,"id":"a","label":"A, button","submenu":"menu:gestures","items":["menu:rightClick","#) == true)
    }

    @Test func submenu_back() {
        var (h, _) = Self.onPage(1)
        h.press(.previous, at: 5)
        #expect(h.press(.previous, at: 6) == ["6.000 highlight menuItem menu:back"])
        #expect(h.press(.select, at: 7) == ["7.000 menu open on a: " + Self.top, "7.000 highlight menuItem menu:gestures"])
    }

    @Test func submenu_close() {
        var (h, _) = Self.onPage(1)
        #expect(h.press(.previous, at: 5) == ["5.000 highlight menuItem menu:close"])
        #expect(h.press(.select, at: 6) == ["6.000 menu closed", "6.000 highlight item a"])
        #expect(!h.scanner.isMenuOpen)
    }

    @Test func submenu_escape_is_back() {
        var (h, _) = Self.onPage(2)
        #expect(h.press(.escape, at: 5) == ["5.000 menu open on a: " + Self.top, "5.000 highlight menuItem menu:device"])
        #expect(h.press(.escape, at: 6) == ["6.000 menu closed", "6.000 highlight item a"])
    }

    @Test func submenu_menu_switch_closes_everything() {
        var (h, _) = Self.onPage(2)
        #expect(h.press(.menu, at: 5) == ["5.000 menu closed", "5.000 highlight item a"])
    }

    @Test func submenu_loops_close() {
        // Auto, 1 s, loops 1: the Device page (volume up, down, mute, back, close) is scanned once.
        var h = Self.harness(Fixture.settings(.auto) { $0.loops = 1 })
        h.press(.select, at: 0.5)                       // menu on a
        h.run(until: 2.5)                               // tap, gestures (1.5), device (2.5)
        #expect(h.press(.select, at: 2.7).first == "2.700 menu open menu:device on a: menu:volumeUp, menu:volumeDown, menu:mute, menu:back, menu:close")
        #expect(h.run(until: 8) == [
            "3.700 highlight menuItem menu:volumeDown", "4.700 highlight menuItem menu:mute", "5.700 highlight menuItem menu:back",
            "6.700 highlight menuItem menu:close", "7.700 menu closed", "7.700 highlight item a",
        ])
    }

    @Test func submenu_step_style_dwell_chooses_the_first_entry() {
        // Step: a press moves, waiting selects; a page opens with its dwell running, like the menu.
        var h = Self.harness(Fixture.settings(.singleSwitchStep))
        h.press(.menu, at: 0.5)
        h.press(.select, at: 1)                         // to menu:gestures, its dwell runs
        #expect(h.run(until: 2) == ["2.000 menu open menu:gestures on a: " + Self.gestures.joined(separator: ", "),
                                    "2.000 highlight menuItem menu:rightClick"])
        #expect(h.run(until: 3) == ["3.000 perform rightClick a at (30, 50)", "3.000 menu closed", "3.000 highlight item a"])
    }

    // MARK: Gestures (on an item: at its activation point)

    @Test(arguments: [(0, "rightClick a"), (1, "doubleClick a"), (2, "middleClick a"), (3, "hold a"),
                      (5, "scroll a up"), (6, "scroll a down"), (7, "scroll a left"), (8, "scroll a right")])
    func menu_gesture_on_item(_ entry: Int, _ performed: String) {
        var (h, t) = Self.onPage(1, entry: entry)
        #expect(h.press(.select, at: t + 1) == [
            "\((Instant.seconds(t + 1)).transcriptString) perform \(performed) at (30, 50)",
            "\((Instant.seconds(t + 1)).transcriptString) menu closed",
            "\((Instant.seconds(t + 1)).transcriptString) highlight item a",
        ])
    }

    @Test func menu_gesture_json() {
        var (h, t) = Self.onPage(1, entry: 6)
        _ = h.press(.select, at: t + 1)
        let perform = h.lines.first { if case .perform = $0.event { return true } else { return false } }!
        #expect(TranscriptFormat.jsonl(perform) == #"{"t":2.800,"type":"perform","action":"scroll","id":"a","label":"A, button","direction":"down","point":[30,50]}"#)
        #expect(TranscriptFormat.text(perform) == #"   2.800  perform    scroll    down on "A, button" at (30, 50)"#)
    }

    // MARK: Device and shortcuts (keys go to the focused window; named by the item)

    @Test(arguments: [(0, "XF86AudioRaiseVolume"), (1, "XF86AudioLowerVolume"), (2, "XF86AudioMute")])
    func menu_key_device(_ entry: Int, _ keys: String) {
        var (h, t) = Self.onPage(2, entry: entry)
        let at = Instant.seconds(t + 1).transcriptString
        #expect(h.press(.select, at: t + 1) == ["\(at) perform key a \(keys)", "\(at) menu closed", "\(at) highlight item a"])
    }

    @Test func menu_lock_screen_hidden_unless_shown() {
        var (h, _) = Self.onPage(2)
        #expect(h.lines.contains { ScannerHarness.render($0) == "1.300 menu open menu:device on a: menu:volumeUp, menu:volumeDown, menu:mute, menu:back, menu:close" })
        var shown = Fixture.fullMenu()
        shown.settings.show = ["menu:lockScreen"]
        var (s, t) = Self.onPage(2, entry: 3, menu: shown)
        #expect(s.lines.contains { ScannerHarness.render($0) == "1.300 menu open menu:device on a: menu:volumeUp, menu:volumeDown, menu:mute, menu:lockScreen, menu:back, menu:close" })
        #expect(s.press(.select, at: t + 1).first == "2.600 perform lockScreen a")
    }

    @Test(arguments: Shortcut.builtIn.indices)
    func menu_key_shortcut(_ k: Int) {
        var (h, t) = Self.onPage(3, entry: k)
        let at = Instant.seconds(t + 1).transcriptString
        #expect(h.press(.select, at: t + 1) == ["\(at) perform key a \(Shortcut.builtIn[k].keys)", "\(at) menu closed", "\(at) highlight item a"])
    }

    @Test func menu_key_shortcuts_page_in_order() {
        var (h, _) = Self.onPage(3)
        #expect(h.lines.map(ScannerHarness.render).contains("1.400 menu open menu:shortcuts on a: menu:shortcut:copy, menu:shortcut:paste, menu:shortcut:cut, menu:shortcut:undo, menu:shortcut:redo, menu:shortcut:selectAll, menu:shortcut:save, menu:shortcut:find, menu:shortcut:closeTab, menu:shortcut:switchWindow, menu:shortcut:escape, menu:shortcut:enter, menu:shortcut:tab, menu:shortcut:up, menu:shortcut:down, menu:shortcut:left, menu:shortcut:right, menu:back, menu:close"))
        #expect(Shortcut.builtIn.map(\.keys.description) == ["Ctrl+C", "Ctrl+V", "Ctrl+X", "Ctrl+Z", "Ctrl+Shift+Z", "Ctrl+A", "Ctrl+S", "Ctrl+F",
                                                             "Ctrl+W", "Alt+Tab", "Escape", "Enter", "Tab", "Up", "Down", "Left", "Right"])
    }

    @Test func menu_key_profile_shortcut_comes_first() {
        var menu = Fixture.fullMenu()
        menu.settings.shortcuts = [ProfileShortcut(name: "Print", keys: "Ctrl+P")]
        var (h, t) = Self.onPage(3, menu: menu)
        #expect(h.lines.last.map(ScannerHarness.render) == "1.400 highlight menuItem menu:shortcut:Print")
        #expect(h.press(.select, at: t + 1).first == "2.400 perform key a Ctrl+P")
    }

    // MARK: Settings

    @Test func menu_setting_page_by_style() {
        // Manual: no Faster/Slower; Auto scanning (a next switch exists), Speech, Sounds, Pause.
        var (h, _) = Self.onPage(4)
        #expect(h.lines.map(ScannerHarness.render).contains("1.500 menu open menu:settings on a: menu:autoScanning, menu:speech, menu:sounds, menu:pause, menu:back, menu:close"))
        // Auto without a next or previous switch, no pause hold: Faster, Slower, Speech, Sounds.
        var a = Self.harness(Fixture.settings(.auto), menu: MenuContext())
        a.press(.select, at: 0.5)
        for k in 0..<4 { a.press(.next, at: 0.6 + 0.1 * Double(k)) }
        #expect(a.press(.select, at: 1.2).first == "1.200 menu open menu:settings on a: menu:faster, menu:slower, menu:speech, menu:sounds, menu:back, menu:close")
    }

    @Test func menu_setting_labels_say_what_they_do() {
        var (h, _) = Self.onPage(4)
        let opened = h.lines.compactMap { line -> [String]? in
            if case .menuOpened(_, _, let items, "menu:settings"?) = line.event { return items.map(\.label) } else { return nil }
        }
        #expect(opened == [["Turn auto scanning on", "Turn speech on", "Turn sounds on", "Pause scanning", "Back", "Close menu"]])
        _ = h.press(.select, at: 5)
    }

    @Test func menu_setting_faster() {
        // Auto, 1 s: Faster makes it 0.9 s at once; the page stays on Faster, so a second press
        // makes it 0.8 s; then the dwell is 0.8 s.
        var h = Self.harness(Fixture.settings(.auto), menu: MenuContext())
        h.press(.select, at: 0.5)
        for k in 0..<4 { h.press(.next, at: 0.6 + 0.1 * Double(k)) }
        h.press(.select, at: 1.2)                       // the Settings page, on Faster
        #expect(h.press(.select, at: 1.5) == ["1.500 setting autoScanningTime 1.0 s → 0.9 s", "1.500 highlight menuItem menu:faster"])
        #expect(h.press(.select, at: 2.0) == ["2.000 setting autoScanningTime 0.9 s → 0.8 s", "2.000 highlight menuItem menu:faster"])
        #expect(h.run(until: 3.6) == ["2.800 highlight menuItem menu:slower", "3.600 highlight menuItem menu:speech"])
        #expect(h.scanner.dwell == .seconds(0.8))
    }

    @Test func menu_setting_slower_in_json() {
        var h = Self.harness(Fixture.settings(.auto), menu: MenuContext())
        h.press(.select, at: 0.5)
        for k in 0..<4 { h.press(.next, at: 0.6 + 0.1 * Double(k)) }
        h.press(.select, at: 1.2)
        h.press(.next, at: 1.3)
        _ = h.press(.select, at: 1.5)
        let line = h.lines.first { if case .setting = $0.event { return true } else { return false } }!
        #expect(TranscriptFormat.jsonl(line) == #"{"t":1.500,"type":"setting","name":"autoScanningTime","from":1.0,"to":1.1}"#)
        #expect(TranscriptFormat.text(line) == "   1.500  setting    autoScanningTime 1.0 s → 1.1 s")
    }

    @Test func menu_setting_speed_stays_in_range() {
        var menu = MenuContext()
        menu.settings.speedStep = .seconds(0.5)
        var h = Self.harness(Fixture.settings(.auto) { $0.autoScanningTime = .seconds(0.3) }, menu: menu)
        h.press(.select, at: 0.1)
        for k in 0..<4 { h.press(.next, at: 0.11 + 0.01 * Double(k)) }
        h.press(.select, at: 0.2)
        #expect(h.press(.select, at: 0.25) == ["0.250 setting autoScanningTime 0.3 s → 0.1 s", "0.250 highlight menuItem menu:faster"])
        // At 0.1 s Faster changes nothing, and says so (issue 32: it said nothing).
        let floor = h.press(.select, at: 0.3)
        #expect(floor == ["0.300 setting autoScanningTime stays 0.1 s (fastest)", "0.300 highlight menuItem menu:faster"])
        let line = h.lines.last { if case .setting = $0.event { return true } else { return false } }!
        #expect(TranscriptFormat.jsonl(line) == #"{"t":0.300,"type":"setting","name":"autoScanningTime","from":0.1,"to":0.1,"limit":"fastest"}"#)
        #expect(TranscriptFormat.text(line) == "   0.300  setting    autoScanningTime stays 0.1 s: already the fastest")
        var slow = Self.harness(Fixture.settings(.auto) { $0.autoScanningTime = .seconds(59.8) }, menu: menu)
        slow.press(.select, at: 0.1)
        for k in 0..<4 { slow.press(.next, at: 0.11 + 0.01 * Double(k)) }
        slow.press(.select, at: 0.2)
        slow.press(.next, at: 0.25)
        #expect(slow.press(.select, at: 0.3).first == "0.300 setting autoScanningTime 59.8 s → 60.0 s")
        #expect(slow.press(.select, at: 0.35).first == "0.350 setting autoScanningTime stays 60.0 s (slowest)")
    }

    /// With speech on, the floor is said too, before the entry's own phrase.
    @Test func menu_setting_speed_at_its_floor_is_said() {
        var menu = MenuContext()
        menu.settings.speedStep = .seconds(0.5)
        var h = Self.harness(Fixture.settings(.auto) { $0.autoScanningTime = .seconds(0.1); $0.speech = true }, menu: menu)
        h.press(.select, at: 0.05)
        for k in 0..<4 { h.press(.next, at: 0.06 + 0.01 * Double(k)) }
        h.press(.select, at: 0.11)
        let said = h.press(.select, at: 0.15)
        #expect(said.first == "0.150 setting autoScanningTime stays 0.1 s (fastest)")
        #expect(said.contains { $0.contains("speak") && $0.contains("\"Fastest already\"") }, "\(said)")
    }

    @Test func menu_setting_toggle_auto_scanning() {
        // Auto with a next switch: turning auto scanning off makes it manual (the highlight waits).
        var h = Self.harness(Fixture.settings(.auto), menu: Fixture.fullMenu())
        h.press(.select, at: 0.5)
        for k in 0..<4 { h.press(.next, at: 0.6 + 0.1 * Double(k)) }
        h.press(.select, at: 1.2)
        h.press(.next, at: 1.3)
        h.press(.next, at: 1.4)
        #expect(h.lines.last.map(ScannerHarness.render) == "1.400 highlight menuItem menu:autoScanning")
        #expect(h.press(.select, at: 1.5) == ["1.500 setting style \"auto\" → \"manual\"", "1.500 menu closed", "1.500 highlight item a"])
        #expect(h.run(until: 10).isEmpty)
        #expect(h.press(.next, at: 10) == ["10.000 highlight item b"])
        // And on again.
        h.press(.select, at: 11)
        for k in 0..<4 { h.press(.next, at: 11.1 + 0.1 * Double(k)) }
        h.press(.select, at: 11.6)
        #expect(h.press(.select, at: 12) == ["12.000 setting style \"manual\" → \"auto\"", "12.000 menu closed", "12.000 highlight item a"])
        #expect(h.run(until: 13) == ["13.000 highlight item b"])
    }

    @Test func menu_setting_toggle_speech() {
        var (h, t) = Self.onPage(4, entry: 1)
        #expect(h.press(.select, at: t + 1) == ["2.600 setting speech off → on", "2.600 menu closed", "2.600 highlight item a", "2.600 speak \"A, button\""])
        #expect(h.press(.next, at: 3) == ["3.000 highlight item b", "3.000 speak \"B, button\""])
    }

    @Test func menu_setting_toggle_sounds() {
        var (h, t) = Self.onPage(4, entry: 2)
        #expect(h.press(.select, at: t + 1) == ["2.700 setting soundEffects off → on", "2.700 menu closed", "2.700 highlight item a"])
        #expect(h.scanner.sounds)
        #expect(h.scanner.menuContext.sounds)
    }

    @Test func menu_pause() {
        var (h, t) = Self.onPage(4, entry: 3)
        #expect(h.lines.last.map(ScannerHarness.render) == "1.800 highlight menuItem menu:pause")
        #expect(h.press(.select, at: t + 1) == ["2.800 menu closed"])
        #expect(h.pauseRequests == [.seconds(2.8)])
        #expect(!h.scanner.isMenuOpen)
        #expect(h.pendingTimers.isEmpty)
    }

    @Test func menu_setting_hidden_without_a_way_back() {
        // No pause hold: no Pause (the person could not resume alone); no next/previous: no Auto scanning.
        var (h, _) = Self.onPage(4, menu: MenuContext())
        #expect(h.lines.map(ScannerHarness.render).contains("1.500 menu open menu:settings on a: menu:speech, menu:sounds, menu:back, menu:close"))
    }

    // MARK: Drag

    @Test func menu_drag_second_item_chosen_by_scanning() {
        var (h, t) = Self.onPage(1, entry: 4)
        #expect(h.lines.last.map(ScannerHarness.render) == "1.600 highlight menuItem menu:drag")
        #expect(h.press(.select, at: t + 1) == ["2.600 menu closed", "2.600 drag choosing a from (30, 50)", "2.600 highlight item a"])
        #expect(h.press(.next, at: 3) == ["3.000 highlight item b"])
        // Selecting b drops there: no menu, one perform from a's point to b's.
        #expect(h.press(.select, at: 4) == ["4.000 perform drag a from (30, 50) to (120, 50)", "4.000 highlight item a"])
        #expect(h.scanner.dragging == nil)
        // The next selection is an ordinary one again.
        #expect(h.press(.select, at: 5).first == "5.000 menu open on a: " + Self.top)
    }

    @Test func menu_drag_json_and_text() {
        var (h, t) = Self.onPage(1, entry: 4)
        h.press(.select, at: t + 1)
        h.press(.next, at: 3)
        h.press(.select, at: 4)
        let drag = h.lines.first { if case .drag = $0.event { return true } else { return false } }!
        #expect(TranscriptFormat.jsonl(drag) == #"{"t":2.600,"type":"drag","state":"choosing","id":"a","label":"A, button","from":[30,50]}"#)
        let perform = h.lines.last { if case .perform = $0.event { return true } else { return false } }!
        #expect(TranscriptFormat.jsonl(perform) == #"{"t":4.000,"type":"perform","action":"drag","id":"a","label":"A, button","from":[30,50],"to":[120,50]}"#)
        #expect(TranscriptFormat.text(perform) == #"   4.000  perform    drag      "A, button" from (30, 50) to (120, 50)"#)
    }

    @Test func menu_drag_auto_scanning_drops_where_selected() {
        var h = Self.harness(Fixture.settings(.auto), menu: MenuContext())
        h.press(.select, at: 0.5)                       // menu on a
        h.press(.next, at: 0.6)                         // gestures
        h.press(.select, at: 0.7)
        for k in 0..<4 { h.press(.next, at: 0.8 + 0.05 * Double(k)) }
        #expect(h.press(.select, at: 1.2) == ["1.200 menu closed", "1.200 drag choosing a from (30, 50)", "1.200 highlight item a"])
        #expect(h.run(until: 2.2) == ["2.200 highlight item b"])
        #expect(h.press(.select, at: 2.5) == ["2.500 perform drag a from (30, 50) to (120, 50)", "2.500 highlight item a"])
    }

    @Test func menu_drag_escape_cancels() {
        var (h, t) = Self.onPage(1, entry: 4)
        h.press(.select, at: t + 1)
        #expect(h.press(.escape, at: 3) == ["3.000 drag cancelled a from (30, 50)", "3.000 highlight item a"])
        #expect(h.scanner.dragging == nil)
        // Escape again is the ordinary escape.
        #expect(h.press(.escape, at: 4).first == "4.000 perform escape root")
    }

    @Test func menu_drag_stop_cancels() {
        var (h, t) = Self.onPage(1, entry: 4)
        h.press(.select, at: t + 1)
        #expect(h.press(.stopScanning, at: 3) == ["3.000 drag cancelled a from (30, 50)", "3.000 scan stopped"])
    }

    @Test func menu_drag_ignores_tap_behavior() {
        // Always Tap: the menu switch opens the menu; Drag there, then a select drops (no tap).
        var s = Self.harness(Fixture.settings(.manual) { $0.tapBehavior = .alwaysTap })
        s.press(.menu, at: 1)
        s.press(.next, at: 1.1)
        s.press(.select, at: 1.2)
        for k in 0..<4 { s.press(.next, at: 1.3 + 0.1 * Double(k)) }
        s.press(.select, at: 2)
        s.press(.next, at: 2.5)
        #expect(s.press(.select, at: 3) == ["3.000 perform drag a from (30, 50) to (120, 50)", "3.000 highlight item a"])
    }

    @Test func menu_drag_point_mode() {
        // Point scanning: Drag on a point, then the drop point chosen by the sweeps.
        var settings = Fixture.settings(.auto)
        settings.mode = .point
        var h = ScannerHarness(Self.model, settings, menu: MenuContext())
        h.start()
        for t in [1.0, 2.0, 3.0, 4.0] { h.press(.select, at: t) }   // x band, x line, y band, y line → point
        guard case .menu(let m) = h.scanner.state, case .point(let choice) = m.subject else { return #expect(Bool(false), "no point menu") }
        let gestures = m.entries.firstIndex(of: .submenu(.gestures))!
        var t = 4.1
        for _ in 0..<gestures { h.press(.next, at: t); t += 0.01 }
        h.press(.select, at: t)
        for _ in 0..<4 { t += 0.01; h.press(.next, at: t) }
        t += 0.01
        let chose = h.press(.select, at: t)
        #expect(chose.contains { $0.hasSuffix("drag choosing root from \(choice.point)") })
        let start = t
        for k in 1...4 { h.press(.select, at: start + Double(k)) }
        let lines = h.lines.map(ScannerHarness.render)
        #expect(lines.contains { $0.contains("perform drag root from \(choice.point) to (") })
        #expect(h.scanner.dragging == nil)
    }

    @Test func menu_drag_group_selection() {
        var settings = Fixture.settings(.manual)
        settings.mode = .groupSelection
        var h = ScannerHarness(Self.model, settings, groupSwitches: 3, menu: MenuContext())
        h.start()
        #expect(h.lines.map(ScannerHarness.render).last == "0.000 groups blue: a | red: b | green: c")
        h.press(.group1, at: 1)                         // a: its menu in colours
        guard case .colorGroups(let c) = h.scanner.state, case .menu(let m) = c.subject else { return #expect(Bool(false), "no menu") }
        #expect(m.entries.map(\.id).joined(separator: ", ") == Self.top)
        // Narrow to Gestures, then Drag.
        var t = 2.0
        Self.pick("menu:gestures", &h, &t)
        Self.pick("menu:drag", &h, &t)
        #expect(h.lines.map(ScannerHarness.render).contains { $0.hasSuffix("drag choosing a from (30, 50)") })
        Self.pick("b", &h, &t)
        #expect(h.lines.map(ScannerHarness.render).contains { $0.hasSuffix("perform drag a from (30, 50) to (120, 50)") })
    }

    // MARK: Every method on the menu

    @Test func menu_grouped_auto() {
        // Auto grouping on a long menu (8 custom actions): its entries in parts, each with its exit.
        let many = Fixture.model([Fixture.button("a", actions: (1...8).map { "Action \($0)" }, frame: Rect(x: 0, y: 0, width: 10, height: 10))])
        var h = ScannerHarness(many, Fixture.settings(.manual) { $0.grouping = .auto }, menu: MenuContext())
        h.start()
        let opened = h.press(.select, at: 1)
        #expect(opened[1] == "1.000 highlight group menu#part1")
        guard case .menu(let m) = h.scanner.state else { return #expect(Bool(false)) }
        #expect(m.levels.groups.count > 0)
        // Into the parts (nested as auto grouping chose them) down to Tap.
        var t = 2.0
        while case .menu(let m) = h.scanner.state, case .group = m.levels.stop(m.cursor.location) {
            h.press(.select, at: t)
            t += 1
        }
        #expect(h.lines.last.map(ScannerHarness.render) == "\(Instant.seconds(t - 1).transcriptString) highlight menuItem menu:tap")
        #expect(h.press(.select, at: t).first == "\(Instant.seconds(t).transcriptString) perform activate a at (5, 5)")
    }

    @Test func menu_grouped_escape_leaves_the_group_first() {
        let many = Fixture.model([Fixture.button("a", actions: (1...8).map { "Action \($0)" }, frame: Rect(x: 0, y: 0, width: 10, height: 10))])
        var h = ScannerHarness(many, Fixture.settings(.manual) { $0.grouping = .auto }, menu: MenuContext())
        h.start()
        h.press(.select, at: 1)
        h.press(.select, at: 2)                         // into menu#part1
        #expect(h.press(.escape, at: 3) == ["3.000 highlight group menu#part1"])
        #expect(h.press(.escape, at: 4) == ["4.000 menu closed", "4.000 highlight item a"])
    }

    @Test func menu_group_selection_page() {
        // Group selection with 2 switches: the menu and then the Device page in colours.
        var settings = Fixture.settings(.manual)
        settings.mode = .groupSelection
        var h = ScannerHarness(Self.model, settings, groupSwitches: 2, menu: MenuContext())
        h.start()
        var t = 1.0
        Self.pick("a", &h, &t)
        #expect(h.lines.map(ScannerHarness.render).contains("\(Instant.seconds(t - 0.1).transcriptString) menu open on a: " + Self.top))
        Self.pick("menu:device", &h, &t)
        let page = h.lines.map(ScannerHarness.render).filter { $0.contains("menu open menu:device") }
        #expect(page.count == 1)
        Self.pick("menu:mute", &h, &t)
        #expect(h.lines.map(ScannerHarness.render).contains { $0.hasSuffix("perform key a XF86AudioMute") })
    }

    /// Group selection: presses the colour that holds `id` until it is chosen (alone in its colour).
    static func pick(_ id: String, _ h: inout ScannerHarness, _ t: inout Double) {
        for _ in 0..<8 {
            guard let groups = h.lines.last(where: { if case .colorGroups = $0.event { return true } else { return false } }),
                  case .colorGroups(let colours) = groups.event,
                  let n = colours.firstIndex(where: { $0.ids.contains(id) }) else { return }
            h.press(SwitchAction.groups[n], at: t)
            t += 0.1
            if colours[n].ids == [id] && !colours[n].back { return }
        }
    }

    @Test func point_menu_offers_the_pages_and_gestures_at_the_point() {
        var settings = Fixture.settings(.auto)
        settings.mode = .point
        var h = ScannerHarness(Self.model, settings, menu: MenuContext())
        h.start()
        for t in [1.0, 2.0, 3.0, 4.0] { h.press(.select, at: t) }
        guard case .menu(let m) = h.scanner.state, case .point(let choice) = m.subject else { return #expect(Bool(false), "no point menu") }
        #expect(m.entries.contains(.submenu(.gestures)))
        #expect(m.entries.suffix(3) == [.refine, .escape, .close])
        var t = 4.1
        for _ in 0..<m.entries.firstIndex(of: .submenu(.gestures))! { h.press(.next, at: t); t += 0.01 }
        h.press(.select, at: t)
        let right = h.press(.select, at: t + 0.01)
        let hit = choice.hit.map { Self.model.items[$0].id } ?? "root"
        #expect(right.first?.hasSuffix("perform rightClick \(hit) at \(choice.point)") == true)
    }

    // MARK: The profile's arrangement

    @Test func menu_top_promotes_and_hide_removes() {
        var menu = Fixture.fullMenu()
        menu.settings.top = ["menu:rightClick", "menu:shortcut:copy"]
        menu.settings.hide = ["menu:device", "menu:middleClick"]
        var h = Self.harness(menu: menu)
        #expect(h.press(.select, at: 1).first == "1.000 menu open on a: menu:tap, menu:rightClick, menu:shortcut:copy, menu:gestures, menu:shortcuts, menu:settings, menu:escape, menu:close")
        #expect(h.press(.next, at: 2) == ["2.000 highlight menuItem menu:rightClick"])
        #expect(h.press(.select, at: 3).first == "3.000 perform rightClick a at (30, 50)")
        h.press(.select, at: 4)
        for k in 0..<3 { h.press(.next, at: 4.1 + 0.1 * Double(k)) }
        #expect(h.press(.select, at: 5).first == "5.000 menu open menu:gestures on a: menu:doubleClick, menu:hold, menu:drag, menu:scrollUp, menu:scrollDown, menu:scrollLeft, menu:scrollRight, menu:back, menu:close")
    }

    @Test func menu_page_hidden_when_empty() {
        var menu = Fixture.fullMenu()
        menu.settings.hide = ["menu:volumeUp", "menu:volumeDown", "menu:mute"]
        var h = Self.harness(menu: menu)
        #expect(h.press(.select, at: 1).first == "1.000 menu open on a: menu:tap, menu:gestures, menu:shortcuts, menu:settings, menu:escape, menu:close")
    }

    @Test func menu_speech_says_pages_and_entries() {
        var h = Self.harness(Fixture.settings(.manual) { $0.speech = true })
        h.press(.select, at: 1)
        #expect(h.press(.next, at: 2) == ["2.000 highlight menuItem menu:gestures", "2.000 speak \"Gestures\""])
        #expect(h.press(.select, at: 3).suffix(2) == ["3.000 highlight menuItem menu:rightClick", "3.000 speak \"Right click\""])
    }

    @Test func layout_keeps_the_page() {
        var (h, _) = Self.onPage(2)
        // The same items (a moved): the page stays, no line.
        let moved = Fixture.model([
            Fixture.button("a", frame: Rect(x: 10, y: 200, width: 40, height: 60)),
            Fixture.button("b", frame: Rect(x: 100, y: 20, width: 40, height: 60)),
            Fixture.button("c"),
        ])
        #expect(h.layout(moved, at: 5).isEmpty)
        guard case .menu(let m) = h.scanner.state else { return #expect(Bool(false)) }
        #expect(m.page == .device)
        // a gone: the menu closes.
        #expect(h.layout(Fixture.model([Fixture.button("b"), Fixture.button("c")]), at: 6) == ["6.000 menu closed", "6.000 highlight item b"])
    }
}
