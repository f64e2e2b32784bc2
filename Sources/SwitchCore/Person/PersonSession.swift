/// The simulated person driving the real engine on the virtual clock, closed loop (issue 31): the
/// engine's highlight tells the person what is highlighted, the person's hand
/// (`SimulatedPerson`) gives switch edges at times, and the edges go through the very filters
/// a recording goes through (`Engine.handle`), so debounce and hold duration act on bounces
/// and accidental presses. What the person goes for comes from a `PersonTask` (type a phrase,
/// reach targets, answer the setup's prompts).
///
/// One step: the person decides about the highlight shown now (`decide`), then the earlier of
/// the engine's next timer and the person's next edge happens (timers due at or before an edge
/// fire first, as for a recording), then the keyboard's predictions are answered at that instant.
///
///   highlight of a wanted stop at t0 ─ miss? ─ yes: nothing, the next showing is waited for
///                                       └ no: press planned at t0 + RT ─▶ edge ▼ (late when
///                                             the highlight moved on meanwhile) ─▶ filters
///
/// Counts (`PersonCounts`): `selections` the meant presses made, `late` those that came at or
/// after the end of the dwell of the stop they were meant for (the highlight had moved on; the
/// press lands on whatever is highlighted then), `missed` the showings let pass,
/// `extraPresses` bounces and accidental presses the filters let through, `corrections` the
/// meant presses made to put a mistake right (an escape stop, a menu's Close, a delete key).
public struct PersonDriver<World: PersonWorld> {
    /// What the person acts on: the engine, or the guided setup (`SetupSession`).
    public private(set) var world: World
    public private(set) var person: SimulatedPerson
    public private(set) var counts = PersonCounts()
    /// Accepted presses (filter lines that let a press through), meant or not.
    public private(set) var acceptedPresses = 0
    /// Answers the keyboard's prediction requests at the instant they are made.
    public var predict: ((PredictionRequest) -> [String])?

    /// The key code of each of the person's switches, by index; the actions they are bound to.
    private let codes: [UInt16]
    private let indexByAction: [SwitchAction: Int]
    private let indexByName: [String: Int]
    /// Each switch's presses not yet decided by the filters, oldest first.
    private var undecided: [[SimulatedPerson.Kind]]
    /// Bumped by every highlight (and colours, and a stop): what the person reacts to.
    private var serial = 0
    private var highlightStart = Instant.zero
    /// The highlight decided about, and whether that decision was a press (a wait is looked at
    /// again when the screen changes under the same highlight: new predictions).
    private var decided: (serial: Int, pressed: Bool)?
    /// The planned press: when the dwell of the stop it was meant for ends (nil: nothing moves on
    /// by itself, colours or a stopped scan), and whether it puts a mistake right.
    private var meant: (dwellEnd: Instant?, correction: Bool)?
    /// Scanning is stopped, or shows colours: nothing moves on by itself.
    private var untimed = false

    public init(_ world: World, person: PersonModel, start: Instant = .zero) {
        self.world = world
        var hand = SimulatedPerson(model: person, start: start)
        let profile = world.profile
        hand.hold = profile.switchStabilization.holdDuration
        hand.switches = max(profile.switches.count, 1)
        self.person = hand
        codes = profile.switches.map(\.code)
        var byAction: [SwitchAction: Int] = [:]
        var byName: [String: Int] = [:]
        for (k, s) in profile.switches.enumerated() {
            if byAction[s.action] == nil { byAction[s.action] = k }
            byName[s.keyName] = k
        }
        indexByAction = byAction
        indexByName = byName
        undecided = Array(repeating: [], count: max(profile.switches.count, 1))
    }

    public var now: Instant { world.now }

    public enum Outcome: Equatable, Sendable {
        /// The task said it is done, at this instant.
        case done(Instant)
        /// `deadline` passed first.
        case gaveUp
        /// Nothing could happen any more (no timer, no press to come).
        case stuck(String)
    }

