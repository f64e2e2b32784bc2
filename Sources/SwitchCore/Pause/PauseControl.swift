/// The safety exit (docs/live.md "Safety exit"): a long hold on any switch, or the pause chord on a
/// keyboard, pauses the engine; the same again resumes it. A pure state machine: key edges and
/// its one timer in, "paused"/"resumed" out. The engine stops and restarts scanning around it;
/// the live loop releases its grabs while paused, so the switch and the keyboard work as plain
/// input devices again.
///
/// States: `running` and `paused`. In both, the *armed* switches are those pressed since the last
/// change and still down; the hold timer runs from the earliest armed press. A switch that is
/// down when the state changes is spent: it arms again only after its release (the hold that
/// paused cannot resume by being held on, and the hold that resumed cannot pause again).
///
/// Every (state, event) pair (H = pauseHold; the chord is complete when each of its parts has a
/// key down):
///
///                 switch press         switch release        chord completed by a press    hold timer          device gone         menu
///   running       arm it; the timer    disarm it; the timer  pause (the press consumed),    due: pause; early   its keys up, its    pause; armed
///                 at earliest + H      moves or is cancelled spent: every armed switch      or stale: nothing   switches disarmed   switches spent
///   paused        same                 same                  resume (same)                  due: resume         same                nothing
///
/// A key that is not a switch (a keyboard watched for the chord) only counts for the chord.
/// Autorepeat (value 2) changes nothing. pauseHold 0 arms nothing; no chord: keys count for nothing.
///
/// Timelines (tests in Tests/SwitchCoreTests/Pause, named after them). ↓ press, ↑ release, H|
/// the hold time reached:
///
///   hold_pauses                running  ↓A──────H| paused ──↑A (nothing)
///   short_press_nothing        running  ↓A──↑A (before H) … nothing
///   hold_resumes               paused   ↓A──────H| running
///   held_on_is_spent           ↓A──────H| paused ──────────(A still down: no resume)──↑A ↓A──────H| running
///   earliest_armed_switch      ↓A──↓B──↑A──────H|(from B's press) paused
///   chord_pauses_and_resumes   Ctrl↓ Alt↓ Shift↓ S↓ paused (S consumed) S↑ S↓ running (S consumed)
///   chord_any_side_any_device  Ctrl↓ on one keyboard, RightAlt↓ Shift↓ S↓ on another: complete
///   chord_autorepeat           S=2 while complete: nothing
///   chord_while_holding        ↓A── Ctrl Alt Shift S: paused, A spent (no second change at H)
///   device_gone_drops_hold     ↓A──X(device gone) H| nothing
///   off                        pauseHold 0: ↓A held forever, nothing; no chord: keys do nothing
///   menu_pauses                running  (menu) paused, every armed switch spent · paused  (menu) nothing
public struct PauseControl: Sendable {
    public enum State: Sendable, Equatable { case running, paused }

    /// A key on a device (engine device index, EV_KEY code).
    public struct Key: Hashable, Sendable {
        public var device: Int
        public var code: UInt16
        public init(device: Int, code: UInt16) {
            self.device = device
            self.code = code
        }
    }

    public enum Event: Sendable, Equatable {
        /// An EV_KEY edge: value 0 release, 1 press, 2 autorepeat. `switchName` when the key is
        /// one of the profile's switches on a switch device (the screen as a switch is
        /// "touchscreen" on BTN_TOUCH), nil for any other key.
        case key(Key, value: Int32, switchName: String?)
        /// The hold timer fired.
        case timer
        /// A device went away: its keys are up, without any change of state.
        case deviceGone(Int)
        /// Pause chosen in the scanner menu (offered only with a pause hold, so the person can
        /// resume alone): pauses when running; nothing when paused.
        case menu
    }

    public enum Output: Sendable, Equatable {
        case changed(PauseChange)
        /// The key just handled completed the chord (or is the release of one that did): it is
        /// not a switch press.
        case consumed
        case setTimer(at: Instant)
        case cancelTimer
    }

    public private(set) var state: State = .running
    public let pauseHold: Interval
    public let chord: KeyChord?

    /// Every key down now, switches or not (the chord and, after a resume, which switches are
    /// still held).
    private var down: Set<Key> = []
    /// Switches pressed since the last change and still down, with their press time and name.
    private var armed: [Key: (since: Instant, name: String)] = [:]
    /// The deadline the timer is set at.
    private var deadline: Instant?
    /// Keys whose press completed the chord; their release is consumed too.
    private var consumedKeys: Set<Key> = []

    public init(pauseHold: Interval, chord: KeyChord?) {
        self.pauseHold = max(pauseHold, .zero)
        self.chord = chord
    }

    /// Whether anything can change the state (a hold time or a chord).
    public var isEnabled: Bool { !pauseHold.isZero || chord != nil }
    public var isPaused: Bool { state == .paused }

    /// Whether `key` is physically down now.
    public func isDown(_ key: Key) -> Bool { down.contains(key) }

    public mutating func handle(_ event: Event, at now: Instant) -> [Output] {
        guard isEnabled else { return [] }
        var out: [Output] = []
        switch event {
        case .key(let key, let value, let switchName):
            switch value {
            case 1:
                guard !down.contains(key) else { return [] }  // A press without a release (a resync): still the same press.
                down.insert(key)
                if let chord, chord.contains(key.code), chord.isComplete(isDown: { c in down.contains { $0.code == c } }) {
                    consumedKeys.insert(key)
                    out.append(.consumed)
                    toggle(.chord(chord.description), at: now, &out)
                    return out
                }
                if let switchName, !pauseHold.isZero {
                    armed[key] = (now, switchName)
                    aim(&out)
                }
            case 0:
                down.remove(key)
                if consumedKeys.remove(key) != nil { out.append(.consumed) }
                if armed.removeValue(forKey: key) != nil { aim(&out) }
            default:
                break  // Autorepeat: still down.
            }
        case .timer:
            guard let due = deadline, now >= due, let first = earliestArmed else { return [] }
            deadline = nil
            toggle(.hold(switchName: first.name, held: pauseHold), at: now, &out)
        case .menu:
            if state == .running { toggle(.menu, at: now, &out) }
        case .deviceGone(let device):
            down = down.filter { $0.device != device }
            consumedKeys = consumedKeys.filter { $0.device != device }
            let before = armed.count
            armed = armed.filter { $0.key.device != device }
            if armed.count != before { aim(&out) }
        }
        return out
    }

    private var earliestArmed: (since: Instant, name: String)? {
        armed.values.min { a, b in a.since != b.since ? a.since < b.since : a.name < b.name }
    }

    /// Sets the timer at the earliest armed press + pauseHold, or cancels it.
    private mutating func aim(_ out: inout [Output]) {
        let wanted = earliestArmed.map { $0.since + pauseHold }
        guard wanted != deadline else { return }
        deadline = wanted
        out.append(wanted.map { .setTimer(at: $0) } ?? .cancelTimer)
    }

    /// Pauses or resumes; every armed switch is spent.
    private mutating func toggle(_ cause: PauseChange.Cause, at now: Instant, _ out: inout [Output]) {
        state = state == .running ? .paused : .running
        armed = [:]
        if deadline != nil {
            deadline = nil
            out.append(.cancelTimer)
        }
        out.append(.changed(PauseChange(state == .paused ? .paused : .resumed, cause)))
    }
}
