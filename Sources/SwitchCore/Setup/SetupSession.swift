/// `switchscan setup`, the guided setup (issue 31, docs/clinicians.md "Guided setup"): a pure
/// state machine the live loop drives with the switch's raw frames and its timers, and that the
/// simulator drives with a simulated person (`setup --person`). It never reads a clock.
///
/// Phases and what moves them on:
///
///   switch test      `presses` prompts, each lit after a random wait (`foreperiod`, from the
///                    setup's own seeded dice) until the switch closes or `responseWindow` passes;
///                    every raw edge is measured (`SetupMeasurement`)
///   confirmation     a 4-item auto scan with the recommended profile (`SetupRecommendation`) on
///                    the real engine; the person selects item 3 `trials` times; a round with more
///                    than 25 % errors (wrong selections and passes with no press, of all attempts)
///                    is scanned again one step slower (`AdaptiveTiming.step`), at most `rounds`
///   finished         the result (`SetupResult`): what was measured, the profile, the seconds
///   failed           no press at all for `idleLimit` (no switch, a switch never pressed), or too
///                    few prompts answered to measure a reaction time: nothing is recommended
///
///                    prompt off                        prompt lit                     confirmation
///   press            unprompted (or a bounce)          answer (or anticipation) → off  to the engine
///   release          press duration                    —                               to the engine
///   timer            prompt on / test over             unanswered → off                the engine's
///
/// Lines for the person and the presenters: a prompt is the highlight of `setup:prompt` (the one
/// item of `promptTree`), its end `scan stopped`; the confirmation is the engine's own lines over
/// `confirmationTree`. `notes` tell the shell what happened, in order (a prompt answered in
/// 0.81 s, a round's errors).
///
/// Timelines (tests in Tests/SwitchCoreTests/Setup/SetupSessionTests.swift):
///
///   setup_prompt_answered      … wait … |prompt ^press (RT) ~release  → off, next wait
///   setup_prompt_unanswered    |prompt … responseWindow → off (unanswered)
///   setup_anticipation         |prompt ^press within 150 ms → anticipation, off
///   setup_unprompted           (no prompt) ^press ~release → unprompted, its duration
///   setup_bounce               ~release … ^press within 150 ms → bounce, its gap
///   setup_confirmation_passes  round 1: 4 × item 3, ≤ 25 % errors → finished
///   setup_confirmation_slower  round 1: > 25 % errors → round 2 one step slower …
///   setup_never_pressed        no edge for idleLimit → failed
public struct SetupSession: Sendable {
    public struct Settings: Sendable, Equatable {
        public var presses = 20
        /// The wait before each prompt, drawn uniformly (seconds).
        public var foreperiod: ClosedRange<Double> = 1.0...3.0
        /// How long a prompt stays lit without a press.
        public var responseWindow = Interval.seconds(8)
        /// No press at all for this long ends the setup (nothing is recommended).
        public var idleLimit = Interval.seconds(30)
        /// The answers needed to measure a reaction time.
        public var minimumAnswers = 8
        /// Correct selections of the target per confirmation round.
        public var trials = 4
        /// Rounds of confirmation at most (the first, then slower by a step each).
        public var rounds = 3
        /// The prompts' onsets are drawn from this seed.
        public var seed: UInt64 = 1

        public init() {}
    }

    public enum Phase: Sendable, Equatable {
        case notStarted
        case switchTest
        case confirmation(round: Int)
        case finished
        case failed(String)
    }

    /// What the shell may say as it happens.
    public enum Note: Sendable, Equatable {
        case prompt(Int, of: Int)
        case answered(Int, reaction: Double)
        case unanswered(Int)
        case anticipation(Int)
        case unprompted(duration: Double)
        case bounce(gap: Double)
        case measured(SetupRecommendation)
        case round(Int, scanTime: Interval)
        case roundOver(Int, errors: Int, attempts: Int, slower: Bool)
        case finished
        case failed(String)
    }

    public static let promptID = "setup:prompt"
    public static let targetID = "setup:3"

