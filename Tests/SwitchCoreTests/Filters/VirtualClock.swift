import Testing
import SwitchCore

/// A state machine the virtual clock can drive: events in, outputs out, some outputs set or
/// cancel timers that the clock keeps and hands back when due.
protocol TimedMachine {
    associatedtype Event
    associatedtype Output
    associatedtype TimerID: Hashable & Sendable
    mutating func handle(_ event: Event, at now: Instant) -> [Output]
    static func timerEvent(_ id: TimerID) -> Event
    static func timerAction(_ output: Output) -> TimerAction<TimerID>?
    /// How an output reads in a transcript (timer outputs too; `lines` leaves those out).
    static func render(_ output: Output) -> String
}

enum TimerAction<ID> {
    case set(ID, Instant)
    case cancel(ID)
}

/// The test clock: inputs are delivered at their times; timers due at or before an input's time
/// fire first, each exactly at its deadline (same deadline: in the order they were set). Every
/// output is logged with the instant it happened.
struct VirtualClock<M: TimedMachine> {
    var machine: M
    private(set) var timers = TimerQueue<M.TimerID>()
    private(set) var log: [(t: Instant, output: M.Output)] = []
    private(set) var now = Instant.zero

    init(_ machine: M) { self.machine = machine }

    /// Fires every timer due at or before `t`, then moves the clock to `t`.
    mutating func advance(to t: Instant, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(t >= now, "time went backwards: \(t) < \(now)", sourceLocation: sourceLocation)
        while let due = timers.popDue(atOrBefore: t) {
            now = due.deadline
            apply(machine.handle(M.timerEvent(due.key), at: due.deadline))
        }
        now = max(now, t)
    }

    /// Delivers `event` at `t` (timers due by then fire first). Returns the outputs of the event itself.
    @discardableResult
    mutating func send(_ event: M.Event, at t: Instant, sourceLocation: SourceLocation = #_sourceLocation) -> [M.Output] {
        advance(to: t, sourceLocation: sourceLocation)
        let outputs = machine.handle(event, at: t)
        apply(outputs)
        return outputs
    }

    /// Fires every timer, however late (a run's tail); stops after `limit` firings (a machine that
    /// re-arms forever).
    mutating func drain(limit: Int = 10_000) {
        var n = 0
        while n < limit, let deadline = timers.nextDeadline() {
            advance(to: deadline)
            n += 1
        }
    }

    var pendingTimers: Int { timers.count }
    func isPending(_ id: M.TimerID) -> Bool { timers.isPending(id) }

    /// "0.025 release(0.010)": every output except timer bookkeeping.
    var lines: [String] {
        log.filter { M.timerAction($0.output) == nil }.map { "\($0.t.transcriptString) \(M.render($0.output))" }
    }

    /// Every output, timers included.
    var allLines: [String] { log.map { "\($0.t.transcriptString) \(M.render($0.output))" } }

    var outputs: [M.Output] { log.map(\.output) }

    mutating func clearLog() { log.removeAll() }

    private mutating func apply(_ outputs: [M.Output]) {
        for o in outputs {
            switch M.timerAction(o) {
            case .set(let id, let deadline)?:
                #expect(deadline >= now, "timer \(id) set in the past: \(deadline) < \(now)")
                timers.set(id, at: deadline)
            case .cancel(let id)?:
                timers.cancel(id)
            case nil:
                break
            }
            log.append((now, o))
        }
    }
}

/// Milliseconds as an instant.
func ms(_ x: Int64) -> Instant { Instant(microseconds: x * 1000) }
/// Milliseconds as an interval.
func dms(_ x: Int64) -> Interval { .milliseconds(x) }

/// A machine with a single timer.
enum OnlyTimer: Hashable, Sendable { case only }

// MARK: - Conformances

extension DebounceFilter: TimedMachine {
    static func timerEvent(_ id: Timer) -> Event { .timeout(id) }
    static func timerAction(_ o: Output) -> TimerAction<Timer>? {
        switch o {
        case .setTimer(let id, let at): return .set(id, at)
        case .cancelTimer(let id): return .cancel(id)
        default: return nil
        }
    }
    static func render(_ o: Output) -> String {
        switch o {
        case .press(let t): return "press(\(t))"
        case .release(let t): return "release(\(t))"
        case .swallowedPress: return "rejected(debounce)"
        case .setTimer(let id, let at): return "setTimer(\(id), \(at))"
        case .cancelTimer(let id): return "cancelTimer(\(id))"
        }
    }
}

