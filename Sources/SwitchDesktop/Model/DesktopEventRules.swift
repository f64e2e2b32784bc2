/// Which accessibility events change the scanned tree, and how (pure; docs/desktop.md).
///
/// Structure (a full re-read): focused (on focus-in: GTK3 adds children without saying so, and a
/// focus move is when a user notices), modal; any window activated, created or destroyed; the
/// desktop's own children (applications starting or quitting); a window's own showing, visible,
/// expanded, collapsed or defunct, and children of the application or of a node the tree does not
/// hold. The shape below a known node (a re-read of its subtree): its children added or removed;
/// showing, visible, expanded, collapsed or defunct of a known node re-read its parent's subtree
/// (the node may appear, vanish or bring children); those states of a node the tree does not
/// hold (a new child) are `unlisted`: a subtree read must bring it. A node's own change (a
/// re-read of that node): its name, description, value or text, checked, selected, sensitive,
/// enabled, pressed, indeterminate; its bounds (its extents are read: only a real move re-reads
/// everything). Events of other applications count only when they move the
/// active window or change the desktop's applications; events about nodes the tree does not hold
/// (hidden ones) count only when they may show them. A node of a web page read whole sits below
/// the page's parts, not below its parent on the bus: a change of its shape reads everything (the
/// page itself is read again by its own job, `PageJob`).
public enum DesktopEventRules {
    /// What the source is following.
    public struct Context {
        /// The application scanned now (its bus name), if any.
        public var appBus: String?
        /// `--app NAME`: only that application; nil: the active window, whichever it is.
        public var followsActiveWindow: Bool
        /// Whether an id is a node of the current read.
        public var knows: (String) -> Bool
        /// A known node's parent, nil for a window (the application's child) or an unknown node.
        public var parent: (String) -> String?
        /// Whether a known node is part of a web page read whole (its parents there are the page's
        /// parts, not its parents on the bus: a change of its shape reads everything).
        public var inPage: (String) -> Bool

        public init(appBus: String?, followsActiveWindow: Bool, knows: @escaping (String) -> Bool,
                    parent: @escaping (String) -> String? = { _ in nil }, inPage: @escaping (String) -> Bool = { _ in false }) {
            self.appBus = appBus
            self.followsActiveWindow = followsActiveWindow
            self.knows = knows
            self.parent = parent
            self.inPage = inPage
        }
    }

    /// States that change what shows below a node's parent.
    static let shapeStates: Set<String> = ["showing", "visible", "expanded", "collapsed", "defunct"]
    static let nodeStates: Set<String> = ["checked", "selected", "sensitive", "enabled", "pressed", "indeterminate", "editable", "active"]

    /// The change `type` (an AT-SPI event type) from `bus` about node `id` means; nil: none.
    public static func change(type: String, bus: String, id: String, detail1: Int32, path: String,
                              _ c: Context) -> RefreshSchedule.Change? {
        let desktopRoot = path == "/org/a11y/atspi/accessible/root" && bus != c.appBus
        if type.hasPrefix("window:") {
            return c.followsActiveWindow || bus == c.appBus || c.appBus == nil ? .structure : nil
        }
        if desktopRoot && type.hasPrefix("object:children-changed") {
            return .structure  // an application registered or left
        }
        guard bus == c.appBus else { return nil }
        let parts = type.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2 else { return nil }
        let detail = parts.count > 2 ? parts[2] : ""
        switch parts[1] {
        case "children-changed":
            return path != DesktopReader.rootPath && c.knows(id) && !c.inPage(id) ? .subtree(id) : .structure
        case "state-changed":
            if detail == "modal" { return .structure }
            if shapeStates.contains(detail) {
                guard c.knows(id) else { return .unlisted(id) }
                if c.inPage(id) { return .structure }
                return c.parent(id).map { .subtree($0) } ?? .structure
            }
            if detail == "focused" { return detail1 != 0 ? .structure : nil }
            if nodeStates.contains(detail) { return c.knows(id) ? .node(id) : nil }
            return nil
        case "bounds-changed":
            return c.knows(id) ? .bounds(id) : nil
        case "property-change":
            guard ["accessible-name", "accessible-description", "accessible-value"].contains(detail) else { return nil }
            return c.knows(id) ? .node(id) : nil
        case "value-changed", "text-changed":
            return c.knows(id) ? .node(id) : nil
        default:
            return nil
        }
    }
}