    public let settings: Settings
    public let base: Profile
    public private(set) var phase: Phase = .notStarted
    public private(set) var measurement = SetupMeasurement()
    public private(set) var recommendation: SetupRecommendation?
    public private(set) var rounds: [SetupResult.Round] = []
    public private(set) var now = Instant.zero
    private var notes: [Note] = []
    private var random: SeededRandom
    private let codes: Set<UInt16>
    private var started = Instant.zero
    /// The switch test: when the prompt was lit (nil: off), its number, the next onset or timeout.
    private var lit: Instant?
    private var prompt = 0
    private var due: Instant?
    /// The switch: down since, and what that press is; the last release; the last edge of all.
    private var down: (at: Instant, kind: PressKind)?
    private var lastRelease: Instant?
    private var lastEdge = Instant.zero
    /// The confirmation: the round's engine and counts.
    private var engine: Engine?
    private var round = Round(scanTime: .zero)

    enum PressKind: Sendable { case answer, anticipation, unprompted, bounce }

    struct Round: Sendable {
        var scanTime: Interval
        var correct = 0
        var errors = 0
        /// The item last highlighted (0 after a selection): 4 then 1 is a pass with no press.
        var lastHighlight = 0
    }

    public init(base: Profile, settings: Settings = Settings()) {
        self.base = base
        self.settings = settings
        random = SeededRandom(seed: settings.seed)
        codes = Set(base.switches.map(\.code))
    }

    /// The profile in force: the base during the switch test, the round's during confirmation.
    public var profile: Profile { engine?.profile ?? base }

    /// The model the lines refer to now (for the overlay).
    public var model: ScanModel { engine?.model ?? SetupSession.promptModel }

    static let promptModel = ScanModel(tree: promptTree)

    /// One large item in the middle of a 1280 × 800 screen.
    public static let promptTree = ElementTree(screen: Size(width: 1280, height: 800), root: Element(
        id: "setup", frame: Rect(x: 0, y: 0, width: 1280, height: 800),
        children: [Element(id: promptID, label: "Press now", traits: [.button], frame: Rect(x: 440, y: 200, width: 400, height: 400))]))

    /// Four buttons in a row; the person selects the third.
    public static let confirmationTree = ElementTree(screen: Size(width: 1280, height: 800), root: Element(
        id: "setup", frame: Rect(x: 0, y: 0, width: 1280, height: 800),
        children: (1...4).map { k in Element(id: "setup:\(k)", label: "\(k)", traits: [.button],
                                                frame: Rect(x: Double(k - 1) * 320 + 20, y: 300, width: 280, height: 200)) }))

    public var isOver: Bool {
        switch phase {
        case .finished, .failed: return true
        default: return false
        }
    }

    public var failure: String? {
        if case .failed(let why) = phase { return why }
        return nil
    }

    /// The notes since the last call.
    public mutating func takeNotes() -> [Note] {
        defer { notes.removeAll() }
        return notes
    }

    public var result: SetupResult? {
        guard phase == .finished, let recommendation else { return nil }
        var p = recommendation.apply(to: base)
        if let last = rounds.last { p.scanning.autoScanningTime = last.scanTime }
        return SetupResult(measurement: measurement, recommendation: recommendation, rounds: rounds, profile: p,
                           seconds: (now - started).seconds)
    }

    // MARK: Inputs

    /// The setup begins at `t`: the first wait before a prompt.
    public mutating func start(at t: Instant) -> [TranscriptLine] {
        guard phase == .notStarted else { return [] }
        now = t
        started = t
        lastEdge = t
        phase = .switchTest
        scheduleNextPrompt()
        return []
    }

    public mutating func nextDeadline() -> Instant? {
        guard !isOver, phase != .notStarted else { return nil }
        var t = min(due ?? .distantFuture, lastEdge + settings.idleLimit)
        if let d = engine?.nextDeadline() { t = min(t, d) }
        return t
    }

    public mutating func advance(to t: Instant) -> [TranscriptLine] {
        var out: [TranscriptLine] = []
        catchUp(to: t, &out)
        return out
    }

    /// A frame from a switch device: its edges on the profile's switches are measured (switch
    /// test) or go to the round's engine (confirmation). Timers due at or before it fire first.
    public mutating func handle(frame: InputFrame, device: Int) -> [TranscriptLine] {
        var out: [TranscriptLine] = []
        catchUp(to: frame.time, &out)
        guard !isOver, phase != .notStarted else { return out }
        let edges = frame.events.filter { $0.type == EventCodes.EV_KEY && codes.contains($0.code) && $0.value != 2 }
        if !edges.isEmpty { lastEdge = now }
        if engine != nil {
            let lines = engine!.handle(frame: frame, device: 0)
            out += lines
            observe(lines, &out)
            return out
        }
        for e in edges { if e.value == 1 { pressed(&out) } else { released(&out) } }
        return out
    }

