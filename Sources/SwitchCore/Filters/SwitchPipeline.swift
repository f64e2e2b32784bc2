/// Everything between one physical switch (a device + an EV_KEY code) and the scanner: which
/// presses count and what they do. Six stages, each its own pure state machine in its own file,
/// in this order (REFERENCE §3, research/filter-anchors §7):
///
///  1. `AutorepeatFilter`   value 2 is "still down", never a press         → rejected(autorepeat)
///  2. `DebounceFilter`     contact bounce, libinput's shape (25 ms / 12 ms) → rejected(debounce)
///  3. `HoldDurationFilter` held long enough to count                       → rejected(holdDuration)
///  4. `IgnoreRepeatFilter` too soon after the last one                      → rejected(ignoreRepeat)
///  5. `LongPressFilter`    short action (on release) or long-press action   → accepted / longPress
///  6. `MoveRepeatFilter`   a held next/previous repeats                     → more actions
///
/// Stages 1–4 are `SwitchAcceptance` (its accepted-press edges are what the property tests
/// check). Outputs of one `handle` call all happen at `now`, in order; timers are absolute
/// deadlines the caller keeps (`TimerQueue`) and hands back as `.timer(id)` when due.
public struct SwitchPipeline: Sendable {
    public enum Event: Sendable, Equatable {
        /// EV_KEY value: 0 release, 1 press, 2 autorepeat.
        case key(value: Int32)
        /// A timer this pipeline set fired.
        case timer(TimerID)
        /// The device was unplugged: end cleanly, fire nothing.
        case deviceGone
    }

    public enum Output: Sendable, Equatable {
        /// A transcript line (`TranscriptEvent.filter`).
        case decision(FilterDecision)
        /// A press came through debounce now: the engine snapshots what is highlighted
        /// (`selectTarget: press`).
        case physicalPress
        /// Deliver this switch action to the scanner now.
        case action(SwitchAction)
        case setTimer(TimerID, at: Instant)
        case cancelTimer(TimerID)
    }

    /// The pipeline's timers; at most one of each is pending at a time.
    public enum TimerID: Int, Hashable, Sendable, CaseIterable {
        /// Debounce: the bounce window.
        case debounce
        /// Debounce: the 12 ms spurious-release window.
        case debounceSpurious
        case holdDuration
        case longPress
        case moveRepeat
    }

    public let binding: SwitchBinding
    package private(set) var acceptance: SwitchAcceptance
    package private(set) var longPress: LongPressFilter
    package private(set) var moveRepeat: MoveRepeatFilter

    /// Stages 1–4's outputs of the event being handled; kept between calls so the hot path
    /// doesn't allocate a fresh buffer per event.
    private var scratch: [SwitchAcceptance.Output] = []
    /// `[.decision(rejected(reason))]` per reason: the whole output of most rejected events
    /// (an autorepeat storm), returned without allocating.
    private let rejectedOutputs: [[Output]]

    public init(binding: SwitchBinding, stabilization: SwitchStabilization, moveRepeat: Interval) {
        self.binding = binding
        acceptance = SwitchAcceptance(stabilization: stabilization)
        longPress = LongPressFilter(action: binding.action, longPressAction: binding.longPressAction, longPress: stabilization.longPress)
        self.moveRepeat = MoveRepeatFilter(interval: moveRepeat)
        rejectedOutputs = RejectOrder.all.map { [.decision(FilterDecision(switchName: binding.keyName, .rejected($0)))] }
    }

    public mutating func handle(_ event: Event, at now: Instant) -> [Output] {
        if case .key = event {
            // The hot path's common case, a lone rejection, returned without a new array.
            if !scratch.isEmpty { scratch.removeAll(keepingCapacity: true) }
            guard case .key(let value) = event else { return [] }
            acceptance.handle(.key(value: value), at: now, into: &scratch)
            if scratch.isEmpty { return [] }
            if scratch.count == 1, case .rejected(let reason) = scratch[0] { return rejectedOutputs[RejectOrder.index(reason)] }
            var merged: [Output] = []
            merged.reserveCapacity(scratch.count + 2)
            mergeScratch(now, &merged)
            return merged
        }
        var out: [Output] = []
        handle(event, at: now, into: &out)
        return out
    }

