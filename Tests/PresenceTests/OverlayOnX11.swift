import SwitchDisplay
import SwitchDisplayServers
import SwitchOverlay

extension Overlay {
    /// The overlay on the X display `display` (DISPLAY's when nil), as `run --show` opens it
    /// through the X11 backend.
    convenience init(settings: Settings, display: String? = nil) throws(OverlayError) {
        try self.init(settings: settings, surface: X11OverlaySurface(display: display))
    }
}
