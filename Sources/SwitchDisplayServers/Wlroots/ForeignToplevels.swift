internal import CWayland

/// The window list through zwlr_foreign_toplevel_manager_v1 (what task bars on wlroots use):
/// every toplevel's title, app id and states, kept up to date from the compositor's events,
/// activated or closed on request. It works on any wlroots compositor (labwc, Wayfire, river …),
/// where sway's IPC does not; it says nothing of a window's position or process, so on sway the
/// window origins come from IPC, and this is the fallback for the list itself.
///
///     toplevel ─→ a handle; title, app_id, state … then done ─→ `windows` holds it, `changed`
///     closed ─→ handle destroyed, gone from `windows`, `changed`
///     activate(id) ─→ handle.activate(seat) │ close(id) ─→ handle.close
public final class ForeignToplevels {
    public struct Toplevel: Equatable, Sendable {
        /// Ours, stable while the toplevel lives (the order they were announced in).
        public var id: Int
        public var title: String
        public var appID: String
        public var activated: Bool
        public var minimized: Bool
        public var maximized: Bool
        public var fullscreen: Bool
    }

    private let connection: WaylandConnection
    private let manager: OpaquePointer
    private var handles: [ToplevelHandle] = []
    private var nextID = 1
    /// Set when the list or a state changed since the caller last cleared it (the loop's poll).
    public var changed = false

    public init(connection: WaylandConnection) throws(WaylandConnection.Failure) {
        guard let (manager, _) = connection.bind("zwlr_foreign_toplevel_manager_v1", upTo: 3) else {
            throw .missing("zwlr_foreign_toplevel_manager_v1")
        }
        self.connection = connection
        self.manager = manager
        zwlr_foreign_toplevel_manager_v1_add_listener(manager, managerListener, Unmanaged.passUnretained(self).toOpaque())
        try connection.roundtrip(for: "the toplevel list")
    }

    deinit {
        handles.removeAll()
        zwlr_foreign_toplevel_manager_v1_stop(manager)
        wl_proxy_destroy(manager)
        connection.flush()
    }

    /// The toplevels whose description is complete (a `done` came), in the order announced.
    public var windows: [Toplevel] { handles.filter(\.isDone).map(\.value) }

    /// Asks the compositor to activate (focus, raise) a toplevel; false when it is gone.
    @discardableResult
    public func activate(_ id: Int) -> Bool {
        guard let h = handles.first(where: { $0.value.id == id }), let seat = connection.seat else { return false }
        zwlr_foreign_toplevel_handle_v1_activate(h.proxy, seat)
        connection.flush()
        return true
    }

    /// Asks a toplevel to close (as its close button would); false when it is gone.
    @discardableResult
    public func close(_ id: Int) -> Bool {
        guard let h = handles.first(where: { $0.value.id == id }) else { return false }
        zwlr_foreign_toplevel_handle_v1_close(h.proxy)
        connection.flush()
        return true
    }

    fileprivate func announced(_ proxy: OpaquePointer) {
        let h = ToplevelHandle(proxy: proxy, id: nextID, owner: self)
        nextID += 1
        handles.append(h)
    }

    fileprivate func closed(_ h: ToplevelHandle) {
        handles.removeAll { $0 === h }
        changed = true
    }
}

/// One toplevel's handle, its description built from the events until `done`.
final class ToplevelHandle {
    let proxy: OpaquePointer
    var value: ForeignToplevels.Toplevel
    private(set) var isDone = false
    private unowned let owner: ForeignToplevels

    init(proxy: OpaquePointer, id: Int, owner: ForeignToplevels) {
        self.proxy = proxy
        self.owner = owner
        value = ForeignToplevels.Toplevel(id: id, title: "", appID: "", activated: false, minimized: false, maximized: false, fullscreen: false)
        zwlr_foreign_toplevel_handle_v1_add_listener(proxy, handleListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { zwlr_foreign_toplevel_handle_v1_destroy(proxy) }

    fileprivate func states(_ array: UnsafeMutablePointer<wl_array>?) {
        var states: Set<UInt32> = []
        if let a = array?.pointee, let data = a.data {
            let words = data.bindMemory(to: UInt32.self, capacity: a.size / 4)
            for k in 0..<(a.size / 4) { states.insert(words[k]) }
        }
        value.activated = states.contains(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_ACTIVATED.rawValue)
        value.minimized = states.contains(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MINIMIZED.rawValue)
        value.maximized = states.contains(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MAXIMIZED.rawValue)
        value.fullscreen = states.contains(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_FULLSCREEN.rawValue)
    }

    fileprivate func done() {
        isDone = true
        owner.changed = true
    }

    fileprivate func closed() { owner.closed(self) }
}

nonisolated(unsafe) private let managerListener: UnsafeMutablePointer<zwlr_foreign_toplevel_manager_v1_listener> = {
    let p = UnsafeMutablePointer<zwlr_foreign_toplevel_manager_v1_listener>.allocate(capacity: 1)
    p.initialize(to: zwlr_foreign_toplevel_manager_v1_listener(
        toplevel: { data, _, handle in
            guard let data, let handle else { return }
            Unmanaged<ForeignToplevels>.fromOpaque(data).takeUnretainedValue().announced(handle)
        },
        finished: { _, _ in }))
    return p
}()

nonisolated(unsafe) private let handleListener: UnsafeMutablePointer<zwlr_foreign_toplevel_handle_v1_listener> = {
    let p = UnsafeMutablePointer<zwlr_foreign_toplevel_handle_v1_listener>.allocate(capacity: 1)
    func me(_ data: UnsafeMutableRawPointer?) -> ToplevelHandle { Unmanaged<ToplevelHandle>.fromOpaque(data!).takeUnretainedValue() }
    p.initialize(to: zwlr_foreign_toplevel_handle_v1_listener(
        title: { data, _, t in me(data).value.title = t.map { String(cString: $0) } ?? "" },
        app_id: { data, _, a in me(data).value.appID = a.map { String(cString: $0) } ?? "" },
        output_enter: { _, _, _ in },
        output_leave: { _, _, _ in },
        state: { data, _, a in me(data).states(a) },
        done: { data, _ in me(data).done() },
        closed: { data, _ in me(data).closed() },
        parent: { _, _, _ in }))
    return p
}()
