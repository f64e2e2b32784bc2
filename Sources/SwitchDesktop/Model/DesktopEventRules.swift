/// Which accessibility events change the scanned tree, and how (pure; README "The live desktop").
///
/// Structure (a full re-read): children added or removed; showing, visible, focused (on focus-in:
/// GTK3 adds children without saying so, and a focus move is when a user notices), expanded,
/// collapsed, defunct; any window activated, created or destroyed;
/// the desktop's own children (applications starting or quitting). A node's own change (a
/// re-read of that node): its name, description, value or text, checked, selected, sensitive,
/// enabled, pressed, indeterminate; its bounds (its extents are read: only a real move re-reads
/// everything). Events of other applications count only when they move the
/// active window or change the desktop's applications; events about nodes the tree does not hold
/// (hidden ones) count only when they may show them.
public enum DesktopEventRules {
    /// What the source is following.
    public struct Context {
        /// The application scanned now (its bus name), if any.
        public var appBus: String?
        /// `--app NAME`: only that application; nil: the active window, whichever it is.
        public var followsActiveWindow: Bool
        /// Whether an id is a node of the current read.
        public var knows: (String) -> Bool

        public init(appBus: String?, followsActiveWindow: Bool, knows: @escaping (String) -> Bool) {
            self.appBus = appBus
            self.followsActiveWindow = followsActiveWindow
            self.knows = knows
        }
    }

    static let structuralStates: Set<String> = ["showing", "visible", "expanded", "collapsed", "defunct", "modal"]
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
            return .structure
        case "state-changed":
            if structuralStates.contains(detail) { return .structure }
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
