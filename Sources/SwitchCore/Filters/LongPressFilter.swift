/// Stage 5 of a switch pipeline: Long Press (Apple Switch Control; default 1 s since iOS 11.3).
/// Held L since the physical press, the switch's long-press action fires and its release does
/// nothing. Released before, the short action fires **on release**: with a long press set, a
/// press can only be told apart by waiting, so the short action waits too (Apple does the same).
/// Without a long press (L = 0 or no long-press action) the short action fires on acceptance.
///
///     P ... accepted press (physical time)   R ... release   L| ... long-press time runs out
///
///     1) P----R   L       short action at R: accepted(action)
///     2) P-------L|  R    long-press action at P + L: longPress(action); R does nothing
///     3) P-------L R      R exactly at P + L: the timer fires first, long press
///     4) off: P  R        short action at P: accepted(action); R does nothing
///     5) P--X             device gone while timing: timer cancelled, nothing fires
///
/// A press accepted later than P + L (Hold Duration ≥ L) is a long press at once.
package struct LongPressFilter: Sendable {
    package enum State: Sendable, Equatable {
        case idle
        /// Long press on; waiting to see whether the switch stays down L.
        case timing(press: Instant)
        /// The long-press action fired; waiting for the release.
        case firedLong
        /// Long press off; the short action fired at acceptance; waiting for the release.
        case firedShort
    }

    package enum Event: Sendable, Equatable {
        /// An accepted press; `at` is its physical time.
        case press(at: Instant)
        case release
        case timeout
        case deviceGone
    }

    package enum Output: Sendable, Equatable {
        /// The short action fires now.
        case accepted(SwitchAction)
        /// The long-press action fires now.
        case longPress(SwitchAction)
        case setTimer(at: Instant)
        case cancelTimer
    }

    package let action: SwitchAction
    /// nil when long press is off for this switch.
    package let longPress: (time: Interval, action: SwitchAction)?
    package private(set) var state: State = .idle
    /// The outputs that never change, made once: returned as they are, they cost no allocation
    /// per press (`calibrate` replays a million presses a thousand times).
    private let acceptedOutput: [Output]
    private let releasedOutput: [Output]

    package init(action: SwitchAction, longPressAction: SwitchAction?, longPress: Interval) {
        self.action = action
        if let longPressAction, longPress.microseconds > 0 {
            self.longPress = (longPress, longPressAction)
        } else {
            self.longPress = nil
        }
        acceptedOutput = [.accepted(action)]
        releasedOutput = [.cancelTimer, .accepted(action)]
    }

    package mutating func handle(_ event: Event, at now: Instant) -> [Output] {
        switch state {
        case .idle:
            switch event {
            case .press(let press):
                guard let longPress else {
                    state = .firedShort
                    return acceptedOutput
                }
                let deadline = press + longPress.time
                if deadline <= now {
                    state = .firedLong
                    return [.longPress(longPress.action)]
                }
                state = .timing(press: press)
                return [.setTimer(at: deadline)]
            case .release, .timeout, .deviceGone:
                return []
            }
        case .timing:
            switch event {
            case .release:
                state = .idle
                return releasedOutput
            case .timeout:
                state = .firedLong
                // `longPress` is non-nil in this state: .timing is only entered with it set.
                return longPress.map { [.longPress($0.action)] } ?? []
            case .press:
                return []
            case .deviceGone:
                state = .idle
                return [.cancelTimer]
            }
        case .firedLong, .firedShort:
            switch event {
            case .release, .deviceGone:
                state = .idle
                return []
            case .press, .timeout:
                return []
            }
        }
    }
}
