import Testing
import SwitchCore

extension TouchFilter: TimedMachine {
    static func timerEvent(_ id: TimerID) -> Event { .timer(id) }
    static func timerAction(_ o: Output) -> TimerAction<TimerID>? {
        switch o {
        case .setTimer(let id, let at): return .set(id, at)
        case .cancelTimer(let id): return .cancel(id)
        default: return nil
        }
    }
    static func render(_ o: Output) -> String {
        switch o {
        case .tap(let c, let p): return "tap(#\(c), \(p))"
        case .swipe(let c, let from, let to, let d): return "swipe(#\(c), \(from) → \(to), \(d.rawValue))"
        case .hold(let c, let p): return "hold(#\(c), \(p))"
        case .rejected(let c, let r, let p): return "rejected(#\(c), \(r.rawValue), \(p))"
        case .setTimer(let id, let at): return "setTimer(\(id), \(at))"
        case .cancelTimer(let id): return "cancelTimer(\(id))"
        }
    }
}

/// The cases drawn at the top of `TouchFilter.swift`.
@Suite("Touch filter")
struct TouchFilterTests {
    func clock(_ configure: (inout TouchAccommodations) -> Void = { _ in }) -> VirtualClock<TouchFilter> {
        var s = TouchAccommodations()
        configure(&s)
        return VirtualClock(TouchFilter(settings: s))
    }

    func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    func down(_ c: inout VirtualClock<TouchFilter>, _ id: Int, _ x: Double, _ y: Double, at t: Int64) {
        c.send(.contact(.down(id: id, p(x, y))), at: ms(t))
    }
    func move(_ c: inout VirtualClock<TouchFilter>, _ id: Int, _ x: Double, _ y: Double, at t: Int64) {
        c.send(.contact(.moved(id: id, p(x, y))), at: ms(t))
    }
    func up(_ c: inout VirtualClock<TouchFilter>, _ id: Int, _ x: Double, _ y: Double, at t: Int64) {
        c.send(.contact(.up(id: id, p(x, y))), at: ms(t))
    }

    @Test("1) ↓--H|----↑: hold duration passed, a tap at the lift")
    func case1_holdDurationPassed() {
        var c = clock { $0.holdDuration = dms(100) }
        down(&c, 1, 50, 50, at: 0)
        up(&c, 1, 50, 50, at: 100)
        #expect(c.allLines == ["0.000 setTimer(holdDuration(contact: 1), 0.100)", "0.100 tap(#1, (50, 50))"])
    }

    @Test("2) ↓---↑  H: lifted 1 ms before the hold duration: rejected at the lift, at its initial point")
    func case2_holdDurationTooShort() {
        var c = clock { $0.holdDuration = dms(100) }
        down(&c, 1, 50, 50, at: 0)
        move(&c, 1, 70, 50, at: 50)
        up(&c, 1, 75, 50, at: 99)
        c.advance(to: ms(1000))
        #expect(c.lines == ["0.099 rejected(#1, holdDuration, (50, 50))"])
        #expect(c.pendingTimers == 0)
    }

