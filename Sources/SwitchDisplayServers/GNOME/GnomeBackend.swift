import Glibc
import SwitchCore
import SwitchDisplay
import SwitchInput

/// The GNOME backend's bundle (GNOME Shell on Wayland, issue 30): GNOME gives ordinary clients no
/// overlay, no window positions, no synthetic input and no window list, so all of these come from
/// switchscan's Shell extension on the session bus (packaging/gnome-shell/README.md):
///
///     windows, origins  GetWindows by pid and title (`ToplevelOrigin`: GTK 3 the buffer, Qt 5 the
///                       buffer and its own title bar, GTK 4 the frame), WindowsChanged followed
///     pointer, keys     the extension's virtual devices; text through the Shell's input method
///     overlay           SetScene: the seam's scene painted by St in the top chrome (its own
///                       connection)
///     the Wayland socket  the desktop's bounds (xdg-output) and GNOME Shell going away
///
/// Without the extension (not installed, not enabled, failed) `run` says so with the command that
/// turns it on, and everything goes through AT-SPI actions alone; turned off mid-run: a note, and
/// the same; turned on again: a note, and everything through it again. GNOME Shell gone (its
/// Wayland socket, or org.gnome.Shell leaving the bus): the run ends, said in one line.
enum GnomeBackend {
    static func make(environment: [String: String], notes: [String]) -> DisplayBackend {
        let session = GnomeSession(environment: environment)
        let parts = session.open()
        return DisplayBackend(name: .gnome, notes: notes + session.startNotes, missing: { need in missing(need, session) }, connect: {
            guard let parts else { return DisplayBackend.DesktopParts() }
            let b = session.bounds
            return DisplayBackend.DesktopParts(origins: parts.windows, pointer: parts.input, keys: parts.input, windows: parts.windows,
                                               screen: b.width > 0 ? Size(width: Double(b.x + b.width), height: Double(b.y + b.height)) : nil)
        }, overlay: { () throws(OverlayError) -> OverlaySurface in
            guard parts != nil else { throw OverlayError("--show: \(session.failure ?? "GNOME Shell cannot be reached")") }
            let bus: SessionBus
            do {
                bus = try SessionBus()
            } catch {
                throw OverlayError("--show: \(error)")
            }
            return GnomeOverlaySurface(shell: GnomeShellConnection(bus: bus), bounds: { session.bounds })
        }, driver: session.driver)
    }

    /// What a perform that needs a missing part says.
    static func missing(_ need: DisplayNeed, _ session: GnomeSession) -> String {
        let why = session.failure ?? session.parts?.shell.unavailable?.description ?? "switchscan's GNOME Shell extension does not answer"
        return need.missingWords(why, windows: "windows cannot be switched: \(why)")
    }
}

/// The GNOME backend's connections and parts, opened once.
final class GnomeSession {
    struct Parts {
        let shell: GnomeShellConnection
        let windows: GnomeWindows
        let input: GnomeInput
    }

    let environment: [String: String]
    let driver = GnomeDriver()
    private(set) var parts: Parts?
    /// The Wayland connection (the desktop's bounds; the Shell going away); nil when it could
    /// not be opened (the extension still works without it).
    private(set) var wayland: WaylandConnection?
    /// Why GNOME Shell cannot be reached at all.
    private(set) var failure: String?
    /// What `run` says at its start about the extension (nothing when it answers).
    private(set) var startNotes: [String] = []
    private var opened = false

    init(environment: [String: String]) {
        self.environment = environment
    }

    /// The desktop's logical bounds (all monitors), from the Wayland connection's outputs.
    var bounds: PixelRect {
        guard let b = wayland?.layoutBounds, b.width > 0 else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        return PixelRect(x: b.x, y: b.y, width: b.width, height: b.height)
    }

