import SwitchCore
import Testing

@Suite("Hit testing")
struct HitTestTests {
    let model: ScanModel

    init() throws {
        model = ScanModel(tree: try loadTree(screenTree([
            "{\"id\": \"cell\", \"label\": \"Cell\", \"traits\": [\"button\"], \"frame\": [0, 0, 400, 100]}",
            "{\"id\": \"info\", \"label\": \"Info\", \"traits\": [\"button\"], \"frame\": [350, 30, 40, 40]}",
            "{\"id\": \"left\", \"label\": \"Left\", \"traits\": [\"button\"], \"frame\": [0, 200, 100, 50]}",
            "{\"id\": \"right\", \"label\": \"Right\", \"traits\": [\"button\"], \"frame\": [100, 200, 100, 50]}",
            "{\"id\": \"twinA\", \"label\": \"A\", \"traits\": [\"button\"], \"frame\": [0, 300, 100, 50]}",
            "{\"id\": \"twinB\", \"label\": \"B\", \"traits\": [\"button\"], \"frame\": [0, 300, 100, 50]}",
            "{\"id\": \"nowhere\", \"label\": \"No frame\", \"traits\": [\"button\"]}",
            "{\"id\": \"text\", \"label\": \"Plain text\", \"frame\": [0, 400, 400, 50]}",
        ])))
    }

    func hit(_ x: Double, _ y: Double) -> String? { model.hitTest(Point(x: x, y: y)).map { model.items[$0].id } }

    @Test func theSmallestFrameContainingThePointWins() {
        #expect(hit(360, 40) == "info")
        #expect(hit(10, 10) == "cell")
    }

    @Test func framesAreHalfOpenSoASharedEdgeBelongsToOneItem() {
        #expect(hit(100, 220) == "right")
        #expect(hit(99.999, 220) == "left")
        #expect(hit(0, 200) == "left")
        #expect(hit(200, 220) == nil)
        #expect(hit(50, 250) == nil)
    }

    @Test func equalAreasGoToTheLaterItemInScanOrder() {
        #expect(hit(50, 320) == "twinB")
    }

    @Test func aPointOnNoScanItemHitsNothing() {
        #expect(hit(200, 420) == nil)   // static text is not a scan item
        #expect(hit(200, 700) == nil)
    }
}
