import Testing
import SwitchCore

extension TouchPassthrough: TimedMachine {
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
        case .write(let changes): return "write[" + changes.map(renderTouch).joined(separator: " ") + "]"
        case .tap(let c, let p): return "tap(#\(c), \(p))"
        case .gesture(let c, let from, let to, let d): return "gesture(#\(c), \(from) → \(to), \(d))"
        case .rejected(let c, let r, let p): return "rejected(#\(c), \(r.rawValue), \(p))"
        case .countdown(let c, let p, let until): return "countdown(#\(c), \(p), until \(until))"
        case .countdownEnded(let c): return "countdownEnded(#\(c))"
        case .setTimer(let id, let at): return "setTimer(\(id), \(at))"
        case .cancelTimer(let id): return "cancelTimer(\(id))"
        }
    }

    /// `▼0 500,300`, `→0 510,300`, `▲0`: virtual contact 0 down, moved, up (raw units).
    static func renderTouch(_ t: VirtualTouch) -> String {
        switch t {
        case .down(let v, let r): return "▼\(v) \(r.x),\(r.y)"
        case .move(let v, let r): return "→\(v) \(r.x),\(r.y)"
        case .up(let v): return "▲\(v)"
        }
    }
}

/// The cases drawn at the top of `TouchPassthrough.swift`. Raw units are ten times the points.
@Suite("Touch passthrough")
struct TouchPassthroughTests {
    func clock(_ configure: (inout TouchAccommodations) -> Void = { _ in }) -> VirtualClock<TouchPassthrough> {
        var s = TouchAccommodations()
        configure(&s)
        return VirtualClock(TouchPassthrough(settings: s))
    }

    func sample(_ contact: (Int, Point) -> TouchTracker.Contact, _ id: Int, _ x: Double, _ y: Double) -> TouchSample {
        TouchSample(contact(id, Point(x: x, y: y)), RawTouch(x: Int32(x * 10), y: Int32(y * 10)))
    }
    func down(_ c: inout VirtualClock<TouchPassthrough>, _ id: Int, _ x: Double, _ y: Double, at t: Int64) {
        c.send(.contact(sample({ .down(id: $0, $1) }, id, x, y)), at: ms(t))
    }
    func move(_ c: inout VirtualClock<TouchPassthrough>, _ id: Int, _ x: Double, _ y: Double, at t: Int64) {
        c.send(.contact(sample({ .moved(id: $0, $1) }, id, x, y)), at: ms(t))
    }
    func up(_ c: inout VirtualClock<TouchPassthrough>, _ id: Int, _ x: Double, _ y: Double, at t: Int64) {
        c.send(.contact(sample({ .up(id: $0, $1) }, id, x, y)), at: ms(t))
    }
    /// Only what reaches the virtual touchscreen.
    func writes(_ c: VirtualClock<TouchPassthrough>) -> [String] { c.lines.filter { $0.contains("write[") } }
    /// Only the decisions (the transcript's lines).
    func decisions(_ c: VirtualClock<TouchPassthrough>) -> [String] {
        c.lines.filter { !$0.contains("write[") && !$0.contains("countdown") }
    }

