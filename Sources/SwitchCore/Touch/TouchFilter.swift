/// Apple's Touch Accommodations over the contacts of a `TouchTracker`: Hold Duration, Ignore
/// Repeat and Tap Assistance (REFERENCE §3; research/filter-anchors §1.2–1.4). Each contact runs
/// its own little machine; contacts are independent (two fingers are two contacts), except that
/// Ignore Repeat has one anchor for the whole screen.
///
/// Per contact, in order:
/// 1. Hold Duration H (0 = off): the touch counts only if it lasts H; it is accepted at
///    start + H (a timer). Lifted before: `rejected(holdDuration)` at the lift, at its initial point.
/// 2. Ignore Repeat T (0 = off), at acceptance: a touch that *started* within T of the start of the
///    last accepted touch is `rejected(ignoreRepeat)` at its initial point (its lift then does
///    nothing). Rejected touches don't move the anchor.
/// 3. Tap Assistance, at the lift (or the gesture delay D, measured from acceptance):
///    - off: moved less than 10 points from where it started (the farthest it ever got) → a tap
///      at the **initial** point, however long it lasted; else a swipe from the initial to the final
///      point.
///    - initial / final: lifted before acceptance + D → one tap at the initial / final point, however
///      it wandered. Held past D → a gesture that starts where the finger was when D ran out: at the
///      lift, a swipe from there to the final point if it got ≥ 10 points away from there, else a
///      `hold` at that point.
///
///     ↓ ... down   ↑ ... lift   H| ... hold duration   D| ... gesture delay   ~ ... moving
///
///     1) ↓--H|----↑             accepted at H; tap at the lift
///     2) ↓---↑  H               rejected(holdDuration) at the lift, at the initial point
///     3) ↓↑ ↓↑ ↓↑ (within T)    the first taps, the others rejected(ignoreRepeat) at acceptance
///     4) off: ↓~~~↑ (< 10 pt)   tap at the initial point
///     5) off: ↓~~~~~~↑ (≥ 10)   swipe initial → final
///     6) initial: ↓~~~↑ D|      tap at the initial point (the touch wandered)
///     7) final:   ↓~~~↑ D|      tap at the final point
///     8) ↓---D|~~~~~↑           swipe from where it was at D to the final point
///     9) ↓---D|-----↑           hold at where it was at D
///    10) ↓1 ↓2 ↑1 ↑2            two fingers: two independent contacts (one Ignore Repeat anchor)
///    11) ↓--X                   device gone: every timer cancelled, nothing decided
///
/// Swipe direction: the dominant axis of (to − from), screen y growing downwards; a tie is
/// horizontal (and no movement at all reads as `right`).
public struct TouchFilter: Sendable {
    public enum Event: Sendable, Equatable {
        case contact(TouchTracker.Contact)
        case timer(TimerID)
        /// The touchscreen went away: drop every contact without deciding anything (a yanked
        /// cable must not tap).
        case deviceGone
    }

    public enum Output: Sendable, Equatable {
        case tap(contact: Int, Point)
        case swipe(contact: Int, from: Point, to: Point, direction: TouchDecision.SwipeDirection)
        /// A still touch held past the gesture delay (tap assistance on).
        case hold(contact: Int, Point)
        case rejected(contact: Int, TouchDecision.TouchRejectReason, Point)
        case setTimer(TimerID, at: Instant)
        case cancelTimer(TimerID)
    }

    public enum TimerID: Hashable, Sendable {
        case holdDuration(contact: Int)
        case gestureDelay(contact: Int)
    }

    /// How far (points) a touch may wander and still be a tap (or a hold).
    public static let movementThreshold = 10.0

    /// Where a touch has been.
    package struct Track: Sendable, Equatable {
        var start: Instant
        var initial: Point
        var current: Point
        /// The farthest it got from `initial`.
        var farthest: Double = 0

        mutating func move(to p: Point) {
            current = p
            farthest = max(farthest, distance(initial, p))
        }
    }

    package enum ContactState: Sendable, Equatable {
        /// Waiting for Hold Duration.
        case pending(Track)
        /// Rejected by Ignore Repeat; the rest of the touch is ignored.
        case ignored
        /// Accepted, tap assistance off: decided at the lift by how far it moved.
        case accepted(Track)
        /// Accepted, tap assistance on: the gesture delay runs.
        case assisting(Track)
        /// Held past the gesture delay: a gesture from `origin`; `farthest` from `origin`.
        case gesture(origin: Point, farthest: Double)
    }

    package let settings: TouchAccommodations
    private let holdDuration: Interval
    private let ignoreRepeat: Interval
    package private(set) var contacts: [Int: ContactState] = [:]
    /// Start of the last accepted touch (the Ignore Repeat anchor, one for the screen).
    package private(set) var anchor: Instant?

