import SwitchCore
import SwitchDisplay

/// The wlroots backend's bundle (sway, issue 30): ONE Wayland connection for all of it, opened at
/// the first use of any part (`WlrootsSession`), driven by the backend's loop adapter
/// (`WaylandDriver`) together with sway's event socket:
///
///     keys      zwp_virtual_keyboard_v1, made at once (GTK calls a window active only while the
///               seat has a keyboard, and a headless seat has none but ours)
///     pointer   zwlr_virtual_pointer_v1
///     overlay   zwlr_layer_shell_v1's OVERLAY layer, an empty input region (`LayerShellSurface`)
///     windows   sway's IPC: get_tree, focus, kill; its window, workspace and output events
///     origins   sway's IPC (`SwayWindows`): every toolkit's extents are window-relative
///
/// On a wlroots compositor without sway's IPC (SWAYSOCK unset: Hyprland, river, labwc …) the
/// pointer, the keys and the overlay work; window origins and the Windows page need sway's IPC,
/// and a note says so.
enum WlrootsBackend {
    static func make(environment: [String: String], notes: [String]) -> DisplayBackend {
        let session = WlrootsSession(environment: environment)
        var notes = notes
        if (environment["SWAYSOCK"] ?? "").isEmpty {
            notes.append("display: SWAYSOCK is not set (not sway): no window origins and no Windows page; "
                         + "frames are relative to each window and the highlight may be misplaced")
        }
        return DisplayBackend(name: .wlroots, notes: notes, missing: { need in missing(need, session.failure) }, connect: {
            guard let parts = session.open() else { return DisplayBackend.DesktopParts() }
            let b = parts.connection.layoutBounds
            return DisplayBackend.DesktopParts(origins: parts.windows, pointer: WlrootsPointer(parts.pointer, connection: parts.connection),
                                               keys: WlrootsKeys(parts.keyboard, connection: parts.connection), windows: parts.windows,
                                               screen: Size(width: Double(b.x + b.width), height: Double(b.y + b.height)))
        }, overlay: { () throws(OverlayError) -> OverlaySurface in
            guard let parts = session.open() else {
                throw OverlayError("--show: \(session.failure ?? "the Wayland compositor cannot be reached")")
            }
            return try LayerShellSurface(connection: parts.connection, compositor: session.compositor)
        }, driver: session.driver)
    }

    /// What a perform that needs a missing part says.
    static func missing(_ need: DisplayNeed, _ failure: String?) -> String {
        let why = failure ?? "the Wayland compositor's virtual devices are not available"
        return need.missingWords(why, windows: failure.map { "windows cannot be switched: \($0)" }
                                 ?? "windows cannot be switched: sway's IPC is needed (SWAYSOCK is not set)")
    }
}

/// The wlroots backend's one connection and its parts, opened once (the first part used opens
/// it; a failure is kept and said by every part).
final class WlrootsSession {
    struct Parts {
        let connection: WaylandConnection
        let pointer: VirtualPointer
        let keyboard: VirtualKeyboard
        /// sway's IPC (nil on another wlroots compositor).
        let windows: SwayWindows?
        let events: SwayEvents?
    }

    let environment: [String: String]
    let driver: WaylandDriver
    /// "sway", or the compositor XDG_CURRENT_DESKTOP names.
    let compositor: String
    private var opened: Parts?
    private(set) var failure: String?

    init(environment: [String: String]) {
        self.environment = environment
        let desktop = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").first.map(String.init) ?? ""
        compositor = !(environment["SWAYSOCK"] ?? "").isEmpty ? "sway" : (desktop.isEmpty ? "wlroots" : desktop)
        driver = WaylandDriver(compositor: compositor)
    }

    /// The parts, connected at the first call; nil (and `failure`) when the compositor cannot be
    /// reached or lacks a protocol.
    func open() -> Parts? {
        if let opened { return opened }
        if failure != nil { return nil }
        do {
            let connection = try WaylandConnection(environment: environment)
            let keyboard = try VirtualKeyboard(connection: connection)
            let pointer = try VirtualPointer(connection: connection)
            var windows: SwayWindows?, events: SwayEvents?
            var sources: [WaylandDriver.Source] = []
            if let sock = environment["SWAYSOCK"], !sock.isEmpty {
                do {
                    let ipc = try SwayIPC(socketPath: sock)
                    let e = try SwayEvents(socketPath: sock, events: ["window", "workspace", "shutdown"])
                    let w = SwayWindows(ipc: ipc)
                    sources.append(WaylandDriver.Source(fd: e.fileDescriptor) { [weak w] in
                        do {
                            w?.noteEvents(try e.read())
                            return nil
                        } catch {
                            return "\(error)"
                        }
                    })
                    (windows, events) = (w, e)
                } catch {
                    failure = "sway's IPC at \(sock): \(error)"
                    return nil
                }
            }
            driver.attach(connection, sources: sources, every: windows == nil ? nil : SwayWindows.floatingPollMicroseconds,
                          poll: windows.map { w in { [weak w] in w?.pollFloating() } })
            let parts = Parts(connection: connection, pointer: pointer, keyboard: keyboard, windows: windows, events: events)
            opened = parts
            return parts
        } catch {
            failure = error.description
            return nil
        }
    }
}