    @Test("3) three quick touches under ignore repeat: the first taps, the other two are rejected at acceptance")
    func case3_threeQuickTouchesUnderIgnoreRepeat() {
        var c = clock { $0.ignoreRepeat = dms(500) }
        down(&c, 1, 10, 10, at: 0); up(&c, 1, 10, 10, at: 80)
        down(&c, 2, 12, 10, at: 200); up(&c, 2, 12, 10, at: 280)
        down(&c, 3, 14, 10, at: 450)
        down(&c, 4, 16, 10, at: 500)
        up(&c, 3, 14, 10, at: 520)
        up(&c, 4, 16, 10, at: 560)
        #expect(c.lines == [
            "0.080 tap(#1, (10, 10))",
            "0.200 rejected(#2, ignoreRepeat, (12, 10))",
            "0.450 rejected(#3, ignoreRepeat, (14, 10))",
            "0.560 tap(#4, (16, 10))",
        ], "#4 started exactly 500 ms after #1 (the rejected ones don't move the anchor)")
    }

    @Test("3) ignore repeat with hold duration: measured between starts, checked at acceptance")
    func case3_ignoreRepeatWithHoldDuration() {
        var c = clock { $0.ignoreRepeat = dms(300); $0.holdDuration = dms(100) }
        down(&c, 1, 10, 10, at: 0); up(&c, 1, 10, 10, at: 150)
        down(&c, 2, 10, 10, at: 250)
        down(&c, 3, 10, 10, at: 300)
        up(&c, 3, 10, 10, at: 350)
        up(&c, 2, 10, 10, at: 400)
        #expect(c.lines == [
            "0.150 tap(#1, (10, 10))",
            "0.350 rejected(#2, ignoreRepeat, (10, 10))",
            "0.350 rejected(#3, holdDuration, (10, 10))",
        ])
    }

    @Test("4) tap assistance off: a touch that wandered less than 10 points is a tap at its initial point")
    func case4_offSmallWanderIsTapAtInitial() {
        var c = clock()
        down(&c, 1, 50, 50, at: 0)
        move(&c, 1, 56, 57, at: 400)   // 9.2 points away
        up(&c, 1, 52, 50, at: 3000)
        #expect(c.lines == ["3.000 tap(#1, (50, 50))"])
    }

    @Test("5) tap assistance off: a touch that got 10 points away is a swipe initial → final, even if it came back")
    func case5_offSwipe() {
        var c = clock()
        down(&c, 1, 50, 50, at: 0)
        move(&c, 1, 50, 60, at: 100)   // exactly 10
        up(&c, 1, 50, 52, at: 200)
        down(&c, 2, 50, 50, at: 300)
        up(&c, 2, 10, 60, at: 400)
        #expect(c.lines == ["0.200 swipe(#1, (50, 50) → (50, 52), down)", "0.400 swipe(#2, (50, 50) → (10, 60), left)"])
    }

    @Test("6) tap assistance initial: a touch that wanders and lifts before the delay taps at its initial point")
    func case6_wanderingTouchInitial() {
        var c = clock { $0.tapAssistance = .initial; $0.tapAssistanceGestureDelay = dms(500) }
        down(&c, 1, 50, 50, at: 0)
        move(&c, 1, 80, 90, at: 200)
        up(&c, 1, 90, 95, at: 499)
        #expect(c.allLines == [
            "0.000 setTimer(gestureDelay(contact: 1), 0.500)",
            "0.499 cancelTimer(gestureDelay(contact: 1))", "0.499 tap(#1, (50, 50))",
        ])
    }

    @Test("7) tap assistance final: the same wandering touch taps at its final point")
    func case7_wanderingTouchFinal() {
        var c = clock { $0.tapAssistance = .final; $0.tapAssistanceGestureDelay = dms(500) }
        down(&c, 1, 50, 50, at: 0)
        move(&c, 1, 80, 90, at: 200)
        up(&c, 1, 90, 95, at: 499)
        #expect(c.lines == ["0.499 tap(#1, (90, 95))"])
    }

    @Test("8) a touch that outlasts the gesture delay and moves is a swipe from where it was when the delay ran out")
    func case8_outlastsDelaySwipe() {
        var c = clock { $0.tapAssistance = .initial; $0.tapAssistanceGestureDelay = dms(500) }
        down(&c, 1, 50, 50, at: 0)
        move(&c, 1, 60, 70, at: 300)
        move(&c, 1, 60, 95, at: 800)
        up(&c, 1, 60, 100, at: 900)
        #expect(c.lines == ["0.900 swipe(#1, (60, 70) → (60, 100), down)"])
    }

    @Test("9) a touch that outlasts the gesture delay and stays within 10 points is a hold where it was then")
    func case9_outlastsDelayHold() {
        var c = clock { $0.tapAssistance = .final; $0.tapAssistanceGestureDelay = dms(500) }
        down(&c, 1, 50, 50, at: 0)
        move(&c, 1, 30, 50, at: 300)
        move(&c, 1, 39, 50, at: 700)   // 9 from where it was at 500
        up(&c, 1, 35, 50, at: 2000)
        #expect(c.lines == ["2.000 hold(#1, (30, 50))"])
    }

    @Test("8) the gesture delay counts from acceptance (after the hold duration)")
    func case8_gestureDelayFromAcceptance() {
        var c = clock { $0.tapAssistance = .initial; $0.tapAssistanceGestureDelay = dms(500); $0.holdDuration = dms(200) }
        down(&c, 1, 50, 50, at: 0)
        up(&c, 1, 70, 50, at: 650)
        down(&c, 2, 50, 50, at: 1000)
        move(&c, 2, 10, 50, at: 1600)
        up(&c, 2, 2, 50, at: 1750)    // 8 points from where it was at 1.700
        #expect(c.allLines == [
            "0.000 setTimer(holdDuration(contact: 1), 0.200)",
            "0.200 setTimer(gestureDelay(contact: 1), 0.700)",
            "0.650 cancelTimer(gestureDelay(contact: 1))", "0.650 tap(#1, (50, 50))",
            "1.000 setTimer(holdDuration(contact: 2), 1.200)",
            "1.200 setTimer(gestureDelay(contact: 2), 1.700)",
            "1.750 hold(#2, (10, 50))",
        ])
    }

    @Test("10) two fingers at once are two contacts; ignore repeat has one anchor for the screen")
    func case10_twoFingers() {
        var c = clock { $0.holdDuration = dms(100); $0.ignoreRepeat = dms(300) }
        down(&c, 1, 10, 10, at: 0)
        down(&c, 2, 90, 90, at: 20)
        up(&c, 2, 90, 90, at: 200)
        up(&c, 1, 40, 10, at: 250)
        #expect(c.lines == ["0.120 rejected(#2, ignoreRepeat, (90, 90))", "0.250 swipe(#1, (10, 10) → (40, 10), right)"])
        var free = clock()
        down(&free, 1, 10, 10, at: 0)
        down(&free, 2, 90, 90, at: 20)
        up(&free, 1, 10, 10, at: 100)
        up(&free, 2, 90, 90, at: 120)
        #expect(free.lines == ["0.100 tap(#1, (10, 10))", "0.120 tap(#2, (90, 90))"])
    }

    @Test("11) device gone: every timer cancelled, nothing decided, later lifts ignored")
    func case11_deviceGone() {
        var c = clock { $0.holdDuration = dms(100); $0.tapAssistance = .initial }
        down(&c, 1, 10, 10, at: 0)
        down(&c, 2, 20, 20, at: 150)
        down(&c, 3, 30, 30, at: 300)
        c.send(.deviceGone, at: ms(320))
        #expect(c.pendingTimers == 0)
        up(&c, 1, 10, 10, at: 400)
        c.advance(to: ms(2000))
        #expect(c.lines.isEmpty)
        #expect(c.allLines.filter { $0.hasPrefix("0.320") } == [
            "0.320 cancelTimer(gestureDelay(contact: 1))", "0.320 cancelTimer(gestureDelay(contact: 2))",
            "0.320 cancelTimer(holdDuration(contact: 3))",
        ])
    }

    @Test("swipe direction: the dominant axis, y grows downwards, ties are horizontal")
    func swipeDirection() {
        let o = p(0, 0)
        #expect(TouchFilter.direction(from: o, to: p(10, 3)) == .right)
        #expect(TouchFilter.direction(from: o, to: p(-10, 3)) == .left)
        #expect(TouchFilter.direction(from: o, to: p(3, 10)) == .down)
        #expect(TouchFilter.direction(from: o, to: p(3, -10)) == .up)
        #expect(TouchFilter.direction(from: o, to: p(10, 10)) == .right)
        #expect(TouchFilter.direction(from: o, to: p(-10, -10)) == .left)
        #expect(TouchFilter.direction(from: o, to: o) == .right)
    }

    @Test("bad input: moves and lifts of unknown contacts, stray timers, a second down for a live id")
    func badInput() {
        var c = clock { $0.holdDuration = dms(100) }
        move(&c, 9, 1, 1, at: 0)
        up(&c, 9, 1, 1, at: 1)
        #expect(c.send(.timer(.holdDuration(contact: 9)), at: ms(2)).isEmpty)
        #expect(c.send(.timer(.gestureDelay(contact: 9)), at: ms(3)).isEmpty)
        down(&c, 1, 10, 10, at: 10)
        down(&c, 1, 20, 20, at: 50)   // the tracker says it's a new touch: the old one is dropped
        up(&c, 1, 20, 20, at: 200)
        #expect(c.allLines == [
            "0.010 setTimer(holdDuration(contact: 1), 0.110)",
            "0.050 cancelTimer(holdDuration(contact: 1))", "0.050 setTimer(holdDuration(contact: 1), 0.150)",
            "0.200 tap(#1, (20, 20))",
        ])
    }

    @Test("tracker → filter: a protocol B touch that wanders, end to end")
    func trackerIntoFilter() {
        var tracker = TouchTracker(device: TouchDevices.protocolB(), screen: TouchDevices.screen)
        var c = clock { $0.tapAssistance = .final; $0.tapAssistanceGestureDelay = dms(300) }
        let frames: [(Int64, [InputEvent])] = [(0, [tid(4), mx(500), my(1000)]), (100, [mx(600)]), (200, [my(1200)]), (250, [tid(-1)])]
        for (t, frame) in frames {
            for contact in tracker.handle(frame: frame) { c.send(.contact(contact), at: ms(t)) }
        }
        #expect(c.lines == ["0.250 tap(#4, (60, 120))"])
    }
}
