import SwitchCore
import SwitchDisplay

/// One part of the overlay as the overlay last put it on its surface: where it is and whether it
/// shows (what the overlay's own decisions and the tests read back), whichever server draws it.
/// Showing it raises it over every other part. Once the surface lost its server nothing changes
/// here any more (as nothing changes on the screen).
final class SurfacePart {
    let part: OverlayPart
    private let surface: OverlaySurface
    private(set) var frame = PixelRect(x: 0, y: 0, width: 1, height: 1)
    private(set) var isShown = false

    init(_ part: OverlayPart, on surface: OverlaySurface) {
        self.part = part
        self.surface = surface
    }

    func show(_ content: OverlayContent) {
        guard surface.isConnected else { return }
        frame = content.frame
        isShown = true
        surface.show(part, content)
    }

    /// `color` over `pieces` of `frame` (nil: all of it).
    func show(_ frame: PixelRect, pieces: [PixelRect]? = nil, color: CursorColor) {
        show(.pieces(frame: frame, pieces: pieces, color: color))
    }

    func hide() {
        guard isShown, surface.isConnected else { return }
        isShown = false
        surface.hide(part)
    }
}
