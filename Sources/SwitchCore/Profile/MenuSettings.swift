/// The profile's `"menu"` section (README "Profiles", docs/menu.md): how a clinician arranges the
/// scanner menu for one person. Ids are the menu's own (`menu:rightClick`, `menu:shortcut:copy`).
///
///     "menu": {"hide": ["menu:middleClick"], "show": ["menu:lockScreen"], "top": ["menu:rightClick"],
///              "shortcuts": [{"name": "Print", "keys": "Ctrl+P"}], "speedStep": 0.1, "holdTime": 1.0}
public struct MenuSettings: Sendable, Equatable {
    /// Entries left out of the menu (a submenu id hides the whole page). Escape, Close and Back
    /// cannot be hidden: they are how a person leaves the menu.
    public var hide: [String] = []
    /// Entries shown that are hidden unless asked for (Lock screen: the person may be unable to
    /// unlock).
    public var show: [String] = []
    /// Entries moved out of their submenu to the top level, after the item's own actions, in this
    /// order (shown even when hidden by default).
    public var top: [String] = []
    /// The profile's own shortcuts, first in the Shortcuts page.
    public var shortcuts: [ProfileShortcut] = []
    /// How much Faster and Slower change the scan time (`autoScanningTime`).
    public var speedStep: Interval = .seconds(0.1)
    /// How long Hold keeps the button down.
    public var holdTime: Interval = .seconds(1)

    public init() {}

    public static let speedStepRange = 0.05...5.0
    public static let holdTimeRange = 0.1...10.0
}

/// A shortcut the profile adds to the Shortcuts page: `{"name": "Print", "keys": "Ctrl+P"}`
/// (`menu:shortcut:Print`). `keys` is `KeyCombo`'s canonical text.
public struct ProfileShortcut: Sendable, Equatable, Hashable {
    public var name: String
    public var keys: String

    public init(name: String, keys: String) {
        self.name = name
        self.keys = keys
    }
}
