import SwitchCore

/// The display servers switchscan knows (`--display`).
public enum DisplayBackendName: String, Sendable, CaseIterable, CustomStringConvertible {
    /// An X11 session (Xorg), or X11 applications through Xwayland.
    case x11
    /// sway and the compositors with the same protocols (layer shell, virtual pointer and keyboard).
    case wlroots
    /// KDE Plasma's KWin on Wayland.
    case kwin
    /// GNOME Shell on Wayland, through switchscan's Shell extension.
    case gnome
    /// No display: AT-SPI actions only, no highlight.
    case none

    public var description: String { rawValue }
}

/// One display server's parts, bundled (issue 30): what the live desktop (SwitchDesktop) and the
/// overlay (SwitchOverlay) use, so neither knows which server runs. Any part may be absent (a
/// session without a display has none; GNOME without switchscan's extension has only AT-SPI);
/// whoever needs a missing one says so in the backend's words (`missing`), in its `result` line.
///
/// The desktop's parts share the server connection `connect` opens, at the first use of any of
/// them (a run that never touches the desktop opens none); the overlay opens its own
/// (`openOverlay`, `run --show`).
public final class DisplayBackend {
    /// The desktop's parts of one connection.
    public struct DesktopParts {
        public var origins: WindowOrigins?
        public var pointer: DisplayPointer?
        public var keys: DisplayKeys?
        public var windows: DisplayWindows?
        /// The screen the trees' frames are in (nil: not known).
        public var screen: Size?

        public init(origins: WindowOrigins? = nil, pointer: DisplayPointer? = nil, keys: DisplayKeys? = nil, windows: DisplayWindows? = nil,
                    screen: Size? = nil) {
            self.origins = origins
            self.pointer = pointer
            self.keys = keys
            self.windows = windows
            self.screen = screen
        }
    }

    public let name: DisplayBackendName
    /// What `run` says about the choice and the session (a `switchscan:` note each).
    public let notes: [String]
    /// What a perform that needs a missing (or unusable) part says: "no X display to click on".
    public let missing: (DisplayNeed) -> String
    /// What the live loop must drive for this backend's parts, when they share a connection that
    /// needs reading (a Wayland compositor's socket and sway's event socket; a D-Bus helper): a
    /// `LoopAdapter` (SwitchInput; the seam knows no loop, so it is typed as an object here and
    /// `DisplayBackends.loopAdapter` hands it out). It keeps the connection read and ends the run
    /// with a clear error when the server goes away. nil: nothing to drive (X11: Xlib reads as it
    /// asks, the overlay watches its own connection).
    public let driver: AnyObject?
    /// Nothing can be drawn on this display, but the person should still learn what is
    /// highlighted (an unknown Wayland compositor): `run` turns speech on instead of the overlay
    /// it would show by default, and says so.
    public var speaksInstead = false
    private let connect: () -> DesktopParts
    private let overlay: () throws(OverlayError) -> OverlaySurface
    private var connected: DesktopParts?

    public init(name: DisplayBackendName, notes: [String], missing: @escaping (DisplayNeed) -> String, connect: @escaping () -> DesktopParts,
                overlay: @escaping () throws(OverlayError) -> OverlaySurface, driver: AnyObject? = nil) {
        self.name = name
        self.notes = notes
        self.missing = missing
        self.connect = connect
        self.overlay = overlay
        self.driver = driver
    }

    /// A backend without any part: every need says `missing`, and the overlay cannot open (`why`).
    public static func none(notes: [String], missing: @escaping (DisplayNeed) -> String, overlay why: OverlayError) -> DisplayBackend {
        DisplayBackend(name: .none, notes: notes, missing: missing, connect: { DesktopParts() }, overlay: { () throws(OverlayError) in throw why })
    }

    /// The desktop's parts (connected at the first call).
    public var desktop: DesktopParts {
        if let connected { return connected }
        let parts = connect()
        connected = parts
        return parts
    }

    public var origins: WindowOrigins? { desktop.origins }
    public var pointer: DisplayPointer? { desktop.pointer }
    public var keys: DisplayKeys? { desktop.keys }
    public var windows: DisplayWindows? { desktop.windows }
    public var screen: Size? { desktop.screen }

    /// The overlay's surface, on a connection of its own.
    public func openOverlay() throws(OverlayError) -> OverlaySurface {
        try overlay()
    }
}

/// What the live desktop needs a display part for (the words when it is missing are the backend's).
public enum DisplayNeed: Sendable, CaseIterable {
    /// A pointer click where an element has no action.
    case click
    /// Wheel clicks over a container.
    case scroll
    /// The scanner menu's pointer gestures.
    case pointerGesture
    case escapeKey
    /// The scanner menu's key combinations.
    case keys
    /// The keyboard typing into a field without EditableText.
    case typing
    /// The Windows page: switching and closing windows.
    case windows
}

/// Why the overlay cannot start, in one line for `run --show` (the backend that could not open
/// its surface words it).
public struct OverlayError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }

    /// No font for the panels' text.
    public static func noFont(_ pattern: String) -> OverlayError {
        OverlayError("--show: no font for the menu panel (\(pattern)); install fontconfig and fonts-dejavu-core")
    }
}