    /// `handle`, appending the outputs to `out` (whose capacity a caller that replays many
    /// events keeps: `Calibration`); the same outputs in the same order.
    public mutating func handle(_ event: Event, at now: Instant, into out: inout [Output]) {
        if !scratch.isEmpty { scratch.removeAll(keepingCapacity: true) }
        var late: [Output] = []
        switch event {
        case .key(let value):
            acceptance.handle(.key(value: value), at: now, into: &scratch)
        case .timer(.longPress):
            actions(longPress.handle(.timeout, at: now), onPress: false, now, &out)
            return
        case .timer(.moveRepeat):
            repeats(moveRepeat.handle(.timeout, at: now), &out)
            return
        case .timer(let id):
            acceptance.handle(.timer(id), at: now, into: &scratch)
        case .deviceGone:
            acceptance.handle(.deviceGone, at: now, into: &scratch)
            actions(longPress.handle(.deviceGone, at: now), onPress: false, now, &late)
            repeats(moveRepeat.handle(.deviceGone, at: now), &late)
        }
        if scratch.count == 1, late.isEmpty, case .rejected(let reason) = scratch[0] {
            out.append(rejectedOutputs[RejectOrder.index(reason)][0])
            return
        }
        mergeScratch(now, &out)
        if !late.isEmpty { out.append(contentsOf: late) }
    }

    /// Stages 1–4's outputs (`scratch`), with what the accepted edges do (long press, move
    /// repeat), appended to `merged` in order.
    private mutating func mergeScratch(_ now: Instant, _ merged: inout [Output]) {
        for s in scratch {
            switch s {
            case .physicalPress:
                merged.append(.physicalPress)
            case .rejected(let reason):
                merged.append(.decision(FilterDecision(switchName: binding.keyName, .rejected(reason))))
            case .acceptedPress(let press):
                actions(longPress.handle(.press(at: press), at: now), onPress: true, now, &merged)
            case .acceptedRelease:
                actions(longPress.handle(.release, at: now), onPress: false, now, &merged)
                repeats(moveRepeat.handle(.release, at: now), &merged)
            case .setTimer(let id, let deadline):
                merged.append(.setTimer(id, at: deadline))
            case .cancelTimer(let id):
                merged.append(.cancelTimer(id))
            }
        }
    }

    private mutating func actions(_ outputs: [LongPressFilter.Output], onPress: Bool, _ now: Instant, _ out: inout [Output]) {
        for o in outputs {
            switch o {
            case .accepted(let action):
                out.append(.decision(FilterDecision(switchName: binding.keyName, .accepted(action))))
                out.append(.action(action))
                if onPress { repeats(moveRepeat.handle(.fired(action), at: now), &out) }
            case .longPress(let action):
                out.append(.decision(FilterDecision(switchName: binding.keyName, .longPress(action))))
                out.append(.action(action))
            case .setTimer(let deadline):
                out.append(.setTimer(.longPress, at: deadline))
            case .cancelTimer:
                out.append(.cancelTimer(.longPress))
            }
        }
    }

    private func repeats(_ outputs: [MoveRepeatFilter.Output], _ out: inout [Output]) {
        for o in outputs {
            switch o {
            case .repeatAction(let action): out.append(.action(action))
            case .setTimer(let deadline): out.append(.setTimer(.moveRepeat, at: deadline))
            case .cancelTimer: out.append(.cancelTimer(.moveRepeat))
            }
        }
    }
}

/// A fixed order of the reject reasons, to index the prebuilt decision lines.
private enum RejectOrder {
    static let all: [FilterDecision.RejectReason] = [.autorepeat, .debounce, .holdDuration, .ignoreRepeat]
    static func index(_ r: FilterDecision.RejectReason) -> Int {
        switch r {
        case .autorepeat: return 0
        case .debounce: return 1
        case .holdDuration: return 2
        case .ignoreRepeat: return 3
        }
    }
}
