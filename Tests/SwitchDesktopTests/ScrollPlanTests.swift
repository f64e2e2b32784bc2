import SwitchCore
@testable import SwitchDesktop
import Testing

/// Paging a scrollable container (the Scroll page, issue 19), planned on plain values: a web
/// page through `ScrollTo` of its nodes just out of view, a scroll pane through its scroll bar's
/// Value, anything else by wheel clicks; a scroll pane's "Scroll down" stop (Android's auto-scroll).
@Suite struct ScrollPlanTests {
    static let shown: AtspiStates = [.showing, .visible, .enabled, .sensitive, .focusable]
    static let below: AtspiStates = [.visible, .enabled, .sensitive, .focusable]

    static func link(_ id: String, y: Int32, showing: Bool) -> AtspiNode {
        AtspiNode(id: id, role: .link, name: id, states: showing ? shown : below, interfaces: [.action, .component],
                  extents: AtspiRect(x: 10, y: y, width: 50, height: 20), actions: ["jump"], inDocument: true)
    }

    static func plan(_ d: ScrollDirection, _ n: AtspiNode) -> DesktopStep {
        DesktopPerformPlan.step(for: Perform(.scroll(d), id: n.id, label: n.name), lookup: { $0 == n.id ? DesktopNodeInfo(node: n, parent: nil, index: 0) : nil })
    }

    @Test func aWebPageIsPagedByItsNodesJustOutOfView() {
        let doc = AtspiNode(id: "doc", role: .documentWeb, name: "Long list", states: Self.shown, interfaces: [.component],
                            extents: AtspiRect(x: 0, y: 100, width: 800, height: 600), inDocument: true,
                            children: [Self.link("above", y: -300, showing: false), Self.link("a", y: 150, showing: true),
                                       Self.link("b", y: 600, showing: true), Self.link("next", y: 800, showing: false),
                                       Self.link("last", y: 4000, showing: false)])
        #expect(Self.plan(.down, doc) == .scrollTo(id: "next", type: 2, what: "a page down"))
        #expect(Self.plan(.up, doc) == .scrollTo(id: "above", type: 3, what: "a page up"))
        #expect(Self.plan(.top, doc) == .scrollTo(id: "above", type: 2, what: "to the top"))
        #expect(Self.plan(.bottom, doc) == .scrollTo(id: "last", type: 3, what: "to the bottom"))
        #expect(Self.plan(.right, doc) == .wheel(at: Point(x: 400, y: 400), button: 7, clicks: 5, what: "a page right"))
        var end = doc
        end.children.removeLast(2)
        #expect(Self.plan(.down, end) == .fail("the page is at its bottom"))
    }

    /// A page scrolled down (Firefox's 5,000-link page, read back after four Scroll downs): the
    /// header above the viewport, then `main`, which straddles the viewport and is SHOWING, holding
    /// a section out of view above and the one in view. Scroll up goes a page up (the last link
    /// above the viewport to its bottom), not to the header (the top of the page).
    @Test func aPartStraddlingTheViewportIsNotWhatIsInView() {
        func part(_ id: String, _ role: AtspiRole, y: Int32, height: Int32, showing: Bool, _ children: [AtspiNode]) -> AtspiNode {
            AtspiNode(id: id, role: role, name: id, states: showing ? [.showing, .visible, .enabled] : [.visible, .enabled], interfaces: [.component],
                      extents: AtspiRect(x: 8, y: y, width: 1584, height: height), inDocument: true, children: children)
        }
        let doc = AtspiNode(id: "doc", role: .documentWeb, name: "5000 links", states: Self.shown, interfaces: [.component],
                            extents: AtspiRect(x: 0, y: 85, width: 1600, height: 815), inDocument: true, children: [
                                part("header", .landmark, y: -1532, height: 70, showing: false, [Self.link("End", y: -1479, showing: false)]),
                                part("main", .landmark, y: -1445, height: 25476, showing: true, [
                                    part("Section 3", .landmark, y: -300, height: 380, showing: false, [Self.link("Link 3.100", y: 60, showing: false)]),
                                    part("Section 4", .landmark, y: 85, height: 492, showing: true, [
                                        Self.link("Link 4.1", y: 128, showing: true), Self.link("Link 4.25", y: 560, showing: true),
                                    ]),
                                    part("Section 5", .landmark, y: 905, height: 492, showing: false, [Self.link("Link 5.1", y: 948, showing: false)]),
                                ]),
                            ])
        #expect(Self.plan(.up, doc) == .scrollTo(id: "Link 3.100", type: 3, what: "a page up"))
        #expect(Self.plan(.down, doc) == .scrollTo(id: "Section 5", type: 2, what: "a page down"))
        #expect(Self.plan(.top, doc) == .scrollTo(id: "header", type: 2, what: "to the top"))
    }

