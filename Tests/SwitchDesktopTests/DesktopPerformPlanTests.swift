import SwitchCore
@testable import SwitchDesktop
import Testing

/// What a perform becomes on the desktop (DesktopPerformPlan.swift's header).
@Suite struct DesktopPerformPlanTests {
    typealias N = AtspiMappingTests

    static let count = N.node(":1.5/b", .pushButton, "Count", interfaces: N.button, frame: (8, 29, 464, 34), actions: ["click", "press"])
    static let tabs = N.node(":1.5/tabs", .pageTabList, interfaces: [.selection, .component], children: [
        N.node(":1.5/t0", .pageTab, "General"), N.node(":1.5/t1", .pageTab, "Advanced"),
    ])
    static let slider = N.node(":1.5/s", .slider, "Volume", states: N.shown.union(.focusable), interfaces: [.value, .component], frame: (8, 126, 464, 45))
    static let icon = N.node(":1.5/i", .icon, "Refresh", frame: (340, 150, 16, 16))
    static let list = N.node(":1.5/l", .list, "Files", interfaces: N.button, actions: ["scroll down"])
    static let menuButton = N.node(":1.5/m", .pushButton, "Open", interfaces: N.button, frame: (8, 300, 100, 30), actions: ["click", "ShowMenu"])
    static let entry = N.node(":1.5/e", .text, "Name", states: N.shown.union([.editable, .focusable]), interfaces: [.action, .text, .component], actions: ["activate"])
    static let terminal = N.node(":1.5/vte", .terminal, "Terminal", states: N.shown.union(.focusable), interfaces: [.action, .text, .component], actions: ["menu"])

    static func lookup(_ id: String) -> DesktopNodeInfo? {
        switch id {
        case count.id: return DesktopNodeInfo(node: count, parent: nil, index: 0)
        case ":1.5/t1": return DesktopNodeInfo(node: tabs.children[1], parent: tabs, index: 1)
        case slider.id: return DesktopNodeInfo(node: slider, parent: nil, index: 0)
        case icon.id: return DesktopNodeInfo(node: icon, parent: nil, index: 0)
        case list.id: return DesktopNodeInfo(node: list, parent: nil, index: 0)
        case menuButton.id: return DesktopNodeInfo(node: menuButton, parent: nil, index: 0)
        case entry.id: return DesktopNodeInfo(node: entry, parent: nil, index: 0)
        case terminal.id: return DesktopNodeInfo(node: terminal, parent: nil, index: 0)
        default: return nil
        }
    }

    func step(_ p: Perform) -> DesktopStep { DesktopPerformPlan.step(for: p, lookup: Self.lookup) }

    @Test func activateIsTheDefaultAction() {
        #expect(step(Perform(.activate, id: ":1.5/b", label: "", point: Point(x: 1, y: 1))) == .doAction(id: ":1.5/b", index: 0, name: "click"))
    }

    @Test func activateATabSelectsItInItsList() {
        #expect(step(Perform(.activate, id: ":1.5/t1", label: "")) == .selectTab(listID: ":1.5/tabs", index: 1))
    }

    @Test func activateWithoutActionFocusesAndClicksAtTheActivationPoint() {
        #expect(step(Perform(.activate, id: ":1.5/i", label: "", point: Point(x: 341, y: 151))) == .click(id: ":1.5/i", at: Point(x: 341, y: 151)))
        #expect(step(Perform(.activate, id: ":1.5/i", label: "")) == .click(id: ":1.5/i", at: Point(x: 348, y: 158)))
    }

    /// A field to type in is focused for the keyboard: a GTK entry's "activate" action is Enter,
    /// a terminal's first action opens its menu.
    @Test func activateAFieldToTypeInFocusesIt() {
        #expect(step(Perform(.activate, id: ":1.5/e", label: "")) == .focusField(id: ":1.5/e"))
        #expect(step(Perform(.activate, id: ":1.5/vte", label: "")) == .focusField(id: ":1.5/vte"))
    }

    @Test func activateASliderOnlyFocusesIt() {
        #expect(step(Perform(.activate, id: ":1.5/s", label: "", point: Point(x: 240, y: 148))) == .focus(id: ":1.5/s"))
    }

