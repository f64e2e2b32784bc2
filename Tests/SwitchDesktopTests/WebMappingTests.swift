import SwitchCore
import SwitchDisplay
@testable import SwitchDesktop
@testable import SwitchOverlay
import Testing

/// A web page's mapping (`AtspiMapping` in a document, `WebGroups`), on plain node values shaped as
/// `atspi-probe dump` shows Chromium 156's and Firefox ESR 153's trees of Fixtures/web/form.html:
/// every node with an action ("doDefault", "clickAncestor"), link text as a child, labels beside
/// their check boxes, bullets as text.
@Suite struct WebMappingTests {
    static let shown: AtspiStates = [.showing, .visible, .enabled, .sensitive]
    static let focusable: AtspiStates = shown.union(.focusable)
    static let outOfView: AtspiStates = [.visible, .enabled, .sensitive, .focusable]
    static let all: AtspiInterfaces = [.action, .component]

    static func node(_ id: String, _ role: AtspiRole, _ name: String = "", states: AtspiStates = shown,
                     frame: (Int32, Int32, Int32, Int32)? = (0, 0, 10, 10), actions: [String] = ["doDefault", "showContextMenu"],
                     children: [AtspiNode] = []) -> AtspiNode {
        AtspiNode(id: id, role: role, name: name, states: states, interfaces: all,
                  extents: frame.map { AtspiRect(x: $0.0, y: $0.1, width: $0.2, height: $0.3) }, actions: actions,
                  inDocument: true, children: children)
    }

    /// The browser's window: a frame, then the document at (10, 150), 1600×700 (the viewport).
    static func page(_ content: [AtspiNode]) -> ElementTree {
        let doc = node("doc", .documentWeb, "Switch test form", states: focusable, frame: (10, 150, 1600, 700), children: content)
        var window = AtspiNode(id: "w", role: .frame, name: "Switch test form - Chromium", states: shown, interfaces: [.component],
                               extents: AtspiRect(x: 0, y: 0, width: 1620, height: 900), children: [doc])
        window.children[0].inDocument = true
        return AtspiMapping.tree(AtspiNode(id: ":1.1/root", role: .application, name: "Chromium", children: [window]),
                                 screen: Size(width: 1620, height: 900))
    }

    static func link(_ id: String, _ name: String, y: Int32 = 200, states: AtspiStates = focusable) -> AtspiNode {
        node(id, .link, name, states: states, frame: (20, y, 60, 20), actions: ["jump", "showContextMenu"], children: [
            node(id + "-text", .staticText, name, frame: (20, y, 60, 20), actions: ["clickAncestor", "showContextMenu"]),
        ])
    }

    static func labels(_ model: ScanModel) -> [String] { model.items.map { $0.element.label ?? "-" } }

    /// A link's text is the link; a check box and its label are one item (Firefox's label says
    /// "click"); bullets and wrappers with "doDefault" are never items; headings are read.
    @Test func everyControlOnceAndNoStructureAsItems() {
        let t = Self.page([
            Self.node("banner", .landmark, children: [
                Self.node("h1", .heading, "Switch test form", frame: (18, 174, 300, 39), children: [Self.node("h1t", .staticText, "Switch test form")]),
                Self.node("nav", .landmark, "Site", children: [Self.link("home", "Home"), Self.node("sp", .staticText, " "), Self.link("news", "News")]),
            ]),
            Self.node("p", .paragraph, children: [
                Self.node("gift", .checkBox, "Gift wrap", states: Self.focusable.union(.checkable), actions: ["check"]),
                Self.node("giftLabel", .label, "Gift wrap", actions: ["click"]),
            ]),
            Self.node("list", .list, children: [
                Self.node("li1", .listItem, children: [Self.node("b1", .staticText, "•"), Self.link("a", "Alpha")]),
                Self.node("li2", .listItem, children: [Self.node("b2", .staticText, "2."), Self.link("b", "Beta")]),
            ]),
        ])
        let model = ScanModel(tree: t)
        #expect(Self.labels(model) == ["Home", "News", "Gift wrap", "Alpha", "Beta"])
        #expect(model.items.map(\.element.traits) == [.link, .link, .button, .link, .link])
        #expect(model.items[2].element.value == "not checked")
        // What Chromium lists on every node is no custom action; headings and text offer none.
        #expect(model.items.allSatisfy { $0.element.customActions.isEmpty && $0.containerActions.isEmpty })
        // Read, not scanned: the heading and the label; never the bullets.
        let read = model.accessibilityElements.map { $0.label ?? "-" }
        #expect(read.contains("Switch test form") && !read.contains("•") && !read.contains("2."))
    }

