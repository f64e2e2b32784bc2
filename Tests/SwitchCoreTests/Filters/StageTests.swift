import Testing
import SwitchCore

/// The cases drawn at the top of `AutorepeatFilter.swift`.
@Suite("Autorepeat")
struct AutorepeatFilterTests {
    /// Feeds EV_KEY values one per millisecond and renders what comes out.
    func run(_ values: [Int32]) -> [String] {
        var f = AutorepeatFilter()
        var lines: [String] = []
        for (i, v) in values.enumerated() {
            for o in f.handle(AutorepeatFilter.Event(value: v), at: ms(Int64(i))) { lines.append("\(i) \(o)") }
        }
        return lines
    }

    @Test("1) P r r r R: P passed, every r rejected(autorepeat), R passed")
    func case1_holdWithAutorepeat() {
        #expect(run([1, 2, 2, 2, 0]) == ["0 press", "1 rejectedAutorepeat", "2 rejectedAutorepeat", "3 rejectedAutorepeat", "4 release"])
    }

    @Test("2) r r R: a recording that starts mid-hold: every r rejected, R ignored")
    func case2_recordingStartedMidHold() {
        #expect(run([2, 2, 0]) == ["0 rejectedAutorepeat", "1 rejectedAutorepeat"])
    }

    @Test("3) R: a release with no known press is ignored")
    func case3_releaseWithoutPress() {
        #expect(run([0, 0]).isEmpty)
    }

    @Test("4) P P R: a second press while down is ignored")
    func case4_duplicatePress() {
        #expect(run([1, 1, 0]) == ["0 press", "2 release"])
    }

    @Test("5) r P R: a press after an unseen hold is a new press")
    func case5_pressAfterUnseenHold() {
        #expect(run([2, 1, 0]) == ["0 rejectedAutorepeat", "1 press", "2 release"])
    }

    @Test("6) P r X: device gone returns to rest and sends nothing")
    func case6_deviceGone() {
        var f = AutorepeatFilter()
        _ = f.handle(.press, at: ms(0))
        _ = f.handle(.autorepeat, at: ms(1))
        #expect(f.handle(.deviceGone, at: ms(2)).isEmpty)
        #expect(f.state == .up)
        #expect(f.handle(.release, at: ms(3)).isEmpty, "the release of a press from before the unplug is not sent")
        #expect(f.handle(.press, at: ms(4)) == [.press])
    }

    @Test("bad input: values other than 0, 1, 2 read as the kernel reads them (a press)")
    func oddValuesArePresses() {
        #expect(AutorepeatFilter.Event(value: 5) == .press)
        #expect(AutorepeatFilter.Event(value: -1) == .press)
        #expect(AutorepeatFilter.Event(value: 0) == .release)
        #expect(AutorepeatFilter.Event(value: 2) == .autorepeat)
        #expect(run([7, 0]) == ["0 press", "1 release"])
    }
}

/// The cases drawn at the top of `HoldDurationFilter.swift` (H = 100 ms).
@Suite("Hold duration")
struct HoldDurationFilterTests {
    func clock(_ hold: Int64 = 100) -> VirtualClock<HoldDurationFilter> {
        VirtualClock(HoldDurationFilter(holdDuration: dms(hold)))
    }

    @Test("1) P------H| R: accepted at P + H, R passed")
    func case1_acceptedAtPressPlusHold() {
        var c = clock()
        c.send(.press(at: ms(0)), at: ms(0))
        c.send(.release(at: ms(300)), at: ms(300))
        #expect(c.allLines == ["0.000 setTimer(0.100)", "0.100 accepted(0.000)", "0.300 released(0.300)"])
    }

    @Test("2) P----R  H: released 1 ms early, rejected(holdDuration) at R, R dropped")
    func case2_releasedBeforeHoldIsRejected() {
        var c = clock()
        c.send(.press(at: ms(0)), at: ms(0))
        c.send(.release(at: ms(99)), at: ms(99))
        c.advance(to: ms(500))
        #expect(c.allLines == ["0.000 setTimer(0.100)", "0.099 cancelTimer", "0.099 rejected(holdDuration)"])
        #expect(c.machine.state == .idle)
    }

    @Test("3) P------H R: released exactly at P + H: the timer fires first, accepted")
    func case3_releaseExactlyAtHoldIsAccepted() {
        var c = clock()
        c.send(.press(at: ms(0)), at: ms(0))
        c.send(.release(at: ms(100)), at: ms(100))
        #expect(c.lines == ["0.100 accepted(0.000)", "0.100 released(0.100)"])
    }

