/// Stage 3 of a switch pipeline: Hold Duration (Apple's name; SlowKeys / acceptance delay
/// elsewhere). A press counts only if the switch stays down H; it is accepted at press + H (a
/// timer, not at the release, so the user gets feedback while still holding). A release before
/// then rejects the press, and that release is dropped too.
///
/// H is measured from the physical press time. A press that leaves the debouncer late (held back
/// by it) is accepted no earlier than when it arrives.
///
///     P ... press (physical)   R ... release   H| ... hold duration runs out   X ... device gone
///
///     1) P------H|  R     accepted at P + H; R passed
///     2) P----R  H        rejected(holdDuration) at R; R dropped
///     3) P------H R       R exactly at P + H: the timer fires first, accepted, then R passed
///     4) P--X             device gone while pending: timer cancelled, nothing
///     5) H = 0: P R       accepted at P (off)
package struct HoldDurationFilter: Sendable {
    package enum State: Sendable, Equatable {
        case idle
        /// Waiting for H; the timer runs.
        case pending(press: Instant)
        /// Accepted; waiting for the release.
        case accepted(press: Instant)
    }

    package enum Event: Sendable, Equatable {
        /// A press that left the debouncer; `at` is its physical time.
        case press(at: Instant)
        /// A release that left the debouncer; `at` is its physical time.
        case release(at: Instant)
        case timeout
        case deviceGone
    }

    package enum Output: Sendable, Equatable {
        /// The press counts; `press` is its physical time.
        case accepted(press: Instant)
        /// The release of an accepted press.
        case released(at: Instant)
        /// Released before H: the line `rejected(holdDuration)`.
        case rejected
        case setTimer(at: Instant)
        case cancelTimer
    }

    package let holdDuration: Interval
    package private(set) var state: State = .idle

    package init(holdDuration: Interval) {
        self.holdDuration = max(holdDuration, .zero)
    }

    package mutating func handle(_ event: Event, at now: Instant) -> [Output] {
        switch state {
        case .idle:
            switch event {
            case .press(let press):
                let deadline = press + holdDuration
                if deadline <= now {
                    state = .accepted(press: press)
                    return [.accepted(press: press)]
                }
                state = .pending(press: press)
                return [.setTimer(at: deadline)]
            case .release, .timeout, .deviceGone:
                return []
            }
        case .pending(let press):
            switch event {
            case .release:
                state = .idle
                return [.cancelTimer, .rejected]
            case .timeout:
                state = .accepted(press: press)
                return [.accepted(press: press)]
            case .press:
                return []
            case .deviceGone:
                state = .idle
                return [.cancelTimer]
            }
        case .accepted:
            switch event {
            case .release(let release):
                state = .idle
                return [.released(at: release)]
            case .press, .timeout:
                return []
            case .deviceGone:
                state = .idle
                return []
            }
        }
    }
}
