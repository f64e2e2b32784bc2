internal import CX11
import SwitchCore

/// Xft colours for the panels' text (TextPanel, KeyboardPanel): allocated for one rendering and
/// freed after it.
extension OverlayDisplay {
    func xftColor(_ c: CursorColor) -> XftColor {
        var render = XRenderColor(red: UInt16(c.red) * 257, green: UInt16(c.green) * 257, blue: UInt16(c.blue) * 257, alpha: 0xFFFF)
        var color = XftColor()
        XftColorAllocValue(display, visual, colormap, &render, &color)
        return color
    }

    func freeXftColor(_ c: inout XftColor) {
        XftColorFree(display, visual, colormap, &c)
    }
}
