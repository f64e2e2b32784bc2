/// Offline calibration (research/filter-anchors §8, after PersonalTouch): replay a recording of a
/// user's switch presses through the switch pipelines once per candidate setting of (hold
/// duration, ignore repeat, debounce) and count what each setting would have let through. A
/// clinician asks the user to press N times; the settings that yield exactly N accepted presses
/// are the candidates. Pure and fast (the filters are functions of events and time): the
/// `calibrate` command is a thin shell over this.
///
/// Each setting runs on its own virtual clock: timers due at or before an event fire first (at
/// their deadlines, in deadline order, ties in the order they were set, as `TimerQueue` does),
/// the rest fire after the last event. Move repeat is off during calibration so that actions
/// fired = presses accepted.
public enum Calibration {
    /// One point of the grid.
    public struct Setting: Hashable, Sendable, CustomStringConvertible {
        public var holdDuration: Interval
        public var ignoreRepeat: Interval
        public var debounce: Interval

        public init(holdDuration: Interval, ignoreRepeat: Interval, debounce: Interval) {
            self.holdDuration = holdDuration
            self.ignoreRepeat = ignoreRepeat
            self.debounce = debounce
        }

        /// "hold 0.100s ignoreRepeat 0.300s debounce 0.025s"
        public var description: String { "hold \(holdDuration) ignoreRepeat \(ignoreRepeat) debounce \(debounce)" }
    }

    /// The candidate values of each setting; every combination is a `Setting`.
    public struct Grid: Sendable, Equatable {
        public private(set) var holdDurations: [Interval]
        public private(set) var ignoreRepeats: [Interval]
        public private(set) var debounces: [Interval]

        /// Checks every value against the profile's ranges (`ProfileDecoder.ranges`); an empty
        /// list or a value out of range is an `InputError` naming it (`file` is what the caller
        /// read the grid from: a file name or "--hold").
        public init(holdDurations: [Interval], ignoreRepeats: [Interval], debounces: [Interval], file: String = "calibration grid") throws(InputError) {
            for (key, values) in [("holdDuration", holdDurations), ("ignoreRepeat", ignoreRepeats), ("debounce", debounces)] {
                guard !values.isEmpty else {
                    throw InputError(file: file, path: key, message: "expected at least one value")
                }
                let range = ProfileDecoder.ranges[key] ?? 0...10
                for (i, v) in values.enumerated() where !range.contains(v.seconds) {
                    throw InputError(file: file, path: "\(key)[\(i)]",
                                     message: "expected seconds in \(formatRange(range)), found \(formatSeconds(v))")
                }
            }
            self.holdDurations = holdDurations
            self.ignoreRepeats = ignoreRepeats
            self.debounces = debounces
        }

        /// Every combination: hold duration outermost, then ignore repeat, then debounce.
        public var settings: [Setting] {
            var all: [Setting] = []
            all.reserveCapacity(holdDurations.count * ignoreRepeats.count * debounces.count)
            for h in holdDurations {
                for r in ignoreRepeats {
                    for d in debounces { all.append(Setting(holdDuration: h, ignoreRepeat: r, debounce: d)) }
                }
            }
            return all
        }
    }

    /// Rejected presses by reason. `autorepeat` counts value-2 events (a held key's repeats),
    /// which are not presses; it is kept apart from `presses`.
    public struct Rejections: Equatable, Sendable {
        public var debounce = 0
        public var holdDuration = 0
        public var ignoreRepeat = 0
        public var autorepeat = 0

        public init(debounce: Int = 0, holdDuration: Int = 0, ignoreRepeat: Int = 0, autorepeat: Int = 0) {
            self.debounce = debounce
            self.holdDuration = holdDuration
            self.ignoreRepeat = ignoreRepeat
            self.autorepeat = autorepeat
        }

        public subscript(reason: FilterDecision.RejectReason) -> Int {
            switch reason {
            case .debounce: return debounce
            case .holdDuration: return holdDuration
            case .ignoreRepeat: return ignoreRepeat
            case .autorepeat: return autorepeat
            }
        }

