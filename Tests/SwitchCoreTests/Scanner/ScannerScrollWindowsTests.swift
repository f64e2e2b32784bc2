import Testing
@testable import SwitchCore

/// The scanner menu's Scroll and Windows pages (issue 19): Scroll on the items inside a scrollable
/// container (`Element.scrollable`), paging that container; Windows listing the live desktop's
/// windows (`Engine.windowsChanged`), each one activated, and Close window. Manual scanning.
@Suite struct ScannerScrollWindowsTests {
    /// a and b inside the scrollable list "Files"; c outside it.
    static let model = Fixture.model([
        Element(id: "list", label: "Files", frame: Rect(x: 0, y: 0, width: 200, height: 300), order: .declared, scrollable: true, children: [
            Fixture.button("a", frame: Rect(x: 10, y: 20, width: 40, height: 60)),
            Fixture.button("b", frame: Rect(x: 10, y: 100, width: 40, height: 60)),
        ]),
        Fixture.button("c", frame: Rect(x: 250, y: 20, width: 40, height: 60)),
    ])
    static let windows = [WindowEntry(id: "x11:0x400004", label: "gnome-calculator — Calculator"),
                          WindowEntry(id: "x11:0x600002", label: "Firefox — Second page — Mozilla Firefox")]

    static func harness(windows: Bool = false) -> ScannerHarness {
        var menu = Fixture.fullMenu()
        if windows {
            menu.windows = Self.windows
            menu.currentWindow = WindowEntry(id: "x11:0x500001", label: "testapp.py — Switch test")
        }
        var h = ScannerHarness(Self.model, Fixture.settings(.manual), menu: menu)
        h.start()
        return h
    }

    @Test func scroll_page_only_inside_a_scrollable_container() {
        var h = Self.harness()
        #expect(h.press(.select, at: 1).first == "1.000 menu open on a: menu:tap, menu:gestures, menu:device, menu:shortcuts, menu:settings, menu:scroll, menu:escape, menu:close")
        h.press(.menu, at: 2)  // closed
        h.press(.next, at: 3)
        h.press(.next, at: 4)
        #expect(h.press(.select, at: 5).first == "5.000 menu open on c: menu:tap, menu:gestures, menu:device, menu:shortcuts, menu:settings, menu:escape, menu:close")
    }