    /// Landmarks, lists and headed sections with two items or more are groups, in document order
    /// and labelled; a part with one item gives it to its parent; wrappers never are groups.
    @Test func partsAreGroupsInDocumentOrder() {
        let t = Self.page([
            Self.node("nav", .landmark, "Site", children: [Self.link("home", "Home", y: 300), Self.link("news", "News", y: 200)]),
            Self.node("section", .section, children: [
                Self.node("h2", .heading, "More", children: [Self.node("h2t", .staticText, "More")]),
                Self.node("div", .section, children: [Self.link("a", "Alpha"), Self.link("b", "Beta")]),
            ]),
            Self.node("lonely", .list, "Only one", children: [Self.link("c", "Gamma")]),
        ])
        let model = ScanModel(tree: t)
        #expect(Self.labels(model) == ["Home", "News", "Alpha", "Beta", "Gamma"])  // document order, not frames
        #expect(model.groups.map(\.label) == ["Switch test form", "Site", "More"])
        #expect(model.groups.map { $0.items.count } == [5, 2, 2])
        #expect(model.items.last?.group == 0)  // Gamma: its one-item list dissolved into the page
    }

    /// Out of view: an item keeps its place without a frame (choosing it scrolls it into view); a
    /// part gets a line along the viewport's edge (the overlay's tab); what is on screen is clipped
    /// to the viewport.
    @Test func outOfViewItemsAndPartsAndClipping() {
        let below = Self.node("far", .landmark, "Section 12", states: [.visible, .enabled], frame: (10, 4000, 1500, 300), children: [
            Self.link("x", "Item 12.1", y: 4010, states: Self.outOfView), Self.link("y", "Item 12.2", y: 4040, states: Self.outOfView),
        ])
        let above = Self.node("top", .landmark, "Section 1", states: [.visible, .enabled], frame: (10, -900, 1500, 300), children: [
            Self.link("u", "Item 1.1", y: -890, states: Self.outOfView), Self.link("v", "Item 1.2", y: -860, states: Self.outOfView),
        ])
        let straddling = Self.node("cut", .pushButton, "Wide", states: Self.focusable, frame: (0, 820, 100, 60), actions: ["press"])
        let t = Self.page([above, Self.link("home", "Home"), Self.link("news", "News"), straddling, below])
        let model = ScanModel(tree: t)
        #expect(Self.labels(model) == ["Item 1.1", "Item 1.2", "Home", "News", "Wide", "Item 12.1", "Item 12.2"])
        #expect(model.items.map { $0.element.frame == nil } == [true, true, false, false, false, true, true])
        #expect(model.items[4].element.frame == Rect(x: 10, y: 820, width: 90, height: 30))
        let top = model.groups.firstIndex { $0.label == "Section 1" }!, bottom = model.groups.firstIndex { $0.label == "Section 12" }!
        #expect(model.groups[top].frame == Rect(x: 10, y: 150, width: 1600, height: 0))
        #expect(model.groups[bottom].frame == Rect(x: 10, y: 850, width: 1600, height: 0))
        #expect(OffscreenTab.direction(ofGroup: top, in: model) == .above)
        #expect(OffscreenTab.direction(ofGroup: bottom, in: model) == .below)
        #expect(OffscreenTab.direction(ofGroup: 0, in: model) == nil)  // the page itself is on screen
        // Choosing an item out of view scrolls it into view first.
        let far = DesktopNodeInfo(node: Self.link("x", "Item 12.1", y: 4010, states: Self.outOfView), parent: nil, index: 0)
        #expect(DesktopPerformPlan.step(for: Perform(.activate, id: "x", label: "Item 12.1"), lookup: { _ in far }) == .scrollIntoViewThenActivate(id: "x"))
        let near = DesktopNodeInfo(node: Self.link("home", "Home"), parent: nil, index: 0)
        #expect(DesktopPerformPlan.step(for: Perform(.activate, id: "home", label: "Home"), lookup: { _ in near }) == .doAction(id: "home", index: 0, name: "jump"))
    }

