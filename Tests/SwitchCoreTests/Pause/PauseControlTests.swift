import SwitchCore
import Testing

/// `PauseControl` on its own, one test per timeline of its header (and the table's pairs).
@Suite("Pause control")
struct PauseControlTests {
    typealias K = PauseControl.Key
    static let a = K(device: 0, code: EventCodes.KEY_SPACE)
    static let b = K(device: 0, code: 28)
    static let ctrl = K(device: 1, code: 29), rightAlt = K(device: 2, code: 100), alt = K(device: 1, code: 56)
    static let shift = K(device: 1, code: 42), s = K(device: 1, code: 31)

    /// The machine, a virtual clock and its one timer, like the engine drives it.
    struct Driver {
        var control: PauseControl
        var timer: Instant?
        var log: [String] = []

        init(hold: Double = 3, chord: KeyChord? = .default) {
            control = PauseControl(pauseHold: .seconds(hold), chord: chord)
        }

        /// Fires the timer if due at or before `t`, then handles the event at `t`.
        mutating func at(_ t: Double, _ event: PauseControl.Event? = nil) {
            let now = Instant.seconds(t)
            if let due = timer, due <= now {
                timer = nil
                apply(control.handle(.timer, at: due), due)
            }
            if let event { apply(control.handle(event, at: now), now) }
        }

        mutating func press(_ k: K, at t: Double, switchName: String? = "KEY_SPACE") { at(t, .key(k, value: 1, switchName: switchName)) }
        mutating func release(_ k: K, at t: Double, switchName: String? = "KEY_SPACE") { at(t, .key(k, value: 0, switchName: switchName)) }

        private mutating func apply(_ outputs: [PauseControl.Output], _ t: Instant) {
            for o in outputs {
                switch o {
                case .setTimer(let at): timer = at
                case .cancelTimer: timer = nil
                case .consumed: log.append("\(t) consumed")
                case .changed(let c):
                    switch c.cause {
                    case .hold(let name, let held): log.append("\(t) \(c.state.rawValue): \(name) held \(held)")
                    case .chord(let chord): log.append("\(t) \(c.state.rawValue): \(chord)")
                    case .menu: log.append("\(t) \(c.state.rawValue): menu")
                    }
                }
            }
        }
    }

    @Test func hold_pauses() {
        var d = Driver()
        d.press(Self.a, at: 1)
        #expect(d.timer == .seconds(4))
        d.at(4.5)
        d.release(Self.a, at: 5)
        #expect(d.log == ["4.000 paused: KEY_SPACE held 3.000s"])
        #expect(d.control.state == .paused)
        #expect(d.timer == nil)
    }

    @Test func short_press_nothing() {
        var d = Driver()
        d.press(Self.a, at: 1)
        d.release(Self.a, at: 3.999)
        d.at(10)
        #expect(d.log.isEmpty)
        #expect(d.control.state == .running)
        #expect(d.timer == nil)
    }

    @Test func hold_resumes() {
        var d = Driver()
        d.press(Self.a, at: 0)
        d.release(Self.a, at: 3.5)
        d.press(Self.a, at: 10)
        d.at(13)
        #expect(d.log == ["3.000 paused: KEY_SPACE held 3.000s", "13.000 resumed: KEY_SPACE held 3.000s"])
        #expect(d.control.state == .running)
    }

    @Test func held_on_is_spent() {
        var d = Driver()
        d.press(Self.a, at: 0)
        d.at(20)  // Held on for 17 s after the pause: no resume.
        #expect(d.log == ["3.000 paused: KEY_SPACE held 3.000s"])
        #expect(d.control.isDown(Self.a))
        d.release(Self.a, at: 20)
        d.press(Self.a, at: 21)
        d.at(24)
        #expect(d.log == ["3.000 paused: KEY_SPACE held 3.000s", "24.000 resumed: KEY_SPACE held 3.000s"])
    }

    @Test func earliest_armed_switch() {
        var d = Driver()
        d.press(Self.a, at: 0)
        d.press(Self.b, at: 1, switchName: "KEY_ENTER")
        #expect(d.timer == .seconds(3))
        d.release(Self.a, at: 2)
        #expect(d.timer == .seconds(4))  // From B's press.
        d.at(5)
        #expect(d.log == ["4.000 paused: KEY_ENTER held 3.000s"])
    }