    @Test("1) tap assistance off: live from acceptance, one gesture line at the lift")
    func case1_offLiveFromAcceptance() {
        var c = clock { $0.holdDuration = dms(100) }
        down(&c, 3, 50, 50, at: 0)
        move(&c, 3, 52, 50, at: 60)
        move(&c, 3, 60, 50, at: 150)
        move(&c, 3, 90, 50, at: 200)
        up(&c, 3, 90, 55, at: 300)
        #expect(c.lines == [
            "0.100 write[▼0 520,500]",
            "0.150 write[→0 600,500]",
            "0.200 write[→0 900,500]",
            "0.300 write[▲0]", "0.300 gesture(#3, (52, 50) → (90, 55), 0.200s)",
        ])
        #expect(c.pendingTimers == 0)
    }

    @Test("1) without hold duration a touch passes live from its down, a still one too")
    func case1_noHoldDurationPassesFromTheDown() {
        var c = clock()
        down(&c, 1, 10, 20, at: 0)
        up(&c, 1, 10, 20, at: 80)
        #expect(c.allLines == ["0.000 write[▼0 100,200]", "0.080 write[▲0]", "0.080 gesture(#1, (10, 20) → (10, 20), 0.080s)"])
    }

    @Test("2) lifted before the hold duration: rejected, nothing written")
    func case2_tooShortWritesNothing() {
        var c = clock { $0.holdDuration = dms(100); $0.tapAssistance = .final }
        down(&c, 1, 50, 50, at: 0)
        move(&c, 1, 70, 50, at: 50)
        up(&c, 1, 75, 50, at: 99)
        c.advance(to: ms(1000))
        #expect(c.lines == ["0.099 rejected(#1, holdDuration, (50, 50))"])
        #expect(c.pendingTimers == 0)
    }

    @Test("3) a tremor tap: three touches within ignore repeat make one tap on the virtual screen")
    func case3_tremorTapIsOneTap() {
        var c = clock { $0.ignoreRepeat = dms(500); $0.tapAssistance = .initial; $0.tapAssistanceGestureDelay = dms(300) }
        down(&c, 1, 10, 10, at: 0); up(&c, 1, 11, 10, at: 60)
        down(&c, 2, 12, 10, at: 150); up(&c, 2, 12, 11, at: 200)
        down(&c, 3, 14, 10, at: 320); move(&c, 3, 30, 10, at: 330); up(&c, 3, 30, 10, at: 400)
        c.drain()
        #expect(c.lines == [
            "0.060 tap(#1, (10, 10))", "0.060 write[▼0 100,100]",
            "0.110 write[▲0]",
            "0.150 rejected(#2, ignoreRepeat, (12, 10))",
            "0.320 rejected(#3, ignoreRepeat, (14, 10))",
        ])
    }

    @Test("3) a touch after the ignore-repeat time passes again; rejected touches do not move the anchor")
    func case3_anchorIsTheLastPassedTouch() {
        var c = clock { $0.ignoreRepeat = dms(300) }
        down(&c, 1, 10, 10, at: 0); up(&c, 1, 10, 10, at: 50)
        down(&c, 2, 10, 10, at: 200); up(&c, 2, 10, 10, at: 250)
        down(&c, 3, 10, 10, at: 300); up(&c, 3, 10, 10, at: 350)
        #expect(decisions(c) == [
            "0.050 gesture(#1, (10, 10) → (10, 10), 0.050s)",
            "0.200 rejected(#2, ignoreRepeat, (10, 10))",
            "0.350 gesture(#3, (10, 10) → (10, 10), 0.050s)",
        ])
        #expect(writes(c) == ["0.000 write[▼0 100,100]", "0.050 write[▲0]", "0.300 write[▼1 100,100]", "0.350 write[▲1]"])
    }

    @Test("4) tap assistance initial: a wandering touch lifted before the delay is a tap at its initial location, 50 ms long")
    func case4_initialTap() {
        var c = clock { $0.tapAssistance = .initial; $0.tapAssistanceGestureDelay = dms(500); $0.holdDuration = dms(100) }
        down(&c, 1, 50, 50, at: 0)
        move(&c, 1, 80, 90, at: 200)
        up(&c, 1, 90, 95, at: 550)
        c.drain()
        #expect(c.allLines == [
            "0.000 setTimer(holdDuration(contact: 1), 0.100)",
            "0.100 setTimer(gestureDelay(contact: 1), 0.600)",
            "0.550 cancelTimer(gestureDelay(contact: 1))", "0.550 tap(#1, (50, 50))", "0.550 write[▼0 500,500]",
            "0.550 setTimer(tapUp(virtual: 0), 0.600)",
            "0.600 write[▲0]",
        ])
    }

    @Test("5) tap assistance final: the same touch taps where it lifted")
    func case5_finalTap() {
        var c = clock { $0.tapAssistance = .final; $0.tapAssistanceGestureDelay = dms(500) }
        down(&c, 1, 50, 50, at: 0)
        move(&c, 1, 80, 90, at: 200)
        up(&c, 1, 90, 95, at: 499)
        c.drain()
        #expect(c.lines == ["0.499 tap(#1, (90, 95))", "0.499 write[▼0 900,950]", "0.549 write[▲0]"])
    }

    @Test("6) held past the gesture delay: replayed from where it was when the delay ran out, then live (a swipe)")
    func case6_swipeFromTheDelayPoint() {
        var c = clock { $0.tapAssistance = .initial; $0.tapAssistanceGestureDelay = dms(500) }
        down(&c, 1, 50, 50, at: 0)
        move(&c, 1, 60, 70, at: 300)
        move(&c, 1, 60, 95, at: 800)
        up(&c, 1, 60, 100, at: 900)
        #expect(c.lines == [
            "0.500 write[▼0 600,700]",
            "0.800 write[→0 600,950]",
            "0.900 write[▲0]", "0.900 gesture(#1, (60, 70) → (60, 100), 0.400s)",
        ])
    }

    @Test("6) a long press: held still past the delay, down at the delay point until the lift")
    func case6_longPress() {
        var c = clock { $0.tapAssistance = .final; $0.tapAssistanceGestureDelay = dms(300); $0.holdDuration = dms(200) }
        down(&c, 1, 30, 40, at: 0)
        up(&c, 1, 30, 40, at: 2000)
        #expect(c.lines == ["0.500 write[▼0 300,400]", "2.000 write[▲0]", "2.000 gesture(#1, (30, 40) → (30, 40), 1.500s)"])
    }

    @Test("7) a second finger joins: hold duration applies, ignore repeat does not; two virtual contacts (two-finger scroll)")
    func case7_secondFingerJoins() {
        var c = clock { $0.holdDuration = dms(100); $0.ignoreRepeat = dms(500) }
        down(&c, 1, 10, 10, at: 0)
        down(&c, 2, 30, 10, at: 20)
        move(&c, 1, 10, 20, at: 150)
        move(&c, 2, 30, 20, at: 150)
        move(&c, 1, 10, 40, at: 200)
        move(&c, 2, 30, 40, at: 200)
        up(&c, 1, 10, 40, at: 250)
        up(&c, 2, 30, 40, at: 260)
        #expect(c.lines == [
            "0.100 write[▼0 100,100]",
            "0.120 write[▼1 300,100]",
            "0.150 write[→0 100,200]", "0.150 write[→1 300,200]",
            "0.200 write[→0 100,400]", "0.200 write[→1 300,400]",
            "0.250 write[▲0]", "0.250 gesture(#1, (10, 10) → (10, 40), 0.150s)",
            "0.260 write[▲1]", "0.260 gesture(#2, (30, 10) → (30, 40), 0.140s)",
        ])
    }

    @Test("7) a finger joining an accepted gesture later (a pinch) passes too, and the gesture lasts until the last finger lifts")
    func case7_pinchJoinsLater() {
        var c = clock { $0.ignoreRepeat = dms(1000) }
        down(&c, 1, 50, 50, at: 0)
        down(&c, 2, 60, 60, at: 400)
        up(&c, 1, 40, 40, at: 600)
        down(&c, 3, 70, 70, at: 700)   // while 2 is still down: the same gesture
        up(&c, 2, 80, 80, at: 800)
        up(&c, 3, 70, 70, at: 900)
        #expect(decisions(c) == [
            "0.600 gesture(#1, (50, 50) → (40, 40), 0.600s)",
            "0.800 gesture(#2, (60, 60) → (80, 80), 0.400s)",
            "0.900 gesture(#3, (70, 70) → (70, 70), 0.200s)",
        ])
    }

    @Test("8) a second finger accepted during the gesture delay: both go down at once, no tap")
    func case8_secondFingerEndsTheDelay() {
        var c = clock { $0.holdDuration = dms(100); $0.tapAssistance = .initial; $0.tapAssistanceGestureDelay = dms(500) }
        down(&c, 1, 10, 10, at: 0)
        move(&c, 1, 12, 10, at: 50)
        down(&c, 2, 40, 10, at: 150)
        up(&c, 1, 12, 30, at: 400)
        up(&c, 2, 40, 30, at: 400)
        #expect(c.allLines == [
            "0.000 setTimer(holdDuration(contact: 1), 0.100)",
            "0.100 setTimer(gestureDelay(contact: 1), 0.600)",
            "0.150 setTimer(holdDuration(contact: 2), 0.250)",
            "0.250 cancelTimer(gestureDelay(contact: 1))", "0.250 write[▼0 120,100 ▼1 400,100]",
            "0.400 write[▲0]", "0.400 gesture(#1, (12, 10) → (12, 30), 0.150s)",
            "0.400 write[▲1]", "0.400 gesture(#2, (40, 10) → (40, 30), 0.150s)",
        ])
    }

    @Test("9) a joiner lifted before the hold duration is rejected; the first finger goes on")
    func case9_shortJoinerRejected() {
        var c = clock { $0.holdDuration = dms(100) }
        down(&c, 1, 10, 10, at: 0)
        down(&c, 2, 50, 50, at: 150)
        up(&c, 2, 50, 50, at: 200)
        move(&c, 1, 10, 30, at: 300)
        up(&c, 1, 10, 30, at: 400)
        #expect(c.lines == [
            "0.100 write[▼0 100,100]",
            "0.200 rejected(#2, holdDuration, (50, 50))",
            "0.300 write[→0 100,300]",
            "0.400 write[▲0]", "0.400 gesture(#1, (10, 10) → (10, 30), 0.300s)",
        ])
    }

    @Test("10) a gesture whose first accepted finger is within ignore repeat is rejected whole")
    func case10_ignoredGestureRejectsEveryFinger() {
        var c = clock { $0.holdDuration = dms(50); $0.ignoreRepeat = dms(400) }
        down(&c, 1, 10, 10, at: 0); up(&c, 1, 10, 10, at: 100)
        down(&c, 2, 20, 20, at: 200)
        down(&c, 3, 30, 30, at: 220)
        up(&c, 2, 20, 20, at: 300)
        up(&c, 3, 30, 30, at: 320)
        #expect(c.lines == [
            "0.050 write[▼0 100,100]",
            "0.100 write[▲0]", "0.100 gesture(#1, (10, 10) → (10, 10), 0.050s)",
            "0.250 rejected(#2, ignoreRepeat, (20, 20))",
            "0.270 rejected(#3, ignoreRepeat, (30, 30))",
        ])
    }

    @Test("11) device gone: every virtual finger lifted in one frame (a tap's pending up too), timers cancelled, nothing decided")
    func case11_deviceGoneLiftsEverything() {
        var c = clock { $0.holdDuration = dms(100); $0.tapAssistance = .initial; $0.tapAssistanceGestureDelay = dms(300) }
        down(&c, 1, 10, 10, at: 0); up(&c, 1, 10, 10, at: 150)   // a tap, its up due at 0.200
        down(&c, 2, 20, 20, at: 160)
        down(&c, 3, 30, 30, at: 170)                               // pending until 0.270
        down(&c, 4, 40, 40, at: 180)                               // still pending at 0.190
        c.send(.deviceGone, at: ms(190))
        #expect(c.pendingTimers == 0)
        up(&c, 2, 20, 20, at: 300)
        c.advance(to: ms(2000))
        #expect(c.lines == ["0.150 tap(#1, (10, 10))", "0.150 write[▼0 100,100]", "0.190 write[▲0]"])
        var live = clock()
        down(&live, 5, 1, 2, at: 0)
        down(&live, 6, 3, 4, at: 10)
        live.send(.deviceGone, at: ms(20))
        #expect(live.lines == ["0.000 write[▼0 10,20]", "0.010 write[▼1 30,40]", "0.020 write[▲0 ▲1]"])
    }

    @Test("12) a hold duration over 0.3 s shows a countdown at the finger until it runs out or the finger lifts")
    func case12_countdown() {
        var c = clock { $0.holdDuration = dms(500) }
        down(&c, 1, 10, 20, at: 0)
        move(&c, 1, 30, 20, at: 100)
        up(&c, 1, 30, 20, at: 600)
        down(&c, 2, 50, 60, at: 1000)
        up(&c, 2, 50, 60, at: 1200)
        #expect(c.lines == [
            "0.000 countdown(#1, (10, 20), until 0.500)",
            "0.500 countdownEnded(#1)", "0.500 write[▼0 300,200]",
            "0.600 write[▲0]", "0.600 gesture(#1, (30, 20) → (30, 20), 0.100s)",
            "1.000 countdown(#2, (50, 60), until 1.500)",
            "1.200 countdownEnded(#2)", "1.200 rejected(#2, holdDuration, (50, 60))",
        ])
        var short = clock { $0.holdDuration = dms(300) }
        down(&short, 1, 10, 20, at: 0)
        #expect(!short.lines.contains { $0.contains("countdown") }, "0.3 s and below: no countdown, as on iOS")
    }

    @Test("bad input: moves and lifts of unknown contacts, stray timers, a second down for a live id")
    func badInput() {
        var c = clock()
        move(&c, 9, 1, 1, at: 0)
        up(&c, 9, 1, 1, at: 1)
        #expect(c.send(.timer(.holdDuration(contact: 9)), at: ms(2)).isEmpty)
        #expect(c.send(.timer(.gestureDelay(contact: 9)), at: ms(3)).isEmpty)
        #expect(c.send(.timer(.tapUp(virtual: 9)), at: ms(4)).isEmpty)
        down(&c, 1, 10, 10, at: 10)
        down(&c, 1, 20, 20, at: 50)   // the tracker says it's a new touch: the old one is lifted
        up(&c, 1, 20, 20, at: 200)
        #expect(c.lines == [
            "0.010 write[▼0 100,100]",
            "0.050 write[▲0]", "0.050 write[▼1 200,200]",
            "0.200 write[▲1]", "0.200 gesture(#1, (20, 20) → (20, 20), 0.150s)",
        ])
    }

    @Test("tracker → passthrough: a protocol B touch's raw values reach the virtual screen unmapped, other axes included")
    func trackerIntoPassthrough() {
        var tracker = TouchTracker(device: TouchDevices.protocolB(), screen: TouchDevices.screen)
        var c = clock()
        let pressure = InputEvent(type: EventCodes.EV_ABS, code: 0x3a, value: 42)
        let frames: [(Int64, [InputEvent])] = [(0, [tid(4), mx(503), my(1007), pressure]), (100, [mx(611)]), (250, [tid(-1)])]
        for (t, frame) in frames {
            for s in tracker.handleSamples(frame: frame) { c.send(.contact(s), at: ms(t)) }
        }
        #expect(c.lines == [
            "0.000 write[▼0 503,1007]", "0.100 write[→0 611,1007]",
            "0.250 write[▲0]", "0.250 gesture(#4, (50.3, 100.7) → (61.1, 100.7), 0.250s)",
        ])
        guard case .write(let first)? = c.outputs.first, case .down(_, let raw)? = first.first else {
            Issue.record("no down written")
            return
        }
        #expect(raw.axes == [0x3a: 42])
    }
}
