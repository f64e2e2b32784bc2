import SwitchCore
import SwitchDisplay
import Testing

/// The overlay surface's calls turned into one scene (the timeline in OverlaySceneBuilder.swift):
/// what the Wayland renderers draw.
@Suite struct OverlaySceneBuilderTests {
    static let blue = CursorColor.blue
    static let ringFrame = PixelRect(x: 96, y: 96, width: 208, height: 68)
    static let ring = OverlayContent.pieces(frame: ringFrame, pieces: [PixelRect(x: 0, y: 0, width: 208, height: 4), PixelRect(x: 0, y: 64, width: 208, height: 4)],
                                            color: blue)

    @Test func show_movesThePiecesOntoTheScreenInTheColour() {
        var b = OverlaySceneBuilder()
        b.show(.ring, Self.ring)
        let fill = SceneColor(Self.blue)
        #expect(b.takeScene() == OverlayScene(shapes: [.rect(.init(x: 96, y: 96, w: 208, h: 4, fill: fill)), .rect(.init(x: 96, y: 160, w: 208, h: 4, fill: fill))]))
        // A line: the whole frame.
        b.show(.pointLineX, .pieces(frame: PixelRect(x: 10, y: 0, width: 2, height: 600), pieces: nil, color: Self.blue))
        #expect(b.scene.shapes.last == .rect(.init(x: 10, y: 0, w: 2, h: 600, fill: fill)))
    }

    @Test func show_theSameAgainOnTop_changesNothing_anotherPartShownAgain_comesOnTop() {
        var b = OverlaySceneBuilder()
        b.show(.ring, Self.ring)
        b.show(.menu, .panel(frame: PixelRect(x: 310, y: 100, width: 80, height: 40), shapes: [.rect(.init(x: 0, y: 0, w: 80, h: 40, fill: SceneColor(.white)))]))
        _ = b.takeScene()
        b.show(.menu, .panel(frame: PixelRect(x: 310, y: 100, width: 80, height: 40), shapes: [.rect(.init(x: 0, y: 0, w: 80, h: 40, fill: SceneColor(.white)))]))
        #expect(b.takeScene() == nil)
        b.show(.ring, Self.ring)  // raised over the menu
        #expect(b.parts.map(\.part) == [.menu, .ring])
        #expect(b.takeScene()?.shapes.first == .rect(.init(x: 310, y: 100, w: 80, h: 40, fill: SceneColor(.white))))
    }

    @Test func panel_shapesAreMovedByItsFrame() {
        var b = OverlaySceneBuilder()
        b.show(.exitTab, .panel(frame: PixelRect(x: 80, y: 270, width: 90, height: 25),
                                shapes: [.text(.init(x: 15, y: 4, text: "Exit group", size: 15, color: SceneColor(.black)))]))
        #expect(b.scene.shapes == [.text(.init(x: 95, y: 274, text: "Exit group", size: 15, color: SceneColor(.black)))])
    }

    /// The countdown as the scene draws it: the track as the whole circle's outline, the arc as a
    /// filled sector, nothing at 0°; and what goes to the GNOME extension reads back the same.
    @Test func arc_theTrackIsTheCirclesOutline_theArcAFilledSector() throws {
        var b = OverlaySceneBuilder()
        let fill = SceneColor(Self.blue), black = SceneColor(.black)
        b.show(.countdownTrack, .arc(OverlayArc(centerX: 200, centerY: 150, radius: 32, thickness: 2, sweepDegrees: 360, color: .black)))
        b.show(.countdownArc, .arc(OverlayArc(centerX: 200, centerY: 150, radius: 32, thickness: 7, sweepDegrees: 90, color: Self.blue)))
        let scene = b.scene
        #expect(scene.shapes == [.pie(.init(cx: 200, cy: 150, r: 32, fraction: 0, fill: black, stroke: black, lineWidth: 2)),
                                 .pie(.init(cx: 200, cy: 150, r: 32, fraction: 0.25, fill: fill))])
        #expect(try OverlayScene(json: scene.json) == scene)
        b.show(.countdownArc, .arc(OverlayArc(centerX: 200, centerY: 150, radius: 32, thickness: 7, sweepDegrees: 0, color: Self.blue)))
        #expect(b.scene.shapes.count == 1)
    }

    @Test func hide_andClose_takeShapesAway_andAnEmptySceneClears() {
        var b = OverlaySceneBuilder()
        b.show(.ring, Self.ring)
        b.show(.crosshair, .pieces(frame: PixelRect(x: 0, y: 0, width: 41, height: 41), pieces: nil, color: Self.blue))
        _ = b.takeScene()
        b.hide(.ring)
        #expect(b.takeScene()?.shapes.count == 1)
        b.hide(.ring)  // hidden already
        #expect(b.takeScene() == nil)
        b.close()
        #expect(b.takeScene() == OverlayScene.empty)
    }
}
