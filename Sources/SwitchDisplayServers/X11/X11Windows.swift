internal import CX11
import SwitchCore
import SwitchDisplay

/// The X screen's windows, read and switched the way pagers and `wmctrl` do (EWMH): the window
/// manager's `_NET_CLIENT_LIST`, activation by a `_NET_ACTIVE_WINDOW` client message, closing by
/// `_NET_CLOSE_WINDOW`. Without a window manager (no `_NET_SUPPORTING_WM_CHECK`) the root
/// window's mapped children are the windows, activation raises the window and gives it the input
/// focus, and closing sends it `WM_DELETE_WINDOW` (ICCCM), which is what a window manager would
/// do. X errors (a window gone between two requests) are ignored: the request just fails.
///
/// A window (`DisplayWindow`) is its client window, not a window manager's frame: its id
/// "x11:0x400004" is the X window id, its pid `_NET_WM_PID` (set by GTK, Qt, Chromium and Firefox
/// themselves), its title `_NET_WM_NAME` (UTF-8), else `WM_NAME`, its frame the client area in
/// root-window pixels. The list is read again when the accessibility bus says a window changed.
final class X11Windows: DisplayWindows {
    private let x: XDisplay
    private var atoms: [String: Atom] = [:]

    init(_ x: XDisplay) {
        self.x = x
        XSetErrorHandler { _, _ in 0 }
    }

    private var display: OpaquePointer { x.display }
    private var root: Window { cx11_root_window(display, cx11_default_screen(display)) }

    private func atom(_ name: String) -> Atom {
        if let a = atoms[name] { return a }
        let a = XInternAtom(display, name, 0)
        atoms[name] = a
        return a
    }

    /// A window manager that follows EWMH runs (its check window is set and alive).
    var hasWindowManager: Bool {
        guard let w = windowProperty(root, "_NET_SUPPORTING_WM_CHECK").first else { return false }
        return windowProperty(Window(w), "_NET_SUPPORTING_WM_CHECK").first == w
    }

    /// The top-level windows in stacking order from the bottom (the client list's order), mapped
    /// ones only.
    func list() -> [DisplayWindow] {
        var ids = windowProperty(root, "_NET_CLIENT_LIST_STACKING")
        if ids.isEmpty { ids = windowProperty(root, "_NET_CLIENT_LIST") }
        if ids.isEmpty || !hasWindowManager { ids = mappedChildren(of: root) }
        return ids.compactMap { describe(Window($0)) }
    }

    /// `_NET_ACTIVE_WINDOW`, else the window with the input focus (without a window manager).
    var active: DisplayWindowID? {
        if hasWindowManager, let w = windowProperty(root, "_NET_ACTIVE_WINDOW").first, w != 0 { return Self.id(w) }
        var focus: Window = 0
        var revert: Int32 = 0
        XGetInputFocus(display, &focus, &revert)
        return focus > 1 ? Self.id(UInt(focus)) : nil
    }

    /// Brings `id` to the front with the keyboard focus.
    func activate(_ id: DisplayWindowID) -> String? {
        guard let w = Self.window(id) else { return nil }
        if hasWindowManager {
            // Source indication 2: a pager acts for the user, so the window manager obeys at once.
            let sent = cx11_client_message(display, root, w, atom("_NET_ACTIVE_WINDOW"), 2, Int(CurrentTime), 0, 1) != 0
            return sent ? "activated (_NET_ACTIVE_WINDOW)" : nil
        }
        XRaiseWindow(display, w)
        XSetInputFocus(display, w, RevertToParent, Time(CurrentTime))
        XSync(display, 0)
        return "raised and focused"
    }

    /// Asks `id` to close (the application may ask to save first).
    func close(_ id: DisplayWindowID) -> String? {
        guard let w = Self.window(id) else { return nil }
        if hasWindowManager {
            let sent = cx11_client_message(display, root, w, atom("_NET_CLOSE_WINDOW"), Int(CurrentTime), 2, 0, 1) != 0
            return sent ? "asked to close (_NET_CLOSE_WINDOW)" : nil
        }
        let sent = cx11_client_message(display, root, w, atom("WM_PROTOCOLS"), Int(atom("WM_DELETE_WINDOW")), Int(CurrentTime), 0, 0) != 0
        return sent ? "asked to close (WM_DELETE_WINDOW)" : nil
    }