    @Test func scroll_page_pages_the_container() {
        var h = Self.harness()
        h.press(.select, at: 1)
        for k in 0..<5 { h.press(.next, at: 2 + Double(k) / 10) }
        #expect(h.press(.select, at: 3) == [
            "3.000 menu open menu:scroll on a: menu:scroll:down, menu:scroll:up, menu:scroll:left, menu:scroll:right, menu:scroll:top, menu:scroll:bottom, menu:back, menu:close",
            "3.000 highlight menuItem menu:scroll:down",
        ])
        let chosen = h.press(.select, at: 4)
        #expect(chosen.contains("4.000 perform scroll list down"), "\(chosen)")
        // The perform names the container and carries no point: the live desktop pages it.
        let perform = h.lines.compactMap { if case .perform(let p) = $0.event { return p } else { return nil } }.last
        #expect(perform == Perform(.scroll(.down), id: "list", label: "Files"))
        #expect(perform.map { TranscriptFormat.jsonl(TranscriptLine(t: .zero, .perform($0))) }
                == #"{"t":0.000,"type":"perform","action":"scroll","id":"list","label":"Files","direction":"down"}"#)
    }

    /// A page: a and b on screen, c and d below (no frame); after Scroll down the page moves
    /// (c and d on screen): scanning continues at c, the first item now in view.
    static func page(scrolled: Bool) -> ScanModel {
        func item(_ id: String, _ y: Double?) -> Element {
            Fixture.button(id, frame: y.map { Rect(x: 10, y: $0, width: 40, height: 30) })
        }
        return Fixture.model([Element(id: "page", label: "Page", frame: Rect(x: 0, y: 0, width: 200, height: 100), order: .declared,
                                      scrollable: true, children: scrolled ? [item("a", nil), item("b", nil), item("c", 10), item("d", 50)]
                                                                           : [item("a", 10), item("b", 50), item("c", nil), item("d", nil)])])
    }

    @Test func scroll_continues_in_the_new_content() {
        var h = ScannerHarness(Self.page(scrolled: false), Fixture.settings(.manual), menu: Fixture.fullMenu())
        h.start()
        h.press(.select, at: 1)
        for k in 0..<5 { h.press(.next, at: 2 + Double(k) / 10) }
        h.press(.select, at: 3)
        #expect(h.press(.select, at: 4).contains("4.000 perform scroll page down"))
        // The re-read before the page moved changes nothing; the one after it moves the highlight.
        #expect(h.layout(Self.page(scrolled: false), at: 4.1).isEmpty)
        #expect(h.layout(Self.page(scrolled: true), at: 4.3) == ["4.300 highlight item c"])
        // Later layouts keep it where it is.
        #expect(h.layout(Self.page(scrolled: true), at: 5).isEmpty)
    }

    /// A browser: its toolbar button t, then page `page` (a scrollable container) holding `items`,
    /// all on screen.
    static func browser(_ page: String, _ items: [String]) -> ScanModel {
        Fixture.model([
            Fixture.button("t", frame: Rect(x: 10, y: 10, width: 40, height: 30)),
            Element(id: page, label: page, frame: Rect(x: 0, y: 100, width: 200, height: 200), order: .declared, scrollable: true,
                    children: items.enumerated().map { Fixture.button($1, frame: Rect(x: 10, y: 110 + 40 * Double($0), width: 40, height: 30)) }),
        ])
    }

    /// Follows link `link` of page A (Space to it, the menu's Tap): its lines.
    @discardableResult
    static func follow(_ link: Int, in h: inout ScannerHarness) -> [String] {
        for k in 0...link { h.press(.next, at: 1 + Double(k) / 10) }
        h.press(.select, at: 2)
        return h.press(.select, at: 3)
    }

    /// A link followed: the old page empties first (the highlight goes to the toolbar in its
    /// place), then the new page comes, and its first item gets the highlight.
    @Test func layout_new_page_gets_the_highlight() {
        var h = ScannerHarness(Self.browser("A", ["a1", "a2"]), Fixture.settings(.manual), menu: Fixture.fullMenu())
        h.start()
        #expect(Self.follow(0, in: &h).contains("3.000 perform activate a1 at (30, 125)"))
        h.layout(Self.browser("A", []), at: 3.5)
        #expect(h.layout(Self.browser("B", ["b1", "b2"]), at: 4.5) == ["4.500 highlight item b1"])
        // Later layouts of it keep the highlight where the person has it.
        h.press(.next, at: 5)
        #expect(h.layout(Self.browser("B", ["b1", "b2", "b3"]), at: 6).isEmpty)
    }

    /// A link on a page that fits its window (no scrollable container) followed to a long page.
    @Test func layout_new_page_from_a_short_page() {
        let short = Fixture.model([Fixture.button("t", frame: Rect(x: 10, y: 10, width: 40, height: 30)),
                                   Element(id: "b1", label: "Page A", traits: [.link], frame: Rect(x: 10, y: 110, width: 40, height: 30))])
        var h = ScannerHarness(short, Fixture.settings(.manual), menu: Fixture.fullMenu())
        h.start()
        #expect(Self.follow(0, in: &h).contains("3.000 perform activate b1 at (30, 125)"))
        #expect(h.layout(Self.browser("A", ["a1", "a2"]), at: 4).contains("4.000 highlight item a1"))
        // The short page empties first (the highlight goes to the toolbar in its place).
        var emptied = ScannerHarness(short, Fixture.settings(.manual), menu: Fixture.fullMenu())
        emptied.start()
        Self.follow(0, in: &emptied)
        emptied.layout(Fixture.model([Fixture.button("t", frame: Rect(x: 10, y: 10, width: 40, height: 30))]), at: 3.2)
        #expect(emptied.layout(Self.browser("A", ["a1", "a2"]), at: 4).contains("4.000 highlight item a1"))
    }

    /// The same document with all new content (a browser that keeps its document object): its
    /// first item, not the item in the followed link's place.
    @Test func layout_new_page_in_the_same_document() {
        var h = ScannerHarness(Self.browser("A", ["a1", "a2"]), Fixture.settings(.manual), menu: Fixture.fullMenu())
        h.start()
        #expect(Self.follow(1, in: &h).contains("3.000 perform activate a2 at (30, 165)"))
        #expect(h.layout(Self.browser("A", ["c1", "c2", "c3"]), at: 4) == ["4.000 highlight item c1"])
    }

    /// A page that only changes (some of its items stay), or a new page more than 10 s after the
    /// link: the highlight stays where it is.
    @Test func layout_new_page_only_when_new_and_within_ten_seconds() {
        var h = ScannerHarness(Self.browser("A", ["a1", "a2"]), Fixture.settings(.manual), menu: Fixture.fullMenu())
        h.start()
        Self.follow(0, in: &h)
        #expect(h.layout(Self.browser("A", ["a1", "a2", "a3"]), at: 4).isEmpty)
        var late = ScannerHarness(Self.browser("A", ["a1", "a2"]), Fixture.settings(.manual), menu: Fixture.fullMenu())
        late.start()
        Self.follow(0, in: &late)
        late.layout(Self.browser("A", []), at: 3.5)
        #expect(!late.layout(Self.browser("B", ["b1", "b2"]), at: 13.1).contains("13.100 highlight item b1"))
    }

    /// A list in a scroll pane under a column header that stays in place (GTK's tree view): a and
    /// b in view, c and d below; after Scroll down c and d show.
    static func list(scrolled: Bool) -> ScanModel {
        func item(_ id: String, _ y: Double?) -> Element {
            Fixture.button(id, frame: y.map { Rect(x: 10, y: $0, width: 40, height: 30) })
        }
        return Fixture.model([Element(id: "pane", label: "Rows", frame: Rect(x: 0, y: 0, width: 200, height: 100), order: .declared,
                                      scrollable: true, children: [item("header", 0)] + (scrolled ? [item("a", nil), item("b", nil), item("c", 30), item("d", 65)]
                                                                                                   : [item("a", 30), item("b", 65), item("c", nil), item("d", nil)]))])
    }

    @Test func scroll_continues_past_what_stays_in_place() {
        var h = ScannerHarness(Self.list(scrolled: false), Fixture.settings(.manual), menu: Fixture.fullMenu())
        h.start()
        h.press(.next, at: 0.5)
        h.press(.select, at: 1)
        for k in 0..<5 { h.press(.next, at: 2 + Double(k) / 10) }
        h.press(.select, at: 3)
        #expect(h.press(.select, at: 4).contains("4.000 perform scroll pane down"))
        // The header is the first item on screen before and after: the first that moved is c.
        #expect(h.layout(Self.list(scrolled: true), at: 4.3) == ["4.300 highlight item c"])
        #expect(h.layout(Self.list(scrolled: true), at: 5).isEmpty)
    }

    /// A large page read whole after the scroll arrives seconds later (up to 6 s); later than that
    /// the highlight stays where the person has it.
    @Test func scroll_follows_a_slow_page_read_for_six_seconds() {
        for (late, moves) in [(5.9, true), (6.1, false)] {
            var h = ScannerHarness(Self.page(scrolled: false), Fixture.settings(.manual), menu: Fixture.fullMenu())
            h.start()
            h.press(.select, at: 1)
            for k in 0..<5 { h.press(.next, at: 2 + Double(k) / 10) }
            h.press(.select, at: 3)
            #expect(h.press(.select, at: 4).contains("4.000 perform scroll page down"))
            let out = h.layout(Self.page(scrolled: true), at: 4 + late)
            #expect(moves ? out == [String(format: "%.3f highlight item c", 4 + late)] : !out.contains { $0.hasSuffix("highlight item c") }, "\(late): \(out)")
        }
    }

    @Test func windows_page_lists_and_activates() {
        var h = Self.harness(windows: true)
        #expect(h.press(.select, at: 1).first == "1.000 menu open on a: menu:tap, menu:gestures, menu:device, menu:shortcuts, menu:settings, menu:scroll, menu:windows, menu:escape, menu:close")
        for k in 0..<6 { h.press(.next, at: 2 + Double(k) / 10) }
        let page = h.press(.select, at: 3)
        #expect(page.first == "3.000 menu open menu:windows on a: menu:window:1, menu:window:2, menu:closeWindow, menu:back, menu:close")
        let labels = h.lines.compactMap { if case .menuOpened(_, _, let items, "menu:windows"?) = $0.event { return items.map(\.label) } else { return nil } }.last
        #expect(labels == ["gnome-calculator — Calculator", "Firefox — Second page — Mozilla Firefox", "Close window", "Back", "Close menu"])
        h.press(.next, at: 4)
        #expect(h.press(.select, at: 5).contains("5.000 perform activateWindow x11:0x600002"))
        let perform = h.lines.compactMap { if case .perform(let p) = $0.event { return p } else { return nil } }.last
        #expect(perform.map { TranscriptFormat.jsonl(TranscriptLine(t: .zero, .perform($0))) }
                == #"{"t":0.000,"type":"perform","action":"activateWindow","id":"x11:0x600002","label":"Firefox — Second page — Mozilla Firefox"}"#)
    }

    @Test func windows_close_window_closes_the_scanned_one() {
        var h = Self.harness(windows: true)
        h.press(.select, at: 1)
        for k in 0..<6 { h.press(.next, at: 2 + Double(k) / 10) }
        h.press(.select, at: 3)
        h.press(.next, at: 4)
        h.press(.next, at: 5)
        #expect(h.press(.select, at: 6).contains("6.000 perform closeWindow x11:0x500001"))
    }

    /// The engine takes the window list as an input: no line, the next menu shows it.
    @Test func engine_windows_changed_feeds_the_menu() {
        var profile = Profile()
        profile.scanning.style = .manual
        var engine = Engine(tree: Fixture.tree([Fixture.button("a", frame: Rect(x: 0, y: 0, width: 10, height: 10))]), profile: profile, devices: [])
        _ = engine.start(at: .zero)
        #expect(engine.windowsChanged(Self.windows, current: nil, at: Instant(microseconds: 1_000)).isEmpty)
    }
}
