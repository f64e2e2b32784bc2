import SwitchCore
@testable import SwitchDesktop
import Testing

/// The AT-SPI → UIAccessibility mapping (docs/desktop.md "The AT-SPI mapping"), on plain node
/// values shaped like GTK 3's (roles, states and interfaces as `atspi-probe dump` shows them for
/// the test application and gtk3-widget-factory).
@Suite struct AtspiMappingTests {
    static let shown: AtspiStates = [.showing, .visible, .enabled, .sensitive]
    static let button: AtspiInterfaces = [.action, .component]

    static func node(_ id: String, _ role: AtspiRole, _ name: String = "", states: AtspiStates = shown,
                     interfaces: AtspiInterfaces = [.component], frame: (Int32, Int32, Int32, Int32)? = (0, 0, 10, 10),
                     actions: [String] = [], children: [AtspiNode] = []) -> AtspiNode {
        AtspiNode(id: id, role: role, name: name, states: states, interfaces: interfaces,
                  extents: frame.map { AtspiRect(x: $0.0, y: $0.1, width: $0.2, height: $0.3) }, actions: actions, children: children)
    }

    static func app(_ windows: [AtspiNode]) -> AtspiNode {
        AtspiNode(id: ":1.1/root", role: .application, name: "app", children: windows)
    }

    static func window(_ children: [AtspiNode], id: String = "w", states: AtspiStates = shown) -> AtspiNode {
        node(id, .frame, "Window", states: states, frame: (0, 0, 400, 600), children: children)
    }

    /// The elements in document order: id, label, value, traits.
    static func elements(_ tree: ElementTree) -> [String] {
        var out: [String] = []
        tree.forEachNode { e, _ in
            guard e.isElement else { return }
            var s = e.id + " " + (e.label ?? "-")
            if let v = e.value { s += " = " + v }
            if !e.traits.isEmpty { s += " [" + e.traits.nameList.joined(separator: ",") + "]" }
            out.append(s)
        }
        return out
    }

    /// The text-entry kinds of the tree's fields, in order.
    static func entries(_ tree: ElementTree) -> [Element.TextEntry] {
        var out: [Element.TextEntry] = []
        tree.forEachNode { e, _ in if let k = e.textEntry { out.append(k) } }
        return out
    }

    static func map(_ children: [AtspiNode]) -> ElementTree {
        AtspiMapping.tree(app([window(children)]), screen: Size(width: 1600, height: 900))
    }

