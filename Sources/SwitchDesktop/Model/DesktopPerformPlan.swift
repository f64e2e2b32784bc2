import SwitchCore

/// What the live desktop does for one `perform` line (pure; `DesktopPerformer` carries it out and
/// writes the result line). Activate: the element's default action (index 0); a page tab: select
/// it through its tab list's Selection interface (GTK3's tabs have no action); an element without
/// any action: focus it, then a real pointer click at its activation point (XTest), except an
/// adjustable one (a slider), which is only focused: a click would set its value to wherever it
/// lands; a point with no element there: a click at the point; a web page's element out of view:
/// scrolled into view first. A custom action: the action of that name. Increment /
/// decrement: the Value moved by its minimum increment (a tenth of the range when that is 0).
/// Escape: the Escape key.
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
    /// The step for `perform`, with `lookup` giving what was read for an id (nil: not in the tree).
    public static func step(for perform: Perform, lookup: (String) -> DesktopNodeInfo?) -> DesktopStep {
        if case .escape = perform.action { return .escapeKey }
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
            return .fail("\(perform.action.name) is not carried out on the live desktop yet")
        }
    }
}
