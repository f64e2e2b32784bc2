/// Stage 1 of a switch pipeline: turns raw EV_KEY values into clean press/release edges.
///
/// The kernel repeats a held key (value 2, after 250 ms, every 33 ms) on every device with
/// EV_REP, which includes most adapted switches that present themselves as USB keyboards.
/// Value 2 means "still down", never a new press; each one is reported as `rejected(autorepeat)`
/// so a clinician can see the storm. A recording that starts while the switch is held shows
/// value 2 (or a release) with no press before it: that hold is ignored to its end.
///
///     P ... value 1 (press)   R ... value 0 (release)   r ... value 2 (autorepeat)
///     X ... device gone       'passed' = sent on as an edge
///
///     1) P r r r R      P passed, every r rejected(autorepeat), R passed
///     2) r r R          (recording started mid-hold) every r rejected(autorepeat), R ignored
///     3) R              a release with no known press: ignored
///     4) P P R          a second P while down (its release was lost): ignored, R passed
///     5) r P R          a P after an unseen hold: passed as a new press (nothing downstream
///                       is pressed), R passed
///     6) P r X          device gone: back to rest, nothing sent
///
/// Values other than 0, 1 and 2 are read the way the kernel reads them (`!!value`): a press.
package struct AutorepeatFilter: Sendable {
    package enum State: Sendable, Equatable {
        /// Not pressed.
        case up
        /// Pressed, and the press was sent on.
        case down
        /// Held since before we started listening (value 2 or 0 without a press): nothing was sent.
        case heldUnseen
    }

    package enum Event: Sendable, Equatable {
        case press, release, autorepeat, deviceGone

        /// EV_KEY value → event, as the kernel's input core reads it.
        package init(value: Int32) {
            switch value {
            case 0: self = .release
            case 2: self = .autorepeat
            default: self = .press
            }
        }
    }

    package enum Output: Sendable, Equatable {
        case press
        case release
        /// A value-2 event: the line `rejected(autorepeat)`.
        case rejectedAutorepeat
    }

    package private(set) var state: State = .up

    package init() {}

    // The only outputs there are, built once: an autorepeat storm must not allocate per event.
    private static let pressed: [Output] = [.press]
    private static let released: [Output] = [.release]
    private static let rejected: [Output] = [.rejectedAutorepeat]

    package mutating func handle(_ event: Event, at now: Instant) -> [Output] {
        switch state {
        case .up:
            switch event {
            case .press:
                state = .down
                return Self.pressed
            case .release:
                return []
            case .autorepeat:
                state = .heldUnseen
                return Self.rejected
            case .deviceGone:
                return []
            }
        case .down:
            switch event {
            case .press:
                return []
            case .release:
                state = .up
                return Self.released
            case .autorepeat:
                return Self.rejected
            case .deviceGone:
                state = .up
                return []
            }
        case .heldUnseen:
            switch event {
            case .press:
                state = .down
                return Self.pressed
            case .release:
                state = .up
                return []
            case .autorepeat:
                return Self.rejected
            case .deviceGone:
                state = .up
                return []
            }
        }
    }
}
