/// Stage 6 of a switch pipeline: Move Repeat (Apple Switch Control). While a switch whose action
/// fired on press (no long press set up) is `next` or `previous` and is still held, the action
/// repeats every M after it first fired. The repeats are actions only, no decision lines: the
/// press was accepted once.
///
///     F ... the action fired (at acceptance)   R ... release   M| ... one repeat interval
///
///     1) F---M|---M|---M| R   next/previous: repeated at F + M, F + 2M, F + 3M; R stops it
///     2) F--R  M              released before M: no repeat
///     3) F (select) ... R     other actions never repeat
///     4) M = 0                off
///     5) F---M|--X            device gone: timer cancelled, no more repeats
package struct MoveRepeatFilter: Sendable {
    package enum State: Sendable, Equatable {
        case idle
        case repeating(SwitchAction)
    }

    package enum Event: Sendable, Equatable {
        /// The switch's action fired on press and the switch is still held.
        case fired(SwitchAction)
        case release
        case timeout
        case deviceGone
    }

    package enum Output: Sendable, Equatable {
        case repeatAction(SwitchAction)
        case setTimer(at: Instant)
        case cancelTimer
    }

    package let interval: Interval
    package private(set) var state: State = .idle

    package init(interval: Interval) {
        self.interval = max(interval, .zero)
    }

    package static func repeats(_ action: SwitchAction) -> Bool {
        action == .next || action == .previous
    }

    package mutating func handle(_ event: Event, at now: Instant) -> [Output] {
        switch state {
        case .idle:
            switch event {
            case .fired(let action):
                guard !interval.isZero, Self.repeats(action) else { return [] }
                state = .repeating(action)
                return [.setTimer(at: now + interval)]
            case .release, .timeout, .deviceGone:
                return []
            }
        case .repeating(let action):
            switch event {
            case .timeout:
                return [.repeatAction(action), .setTimer(at: now + interval)]
            case .release, .deviceGone:
                state = .idle
                return [.cancelTimer]
            case .fired(let again):
                // A new press while we think the switch is held (cannot happen after the stages
                // before): start over with the new action.
                guard Self.repeats(again) else {
                    state = .idle
                    return [.cancelTimer]
                }
                state = .repeating(again)
                return [.setTimer(at: now + interval)]
            }
        }
    }
}
