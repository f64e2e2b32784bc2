import SwitchCore
import SwitchDisplay
@testable import SwitchOverlay
import Testing

/// What the overlay draws for point scanning and group selection, without X: the pieces for each
/// transcript event at each instant (the timeline in MethodPicture.swift's header).
struct MethodPictureTests {
    static let screen = PixelRect(x: 0, y: 0, width: 400, height: 800)
    static func at(_ s: Double) -> Instant { .seconds(s) }

    /// `sweep x band 150 wide 0 → 250 in 5.000 s` at t = 0.
    static let xBand = Sweep(.band, .x, width: 150, .moving(from: 0, to: 250, duration: .seconds(5)))

    @Test func point_xBand_movesLinearlyAndIsDrawnAsItsTwoEdges() {
        var p = PointPicture()
        do { let changed = p.take(.sweep(Self.xBand), at: .zero); #expect(changed) }
        var s = p.shapes(at: .zero, screen: Self.screen, large: false)
        #expect(s.band == PixelRect(x: 0, y: 0, width: 150, height: 800) && s.bandAxis == .x)
        #expect(s.lineX == nil && s.lineY == nil && s.crosshair == nil)
        s = p.shapes(at: Self.at(2), screen: Self.screen, large: false)  // 50 pt/s
        #expect(s.band == PixelRect(x: 100, y: 0, width: 150, height: 800))
        s = p.shapes(at: Self.at(9), screen: Self.screen, large: false)  // rests at the far edge
        #expect(s.band?.x == 250)
        #expect(PointShapes.bandEdges(width: 150, height: 800, axis: .x, thickness: 4)
                == [PixelRect(x: 0, y: 0, width: 4, height: 800), PixelRect(x: 146, y: 0, width: 4, height: 800)])
    }

    @Test func point_nextFrame_isTheNextWholePixelAtMost60TimesASecondAndNilAtRest() {
        var p = PointPicture()
        _ = p.take(.sweep(Self.xBand), at: .zero)
        // 50 pt/s: a pixel every 20 ms (slower than the 60 Hz cap).
        #expect(p.nextFrame(after: .zero) == Self.at(0.02))
        #expect(p.nextFrame(after: Self.at(0.021)) == Self.at(0.04))
        #expect(p.nextFrame(after: Self.at(4.99)) == Self.at(5))   // the leg's end
        #expect(p.nextFrame(after: Self.at(5)) == nil)             // resting: no timer
        // 1000 pt/s: capped at one frame (16.667 ms).
        _ = p.take(.sweep(Sweep(.band, .x, width: 150, .moving(from: 250, to: 0, duration: .milliseconds(250)))), at: Self.at(6))
        #expect(p.nextFrame(after: Self.at(6)) == Self.at(6) + PointPicture.frameInterval)
        #expect(p.shapes(at: Self.at(6.1), screen: Self.screen, large: false).band?.x == 150)  // moving left
        // A stopped sweep does not move.
        _ = p.take(.sweep(Sweep(.band, .x, width: 150, .stopped(at: 80))), at: Self.at(7))
        #expect(p.nextFrame(after: Self.at(7)) == nil)
    }