    func open() -> Parts? {
        if opened { return parts }
        opened = true
        do {
            wayland = try WaylandConnection(environment: environment)
        } catch {
            startNotes.append("the Wayland display cannot be opened (\(error)): the desktop's size is not known, "
                              + "and GNOME Shell going away is noticed on the session bus alone")
        }
        let bus: SessionBus
        do {
            bus = try SessionBus()
        } catch {
            failure = "\(error): switchscan talks to GNOME Shell on the session bus"
            startNotes.append("\(failure!); scanning goes on with AT-SPI actions alone")
            return nil
        }
        let shell = GnomeShellConnection(bus: bus)
        if let gone = shell.shellGone {
            failure = "GNOME Shell is not on the session bus (\(gone))"
            startNotes.append("\(failure!): no highlight, and clicks, keys and the Windows page only where AT-SPI has an action")
            return nil
        }
        if !shell.isUp {
            let installed = GnomeExtension.installedPlace(executable: Executable.realPath(), exists: { access($0, R_OK) == 0 })
            startNotes.append(GnomeExtension.missingNote(shell.shellState(), installed: installed, shellVersion: shell.askShellVersion()))
        }
        let windows = GnomeWindows(shell: shell)
        if environment["SWITCHSCAN_DESKTOP_TRACE"] != nil {
            windows.trace = { text in self.driver.note("desktop: \(text) at \(MonotonicClock.nowMicroseconds())") }
        }
        let p = Parts(shell: shell, windows: windows, input: GnomeInput(shell: shell))
        driver.attach(wayland, parts: p)
        parts = p
        return p
    }

}

/// The GNOME backend's loop adapter: the Wayland connection (`WaylandDriver`: the socket hung up
/// ends the run) and the desktop's session-bus connection, in the one epoll wait; the extension
/// coming and going said on stderr; GNOME Shell leaving the bus ends the run.
///
///     prepare    Wayland's interest + the bus (a source of the Wayland driver, or alone);
///                deadline: now while a note or the Shell's end waits to be said
///     dispatch   Wayland first (a lost compositor is fatal), the bus; the notes, then the fatal
///     finish     the Wayland connection flushed
final class GnomeDriver: LoopAdapter {
    let name = "gnome"
    private let wayland = WaylandDriver(compositor: "GNOME Shell")
    private var hasWayland = false
    private var parts: GnomeSession.Parts?
    private var said = DriverNotes()

    func attach(_ connection: WaylandConnection?, parts: GnomeSession.Parts) {
        self.parts = parts
        let bus = parts.shell.bus
        parts.shell.onExtension { [weak self] up in
            self?.note(up
                ? "switchscan's GNOME Shell extension is back: the highlight, clicks, keys and the Windows page go through it again"
                : "switchscan's GNOME Shell extension was turned off: no highlight, and clicks, keys and the Windows page only where "
                  + "AT-SPI has an action; \(GnomeExtension.enableCommand) brings them back")
        }
        guard let connection else { return }
        hasWayland = true
        wayland.attach(connection, sources: [.sessionBus(bus)])
    }

    /// A note for stderr at the next turn of the loop.
    func note(_ text: String) { said.note(text) }

    func prepare(nowMonotonic: Int64) -> LoopInterest {
        guard !said.ended, let parts else { return LoopInterest() }
        var interest = hasWayland ? wayland.prepare(nowMonotonic: nowMonotonic) : parts.shell.bus.interest
        if said.waiting || parts.shell.shellGone != nil { interest.deadline = nowMonotonic }
        return interest
    }

    func dispatch(ready: [LoopFD], nowMonotonic: Int64) -> [ShellInput] {
        guard !said.ended, let parts else { return [] }
        let out: [ShellInput]
        if hasWayland {
            out = wayland.dispatch(ready: ready, nowMonotonic: nowMonotonic)
        } else {
            if ready.contains(where: { $0.fd == parts.shell.bus.fileDescriptor }) { parts.shell.bus.dispatch() }
            out = []
        }
        return said.turn(out, more: parts.windows.takeNotes(), desktop: "GNOME Shell", gone: parts.shell.shellGone)
    }

    func finish() {
        wayland.finish()
    }
}