    /// A page read whole asks no extents of an item out of view, and Firefox says (-1, -1, -1, -1)
    /// for some nodes out of view: they are still the page's nodes to page to.
    @Test func aWebPageIsPagedByItsNodesOutOfViewWithoutExtents() {
        func unbounded(_ id: String, _ extents: AtspiRect?) -> AtspiNode {
            var n = Self.link(id, y: 0, showing: false)
            n.extents = extents
            return n
        }
        let doc = AtspiNode(id: "doc", role: .documentWeb, name: "Long list", states: Self.shown, interfaces: [.component],
                            extents: AtspiRect(x: 0, y: 100, width: 800, height: 600), inDocument: true,
                            children: [unbounded("above", AtspiRect(x: -1, y: -1, width: -1, height: -1)), Self.link("a", y: 150, showing: true),
                                       Self.link("b", y: 600, showing: true), unbounded("next", nil), unbounded("last", nil)])
        #expect(Self.plan(.down, doc) == .scrollTo(id: "next", type: 2, what: "a page down"))
        #expect(Self.plan(.up, doc) == .scrollTo(id: "above", type: 3, what: "a page up"))
        #expect(Self.plan(.bottom, doc) == .scrollTo(id: "last", type: 3, what: "to the bottom"))
        // A section that begins above the viewport and goes on into it shows (before all of it
        // in document order): a page up is to what is above the first item in view, not above
        // the section.
        let section = AtspiNode(id: "section", role: .landmark, name: "Part 2", states: Self.shown, interfaces: [.component],
                                extents: AtspiRect(x: 0, y: -400, width: 800, height: 1200), inDocument: true,
                                children: [unbounded("2.1", nil), unbounded("2.2", nil), Self.link("2.3", y: 150, showing: true),
                                           Self.link("2.4", y: 600, showing: true), unbounded("2.5", nil)])
        var long = doc
        long.children = [unbounded("1.1", nil), section, unbounded("3.1", nil)]
        #expect(Self.plan(.up, long) == .scrollTo(id: "2.2", type: 3, what: "a page up"))
        #expect(Self.plan(.down, long) == .scrollTo(id: "2.5", type: 2, what: "a page down"))
    }

    @Test func aScrollPaneByItsScrollBarElseTheWheel() {
        let bar = AtspiNode(id: "vbar", role: .scrollBar, states: [.visible, .showing, .vertical], interfaces: [.value, .component],
                            extents: AtspiRect(x: 390, y: 0, width: 10, height: 300))
        let list = AtspiNode(id: "list", role: .list, states: Self.shown, interfaces: [.component], extents: AtspiRect(x: 0, y: 0, width: 390, height: 900))
        let pane = AtspiNode(id: "pane", role: .scrollPane, states: Self.shown, interfaces: [.component],
                             extents: AtspiRect(x: 0, y: 0, width: 400, height: 300), children: [list, bar])
        #expect(Self.plan(.down, pane) == .scrollBar(id: "vbar", direction: .down, page: 270))
        #expect(Self.plan(.bottom, pane) == .scrollBar(id: "vbar", direction: .bottom, page: 270))
        #expect(Self.plan(.right, pane) == .wheel(at: Point(x: 200, y: 150), button: 7, clicks: 5, what: "a page right"))
        var bare = pane
        bare.children = [list]
        #expect(Self.plan(.top, bare) == .wheel(at: Point(x: 200, y: 150), button: 4, clicks: 50, what: "to the top"))
        // The pane's "Scroll down" stop: the list goes on below the pane.
        let app = AtspiNode(id: ":1.1/root", role: .application, name: "app", children: [
            AtspiNode(id: "w", role: .frame, name: "Files", states: Self.shown, interfaces: [.component],
                      extents: AtspiRect(x: 0, y: 0, width: 400, height: 300), children: [
                          AtspiNode(id: "pane", role: .scrollPane, states: Self.shown, interfaces: [.component],
                                    extents: AtspiRect(x: 0, y: 0, width: 400, height: 300), children: [
                                        AtspiNode(id: "list", role: .list, states: Self.shown, interfaces: [.component],
                                                  extents: AtspiRect(x: 0, y: 0, width: 390, height: 900), children: [
                                                      AtspiNode(id: "r1", role: .pushButton, name: "Row 1", states: Self.shown,
                                                                interfaces: [.action, .component], extents: AtspiRect(x: 0, y: 0, width: 390, height: 30), actions: ["click"]),
                                                  ]),
                                        bar,
                                    ]),
                      ]),
        ])
        let model = ScanModel(tree: AtspiMapping.tree(app, screen: Size(width: 800, height: 600)))
        #expect(model.items.map { $0.element.label ?? "-" } == ["Row 1", "Scroll down"])
        #expect(model.items.map { $0.scrollContainer?.id } == ["pane", "pane"])
        let stop = DesktopPerformPlan.step(for: Perform(.activate, id: "pane" + AtspiMapping.scrollDownSuffix, label: "Scroll down"),
                                           lookup: { $0 == "pane" ? DesktopNodeInfo(node: pane, parent: nil, index: 0) : nil })
        #expect(stop == .scrollBar(id: "vbar", direction: .down, page: 270))
    }

    @Test func windowsAreTheLiveDesktops() {
        #expect(DesktopPerformPlan.step(for: Perform(.activateWindow, id: "x11:0x400004", label: "Calculator"), lookup: { _ in nil })
                == .window(id: "x11:0x400004", close: false))
        #expect(DesktopPerformPlan.step(for: Perform(.closeWindow, id: "x11:0x400004", label: "Calculator"), lookup: { _ in nil })
                == .window(id: "x11:0x400004", close: true))
    }
}
