import Glibc
import SwitchCore
import SwitchDisplay
import SwitchInput

/// The KWin backend's bundle (KDE Plasma on Wayland, issue 30): ONE Wayland connection for the
/// overlay and fake input, and the session bus for switchscan's KWin script, opened at the first
/// use of any part (`KWinSession`) and driven by the backend's loop adapter (`KWinDriver`):
///
///     pointer, keys   org_kde_kwin_fake_input (`KWinFakeInput`), one connection for the run; keys
///                     by keysym through the seat's own keymap. Refused (no .desktop grant): said
///                     once with the fix; AT-SPI actions alone
///     overlay         zwlr_layer_shell_v1's OVERLAY layer, an empty input region (`LayerShellSurface`)
///     windows, origins  switchscan's KWin script (`KWinWindows`): every window's bufferGeometry by
///                     pid and caption, followed as they move; activate and close by request
///
/// KWin gone (the Wayland connection or org.kde.KWin lost): the run ends, said in one line.
enum KWinBackend {
    static func make(environment: [String: String], notes: [String]) -> DisplayBackend {
        let session = KWinSession(environment: environment)
        return DisplayBackend(name: .kwin, notes: notes, missing: { need in missing(need, session) }, connect: {
            guard let parts = session.open() else { return DisplayBackend.DesktopParts() }
            let b = parts.connection.layoutBounds
            return DisplayBackend.DesktopParts(origins: parts.windows, pointer: parts.input, keys: parts.input, windows: parts.windows,
                                               screen: Size(width: Double(b.x + b.width), height: Double(b.y + b.height)))
        }, overlay: { () throws(OverlayError) -> OverlaySurface in
            guard let parts = session.open() else {
                throw OverlayError("--show: \(session.failure ?? "KWin's Wayland connection cannot be opened")")
            }
            return try LayerShellSurface(connection: parts.connection, compositor: "KWin")
        }, driver: session.driver)
    }

    /// What a perform that needs a missing part says.
    static func missing(_ need: DisplayNeed, _ session: KWinSession) -> String {
        let why = session.failure ?? session.inputRefusal ?? "KWin's fake input is not available"
        return need.missingWords(why, windows: "windows cannot be switched: " + (session.failure ?? session.windowsOff ?? "KWin's script is not running"))
    }

    /// The fix for a refused fake input, in one note: the .desktop file KWin reads its grants from.
    static func grantFix(binary: String) -> String {
        "to let it click and type, install org.switchscan.switchscan-fake-input.desktop (install.sh and the .deb do: "
            + "share/applications, Exec=\(binary), X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input), run kbuildsycoca5 "
            + "(kbuildsycoca6 on Plasma 6) and start switchscan again"
    }
}

/// The KWin backend's connections and parts, opened once (the first part used opens them; a
/// failure is kept and said by every part).
final class KWinSession {
    struct Parts {
        let connection: WaylandConnection
        /// Fake input (nil: KWin refused it).
        let input: KWinFakeInput?
        /// The script's windows (nil: no session bus).
        let windows: KWinWindows?
    }

    let environment: [String: String]
    let driver: KWinDriver
    private var opened: Parts?
    /// Why nothing could be opened.
    private(set) var failure: String?
    /// Why there is no fake input (KWin refused it).
    private(set) var inputRefusal: String?

    init(environment: [String: String]) {
        self.environment = environment
        driver = KWinDriver()
    }

    /// Why the script is off, when it is.
    var windowsOff: String? {
        if case .off(let why) = opened?.windows?.state { return why }
        return nil
    }

    /// The parts, connected at the first call; nil (and `failure`) when KWin cannot be reached.
    func open() -> Parts? {
        if let opened { return opened }
        if failure != nil { return nil }
        let connection: WaylandConnection
        do {
            connection = try WaylandConnection(environment: environment)
        } catch {
            failure = error.description
            return nil
        }
        var input: KWinFakeInput?
        let binary = KWinSession.executable() ?? "switchscan"
        do {
            input = try KWinFakeInput(connection: connection, binary: binary)
            if input?.layout == nil {
                driver.note("KWin's fake input works, but its seat sent no keymap (\(input?.keymapProblem ?? "no keyboard")): "
                            + "keys cannot be sent")
            }
        } catch {
            inputRefusal = error.description
            driver.note("\(error): clicks and keys go through AT-SPI actions alone; \(KWinBackend.grantFix(binary: binary))")
        }
        var windows: KWinWindows?
        do {
            let bus = try SessionBus()
            let w = KWinWindows(bus: bus)
            w.traceReports = environment["SWITCHSCAN_DESKTOP_TRACE"] != nil
            w.start(scriptPath: KWinScript.locate(environment: environment, executable: KWinSession.executable(),
                                                  exists: { access($0, R_OK) == 0 }))
            windows = w
        } catch {
            driver.note("no session bus (\(error)): no KWin script, so no window positions and no Windows page")
        }
        driver.attach(connection, windows: windows)
        let parts = Parts(connection: connection, input: input, windows: windows)
        opened = parts
        return parts
    }

    /// This binary's real path (what KWin's grant must name).
    static func executable() -> String? { Executable.realPath() }
}

/// The KWin backend's loop adapter: the Wayland connection (`WaylandDriver`: KWin gone ends the
/// run) and the session bus the script talks on, in the one epoll wait, with the request queue's
/// and the script check's deadlines, and the backend's notes said on stderr.
///
///     prepare    Wayland's interest + the bus's descriptor; deadline: the script's, or now when
///                a note waits
///     dispatch   Wayland first (a lost compositor is fatal), the bus, the script's timers; notes
///                and KWin leaving the bus (fatal) returned
///     finish     the script unloaded, the name given up
final class KWinDriver: LoopAdapter {
    let name = "kwin"
    private let wayland = WaylandDriver(compositor: "KWin")
    private(set) var windows: KWinWindows?
    private var said = DriverNotes()
    private var kwinGone: String?

    func attach(_ connection: WaylandConnection, windows: KWinWindows?) {
        self.windows = windows
        if let bus = windows?.bus {
            _ = bus.watchNameOwner(KWinScript.service) { [weak self] owner in
                if owner == nil { self?.kwinGone = "org.kde.KWin left the session bus" }
            }
        }
        wayland.attach(connection, sources: windows.map { [.sessionBus($0.bus)] } ?? [])
    }

    /// A note for stderr at the next turn of the loop.
    func note(_ text: String) { said.note(text) }

    func prepare(nowMonotonic: Int64) -> LoopInterest {
        guard !said.ended else { return LoopInterest() }
        var interest = wayland.prepare(nowMonotonic: nowMonotonic)
        let due = [windows?.deadline, !said.waiting && kwinGone == nil ? nil : nowMonotonic].compactMap { $0 }.min()
        if let due { interest.deadline = min(interest.deadline ?? due, due) }
        return interest
    }

    func dispatch(ready: [LoopFD], nowMonotonic: Int64) -> [ShellInput] {
        guard !said.ended else { return [] }
        let out = wayland.dispatch(ready: ready, nowMonotonic: nowMonotonic)
        windows?.tick(now: nowMonotonic)
        return said.turn(out, more: windows?.takeNotes() ?? [], desktop: "KWin", gone: kwinGone)
    }

    func finish() {
        windows?.stop()
        wayland.finish()
    }
}
