/// Touch passthrough (`touchAccommodations.output: "virtualTouchscreen"`): Apple's Touch
/// Accommodations as a filter in front of the desktop. What they let through is written, in real
/// time, to a virtual touchscreen that mirrors the real one (the shell's `VirtualTouchscreen`);
/// everything else produces nothing. Points (screen) go to the transcript; what is written is in
/// the device's own units (`RawTouch`), so nothing is lost to the mapping.
///
/// A **gesture** is everything from a first finger down (no other down) until the last lifts.
/// Per contact, in order (the same settings as `TouchFilter`, README "Touch"):
/// 1. Hold Duration H (0 = off): a contact counts only if it lasts H; it is accepted at
///    start + H. Lifted before: `rejected(holdDuration)`, nothing written.
/// 2. Ignore Repeat T (0 = off), for the gesture's first accepted contact only: it is
///    `rejected(ignoreRepeat)` when it started within T of the start of the last gesture that
///    passed; then every contact of that gesture is rejected too (at its acceptance). A contact
///    that joins a gesture is never checked (two-finger scroll, pinch).
/// 3. What passes:
///    - tap assistance off: the accepted contact goes down on the virtual screen where it is at
///      acceptance, then follows the finger live until it lifts;
///    - initial / final: the gesture delay D runs from acceptance. Lifted before: one tap at the
///      initial / final location, a down frame at the lift and an up frame `tapLength` later.
///      Held past D: down where the finger is when D runs out, then live until the lift;
///    - a contact accepted while the gesture already passes goes down at once and follows live;
///      one accepted while the first waits out D makes it a multi-finger gesture: both go down
///      at once (D does not apply to two fingers).
///
///     ↓ ... down   ↑ ... lift   H| ... hold duration   D| ... gesture delay   ~ ... moving
///     ▼ ▲ ... down / up written to the virtual touchscreen   → ... moves written
///
///     1) off: ↓--H|▼→→→↑▲             live from acceptance: "gesture from (at H) to (lift)"
///     2) ↓---↑  H                      rejected(holdDuration), nothing written
///     3) ↓↑ ↓↑ ↓↑ (within T)           the first passes, the others rejected(ignoreRepeat)
///     4) initial: ↓~~~↑▼ ▲(+50 ms) D|  a tap at the initial location
///     5) final:   ↓~~~↑▼ ▲(+50 ms) D|  a tap at the final location
///     6) ↓---D|▼→→→→↑▲                 replayed from where it was at D, then live: a swipe, a
///                                      drag, a long press
///     7) ↓1 ↓2 (2 joins)               2 passes when accepted, never checked for ignore repeat:
///                                      two slots on the virtual screen (scroll, pinch)
///     8) ↓1-H|..↓2-H|▼1▼2 D|           a second finger accepted during D: both down at once
///     9) ↓1-H|▼→ ↓2↑ H                 a joiner lifted before H: rejected, nothing written
///    10) ↓1 ↓2 (1 rejected by T)       the whole gesture is rejected
///    11) ↓--▼→→ X                      device gone (or paused): every virtual finger lifted in
///                                      one frame (a tap's pending up too), timers cancelled,
///                                      nothing decided
///    12) ↓ (H > 0.3 s)                 a countdown at the finger until H (iOS draws one), ended
///                                      at acceptance or at the lift
public struct TouchPassthrough: Sendable {
    public enum Event: Sendable, Equatable {
        case contact(TouchSample)
        case timer(TimerID)
        /// The touchscreen went away or was given back (safety exit): lift everything written.
        case deviceGone
    }

    public enum Output: Sendable, Equatable {
        /// One frame for the virtual touchscreen.
        case write([VirtualTouch])
        case tap(contact: Int, Point)
        /// A contact that passed live, from where it went down on the virtual screen to its lift.
        case gesture(contact: Int, from: Point, to: Point, duration: Interval)
        case rejected(contact: Int, TouchDecision.TouchRejectReason, Point)
        /// The hold duration's countdown at `point`, running out at `until`.
        case countdown(contact: Int, at: Point, until: Instant)
        case countdownEnded(contact: Int)
        case setTimer(TimerID, at: Instant)
        case cancelTimer(TimerID)
    }

    public enum TimerID: Hashable, Sendable {
        case holdDuration(contact: Int)
        case gestureDelay(contact: Int)
        /// The up of a tap written `tapLength` earlier (virtual contact).
        case tapUp(virtual: Int)
    }

    /// How long a tap is held down on the virtual screen.
    public static let tapLength = Interval.milliseconds(50)
    /// A hold duration longer than this shows a countdown at the finger (iOS: above 0.3 s).
    public static let countdownThreshold = Interval.milliseconds(300)

