import SwitchCore

/// Steps due at given CLOCK_MONOTONIC times, for an adapter that carries out a gesture over time
/// (a hold, a drag) without blocking the loop: `prepare` asks for `deadline`, `dispatch` takes
/// what is due. A gesture that comes while another is still running starts after it, so two
/// gestures never interleave their button presses.
public final class TimedSteps<Step> {
    private var pending: [(at: Int64, step: Step)] = []

    public init() {}

    /// Adds `steps` (each `after` the gesture's start), starting now or when the last pending step
    /// is due, whichever is later.
    public func schedule(_ steps: [(after: Interval, step: Step)], now: Int64) {
        let start = max(now, pending.last?.at ?? now)
        for s in steps {
            // After every step due at the same time or earlier: steps of one instant keep their order.
            let at = start + s.after.microseconds
            let k = pending.lastIndex { $0.at <= at }.map { $0 + 1 } ?? 0
            pending.insert((at, s.step), at: k)
        }
    }

    /// When the next step is due; nil when none is pending.
    public var deadline: Int64? { pending.first?.at }

    public var isEmpty: Bool { pending.isEmpty }

    /// The steps due at `now`, in order, taken off the queue.
    public func takeDue(_ now: Int64) -> [Step] {
        let k = pending.firstIndex { $0.at > now } ?? pending.count
        let due = pending[..<k].map(\.step)
        pending.removeFirst(k)
        return due
    }

    /// Everything still pending, in order (at the end of the loop: release what is held).
    public func takeAll() -> [Step] {
        defer { pending = [] }
        return pending.map(\.step)
    }
}
