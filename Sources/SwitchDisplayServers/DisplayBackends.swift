import SwitchDisplay
import SwitchInput

/// The backends this build has, and the one a run takes (`DisplaySession.choose`: the session's,
/// else X11 through Xwayland, else none; `--display` forces one of them). One folder per backend
/// beside this file.
public enum DisplayBackends {
    public static let built: [DisplayBackendName] = [.x11, .wlroots, .kwin, .gnome, .none]

    /// The backend for the session in `environment` (or `forced`), not yet connected; a forced
    /// backend this build lacks is refused.
    public static func open(_ environment: [String: String], forced: DisplayBackendName? = nil) -> Result<DisplayBackend, DisplaySession.Refusal> {
        DisplaySession.choose(environment, forced: forced, built: built).map { choice in
            switch choice.backend {
            case .x11:
                return X11Backend.make(notes: [choice.note])
            case .wlroots:
                return WlrootsBackend.make(environment: environment, notes: [choice.note])
            case .kwin:
                return KWinBackend.make(environment: environment, notes: [choice.note])
            case .gnome:
                return GnomeBackend.make(environment: environment, notes: [choice.note])
            case .none:
                // A Wayland compositor without a backend (Weston, an unknown one): AT-SPI actions,
                // speech instead of the highlight, uinput for keys and the pointer where allowed.
                let wayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty || environment["XDG_SESSION_TYPE"]?.lowercased() == "wayland"
                if forced == nil, wayland {
                    return ElsewhereBackend.make(environment: environment, reason: choice.reason)
                }
                // Nothing to draw on or act through: AT-SPI actions only. Without DISPLAY the
                // overlay says what it always said (it needs an X server).
                // With a display there, it was turned off.
                guard !(environment["DISPLAY"] ?? "").isEmpty else {
                    return DisplayBackend.none(notes: [choice.note], missing: X11Backend.missing, overlay: .noDisplaySet)
                }
                return DisplayBackend.none(notes: [choice.note], missing: { _ in "the display backend is none (\(choice.reason)): it cannot do that" },
                                           overlay: OverlayError("--show: the display backend is none (\(choice.reason)), which draws no highlight"))
            }
        }
    }

    /// The backend's own loop adapter, when its parts share a connection the live loop must read
    /// (`DisplayBackend.driver`: Wayland's `WaylandDriver`); nil for X11 and none.
    public static func loopAdapter(for backend: DisplayBackend) -> LoopAdapter? {
        backend.driver as? LoopAdapter
    }
}