    // MARK: Switch test

    private mutating func scheduleNextPrompt() {
        let f = settings.foreperiod
        due = now + .seconds(f.lowerBound + random.unit() * (f.upperBound - f.lowerBound))
    }

    private mutating func pressed(_ out: inout [TranscriptLine]) {
        guard down == nil else { return }
        if let r = lastRelease, now - r <= SetupMeasurement.bounceWindow {
            measurement.bounceGaps.append((now - r).seconds)
            notes.append(.bounce(gap: (now - r).seconds))
            down = (now, .bounce)
        } else if let on = lit {
            let rt = now - on
            lit = nil
            due = nil  // the next wait starts at the release
            out.append(TranscriptLine(t: now, .scan(started: false)))
            if rt < SetupMeasurement.anticipation {
                measurement.anticipations += 1
                notes.append(.anticipation(prompt))
                down = (now, .anticipation)
            } else {
                measurement.reactionTimes.append(rt.seconds)
                notes.append(.answered(prompt, reaction: rt.seconds))
                down = (now, .answer)
            }
        } else {
            down = (now, .unprompted)
        }
    }

    private mutating func released(_ out: inout [TranscriptLine]) {
        guard let d = down else { return }
        down = nil
        lastRelease = now
        let duration = (now - d.at).seconds
        switch d.kind {
        case .answer: measurement.pressDurations.append(duration)
        case .unprompted:
            measurement.unpromptedDurations.append(duration)
            notes.append(.unprompted(duration: duration))
        case .anticipation, .bounce: break
        }
        if lit == nil && due == nil { nextOrEnd(&out) }
    }

    /// After a prompt: the next wait, or the end of the test.
    private mutating func nextOrEnd(_ out: inout [TranscriptLine]) {
        if prompt >= settings.presses { finishTest(&out) } else { scheduleNextPrompt() }
    }

    private mutating func catchUp(to t: Instant, _ out: inout [TranscriptLine]) {
        while !isOver, phase != .notStarted {
            let idle = lastEdge + settings.idleLimit
            let engineDue = engine?.nextDeadline()
            let at = min(due ?? .distantFuture, idle, engineDue ?? .distantFuture)
            guard at <= t else { break }
            now = max(now, at)
            if let d = due, d == at {
                due = nil
                promptTimer(&out)
            } else if let d = engineDue, d == at {
                let lines = engine!.advance(to: at)
                out += lines
                observe(lines, &out)
            } else {
                fail(noPress(settings.idleLimit), &out)
            }
        }
        if !isOver { now = max(now, t) }
    }

    private func noPress(_ d: Interval) -> String {
        "no press from the switch in \(formatNumber(d.seconds)) s: check that it is plugged in, that it is the one the profile names (\(base.switches.map(\.keyName).joined(separator: ", "))), and that the person can reach it"
    }

    /// The switch test's timer: a prompt comes on, or goes out unanswered.
    private mutating func promptTimer(_ out: inout [TranscriptLine]) {
        guard phase == .switchTest else { return }
        if lit != nil {
            lit = nil
            measurement.unanswered += 1
            notes.append(.unanswered(prompt))
            out.append(TranscriptLine(t: now, .scan(started: false)))
            if down == nil { nextOrEnd(&out) }
        } else if down == nil {
            prompt += 1
            measurement.prompts += 1
            lit = now
            due = now + settings.responseWindow
            notes.append(.prompt(prompt, of: settings.presses))
            out.append(TranscriptLine(t: now, .highlight(id: SetupSession.promptID, kind: .item, label: "Press now")))
        }
        // Held down when the prompt was due: the next wait starts at the release.
    }

    private mutating func finishTest(_ out: inout [TranscriptLine]) {
        if lastEdge == started { return fail(noPress(now - started), &out) }
        guard measurement.reactionTimes.count >= settings.minimumAnswers else {
            return fail("only \(measurement.reactionTimes.count) of \(measurement.prompts) prompts were answered (\(settings.minimumAnswers) are needed to measure a reaction time): check the switch and its position, then start again", &out)
        }
        let r = SetupRecommendation(measurement, base: base)
        recommendation = r
        notes.append(.measured(r))
        startRound(1, scanTime: r.autoScanningTime, &out)
    }