extension HoldDurationFilter: TimedMachine {
    static func timerEvent(_ id: OnlyTimer) -> Event { .timeout }
    static func timerAction(_ o: Output) -> TimerAction<OnlyTimer>? {
        switch o {
        case .setTimer(let at): return .set(.only, at)
        case .cancelTimer: return .cancel(.only)
        default: return nil
        }
    }
    static func render(_ o: Output) -> String {
        switch o {
        case .accepted(let t): return "accepted(\(t))"
        case .released(let t): return "released(\(t))"
        case .rejected: return "rejected(holdDuration)"
        case .setTimer(let at): return "setTimer(\(at))"
        case .cancelTimer: return "cancelTimer"
        }
    }
}

extension LongPressFilter: TimedMachine {
    static func timerEvent(_ id: OnlyTimer) -> Event { .timeout }
    static func timerAction(_ o: Output) -> TimerAction<OnlyTimer>? {
        switch o {
        case .setTimer(let at): return .set(.only, at)
        case .cancelTimer: return .cancel(.only)
        default: return nil
        }
    }
    static func render(_ o: Output) -> String {
        switch o {
        case .accepted(let a): return "accepted(\(a.rawValue))"
        case .longPress(let a): return "longPress(\(a.rawValue))"
        case .setTimer(let at): return "setTimer(\(at))"
        case .cancelTimer: return "cancelTimer"
        }
    }
}

extension MoveRepeatFilter: TimedMachine {
    static func timerEvent(_ id: OnlyTimer) -> Event { .timeout }
    static func timerAction(_ o: Output) -> TimerAction<OnlyTimer>? {
        switch o {
        case .setTimer(let at): return .set(.only, at)
        case .cancelTimer: return .cancel(.only)
        default: return nil
        }
    }
    static func render(_ o: Output) -> String {
        switch o {
        case .repeatAction(let a): return "action(\(a.rawValue))"
        case .setTimer(let at): return "setTimer(\(at))"
        case .cancelTimer: return "cancelTimer"
        }
    }
}

extension SwitchAcceptance: TimedMachine {
    static func timerEvent(_ id: SwitchPipeline.TimerID) -> Event { .timer(id) }
    static func timerAction(_ o: Output) -> TimerAction<SwitchPipeline.TimerID>? {
        switch o {
        case .setTimer(let id, let at): return .set(id, at)
        case .cancelTimer(let id): return .cancel(id)
        default: return nil
        }
    }
    static func render(_ o: Output) -> String {
        switch o {
        case .physicalPress: return "physicalPress"
        case .rejected(let r): return "rejected(\(r.rawValue))"
        case .acceptedPress(let t): return "acceptedPress(\(t))"
        case .acceptedRelease(let t): return "acceptedRelease(\(t))"
        case .setTimer(let id, let at): return "setTimer(\(id), \(at))"
        case .cancelTimer(let id): return "cancelTimer(\(id))"
        }
    }
}

extension SwitchPipeline: TimedMachine {
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
        case .decision(let d):
            switch d.decision {
            case .accepted(let a): return "accepted(\(a.rawValue))"
            case .rejected(let r): return "rejected(\(r.rawValue))"
            case .longPress(let a): return "longPress(\(a.rawValue))"
            }
        case .physicalPress: return "physicalPress"
        case .action(let a): return "action(\(a.rawValue))"
        case .setTimer(let id, let at): return "setTimer(\(id), \(at))"
        case .cancelTimer(let id): return "cancelTimer(\(id))"
        }
    }
}

/// Several switch pipelines on one clock, as the engine runs them: timers keyed by (switch, id).
struct SwitchBank: TimedMachine {
    struct Key: Hashable, Sendable {
        var index: Int
        var id: SwitchPipeline.TimerID
    }
    enum Event {
        case key(Int, value: Int32)
        case timer(Key)
        case deviceGone
    }
    struct Output {
        var index: Int
        var output: SwitchPipeline.Output
    }

    var pipelines: [SwitchPipeline]

    mutating func handle(_ event: Event, at now: Instant) -> [Output] {
        switch event {
        case .key(let i, let value):
            return pipelines[i].handle(.key(value: value), at: now).map { Output(index: i, output: $0) }
        case .timer(let key):
            return pipelines[key.index].handle(.timer(key.id), at: now).map { Output(index: key.index, output: $0) }
        case .deviceGone:
            var all: [Output] = []
            for i in pipelines.indices {
                all += pipelines[i].handle(.deviceGone, at: now).map { Output(index: i, output: $0) }
            }
            return all
        }
    }

    static func timerEvent(_ id: Key) -> Event { .timer(id) }
    static func timerAction(_ o: Output) -> TimerAction<Key>? {
        switch SwitchPipeline.timerAction(o.output) {
        case .set(let id, let at)?: return .set(Key(index: o.index, id: id), at)
        case .cancel(let id)?: return .cancel(Key(index: o.index, id: id))
        case nil: return nil
        }
    }
    static func render(_ o: Output) -> String { "#\(o.index) " + SwitchPipeline.render(o.output) }
}
