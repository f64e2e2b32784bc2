/// Stage 2 of a switch pipeline: contact debounce with the shape of libinput's button debouncing
/// (`libinput-plugin-button-debounce.c`; our own code). libinput only debounces pointer
/// buttons, never KEY_* codes, so a switch that presents itself as a keyboard gets no help from the
/// stack: we do it here, one machine per switch (switches are independent: there is no
/// "other button" flush).
///
/// Two windows: the bounce window W (`switchStabilization.debounce`, 25 ms by default, restarted
/// on every edge) and the spurious window S = min(12 ms, W).
///
///     P ... press    R ... release    ---|  W runs out (measured from the last edge)
///     'passed'     sent on at once
///     'held back'  sent on when its window runs out (with its physical time)
///     'swallowed'  never sent; a swallowed press is the line `rejected(debounce)` as soon as
///                  it is known to be a bounce (at the press when it cancels a held-back
///                  release, else at its release); its release goes silently
///
///     1)   P---|  R          P passed at once ("press visible before any timeout"); after a
///                            settled hold, R passed at once too
///     2)   R---|  P          R passed, P after the window passed at once
///     3)   P-R---|  P        P passed, R (inside W) held back until W after it, P passed
///          P-R--P            gap R→P 1 ms under W: P swallowed (one long press); exactly W or
///                            more: R comes out when W runs out, then P is a new press
///     4)   R-----P---|  R    R passed (after a hold); P after S but inside W: held back, passed
///                            when W runs out (if it is still down)
///     5)   P-R-P---|  R      P-R-P chatter: R and the second P swallowed, one press; R passed
///     6)   R-----P-R---|  P  R-P-R chatter after a release: P swallowed, one release; P passed
///     7)   P-R-P-R-P---| R   slow chatter, every gap < W (the window restarts on every edge):
///                            one press even though the whole burst is longer than W (and the
///                            same for release chatter)
///     8)   R-P--S|  (held)   while held, R and a P within S that stays down S: the release was
///                            passed, the P is held back until S after it, and spurious mode
///                            turns on (once, for good)
///     9)   R--S|             spurious mode on: every release after a hold is held back S
///    10)   R-P  (S)          spurious mode on: a P within S of the R swallows both
///    11)   W = 0             disabled: every edge passed at once
///    12)   X                 device gone in any state: timers cancelled, back to rest, nothing sent
///
/// States (libinput's names): up and down are the neutral states with no timer running.
package struct DebounceFilter: Sendable {
    package enum Timer: Hashable, Sendable {
        /// The bounce window W.
        case bounce
        /// The spurious-release window S.
        case spurious
    }

    package enum State: Sendable, Equatable {
        /// W = 0: every edge passes.
        case disabled
        /// Released and settled (IS_UP).
        case up
        /// Pressed and settled (IS_DOWN).
        case down
        /// The press was passed; W runs (IS_DOWN_WAITING).
        case downWaiting
        /// A release inside W is held back (IS_UP_DELAYING).
        case upDelaying(release: Instant)
        /// The release was passed; S and W run to catch a spurious release (IS_UP_DETECTING_SPURIOUS).
        case upDetectingSpurious
        /// A press inside S is held back to see whether it stays down (IS_DOWN_DETECTING_SPURIOUS).
        case downDetectingSpurious(press: Instant)
        /// The release was passed, S is over, W runs (IS_UP_WAITING).
        case upWaiting
        /// A press inside W after a release is held back (IS_DOWN_DELAYING).
        case downDelaying(press: Instant)
        /// Spurious mode: a release after a hold is held back for S (IS_UP_DELAYING_SPURIOUS).
        case upDelayingSpurious(release: Instant)
    }

    package enum Event: Sendable, Equatable {
        case press, release, timeout(Timer), deviceGone
    }

    package enum Output: Sendable, Equatable {
        /// A press leaves the debouncer now; `at` is when it physically happened.
        case press(at: Instant)
        /// A release leaves the debouncer now; `at` is when it physically happened.
        case release(at: Instant)
        /// A press turned out to be contact bounce: the line `rejected(debounce)`.
        case swallowedPress
        case setTimer(Timer, at: Instant)
        case cancelTimer(Timer)
    }

    /// libinput's DEBOUNCE_TIMEOUT_SPURIOUS.
    package static let spuriousWindowDefault = Interval.milliseconds(12)

    package let window: Interval
    package let spuriousWindow: Interval
    package private(set) var state: State
    /// Turned on the first time a spurious release is seen; stays on (libinput: per device).
    package private(set) var spuriousMode = false

    package init(window: Interval) {
        let w = max(window, .zero)
        self.window = w
        self.spuriousWindow = min(Self.spuriousWindowDefault, w)
        self.state = w.isZero ? .disabled : .up
    }

    package mutating func handle(_ event: Event, at now: Instant) -> [Output] {
        switch state {
        case .disabled: return disabled(event, now)
        case .up: return up(event, now)
        case .down: return down(event, now)
        case .downWaiting: return downWaiting(event, now)
        case .upDelaying(let release): return upDelaying(event, now, release: release)
        case .upDetectingSpurious: return upDetectingSpurious(event, now)
        case .downDetectingSpurious(let press): return downDetectingSpurious(event, now, press: press)
        case .upWaiting: return upWaiting(event, now)
        case .downDelaying(let press): return downDelaying(event, now, press: press)
        case .upDelayingSpurious(let release): return upDelayingSpurious(event, now, release: release)
        }
    }

    // MARK: - One handler per state. Pairs that cannot happen (a press while pressed, a timer that
    // is not running) change nothing: the stage before guarantees alternating edges and we cancel
    // every timer we leave behind, so they only arrive from a confused caller.

    private mutating func disabled(_ event: Event, _ now: Instant) -> [Output] {
        switch event {
        case .press: return [.press(at: now)]
        case .release: return [.release(at: now)]
        case .timeout: return []
        case .deviceGone: return []
        }
    }

    private mutating func up(_ event: Event, _ now: Instant) -> [Output] {
        switch event {
        case .press:
            state = .downWaiting
            return [.press(at: now), .setTimer(.bounce, at: now + window)]
        case .release, .timeout, .deviceGone:
            return []
        }
    }

    private mutating func down(_ event: Event, _ now: Instant) -> [Output] {
        switch event {
        case .release:
            if spuriousMode {
                state = .upDelayingSpurious(release: now)
                return [.setTimer(.spurious, at: now + spuriousWindow), .setTimer(.bounce, at: now + window)]
            }
            state = .upDetectingSpurious
            return [.release(at: now), .setTimer(.spurious, at: now + spuriousWindow), .setTimer(.bounce, at: now + window)]
        case .press, .timeout:
            return []
        case .deviceGone:
            state = .up
            return []
        }
    }

    private mutating func downWaiting(_ event: Event, _ now: Instant) -> [Output] {
        switch event {
        case .release:
            state = .upDelaying(release: now)
            return [.setTimer(.bounce, at: now + window)]
        case .timeout(.bounce):
            state = .down
            return []
        case .press, .timeout(.spurious):
            return []
        case .deviceGone:
            state = .up
            return [.cancelTimer(.bounce)]
        }
    }

    private mutating func upDelaying(_ event: Event, _ now: Instant, release: Instant) -> [Output] {
        switch event {
        case .press:
            // R+P inside W: the release never happened as far as anyone downstream knows.
            state = .downWaiting
            return [.swallowedPress, .setTimer(.bounce, at: now + window)]
        case .timeout(.bounce):
            state = .up
            return [.release(at: release)]
        case .release, .timeout(.spurious):
            return []
        case .deviceGone:
            state = .up
            return [.cancelTimer(.bounce)]
        }
    }

    private mutating func upDetectingSpurious(_ event: Event, _ now: Instant) -> [Output] {
        switch event {
        case .press:
            state = .downDetectingSpurious(press: now)
            return [.setTimer(.spurious, at: now + spuriousWindow), .setTimer(.bounce, at: now + window)]
        case .timeout(.spurious):
            state = .upWaiting
            return []
        case .timeout(.bounce):
            // Only when W ≤ S: both ran out together.
            state = .up
            return [.cancelTimer(.spurious)]
        case .release:
            return []
        case .deviceGone:
            state = .up
            return [.cancelTimer(.spurious), .cancelTimer(.bounce)]
        }
    }

    private mutating func downDetectingSpurious(_ event: Event, _ now: Instant, press: Instant) -> [Output] {
        switch event {
        case .release:
            state = .upDetectingSpurious
            return [.swallowedPress, .setTimer(.spurious, at: now + spuriousWindow), .setTimer(.bounce, at: now + window)]
        case .timeout(.spurious):
            // R then P within S, and the P stayed down: the contact let go while held.
            spuriousMode = true
            state = .down
            return [.cancelTimer(.bounce), .press(at: press)]
        case .timeout(.bounce):
            // Only when W ≤ S.
            state = .down
            return [.cancelTimer(.spurious), .press(at: press)]
        case .press:
            return []
        case .deviceGone:
            state = .up
            return [.cancelTimer(.spurious), .cancelTimer(.bounce)]
        }
    }

    private mutating func upWaiting(_ event: Event, _ now: Instant) -> [Output] {
        switch event {
        case .press:
            state = .downDelaying(press: now)
            return [.setTimer(.bounce, at: now + window)]
        case .timeout(.bounce):
            state = .up
            return []
        case .release, .timeout(.spurious):
            return []
        case .deviceGone:
            state = .up
            return [.cancelTimer(.bounce)]
        }
    }

    private mutating func downDelaying(_ event: Event, _ now: Instant, press: Instant) -> [Output] {
        switch event {
        case .release:
            state = .upWaiting
            return [.swallowedPress, .setTimer(.bounce, at: now + window)]
        case .timeout(.bounce):
            state = .down
            return [.press(at: press)]
        case .press, .timeout(.spurious):
            return []
        case .deviceGone:
            state = .up
            return [.cancelTimer(.bounce)]
        }
    }

    private mutating func upDelayingSpurious(_ event: Event, _ now: Instant, release: Instant) -> [Output] {
        switch event {
        case .press:
            state = .down
            return [.swallowedPress, .cancelTimer(.spurious), .cancelTimer(.bounce)]
        case .timeout(.spurious):
            state = .upWaiting
            return [.release(at: release)]
        case .timeout(.bounce):
            // Only when W ≤ S.
            state = .up
            return [.cancelTimer(.spurious), .release(at: release)]
        case .release:
            return []
        case .deviceGone:
            state = .up
            return [.cancelTimer(.spurious), .cancelTimer(.bounce)]
        }
    }
}
