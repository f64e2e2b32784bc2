import Testing
import SwitchCore

/// Whole-pipeline transcripts on a virtual clock (SwitchPipeline.swift's stage list).
@Suite("Switch pipeline")
struct SwitchPipelineTests {
    static let space = SwitchBinding(keyName: "KEY_SPACE", code: 57, action: .select)

    func clock(_ binding: SwitchBinding = space, moveRepeat: Int64 = 0,
               _ configure: (inout SwitchStabilization) -> Void = { _ in }) -> VirtualClock<SwitchPipeline> {
        var st = SwitchStabilization()
        configure(&st)
        return VirtualClock(SwitchPipeline(binding: binding, stabilization: st, moveRepeat: dms(moveRepeat)))
    }

    /// Sends (EV_KEY value, ms) pairs.
    func play(_ c: inout VirtualClock<SwitchPipeline>, _ script: [(Int32, Int64)], until end: Int64? = nil) {
        for (v, t) in script { c.send(.key(value: v), at: ms(t)) }
        if let end { c.advance(to: ms(end)) }
    }

    @Test("defaults (debounce 25 ms): a click is accepted at the press, its action fires at once")
    func defaultClick() {
        var c = clock()
        play(&c, [(1, 0), (0, 100)], until: 500)
        #expect(c.allLines == [
            "0.000 physicalPress", "0.000 accepted(select)", "0.000 action(select)", "0.000 setTimer(debounce, 0.025)",
            "0.100 setTimer(debounceSpurious, 0.112)", "0.100 setTimer(debounce, 0.125)",
        ])
        for case .decision(let d) in c.outputs { #expect(d.switchName == "KEY_SPACE") }
        #expect(c.pendingTimers == 0)
    }

    @Test("debounce in the pipeline: P-R-P chatter is one accepted press and one rejected(debounce)")
    func chatterIsOnePress() {
        var c = clock()
        // 300-315-320: R-P-R after a hold (the P after the 12 ms spurious window) is one release.
        play(&c, [(1, 0), (0, 4), (1, 9), (0, 300), (1, 315), (0, 320)], until: 1000)
        #expect(c.lines == [
            "0.000 physicalPress", "0.000 accepted(select)", "0.000 action(select)",
            "0.009 rejected(debounce)",
            "0.320 rejected(debounce)",
        ])
    }

    @Test("spurious mode: the first quick re-press while held counts again (debounce learns), later ones are swallowed")
    func spuriousModeInPipeline() {
        var c = clock()
        play(&c, [(1, 0), (0, 300), (1, 305), (0, 600), (1, 900), (0, 1200), (1, 1205), (0, 1500)], until: 2000)
        #expect(c.lines == [
            "0.000 physicalPress", "0.000 accepted(select)", "0.000 action(select)",
            "0.317 physicalPress", "0.317 accepted(select)", "0.317 action(select)",
            "0.900 physicalPress", "0.900 accepted(select)", "0.900 action(select)",
            "1.205 rejected(debounce)",
        ])
        #expect(c.machine.acceptance.debounce.spuriousMode)
    }

    @Test("hold duration: released 1 ms early is rejected at the release")
    func holdDurationReleasedOneMillisecondEarly() {
        var c = clock { $0.holdDuration = dms(200) }
        play(&c, [(1, 0), (0, 199)], until: 1000)
        #expect(c.lines == ["0.000 physicalPress", "0.199 rejected(holdDuration)"])
        #expect(c.pendingTimers == 0)
    }

    @Test("hold duration: held 1 ms longer is accepted at press + hold, the action fires then")
    func holdDurationHeldOneMillisecondLonger() {
        var c = clock { $0.holdDuration = dms(200) }
        play(&c, [(1, 0), (0, 201)], until: 1000)
        #expect(c.lines == ["0.000 physicalPress", "0.200 accepted(select)", "0.200 action(select)"])
    }

    @Test("ignore repeat from the accepted press: rejected presses don't move the anchor")
    func ignoreRepeatFromAcceptedPress() {
        var c = clock { $0.ignoreRepeat = dms(500) }
        play(&c, [(1, 0), (0, 100), (1, 300), (0, 400), (1, 520), (0, 600)], until: 2000)
        #expect(c.lines == [
            "0.000 physicalPress", "0.000 accepted(select)", "0.000 action(select)",
            "0.300 physicalPress", "0.300 rejected(ignoreRepeat)",
            "0.520 physicalPress", "0.520 accepted(select)", "0.520 action(select)",
        ])
    }

    @Test("ignore repeat from the release: every release (of accepted or rejected presses) restarts the window")
    func ignoreRepeatFromRelease() {
        var c = clock { $0.ignoreRepeat = dms(500); $0.ignoreRepeatFrom = .release }
        play(&c, [(1, 0), (0, 100), (1, 300), (0, 400), (1, 520), (0, 600), (1, 1100), (0, 1200)], until: 2000)
        #expect(c.lines == [
            "0.000 physicalPress", "0.000 accepted(select)", "0.000 action(select)",
            "0.300 physicalPress", "0.300 rejected(ignoreRepeat)",
            "0.520 physicalPress", "0.520 rejected(ignoreRepeat)",
            "1.100 physicalPress", "1.100 accepted(select)", "1.100 action(select)",
        ])
    }

    @Test("ignore repeat is measured with the physical press time, not the debounced delivery time")
    func ignoreRepeatUsesPhysicalTime() {
        // The second press comes 20 ms after a release, inside the debounce window: it is held
        // back until 145 but measured at 120 (120 − 0 < 130 → rejected).
        var c = clock { $0.ignoreRepeat = dms(130) }
        play(&c, [(1, 0), (0, 100), (1, 120), (0, 400)], until: 1000)
        #expect(c.lines == [
            "0.000 physicalPress", "0.000 accepted(select)", "0.000 action(select)",
            "0.145 physicalPress", "0.145 rejected(ignoreRepeat)",
        ])
    }

    @Test("hold duration and ignore repeat: a brush rejected by hold duration opens no window")
    func holdRejectionDoesNotOpenIgnoreWindow() {
        var c = clock { $0.holdDuration = dms(100); $0.ignoreRepeat = dms(1000) }
        play(&c, [(1, 0), (0, 50), (1, 200), (0, 400)], until: 1000)
        #expect(c.lines == [
            "0.000 physicalPress", "0.050 rejected(holdDuration)",
            "0.200 physicalPress", "0.300 accepted(select)", "0.300 action(select)",
        ])
    }

    static let withLongPress = SwitchBinding(keyName: "KEY_SPACE", code: 57, action: .select, longPressAction: .menu)

    @Test("long press: the short action fires on release; held past the long-press time, the long-press action fires")
    func longPressShortActionOnRelease() {
        var c = clock(Self.withLongPress) { $0.longPress = dms(1000) }
        play(&c, [(1, 0), (0, 300), (1, 1000), (0, 2500)], until: 4000)
        #expect(c.lines == [
            "0.000 physicalPress", "0.300 accepted(select)", "0.300 action(select)",
            "1.000 physicalPress", "2.000 longPress(menu)", "2.000 action(menu)",
        ])
        #expect(c.pendingTimers == 0)
    }

    @Test("long press with hold duration: the short action still waits for the release")
    func longPressWithHoldDuration() {
        var c = clock(Self.withLongPress) { $0.longPress = dms(1000); $0.holdDuration = dms(200) }
        play(&c, [(1, 0), (0, 100), (1, 500), (0, 900)], until: 3000)
        #expect(c.lines == [
            "0.000 physicalPress", "0.100 rejected(holdDuration)",
            "0.500 physicalPress", "0.900 accepted(select)", "0.900 action(select)",
        ])
    }

    @Test("long press time 0 or no long-press action: the short action fires on acceptance")
    func longPressOff() {
        var c = clock(Self.withLongPress) { $0.longPress = .zero }
        play(&c, [(1, 0), (0, 3000)], until: 4000)
        #expect(c.lines == ["0.000 physicalPress", "0.000 accepted(select)", "0.000 action(select)"])
    }

    static let next = SwitchBinding(keyName: "KEY_ENTER", code: 28, action: .next)

    @Test("move repeat: a held next repeats every moveRepeat after it first fired, no extra decision lines")
    func moveRepeat() {
        var c = clock(Self.next, moveRepeat: 250)
        play(&c, [(1, 0), (0, 990)], until: 3000)
        #expect(c.lines == [
            "0.000 physicalPress", "0.000 accepted(next)", "0.000 action(next)",
            "0.250 action(next)", "0.500 action(next)", "0.750 action(next)",
        ])
        #expect(c.pendingTimers == 0)
    }

    @Test("move repeat starts from acceptance (hold duration) and ignores the autorepeat of the held key")
    func moveRepeatWithHoldDurationAndAutorepeat() {
        var c = clock(Self.next, moveRepeat: 300) { $0.holdDuration = dms(100) }
        var script: [(Int32, Int64)] = [(1, 0)]
        var t: Int64 = 250
        while t < 690 { script.append((2, t)); t += 33 }
        script.append((0, 690))
        play(&c, script, until: 2000)
        let actions = c.lines.filter { $0.hasSuffix("action(next)") }
        #expect(actions == ["0.100 action(next)", "0.400 action(next)"])
    }

    @Test("move repeat does not apply when the action fires on release (long press set up)")
    func moveRepeatNotOnRelease() {
        let b = SwitchBinding(keyName: "KEY_ENTER", code: 28, action: .next, longPressAction: .select)
        var c = clock(b, moveRepeat: 100) { $0.longPress = dms(1000) }
        play(&c, [(1, 0), (0, 900)], until: 3000)
        #expect(c.lines == ["0.000 physicalPress", "0.900 accepted(next)", "0.900 action(next)"])
    }

    @Test("autorepeat storm: value 2 every 33 ms for seconds is one press and one rejected(autorepeat) line each")
    func autorepeatStorm() {
        var c = clock()
        var script: [(Int32, Int64)] = [(1, 0)]
        var expected = ["0.000 physicalPress", "0.000 accepted(select)", "0.000 action(select)"]
        var t: Int64 = 250
        while t < 3000 {
            script.append((2, t))
            expected.append("\(ms(t).transcriptString) rejected(autorepeat)")
            t += 33
        }
        script.append((0, 3000))
        play(&c, script, until: 4000)
        #expect(script.count == 86)
        #expect(c.lines == expected)
    }

    @Test("autorepeat from a hold that started before the recording: rejected lines only, the release is ignored")
    func autorepeatWithoutPress() {
        var c = clock()
        play(&c, [(2, 0), (2, 33), (0, 50), (1, 500), (0, 600)], until: 1000)
        #expect(c.lines == [
            "0.000 rejected(autorepeat)", "0.033 rejected(autorepeat)",
            "0.500 physicalPress", "0.500 accepted(select)", "0.500 action(select)",
        ])
    }

    @Test("two switches pressed together are independent (no other-button flush)")
    func twoSwitchesPressedTogether() {
        var st = SwitchStabilization()
        st.longPress = dms(500)
        let space = SwitchBinding(keyName: "KEY_SPACE", code: 57, action: .select, longPressAction: .menu)
        let enter = SwitchBinding(keyName: "KEY_ENTER", code: 28, action: .next)
        var c = VirtualClock(SwitchBank(pipelines: [
            SwitchPipeline(binding: space, stabilization: st, moveRepeat: .zero),
            SwitchPipeline(binding: enter, stabilization: st, moveRepeat: dms(200)),
        ]))
        // Same frame at 0; space chatters at 10/20 while enter is held; enter released at 450.
        for (i, v, t) in [(0, 1, 0), (1, 1, 0), (0, 0, 10), (0, 1, 20), (1, 0, 450), (0, 0, 700)] as [(Int, Int32, Int64)] {
            c.send(.key(i, value: v), at: ms(t))
        }
        c.advance(to: ms(2000))
        #expect(c.lines == [
            "0.000 #0 physicalPress",
            "0.000 #1 physicalPress", "0.000 #1 accepted(next)", "0.000 #1 action(next)",
            "0.020 #0 rejected(debounce)",
            "0.200 #1 action(next)", "0.400 #1 action(next)",
            "0.500 #0 longPress(menu)", "0.500 #0 action(menu)",
        ])
        for o in c.outputs {
            guard case .decision(let d) = o.output else { continue }
            #expect(d.switchName == (o.index == 0 ? "KEY_SPACE" : "KEY_ENTER"))
        }
        #expect(c.pendingTimers == 0)
    }

    @Test("device gone mid-press (long press timing): nothing fires, no timer left, the next press is fresh")
    func deviceGoneMidPress() {
        var c = clock(Self.withLongPress) { $0.longPress = dms(1000) }
        play(&c, [(1, 0)])
        c.send(.deviceGone, at: ms(500))
        #expect(c.pendingTimers == 0)
        c.send(.key(value: 0), at: ms(600))
        c.advance(to: ms(3000))
        #expect(c.lines == ["0.000 physicalPress"])
        play(&c, [(1, 3000), (0, 3100)], until: 4000)
        #expect(c.lines == ["0.000 physicalPress", "3.000 physicalPress", "3.100 accepted(select)", "3.100 action(select)"])
    }

    @Test("device gone mid-hold (hold duration pending): no rejection, no acceptance, no timer left")
    func deviceGoneMidHold() {
        var c = clock { $0.holdDuration = dms(300) }
        play(&c, [(1, 0)])
        c.send(.deviceGone, at: ms(100))
        #expect(c.pendingTimers == 0)
        c.advance(to: ms(2000))
        #expect(c.lines == ["0.000 physicalPress"])
        #expect(c.allLines.last == "0.100 cancelTimer(holdDuration)")
    }

    @Test("device gone while a move repeats, and inside the debounce window: no action, no timer left")
    func deviceGoneWhileRepeating() {
        var c = clock(Self.next, moveRepeat: 100)
        play(&c, [(1, 0)])
        c.send(.deviceGone, at: ms(10))
        c.advance(to: ms(2000))
        #expect(c.lines == ["0.000 physicalPress", "0.000 accepted(next)", "0.000 action(next)"])
        #expect(c.pendingTimers == 0)
        var held = clock(Self.next, moveRepeat: 100)
        play(&held, [(1, 0)], until: 250)
        held.send(.deviceGone, at: ms(250))
        held.advance(to: ms(2000))
        #expect(held.lines.filter { $0.hasSuffix("action(next)") }.count == 3)
        #expect(held.pendingTimers == 0)
    }

    @Test("device gone twice or at rest is harmless")
    func deviceGoneAtRest() {
        var c = clock()
        #expect(c.send(.deviceGone, at: ms(0)).isEmpty)
        #expect(c.send(.deviceGone, at: ms(1)).isEmpty)
        #expect(c.pendingTimers == 0)
    }

    @Test("bad input: a timer the pipeline did not set, odd EV_KEY values, a press while pressed")
    func badInput() {
        var c = clock()
        for id in SwitchPipeline.TimerID.allCases {
            #expect(c.send(.timer(id), at: ms(0)).isEmpty, "stray \(id)")
        }
        play(&c, [(9, 10), (1, 200), (-3, 300), (0, 400)], until: 1000)
        #expect(c.lines == ["0.010 physicalPress", "0.010 accepted(select)", "0.010 action(select)"])
    }

    @Test("nothing happens → no outputs at all (the hot path returns [])")
    func quietEventsReturnNothing() {
        var c = clock { $0.debounce = .zero }
        #expect(c.send(.key(value: 0), at: ms(0)).isEmpty)
        c.send(.key(value: 1), at: ms(1))
        #expect(c.send(.key(value: 1), at: ms(2)).isEmpty)
        #expect(c.send(.key(value: 0), at: ms(3)).isEmpty)
    }
}
