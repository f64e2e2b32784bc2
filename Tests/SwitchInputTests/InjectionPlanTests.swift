import SwitchCore
import SwitchInput
import Testing

@Suite struct InjectionPlanTests {
    let plan = InjectionPlan(screen: Size(width: 390, height: 844))
    func steps(_ p: Perform) -> [InjectionStep] { plan.steps(for: TranscriptLine(t: .zero, .perform(p))) }

    @Test func activateTapsTheActivationPoint() {
        #expect(steps(Perform(.activate, id: "ok", label: "", point: Point(x: 195.5, y: 400.9))) == [.tap(x: 195, y: 400)])
    }

    @Test func pointsOffScreenAreClamped() {
        #expect(steps(Perform(.activate, id: "a", label: "", point: Point(x: -5, y: 9000))) == [.tap(x: 0, y: 843)])
        #expect(steps(Perform(.activate, id: "a", label: "", point: Point(x: .nan, y: 390))) == [.tap(x: 0, y: 390)])
    }

    /// Point scanning's Tap (and Always Tap) is a tap at the chosen point, on an item or not.
    @Test func pointScanningTapTapsThePoint() {
        #expect(steps(Perform(.tap, id: "canvas", label: "Canvas", point: Point(x: 120.75, y: 33.2))) == [.tap(x: 120, y: 33)])
        #expect(steps(Perform(.tap, id: "root", label: "", point: Point(x: 500, y: -1))) == [.tap(x: 389, y: 0)])
        #expect(steps(Perform(.tap, id: "root", label: "")) == [.needsBridge("tap on root: no point")])
    }

    @Test func activateWithoutAPointNeedsABridge() {
        #expect(steps(Perform(.activate, id: "a", label: "")) == [.needsBridge("activate a: no activation point to tap; needs an application bridge")])
    }

    @Test func escapePressesEsc() {
        #expect(steps(Perform(.escape, id: "sheet", label: "")) == [.key(EventCodes.KEY_ESC)])
    }

    @Test func customIncrementDecrementNeedABridge() {
        #expect(steps(Perform(.custom("Delete"), id: "cell1", label: "")) == [.needsBridge("custom action \"Delete\" on cell1 needs an application bridge")])
        #expect(steps(Perform(.increment, id: "vol", label: "")) == [.needsBridge("increment vol needs an application bridge")])
        #expect(steps(Perform(.decrement, id: "vol", label: "")) == [.needsBridge("decrement vol needs an application bridge")])
    }

    @Test func otherLinesDoNothing() {
        #expect(plan.steps(for: TranscriptLine(t: .zero, .highlight(id: "a", kind: .item, label: ""))) == [])
        #expect(plan.steps(for: TranscriptLine(t: .zero, .scan(started: true))) == [])
    }

    @Test func aZeroScreenStillHasOnePixel() {
        let p = InjectionPlan(screen: Size(width: 0, height: -3))
        #expect(p.width == 1 && p.height == 1)
        #expect(p.steps(for: TranscriptLine(t: .zero, .perform(Perform(.activate, id: "a", label: "", point: Point(x: 10, y: 10))))) == [.tap(x: 0, y: 0)])
    }
}
