import SwitchCore

/// A window's id across the seam: the backend's name and its number for the window, opaque to
/// everyone but that backend (X11: the X window id; a compositor's own id, or a number the
/// backend hands out). Written "x11:0x400004", which is how a perform of the Windows page names
/// the window in the transcript.
public struct DisplayWindowID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var backend: String
    public var number: UInt64

    public init(backend: String, number: UInt64) {
        self.backend = backend
        self.number = number
    }

    /// "x11:0x400004" → (x11, 0x400004); nil for anything else.
    public init?(parsing text: String) {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon], rest = text[text.index(after: colon)...]
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber }), rest.hasPrefix("0x"),
              let n = UInt64(rest.dropFirst(2), radix: 16) else { return nil }
        self.init(backend: String(name), number: n)
    }

    public var description: String { backend + ":0x" + String(number, radix: 16) }

    /// By backend, then by number (the window's age on most servers).
    public static func < (a: DisplayWindowID, b: DisplayWindowID) -> Bool {
        a.backend != b.backend ? a.backend < b.backend : a.number < b.number
    }
}

/// A top-level window as a pager (or a task switcher) sees it.
public struct DisplayWindow: Equatable, Sendable {
    public var id: DisplayWindowID
    /// The process that owns it (matched to the application on the accessibility bus).
    public var pid: Int32?
    public var title: String
    /// Its client area in screen pixels.
    public var frame: Rect

    public init(id: DisplayWindowID, pid: Int32?, title: String, frame: Rect) {
        self.id = id
        self.pid = pid
        self.title = title
        self.frame = frame
    }
}

/// How a window list learns that it changed.
public enum WindowChanges: Equatable, Sendable {
    /// From the accessibility bus: the list is read again when a `window:` event comes or an
    /// application joins or leaves (X11: the list's properties are not watched).
    case accessibilityEvents
    /// A descriptor the loop watches: readable when the server said something; `takeChanges()`
    /// then says whether the list changed.
    case descriptor(Int32)
}

/// The desktop's windows (the Windows page, issue 19): listed, brought to the front with the
/// keyboard focus, asked to close, the way a pager does it on this server.
public protocol DisplayWindows: AnyObject {
    /// The top-level windows that show, in stacking order from the bottom.
    func list() -> [DisplayWindow]

    /// The window with the keyboard focus, if the server says.
    var active: DisplayWindowID? { get }

    /// Brings `id` to the front with the keyboard focus; how (for the result line), or nil when
    /// it could not be asked.
    func activate(_ id: DisplayWindowID) -> String?

    /// Asks `id` to close (the application may ask to save first); how, or nil.
    func close(_ id: DisplayWindowID) -> String?

    var changes: WindowChanges { get }

    /// After the descriptor of `changes` was readable: true when the list changed since last asked.
    func takeChanges() -> Bool
}

extension DisplayWindows {
    public var changes: WindowChanges { .accessibilityEvents }
    public func takeChanges() -> Bool { false }
}
