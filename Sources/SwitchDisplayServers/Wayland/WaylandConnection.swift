internal import CWayland
import Glibc
import SwitchInput

/// One connection to the Wayland compositor, driven by the live loop without a thread of its own
/// (issue 30): before each wait `prepare` says which descriptor to watch (the display's socket,
/// readable, and writable while requests wait to go out), after it `dispatch` reads what came
/// and runs the listeners. libwayland's reader protocol, single-threaded:
///
///     prepare:  cancel a read left prepared ─→ prepare_read (dispatch_pending until it
///               succeeds: events already queued run first) ─→ flush (EAGAIN: watch writable)
///     dispatch: readable or hung up → read_events (never blocks: libwayland reads with
///               MSG_DONTWAIT) │ else cancel_read ─→ dispatch_pending ─→ flush
///
/// A read stays prepared between the two; `wait` (setup, tests) runs the same two steps around
/// poll(2), so nothing here ever blocks on the compositor without a deadline. At connect it binds
/// what every route needs: wl_compositor, wl_shm, the first wl_seat, every wl_output with its
/// xdg-output (logical position and size: `outputs`). A lost connection (the compositor ended,
/// or a protocol error) is kept in `failure` and every later call does nothing.
public final class WaylandConnection {
    public struct Global: Equatable, Sendable {
        public var name: UInt32
        public var interface: String
        public var version: UInt32
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// WAYLAND_DISPLAY is not set.
        case noDisplay
        case cannotConnect(path: String, errno: Int32)
        /// The compositor closed the connection or raised a protocol error.
        case lost(String)
        case timedOut(String)
        /// The compositor lacks an interface a route needs.
        case missing(String)

        public var description: String {
            switch self {
            case .noDisplay: return "WAYLAND_DISPLAY is not set: no Wayland session"
            case .cannotConnect(let path, let e): return "cannot connect to the Wayland compositor at \(path): \(String(cString: strerror(e)))"
            case .lost(let why): return "the Wayland compositor connection was lost: \(why)"
            case .timedOut(let what): return "the Wayland compositor did not answer in time (\(what))"
            case .missing(let interface): return "the Wayland compositor does not offer \(interface)"
            }
        }
    }

    let display: OpaquePointer
    private var registry: OpaquePointer?
    /// By registry name.
    public private(set) var globals: [UInt32: Global] = [:]
    /// The socket connected to.
    public let socketPath: String
    public private(set) var failure: Failure?
    private(set) var compositor: OpaquePointer?
    private(set) var compositorVersion: UInt32 = 0
    private(set) var shm: OpaquePointer?
    private(set) var seat: OpaquePointer?
    private var outputManager: OpaquePointer?
    private(set) var outputObjects: [WaylandOutput] = []
    /// Told after the outputs changed (one added and described, or one removed).
    var outputsChanged: [() -> Void] = []
    private var readPrepared = false
    private var wantsWrite = false

    /// The socket a client connects to: WAYLAND_DISPLAY (a path, or a name in XDG_RUNTIME_DIR).
    public static func socketPath(environment: [String: String]) -> String? {
        guard let name = environment["WAYLAND_DISPLAY"], !name.isEmpty else { return nil }
        if name.hasPrefix("/") { return name }
        return (environment["XDG_RUNTIME_DIR"] ?? "") + "/" + name
    }

    /// Connects, reads the globals and the outputs (two round trips, at most `timeout` s each).
    public init(environment: [String: String], timeout: Double = 5) throws(Failure) {
        guard let path = WaylandConnection.socketPath(environment: environment) else { throw .noDisplay }
        guard let d = wl_display_connect(path) else { throw .cannotConnect(path: path, errno: errno) }
        display = d
        socketPath = path
        registry = wl_display_get_registry(d)
        wl_registry_add_listener(registry, registryListener, Unmanaged.passUnretained(self).toOpaque())
        try roundtrip(timeout: timeout, for: "the registry")
        guard compositor != nil else { throw .missing("wl_compositor") }
        guard shm != nil else { throw .missing("wl_shm") }
        try wait(timeout: timeout, for: "the outputs' descriptions") { outputObjects.allSatisfy(\.isDescribed) }
    }

