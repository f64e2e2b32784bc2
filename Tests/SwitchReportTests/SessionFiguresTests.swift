import SwitchCore
import Testing
@testable import SwitchReport

/// The figures of a session, counted from transcripts written out by hand (each case says what
/// it counts) and from the real engine.
@Suite struct SessionFiguresTests {
    static func t(_ s: Double) -> Instant { .seconds(s) }
    static func line(_ s: Double, _ e: TranscriptEvent) -> TranscriptLine { TranscriptLine(t: t(s), e) }
    static func filter(_ s: Double, _ d: FilterDecision.Decision, _ name: String = "KEY_SPACE") -> TranscriptLine {
        line(s, .filter(FilterDecision(switchName: name, d)))
    }
    static func perform(_ s: Double, _ a: Perform.Action, _ id: String, source: Perform.Source = .switch) -> TranscriptLine {
        line(s, .perform(Perform(a, id: id, label: id.uppercased(), source: source)))
    }

    @Test func presses_count_accepted_long_and_rejected_but_not_autorepeat() {
        let f = SessionFigures([
            Self.line(0, .scan(started: true)),
            Self.filter(1, .accepted(.select)), Self.filter(1.3, .rejected(.autorepeat)), Self.filter(1.33, .rejected(.autorepeat)),
            Self.filter(2, .rejected(.debounce)), Self.filter(3, .rejected(.holdDuration)), Self.filter(3.5, .rejected(.holdDuration)),
            Self.filter(4, .longPress(.escape)), Self.filter(5, .accepted(.next), "KEY_ENTER"), Self.filter(6, .rejected(.ignoreRepeat), "KEY_ENTER"),
        ], end: Self.t(10))
        #expect(f.presses == 7)
        #expect(f.accepted == 3 && f.longPresses == 1)
        #expect(f.rejected == 4)
        #expect(f.rejectedBy == [.debounce: 1, .holdDuration: 2, .ignoreRepeat: 1])
        #expect(f.keyRepeats == 2)
        #expect(f.switches == [SessionFigures.SwitchCount(name: "KEY_SPACE", accepted: 2, rejected: 3),
                               SessionFigures.SwitchCount(name: "KEY_ENTER", accepted: 1, rejected: 1)])
        #expect(f.selections.isEmpty && f.selectionsPerMinute == 0 && f.averageTimeToSelect == nil)
    }

    @Test func time_to_a_selection_runs_from_the_previous_perform_or_the_restart() {
        let f = SessionFigures([
            Self.line(0, .scan(started: true)),
            Self.perform(4, .activate, "a"),           // 4 s after the start
            Self.perform(9.5, .increment, "vol"),      // 5.5 s after a
            Self.line(10, .scan(started: false)),
            Self.line(30, .scan(started: true)),       // restarted: the pause is not selection time
            Self.perform(32, .custom("Delete"), "row"),
        ], end: Self.t(60))
        #expect(f.selections.map(\.timeToSelect) == [.seconds(4), .seconds(5.5), .seconds(2)])
        #expect(f.averageTimeToSelect == .seconds(11.5 / 3))
        #expect(f.selectionsPerMinute == 3)
        #expect(f.misses == 0)
    }

    @Test func a_selection_followed_by_escape_is_a_miss() {
        let f = SessionFigures([
            Self.perform(1, .activate, "a"), Self.perform(2, .escape, "root"),
            Self.perform(3, .activate, "b"), Self.perform(4, .activate, "c"), Self.perform(5, .escape, "root"),
        ], end: Self.t(6))
        #expect(f.selections.map(\.perform.id) == ["a", "b", "c"])
        #expect(f.selections.map(\.miss) == [.escaped(at: Self.t(2)), nil, .escaped(at: Self.t(5))])
        #expect(f.escapes == 2)
        #expect(f.misses == 2)
        // An escape's time counts towards the next selection's start.
        #expect(f.selections[1].timeToSelect == .seconds(1))
    }

    @Test func an_immediate_undo_is_a_miss_and_only_the_next_perform_counts() {
        let toggles: @Sendable (String) -> Bool = { $0 == "wifi" }
        let f = SessionFigures([
            Self.perform(1, .increment, "vol"), Self.perform(2, .decrement, "vol"),       // undone
            Self.perform(3, .decrement, "vol"), Self.perform(4, .increment, "other"),    // other element: no
            Self.perform(5, .activate, "wifi"), Self.perform(6, .activate, "wifi"),       // a toggle switched back
            Self.perform(7, .activate, "plus"), Self.perform(8, .activate, "plus"),       // a button pressed twice: no
            Self.perform(9, .custom("Delete"), "row"), Self.perform(10, .custom(" undo "), "toolbar"),
            Self.perform(11, .increment, "vol"), Self.perform(12, .activate, "a"), Self.perform(13, .decrement, "vol"),  // not immediate
        ], end: Self.t(20), isToggle: toggles)
        let missed = f.selections.filter { $0.miss != nil }.map { "\(seconds($0.t)) \($0.perform.id)" }
        #expect(missed == ["1.000 vol", "5.000 wifi", "9.000 row"])
        #expect(f.selections[0].miss == .undone(by: Perform(.decrement, id: "vol", label: "VOL"), at: Self.t(2)))
    }

    @Test func menus_closed_without_an_action_and_touches() {
        let f = SessionFigures([
            Self.line(1, .menuOpened(id: "a", label: "A", items: [])), Self.line(2, .menuClosed),
            Self.line(3, .menuOpened(id: "a", label: "A", items: [])), Self.perform(4, .activate, "a"), Self.line(4, .menuClosed),
            Self.line(5, .touch(TouchDecision(contact: 1, .tap(point: Point(x: 1, y: 1), id: "a", label: "A")))),
            Self.perform(5, .activate, "a", source: .touch),
            Self.line(6, .touch(TouchDecision(contact: 2, .rejected(.holdDuration, point: Point(x: 1, y: 1))))),
            Self.line(7, .touch(TouchDecision(contact: 3, .swipe(from: Point(x: 0, y: 0), to: Point(x: 9, y: 0), direction: .right)))),
        ], end: Self.t(8))
        #expect(f.menusClosedWithoutAction == 1)
        #expect(f.touchTaps == 1 && f.touchRejected == 1 && f.touchSwipes == 1 && f.touchHolds == 0)
        #expect(f.selections.count == 2)
        #expect(f.presses == 0)
    }

    @Test func toggles_are_the_elements_with_on_off_values() {
        let tree = ElementTree(screen: Size(width: 10, height: 10), root: Element(id: "root", children: [
            Element(id: "wifi", label: "Wi-Fi", value: "On", traits: .button),
            Element(id: "box", label: "Box", value: "not checked", traits: .button),
            Element(id: "vol", label: "Volume", value: "50%", traits: .adjustable),
        ]))
        let isToggle = SessionFigures.toggles(in: [tree])
        #expect(["wifi", "box", "vol", "nothing"].map(isToggle) == [true, true, false, false])
    }

    /// The real engine: two switches, manual scanning; the volume is turned up and at once down
    /// again through the menu, then the first button is activated. After each perform scanning
    /// resumes at the first item (a).
    @Test func the_figures_of_a_real_engine_session() throws {
        let tree = ElementTree(screen: Size(width: 400, height: 300), root: Element(id: "root", frame: Rect(x: 0, y: 0, width: 400, height: 300), children: [
            Element(id: "a", label: "A", traits: .button, frame: Rect(x: 0, y: 0, width: 100, height: 40)),
            Element(id: "vol", label: "Volume", value: "5", traits: .adjustable, frame: Rect(x: 0, y: 100, width: 300, height: 40)),
        ]))
        var profile = Profile()
        profile.scanning.style = .manual
        profile.switches = [SwitchBinding(keyName: "KEY_SPACE", code: 57, action: .next), SwitchBinding(keyName: "KEY_ENTER", code: 28, action: .select)]
        profile.switchStabilization.debounce = .zero
        let device = DeviceDescription(name: "box", codes: [EventCodes.EV_KEY: [57, 28]])
        var inputs: [Simulation.Input] = []
        // next (vol), select (menu), next (increment), select → increment at 4; next (vol),
        // select (menu), next, next (decrement), select → decrement at 9; select (menu on a),
        // select (Tap) → activate a at 11.
        let keys: [UInt16] = [57, 28, 57, 28, 57, 28, 57, 57, 28, 28, 28]
        for (k, code) in keys.enumerated() {
            let t = Double(k + 1)
            inputs.append(.frame(InputFrame(time: .seconds(t), events: [InputEvent(type: EventCodes.EV_KEY, code: code, value: 1)]), device: 0))
            inputs.append(.frame(InputFrame(time: .seconds(t + 0.1), events: [InputEvent(type: EventCodes.EV_KEY, code: code, value: 0)]), device: 0))
        }
        var engine = Engine(tree: tree, profile: profile, devices: [device])
        var lines: [TranscriptLine] = []
        let end = Simulation.run(&engine, inputs: inputs) { lines.append($0) }
        #expect(end == .seconds(16.1))
        let f = SessionFigures(lines, end: end)
        #expect(lines.compactMap { if case .perform(let p) = $0.event { return "\(seconds($0.t)) \(p.action.name) \(p.id)" }; return nil }
                == ["4.000 increment vol", "9.000 decrement vol", "11.000 activate a"])
        #expect(f.presses == 11 && f.accepted == 11 && f.rejected == 0)
        #expect(f.selections.map(\.timeToSelect) == [.seconds(4), .seconds(5), .seconds(2)])
        #expect(f.selections.map { $0.miss != nil } == [true, false, false])
        #expect(f.menusClosedWithoutAction == 0)
        #expect(formatFixed(f.selectionsPerMinute!, 2) == "11.18")   // 3 / 16.1 s × 60
    }

    /// Issue 23: gestures, keys and Lock screen from the menu are selections; a setting is not,
    /// and a menu that only changed a setting closed without an action.
    @Test func gestures_and_keys_are_selections_settings_are_not() {
        let f = SessionFigures([
            Self.line(0, .scan(started: true)),
            Self.line(1, .menuOpened(id: "a", label: "A", items: [], submenu: "menu:gestures")),
            Self.perform(2, .rightClick, "a"),
            Self.line(2, .menuClosed),
            Self.perform(3, .drag(from: Point(x: 1, y: 2), to: Point(x: 3, y: 4)), "a"),
            Self.perform(4, .scroll(.down), "a"),
            Self.perform(5, .key("Ctrl+C"), "a"),
            Self.perform(6, .lockScreen, "a"),
            Self.line(7, .menuOpened(id: "a", label: "A", items: [], submenu: "menu:settings")),
            Self.line(7.5, .setting(SettingChange("autoScanningTime", from: .seconds(.seconds(1)), to: .seconds(.seconds(1.1))))),
            Self.line(8, .menuClosed),
        ], end: Self.t(60))
        #expect(f.selections.map(\.perform.action.name) == ["rightClick", "drag", "scroll", "key", "lockScreen"])
        #expect(f.escapes == 0)
        #expect(f.menusClosedWithoutAction == 1)
        #expect(Words.perform(f.selections[1].perform) == "drag “A” from (1, 2) to (3, 4)")
        #expect(Words.perform(f.selections[3].perform) == "key Ctrl+C on “A”")
    }

    // MARK: Issue 22: a bounded report

    /// Past the highlights it details, a recorder keeps no more lines, yet its figures count every
    /// line: the same figures as reading the whole session at once, and a miss decided after the
    /// cut is counted too.
    @Test func recorder_keeps_the_first_highlights_and_counts_everything() {
        var lines: [TranscriptLine] = [Self.line(0, .scan(started: true))]
        for k in 0..<10 {
            let t = Double(k)
            lines.append(Self.line(t, .highlight(id: "a\(k)", kind: .item, label: "A\(k)")))
            lines.append(Self.filter(t + 0.5, .accepted(.select)))
            lines.append(Self.perform(t + 0.5, k == 8 ? .increment : (k == 9 ? .decrement : .activate), k >= 8 ? "vol" : "b\(k)"))
        }
        var recorder = SessionReport.Recorder(trees: [], limit: 3)
        for line in lines { recorder.observe(line) }
        // Kept: the start and the first three highlights with their press and perform.
        #expect(recorder.lines.count == 1 + 3 * 3)
        #expect(recorder.detailEnds == Self.t(3))
        #expect(recorder.highlights == 10 && recorder.keptHighlights == 3)
        let whole = SessionFigures(lines, end: Self.t(10))
        let session = SessionReport.Session(treeName: "t", profileName: "p", inputName: "i", screens: [], recorder: recorder, end: Self.t(10))
        let f = session.figures!
        #expect(f.presses == whole.presses && f.presses == 10)
        #expect(f.selectionCount == whole.selections.count && f.selectionCount == 10)
        #expect(f.misses == whole.misses && f.misses == 1)   // the increment undone at 9.5 s, past the cut
        #expect(f.averageTimeToSelect == whole.averageTimeToSelect)
        #expect(f.selections.count == 3, "only the detailed part's selections are kept")
        let html = SessionReport.html(session)
        #expect(html.contains("This session had 10 highlights in 10.000 s: this part shows it up to 3.000 s (the first 3 highlights). The figures above count the whole session."))
        #expect(html.contains("<tr id=\"figure-selections\"><th scope=\"row\">Selections</th><td class=\"num\">10</td></tr>"))
    }
}