    @Test func buttonsTogglesChecksAndRadios() {
        let t = Self.map([
            Self.node("count", .pushButton, "Count", interfaces: Self.button, actions: ["click"]),
            Self.node("bold", .toggleButton, "Bold", states: Self.shown.union(.checked), interfaces: Self.button, actions: ["click"]),
            Self.node("sound", .checkBox, "Sound", interfaces: Self.button, actions: ["click"]),
            Self.node("mixed", .checkBox, "Mixed", states: Self.shown.union(.indeterminate), interfaces: Self.button, actions: ["click"]),
            Self.node("large", .radioButton, "Large", states: Self.shown.union(.checked), interfaces: Self.button, actions: ["click"]),
            Self.node("link", .link, "Home", interfaces: Self.button, actions: ["jump"]),
        ])
        #expect(Self.elements(t) == [
            "count Count [button]", "bold Bold = on [button]", "sound Sound = not checked [button]",
            "mixed Mixed = mixed [button]", "large Large = checked [button]", "link Home [link]",
        ])
        #expect(ScanModel(tree: t).items.count == 6)
    }

    @Test func sliderIsAdjustableWithItsValueAndNoRepeatedHint() {
        var slider = Self.node("vol", .slider, "Volume", states: Self.shown.union(.focusable), interfaces: [.value, .component])
        slider.description = "40.0"
        slider.value = AtspiValue(current: 40, minimum: 0, maximum: 100, increment: 5)
        var bar = Self.node("p", .progressBar, interfaces: [.value, .component])
        bar.value = AtspiValue(current: 0.5, minimum: 0, maximum: 1, increment: 0)
        let t = Self.map([slider, bar])
        #expect(Self.elements(t) == ["vol Volume = 40 [adjustable]", "p - = 50% [updatesFrequently]"])
        let items = ScanModel(tree: t).items
        #expect(items.map(\.id) == ["vol"])  // a progress bar is read, not operated
        #expect(items[0].element.hint == nil)
    }

    @Test func entryLabelledByItsLabelRespondsWithoutATrait() {
        var entry = Self.node("e", .text, states: Self.shown.union([.editable, .focusable]), interfaces: [.action, .text, .component], actions: ["activate"])
        entry.labelledBy = "Name"
        entry.text = "Ada"
        var search = Self.node("s", .text, states: Self.shown.union([.editable, .focusable]), interfaces: [.text, .component])
        search.placeholder = "Search files"
        var secret = Self.node("pw", .passwordText, "Password", states: Self.shown.union(.editable), interfaces: [.text, .component])
        secret.text = "hunter2"
        let t = Self.map([entry, search, secret])
        #expect(Self.elements(t) == ["e Name = Ada", "s Search files [searchField]", "pw Password"])
        #expect(ScanModel(tree: t).items.map(\.id) == ["e", "s", "pw"])
        #expect(Self.entries(t) == [.singleLine, .singleLine, .password])
    }

    /// A terminal (VTE: Text, Action, no EditableText, not EDITABLE) is a field the keyboard
    /// opens on (a terminal's: no sentence capitals), not a button; its text is not its value.
    @Test func aTerminalIsAFieldToTypeIn() {
        var vte = Self.node("t", .terminal, "Terminal", states: Self.shown.union(.focusable), interfaces: [.action, .text, .component], actions: ["menu"])
        vte.text = "root@host:~# "
        let t = Self.map([vte])
        #expect(Self.elements(t) == ["t Terminal"])
        #expect(Self.entries(t) == [.terminal])
        #expect(ScanModel(tree: t).items.map(\.id) == ["t"])
    }

    @Test func informativeLeavesAreElementsButNotScanItems() {
        let t = Self.map([
            Self.node("h", .heading, "Settings"),
            Self.node("l", .label, "Clicked 0 times"),
            Self.node("i", .icon, "folder"),
            Self.node("unnamed", .label, ""),
            Self.node("sep", .separator),
        ])
        #expect(Self.elements(t) == ["h Settings [header]", "l Clicked 0 times [staticText]", "i folder [image]"])
        #expect(ScanModel(tree: t).items.isEmpty)
    }

    @Test func insensitiveIsNotEnabledAndNeverAStop() {
        let t = Self.map([Self.node("d", .pushButton, "Disabled", states: [.showing, .visible, .focusable], interfaces: Self.button, actions: ["click"])])
        #expect(Self.elements(t) == ["d Disabled [button,notEnabled]"])
        #expect(ScanModel(tree: t).items.isEmpty)
    }

    @Test func hiddenSubtreesAreDropped() {
        let hiddenPage = Self.node("page", .filler, states: [.visible, .enabled], children: [
            Self.node("reset", .pushButton, "Reset", states: [.visible, .enabled, .sensitive], interfaces: Self.button, actions: ["click"]),
        ])
        let t = Self.map([Self.node("ok", .pushButton, "OK", interfaces: Self.button, actions: ["click"]), hiddenPage])
        #expect(Self.elements(t) == ["ok OK [button]"])
    }

    /// GTK's notebook: tabs without actions, each holding its page; the showing page follows the
    /// whole tab list, which is a tab bar of the tabs alone.
    @Test func notebookTabsFormATabBarAndThePageFollowsIt() {
        let list = Self.node("tabs", .pageTabList, interfaces: [.selection, .component], frame: (8, 213, 464, 85), children: [
            Self.node("general", .pageTab, "General", states: Self.shown.union([.selectable, .selected]), frame: (29, 217, 51, 30), children: [
                Self.node("page1", .filler, frame: (15, 257, 450, 34), children: [
                    Self.node("apply", .pushButton, "Apply", interfaces: Self.button, frame: (15, 257, 450, 34), actions: ["click"]),
                ]),
            ]),
            Self.node("advanced", .pageTab, "Advanced", states: Self.shown.union(.selectable), frame: (112, 217, 64, 30), children: [
                Self.node("page2", .filler, states: [.visible], children: [
                    Self.node("reset", .pushButton, "Reset", states: [.visible], interfaces: Self.button, actions: ["click"]),
                ]),
            ]),
        ])
        let t = Self.map([list])
        #expect(Self.elements(t) == ["general General [button,selected]", "advanced Advanced [button]", "apply Apply [button]"])
        let window = t.root.children[0]
        #expect(window.children.map(\.id) == ["tabs", "apply"])
        #expect(window.children[0].traits == .tabBar)
        #expect(window.children[0].children.map(\.id) == ["general", "advanced"])
    }

    /// A combo box with an entry (gtk3-widget-factory): the combo is one element, its entry is
    /// lifted out next to it, its closed menu is hidden.
    @Test func operableDescendantsAreLiftedOutOfAnElement() {
        let combo = Self.node("combo", .comboBox, "", interfaces: Self.button, frame: (15, 61, 356, 34), actions: ["press"], children: [
            Self.node("menu", .menu, states: [.enabled], children: [Self.node("m1", .menuItem, "Donald", states: [.visible], interfaces: Self.button)]),
            Self.node("entry", .text, states: Self.shown.union([.editable, .focusable]), interfaces: [.text, .action, .component], frame: (15, 61, 320, 34), actions: ["activate"]),
        ])
        let t = Self.map([combo])
        #expect(Self.elements(t) == ["combo - [button]", "entry -"])
        #expect(ScanModel(tree: t).items.map(\.id) == ["combo", "entry"])
    }

    /// An element without a name speaks the words of what it hides (a button holding labels).
    @Test func unnamedElementTakesTheWordsItAbsorbs() {
        let t = Self.map([Self.node("b", .pushButton, interfaces: Self.button, actions: ["click"], children: [
            Self.node("l1", .label, "Open"), Self.node("l2", .label, "Ctrl+O"),
        ])])
        #expect(Self.elements(t) == ["b Open, Ctrl+O [button]"])
    }

    @Test func customActionsAreTheActionsAfterTheDefaultOne() {
        let cell = Self.node("c", .tableCell, "Andrea", states: Self.shown.union(.selectable), interfaces: Self.button,
                             actions: ["expand or contract", "edit", "activate", "edit", " "])
        let t = Self.map([cell])
        #expect(t.root.children[0].children[0].customActions == ["edit", "activate"])
    }

    @Test func containerRolesKeepTheirActionsAsCustomActions() {
        let list = Self.node("list", .list, "Files", interfaces: Self.button, frame: (0, 0, 200, 300), actions: ["scroll down", "scroll up"], children: [
            Self.node("a", .pushButton, "A", interfaces: Self.button, frame: (0, 0, 200, 20), actions: ["click"]),
            Self.node("b", .pushButton, "B", interfaces: Self.button, frame: (0, 20, 200, 20), actions: ["click"]),
        ])
        let model = ScanModel(tree: Self.map([list]))
        #expect(model.items.map(\.id) == ["a", "b"])
        #expect(model.items[0].containerActions.map(\.name) == ["scroll down", "scroll up"])
        #expect(model.items[0].containerActions.map(\.ownerID) == ["list", "list"])
    }

    /// GTK nests boxes: a chain of one-child containers is one container; a window, a modal
    /// dialog and a tab list are kept whatever they hold.
    @Test func oneChildChainsCollapseButWindowsAndModalsStay() {
        let deep = Self.node("f1", .filler, children: [Self.node("f2", .filler, children: [Self.node("f3", .panel, children: [
            Self.node("x", .pushButton, "X", interfaces: Self.button, actions: ["click"]),
            Self.node("y", .pushButton, "Y", interfaces: Self.button, actions: ["click"]),
        ])])])
        let dialog = Self.node("dlg", .dialog, "Confirm", states: Self.shown.union(.modal), children: [
            Self.node("f", .filler, children: [Self.node("ok", .pushButton, "OK", interfaces: Self.button, actions: ["click"])]),
        ])
        let t = AtspiMapping.tree(Self.app([Self.window([deep]), dialog]), screen: Size(width: 1600, height: 900))
        #expect(t.root.children.map(\.id) == ["w", "dlg"])
        #expect(t.root.children[0].children.map(\.id) == ["f3"])
        #expect(t.root.children[1].viewIsModal)
        #expect(t.root.children[1].children.map(\.id) == ["ok"])
        let model = ScanModel(tree: t)
        #expect(model.scopeID == "dlg")
        #expect(model.items.map(\.id) == ["ok"])
    }

    @Test func framesFromExtentsOffScreenIsNone() {
        let t = Self.map([
            Self.node("on", .pushButton, "On", interfaces: Self.button, frame: (8, 29, 464, 34), actions: ["click"]),
            Self.node("off", .pushButton, "Off", interfaces: Self.button, frame: (Int32.min, Int32.min, 1, 1), actions: ["click"]),
        ])
        let items = ScanModel(tree: t).items
        #expect(items.map(\.element.frame) == [Rect(x: 8, y: 29, width: 464, height: 34), nil])
        #expect(t.screen == Size(width: 1600, height: 900))
        #expect(t.root.id == ":1.1/root")
    }

    @Test func applicationWithoutWindowsIsAnEmptyTree() {
        let t = AtspiMapping.tree(Self.app([Self.window([], states: [.visible])]), screen: Size(width: 10, height: 10))
        #expect(t.root.children.isEmpty)
        #expect(ScanModel(tree: t).items.isEmpty)
    }

    /// The reader fetches details only for what the tree keeps: elements and kept containers.
    @Test func plannedIDsAreTheKeptNodes() {
        let deep = Self.node("f1", .filler, children: [Self.node("f2", .filler, children: [
            Self.node("x", .pushButton, "X", interfaces: Self.button, actions: ["click"]),
            Self.node("y", .pushButton, "Y", interfaces: Self.button, actions: ["click"], children: [Self.node("ylabel", .label, "Y")]),
        ])])
        let ids = AtspiMapping.plannedIDs(Self.app([Self.window([deep, Self.node("sep", .separator)])]))
        #expect(ids == [":1.1/root", "w", "f2", "x", "y"])
    }
}
