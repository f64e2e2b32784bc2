import SwitchCore

/// What the live desktop does for one `perform` line (pure; `DesktopPerformer` carries it out and
/// writes the result line). Activate: the element's default action (index 0); a page tab: select
/// it through its tab list's Selection interface (GTK3's tabs have no action); an element without
/// any action: focus it, then a real pointer click at its activation point (XTest), except an
/// adjustable one (a slider), which is only focused: a click would set its value to wherever it
/// lands; a point with no element there: a click at the point; a web page's element out of view:
/// scrolled into view first. A custom action: the action of that name. Increment /
/// decrement: the Value moved by its minimum increment (a tenth of the range when that is 0).
/// Escape: the Escape key. The scanner menu's gestures: XTest pointer operations over time, Right
/// click the element's context-menu action first where it has one; its keys: XTest by keysym.
public enum DesktopStep: Equatable, Sendable {
    case doAction(id: String, index: Int, name: String)
    case selectTab(listID: String, index: Int)
    case stepValue(id: String, up: Bool)
    /// Focus `id` (when given), then click at the point.
    case click(id: String?, at: Point)
    /// Focus only: an adjustable element without an action (a click on a GTK slider would move
    /// its value to where the click lands).
    case focus(id: String)
    case escapeKey
    /// Nothing can be done; why.
    case fail(String)
    /// A web page's element out of view: scrolled into view (`Component.ScrollTo`), then its
    /// default action (its actions are read then: they were not while it was out of view), else
    /// a click where it landed.
    case scrollIntoViewThenActivate(id: String)
    // Issue 23: the scanner menu's gestures and keys.
    /// A pointer gesture through XTest, over time (`PointerGesture`); `how` for the result line.
    case pointer([TimedPointerOp], how: String)
    /// A key combination by keysym through the current layout (`KeyCombo`'s text).
    case keys(String)
    /// Not the desktop's to do (Lock screen: its own adapter runs loginctl and answers).
    case elsewhere
}

/// Where a node sits in the tree that was read: what the plan needs to know about it.
public struct DesktopNodeInfo: Equatable, Sendable {
    public var node: AtspiNode
    public var parent: AtspiNode?
    /// Index among the parent's children as read.
    public var index: Int
    /// Its window's origin on the screen when its extents are relative to the window (GTK 4).
    public var origin: AtspiPoint?

    public init(node: AtspiNode, parent: AtspiNode?, index: Int, origin: AtspiPoint? = nil) {
        self.node = node
        self.parent = parent
        self.index = index
        self.origin = origin
    }

    /// The node's frame on the screen.
    public var screenFrame: Rect? {
        guard var f = node.extents?.frame else { return nil }
        if let o = origin {
            f.x += Double(o.x)
            f.y += Double(o.y)
        }
        return f
    }
}

public enum DesktopPerformPlan {
    /// Accessible action names that open an element's context menu (Qt's ShowMenu, ATK's
    /// "menu"/"popup menu"), compared without case or spaces: Right click uses one before a real
    /// click (issue 23).
    static let menuActions: Set<String> = ["showmenu", "menu", "popupmenu", "contextmenu", "showcontextmenu"]

    static func isMenuAction(_ name: String) -> Bool {
        menuActions.contains(name.lowercased().filter { !$0.isWhitespace && $0 != "_" && $0 != "-" })
    }

    /// The step for `perform`, with `lookup` giving what was read for an id (nil: not in the tree).
    /// `holdTime`: how long Hold keeps the button down (the profile's `menu.holdTime`).
    public static func step(for perform: Perform, lookup: (String) -> DesktopNodeInfo?, holdTime: Interval = .seconds(1)) -> DesktopStep {
        if case .escape = perform.action { return .escapeKey }
        switch perform.action {
        case .key(let keys):
            return .keys(keys)
        case .lockScreen:
            return .elsewhere
        case .rightClick:
            // The element's own context-menu action first, where it has one.
            if let n = lookup(perform.id)?.node, let k = n.actions.firstIndex(where: isMenuAction) {
                return .doAction(id: n.id, index: k, name: n.actions[k])
            }
            fallthrough
        case .doubleClick, .middleClick, .hold, .drag, .scroll:
            guard let ops = PointerGesture.ops(for: perform, holdTime: holdTime) else {
                return .fail("no point to \(perform.action.name) at")
            }
            return .pointer(ops, how: PointerGesture.describe(perform, holdTime: holdTime))
        case .tap, .activate, .custom, .increment, .decrement, .escape:
            break
        }
        guard let info = lookup(perform.id) else {
            if perform.action == .activate || perform.action == .tap, let point = perform.point { return .click(id: nil, at: point) }
            return .fail("the element is no longer on screen")
        }
        let n = info.node
        switch perform.action {
        case .activate:
            if n.inDocument && !n.states.contains(.showing) { return .scrollIntoViewThenActivate(id: n.id) }
            if n.role == .pageTab, let list = info.parent, list.role == .pageTabList, list.interfaces.contains(.selection) {
                return .selectTab(listID: list.id, index: info.index)
            }
            if let name = n.actions.first { return .doAction(id: n.id, index: 0, name: name) }
            if n.interfaces.contains(.value) && n.states.contains(.focusable) { return .focus(id: n.id) }
            if let point = perform.point ?? info.screenFrame?.center { return .click(id: n.id, at: point) }
            return .fail("it has no action and no place on screen to click")
        case .custom(let name):
            let wanted = name.trimmed
            // An element's custom actions are its actions after the default one; a container offers
            // all of its actions.
            let first = AtspiMapping.kind(n) == .element ? 1 : 0
            if let k = n.actions.indices.first(where: { $0 >= first && n.actions[$0].trimmed == wanted }) {
                return .doAction(id: n.id, index: k, name: wanted)
            }
            return .fail("it has no action \"\(wanted)\"")
        case .increment, .decrement:
            guard n.interfaces.contains(.value) else { return .fail("it has no value to adjust") }
            return .stepValue(id: n.id, up: perform.action == .increment)
        case .tap:
            // A point tap (point scanning): a real click where it was aimed.
            if let point = perform.point ?? info.screenFrame?.center { return .click(id: n.id, at: point) }
            return .fail("it has no place on screen to click")
        case .escape:
            return .escapeKey
        case .rightClick, .doubleClick, .middleClick, .hold, .drag, .scroll, .key, .lockScreen:
            return .fail("\(perform.action.name) was planned above")  // not reached
        }
    }
}