    /// Firefox's document says (-1, -1, -1, -1): the viewport is its browser's content area.
    @Test func firefoxDocumentWithoutExtentsUsesTheContentArea() {
        let doc = Self.node("doc", .documentWeb, "Page", states: Self.focusable, frame: (-1, -1, -1, -1),
                            children: [Self.link("home", "Home", y: 80), Self.link("far", "Far", y: 2000, states: Self.outOfView)])
        var frame = AtspiNode(id: "if", role: .internalFrame, states: Self.shown, interfaces: [.component],
                              extents: AtspiRect(x: 0, y: 85, width: 1600, height: 815), children: [doc])
        frame.children[0].inDocument = true
        let window = AtspiNode(id: "w", role: .frame, name: "Page — Mozilla Firefox", states: Self.shown, interfaces: [.component],
                               extents: AtspiRect(x: 0, y: 0, width: 1600, height: 900), children: [frame])
        let t = AtspiMapping.tree(AtspiNode(id: ":1.1/root", role: .application, name: "Firefox", children: [window]), screen: Size(width: 1600, height: 900))
        let items = ScanModel(tree: t).items
        #expect(items.map(\.id) == ["home", "far"])
        #expect(items[0].element.frame == Rect(x: 20, y: 85, width: 60, height: 15))  // clipped at the content area's top
        #expect(items[1].element.frame == nil)
    }

    /// A page's order: the order query's list, and an item of another role (a focusable div) just
    /// before the next item that list holds.
    @Test func documentOrderPlacesUnlistedItems() {
        #expect(PageJob.documentOrder(order: ["nav", "a", "b", "list", "c"], items: ["a", "div", "b", "c", "last"])
                == ["nav", "a", "div", "b", "list", "c", "last"])
        #expect(PageJob.documentOrder(order: ["a", "b"], items: ["a", "b"]) == ["a", "b"])
    }

    @Test func bulletsAndMarkers() {
        func text(_ s: String) -> AtspiNode { Self.node("t", .staticText, s) }
        for s in ["•", "◦", "1.", "12)", "iv.", "a)", "- "] { #expect(WebGroups.isBullet(text(s)), "\(s)") }
        for s in ["Item", "1.5", "Home.", "Next page"] { #expect(!WebGroups.isBullet(text(s)), "\(s)") }
    }

    @Test func offscreenTabPlacement() {
        let screen = PixelRect(x: 0, y: 0, width: 1600, height: 900)
        #expect(OffscreenTab.origin(edge: PixelRect(x: 10, y: 150, width: 1600, height: 1), direction: .above, tabWidth: 200, tabHeight: 30, screen: screen) == (18, 150))
        #expect(OffscreenTab.origin(edge: PixelRect(x: 10, y: 850, width: 1600, height: 1), direction: .below, tabWidth: 200, tabHeight: 30, screen: screen) == (18, 820))
        #expect(OffscreenTab.text(.below, label: "Section 12") == "▼ Section 12")
        #expect(OffscreenTab.text(.above, label: nil) == "▲ Out of view")
    }
}
