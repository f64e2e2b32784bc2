import SwitchCore
import SwitchDisplay

/// The X11 backend's bundle: the desktop's parts on one connection to DISPLAY (opened at their
/// first use; none of them without a display), XTest for the pointer and the keys, EWMH for the
/// windows and their origins; the overlay on a connection of its own.
enum X11Backend {
    static func make(notes: [String]) -> DisplayBackend {
        DisplayBackend(name: .x11, notes: notes, missing: missing, connect: {
            guard let x = XDisplay() else { return DisplayBackend.DesktopParts() }
            let windows = X11Windows(x)
            return DisplayBackend.DesktopParts(origins: windows, pointer: x, keys: KeySender(x), windows: windows, screen: x.screenSize)
        }, overlay: { () throws(OverlayError) -> OverlaySurface in
            try X11OverlaySurface()
        })
    }

    /// What the live desktop says when there is no X display (or the part it needs cannot work).
    static func missing(_ need: DisplayNeed) -> String {
        switch need {
        case .click: "no X display to click on"
        case .scroll: "no X display to scroll on"
        case .pointerGesture: "no X display with XTest for the pointer"
        case .escapeKey: "no X display to press Escape on"
        case .keys: "no X display to send keys on"
        case .typing: "no X display to send the keys on"
        case .windows: "no X display: windows cannot be switched"
        }
    }
}
