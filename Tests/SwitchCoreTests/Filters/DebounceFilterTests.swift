import Testing
import SwitchCore

/// The cases drawn at the top of `DebounceFilter.swift` (libinput's debounce scenarios on a
/// virtual clock): W = 25 ms, S = 12 ms unless a test says otherwise.
@Suite("Debounce")
struct DebounceFilterTests {
    func clock(_ window: Int64 = 25) -> VirtualClock<DebounceFilter> {
        VirtualClock(DebounceFilter(window: dms(window)))
    }

    /// Holds the switch from 0, lets go at 100, presses again at `again` (within S), holds:
    /// the first spurious release, which turns spurious mode on at `again` + 12 ms.
    func clockInSpuriousMode() -> VirtualClock<DebounceFilter> {
        var c = clock()
        c.send(.press, at: ms(0))
        c.send(.release, at: ms(100))
        c.send(.press, at: ms(105))
        c.advance(to: ms(200))
        #expect(c.machine.spuriousMode)
        c.clearLog()
        return c
    }

    @Test("1) P---| R: the press is passed before any timeout, the release after a hold at once")
    func case1_pressVisibleBeforeAnyTimeout() {
        var c = clock()
        let first = c.send(.press, at: ms(0))
        #expect(first == [.press(at: ms(0)), .setTimer(.bounce, at: ms(25))])
        c.send(.release, at: ms(100))
        c.advance(to: ms(300))
        #expect(c.lines == ["0.000 press(0.000)", "0.100 release(0.100)"])
        #expect(c.allLines == [
            "0.000 press(0.000)", "0.000 setTimer(bounce, 0.025)",
            "0.100 release(0.100)", "0.100 setTimer(spurious, 0.112)", "0.100 setTimer(bounce, 0.125)",
        ])
        #expect(c.machine.state == .up)
        #expect(c.pendingTimers == 0)
    }

    @Test("2) R---| P: a press after the window is passed at once")
    func case2_pressAfterWindowIsPassed() {
        var c = clock()
        c.send(.press, at: ms(0))
        c.send(.release, at: ms(100))
        c.send(.press, at: ms(200))
        #expect(c.lines == ["0.000 press(0.000)", "0.100 release(0.100)", "0.200 press(0.200)"])
    }

    @Test("3) P-R---| P: a release inside W is held back until W after it")
    func case3_fastClickReleaseHeldBack() {
        var c = clock()
        c.send(.press, at: ms(0))
        c.send(.release, at: ms(10))
        #expect(c.lines == ["0.000 press(0.000)"])
        c.send(.press, at: ms(50))
        #expect(c.lines == ["0.000 press(0.000)", "0.035 release(0.010)", "0.050 press(0.050)"])
    }

    @Test("4) R-----P---| R: a press after S but inside W is held back, then passed")
    func case4_pressSoonAfterReleaseIsHeldBack() {
        var c = clock()
        c.send(.press, at: ms(0))
        c.send(.release, at: ms(100))
        c.send(.press, at: ms(120))
        #expect(c.lines == ["0.000 press(0.000)", "0.100 release(0.100)"])
        c.send(.release, at: ms(300))
        #expect(c.lines == ["0.000 press(0.000)", "0.100 release(0.100)", "0.145 press(0.120)", "0.300 release(0.300)"])
        #expect(!c.machine.spuriousMode)
    }

    @Test("5) P-R-P---| R: P-R-P chatter is one press")
    func case5_pressReleasePressChatterIsOnePress() {
        var c = clock()
        c.send(.press, at: ms(0))
        c.send(.release, at: ms(5))
        c.send(.press, at: ms(10))
        c.send(.release, at: ms(200))
        c.advance(to: ms(400))
        #expect(c.lines == ["0.000 press(0.000)", "0.010 rejected(debounce)", "0.200 release(0.200)"])
        #expect(c.pendingTimers == 0)
    }

    @Test("6) R-----P-R---| P: R-P-R chatter after a release is one release")
    func case6_releasePressReleaseChatterIsOneRelease() {
        var c = clock()
        c.send(.press, at: ms(0))
        c.send(.release, at: ms(100))
        c.send(.press, at: ms(115))
        c.send(.release, at: ms(118))
        c.send(.press, at: ms(200))
        #expect(c.lines == ["0.000 press(0.000)", "0.100 release(0.100)", "0.118 rejected(debounce)", "0.200 press(0.200)"])
    }

    @Test("6) R-P-R inside S: one release, and spurious mode stays off (the P did not stay down)")
    func case6_chatterInsideSpuriousWindowKeepsSpuriousModeOff() {
        var c = clock()
        c.send(.press, at: ms(0))
        c.send(.release, at: ms(100))
        c.send(.press, at: ms(105))
        c.send(.release, at: ms(108))
        c.advance(to: ms(400))
        #expect(c.lines == ["0.000 press(0.000)", "0.100 release(0.100)", "0.108 rejected(debounce)"])
        #expect(!c.machine.spuriousMode)
        #expect(c.machine.state == .up)
    }

    @Test("7) P-R-P-R-P---| R: slow chatter, every gap under W, is one press")
    func case7_slowChatterWithGapsUnderWindowIsOnePress() {
        var c = clock()
        for (i, t) in [0, 20, 40, 60, 80].enumerated() {
            c.send(i % 2 == 0 ? .press : .release, at: ms(Int64(t)))
        }
        c.send(.release, at: ms(300))
        #expect(c.lines == ["0.000 press(0.000)", "0.040 rejected(debounce)", "0.080 rejected(debounce)", "0.300 release(0.300)"])
    }

    @Test("7) slow chatter after a release, every gap under W, is one release")
    func case7_slowReleaseChatterIsOneRelease() {
        var c = clock()
        c.send(.press, at: ms(0))
        for (i, t) in [100, 115, 135, 155, 175].enumerated() {
            c.send(i % 2 == 0 ? .release : .press, at: ms(Int64(t)))
        }
        c.advance(to: ms(500))
        #expect(c.lines == ["0.000 press(0.000)", "0.100 release(0.100)", "0.135 rejected(debounce)", "0.175 rejected(debounce)"])
        #expect(c.machine.state == .up)
    }

    @Test("3) gap 1 ms under W after a held-back release: the press is swallowed")
    func case3_gapJustUnderWindowIsSwallowed() {
        var c = clock()
        c.send(.press, at: ms(0))
        c.send(.release, at: ms(10))
        c.send(.press, at: ms(34))
        c.send(.release, at: ms(200))
        #expect(c.lines == ["0.000 press(0.000)", "0.034 rejected(debounce)", "0.200 release(0.200)"])
    }

    @Test("3) gap 1 ms over W: the release comes out, then a new press")
    func case3_gapJustOverWindowIsANewPress() {
        var c = clock()
        c.send(.press, at: ms(0))
        c.send(.release, at: ms(10))
        c.send(.press, at: ms(36))
        #expect(c.lines == ["0.000 press(0.000)", "0.035 release(0.010)", "0.036 press(0.036)"])
    }

    @Test("3) gap of exactly W: the window has run out (timers first), a new press")
    func case3_gapExactlyWindowIsANewPress() {
        var c = clock()
        c.send(.press, at: ms(0))
        c.send(.release, at: ms(10))
        c.send(.press, at: ms(35))
        #expect(c.lines == ["0.000 press(0.000)", "0.035 release(0.010)", "0.035 press(0.035)"])
    }

    @Test("8) R-P--S| while held: the first spurious release turns spurious mode on")
    func case8_spuriousModeTurnsOn() {
        var c = clock()
        c.send(.press, at: ms(0))
        c.send(.release, at: ms(100))
        c.send(.press, at: ms(105))
        #expect(!c.machine.spuriousMode)
        c.advance(to: ms(200))
        #expect(c.lines == ["0.000 press(0.000)", "0.100 release(0.100)", "0.117 press(0.105)"])
        #expect(c.machine.spuriousMode)
        #expect(c.machine.state == .down)
        #expect(c.pendingTimers == 0)
    }

    @Test("9) R--S| with spurious mode on: a release after a hold is held back S")
    func case9_spuriousModeDelaysReleases() {
        var c = clockInSpuriousMode()
        c.send(.release, at: ms(300))
        #expect(c.lines.isEmpty)
        c.advance(to: ms(400))
        #expect(c.lines == ["0.312 release(0.300)"])
        #expect(c.machine.state == .up)
    }

    @Test("10) R-P with spurious mode on: a press within S swallows both")
    func case10_spuriousModeSwallowsReleasePress() {
        var c = clockInSpuriousMode()
        c.send(.release, at: ms(300))
        c.send(.press, at: ms(305))
        c.send(.release, at: ms(500))
        c.advance(to: ms(600))
        #expect(c.lines == ["0.305 rejected(debounce)", "0.512 release(0.500)"])
    }

    @Test("10) spurious mode on, R-P-R-P-R-P chatter while held: nothing comes out")
    func case10_spuriousModeSwallowsFibrillation() {
        var c = clockInSpuriousMode()
        for (i, t) in [300, 303, 306, 309, 312, 315].enumerated() {
            c.send(i % 2 == 0 ? .release : .press, at: ms(Int64(t)))
        }
        c.send(.release, at: ms(400))
        c.advance(to: ms(500))
        #expect(c.lines == ["0.303 rejected(debounce)", "0.309 rejected(debounce)", "0.315 rejected(debounce)", "0.412 release(0.400)"])
    }

    @Test("11) W = 0: disabled, every edge passed at once, no timers")
    func case11_disabledPassesEverything() {
        var c = clock(0)
        c.send(.press, at: ms(0))
        c.send(.release, at: ms(1))
        c.send(.press, at: ms(2))
        #expect(c.allLines == ["0.000 press(0.000)", "0.001 release(0.001)", "0.002 press(0.002)"])
        #expect(c.machine.state == .disabled)
    }

    @Test("11) a negative window is off too")
    func case11_negativeWindowIsOff() {
        let d = DebounceFilter(window: Interval(microseconds: -5))
        #expect(d.state == .disabled)
        #expect(d.window == .zero)
    }

    @Test("8) W under 12 ms: the spurious window shrinks to W and spurious detection still works")
    func case8_smallWindowClampsSpuriousWindow() {
        var c = clock(5)
        #expect(c.machine.spuriousWindow == dms(5))
        c.send(.press, at: ms(0))
        c.send(.release, at: ms(100))
        c.send(.press, at: ms(103))
        c.advance(to: ms(200))
        #expect(c.lines == ["0.000 press(0.000)", "0.100 release(0.100)", "0.108 press(0.103)"])
        #expect(c.machine.spuriousMode)
        #expect(c.pendingTimers == 0)
    }

    /// Drives the machine into each state (the name), then unplugs it at the given time.
    @Test("12) X: device gone in every state: timers cancelled, nothing sent, back to rest",
          arguments: [
            ("downWaiting", [(DebounceFilter.Event.press, 0)], 1),
            ("upDelaying", [(.press, 0), (.release, 5)], 6),
            ("down", [(.press, 0)], 100),
            ("upDetectingSpurious", [(.press, 0), (.release, 100)], 101),
            ("downDetectingSpurious", [(.press, 0), (.release, 100), (.press, 105)], 106),
            ("upWaiting", [(.press, 0), (.release, 100), (.press, 120), (.release, 122)], 123),
            ("downDelaying", [(.press, 0), (.release, 100), (.press, 120)], 121),
          ] as [(String, [(DebounceFilter.Event, Int64)], Int64)])
    func case12_deviceGone(state: String, script: [(DebounceFilter.Event, Int64)], goneAt: Int64) {
        var c = clock()
        for (e, t) in script { c.send(e, at: ms(t)) }
        c.advance(to: ms(goneAt))
        #expect("\(c.machine.state)".hasPrefix(state), "the script did not reach \(state)")
        let before = c.lines
        c.send(.deviceGone, at: ms(goneAt))
        #expect(c.lines == before, "device gone sent something in \(state)")
        #expect(c.pendingTimers == 0, "a timer survived device gone in \(state)")
        #expect(c.machine.state == .up)
        c.advance(to: ms(1000))
        #expect(c.lines == before)
        // A press afterwards is a fresh press from rest.
        let again = c.send(.press, at: ms(1000))
        #expect(again.first == .press(at: ms(1000)))
    }

    @Test("12) X with spurious mode on, a release held back: no release comes out")
    func case12_deviceGoneWhileReleaseHeldBackSpurious() {
        var c = clockInSpuriousMode()
        c.send(.release, at: ms(300))
        c.send(.deviceGone, at: ms(305))
        c.advance(to: ms(400))
        #expect(c.lines.isEmpty)
        #expect(c.pendingTimers == 0)
        #expect(c.machine.spuriousMode, "spurious mode belongs to the switch, not to one connection")
    }

    @Test("bad input: a press while pressed, a release at rest, a timer that is not running change nothing")
    func impossiblePairsAreIgnored() {
        var c = clock()
        #expect(c.send(.release, at: ms(0)).isEmpty)
        #expect(c.send(.timeout(.bounce), at: ms(1)).isEmpty)
        #expect(c.send(.timeout(.spurious), at: ms(2)).isEmpty)
        c.send(.press, at: ms(10))
        #expect(c.send(.press, at: ms(11)).isEmpty)
        #expect(c.send(.timeout(.spurious), at: ms(12)).isEmpty)
        c.advance(to: ms(100))
        #expect(c.send(.press, at: ms(100)).isEmpty)
        #expect(c.send(.timeout(.bounce), at: ms(101)).isEmpty)
        #expect(c.lines == ["0.010 press(0.010)"])
        #expect(c.machine.state == .down)
    }
}