    @Test func chord_pauses_and_resumes() {
        var d = Driver()
        d.press(Self.ctrl, at: 1, switchName: nil)
        d.press(Self.alt, at: 1.1, switchName: nil)
        d.press(Self.shift, at: 1.2, switchName: nil)
        #expect(d.log.isEmpty)
        d.press(Self.s, at: 1.3, switchName: nil)
        #expect(d.log == ["1.300 consumed", "1.300 paused: Ctrl+Alt+Shift+S"])
        d.release(Self.s, at: 1.4, switchName: nil)
        d.press(Self.s, at: 2, switchName: nil)
        #expect(d.log == ["1.300 consumed", "1.300 paused: Ctrl+Alt+Shift+S", "1.400 consumed",
                          "2.000 consumed", "2.000 resumed: Ctrl+Alt+Shift+S"])
        #expect(d.control.state == .running)
    }

    @Test func chord_any_side_any_device() {
        var d = Driver()
        d.press(Self.ctrl, at: 1, switchName: nil)
        d.press(Self.rightAlt, at: 1, switchName: nil)  // Another keyboard, the right Alt.
        d.press(Self.shift, at: 1, switchName: nil)
        d.press(Self.s, at: 1, switchName: nil)
        #expect(d.control.state == .paused)
    }

    @Test func chord_autorepeat() {
        var d = Driver()
        for k in [Self.ctrl, Self.alt, Self.shift, Self.s] { d.press(k, at: 1, switchName: nil) }
        for t in stride(from: 1.5, to: 3, by: 0.033) { d.at(t, .key(Self.s, value: 2, switchName: nil)) }
        #expect(d.log == ["1.000 consumed", "1.000 paused: Ctrl+Alt+Shift+S"])
    }

    @Test func chord_needs_every_part_and_a_press_of_one_of_them() {
        var d = Driver()
        d.press(Self.ctrl, at: 1, switchName: nil)
        d.press(Self.s, at: 1, switchName: nil)
        d.press(Self.shift, at: 1, switchName: nil)
        #expect(d.control.state == .running)  // No Alt.
        d.press(K(device: 1, code: 30), at: 2, switchName: nil)  // KEY_A: not a part.
        #expect(d.control.state == .running)
        d.press(Self.alt, at: 3, switchName: nil)  // The last part, in any order.
        #expect(d.control.state == .paused)
    }

    @Test func chord_while_holding() {
        var d = Driver()
        d.press(Self.a, at: 0)
        for k in [Self.ctrl, Self.alt, Self.shift, Self.s] { d.press(k, at: 1, switchName: nil) }
        d.at(10)
        #expect(d.log == ["1.000 consumed", "1.000 paused: Ctrl+Alt+Shift+S"])  // A is spent.
        #expect(d.timer == nil)
    }

    @Test func device_gone_drops_hold() {
        var d = Driver()
        d.press(Self.a, at: 0)
        d.at(1, .deviceGone(0))
        #expect(d.timer == nil)
        d.at(10)
        #expect(d.log.isEmpty)
        #expect(!d.control.isDown(Self.a))
    }

    @Test func off() {
        var d = Driver(hold: 0, chord: nil)
        d.press(Self.a, at: 0)
        for k in [Self.ctrl, Self.alt, Self.shift, Self.s] { d.press(k, at: 1, switchName: nil) }
        d.at(100)
        #expect(d.log.isEmpty)
        #expect(d.timer == nil)
        #expect(!d.control.isEnabled)
    }

    @Test func keys_that_are_not_switches_never_hold() {
        var d = Driver()
        d.press(K(device: 1, code: 30), at: 0, switchName: nil)
        d.at(10)
        #expect(d.log.isEmpty)
        #expect(d.timer == nil)
    }

    @Test func a_stale_or_early_timer_changes_nothing() {
        var c = PauseControl(pauseHold: .seconds(3), chord: nil)
        #expect(c.handle(.timer, at: .seconds(5)).isEmpty)  // Nothing armed.
        _ = c.handle(.key(Self.a, value: 1, switchName: "KEY_SPACE"), at: .seconds(0))
        #expect(c.handle(.timer, at: .seconds(2.9)).isEmpty)  // Early.
        #expect(c.state == .running)
    }

    @Test func a_second_press_without_release_keeps_the_first_press_time() {
        var d = Driver()
        d.press(Self.a, at: 0)
        d.press(Self.a, at: 2)  // After SYN_DROPPED a resync may repeat the state.
        #expect(d.timer == .seconds(3))
    }

    @Test func chord_parsing() throws {
        #expect(KeyChord.default.description == "Ctrl+Alt+Shift+S")
        #expect(try KeyChord(parsing: "ctrl + super + KEY_F12").description == "Ctrl+Meta+KEY_F12")
        #expect(try KeyChord(parsing: "KEY_PAUSE").parts.map(\.codes) == [[119]])
        #expect(throws: KeyChordError.self) { try KeyChord(parsing: "Ctrl++S") }
        #expect(throws: KeyChordError.self) { try KeyChord(parsing: "Ctrl+Hyper") }
        #expect(throws: KeyChordError.self) { try KeyChord(parsing: "Ctrl+Control+S") }
    }
}