    @Test func activateAPointWithoutAnElementClicksThere() {
        #expect(step(Perform(.activate, id: "gone", label: "", point: Point(x: 5, y: 6))) == .click(id: nil, at: Point(x: 5, y: 6)))
        #expect(step(Perform(.activate, id: "gone", label: "")) == .fail("the element is no longer on screen"))
    }

    @Test func customActionsByName() {
        #expect(step(Perform(.custom("press"), id: ":1.5/b", label: "")) == .doAction(id: ":1.5/b", index: 1, name: "press"))
        #expect(step(Perform(.custom("click"), id: ":1.5/b", label: "")) == .fail("it has no action \"click\""))  // the default is Tap
        #expect(step(Perform(.custom("scroll down"), id: ":1.5/l", label: "")) == .doAction(id: ":1.5/l", index: 0, name: "scroll down"))
    }

    @Test func incrementAndDecrementStepTheValue() {
        #expect(step(Perform(.increment, id: ":1.5/s", label: "")) == .stepValue(id: ":1.5/s", up: true))
        #expect(step(Perform(.decrement, id: ":1.5/s", label: "")) == .stepValue(id: ":1.5/s", up: false))
        #expect(step(Perform(.increment, id: ":1.5/b", label: "")) == .fail("it has no value to adjust"))
    }

    @Test func escapeIsTheEscapeKey() {
        #expect(step(Perform(.escape, id: "anything", label: "")) == .escapeKey)
    }

    @Test func valueStepsByTheMinimumIncrementOrATenth() {
        #expect(AtspiValue(current: 40, minimum: 0, maximum: 100, increment: 5).stepped(up: true) == 45)
        #expect(AtspiValue(current: 0.5, minimum: 0, maximum: 1, increment: 0).stepped(up: false) == 0.4)
        #expect(AtspiValue(current: 98, minimum: 0, maximum: 100, increment: 5).stepped(up: true) == 100)
        #expect(AtspiValue(current: 1, minimum: 1, maximum: 1000, increment: 1).stepped(up: false) == 1)
    }

    // MARK: The scanner menu's gestures and keys (issue 23)

    @Test func rightClickUsesTheContextMenuActionFirst() {
        #expect(step(Perform(.rightClick, id: ":1.5/m", label: "", point: Point(x: 58, y: 315))) == .doAction(id: ":1.5/m", index: 1, name: "ShowMenu"))
        // Without one (or without the element): a real right click at the point.
        guard case .pointer(let ops, let how) = step(Perform(.rightClick, id: ":1.5/b", label: "", point: Point(x: 240, y: 46))) else {
            return #expect(Bool(false), "not a pointer gesture")
        }
        #expect(ops.map(\.op) == [.move(Point(x: 240, y: 46)), .button(.right, down: true), .button(.right, down: false)])
        #expect(how == "right click at (240, 46)")
        #expect(step(Perform(.rightClick, id: "gone", label: "")) == .fail("no point to rightClick at"))
    }

    @Test func menuActionNamesAreMatchedLoosely() {
        for name in ["ShowMenu", "menu", "popup menu", "Show_Context_Menu", "context-menu"] { #expect(DesktopPerformPlan.isMenuAction(name)) }
        for name in ["click", "activate", "menubar"] { #expect(!DesktopPerformPlan.isMenuAction(name)) }
    }

    @Test func gesturesAreTimedPointerOperations() {
        guard case .pointer(let ops, let how) = DesktopPerformPlan.step(for: Perform(.hold, id: ":1.5/b", label: "", point: Point(x: 5, y: 6)),
                                                                        lookup: Self.lookup, holdTime: .seconds(2)) else {
            return #expect(Bool(false), "not a pointer gesture")
        }
        #expect(ops.last == TimedPointerOp(after: .seconds(2), .button(.left, down: false)))
        #expect(how == "button held 2 s at (5, 6)")
    }

    @Test func keysAreSentWhateverTheElementAndLockScreenIsNotTheDesktops() {
        #expect(step(Perform(.key("Ctrl+C"), id: "gone", label: "")) == .keys("Ctrl+C"))
        #expect(step(Perform(.lockScreen, id: ":1.5/b", label: "")) == .elsewhere)
    }
}