    /// Runs `body` on the world (an input the caller gives it); its lines go through `take`.
    public mutating func withWorld(_ body: (inout World) -> [TranscriptLine]) -> [TranscriptLine] { body(&world) }

    /// Feeds engine lines through the session (the caller's own inputs: a keyboard opened, a
    /// field's text), so the person sees them.
    public mutating func take<T: PersonTask>(_ lines: [TranscriptLine], _ task: inout T, emit: (TranscriptLine) -> Void) where T.World == World {
        for line in lines {
            observe(line)
            task.observe(line)
            emit(line)
        }
    }

    /// Lets the engine and the person run until the task is done or `deadline` passes.
    public mutating func run<T: PersonTask>(_ task: inout T, until deadline: Instant, emit: (TranscriptLine) -> Void) -> Outcome where T.World == World {
        while true {
            take(task.adjust(&world), &task, emit: emit)
            guard let goal = task.goal(world) else {
                person.cancelPlan()
                meant = nil
                return .done(world.now)
            }
            decide(goal)
            let timer = world.nextDeadline()
            let edge = person.nextEvent
            guard let t = [timer, edge].compactMap({ $0 }).min() else {
                return .stuck("nothing is scanned and nothing is pressed while the person wants \(goal.id)")
            }
            if t > deadline { return .gaveUp }
            if let edge, edge <= t {
                take(world.advance(to: edge), &task, emit: emit)
                if let e = person.step(at: edge) { deliver(e, &task, emit) }
            } else {
                take(world.advance(to: t), &task, emit: emit)
            }
            answerPredictions(&task, emit)
        }
    }

    private mutating func answerPredictions<T: PersonTask>(_ task: inout T, _ emit: (TranscriptLine) -> Void) where T.World == World {
        guard let predict else { return }
        take(world.answerPredictions(predict), &task, emit: emit)
    }

    /// What the person does about the highlight now, for `goal`.
    private mutating func decide(_ goal: PersonGoal) {
        guard person.plannedPress == nil else { return }
        if let d = decided, d.serial == serial, d.pressed { return }
        decided = (serial, false)
        guard case .press(let action, let correction) = world.aim(at: goal.id), let index = indexByAction[action] else { return }
        decided = (serial, true)
        var from = highlightStart
        if person.misses() {
            counts.missed += 1
            // Timed scanning: the stop comes round again. Colours or a stopped scan wait for the
            // person: a miss there is a second look (another reaction time).
            guard untimed else { return }
            from = from + person.reactionTime()
        }
        person.hold = world.profile.switchStabilization.holdDuration
        person.plan(at: from + person.reactionTime(), now: world.now, switchIndex: index)
        meant = (world.scanDeadline, correction || goal.correction)
    }

    private mutating func deliver<T: PersonTask>(_ e: SimulatedPerson.Edge, _ task: inout T, _ emit: (TranscriptLine) -> Void) where T.World == World {
        guard codes.indices.contains(e.switchIndex) else { return }
        if e.down {
            undecided[e.switchIndex].append(e.kind)
            if e.kind == .meant {
                counts.selections += 1
                if let m = meant {
                    if let end = m.dwellEnd, e.time >= end { counts.late += 1 }
                    if m.correction { counts.corrections += 1 }
                }
                meant = nil
            }
        }
        let syn = InputEvent(type: EventCodes.EV_SYN, code: EventCodes.SYN_REPORT, value: 0)
        let frame = InputFrame(time: e.time, events: [InputEvent(type: EventCodes.EV_KEY, code: codes[e.switchIndex], value: e.down ? 1 : 0), syn])
        take(world.handle(frame: frame, device: 0), &task, emit: emit)
    }