    @Test("3) held 1 ms longer than H: accepted at P + H")
    func case3_heldOneMillisecondLonger() {
        var c = clock()
        c.send(.press(at: ms(0)), at: ms(0))
        c.send(.release(at: ms(101)), at: ms(101))
        #expect(c.lines == ["0.100 accepted(0.000)", "0.101 released(0.101)"])
    }

    @Test("4) P--X: device gone while pending: timer cancelled, nothing")
    func case4_deviceGoneWhilePending() {
        var c = clock()
        c.send(.press(at: ms(0)), at: ms(0))
        c.send(.deviceGone, at: ms(50))
        c.advance(to: ms(500))
        #expect(c.lines.isEmpty)
        #expect(c.pendingTimers == 0)
        #expect(c.machine.state == .idle)
    }

    @Test("5) H = 0: accepted at the press")
    func case5_offAcceptsAtPress() {
        var c = clock(0)
        c.send(.press(at: ms(0)), at: ms(0))
        c.send(.release(at: ms(10)), at: ms(10))
        #expect(c.allLines == ["0.000 accepted(0.000)", "0.010 released(0.010)"])
    }

    @Test("a press delivered late by the debouncer is measured from its physical time")
    func latePressMeasuredFromPhysicalTime() {
        var c = clock()
        c.send(.press(at: ms(20)), at: ms(45))
        c.advance(to: ms(200))
        #expect(c.allLines == ["0.045 setTimer(0.120)", "0.120 accepted(0.020)"])
        var late = clock(10)
        late.send(.press(at: ms(20)), at: ms(45))
        #expect(late.allLines == ["0.045 accepted(0.020)"], "already held long enough when it arrives")
    }

    @Test("bad input: release at rest, stray timer, press while pending change nothing")
    func impossiblePairsAreIgnored() {
        var c = clock()
        #expect(c.send(.release(at: ms(0)), at: ms(0)).isEmpty)
        #expect(c.send(.timeout, at: ms(1)).isEmpty)
        c.send(.press(at: ms(2)), at: ms(2))
        #expect(c.send(.press(at: ms(3)), at: ms(3)).isEmpty)
        c.advance(to: ms(200))
        #expect(c.send(.press(at: ms(200)), at: ms(200)).isEmpty)
        #expect(c.send(.timeout, at: ms(201)).isEmpty)
        #expect(c.lines == ["0.102 accepted(0.002)"])
    }
}

/// The cases drawn at the top of `IgnoreRepeatFilter.swift` (T = 300 ms).
@Suite("Ignore repeat")
struct IgnoreRepeatFilterTests {
    /// (press time, release time) pairs in ms → rendered outputs.
    func run(_ anchor: IgnoreRepeatFilter.Anchor, window: Int64 = 300, _ script: [IgnoreRepeatFilter.Event]) -> [String] {
        var f = IgnoreRepeatFilter(window: dms(window), anchor: anchor)
        var lines: [String] = []
        for e in script {
            let t: Instant
            switch e {
            case .press(let at), .release(let at): t = at
            case .deviceGone: t = .zero
            }
            for o in f.handle(e, at: t) {
                switch o {
                case .accepted(let p): lines.append("accepted(\(p))")
                case .released(let r): lines.append("released(\(r))")
                case .rejected: lines.append("rejected(ignoreRepeat)@\(t)")
                }
            }
        }
        return lines
    }

