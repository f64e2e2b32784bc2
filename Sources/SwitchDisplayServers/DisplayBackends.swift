import SwitchDisplay

/// The backends this build has, and the one a run takes (`DisplaySession.choose`: the session's,
/// else X11 through Xwayland, else none; `--display` forces one of them). One folder per backend
/// beside this file.
public enum DisplayBackends {
    public static let built: [DisplayBackendName] = [.x11, .none]

    /// The backend for the session in `environment` (or `forced`), not yet connected; a forced
    /// backend this build lacks is refused.
    public static func open(_ environment: [String: String], forced: DisplayBackendName? = nil) -> Result<DisplayBackend, DisplaySession.Refusal> {
        DisplaySession.choose(environment, forced: forced, built: built).map { choice in
            switch choice.backend {
            case .x11:
                return X11Backend.make(notes: [choice.note])
            case .wlroots, .kwin, .gnome, .none:
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
}
