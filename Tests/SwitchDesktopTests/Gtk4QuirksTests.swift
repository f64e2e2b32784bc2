import SwitchCore
@testable import SwitchDesktop
import Testing

/// GTK 4's bridge made to read like GTK 3's (`Gtk4Quirks`), on plain node values shaped as
/// `atspi-probe dump` shows gnome-calculator 43 and gtk4-widget-factory (GTK 4.8), and as a newer
/// GTK 4 that sets SHOWING would give them.
@Suite struct Gtk4QuirksTests {
    /// GTK 4.8: VISIBLE and SENSITIVE, never SHOWING below the window; every node has the Action
    /// interface.
    static let visible: AtspiStates = [.visible, .sensitive, .enabled]
    static let all: AtspiInterfaces = [.action, .component]

    static func node(_ id: String, _ role: AtspiRole, _ name: String = "", description: String = "",
                     states: AtspiStates = visible, interfaces: AtspiInterfaces = all,
                     frame: (Int32, Int32, Int32, Int32)? = (0, 0, 10, 10), actions: [String] = [],
                     children: [AtspiNode] = []) -> AtspiNode {
        AtspiNode(id: id, role: role, name: name, description: description, states: states, interfaces: interfaces,
                  extents: frame.map { AtspiRect(x: $0.0, y: $0.1, width: $0.2, height: $0.3) }, actions: actions, children: children)
    }

    static let labelActions = ["clipboard.copy", "selection.delete", "clipboard.paste", "link.open", "clipboard.cut",
                               "link.copy", "menu.popup", "selection.select-all"]

    /// A calculator-shaped window 355×486 at the window's own (0, 0).
    static func app(_ content: [AtspiNode], windowStates: AtspiStates = [.visible, .sensitive, .showing, .active],
                    origin: AtspiPoint? = nil) -> AtspiNode {
        var window = node("w", .frame, "Calculator", states: windowStates, frame: (0, 0, 355, 486),
                          actions: ["win.undo", "window.close", "default.activate"], children: content)
        window.windowOrigin = origin
        return AtspiNode(id: ":1.1/root", role: .application, name: "gnome-calculator", children: [window])
    }

    static func key(_ id: String, _ digit: String, x: Int32, y: Int32, description: String = "") -> AtspiNode {
        node(id, .pushButton, digit + " " + digit, description: description, states: visible.union(.focusable),
             frame: (x, y, 55, 40), actions: ["click"], children: [node(id + "-label", .label, digit, frame: (x, y, 55, 40), actions: labelActions)])
    }

    static func normalized(_ app: AtspiNode, picks: [String: String] = [:]) -> AtspiNode {
        var a = app
        Gtk4Quirks.normalize(&a, picks: picks, inferShowing: !Gtk4Quirks.setsShowing(app))
        return a
    }

    static func items(_ app: AtspiNode) -> [String] {
        ScanModel(tree: AtspiMapping.tree(normalized(app), screen: Size(width: 1600, height: 900))).items.map {
            "\($0.element.label ?? "-") \($0.element.frame.map { "\($0)" } ?? "no frame")"
        }
    }

    /// Visible with an extent inside the window is showing; buttons named twice are read once,
    /// a type name gives way to the description (without its shortcut), labels' clipboard actions
    /// make nothing a button, and the window's GActions are nobody's menu entries.
    /// GTK 4.8 reports a button's content box: a window with `buttonPadding` (the reader sets
    /// it for 4.8) has its buttons' frames grown by Adwaita's padding and border, (17, 5) a side,
    /// never past the button's parent, and moved to the screen with the rest; other roles and
    /// the tree read are left as the toolkit said.
    @Test func gtk48ButtonsAreGrownToTheirBorderBoxWithinTheirParent() {
        let press = Self.node("press", .pushButton, "Press me", states: Self.visible.union([.showing, .focusable]), frame: (39, 27, 1202, 24), actions: ["click"])
        let edge = Self.node("edge", .pushButton, "Edge", states: Self.visible.union([.showing, .focusable]), frame: (25, 100, 60, 24), actions: ["click"])
        let entry = Self.node("entry", .entry, "Type here", states: Self.visible.union([.showing, .focusable, .editable]), frame: (31, 67, 1218, 32))
        let box = Self.node("box", .filler, states: Self.visible.union(.showing), frame: (22, 22, 1236, 200), children: [press, edge, entry])
        var app = Self.app([box], origin: AtspiPoint(x: 2, y: 2))
        app.children[0].extents = AtspiRect(x: 0, y: 0, width: 1276, height: 796)
        app.children[0].buttonPadding = Gtk4Quirks.buttonPadding
        let frames = Dictionary(uniqueKeysWithValues: ScanModel(tree: AtspiMapping.tree(app, screen: Size(width: 1280, height: 800))).items.map {
            ($0.element.label ?? "", $0.element.frame)
        })
        #expect(frames["Press me"] == Rect(x: 2 + 22, y: 2 + 22, width: 1236, height: 34))
        #expect(frames["Edge"] == Rect(x: 2 + 22, y: 2 + 95, width: 60 + 17 + 3, height: 34), "clipped to its parent on the left")
        #expect(frames["Type here"] == Rect(x: 2 + 31, y: 2 + 67, width: 1218, height: 32), "not a button: as said")
        #expect(app.children[0].children[0].children[0].extents == AtspiRect(x: 39, y: 27, width: 1202, height: 24), "the read tree is untouched")
    }

