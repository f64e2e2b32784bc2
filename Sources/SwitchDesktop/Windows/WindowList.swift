import SwitchCore
import SwitchDisplay

/// Every window of every application, as the Windows page lists them (iOS's App Switcher; pure,
/// docs/desktop.md "Windows"): the display's top-level windows (`DisplayWindows`, a pager's view)
/// matched to the applications on the accessibility bus, so that choosing one both brings it to
/// the front and moves scanning into its tree.
///
/// A window is matched to an application by the process that owns it (the display server's pid
/// for the window, `_NET_WM_PID` on X11; the bus connection's process on the a11y bus), then to
/// one of that application's AT-SPI windows by title (the window's title, the AT-SPI frame's
/// name); when the titles say nothing (an application with one window), the only one. A window no application
/// on the bus owns is listed too (it can be brought to the front, there is nothing to scan in
/// it). Order: by application, then title (a person finds a window where it was last time; the
/// stacking order changes with every switch).
public enum WindowList {
    /// An AT-SPI window of an application (its frame, dialog or window).
    public struct AccessibleWindow: Equatable, Sendable {
        public var bus: String
        public var path: String
        public var title: String
        /// Its extents on the screen, when the toolkit gives screen extents (GTK 3, Qt, browsers).
        public var frame: Rect?
        public init(bus: String, path: String, title: String, frame: Rect? = nil) {
            self.bus = bus
            self.path = path
            self.title = title
            self.frame = frame
        }
    }

    /// An application on the accessibility bus, with the process that owns it.
    public struct Application: Equatable, Sendable {
        public var name: String
        public var pid: Int32?
        public var windows: [AccessibleWindow]
        public init(name: String, pid: Int32?, windows: [AccessibleWindow]) {
            self.name = name
            self.pid = pid
            self.windows = windows
        }
    }

    /// One entry of the Windows page.
    public struct Window: Equatable, Sendable {
        /// "x11:0x400004": the perform's id (`window`, written out).
        public var id: String
        public var window: DisplayWindowID
        /// The application's name on the bus, else the window's class.
        public var application: String
        public var title: String
        /// Its tree on the bus, if an application owns it.
        public var accessible: AccessibleWindow?

        /// "gnome-calculator — Calculator" (the title once when it is the application's name).
        public var label: String {
            if title.isEmpty || title == application { return application }
            if title.hasPrefix(" (") { return application + title }
            return application + " — " + title
        }
    }

    /// `shown` in stacking order from the bottom (as X11's `_NET_CLIENT_LIST_STACKING`), matched to
    /// `apps`; windows entirely off the `screen` (a toolkit's hidden helper windows) are left out.
    /// Two entries that would read the same get their place in the list ("xfce4-panel (2)").
    public static func windows(_ shown: [DisplayWindow], apps: [Application], screen: Rect? = nil) -> [Window] {
        var used: Set<String> = []
        var out: [Window] = []
        for w in shown.reversed() {
            if let screen, !w.frame.intersects(screen) || w.frame.width < 4 || w.frame.height < 4 { continue }
            let app = w.pid.flatMap { pid in apps.first { $0.pid == pid } }
            var accessible: AccessibleWindow?
            if let app {
                let free = app.windows.filter { !used.contains($0.bus + $0.path) }
                accessible = free.first { !$0.title.isEmpty && $0.title == w.title }
                    ?? free.first { $0.frame.map { near($0, w.frame) } ?? false }
                    ?? (free.count == 1 ? free.first : nil)
                    ?? free.first { !$0.title.isEmpty && w.title.hasPrefix($0.title) }
            }
            if let a = accessible { used.insert(a.bus + a.path) }
            out.append(Window(id: w.id.description, window: w.id, application: app?.name ?? w.title,
                              title: w.title, accessible: accessible))
        }
        out.sort { a, b in
            let x = (a.application.lowercased(), a.title.lowercased()), y = (b.application.lowercased(), b.title.lowercased())
            return x != y ? x < y : a.window < b.window
        }
        // Same words twice: numbered.
        var seen: [String: Int] = [:]
        for k in out.indices {
            let label = out[k].label
            seen[label, default: 0] += 1
            if seen[label]! > 1 { out[k].title = (out[k].title.isEmpty || out[k].title == out[k].application ? "" : out[k].title) + " (\(seen[label]!))" }
        }
        return out
    }

    /// The same rectangle, give or take client-side decorations' shadows (up to 64 pixels a side).
    static func near(_ a: Rect, _ b: Rect) -> Bool {
        abs(a.x - b.x) <= 64 && abs(a.y - b.y) <= 64 && abs(a.maxX - b.maxX) <= 64 && abs(a.maxY - b.maxY) <= 64
    }
}
