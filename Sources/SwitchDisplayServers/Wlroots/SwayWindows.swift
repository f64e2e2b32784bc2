import Glibc
import SwitchCore
import SwitchDisplay

/// The windows and their origins on sway, through its IPC (`SwayIPC`: `get_tree`, `[con_id=N]
/// focus`, `[con_id=N] kill`), and the changes sway tells on the subscribed socket (`SwayEvents`,
/// read by the backend's loop adapter), handed on through a pipe the live desktop watches
/// (`changes`): a window that came, went, moved or took the focus, a workspace switched (sway
/// 1.7 has no output event to subscribe to).
///
///     event read (driver) ─→ the tree forgotten, the eventfd written
///     takeChanges          the eventfd read: true when something came since
///     list / origin        get_tree once, kept until the next event
///
/// Windows are containers with a process (views); ids "wlroots:0x<con_id>". The list is every
/// window but the scratchpad's, tiled ones first, then floating ones, the focused window last of
/// its kind (sway says nothing of stacking; floating windows are above tiled ones).
///
/// Origins (`SwayWindow.origin`, measured on sway 1.7): AT-SPI's extents of every toolkit are
/// relative to the client's window; it starts at the container's content area, centred when the
/// client is smaller, and a GTK 3 window that draws its own shadow (a header bar, floating: its
/// accessible frame is larger than sway's content area) starts where its first child, the title
/// bar, starts inside that frame.
final class SwayWindows: DisplayWindows, WindowOrigins {
    let ipc: SwayIPC
    private var cached: [SwayWindow]?
    /// Written when sway told of a change; what the loop watches.
    private let changed = ChangeSignal()

    init(ipc: SwayIPC) {
        self.ipc = ipc
    }

    var windowRelativeExtents: Bool { true }

    /// sway's windows now (one get_tree until the next event); none when sway does not answer.
    var windows: [SwayWindow] {
        if let cached { return cached }
        let fresh = (try? ipc.windows(timeout: 2)) ?? []
        cached = fresh
        return fresh
    }

    /// sway's events, read by the loop adapter: the list is read afresh, and the live desktop told.
    func noteEvents(_ events: [SwayEvents.Event]) {
        guard !events.isEmpty else { return }
        cached = nil
        changed.signal()
    }

    /// How often `pollFloating` runs (the loop adapter's deadline): a floating window moved by
    /// hand is followed within this.
    static let floatingPollMicroseconds: Int64 = 1_000_000

    /// sway 1.7 says nothing when a floating window is moved or resized (no window event: only
    /// tiling moves are told). While a floating window shows, the tree is read again (at most
    /// once a second, by the loop adapter) and its windows' places compared; a change is told as
    /// an event is. Nothing is read while no floating window shows.
    func pollFloating() {
        guard let known = cached else {
            cached = try? ipc.windows(timeout: 1)
            return
        }
        guard known.contains(where: { $0.floating && $0.visible }), let fresh = try? ipc.windows(timeout: 1) else { return }
        cached = fresh
        func places(_ w: [SwayWindow]) -> [[Int]] {
            w.map { [$0.id, $0.rect.x, $0.rect.y, $0.rect.width, $0.rect.height, $0.windowRect.x, $0.windowRect.y, $0.windowRect.width, $0.windowRect.height] }
        }
        if places(fresh) != places(known) { changed.signal() }
    }

    // MARK: DisplayWindows

    func list() -> [DisplayWindow] {
        let all = windows.filter { !$0.workspace.isEmpty }
        let ordered = all.filter { !$0.floating && !$0.focused } + all.filter { !$0.floating && $0.focused }
            + all.filter { $0.floating && !$0.focused } + all.filter { $0.floating && $0.focused }
        return ordered.map { w in
            let c = w.contentOrigin
            return DisplayWindow(id: Self.id(w.id), pid: w.pid, title: w.title,
                                 frame: Rect(x: Double(c.x), y: Double(c.y), width: Double(w.windowRect.width), height: Double(w.windowRect.height)))
        }
    }

    var active: DisplayWindowID? { SwayTree.focused(windows).map { Self.id($0.id) } }

    func activate(_ id: DisplayWindowID) -> String? {
        guard let con = Self.container(id) else { return nil }
        do {
            try ipc.focus(windowID: con)
            cached = nil
            return "focused (sway IPC)"
        } catch {
            return nil
        }
    }

    func close(_ id: DisplayWindowID) -> String? {
        guard let con = Self.container(id) else { return nil }
        do {
            try ipc.close(windowID: con)
            cached = nil
            return "asked to close (sway IPC kill)"
        } catch {
            return nil
        }
    }

    var changes: WindowChanges { .descriptor(changed.fileDescriptor) }

    func takeChanges() -> Bool { changed.take() }

    static func id(_ con: Int) -> DisplayWindowID { DisplayWindowID(backend: DisplayBackendName.wlroots.rawValue, number: UInt64(con)) }
    static func container(_ id: DisplayWindowID) -> Int? {
        id.backend == DisplayBackendName.wlroots.rawValue ? Int(exactly: id.number) : nil
    }

    // MARK: WindowOrigins

    func origin(pid: Int32?, title: String, size: Size?) -> Point? {
        origin(pid: pid, title: title, size: size, firstChild: { nil })
    }

    func origin(pid: Int32?, title: String, size: Size?, firstChild: () -> Point?) -> Point? {
        guard let w = SwayWindows.window(in: windows, pid: pid, title: title) else { return nil }
        let o = SwayWindows.origin(of: w, size: size, firstChild: firstChild)
        return Point(x: Double(o.x), y: Double(o.y))
    }

    /// The window of `pid` titled `title`, else its only window, else its only visible one.
    static func window(in all: [SwayWindow], pid: Int32?, title: String) -> SwayWindow? {
        let own = all.filter { pid == nil || $0.pid == pid }
        if let w = own.first(where: { $0.title == title }) { return w }
        if own.count == 1 { return own[0] }
        let shown = own.filter(\.visible)
        return shown.count == 1 ? shown[0] : nil
    }

    /// The rule above: a client frame larger than the content area has a shadow round its window,
    /// which starts at the first child's corner.
    static func origin(of w: SwayWindow, size: Size?, firstChild: () -> Point?) -> (x: Int, y: Int) {
        guard let size, size.width > 0, size.height > 0 else { return w.contentOrigin }
        let (cw, ch) = (Int(size.width.rounded()), Int(size.height.rounded()))
        let shadowed = cw > w.windowRect.width || ch > w.windowRect.height
        let inset = shadowed ? firstChild().map { (x: max(0, Int($0.x)), y: max(0, Int($0.y))) } ?? (0, 0) : (0, 0)
        return w.origin(clientWidth: cw, clientHeight: ch, inset: inset)
    }
}
