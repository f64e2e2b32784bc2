import SwitchCore
import Testing

/// The gestures as timed pointer operations (PointerGesture.swift's header table).
@Suite struct PointerGestureTests {
    let p = Point(x: 30, y: 50)
    func ops(_ a: Perform.Action, point: Point? = Point(x: 30, y: 50), hold: Interval = .seconds(1)) -> [String]? {
        PointerGesture.ops(for: Perform(a, id: "a", label: "A", point: point), holdTime: hold)?.map { t in
            let at = t.after.microseconds / 1000
            switch t.op {
            case .move(let p): return "\(at) move \(p)"
            case .button(let b, let down): return "\(at) \(b) \(down ? "down" : "up")"
            case .wheel(let d): return "\(at) wheel \(d.rawValue)"
            }
        }
    }

    @Test func clicks() {
        #expect(ops(.rightClick) == ["0 move (30, 50)", "0 right down", "0 right up"])
        #expect(ops(.middleClick) == ["0 move (30, 50)", "0 middle down", "0 middle up"])
        #expect(ops(.doubleClick) == ["0 move (30, 50)", "0 left down", "0 left up", "50 left down", "50 left up"])
    }

    @Test func holdKeepsTheButtonDownForTheHoldTime() {
        #expect(ops(.hold, hold: .seconds(1.5)) == ["0 move (30, 50)", "0 left down", "1500 left up"])
    }

    @Test func scrollIsFiveWheelClicks() {
        #expect(ops(.scroll(.up)) == ["0 move (30, 50)", "0 wheel up", "20 wheel up", "40 wheel up", "60 wheel up", "80 wheel up"])
        #expect(ops(.scroll(.down), point: nil) == nil)
    }

    @Test func dragMovesInTenStepsOverHalfASecond() {
        let d = ops(.drag(from: Point(x: 0, y: 0), to: Point(x: 100, y: 200)), point: nil)!
        #expect(d.prefix(2) == ["0 move (0, 0)", "0 left down"])
        #expect(d[2] == "50 move (10, 20)")
        #expect(d[11] == "500 move (100, 200)")
        #expect(d.last == "500 left up")
        #expect(d.count == 13)
    }

    @Test func notGestures() {
        for a: Perform.Action in [.tap, .activate, .escape, .key("Ctrl+C"), .lockScreen, .custom("x")] { #expect(ops(a) == nil) }
    }
}
