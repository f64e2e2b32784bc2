import SwitchCore
import SwitchDisplay
@testable import SwitchDisplayServers
import Testing

/// The X11 backend's surface on its own (what `Overlay` does not exercise of it), under a real X
/// server, read back as screenshots; part of `OverlayTests` (one X test at a time): a panel's
/// stroke wider than a pixel is drawn inside its rect, and a part drawn in pieces, then whole,
/// covers its whole frame.
extension OverlayTests {
    @Test func x11Surface_aPanelsWideStrokeIsInsideItsRect() throws {
        let x = try XvfbServer()
        let surface = try X11OverlaySurface(display: x.display)
        let red = CursorColor(red: 255, green: 0, blue: 0)
        surface.show(.menu, .panel(frame: PixelRect(x: 100, y: 100, width: 50, height: 40), shapes: [
            .rect(.init(PixelRect(x: 0, y: 0, width: 50, height: 40), fill: SceneColor(.white))),
            .rect(.init(x: 10, y: 10, w: 20, h: 20, stroke: SceneColor(red), lineWidth: 3)),
        ]))
        surface.sync()
        let s = try #require(Screenshot.capture(display: x.display))
        // The stroke: x 110…112 and 127…129 on the left and right, y 110…112 and 127…129 at the top and bottom.
        for (px, py) in [(110, 120), (112, 120), (127, 120), (129, 120), (120, 110), (120, 112), (120, 127), (120, 129)] {
            #expect(s.has(red, px, py), "stroke at \(px),\(py) is \(String(s.rgb(px, py), radix: 16))")
        }
        for (px, py) in [(109, 120), (113, 120), (126, 120), (130, 120), (120, 120), (120, 109), (120, 130)] {
            #expect(s.rgb(px, py) == 0xFFFFFF, "not stroke at \(px),\(py) is \(String(s.rgb(px, py), radix: 16))")
        }
        surface.close()
    }

    @Test func x11Surface_aPartInPiecesThenWhole_coversItsWholeFrame() throws {
        let x = try XvfbServer()
        let surface = try X11OverlaySurface(display: x.display)
        let frame = PixelRect(x: 200, y: 200, width: 40, height: 40)
        surface.show(.crosshair, .pieces(frame: frame, pieces: [PixelRect(x: 0, y: 0, width: 40, height: 4)], color: .blue))
        surface.sync()
        var s = try #require(Screenshot.capture(display: x.display))
        #expect(s.has(.blue, 220, 201) && !s.has(.blue, 220, 220))
        surface.show(.crosshair, .pieces(frame: frame, pieces: nil, color: .blue))
        surface.sync()
        s = try #require(Screenshot.capture(display: x.display))
        #expect(s.has(.blue, 220, 201) && s.has(.blue, 220, 220) && s.has(.blue, 239, 239) && !s.has(.blue, 240, 240))
        surface.hide(.crosshair)
        surface.sync()
        s = try #require(Screenshot.capture(display: x.display))
        #expect(!s.pixels.contains(CursorColor.blue.rgb))
        surface.close()
    }
}