    @Test("1) acceptedPress: P2 − P1 < T: P2 rejected, its release dropped")
    func case1_repeatTooSoonIsRejected() {
        #expect(run(.acceptedPress, [.press(at: ms(0)), .release(at: ms(50)), .press(at: ms(299)), .release(at: ms(350))])
            == ["accepted(0.000)", "released(0.050)", "rejected(ignoreRepeat)@0.299"])
    }

    @Test("2) acceptedPress: P2 − P1 ≥ T (exactly T included): accepted")
    func case2_repeatAfterWindowIsAccepted() {
        #expect(run(.acceptedPress, [.press(at: ms(0)), .release(at: ms(50)), .press(at: ms(300)), .release(at: ms(350))])
            == ["accepted(0.000)", "released(0.050)", "accepted(0.300)", "released(0.350)"])
    }

    @Test("3) acceptedPress: a rejected press does not move the anchor")
    func case3_rejectedPressDoesNotMoveAnchor() {
        let script: [IgnoreRepeatFilter.Event] = [
            .press(at: ms(0)), .release(at: ms(50)),
            .press(at: ms(200)), .release(at: ms(250)),
            .press(at: ms(310)), .release(at: ms(360)),
        ]
        #expect(run(.acceptedPress, script) == [
            "accepted(0.000)", "released(0.050)", "rejected(ignoreRepeat)@0.200", "accepted(0.310)", "released(0.360)",
        ])
    }

    @Test("4) release anchor: P2 − R1 < T: rejected")
    func case4_releaseAnchorRejects() {
        #expect(run(.release, [.press(at: ms(0)), .release(at: ms(500)), .press(at: ms(799)), .release(at: ms(850))])
            == ["accepted(0.000)", "released(0.500)", "rejected(ignoreRepeat)@0.799"])
        #expect(run(.release, [.press(at: ms(0)), .release(at: ms(500)), .press(at: ms(800))])
            == ["accepted(0.000)", "released(0.500)", "accepted(0.800)"])
    }

    @Test("5) release anchor: every release restarts the window")
    func case5_everyReleaseRestartsWindow() {
        let script: [IgnoreRepeatFilter.Event] = [
            .press(at: ms(0)), .release(at: ms(100)),
            .press(at: ms(200)), .release(at: ms(250)),
            .press(at: ms(450)),
        ]
        // 450 − 100 ≥ 300, but 450 − 250 < 300.
        #expect(run(.release, script) == ["accepted(0.000)", "released(0.100)", "rejected(ignoreRepeat)@0.200", "rejected(ignoreRepeat)@0.450"])
    }

    @Test("6) release anchor: the release of a press Hold Duration rejected still restarts the window")
    func case6_releaseOfUnacceptedPressMovesAnchor() {
        // The filter only saw a release (its press never reached it).
        #expect(run(.release, [.release(at: ms(100)), .press(at: ms(200))]) == ["rejected(ignoreRepeat)@0.200"])
        #expect(run(.acceptedPress, [.release(at: ms(100)), .press(at: ms(200))]) == ["accepted(0.200)"])
    }

    @Test("7) T = 0: every press accepted")
    func case7_off() {
        #expect(run(.acceptedPress, window: 0, [.press(at: ms(0)), .release(at: ms(1)), .press(at: ms(2))])
            == ["accepted(0.000)", "released(0.001)", "accepted(0.002)"])
    }

    @Test("8) P X: device gone: back to rest, the release of that press is not sent, the anchor is kept")
    func case8_deviceGone() {
        #expect(run(.acceptedPress, [.press(at: ms(0)), .deviceGone, .release(at: ms(50)), .press(at: ms(100))])
            == ["accepted(0.000)", "rejected(ignoreRepeat)@0.100"])
    }

    @Test("bad input: a press while pressed changes nothing")
    func pressWhilePressed() {
        #expect(run(.acceptedPress, [.press(at: ms(0)), .press(at: ms(400)), .release(at: ms(500))])
            == ["accepted(0.000)", "released(0.500)"])
        #expect(run(.acceptedPress, [.press(at: ms(0)), .release(at: ms(1)), .press(at: ms(2)), .press(at: ms(400)), .release(at: ms(500))])
            == ["accepted(0.000)", "released(0.001)", "rejected(ignoreRepeat)@0.002"])
    }
}

/// The cases drawn at the top of `LongPressFilter.swift` (L = 1 s, short: select, long: menu).
@Suite("Long press")
struct LongPressFilterTests {
    func clock(_ longPress: Int64 = 1000, longAction: SwitchAction? = .menu) -> VirtualClock<LongPressFilter> {
        VirtualClock(LongPressFilter(action: .select, longPressAction: longAction, longPress: dms(longPress)))
    }

    @Test("1) P----R   L: the short action fires on release")
    func case1_shortActionOnRelease() {
        var c = clock()
        c.send(.press(at: ms(0)), at: ms(0))
        #expect(c.lines.isEmpty)
        c.send(.release, at: ms(400))
        #expect(c.allLines == ["0.000 setTimer(1.000)", "0.400 cancelTimer", "0.400 accepted(select)"])
    }

