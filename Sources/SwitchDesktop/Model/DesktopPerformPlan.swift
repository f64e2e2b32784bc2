import SwitchCore
import SwitchDisplay

/// What the live desktop does for one `perform` line (pure; `DesktopPerformer` carries it out and
/// writes the result line). Activate: the element's default action (index 0); a page tab: select
/// it through its tab list's Selection interface (GTK3's tabs have no action); an element without
/// any action: focus it, then a real pointer click at its activation point (XTest), except an
/// adjustable one (a slider), which is only focused: a click would set its value to wherever it
/// lands; a point with no element there: a click at the point; a web page's element out of view:
/// scrolled into view first. A custom action: the action of that name. Increment /
/// decrement: the Value moved by its minimum increment (a tenth of the range when that is 0).
/// A field to type in (editable, or a terminal), activated: focused, for the keyboard (issue 18).
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
    /// A pointer gesture through the display's pointer, over time (`PointerGesture`); `how` for
    /// the result line.
    case pointer([TimedPointerOp], how: String)
    /// A key combination by keysym through the current layout (`KeyCombo`'s text).
    case keys(String)
    /// Not the desktop's to do (Lock screen: its own adapter runs loginctl and answers).
    case elsewhere
    // Issue 19: paging a scrollable container, and the Windows page.
    /// `Component.ScrollTo(type)` of a page's node just out of view (TOP_EDGE: it comes to the
    /// top, a page down; BOTTOM_EDGE: a page up).
    case scrollTo(id: String, type: UInt32, what: String)
    /// A scroll pane's scroll bar moved through its Value (read then): by `page` (its units are
    /// GTK's pixels), or to its minimum or maximum.
    case scrollBar(id: String, direction: ScrollDirection, page: Double)
    /// Wheel clicks (X buttons 4 up, 5 down, 6 left, 7 right) at a point.
    case wheel(at: Point, button: UInt32, clicks: Int, what: String)
    /// The Windows page: the window brought up (or closed) by the live desktop (the display's
    /// `DisplayWindows`).
    case window(id: String, close: Bool)
    // Issue 18: typing.
    /// A field to type in (an editable field, a terminal), activated: focused (`Component.GrabFocus`),
    /// so the keyboard's key events reach it; never its default action (a GTK entry's "activate"
    /// is Enter, which would send a form).
    case focusField(id: String)
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
        case .activateWindow: return .window(id: perform.id, close: false)
        case .closeWindow: return .window(id: perform.id, close: true)
        case .scroll(let d) where perform.point == nil:
            // The Scroll page: the container itself, paged.
            guard let info = lookup(perform.id) else { return .fail("the element is no longer on screen") }
            return pageScroll(d, info, lookup: lookup)
        case .activate where perform.id.hasSuffix(AtspiMapping.scrollDownSuffix):
            // A scroll pane's "Scroll down" stop (Android's auto-scroll).
            guard let info = lookup(String(perform.id.dropLast(AtspiMapping.scrollDownSuffix.count))) else {
                return .fail("the list is no longer on screen")
            }
            return pageScroll(.down, info, lookup: lookup)
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
            if AtspiMapping.isFieldToTypeIn(n), n.interfaces.contains(.component) { return .focusField(id: n.id) }
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
        case .activateWindow, .closeWindow:
            return .fail("planned above")  // not reached
        }
    }

    /// Paging a scrollable container (the Scroll page, issue 19), through AT-SPI where it can:
    /// a web page by scrolling its first node below the viewport to the top (`ScrollTo`), or its
    /// last one above to the bottom, or its first or last node into view; a scroll pane through
    /// its scroll bar's Value (a page: the pane's height, less a tenth, as a keyboard's Page Down
    /// leaves some overlap); else wheel clicks over the container.
    static func pageScroll(_ d: ScrollDirection, _ info: DesktopNodeInfo, lookup: (String) -> DesktopNodeInfo?) -> DesktopStep {
        let n = info.node
        let what = d == .top || d == .bottom ? "to the " + d.rawValue : "a page " + d.rawValue
        if DesktopReader.isDocument(n.role), d != .left, d != .right {
            // The page's nodes in document order, below the document (a page read whole keeps
            // no hidden node; an item out of view has no extents read, and Firefox gives some
            // nodes out of view none until asked later).
            var nodes: [AtspiNode] = []
            n.forEach { if $0.id != n.id, $0.inDocument { nodes.append($0) } }
            // What shows is told by the innermost nodes: a part that goes on into the viewport
            // from above shows too, and comes before all of it in document order.
            let shown = nodes.indices.filter { nodes[$0].states.contains(.showing) && nodes[$0].children.isEmpty }
            switch d {
            case .down:
                let after = (shown.last ?? -1) + 1
                if let k = nodes.indices.first(where: { $0 >= after && !nodes[$0].states.contains(.showing) }) {
                    return .scrollTo(id: nodes[k].id, type: 2, what: what)
                }
                return .fail("the page is at its bottom")
            case .up:
                let before = shown.first ?? nodes.count
                if let k = nodes.indices.last(where: { $0 < before && !nodes[$0].states.contains(.showing) }) {
                    return .scrollTo(id: nodes[k].id, type: 3, what: what)
                }
                return .fail("the page is at its top")
            case .top:
                if let first = nodes.first { return .scrollTo(id: first.id, type: 2, what: what) }
            case .bottom:
                if let last = nodes.last { return .scrollTo(id: last.id, type: 3, what: what) }
            case .left, .right:
                break
            }
        }
        if n.role == .scrollPane, let f = info.screenFrame {
            let vertical = d == .up || d == .down || d == .top || d == .bottom
            let bars = n.children.filter { $0.role == .scrollBar && $0.states.contains(.visible) }
            let bar = bars.first { b in
                if b.states.contains(.vertical) || b.states.contains(.horizontal) { return b.states.contains(.vertical) == vertical }
                guard let e = b.extents else { return false }
                return (e.height > e.width) == vertical
            }
            // GTK 4 keeps the Value on the scroll bar's range inside it.
            if let bar, let valued = bar.interfaces.contains(.value) ? bar : bar.children.first(where: { $0.interfaces.contains(.value) }) {
                return .scrollBar(id: valued.id, direction: d, page: ((vertical ? f.height : f.width) * 0.9).rounded())
            }
        }
        guard let center = info.screenFrame?.center else { return .fail("it has no place on screen to scroll at") }
        return .wheel(at: center, button: d.wheelButton, clicks: d == .top || d == .bottom ? 50 : 5, what: what)
    }
}