    package struct Track: Sendable, Equatable {
        var start: Instant
        var initial: TouchSample
        var current: TouchSample
    }

    package enum Phase: Sendable, Equatable {
        /// Waiting for Hold Duration.
        case pending
        /// Rejected (ignore repeat); the rest of the touch is ignored.
        case ignored
        /// Accepted: the gesture delay runs (the gesture's first contact, tap assistance on).
        case waiting
        /// Written to the virtual screen as virtual contact `virtual` since `since`, from `from`.
        case live(virtual: Int, from: Point, since: Instant)
    }

    package struct ContactState: Sendable, Equatable {
        var track: Track
        var phase: Phase
        var countdown = false
    }

    package enum Gesture: Sendable, Equatable {
        /// Nothing accepted yet (or its first contact became a tap): the next accepted contact
        /// is checked for ignore repeat.
        case open
        case ignored
        /// Its first contact waits out the gesture delay.
        case assisting(leader: Int)
        /// Contacts pass live.
        case live
    }

    package let settings: TouchAccommodations
    private let holdDuration: Interval
    private let ignoreRepeat: Interval
    package private(set) var contacts: [Int: ContactState] = [:]
    /// nil while no finger is down.
    package private(set) var gesture: Gesture?
    /// Start of the first passed contact of the last gesture that passed (Ignore Repeat's anchor).
    package private(set) var anchor: Instant?
    /// Taps written whose up is still to come.
    package private(set) var tapsDown: Set<Int> = []
    private var nextVirtual = 0

    public init(settings: TouchAccommodations) {
        self.settings = settings
        holdDuration = max(settings.holdDuration, .zero)
        ignoreRepeat = max(settings.ignoreRepeat, .zero)
    }

    public mutating func handle(_ event: Event, at now: Instant) -> [Output] {
        var out: [Output] = []
        handle(event, at: now, into: &out)
        return out
    }

    /// `handle(_:at:)`, appending to `out` (the engine reuses one array for every frame).
    public mutating func handle(_ event: Event, at now: Instant, into out: inout [Output]) {
        switch event {
        case .contact(let sample):
            let id = sample.contact.id
            switch sample.contact {
            case .down:
                out += forget(id, at: now)
                if gesture == nil { gesture = .open }
                contacts[id] = ContactState(track: Track(start: now, initial: sample, current: sample), phase: .pending)
                if holdDuration.isZero {
                    out += accept(id, now)
                } else {
                    out.append(.setTimer(.holdDuration(contact: id), at: now + holdDuration))
                    if holdDuration > Self.countdownThreshold {
                        contacts[id]?.countdown = true
                        out.append(.countdown(contact: id, at: sample.contact.point, until: now + holdDuration))
                    }
                }
            case .moved:
                if let v = move(sample) { out.append(.write([.move(v, sample.raw)])) }
            case .up:
                guard var c = contacts[id] else { return }
                c.track.current = sample
                contacts[id] = c
                out += lift(id, at: now)
            }
        case .timer(.holdDuration(let id)):
            guard contacts[id]?.phase == .pending else { return }
            out += accept(id, now)
        case .timer(.gestureDelay(let id)):
            guard gesture == .assisting(leader: id), contacts[id]?.phase == .waiting else { return }
            gesture = .live
            out.append(.write(goLive([id], now)))
        case .timer(.tapUp(let v)):
            guard tapsDown.remove(v) != nil else { return }
            out.append(.write([.up(v)]))
        case .deviceGone:
            var ups: [VirtualTouch] = []
            for id in contacts.keys.sorted() {
                let c = contacts.removeValue(forKey: id)!
                out += endCountdown(c, id)
                switch c.phase {
                case .pending: out.append(.cancelTimer(.holdDuration(contact: id)))
                case .waiting: out.append(.cancelTimer(.gestureDelay(contact: id)))
                case .live(let v, _, _): ups.append(.up(v))
                case .ignored: break
                }
            }
            for v in tapsDown.sorted() {
                out.append(.cancelTimer(.tapUp(virtual: v)))
                ups.append(.up(v))
            }
            tapsDown = []
            gesture = nil
            if !ups.isEmpty { out.append(.write(ups)) }
        }
    }

    /// A contact moved: its track follows; the virtual contact it moves when it passes live (the
    /// engine writes that move straight to its output: every frame of a gesture comes here).
    public mutating func move(_ sample: TouchSample) -> Int? {
        // One lookup, in place: a live contact's move is the frame a finger waits for.
        guard let k = contacts.index(forKey: sample.contact.id) else { return nil }
        contacts.values[k].track.current = sample
        if case .live(let v, _, _) = contacts.values[k].phase { return v }
        return nil
    }