    /// The seam's id of X window `w` ("x11:0x400004"), and back (nil: not an X window's id).
    static func id(_ w: UInt) -> DisplayWindowID { DisplayWindowID(backend: DisplayBackendName.x11.rawValue, number: UInt64(w)) }
    static func window(_ id: DisplayWindowID) -> Window? {
        id.backend == DisplayBackendName.x11.rawValue ? Window(exactly: id.number) : nil
    }

    // MARK: Reading

    private func describe(_ w: Window) -> DisplayWindow? {
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display, w, &attributes) != 0, attributes.map_state == IsViewable,
              attributes.override_redirect == 0 else { return nil }
        var rx: Int32 = 0, ry: Int32 = 0
        var child: Window = 0
        guard XTranslateCoordinates(display, w, root, 0, 0, &rx, &ry, &child) != 0 else { return nil }
        let pid = cardinalProperty(w, "_NET_WM_PID").first.map { Int32(truncatingIfNeeded: $0) }
        let title = stringProperty(w, "_NET_WM_NAME", type: atom("UTF8_STRING")) ?? stringProperty(w, "WM_NAME", type: Atom(31) /* XA_STRING */) ?? ""
        return DisplayWindow(id: Self.id(UInt(w)), pid: pid, title: title,
                         frame: Rect(x: Double(rx), y: Double(ry), width: Double(attributes.width), height: Double(attributes.height)))
    }

    private func mappedChildren(of parent: Window) -> [UInt] {
        var rootReturn: Window = 0, parentReturn: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, parent, &rootReturn, &parentReturn, &children, &count) != 0, let children else { return [] }
        defer { XFree(children) }
        return (0..<Int(count)).map { UInt(children[$0]) }
    }

    /// A property's 32-bit items (format 32 arrives as C longs).
    private func longs(_ w: Window, _ name: String, type: Atom) -> [UInt] {
        var actualType: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(display, w, atom(name), 0, 4096, 0, type, &actualType, &format, &count, &after, &data) == Success,
              let data else { return [] }
        defer { XFree(data) }
        guard format == 32 else { return [] }
        return data.withMemoryRebound(to: UInt.self, capacity: Int(count)) { p in (0..<Int(count)).map { p[$0] } }
    }

    private func windowProperty(_ w: Window, _ name: String) -> [UInt] { longs(w, name, type: Atom(33) /* XA_WINDOW */) }
    private func cardinalProperty(_ w: Window, _ name: String) -> [UInt] { longs(w, name, type: Atom(6) /* XA_CARDINAL */) }

    private func stringProperty(_ w: Window, _ name: String, type: Atom) -> String? {
        var actualType: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(display, w, atom(name), 0, 1024, 0, type, &actualType, &format, &count, &after, &data) == Success,
              let data else { return nil }
        defer { XFree(data) }
        guard format == 8, count > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(count)), as: UTF8.self)
    }
}

/// Window origins on X11: AT-SPI's screen extents are root-window pixels already, except GTK 4's,
/// which are relative to its X window (found by process id, then title). Its client-side
/// decorations keep a margin round the window inside the X window (5 px each side with GTK 4.8
/// without a compositor): the window sits in the middle.
extension X11Windows: WindowOrigins {
    func origin(pid: Int32?, title: String, size: Size?) -> Point? {
        let own = list().filter { pid == nil || $0.pid == pid }
        guard let w = own.first(where: { $0.title == title }) ?? (own.count == 1 ? own.first : nil) else { return nil }
        var x = w.frame.x, y = w.frame.y
        if let e = size, e.width > 0, e.height > 0, w.frame.width >= e.width, w.frame.height >= e.height {
            x += ((w.frame.width - e.width) / 2).rounded(.down)
            y += ((w.frame.height - e.height) / 2).rounded(.down)
        }
        return Point(x: x, y: y)
    }
}