    deinit {
        if readPrepared { wl_display_cancel_read(display) }
        outputObjects.removeAll()
        if let outputManager { zxdg_output_manager_v1_destroy(outputManager) }
        if let seat { wl_seat_destroy(seat) }
        if let shm { wl_shm_destroy(shm) }
        if let compositor { wl_compositor_destroy(compositor) }
        if let registry { wl_registry_destroy(registry) }
        if failure == nil { wl_display_flush(display) }
        wl_display_disconnect(display)
    }

    /// The display's socket (what the loop watches).
    public var fileDescriptor: Int32 { wl_display_get_fd(display) }

    /// The outputs, described (logical geometry from xdg-output), in the order announced.
    public var outputs: [WaylandOutputInfo] { outputObjects.filter(\.isDescribed).map(\.info) }

    /// The rectangle all outputs span, in logical pixels (the virtual pointer's extent).
    public var layoutBounds: (x: Int, y: Int, width: Int, height: Int) {
        let o = outputs
        guard let first = o.first else { return (0, 0, 0, 0) }
        var x0 = first.x, y0 = first.y, x1 = first.x + first.width, y1 = first.y + first.height
        for i in o.dropFirst() {
            x0 = min(x0, i.x); y0 = min(y0, i.y); x1 = max(x1, i.x + i.width); y1 = max(y1, i.y + i.height)
        }
        return (x0, y0, x1 - x0, y1 - y0)
    }

    /// The first global of `interface`.
    public func global(_ interface: String) -> Global? {
        globals.values.filter { $0.interface == interface }.min { $0.name < $1.name }
    }

    /// Binds the first global of `interface` at the highest version both sides know, at most
    /// `maxVersion`; nil when the compositor does not offer it (or this module does not carry it).
    func bind(_ interface: String, upTo maxVersion: UInt32) -> (proxy: OpaquePointer, version: UInt32)? {
        guard let g = global(interface) else { return nil }
        return bind(g, upTo: maxVersion)
    }

    func bind(_ g: Global, upTo maxVersion: UInt32) -> (proxy: OpaquePointer, version: UInt32)? {
        guard let registry, let iface = cwl_interface_named(g.interface) else { return nil }
        let version = min(g.version, maxVersion, cwl_interface_version(g.interface))
        guard version > 0, let raw = wl_registry_bind(registry, g.name, iface, version) else { return nil }
        return (OpaquePointer(raw), version)
    }

    // MARK: - The loop