    @Test func calculatorKeysAreItemsWithTheirNamesOnce() {
        let keypad = Self.node("pad", .panel, frame: (12, 238, 331, 236), actions: ["cal.solve", "cal.clear"], children: [
            Self.key("k2", "2", x: 83, y: 384), Self.key("k3", "3", x: 150, y: 384),
            Self.node("pi", .pushButton, "GtkButton", description: "Pi [Ctrl+P]", states: Self.visible.union(.focusable),
                      frame: (284, 240, 55, 40), actions: ["click"], children: [Self.node("pil", .label, "π", frame: (284, 240, 55, 40), actions: Self.labelActions)]),
            Self.node("plus", .pushButton, "+ +", description: "Add [+]", states: Self.visible.union(.focusable), frame: (217, 432, 55, 40), actions: ["click"]),
        ])
        let display = Self.node("display", .text, "GtkSourceView", states: Self.visible.union([.editable, .focusable, .focused]),
                                interfaces: [.action, .component, .text, .editableText], frame: (0, 166, 343, 32), actions: Self.labelActions)
        let heading = Self.node("title", .label, "Calculator", frame: (10, 10, 80, 20), actions: Self.labelActions)
        let t = AtspiMapping.tree(Self.normalized(Self.app([heading, display, keypad])), screen: Size(width: 1600, height: 900))
        let model = ScanModel(tree: t)
        #expect(model.items.map { $0.element.label ?? "-" } == ["-", "Pi", "2", "3", "+"])
        #expect(model.items.map(\.id) == ["display", "pi", "k2", "k3", "plus"])
        #expect(model.items.first { $0.id == "plus" }?.element.hint == "Add [+]")
        #expect(model.items.allSatisfy { $0.element.customActions.isEmpty && $0.containerActions.isEmpty })
        // The label is read (a static text), not operated.
        #expect(model.accessibilityElements.contains { $0.id == "title" && $0.traits == .staticText })
    }

    /// GtkMenuButton: an outer push button with the Action interface but no action and no focus,
    /// holding the real (inner) button: one item, the inner one.
    @Test func menuButtonsInnerButtonIsOneItem() {
        let outer = Self.node("outer", .pushButton, "GtkMenuButton", description: "Mode selection", frame: (105, 6, 78, 34), children: [
            Self.node("inner", .pushButton, "Basic", states: Self.visible.union(.focusable), frame: (114, 11, 60, 24), actions: ["click"], children: [
                Self.node("panel", .panel, frame: (114, 11, 60, 24), children: [Self.node("l", .label, "Basic", frame: (114, 11, 40, 24), actions: Self.labelActions)]),
            ]),
        ])
        let primary = Self.node("pOuter", .pushButton, "GtkMenuButton", description: "Primary menu", frame: (201, 6, 34, 34), children: [
            Self.node("pInner", .pushButton, "GtkMenuButton", description: "Primary menu", states: Self.visible.union(.focusable),
                      frame: (206, 11, 24, 24), actions: ["click"]),
        ])
        #expect(Self.items(Self.app([outer, primary])) == ["Basic [114, 11, 60, 24]", "Primary menu [206, 11, 24, 24]"])
    }

    /// An empty extent, or one outside the window, is not showing; nor is anything below a node
    /// that is not.
    @Test func emptyOrOutsideExtentsAreNotShowing() {
        let t = Self.app([
            Self.node("a", .pushButton, "Shown", states: Self.visible.union(.focusable), frame: (10, 10, 50, 20), actions: ["click"]),
            Self.node("b", .pushButton, "Unmapped", states: Self.visible.union(.focusable), frame: (10, 56, 0, 0), actions: ["click"]),
            Self.node("c", .pushButton, "Outside", states: Self.visible.union(.focusable), frame: (400, 10, 50, 20), actions: ["click"]),
            Self.node("d", .panel, frame: (0, 0, 0, 0), children: [
                Self.node("e", .pushButton, "Inside a hidden box", states: Self.visible.union(.focusable), frame: (10, 40, 50, 20), actions: ["click"]),
            ]),
            Self.node("f", .pushButton, "Not visible", states: [.sensitive, .focusable], frame: (10, 70, 50, 20), actions: ["click"]),
        ])
        #expect(Self.items(t) == ["Shown [10, 10, 50, 20]"])
    }

