import Testing
import PropertyBased
@testable import SwitchCore

@Suite("Calibration")
struct CalibrationTests {
    static let space = SwitchBinding(keyName: "KEY_SPACE", code: 57, action: .select)

    static func key(_ value: Int32, _ t: Int64, code: UInt16 = 57) -> TimedEvent {
        TimedEvent(time: ms(t), event: InputEvent(type: EventCodes.EV_KEY, code: code, value: value))
    }

    /// Six intended presses: A clean; B with contact bounce at its start (1000/1003/1006);
    /// C a 30 ms brush; D and E a double hit 150 ms apart; F held with two autorepeats.
    static let session: [TimedEvent] = [
        key(1, 0), key(0, 200),
        key(1, 1000), key(0, 1003), key(1, 1006), key(0, 1200),
        key(1, 2000), key(0, 2030),
        key(1, 3000), key(0, 3100), key(1, 3150), key(0, 3300),
        key(1, 4000), key(2, 4250), key(2, 4283), key(0, 4300),
    ]

    static func grid() throws -> Calibration.Grid {
        try Calibration.Grid(holdDurations: [.zero, dms(50)], ignoreRepeats: [.zero, dms(200)], debounces: [.zero, dms(25)])
    }

    @Test("every setting of a 2 × 2 × 2 grid counts exactly the presses it lets through, and why the others failed")
    func countsPerSetting() throws {
        var profile = Profile()
        profile.switches = [Self.space]
        let outcomes = Calibration.run(events: Self.session, profile: profile, grid: try Self.grid())
        let rows = outcomes.map { o in
            "\(o.setting): \(o.accepted) accepted, debounce \(o.rejected.debounce) hold \(o.rejected.holdDuration) "
                + "ignoreRepeat \(o.rejected.ignoreRepeat) autorepeat \(o.rejected.autorepeat)"
        }
        #expect(rows == [
            "hold 0.000s ignoreRepeat 0.000s debounce 0.000s: 7 accepted, debounce 0 hold 0 ignoreRepeat 0 autorepeat 2",
            "hold 0.000s ignoreRepeat 0.000s debounce 0.025s: 6 accepted, debounce 1 hold 0 ignoreRepeat 0 autorepeat 2",
            "hold 0.000s ignoreRepeat 0.200s debounce 0.000s: 5 accepted, debounce 0 hold 0 ignoreRepeat 2 autorepeat 2",
            "hold 0.000s ignoreRepeat 0.200s debounce 0.025s: 5 accepted, debounce 1 hold 0 ignoreRepeat 1 autorepeat 2",
            "hold 0.050s ignoreRepeat 0.000s debounce 0.000s: 5 accepted, debounce 0 hold 2 ignoreRepeat 0 autorepeat 2",
            "hold 0.050s ignoreRepeat 0.000s debounce 0.025s: 5 accepted, debounce 1 hold 1 ignoreRepeat 0 autorepeat 2",
            "hold 0.050s ignoreRepeat 0.200s debounce 0.000s: 4 accepted, debounce 0 hold 2 ignoreRepeat 1 autorepeat 2",
            "hold 0.050s ignoreRepeat 0.200s debounce 0.025s: 4 accepted, debounce 1 hold 1 ignoreRepeat 1 autorepeat 2",
        ])
        #expect(outcomes[7].rejected.presses == 3)
        #expect(outcomes[7].rejected[.holdDuration] == 1)
    }

    @Test("the helper picks the settings that yield exactly N accepted presses, in grid order")
    func settingsYieldingN() throws {
        var profile = Profile()
        profile.switches = [Self.space]
        let outcomes = Calibration.run(events: Self.session, profile: profile, grid: try Self.grid())
        #expect(Calibration.outcomes(yielding: 6, in: outcomes).map(\.setting)
            == [Calibration.Setting(holdDuration: .zero, ignoreRepeat: .zero, debounce: dms(25))])
        #expect(Calibration.outcomes(yielding: 5, in: outcomes).count == 4)
        #expect(Calibration.outcomes(yielding: 9, in: outcomes).isEmpty)
    }

    @Test("the profile's other settings apply: a long press still held at the end fires in the tail")
    func profileSettingsAndTail() throws {
        var profile = Profile()
        profile.switches = [SwitchBinding(keyName: "KEY_SPACE", code: 57, action: .select, longPressAction: .menu)]
        profile.switchStabilization.longPress = dms(500)
        profile.switchStabilization.ignoreRepeatFrom = .release
        let grid = try Calibration.Grid(holdDurations: [.zero], ignoreRepeats: [dms(300)], debounces: [.zero])
        // Release anchor: the press at 450 comes 250 ms after the release at 200 → rejected.
        let events = [Self.key(1, 0), Self.key(0, 200), Self.key(1, 450), Self.key(0, 460), Self.key(1, 1000)]
        let o = Calibration.run(events: events, profile: profile, grid: grid)
        #expect(o.map(\.accepted) == [2])
        #expect(o.map(\.rejected) == [Calibration.Rejections(ignoreRepeat: 1)])
    }

    @Test("two switches count together; other event types and unbound keys are skipped; unsorted input is sorted")
    func twoSwitchesAndNoise() throws {
        let enter = SwitchBinding(keyName: "KEY_ENTER", code: 28, action: .next)
        let noise = [
            TimedEvent(time: ms(5), event: InputEvent(type: EventCodes.EV_MSC, code: 4, value: 57)),
            TimedEvent(time: ms(6), event: InputEvent(type: EventCodes.EV_SYN, code: 0, value: 0)),
            Self.key(1, 7, code: 30), Self.key(0, 8, code: 30),
        ]
        let events = [Self.key(1, 0), Self.key(1, 10, code: 28), Self.key(0, 90), Self.key(0, 120, code: 28)] + noise
        let settings = [Calibration.Setting(holdDuration: dms(100), ignoreRepeat: .zero, debounce: dms(25))]
        let o = Calibration.run(events: events.reversed(), switches: [Self.space, enter], stabilization: SwitchStabilization(), settings: settings)
        #expect(o.map(\.accepted) == [1])
        #expect(o.map(\.rejected) == [Calibration.Rejections(holdDuration: 1)])
        #expect(Calibration.run(events: [], switches: [Self.space], stabilization: SwitchStabilization(), settings: settings).map(\.accepted) == [0])
        #expect(Calibration.run(events: events, switches: [], stabilization: SwitchStabilization(), settings: settings).map(\.accepted) == [0])
    }

    @Test("bad grids: empty lists and values out of the profile's ranges are errors that name them")
    func badGrids() {
        #expect(throws: InputError(file: "grid.json", path: "ignoreRepeat", message: "expected at least one value")) {
            try Calibration.Grid(holdDurations: [.zero], ignoreRepeats: [], debounces: [.zero], file: "grid.json")
        }
        #expect(throws: InputError(file: "calibration grid", path: "holdDuration[1]", message: "expected seconds in 0…10, found -0.050s")) {
            try Calibration.Grid(holdDurations: [.zero, dms(-50)], ignoreRepeats: [.zero], debounces: [.zero])
        }
        #expect(throws: InputError(file: "calibration grid", path: "debounce[0]", message: "expected seconds in 0…1, found 2.000s")) {
            try Calibration.Grid(holdDurations: [.zero], ignoreRepeats: [.zero], debounces: [.seconds(2)])
        }
        #expect(throws: InputError(file: "calibration grid", path: "ignoreRepeat[0]", message: "expected seconds in 0…10, found 10.0005s")) {
            try Calibration.Grid(holdDurations: [.zero], ignoreRepeats: [Interval(microseconds: 10_000_500)], debounces: [.zero])
        }
    }

    @Test("grid order: hold duration outermost, then ignore repeat, then debounce")
    func gridOrder() throws {
        let g = try Calibration.Grid(holdDurations: [dms(1), dms(2)], ignoreRepeats: [dms(3)], debounces: [dms(4), dms(5)])
        #expect(g.settings.map(\.description) == [
            "hold 0.001s ignoreRepeat 0.003s debounce 0.004s", "hold 0.001s ignoreRepeat 0.003s debounce 0.005s",
            "hold 0.002s ignoreRepeat 0.003s debounce 0.004s", "hold 0.002s ignoreRepeat 0.003s debounce 0.005s",
        ])
    }

    @Test("calibration counts what the pipeline on a virtual clock decides, for random streams and settings")
    func agreesWithThePipeline() {
        var rng = Xoshiro(seed: (7, 7, 7, 7))
        for i in 0..<800 {
            let s = SwitchPropertyTests.script.run(using: &rng)
            let binding = s.settings.binding
            let st = s.settings.stabilization
            let events = s.keys.map { TimedEvent(time: $0.0, event: InputEvent(type: EventCodes.EV_KEY, code: 57, value: $0.1)) }
            let setting = Calibration.Setting(holdDuration: st.holdDuration, ignoreRepeat: st.ignoreRepeat, debounce: st.debounce)
            let outcome = Calibration.run(events: events, switches: [binding], stabilization: st, settings: [setting])[0]

            var c = VirtualClock(SwitchPipeline(binding: binding, stabilization: st, moveRepeat: .zero))
            for (t, v) in s.keys { c.send(.key(value: v), at: t) }
            c.drain()
            var accepted = 0
            var rejected = Calibration.Rejections()
            for case .decision(let d) in c.outputs {
                switch d.decision {
                case .accepted, .longPress: accepted += 1
                case .rejected(.debounce): rejected.debounce += 1
                case .rejected(.holdDuration): rejected.holdDuration += 1
                case .rejected(.ignoreRepeat): rejected.ignoreRepeat += 1
                case .rejected(.autorepeat): rejected.autorepeat += 1
                }
            }
            guard outcome.accepted == accepted, outcome.rejected == rejected else {
                Issue.record("case \(i): calibration \(outcome.accepted) \(outcome.rejected), pipeline \(accepted) \(rejected)\n\(s)")
                return
            }
        }
    }

    /// Issue 22: the staged replay (stages 1–3 once per debounce and hold duration, stage 4 per
    /// ignore-repeat time) gives every setting of a grid the outcome of replaying it whole, for
    /// random streams on two switches, with long press on or off and either ignore-repeat anchor.
    @Test("the staged replay of a grid equals replaying every setting whole")
    func stagedReplayEqualsWholeReplay() throws {
        var rng = Xoshiro(seed: (22, 22, 22, 22))
        let enter = SwitchBinding(keyName: "KEY_ENTER", code: 28, action: .next, longPressAction: .escape)
        let grid = try Calibration.Grid(holdDurations: [.zero, dms(40), dms(120)], ignoreRepeats: [.zero, dms(90), dms(300)],
                                        debounces: [.zero, dms(12), dms(25)])
        for i in 0..<150 {
            let a = SwitchPropertyTests.script.run(using: &rng)
            let b = SwitchPropertyTests.script.run(using: &rng)
            var events = a.keys.map { TimedEvent(time: $0.0, event: InputEvent(type: EventCodes.EV_KEY, code: 57, value: $0.1)) }
            events += b.keys.map { TimedEvent(time: $0.0, event: InputEvent(type: EventCodes.EV_KEY, code: 28, value: $0.1)) }
            events.sort { $0.time < $1.time }
            let switches = [a.settings.binding, enter]
            let st = a.settings.stabilization
            let staged = Calibration.run(events: events, switches: switches, stabilization: st, settings: grid.settings)
            let whole = Calibration.runWhole(events: events, switches: switches, stabilization: st, settings: grid.settings)
            guard staged == whole else {
                let k = staged.indices.first { staged[$0] != whole[$0] } ?? 0
                Issue.record("case \(i), \(grid.settings[k]): staged \(staged[k]), whole \(whole[k])")
                return
            }
        }
    }
}