    /// The virtual contact that contact `id` moves while it passes live; nil otherwise.
    package func liveVirtual(ofContact id: Int) -> Int? {
        if case .live(let v, _, _)? = contacts[id]?.phase { return v }
        return nil
    }

    /// Hold Duration passed (or is off).
    private mutating func accept(_ id: Int, _ now: Instant) -> [Output] {
        guard var c = contacts[id], let g = gesture else { return [] }
        var out = endCountdown(c, id)
        c.countdown = false
        switch g {
        case .ignored:
            c.phase = .ignored
            contacts[id] = c
            out.append(.rejected(contact: id, .ignoreRepeat, c.track.initial.contact.point))
        case .live:
            contacts[id] = c
            out.append(.write(goLive([id], now)))
        case .assisting(let leader):
            // A second finger: a multi-finger gesture, which tap assistance does not turn into a tap.
            contacts[id] = c
            gesture = .live
            out.append(.cancelTimer(.gestureDelay(contact: leader)))
            out.append(.write(goLive([leader, id], now)))
        case .open:
            if !ignoreRepeat.isZero, let anchor, c.track.start - anchor < ignoreRepeat {
                c.phase = .ignored
                contacts[id] = c
                gesture = .ignored
                out.append(.rejected(contact: id, .ignoreRepeat, c.track.initial.contact.point))
                return out
            }
            anchor = c.track.start
            contacts[id] = c
            let delay = settings.tapAssistanceGestureDelay
            if settings.tapAssistance == .off || delay.microseconds <= 0 {
                gesture = .live
                out.append(.write(goLive([id], now)))
            } else {
                contacts[id]?.phase = .waiting
                gesture = .assisting(leader: id)
                out.append(.setTimer(.gestureDelay(contact: id), at: now + delay))
            }
        }
        return out
    }

    /// Down on the virtual screen, where each finger is now.
    private mutating func goLive(_ ids: [Int], _ now: Instant) -> [VirtualTouch] {
        var frame: [VirtualTouch] = []
        for id in ids {
            guard let c = contacts[id] else { continue }
            let v = newVirtual()
            contacts[id]?.phase = .live(virtual: v, from: c.track.current.contact.point, since: now)
            frame.append(.down(v, c.track.current.raw))
        }
        return frame
    }

    /// The finger lifted (its last sample is `current`): decide.
    private mutating func lift(_ id: Int, at now: Instant) -> [Output] {
        guard let c = contacts.removeValue(forKey: id) else { return [] }
        var out = endCountdown(c, id)
        let at = c.track.current
        switch c.phase {
        case .pending:
            out += [.cancelTimer(.holdDuration(contact: id)), .rejected(contact: id, .holdDuration, c.track.initial.contact.point)]
        case .ignored:
            break
        case .waiting:
            let chosen = settings.tapAssistance == .final ? at : c.track.initial
            let v = newVirtual()
            tapsDown.insert(v)
            gesture = .open
            out += [.cancelTimer(.gestureDelay(contact: id)), .tap(contact: id, chosen.contact.point), .write([.down(v, chosen.raw)]),
                    .setTimer(.tapUp(virtual: v), at: now + Self.tapLength)]
        case .live(let v, let from, let since):
            out += [.write([.up(v)]), .gesture(contact: id, from: from, to: at.contact.point, duration: now - since)]
        }
        if contacts.isEmpty { gesture = nil }
        return out
    }

    /// Drops contact `id` (the tracker saw a new touch under the same id) without a decision;
    /// what it wrote is lifted.
    private mutating func forget(_ id: Int, at now: Instant) -> [Output] {
        guard let c = contacts.removeValue(forKey: id) else { return [] }
        var out = endCountdown(c, id)
        switch c.phase {
        case .pending: out.append(.cancelTimer(.holdDuration(contact: id)))
        case .waiting:
            out.append(.cancelTimer(.gestureDelay(contact: id)))
            gesture = .open
        case .live(let v, _, _): out.append(.write([.up(v)]))
        case .ignored: break
        }
        if contacts.isEmpty { gesture = nil }
        return out
    }

    private func endCountdown(_ c: ContactState, _ id: Int) -> [Output] {
        c.countdown ? [.countdownEnded(contact: id)] : []
    }

    private mutating func newVirtual() -> Int {
        defer { nextVirtual += 1 }
        return nextVirtual
    }
}

/// One change on the virtual touchscreen: virtual contact `id` goes down at, moves to, or lifts.
public enum VirtualTouch: Sendable, Equatable {
    case down(Int, RawTouch)
    case move(Int, RawTouch)
    case up(Int)
}