    /// A stack's pages are laid out on the same rectangle; a page shown before keeps its extents.
    /// The toolkit's hit test at their centre lands in the showing page: the others are left out.
    /// Without an answer, both stay.
    @Test func hiddenStackPageIsLeftOut() {
        func page(_ id: String, _ label: String) -> AtspiNode {
            Self.node(id, .panel, frame: (10, 56, 300, 200), children: [
                Self.node(id + "-b1", .pushButton, label + " one", states: Self.visible.union(.focusable), frame: (20, 60, 80, 24), actions: ["click"]),
                Self.node(id + "-b2", .pushButton, label + " two", states: Self.visible.union(.focusable), frame: (20, 100, 80, 24), actions: ["click"]),
            ])
        }
        let stack = Self.node("stack", .panel, frame: (10, 56, 300, 200), children: [page("p1", "First"), page("p2", "Second"),
                                                                                     Self.node("p3", .panel, frame: (10, 56, 0, 0))])
        let app = Self.app([stack])
        let asked = Gtk4Quirks.ambiguousStacks(app)
        #expect(asked.map(\.window) == ["w"])
        #expect(asked.map(\.point) == [AtspiPoint(x: 160, y: 156)])
        let picked = Self.normalized(app, picks: [asked[0].id: "p2-b2"])
        #expect(ScanModel(tree: AtspiMapping.tree(picked, screen: Size(width: 1600, height: 900))).items.map(\.id) == ["p2-b1", "p2-b2"])
        let unanswered = Self.normalized(app)
        #expect(ScanModel(tree: AtspiMapping.tree(unanswered, screen: Size(width: 1600, height: 900))).items.map(\.id) == ["p1-b1", "p1-b2", "p2-b1", "p2-b2"])
    }

    /// A newer GTK 4 sets SHOWING itself: then nothing is inferred, and what it does not say
    /// shows (a hidden page with old extents) stays hidden.
    @Test func newerGtk4SetsShowingItself() {
        let shown = Self.visible.union([.showing, .focusable])
        let app = Self.app([
            Self.node("page1", .panel, states: Self.visible.union(.showing), frame: (10, 56, 300, 200), children: [
                Self.node("a", .pushButton, "Shown", states: shown, frame: (20, 60, 80, 24), actions: ["click"]),
            ]),
            Self.node("page2", .panel, states: Self.visible, frame: (10, 56, 300, 200), children: [
                Self.node("b", .pushButton, "Hidden page", states: Self.visible.union(.focusable), frame: (20, 60, 80, 24), actions: ["click"]),
            ]),
        ])
        #expect(Gtk4Quirks.setsShowing(app))
        #expect(Self.items(app) == ["Shown [20, 60, 80, 24]"])
        #expect(Gtk4Quirks.setsShowing(Self.app([Self.key("k", "1", x: 0, y: 0)])) == false)
    }

    /// Extents relative to the window are moved by the window's origin on the screen.
    @Test func windowOriginMakesFramesScreenRelative() {
        let app = Self.app([Self.key("k2", "2", x: 83, y: 384)], origin: AtspiPoint(x: 305, y: 205))
        #expect(Self.items(app) == ["2 [388, 589, 55, 40]"])
        let info = DesktopNodeInfo(node: Self.key("k2", "2", x: 83, y: 384), parent: nil, index: 0, origin: AtspiPoint(x: 305, y: 205))
        #expect(info.screenFrame == Rect(x: 388, y: 589, width: 55, height: 40))
    }

    @Test func namesTypeNamesDoublesAndMnemonics() {
        #expect(Gtk4Quirks.isTypeName("GtkMenuButton", role: .pushButton))
        #expect(Gtk4Quirks.isTypeName("GtkSourceView", role: .text))
        #expect(Gtk4Quirks.isTypeName("AdwGizmo", role: .filler))
        #expect(Gtk4Quirks.isTypeName("HistoryView", role: .filler))
        #expect(!Gtk4Quirks.isTypeName("HistoryView", role: .label))  // a label's name is its text
        #expect(!Gtk4Quirks.isTypeName("Gtk", role: .pushButton))
        #expect(!Gtk4Quirks.isTypeName("Calculator", role: .frame))
        #expect(!Gtk4Quirks.isTypeName("Open File", role: .pushButton))
        #expect(Gtk4Quirks.undoubled("2 2") == "2")
        #expect(Gtk4Quirks.undoubled("mod mod") == "mod")
        #expect(Gtk4Quirks.undoubled("_Inform Inform") == "Inform")
        #expect(Gtk4Quirks.undoubled("Open File Open File") == "Open File")
        #expect(Gtk4Quirks.undoubled("2 3") == "2 3")
        #expect(Gtk4Quirks.withoutMnemonic("Page _1") == "Page 1")
        #expect(Gtk4Quirks.withoutMnemonic("a__b") == "a_b")
        #expect(Gtk4Quirks.withoutAccelerator("Pi [Ctrl+P]") == "Pi")
        #expect(Gtk4Quirks.withoutAccelerator("[x]") == "[x]")
        #expect(Gtk4Quirks.isContextAction("clipboard.copy", container: false))
        #expect(!Gtk4Quirks.isContextAction("click", container: false))
        #expect(Gtk4Quirks.isContextAction("win.close", container: true))
        #expect(!Gtk4Quirks.isContextAction("scroll down", container: true))
    }
}