    /// Before the loop's wait: the socket to watch (nothing once the connection is lost).
    public func prepare() -> LoopInterest {
        guard failure == nil else { return LoopInterest() }
        if readPrepared {
            wl_display_cancel_read(display)
            readPrepared = false
        }
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { noteLost(); return LoopInterest() }
        }
        readPrepared = true
        flush()
        guard failure == nil else { return LoopInterest() }
        return LoopInterest(fds: [LoopFD(fd: fileDescriptor, events: LoopFD.readable | (wantsWrite ? LoopFD.writable : 0))])
    }

    /// After the wait: `ready` holds the socket's poll(2) bits if it was ready.
    public func dispatch(ready: [LoopFD]) {
        guard failure == nil else { return }
        let fd = fileDescriptor
        let bits = ready.first { $0.fd == fd }?.events ?? 0
        if readPrepared {
            readPrepared = false
            if bits & (LoopFD.readable | UInt32(POLLHUP) | UInt32(POLLERR)) != 0 {
                if wl_display_read_events(display) < 0 { noteLost(); return }
            } else {
                wl_display_cancel_read(display)
            }
        }
        if wl_display_dispatch_pending(display) < 0 { noteLost(); return }
        flush()
    }

    /// Sends what is queued; a full socket is watched for writability by the next `prepare`.
    public func flush() {
        guard failure == nil else { return }
        if wl_display_flush(display) < 0 {
            if errno == EAGAIN { wantsWrite = true } else { noteLost() }
        } else {
            wantsWrite = false
        }
    }

    /// Runs the loop's two steps around poll(2) until `done` holds (setup and tests; the live
    /// loop never calls it). Throws when the connection is lost or `timeout` s pass.
    public func wait(timeout: Double, for what: String, until done: () -> Bool) throws(Failure) {
        let deadline = WaylandConnection.monotonicSeconds() + timeout
        while true {
            if let failure { throw failure }
            if done() { return }
            let interest = prepare()
            if let failure { throw failure }
            let left = deadline - WaylandConnection.monotonicSeconds()
            if left <= 0 {
                dispatch(ready: [])
                throw .timedOut(what)
            }
            var pfd = pollfd(fd: fileDescriptor, events: Int16(truncatingIfNeeded: interest.fds.first?.events ?? 0), revents: 0)
            let n = poll(&pfd, 1, Int32(min(left * 1000 + 1, 1000)))
            dispatch(ready: n > 0 ? [LoopFD(fd: pfd.fd, events: UInt32(UInt16(bitPattern: pfd.revents)))] : [])
        }
    }

    /// Waits until the compositor has handled every request sent so far (wl_display.sync).
    public func roundtrip(timeout: Double = 5, for what: String = "a round trip") throws(Failure) {
        guard failure == nil else { throw failure! }
        let flag = SyncFlag()
        guard let callback = wl_display_sync(display) else { throw .lost("wl_display.sync failed") }
        wl_callback_add_listener(callback, syncListener, Unmanaged.passUnretained(flag).toOpaque())
        defer { if !flag.done { wl_callback_destroy(callback) } }
        try wait(timeout: timeout, for: what) { flag.done }
    }

    static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Milliseconds for input requests' time stamps (CLOCK_MONOTONIC, as compositors use).
    static func milliseconds() -> UInt32 {
        UInt32(truncatingIfNeeded: Int64(monotonicSeconds() * 1000))
    }

    private func noteLost() {
        guard failure == nil else { return }
        let code = wl_display_get_error(display)
        var why = code == EPROTO ? "protocol error" : String(cString: strerror(code))
        if code == EPROTO {
            var iface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let pcode = wl_display_get_protocol_error(display, &iface, &id)
            let name = iface.map { String(cString: $0.pointee.name) } ?? "?"
            why = "protocol error \(pcode) on \(name)@\(id)"
        }
        failure = .lost(why)
        if readPrepared {
            wl_display_cancel_read(display)
            readPrepared = false
        }
    }

    // MARK: - Registry

    fileprivate func announce(_ name: UInt32, _ interface: String, _ version: UInt32) {
        let g = Global(name: name, interface: interface, version: version)
        globals[name] = g
        switch interface {
        case "wl_compositor" where compositor == nil:
            if let (proxy, version) = bind(g, upTo: 4) { (compositor, compositorVersion) = (proxy, version) }
        case "wl_shm" where shm == nil:
            shm = bind(g, upTo: 1)?.proxy
        case "wl_seat" where seat == nil:
            seat = bind(g, upTo: 1)?.proxy
        case "zxdg_output_manager_v1" where outputManager == nil:
            outputManager = bind(g, upTo: 3)?.proxy
            for o in outputObjects { o.describe(with: outputManager) }
        case "wl_output":
            guard let (proxy, version) = bind(g, upTo: 4) else { return }
            let output = WaylandOutput(proxy: proxy, version: version, globalName: name) { [unowned self] in
                for f in outputsChanged { f() }
            }
            outputObjects.append(output)
            output.describe(with: outputManager)
        default:
            break
        }
    }

    fileprivate func remove(_ name: UInt32) {
        globals[name] = nil
        if let k = outputObjects.firstIndex(where: { $0.globalName == name }) {
            outputObjects.remove(at: k)
            for f in outputsChanged { f() }
        }
    }

    /// The output object behind a description (the overlay puts a surface on each).
    func outputObject(named name: String) -> WaylandOutput? {
        outputObjects.first { $0.info.name == name }
    }
}

/// A round trip's end, set by wl_callback.done.
private final class SyncFlag {
    var done = false
}

// Listeners are plain C structs of function pointers that libwayland keeps: made once, never freed.
nonisolated(unsafe) private let registryListener: UnsafeMutablePointer<wl_registry_listener> = {
    let p = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
    p.initialize(to: wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let data, let interface else { return }
            Unmanaged<WaylandConnection>.fromOpaque(data).takeUnretainedValue().announce(name, String(cString: interface), version)
        },
        global_remove: { data, _, name in
            guard let data else { return }
            Unmanaged<WaylandConnection>.fromOpaque(data).takeUnretainedValue().remove(name)
        }))
    return p
}()

nonisolated(unsafe) private let syncListener: UnsafeMutablePointer<wl_callback_listener> = {
    let p = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
    p.initialize(to: wl_callback_listener(done: { data, callback, _ in
        guard let data else { return }
        Unmanaged<SyncFlag>.fromOpaque(data).takeUnretainedValue().done = true
        wl_callback_destroy(callback)
    }))
    return p
}()
