/// The scanner menu's pages (iOS Switch Control's arrangement): the top level holds the item's own
/// actions, then one entry per page (Gestures, Device, Shortcuts, Settings, and the pages other
/// features add), then Point/Item mode, Escape and Close. A page ends with Back and Close.
public enum MenuPage: String, Sendable, CaseIterable, Hashable {
    case gestures, device, shortcuts, settings
    // Issue 19: paging the scrollable container around the item, and every window.
    case scroll, windows

    /// `menu:gestures`: the page's entry at the top level, and the `submenu` of its `menu` line.
    public var id: String { "menu:" + rawValue }

    public var label: String {
        switch self {
        case .gestures: return "Gestures"
        case .device: return "Device"
        case .shortcuts: return "Shortcuts"
        case .settings: return "Settings"
        case .scroll: return "Scroll"
        case .windows: return "Windows"
        }
    }
}

/// A shortcut of the Shortcuts page: a built-in one (`menu:shortcut:copy`, "Copy", Ctrl+C) or the
/// profile's (`menu:shortcut:Print`).
public struct Shortcut: Sendable, Hashable {
    /// The id's last part.
    public var name: String
    public var label: String
    public var keys: KeyCombo

    public init(name: String, label: String, keys: KeyCombo) {
        self.name = name
        self.label = label
        self.keys = keys
    }

    public var id: String { "menu:shortcut:" + name }

    /// The keys a person needs and cannot press (issue 23), in the order the page shows them.
    /// Redo is Ctrl+Shift+Z (GTK's, Firefox's and LibreOffice's alike); Switch window is Alt+Tab.
    public static let builtIn: [Shortcut] = [
        ("copy", "Copy", "Ctrl+C"), ("paste", "Paste", "Ctrl+V"), ("cut", "Cut", "Ctrl+X"),
        ("undo", "Undo", "Ctrl+Z"), ("redo", "Redo", "Ctrl+Shift+Z"), ("selectAll", "Select all", "Ctrl+A"),
        ("save", "Save", "Ctrl+S"), ("find", "Find", "Ctrl+F"), ("closeTab", "Close tab", "Ctrl+W"),
        ("switchWindow", "Switch window", "Alt+Tab"), ("escape", "Escape key", "Escape"), ("enter", "Enter", "Enter"),
        ("tab", "Tab", "Tab"), ("up", "Up arrow", "Up"), ("down", "Down arrow", "Down"),
        ("left", "Left arrow", "Left"), ("right", "Right arrow", "Right"),
    ].map { Shortcut(name: $0.0, label: $0.1, keys: try! KeyCombo(parsing: $0.2)) }

    /// The profile's shortcut (its keys were checked when the profile was read).
    init?(_ p: ProfileShortcut) {
        guard let keys = try? KeyCombo(parsing: p.keys) else { return nil }
        self.init(name: p.name, label: p.name, keys: keys)
    }
}

/// What decides which entries a menu shows (SHAPE.md: the menu is built from this value). The
/// scanner keeps it current: a setting changed from the menu changes the next menu.
public struct MenuContext: Sendable, Equatable {
    /// The profile's `menu` section.
    public var settings = MenuSettings()
    /// Offer Point mode / Item mode.
    public var modeSwitch = false
    public var mode: ScanningSettings.Mode = .item
    public var style: ScanningSettings.Style = .auto
    /// A next or previous switch is bound: auto scanning can be turned off without leaving the
    /// person unable to move.
    public var canMoveWithoutTimer = false
    public var speech = false
    public var sounds = false
    /// The profile's pause hold is on: a person who pauses can resume alone.
    public var canResumeFromPause = false
    /// The scrollable container around the item the menu is on (issue 19): what the Scroll page
    /// pages (the scanner sets it for each menu).
    public var scroll: ScrollContainer?
    /// Every window of every application but the one scanned, most recently used first, and the
    /// one scanned (Close window closes it): the live desktop's input (`Engine.windowsChanged`).
    public var windows: [WindowEntry] = []
    public var currentWindow: WindowEntry?
    /// A keyboard layout is there (issue 18): a text field's menu offers Keyboard.
    public var keyboard = false
    /// Something scanning cannot reach by itself has the keyboard focus (the live desktop says
    /// what, `Engine.keyboardFocusChanged`): every item's menu offers Keyboard, which opens it
    /// for that (ChromeOS's way).
    public var keyboardFocus = false

    public init() {}

    /// From a profile (the scanner fills in mode, style, speech and sounds as they change).
    public init(profile: Profile) {
        settings = profile.menu
        modeSwitch = profile.scanning.modeSwitch
        mode = profile.scanning.mode
        style = profile.scanning.style
        var actions = Set(profile.switches.map(\.action))
        if !profile.switchStabilization.longPress.isZero { actions.formUnion(profile.switches.compactMap(\.longPressAction)) }
        if let touch = profile.touchAccommodations.touchAsSwitch { actions.insert(touch) }
        canMoveWithoutTimer = actions.contains(.next) || actions.contains(.previous)
        speech = profile.scanning.speech
        sounds = profile.scanning.soundEffects
        canResumeFromPause = !profile.pauseHold.isZero
    }
}

/// A window of the Windows page (issue 19): the live desktop's id for it ("x11:0x400004") and what
/// the page says ("gnome-calculator — Calculator").
public struct WindowEntry: Sendable, Hashable {
    public var id: String
    public var label: String

    public init(id: String, label: String) {
        self.id = id
        self.label = label
    }
}