    @Test("2) P-------L|  R: the long-press action fires at P + L, the release does nothing")
    func case2_longPressFires() {
        var c = clock()
        c.send(.press(at: ms(0)), at: ms(0))
        c.send(.release, at: ms(1500))
        #expect(c.lines == ["1.000 longPress(menu)"])
        #expect(c.machine.state == .idle)
    }

    @Test("3) P-------L R: released exactly at P + L: long press")
    func case3_releaseExactlyAtLongPress() {
        var c = clock()
        c.send(.press(at: ms(0)), at: ms(0))
        c.send(.release, at: ms(1000))
        #expect(c.lines == ["1.000 longPress(menu)"])
    }

    @Test("4) off (no long-press action, or L = 0): the short action fires at acceptance")
    func case4_offFiresOnPress() {
        var noAction = clock(1000, longAction: nil)
        noAction.send(.press(at: ms(0)), at: ms(0))
        noAction.send(.release, at: ms(2000))
        #expect(noAction.allLines == ["0.000 accepted(select)"])
        var zero = clock(0)
        zero.send(.press(at: ms(0)), at: ms(0))
        zero.send(.release, at: ms(2000))
        #expect(zero.allLines == ["0.000 accepted(select)"])
    }

    @Test("5) P--X: device gone while timing: nothing fires")
    func case5_deviceGoneWhileTiming() {
        var c = clock()
        c.send(.press(at: ms(0)), at: ms(0))
        c.send(.deviceGone, at: ms(500))
        c.advance(to: ms(3000))
        #expect(c.lines.isEmpty)
        #expect(c.pendingTimers == 0)
    }

    @Test("a press accepted after P + L (hold duration ≥ long press) is a long press at once")
    func acceptedAfterLongPressTime() {
        var c = clock(100)
        c.send(.press(at: ms(0)), at: ms(150))
        #expect(c.allLines == ["0.150 longPress(menu)"])
    }

    @Test("measured from the physical press, not from acceptance")
    func measuredFromPhysicalPress() {
        var c = clock()
        c.send(.press(at: ms(0)), at: ms(200))
        c.advance(to: ms(2000))
        #expect(c.allLines == ["0.200 setTimer(1.000)", "1.000 longPress(menu)"])
    }
}

/// The cases drawn at the top of `MoveRepeatFilter.swift` (M = 300 ms).
@Suite("Move repeat")
struct MoveRepeatFilterTests {
    func clock(_ interval: Int64 = 300) -> VirtualClock<MoveRepeatFilter> {
        VirtualClock(MoveRepeatFilter(interval: dms(interval)))
    }

    @Test("1) F---M|---M|---M| R: next repeats every M until the release")
    func case1_repeatsWhileHeld() {
        var c = clock()
        c.send(.fired(.next), at: ms(0))
        c.send(.release, at: ms(1000))
        c.advance(to: ms(3000))
        #expect(c.lines == ["0.300 action(next)", "0.600 action(next)", "0.900 action(next)"])
        #expect(c.pendingTimers == 0)
    }

    @Test("1) previous repeats too")
    func case1_previousRepeats() {
        var c = clock()
        c.send(.fired(.previous), at: ms(0))
        c.send(.release, at: ms(650))
        #expect(c.lines == ["0.300 action(previous)", "0.600 action(previous)"])
    }

    @Test("2) F--R  M: released before M, no repeat")
    func case2_releasedBeforeFirstRepeat() {
        var c = clock()
        c.send(.fired(.next), at: ms(0))
        c.send(.release, at: ms(299))
        c.advance(to: ms(1000))
        #expect(c.lines.isEmpty)
    }

    @Test("3) other actions never repeat", arguments: [SwitchAction.select, .menu, .escape, .stopScanning, .resumeScanning])
    func case3_otherActionsDoNotRepeat(action: SwitchAction) {
        var c = clock()
        c.send(.fired(action), at: ms(0))
        c.advance(to: ms(2000))
        #expect(c.allLines.isEmpty)
    }

    @Test("4) M = 0: off")
    func case4_off() {
        var c = clock(0)
        c.send(.fired(.next), at: ms(0))
        c.advance(to: ms(2000))
        #expect(c.allLines.isEmpty)
    }

    @Test("5) F---M|--X: device gone stops the repeats")
    func case5_deviceGone() {
        var c = clock()
        c.send(.fired(.next), at: ms(0))
        c.send(.deviceGone, at: ms(400))
        c.advance(to: ms(2000))
        #expect(c.lines == ["0.300 action(next)"])
        #expect(c.pendingTimers == 0)
    }
}