    @Test func point_select_band_line_point_timeline() {
        var p = PointPicture()
        _ = p.take(.sweep(Self.xBand), at: .zero)
        _ = p.take(.sweep(Sweep(.band, .x, width: 150, .stopped(at: 80))), at: Self.at(1.6))
        _ = p.take(.sweep(Sweep(.line, .x, width: 0, .moving(from: 80, to: 230, duration: .seconds(6)))), at: Self.at(1.6))
        var s = p.shapes(at: Self.at(2.6), screen: Self.screen, large: false)
        #expect(s.band == PixelRect(x: 80, y: 0, width: 150, height: 800))       // the band = the line's range
        #expect(s.lineX == PixelRect(x: 104, y: 0, width: 2, height: 800))       // 80 + 25 = 105: pixels 104, 105
        _ = p.take(.sweep(Sweep(.line, .x, width: 0, .stopped(at: 120))), at: Self.at(3.2))
        _ = p.take(.sweep(Sweep(.band, .y, width: 120, .moving(from: 0, to: 680, duration: .seconds(13.6)))), at: Self.at(3.2))
        s = p.shapes(at: Self.at(5.2), screen: Self.screen, large: false)
        #expect(s.band == PixelRect(x: 0, y: 100, width: 400, height: 120) && s.bandAxis == .y)
        #expect(s.lineX == PixelRect(x: 119, y: 0, width: 2, height: 800))       // x fixed stays drawn
        #expect(s.lineY == nil)
        _ = p.take(.sweep(Sweep(.band, .y, width: 120, .stopped(at: 100))), at: Self.at(5.2))
        _ = p.take(.sweep(Sweep(.line, .y, width: 0, .moving(from: 100, to: 220, duration: .seconds(4.8)))), at: Self.at(5.2))
        s = p.shapes(at: Self.at(6.2), screen: Self.screen, large: false)
        #expect(s.band == PixelRect(x: 0, y: 100, width: 400, height: 120))
        #expect(s.lineY == PixelRect(x: 0, y: 124, width: 400, height: 2) && s.lineX?.x == 119)
        // The point: only the crosshair (arms 20 px, 2 px thick, a 3-px gap at the centre).
        _ = p.take(.point(Point(x: 120, y: 150), id: nil, label: nil), at: Self.at(7))
        s = p.shapes(at: Self.at(7), screen: Self.screen, large: false)
        #expect(s.band == nil && s.lineX == nil && s.lineY == nil)
        #expect(s.crosshair == PixelRect(x: 100, y: 130, width: 41, height: 41))
        let arms = PointShapes.crosshairArms(large: false)
        #expect(arms.allSatisfy { !$0.contains(20, 20) } && arms.contains { $0.contains(0, 20) } && arms.contains { $0.contains(20, 40) })
        // The menu keeps it; the menu closing clears it.
        do { let changed = p.take(.pointMenuOpened(point: Point(x: 120, y: 150), id: nil, label: nil, items: []), at: Self.at(7)); #expect(changed) }
        do { let changed = p.take(.menuClosed, at: Self.at(8)); #expect(changed) }
        #expect(p.isEmpty && p.shapes(at: Self.at(8), screen: Self.screen, large: false) == PointShapes())
    }

    @Test func point_escape_stepsBackAndRefineDrawsOnlyItsRange() {
        var p = PointPicture()
        _ = p.take(.sweep(Sweep(.line, .x, width: 0, .stopped(at: 120))), at: .zero)
        _ = p.take(.sweep(Sweep(.band, .y, width: 120, .moving(from: 0, to: 680, duration: .seconds(13.6)))), at: .zero)
        // Escape from yBand: the x line again, in the same band; the y band goes.
        _ = p.take(.sweep(Sweep(.line, .x, width: 0, .moving(from: 80, to: 230, duration: .seconds(6)))), at: Self.at(1))
        var s = p.shapes(at: Self.at(1), screen: Self.screen, large: false)
        #expect(s.bandAxis == .x && s.band?.x == 80 && s.lineX?.x == 79 && s.lineY == nil)
        // Refine after a point: the x line over its narrower range, nothing of the earlier pass.
        _ = p.take(.pointMenuOpened(point: Point(x: 120, y: 150), id: nil, label: nil, items: []), at: Self.at(2))
        _ = p.take(.sweep(Sweep(.line, .x, width: 0, .moving(from: 82.5, to: 157.5, duration: .seconds(6)))), at: Self.at(3))
        s = p.shapes(at: Self.at(3), screen: Self.screen, large: false)
        #expect(s.band == PixelRect(x: 82, y: 0, width: 76, height: 800) && s.crosshair == nil && s.lineX?.x == 81)
    }

    @Test func point_stopAndItemModeClearEverything() {
        for end: TranscriptEvent in [.scan(started: false), .mode(.item), .highlight(id: "a", kind: .item, label: "A")] {
            var p = PointPicture()
            _ = p.take(.sweep(Self.xBand), at: .zero)
            do { let changed = p.take(end, at: Self.at(1)); #expect(changed, "\(end)") }
            #expect(p.shapes(at: Self.at(1), screen: Self.screen, large: false) == PointShapes(), "\(end)")
            #expect(p.nextFrame(after: Self.at(1)) == nil)
        }
        var p = PointPicture()
        do { let changed = p.take(.scan(started: false), at: .zero); #expect(!changed) }  // nothing to clear: no redraw
        do { let changed = p.take(.highlight(id: "menu:tap", kind: .menuItem, label: "Tap"), at: .zero); #expect(!changed) }
    }

    @Test func colorGroups_ringEachColoursItemsInItsOkabeItoColour() {
        let frames = ["a": PixelRect(x: 10, y: 10, width: 50, height: 20), "b": PixelRect(x: 100, y: 10, width: 50, height: 20),
                      "c": PixelRect(x: 10, y: 100, width: 50, height: 20)]
        let lines = [ColorGroupLine(color: "blue", ids: ["a", "b"], labels: ["A", "B"], back: false),
                     ColorGroupLine(color: "red", ids: ["c", "gone"], labels: ["C", "Gone"], back: true)]
        let picture = ColorGroupPicture(lines, thickness: 4, screen: Self.screen) { frames[$0] }
        #expect(picture.groups.map(\.color) == [CursorColor(red: 0, green: 0x72, blue: 0xB2), CursorColor(red: 0xD5, green: 0x5E, blue: 0)])
        #expect(picture.groups[0].rings == [PixelRect(x: 6, y: 6, width: 58, height: 28), PixelRect(x: 96, y: 6, width: 58, height: 28)])
        #expect(picture.groups[1].rings == [PixelRect(x: 6, y: 96, width: 58, height: 28)] && picture.groups[1].back)
        let blue = ColorGroupPicture.shape(rings: picture.groups[0].rings, thickness: 4)!
        #expect(blue.bounds == PixelRect(x: 6, y: 6, width: 148, height: 28))
        #expect(blue.rects.count == 8 && blue.rects.contains(PixelRect(x: 90, y: 0, width: 58, height: 4)))
        #expect(picture.edgeRings.first == PixelRect(x: 5, y: 5, width: 60, height: 30))
        #expect(picture.ringedBounds == PixelRect(x: 6, y: 6, width: 148, height: 118))
        // Six distinct colours, none of them the same as another.
        let all = ColorGroups.colorNames.map(ColorGroupPicture.color(named:))
        #expect(Set(all.map(\.rgb)).count == 6)
    }
}
