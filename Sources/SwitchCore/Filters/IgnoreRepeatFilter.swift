/// Stage 4 of a switch pipeline: Ignore Repeat. Checked when a press is accepted (after Hold
/// Duration, so a brush that Hold Duration rejected never opens a window): a press whose physical
/// time is within T of the anchor is rejected, and its release is dropped too. A press exactly T
/// after the anchor counts (Android Switch Access: "a hit exactly 1 s after the first counts").
///
/// Two anchors, both found in trusted code (REFERENCE §3):
/// - `acceptedPress` (default; Android Switch Access): the physical time of the last *accepted*
///   press. Rejected presses do not move it, so a tremor can't lock the switch out forever.
/// - `release` (X / GNOME BounceKeys): the last physical release of this switch as it leaves the
///   debouncer, whether its press was accepted or not; every release restarts the window, so
///   continuous chatter stays rejected.
///
///     P ... accepted press (physical time)   R ... release   T ... ignore-repeat window
///
///     acceptedPress anchor
///     1) P1 R  P2 R        P2 − P1 < T: P2 rejected(ignoreRepeat), its R dropped
///     2) P1 R  P2 R        P2 − P1 ≥ T (exactly T included): P2 accepted
///     3) P1 R P2 R P3 R    P2 rejected; P3 measured from P1, not from the rejected P2
///     release anchor
///     4) P1 R1  P2         P2 − R1 < T: rejected
///     5) P1 R1 P2 R2 P3    P3 − R2 < T but P3 − R1 ≥ T: rejected (every release restarts)
///     6) r  P2             a release whose press Hold Duration rejected still restarts the window
///     7) T = 0             off: every press accepted
///     8) P X               device gone: back to rest (the anchor is kept)
package struct IgnoreRepeatFilter: Sendable {
    package typealias Anchor = SwitchStabilization.IgnoreRepeatAnchor

    package enum State: Sendable, Equatable {
        /// Not pressed. `anchor` is where the window starts (nil: no window yet).
        case up(anchor: Instant?)
        /// The current press was accepted: its release passes.
        case accepted(anchor: Instant?)
        /// The current press was rejected: its release is dropped.
        case ignored(anchor: Instant?)
    }

    package enum Event: Sendable, Equatable {
        /// A press accepted by Hold Duration; `at` is its physical time.
        case press(at: Instant)
        /// Every release that leaves the debouncer (also of presses Hold Duration rejected);
        /// `at` is its physical time.
        case release(at: Instant)
        case deviceGone
    }

    package enum Output: Sendable, Equatable {
        case accepted(press: Instant)
        case released(at: Instant)
        /// The line `rejected(ignoreRepeat)`.
        case rejected
    }

    package let window: Interval
    package let anchorKind: Anchor
    package private(set) var state: State = .up(anchor: nil)

    package init(window: Interval, anchor: Anchor) {
        self.window = max(window, .zero)
        self.anchorKind = anchor
    }

    package mutating func handle(_ event: Event, at now: Instant) -> [Output] {
        switch state {
        case .up(let anchor):
            switch event {
            case .press(let press):
                if let anchor, !window.isZero, press - anchor < window {
                    state = .ignored(anchor: anchor)
                    return [.rejected]
                }
                state = .accepted(anchor: anchorKind == .acceptedPress ? press : anchor)
                return [.accepted(press: press)]
            case .release(let release):
                state = .up(anchor: movedByRelease(anchor, release))
                return []
            case .deviceGone:
                return []
            }
        case .accepted(let anchor):
            switch event {
            case .release(let release):
                state = .up(anchor: movedByRelease(anchor, release))
                return [.released(at: release)]
            case .press:
                return []
            case .deviceGone:
                state = .up(anchor: anchor)
                return []
            }
        case .ignored(let anchor):
            switch event {
            case .release(let release):
                state = .up(anchor: movedByRelease(anchor, release))
                return []
            case .press:
                return []
            case .deviceGone:
                state = .up(anchor: anchor)
                return []
            }
        }
    }

    private func movedByRelease(_ anchor: Instant?, _ release: Instant) -> Instant? {
        anchorKind == .release ? release : anchor
    }
}