    public init(settings: TouchAccommodations) {
        self.settings = settings
        holdDuration = max(settings.holdDuration, .zero)
        ignoreRepeat = max(settings.ignoreRepeat, .zero)
    }

    public mutating func handle(_ event: Event, at now: Instant) -> [Output] {
        switch event {
        case .contact(.down(let id, let p)):
            var out = forget(id)
            let track = Track(start: now, initial: p, current: p)
            if holdDuration.isZero {
                out += accept(id, track, now)
            } else {
                contacts[id] = .pending(track)
                out.append(.setTimer(.holdDuration(contact: id), at: now + holdDuration))
            }
            return out
        case .contact(.moved(let id, let p)):
            move(id, to: p)
            return []
        case .contact(.up(let id, let p)):
            move(id, to: p)
            return lift(id, at: p)
        case .timer(.holdDuration(let id)):
            guard case .pending(let track)? = contacts[id] else { return [] }
            return accept(id, track, now)
        case .timer(.gestureDelay(let id)):
            guard case .assisting(let track)? = contacts[id] else { return [] }
            contacts[id] = .gesture(origin: track.current, farthest: 0)
            return []
        case .deviceGone:
            var out: [Output] = []
            for id in contacts.keys.sorted() { out += forget(id) }
            return out
        }
    }

    /// Hold Duration passed (or is off): Ignore Repeat, then start Tap Assistance.
    private mutating func accept(_ id: Int, _ track: Track, _ now: Instant) -> [Output] {
        if !ignoreRepeat.isZero, let anchor, track.start - anchor < ignoreRepeat {
            contacts[id] = .ignored
            return [.rejected(contact: id, .ignoreRepeat, track.initial)]
        }
        anchor = track.start
        switch settings.tapAssistance {
        case .off:
            contacts[id] = .accepted(track)
            return []
        case .initial, .final:
            let delay = settings.tapAssistanceGestureDelay
            guard delay.microseconds > 0 else {
                contacts[id] = .gesture(origin: track.current, farthest: 0)
                return []
            }
            contacts[id] = .assisting(track)
            return [.setTimer(.gestureDelay(contact: id), at: now + delay)]
        }
    }

    private mutating func move(_ id: Int, to p: Point) {
        switch contacts[id] {
        case .pending(var t)?:
            t.move(to: p)
            contacts[id] = .pending(t)
        case .accepted(var t)?:
            t.move(to: p)
            contacts[id] = .accepted(t)
        case .assisting(var t)?:
            t.move(to: p)
            contacts[id] = .assisting(t)
        case .gesture(let origin, let farthest)?:
            contacts[id] = .gesture(origin: origin, farthest: max(farthest, distance(origin, p)))
        case .ignored?, nil:
            break
        }
    }

    /// The finger lifted at `p`: decide.
    private mutating func lift(_ id: Int, at p: Point) -> [Output] {
        guard let state = contacts.removeValue(forKey: id) else { return [] }
        switch state {
        case .pending(let t):
            return [.cancelTimer(.holdDuration(contact: id)), .rejected(contact: id, .holdDuration, t.initial)]
        case .ignored:
            return []
        case .accepted(let t):
            if t.farthest < Self.movementThreshold { return [.tap(contact: id, t.initial)] }
            return [.swipe(contact: id, from: t.initial, to: p, direction: Self.direction(from: t.initial, to: p))]
        case .assisting(let t):
            let at = settings.tapAssistance == .final ? p : t.initial
            return [.cancelTimer(.gestureDelay(contact: id)), .tap(contact: id, at)]
        case .gesture(let origin, let farthest):
            if farthest < Self.movementThreshold { return [.hold(contact: id, origin)] }
            return [.swipe(contact: id, from: origin, to: p, direction: Self.direction(from: origin, to: p))]
        }
    }

    /// Drops contact `id` without a decision, cancelling its timer.
    private mutating func forget(_ id: Int) -> [Output] {
        guard let state = contacts.removeValue(forKey: id) else { return [] }
        switch state {
        case .pending: return [.cancelTimer(.holdDuration(contact: id))]
        case .assisting: return [.cancelTimer(.gestureDelay(contact: id))]
        case .ignored, .accepted, .gesture: return []
        }
    }

    /// The dominant axis of (to − from); y grows downwards; a tie is horizontal.
    public static func direction(from a: Point, to b: Point) -> TouchDecision.SwipeDirection {
        let dx = b.x - a.x, dy = b.y - a.y
        if abs(dy) > abs(dx) { return dy > 0 ? .down : .up }
        return dx < 0 ? .left : .right
    }
}

private func distance(_ a: Point, _ b: Point) -> Double {
    let dx = a.x - b.x, dy = a.y - b.y
    return (dx * dx + dy * dy).squareRoot()
}
