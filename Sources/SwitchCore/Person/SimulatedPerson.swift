/// The simulated person's hand on the switch: a pure state machine over the virtual clock. The
/// driver (`PersonSession`) tells it when to aim (a wanted stop was highlighted at `from`); it
/// says when its next switch edge is due and gives the edges, one at a time. All randomness is
/// its `SeededRandom`, drawn in the order of the calls, so a run is deterministic.
///
/// States: the switch is open or closed (by a meant press, an accidental one or a bounce); at
/// most one meant press is planned; a bounce may be pending after a release; the next accidental
/// press is always scheduled (a Poisson process: exponential gaps).
///
///                 event due              open                                closed
///   meant press   (planned at from + RT) close: meant, release after D       postponed to the release + `refractory`
///   false press   (Poisson)              close: false, release after D'      dropped (the switch is down already)
///   bounce        (release + gap)        close: bounce, release after d      dropped (pressed again meanwhile)
///   release       (press + duration)     —                                   open; with P(bounce) a bounce at + gap
///
/// D is the person's press duration, plus the profile's hold duration when it has one (the
/// person holds until the press counts, then lets go as they always do); D' the accidental
/// press's (`falsePressDuration`, else D without the hold); d the bounce's own closure.
///
/// Timelines (tests in Tests/SwitchCoreTests/Person/SimulatedPersonTests.swift):
///
///   person_meant_press            aim(from t0) … t0+RT ▼meant … +D ▲
///   person_bounce_after_release   ▼meant … ▲ … +gap ▼bounce +d ▲
///   person_press_while_down       ▼false … (meant due) … ▲ … +refractory ▼meant
///   person_false_press_while_down ▼meant … (false due: dropped) … ▲
///   person_false_presses_poisson  n accidental presses in t seconds ≈ rate·t
///   person_miss                   aim → missed (nothing planned) with missProbability
public struct SimulatedPerson: Sendable {
    public enum Kind: String, Sendable, Equatable {
        /// A press the person meant.
        case meant
        /// A second closure after a release (contact bounce, tremor).
        case bounce
        /// An accidental press at a random moment.
        case falsePress
    }

    /// One switch edge.
    public struct Edge: Sendable, Equatable {
        public var time: Instant
        /// Which of the driver's switches (0 for one switch; the colour for group selection).
        public var switchIndex: Int
        public var down: Bool
        public var kind: Kind

        public init(time: Instant, switchIndex: Int, down: Bool, kind: Kind) {
            self.time = time
            self.switchIndex = switchIndex
            self.down = down
            self.kind = kind
        }
    }

    /// How soon a person can close the switch again after letting it go.
    public static let refractory = Interval.milliseconds(100)

    public let model: PersonModel
    public private(set) var random: SeededRandom
    /// Added to every meant press (the profile's hold duration).
    public var hold: Interval = .zero
    /// How many switches accidental presses spread over (uniformly).
    public var switches = 1

    private var closed: (kind: Kind, switchIndex: Int, until: Instant)?
    private var planned: (at: Instant, switchIndex: Int)?
    private var bounceAt: (at: Instant, switchIndex: Int)?
    private var nextFalse: Instant?

    public init(model: PersonModel, start: Instant = .zero) {
        self.model = model
        random = SeededRandom(seed: model.seed)
        scheduleFalse(after: start)
    }

    /// A meant press is planned or the switch is held by one.
    public var isBusy: Bool { planned != nil || closed?.kind == .meant }
    public var plannedPress: Instant? { planned?.at }
    public var isDown: Bool { closed != nil }

    /// A reaction time drawn from the model (seconds).
    public mutating func reactionTime() -> Interval { .seconds(model.reactionTime.draw(&random)) }

    /// Whether the person lets this showing of the wanted stop pass.
    public mutating func misses() -> Bool { random.chance(model.missProbability) }

    /// Plans the meant press at `at` (not before `now`) on `switchIndex`.
    public mutating func plan(at: Instant, now: Instant, switchIndex: Int) {
        planned = (max(at, now), switchIndex)
    }

    /// Forgets a planned press (the task is over).
    public mutating func cancelPlan() { planned = nil }

    /// When the next edge is due.
    public var nextEvent: Instant? {
        var t = closed?.until
        for candidate in [planned?.at, bounceAt?.at, nextFalse] {
            if let c = candidate { t = min(t ?? c, c) }
        }
        return t
    }

    /// The edge due at `now` (nil when what was due changed nothing: a press dropped or
    /// postponed). Call while `nextEvent == now`.
    public mutating func step(at now: Instant) -> Edge? {
        if let c = closed, c.until <= now {
            closed = nil
            if c.kind != .bounce, random.chance(model.bounce.probability) {
                bounceAt = (now + .seconds(model.bounce.gap), c.switchIndex)
            }
            return Edge(time: now, switchIndex: c.switchIndex, down: false, kind: c.kind)
        }
        if let p = planned, p.at <= now {
            if let c = closed {
                planned = (c.until + SimulatedPerson.refractory, p.switchIndex)
                return nil
            }
            planned = nil
            bounceAt = nil
            let d = Interval.seconds(model.pressDuration.draw(&random)) + hold
            closed = (.meant, p.switchIndex, now + max(d, .milliseconds(1)))
            return Edge(time: now, switchIndex: p.switchIndex, down: true, kind: .meant)
        }
        if let b = bounceAt, b.at <= now {
            bounceAt = nil
            guard closed == nil else { return nil }
            closed = (.bounce, b.switchIndex, now + .seconds(model.bounce.duration))
            return Edge(time: now, switchIndex: b.switchIndex, down: true, kind: .bounce)
        }
        if let f = nextFalse, f <= now {
            scheduleFalse(after: now)
            let which = switches > 1 ? Int(random.next() % UInt64(switches)) : 0
            let d = (model.falsePressDuration ?? model.pressDuration).draw(&random)
            guard closed == nil else { return nil }
            bounceAt = nil
            closed = (.falsePress, which, now + max(.seconds(d), .milliseconds(1)))
            return Edge(time: now, switchIndex: which, down: true, kind: .falsePress)
        }
        return nil
    }

    private mutating func scheduleFalse(after t: Instant) {
        guard model.falsePressesPerMinute > 0 else { nextFalse = nil; return }
        let gap = random.exponential(mean: 60 / model.falsePressesPerMinute)
        nextFalse = t + max(.seconds(gap), Interval(microseconds: 1))
    }
}
