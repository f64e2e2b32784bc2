/// Stages 1–4 of a switch pipeline (autorepeat → debounce → hold duration → ignore repeat):
/// which presses count. Its output is the accepted-press stream as edges (an accepted press with
/// its physical time, later that press's release) plus the decision lines of the rejected ones.
/// `SwitchPipeline` adds what the accepted presses *do* (long press, move repeat); property tests
/// check this stream on its own.
///
/// Routing between the stages:
///
///     key ─▶ Autorepeat ─press/release─▶ Debounce ─press(t)──▶ HoldDuration ─accepted(t)─▶ IgnoreRepeat ─▶ acceptedPress(t)
///                                                 └release(t)─▶ HoldDuration (rejects a short press)
///                                                 └release(t)─▶ IgnoreRepeat (moves a release anchor) ─▶ acceptedRelease(t)
///
/// Every press that leaves the debouncer is also reported as `physicalPress` (the engine then
/// snapshots what is highlighted, for `selectTarget: press`).
package struct SwitchAcceptance: Sendable {
    package typealias TimerID = SwitchPipeline.TimerID

    package enum Event: Sendable, Equatable {
        case key(value: Int32)
        case timer(TimerID)
        case deviceGone
    }

    package enum Output: Sendable, Equatable {
        /// A press came out of the debouncer now.
        case physicalPress
        case rejected(FilterDecision.RejectReason)
        /// A press counts; `at` is its physical time.
        case acceptedPress(at: Instant)
        /// The release of an accepted press; `at` is its physical time.
        case acceptedRelease(at: Instant)
        case setTimer(TimerID, at: Instant)
        case cancelTimer(TimerID)
    }

    package private(set) var autorepeat = AutorepeatFilter()
    package private(set) var debounce: DebounceFilter
    package private(set) var hold: HoldDurationFilter
    package private(set) var ignoreRepeat: IgnoreRepeatFilter
    /// When set, stage 4 is not run: what it would hear (accepted presses from stage 3, releases
    /// from stage 2, each with the instant it is heard) is appended here instead. `Calibration`
    /// runs stages 1–3 once per (debounce, hold duration) and stage 4 alone per ignore-repeat
    /// time: stage 4 sets no timer and feeds nothing back, so the outcomes are the same.
    package var ignoreRepeatInputs: [(event: IgnoreRepeatFilter.Event, at: Instant)]?

    package init(stabilization: SwitchStabilization) {
        debounce = DebounceFilter(window: stabilization.debounce)
        hold = HoldDurationFilter(holdDuration: stabilization.holdDuration)
        ignoreRepeat = IgnoreRepeatFilter(window: stabilization.ignoreRepeat, anchor: stabilization.ignoreRepeatFrom)
    }

    package mutating func handle(_ event: Event, at now: Instant) -> [Output] {
        var out: [Output] = []
        handle(event, at: now, into: &out)
        return out
    }

    /// Appends the outputs of `event` to `out` (the pipeline's hot path: one buffer for all stages).
    package mutating func handle(_ event: Event, at now: Instant, into out: inout [Output]) {
        switch event {
        case .key(let value):
            for edge in autorepeat.handle(AutorepeatFilter.Event(value: value), at: now) {
                switch edge {
                case .press: debounced(debounce.handle(.press, at: now), now, &out)
                case .release: debounced(debounce.handle(.release, at: now), now, &out)
                case .rejectedAutorepeat: out.append(.rejected(.autorepeat))
                }
            }
        case .timer(.debounce):
            debounced(debounce.handle(.timeout(.bounce), at: now), now, &out)
        case .timer(.debounceSpurious):
            debounced(debounce.handle(.timeout(.spurious), at: now), now, &out)
        case .timer(.holdDuration):
            held(hold.handle(.timeout, at: now), now, &out)
        case .timer(.longPress), .timer(.moveRepeat):
            // Not ours: the pipeline's later stages own these timers.
            break
        case .deviceGone:
            _ = autorepeat.handle(.deviceGone, at: now)
            debounced(debounce.handle(.deviceGone, at: now), now, &out)
            held(hold.handle(.deviceGone, at: now), now, &out)
            _ = ignoreRepeat.handle(.deviceGone, at: now)
        }
    }

    private mutating func debounced(_ outputs: [DebounceFilter.Output], _ now: Instant, _ out: inout [Output]) {
        for o in outputs {
            switch o {
            case .press(let t):
                out.append(.physicalPress)
                held(hold.handle(.press(at: t), at: now), now, &out)
            case .release(let t):
                held(hold.handle(.release(at: t), at: now), now, &out)
                toIgnoreRepeat(.release(at: t), now, &out)
            case .swallowedPress:
                out.append(.rejected(.debounce))
            case .setTimer(let timer, let deadline):
                out.append(.setTimer(timer == .bounce ? .debounce : .debounceSpurious, at: deadline))
            case .cancelTimer(let timer):
                out.append(.cancelTimer(timer == .bounce ? .debounce : .debounceSpurious))
            }
        }
    }

    private mutating func held(_ outputs: [HoldDurationFilter.Output], _ now: Instant, _ out: inout [Output]) {
        for o in outputs {
            switch o {
            case .accepted(let press):
                toIgnoreRepeat(.press(at: press), now, &out)
            case .released:
                // IgnoreRepeat hears every release straight from the debouncer (see `debounced`).
                break
            case .rejected:
                out.append(.rejected(.holdDuration))
            case .setTimer(let deadline):
                out.append(.setTimer(.holdDuration, at: deadline))
            case .cancelTimer:
                out.append(.cancelTimer(.holdDuration))
            }
        }
    }

    private mutating func toIgnoreRepeat(_ event: IgnoreRepeatFilter.Event, _ now: Instant, _ out: inout [Output]) {
        if ignoreRepeatInputs != nil {
            ignoreRepeatInputs!.append((event, now))
            return
        }
        ignored(ignoreRepeat.handle(event, at: now), &out)
    }

    private func ignored(_ outputs: [IgnoreRepeatFilter.Output], _ out: inout [Output]) {
        for o in outputs {
            switch o {
            case .accepted(let press): out.append(.acceptedPress(at: press))
            case .released(let release): out.append(.acceptedRelease(at: release))
            case .rejected: out.append(.rejected(.ignoreRepeat))
            }
        }
    }
}
