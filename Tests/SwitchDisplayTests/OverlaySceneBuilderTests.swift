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
        let fill = OverlayScene.Color(Self.blue)
        #expect(b.takeScene() == OverlayScene([.rect(.init(x: 96, y: 96, w: 208, h: 4, fill: fill)), .rect(.init(x: 96, y: 160, w: 208, h: 4, fill: fill))]))
        // A line: the whole frame.
        b.show(.pointLineX, .pieces(frame: PixelRect(x: 10, y: 0, width: 2, height: 600), pieces: nil, color: Self.blue))
        #expect(b.scene.shapes.last == .rect(.init(x: 10, y: 0, w: 2, h: 600, fill: fill)))
    }

    @Test func show_theSameAgainOnTop_changesNothing_anotherPartShownAgain_comesOnTop() {
        var b = OverlaySceneBuilder()
        b.show(.ring, Self.ring)
        b.show(.menu, .panel(frame: PixelRect(x: 310, y: 100, width: 80, height: 40), shapes: [.rect(.init(x: 0, y: 0, w: 80, h: 40, fill: OverlayScene.Color(.white)))]))
        _ = b.takeScene()
        b.show(.menu, .panel(frame: PixelRect(x: 310, y: 100, width: 80, height: 40), shapes: [.rect(.init(x: 0, y: 0, w: 80, h: 40, fill: OverlayScene.Color(.white)))]))
        #expect(b.takeScene() == nil)
        b.show(.ring, Self.ring)  // raised over the menu
        #expect(b.parts.map(\.part) == [.menu, .ring])
        #expect(b.takeScene()?.shapes.first == .rect(.init(x: 310, y: 100, w: 80, h: 40, fill: OverlayScene.Color(.white))))
    }

    @Test func panel_shapesAreMovedByItsFrame() {
        var b = OverlaySceneBuilder()
        b.show(.exitTab, .panel(frame: PixelRect(x: 80, y: 270, width: 90, height: 25),
                                shapes: [.text(.init(x: 15, y: 4, text: "Exit group", size: 15, color: OverlayScene.Color(.black)))]))
        #expect(b.scene.shapes == [.text(.init(x: 95, y: 274, text: "Exit group", size: 15, color: OverlayScene.Color(.black)))])
    }

    @Test func arc_isAPieRing_andNothingAtZeroDegrees() {
        var b = OverlaySceneBuilder()
        b.show(.countdownArc, .arc(OverlayArc(centerX: 200, centerY: 150, radius: 32, thickness: 7, sweepDegrees: 90, color: Self.blue)))
        #expect(b.scene.shapes == [.pie(.init(cx: 200, cy: 150, r: 32, inner: 25, fraction: 0.25, fill: OverlayScene.Color(Self.blue)))])
        b.show(.countdownArc, .arc(OverlayArc(centerX: 200, centerY: 150, radius: 32, thickness: 7, sweepDegrees: 0, color: Self.blue)))
        #expect(b.scene.isEmpty)
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
        #expect(b.takeScene() == OverlayScene())
    }
}