    private mutating func fail(_ why: String, _ out: inout [TranscriptLine]) {
        phase = .failed(why)
        notes.append(.failed(why))
        engine = nil
        due = nil
        lit = nil
        out.append(TranscriptLine(t: now, .scan(started: false)))
    }

    // MARK: Confirmation

    /// The confirmation's profile: the recommendation, scanned as a plain auto scan that taps at
    /// once and never stops by itself.
    private func confirmationProfile(_ t: Interval) -> Profile {
        var p = recommendation!.apply(to: base)
        p.scanning.autoScanningTime = t
        p.scanning.style = .auto
        p.scanning.mode = .item
        p.scanning.grouping = .none
        p.scanning.tapBehavior = .alwaysTap
        p.scanning.focusedItemAfterTap = .first
        p.scanning.loops = 100
        p.scanning.speech = false
        p.scanning.pauseForSpeech = false
        p.adaptiveTiming.enabled = false
        if let first = p.switches.first, first.action != .select {
            p.switches = [SwitchBinding(keyName: first.keyName, code: first.code, action: .select)]
        }
        return p
    }

    private mutating func startRound(_ k: Int, scanTime: Interval, _ out: inout [TranscriptLine]) {
        phase = .confirmation(round: k)
        round = Round(scanTime: scanTime)
        notes.append(.round(k, scanTime: scanTime))
        var e = Engine(tree: SetupSession.confirmationTree, profile: confirmationProfile(scanTime), devices: [nil])
        out += e.start(at: now)
        engine = e
    }

    /// Counts the round's selections and passes from the engine's lines; ends the round.
    private mutating func observe(_ lines: [TranscriptLine], _ out: inout [TranscriptLine]) {
        guard case .confirmation(let k) = phase else { return }
        for line in lines {
            switch line.event {
            case .perform(let p) where p.action == .activate || p.action == .tap:
                if p.id == SetupSession.targetID { round.correct += 1 } else { round.errors += 1 }
                round.lastHighlight = 0
            case .highlight(let id, _, _):
                let index = Int(id.dropFirst("setup:".count)) ?? 0
                if index == 1 && round.lastHighlight == 4 { round.errors += 1 }  // a pass with no press
                round.lastHighlight = index
            default: break
            }
        }
        guard round.correct >= settings.trials || round.errors >= settings.trials else { return }
        let attempts = round.correct + round.errors
        let tooMany = Double(round.errors) > 0.25 * Double(attempts)
        rounds.append(SetupResult.Round(scanTime: round.scanTime, correct: round.correct, errors: round.errors))
        let slower = tooMany && k < settings.rounds
        notes.append(.roundOver(k, errors: round.errors, attempts: attempts, slower: slower))
        engine = nil
        if slower {
            startRound(k + 1, scanTime: AdaptiveTiming.step(from: round.scanTime, slower: true), &out)
        } else {
            phase = .finished
            notes.append(.finished)
            out.append(TranscriptLine(t: now, .scan(started: false)))
        }
    }

    /// The simulated person (`setup --person`): the prompt while it is lit; the round's engine.
    public func aim(at goal: String) -> PersonAim {
        if let engine { return engine.aim(at: goal) }
        guard phase == .switchTest, lit != nil, goal == SetupSession.promptID, let action = base.switches.first?.action else { return .wait }
        return .press(action, correction: false)
    }

    public var scanDeadline: Instant? { engine?.scanDeadline }
}

extension SetupSession: PersonWorld {
    public mutating func answerPredictions(_ predict: (PredictionRequest) -> [String]) -> [TranscriptLine] { [] }
}

/// The person in the setup: answers the prompts, then selects item 3 of the confirmation.
public struct SetupTask: PersonTask {
    public init() {}

    public func goal(_ world: SetupSession) -> PersonGoal? {
        switch world.phase {
        case .notStarted, .finished, .failed: return nil
        case .switchTest: return PersonGoal(SetupSession.promptID)
        case .confirmation: return PersonGoal(SetupSession.targetID)
        }
    }
}

extension Instant {
    static let distantFuture = Instant(microseconds: .max)
}