    private mutating func observe(_ line: TranscriptLine) {
        switch line.event {
        case .highlight:
            serial += 1
            highlightStart = line.t
            untimed = false
        case .colorGroups:
            serial += 1
            highlightStart = line.t
            untimed = true
        case .scan(started: false), .scanStopped:
            serial += 1
            highlightStart = line.t
            untimed = true
        case .filter(let f):
            guard let k = indexByName[f.switchName], !undecided[k].isEmpty else { return }
            let kind = undecided[k].removeFirst()
            switch f.decision {
            case .accepted, .longPress:
                acceptedPresses += 1
                if kind != .meant { counts.extraPresses += 1 }
            case .rejected:
                break
            }
        default:
            break
        }
    }
}

/// What the person goes for now.
public struct PersonGoal: Equatable, Sendable {
    /// An item id of the model scanned now.
    public var id: String
    /// Going for it puts a mistake right (a delete key after a wrong key).
    public var correction: Bool

    public init(_ id: String, correction: Bool = false) {
        self.id = id
        self.correction = correction
    }
}

/// A person's task: what they go for, given what the world (the engine) shows.
public protocol PersonTask {
    associatedtype World: PersonWorld = Engine
    /// The item the person goes for now; nil when the task is done.
    mutating func goal(_ world: World) -> PersonGoal?
    /// Every transcript line, as it comes.
    mutating func observe(_ line: TranscriptLine)
    /// Before each step: inputs the task's world gives the engine (a field that keeps its text
    /// when the keyboard opens on it again), with their lines.
    mutating func adjust(_ world: inout World) -> [TranscriptLine]
}

extension PersonTask {
    public mutating func observe(_ line: TranscriptLine) {}
    public mutating func adjust(_ world: inout World) -> [TranscriptLine] { [] }
}

/// What a simulated person acts on: the engine (`Engine`), or the guided setup that runs one
/// (`SetupSession`). The same calls the simulator makes: frames in, timers advanced, lines out.
public protocol PersonWorld {
    var now: Instant { get }
    /// The profile in force: the person's switches, the hold they keep a press for.
    var profile: Profile { get }
    mutating func nextDeadline() -> Instant?
    mutating func advance(to t: Instant) -> [TranscriptLine]
    mutating func handle(frame: InputFrame, device: Int) -> [TranscriptLine]
    /// What the person does about what is shown now, wanting `goal` (`PersonAim`).
    func aim(at goal: String) -> PersonAim
    /// When the highlighted stop's dwell ends (nil: nothing moves on by itself).
    var scanDeadline: Instant? { get }
    /// Answers what the world asks of a predictor now (the keyboard's words).
    mutating func answerPredictions(_ predict: (PredictionRequest) -> [String]) -> [TranscriptLine]
}

extension Engine: PersonWorld {
    public mutating func answerPredictions(_ predict: (PredictionRequest) -> [String]) -> [TranscriptLine] {
        var lines: [TranscriptLine] = []
        var asked = 0
        while let request = wantedPredictions, asked < 4 {
            asked += 1
            lines += setPredictions(predict(request), context: request.context, at: now)
        }
        return lines
    }
}

/// The simulated person on the engine.
public typealias PersonSession = PersonDriver<Engine>

extension PersonDriver where World == Engine {
    public init(engine: Engine, person: PersonModel, start: Instant = .zero) { self.init(engine, person: person, start: start) }
    public var engine: Engine { world }
    /// Runs `body` on the engine (an input the caller gives it); its lines go through `take`.
    public mutating func withEngine(_ body: (inout Engine) -> [TranscriptLine]) -> [TranscriptLine] { withWorld(body) }
}

/// The person's counts over a run (`PersonSession`).
public struct PersonCounts: Sendable, Equatable {
    public var selections = 0
    public var late = 0
    public var missed = 0
    public var extraPresses = 0
    public var corrections = 0

    public init() {}

    public static func + (a: PersonCounts, b: PersonCounts) -> PersonCounts {
        var c = a
        c.selections += b.selections
        c.late += b.late
        c.missed += b.missed
        c.extraPresses += b.extraPresses
        c.corrections += b.corrections
        return c
    }

    /// Late ÷ selections.
    public var lateFraction: Double { selections > 0 ? Double(late) / Double(selections) : 0 }
}