        /// Presses rejected (debounce + hold duration + ignore repeat).
        public var presses: Int { debounce + holdDuration + ignoreRepeat }

        mutating func count(_ reason: FilterDecision.RejectReason) {
            switch reason {
            case .debounce: debounce += 1
            case .holdDuration: holdDuration += 1
            case .ignoreRepeat: ignoreRepeat += 1
            case .autorepeat: autorepeat += 1
            }
        }
    }

    /// What one setting let through.
    public struct Outcome: Equatable, Sendable {
        public var setting: Setting
        /// Accepted presses = actions fired (short or long-press action), all switches together.
        public var accepted: Int
        public var rejected: Rejections

        public init(setting: Setting, accepted: Int, rejected: Rejections) {
            self.setting = setting
            self.accepted = accepted
            self.rejected = rejected
        }
    }

    /// Replays `events` (only EV_KEY events of bound keys matter; others are skipped; events are
    /// taken in time order, ties in the order given) once per setting, with the profile's
    /// switches and its other stabilization settings (anchor, long press, select target).
    /// `progress` is called after each setting with the number done and the total (the shell
    /// shows it on a long run).
    public static func run(events: [TimedEvent], profile: Profile, grid: Grid,
                           progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }) -> [Outcome] {
        run(events: events, switches: profile.switches, stabilization: profile.switchStabilization, settings: grid.settings,
            progress: progress)
    }

    /// Settings that share their debounce and hold duration share stages 1–3 (autorepeat,
    /// debounce, hold duration): those run once per pair, per switch, recording what stage 4
    /// (ignore repeat) hears; stage 4 then runs alone for each ignore-repeat time. Stage 4 sets
    /// no timer and feeds nothing back, and every press it accepts is counted once by stage 5
    /// (long press: short or long, after its release or its timeout), so the outcomes are those
    /// of replaying every setting whole (`runWhole`; a test compares the two). Switches do not
    /// interact, so each is replayed on its own and the counts are added. The default grid (11
    /// holds × 11 ignores × 9 debounces) replays 99 times instead of 1,089 (issue 22: a million
    /// presses took minutes).
    public static func run(events: [TimedEvent], switches: [SwitchBinding], stabilization: SwitchStabilization,
                           settings: [Setting], progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }) -> [Outcome] {
        let keys = keyEvents(events, switches: switches)
        var outcomes = [Outcome?](repeating: nil, count: settings.count)
        // Settings by (debounce, hold), in grid order of their first setting.
        var order: [StageKey] = []
        var byStage: [StageKey: [Int]] = [:]
        for (k, setting) in settings.enumerated() {
            let key = StageKey(debounce: setting.debounce, holdDuration: setting.holdDuration)
            if byStage[key] == nil { order.append(key) }
            byStage[key, default: []].append(k)
        }
        let perSwitch = switches.indices.map { p in keys.filter { $0.pipeline == p } }
        var done = 0
        for key in order {
            var st = stabilization
            st.debounce = key.debounce
            st.holdDuration = key.holdDuration
            // Stages 1–3 once per switch: their rejections, and what stage 4 hears.
            let stages = perSwitch.map { keys in
                var replay = StageReplay(stabilization: st)
                return replay.run(keys)
            }
            for k in byStage[key]! {
                var rejected = Rejections()
                var accepted = 0
                for stage in stages {
                    rejected.debounce += stage.rejected.debounce
                    rejected.holdDuration += stage.rejected.holdDuration
                    rejected.autorepeat += stage.rejected.autorepeat
                    var ignore = IgnoreRepeatFilter(window: settings[k].ignoreRepeat, anchor: stabilization.ignoreRepeatFrom)
                    for input in stage.ignoreRepeatInputs {
                        for o in ignore.handle(input.event, at: input.at) {
                            switch o {
                            case .accepted: accepted += 1
                            case .rejected: rejected.ignoreRepeat += 1
                            case .released: break
                            }
                        }
                    }
                }
                outcomes[k] = Outcome(setting: settings[k], accepted: accepted, rejected: rejected)
                done += 1
                progress(done, settings.count)
            }
        }
        return outcomes.map { $0! }
    }

    struct StageKey: Hashable {
        var debounce: Interval
        var holdDuration: Interval
    }

    /// Stages 1–3 of one switch over its key events, on their own timers (debounce, spurious
    /// release, hold duration: deadline order, ties in the order set, as `Replay` does).
    struct StageReplay {
        var acceptance: SwitchAcceptance
        var deadlines: [Int64] = Array(repeating: .max, count: SwitchPipeline.TimerID.allCases.count)
        var sequence: [UInt64] = Array(repeating: 0, count: SwitchPipeline.TimerID.allCases.count)
        var nextSequence: UInt64 = 0
        var rejected = Rejections()
        var buffer: [SwitchAcceptance.Output] = []

        init(stabilization: SwitchStabilization) {
            acceptance = SwitchAcceptance(stabilization: stabilization)
            acceptance.ignoreRepeatInputs = []
        }

        mutating func run(_ keys: [KeyEvent]) -> (rejected: Rejections, ignoreRepeatInputs: [(event: IgnoreRepeatFilter.Event, at: Instant)]) {
            acceptance.ignoreRepeatInputs!.reserveCapacity(keys.count)
            for k in keys {
                fire(upTo: k.time.microseconds)
                handle(.key(value: k.value), at: k.time)
            }
            fire(upTo: .max)
            return (rejected, acceptance.ignoreRepeatInputs ?? [])
        }

        mutating func fire(upTo t: Int64) {
            while true {
                var best = -1
                for i in deadlines.indices where deadlines[i] != .max {
                    if best < 0 || deadlines[i] < deadlines[best] || (deadlines[i] == deadlines[best] && sequence[i] < sequence[best]) {
                        best = i
                    }
                }
                guard best >= 0, deadlines[best] <= t, let id = SwitchPipeline.TimerID(rawValue: best) else { return }
                let deadline = deadlines[best]
                deadlines[best] = .max
                handle(.timer(id), at: Instant(microseconds: deadline))
            }
        }

        mutating func handle(_ event: SwitchAcceptance.Event, at t: Instant) {
            buffer.removeAll(keepingCapacity: true)
            acceptance.handle(event, at: t, into: &buffer)
            for o in buffer {
                switch o {
                case .rejected(let reason): rejected.count(reason)
                case .setTimer(let id, let at):
                    deadlines[id.rawValue] = at.microseconds
                    nextSequence += 1
                    sequence[id.rawValue] = nextSequence
                case .cancelTimer(let id):
                    deadlines[id.rawValue] = .max
                case .physicalPress, .acceptedPress, .acceptedRelease:
                    break
                }
            }
        }
    }

    /// Every setting replayed whole through the pipelines (what `run` must agree with).
    static func runWhole(events: [TimedEvent], switches: [SwitchBinding], stabilization: SwitchStabilization,
                         settings: [Setting]) -> [Outcome] {
        let keys = keyEvents(events, switches: switches)
        return settings.enumerated().map { k, setting in
            var st = stabilization
            st.holdDuration = setting.holdDuration
            st.ignoreRepeat = setting.ignoreRepeat
            st.debounce = setting.debounce
            var replay = Replay(switches: switches, stabilization: st)
            replay.run(keys)
            return Outcome(setting: setting, accepted: replay.accepted, rejected: replay.rejected)
        }
    }

    /// The outcomes with exactly `presses` accepted presses, in grid order.
    public static func outcomes(yielding presses: Int, in outcomes: [Outcome]) -> [Outcome] {
        outcomes.filter { $0.accepted == presses }
    }

    /// One key event for a bound switch.
    struct KeyEvent: Sendable {
        var time: Instant
        var pipeline: Int
        var value: Int32
    }

    /// The events that reach a pipeline, time-ordered (stable for ties).
    static func keyEvents(_ events: [TimedEvent], switches: [SwitchBinding]) -> [KeyEvent] {
        var pipelineByCode: [UInt16: Int] = [:]
        for (i, b) in switches.enumerated() where pipelineByCode[b.code] == nil { pipelineByCode[b.code] = i }
        var keys: [KeyEvent] = []
        keys.reserveCapacity(events.count)
        for e in events where e.event.type == EventCodes.EV_KEY {
            if let i = pipelineByCode[e.event.code] { keys.append(KeyEvent(time: e.time, pipeline: i, value: e.event.value)) }
        }
        if !zip(keys, keys.dropFirst()).allSatisfy({ $0.time <= $1.time }) {
            keys = keys.enumerated().sorted { a, b in
                a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
            }.map(\.element)
        }
        return keys
    }

    /// One setting's run: the pipelines and their timers (a flat array of deadlines, five per
    /// switch: cheaper than a general timer queue for a handful of timers).
    struct Replay {
        static let timersPerSwitch = SwitchPipeline.TimerID.allCases.count

        var pipelines: [SwitchPipeline]
        var deadlines: [Int64]
        var sequence: [UInt64]
        var nextSequence: UInt64 = 0
        /// No deadline is earlier than this (a lower bound; refreshed on every scan).
        var earliest = Int64.max
        var accepted = 0
        var rejected = Rejections()

        init(switches: [SwitchBinding], stabilization: SwitchStabilization) {
            pipelines = switches.map { SwitchPipeline(binding: $0, stabilization: stabilization, moveRepeat: .zero) }
            deadlines = Array(repeating: .max, count: switches.count * Self.timersPerSwitch)
            sequence = Array(repeating: 0, count: deadlines.count)
        }

        /// The outputs of one event, kept between events (no array per event).
        var outputs: [SwitchPipeline.Output] = []

        mutating func run(_ keys: [KeyEvent]) {
            outputs.reserveCapacity(16)
            for k in keys {
                fire(upTo: k.time.microseconds)
                handle(.key(value: k.value), at: k.time, k.pipeline)
            }
            // The tail: every timer left (without move repeat, each pipeline sets finitely many).
            fire(upTo: .max)
        }

        mutating func handle(_ event: SwitchPipeline.Event, at t: Instant, _ p: Int) {
            var buffer = outputs
            outputs = []
            buffer.removeAll(keepingCapacity: true)
            pipelines[p].handle(event, at: t, into: &buffer)
            apply(buffer, p)
            outputs = buffer
        }

        mutating func fire(upTo t: Int64) {
            while earliest <= t {
                var best = -1
                var low = Int64.max
                for i in deadlines.indices where deadlines[i] != .max {
                    if best < 0 || deadlines[i] < deadlines[best] || (deadlines[i] == deadlines[best] && sequence[i] < sequence[best]) {
                        best = i
                    }
                    low = min(low, deadlines[i])
                }
                earliest = low
                guard best >= 0, deadlines[best] <= t else { return }
                let deadline = deadlines[best]
                deadlines[best] = .max
                let p = best / Self.timersPerSwitch
                guard let id = SwitchPipeline.TimerID(rawValue: best % Self.timersPerSwitch) else { return }
                handle(.timer(id), at: Instant(microseconds: deadline), p)
                earliest = deadline
            }
        }

        mutating func apply(_ outputs: [SwitchPipeline.Output], _ p: Int) {
            for o in outputs {
                switch o {
                case .decision(let d):
                    switch d.decision {
                    case .accepted, .longPress: accepted += 1
                    case .rejected(let reason): rejected.count(reason)
                    }
                case .setTimer(let id, let at):
                    let i = p * Self.timersPerSwitch + id.rawValue
                    deadlines[i] = at.microseconds
                    nextSequence += 1
                    sequence[i] = nextSequence
                    earliest = min(earliest, at.microseconds)
                case .cancelTimer(let id):
                    deadlines[p * Self.timersPerSwitch + id.rawValue] = .max
                case .physicalPress, .action:
                    break
                }
            }
        }
    }
}

private func formatSeconds(_ i: Interval) -> String {
    i.microseconds % 1000 == 0 ? i.description : "\(Double(i.microseconds) / 1_000_000)s"
}

