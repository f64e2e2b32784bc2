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

    /// The scanning keyboard's pieces (issue 18) are key events on the uinput keyboard, a
    /// password's too (the transcript shows bullets; the keys are the text).
    @Test func typedTextIsAnEditOnTheKeyboard() {
        let edit = KeyboardText.Edit(delete: 1, text: "Hé! ", move: -1)
        #expect(plan.steps(for: TranscriptLine(t: .zero, .typed(TypedText(edit, key: "kbd:word:he", secure: true)))) == [.edit(edit)])
        #expect(plan.steps(for: TranscriptLine(t: .zero, .keyboard(.opened(layout: "qwerty", page: "letters", id: nil, label: nil, password: false)))) == [])
    }

    @Test func aZeroScreenStillHasOnePixel() {
        let p = InjectionPlan(screen: Size(width: 0, height: -3))
        #expect(p.width == 1 && p.height == 1)
        #expect(p.steps(for: TranscriptLine(t: .zero, .perform(Perform(.activate, id: "a", label: "", point: Point(x: 10, y: 10))))) == [.tap(x: 0, y: 0)])
    }

    // MARK: The scanner menu's gestures and keys (issue 23)

    @Test func gesturesGoToThePointerAndKeysToTheKeyboard() throws {
        let right = steps(Perform(.rightClick, id: "a", label: "", point: Point(x: 30, y: 50)))
        #expect(right == [.pointer([TimedPointerOp(after: .zero, .move(Point(x: 30, y: 50))),
                                    TimedPointerOp(after: .zero, .button(.right, down: true)),
                                    TimedPointerOp(after: .zero, .button(.right, down: false))])])
        #expect(steps(Perform(.key("Ctrl+Shift+Z"), id: "a", label: "")) == [.keys(try KeyCombo(parsing: "Ctrl+Shift+Z"))])
        #expect(steps(Perform(.scroll(.down), id: "list", label: "")) == [.needsBridge("scroll on list: no point; needs an application bridge")])
        #expect(steps(Perform(.lockScreen, id: "a", label: "")).isEmpty)
        let hold = InjectionPlan(screen: Size(width: 10, height: 10), holdTime: .seconds(3))
        guard case .pointer(let ops) = hold.steps(for: TranscriptLine(t: .zero, .perform(Perform(.hold, id: "a", label: "", point: Point(x: 1, y: 1))))).first else {
            return #expect(Bool(false))
        }
        #expect(ops.last?.after == .seconds(3))
    }

    @Test func timedStepsKeepOrderAndNeverInterleaveGestures() {
        let q = TimedSteps<String>()
        q.schedule([(.zero, "a down"), (.milliseconds(10), "a up")], now: 1_000)
        q.schedule([(.zero, "b down"), (.zero, "b up")], now: 1_005)   // starts after a's last step
        #expect(q.deadline == 1_000)
        #expect(q.takeDue(1_005) == ["a down"])
        #expect(q.deadline == 11_000)
        #expect(q.takeDue(11_000) == ["a up", "b down", "b up"])
        #expect(q.isEmpty && q.deadline == nil)
        q.schedule([(.seconds(1), "late")], now: 0)
        #expect(q.takeAll() == ["late"])
    }
}
