/// A simulated person typing a phrase on the scanning keyboard (`text stats --person`): they go
/// for what `TextEntrySimulation`'s perfect user goes for (a predicted word as soon as the row
/// shows it, else the next character's key, through page keys), and put their mistakes right as
/// a switch user does:
///
///   what went wrong                      what the person goes for
///   a wrong key or word (the text is     the keyboard's delete key, until it is again the start
///   no longer the start of the phrase)   of the phrase; then on as before
///   the caret moved (left)               the right key, until the caret is at the end
///   the keyboard closed (its close key)  the field (Tap in its menu); the field kept its text,
///                                        so the keyboard opens on it again
///   a wrong group / menu                 its escape stop / Close (`PersonAim`)
struct PersonTyping: PersonTask {
    let sim: TextEntrySimulation
    let target: [Character]
    /// What the field holds, kept for when the keyboard opens on it again after a wrong close.
    private var kept = ""
    private var reopened = false
    private(set) var failure: TextEntrySimulation.Failure?
    /// When the last character of the phrase was typed.
    private(set) var finished: Instant?

    init(sim: TextEntrySimulation, phrase: String) {
        self.sim = sim
        target = Array(phrase.lowercased())
    }

    mutating func goal(_ engine: Engine) -> PersonGoal? {
        guard let text = engine.keyboardText else { return PersonGoal(TextEntrySimulation.fieldID, correction: true) }
        kept = text.before + text.after
        if !text.after.isEmpty { return key(.right, engine.model) }
        do {
            var written = TextEntrySimulation.Written(target: target, field: text.before)
            guard let id = try sim.next(&written, autoSpace: text.autoSpace, engine.model) else { return nil }
            return PersonGoal(id)
        } catch .stuck {
            return key(.backspace, engine.model)
        } catch {
            failure = error
            return nil
        }
    }

    mutating func observe(_ line: TranscriptLine) {
        if case .keyboard(.opened) = line.event, !kept.isEmpty { reopened = true }
    }

    /// The field kept its text: the keyboard that opened on it again knows it (as the live
    /// desktop reads it back).
    mutating func adjust(_ engine: inout Engine) -> [TranscriptLine] {
        guard reopened else { return [] }
        reopened = false
        return engine.fieldText(before: kept, after: "", at: engine.now)
    }

    /// The key of `kind` on the page shown, or the page key on the way to a page that has it.
    private mutating func key(_ kind: KeyboardLayout.Kind, _ model: ScanModel) -> PersonGoal? {
        let layout = sim.layout
        let shown = layout.pages.first { $0.rows.joined().allSatisfy { model.itemIndex(id: $0.id) != nil } } ?? layout.pages[0]
        var queue: [(page: KeyboardLayout.Page, via: String?)] = [(shown, nil)]
        var seen: Set<String> = [shown.name]
        while !queue.isEmpty {
            let (page, via) = queue.removeFirst()
            let keys = page.rows.joined()
            if let k = keys.first(where: { $0.kind == kind }) { return PersonGoal(via ?? k.id, correction: true) }
            for k in keys {
                if case .page(let name) = k.kind, let next = layout.page(named: name), seen.insert(name).inserted {
                    queue.append((next, via ?? k.id))
                }
            }
        }
        failure = .stuck("no page has a \(kind.name) key")
        return nil
    }
}

/// `text stats --person`: every phrase typed by one simulated person in one session on one
/// keyboard configuration (`TextEntrySimulation`'s profile, layout and method): the keyboard
/// opens on the field at the start of each phrase (the previous one was sent), the engine and
/// its clock go on, so adaptive timing carries from one phrase to the next. A phrase's time runs
/// from the keyboard's opening to the key that typed its last character, corrections included.
/// A phrase the person has not finished after `phraseLimit` is given up (its correct start
/// counts).
public struct PersonTextEntry: Sendable {
    public let sim: TextEntrySimulation
    public let person: PersonModel
    /// How long a phrase of n characters may take before it is given up.
    public var phraseLimit: @Sendable (Int) -> Interval = PersonTextEntry.defaultPhraseLimit

    public init(sim: TextEntrySimulation, person: PersonModel) {
        self.sim = sim
        self.person = person
    }

    /// One phrase's outcome.
    public struct Phrase: Sendable, Equatable {
        public var time: Interval
        /// Accepted presses, meant or not.
        public var presses: Int
        /// Characters of the phrase typed right (all of them unless it was given up).
        public var characters: Int
        public var counts: PersonCounts
        public var gaveUp: Bool
    }

    public struct Result: Sendable {
        public var phrases: [Phrase]
        /// The keyboard's scan time at the start and at the end of the session.
        public var scanTimeAtStart: Interval
        public var scanTimeAtEnd: Interval
        /// Adaptive timing's changes over the session.
        public var changes: Int
    }

    /// The longest a phrase may take: half an hour, or three minutes a character for a long one
    /// (linear scanning's 15 s a character, with a person who errs, is far below it).
    public static func defaultPhraseLimit(_ characters: Int) -> Interval { .seconds(Double(max(1800, 180 * characters))) }

    public func type(_ phrases: [String], models: inout KeyboardModelCache,
                     predict: @escaping (String, Int) -> [String],
                     emit: (TranscriptLine) -> Void = { _ in }) throws(TextEntrySimulation.Failure) -> Result {
        var engine = Engine(tree: TextEntrySimulation.fieldTree, profile: sim.profile, devices: [nil])
        engine.keyboardLayout = sim.layout
        engine.keyboardModels = models
        models = KeyboardModelCache()
        let startTime = engine.keyboardScanTime
        var session = PersonSession(engine: engine, person: person)
        session.predict = { predict($0.context, $0.count) }
        var nothing = PersonIdle()
        session.take(session.startEngine(), &nothing, emit: emit)
        var out: [Phrase] = []
        var changes = 0
        for phrase in phrases {
            var task = PersonTyping(sim: sim, phrase: phrase)
            let start = session.now
            session.take(session.openKeyboard(), &task, emit: emit)
            let before = session.counts, pressesBefore = session.acceptedPresses
            let outcome = session.run(&task, until: start + phraseLimit(task.target.count)) { line in
                if case .adaptiveTiming = line.event { changes += 1 }
                emit(line)
            }
            if let failure = task.failure { throw failure }
            var typed = task.target.count
            var end = session.now
            switch outcome {
            case .done: break
            case .gaveUp:
                typed = session.correctStart(of: task.target)
                end = start + phraseLimit(task.target.count)
            case .stuck(let why): throw .stuck(why)
            }
            out.append(Phrase(time: end - start, presses: session.acceptedPresses - pressesBefore, characters: typed,
                              counts: session.counts.minus(before), gaveUp: outcome == .gaveUp))
            session.take(session.closeKeyboard(), &task, emit: emit)
        }
        models = session.engine.keyboardModels
        return Result(phrases: out, scanTimeAtStart: startTime, scanTimeAtEnd: session.engine.keyboardScanTime, changes: changes)
    }
}

/// A task with nothing to do (lines fed outside a run).
struct PersonIdle: PersonTask {
    func goal(_ engine: Engine) -> PersonGoal? { nil }
}

extension TextEntrySimulation {
    static let fieldID = "field"
}

extension PersonCounts {
    func minus(_ b: PersonCounts) -> PersonCounts {
        var c = self
        c.selections -= b.selections
        c.late -= b.late
        c.missed -= b.missed
        c.extraPresses -= b.extraPresses
        c.corrections -= b.corrections
        return c
    }
}

extension PersonSession {
    mutating func startEngine() -> [TranscriptLine] { withEngine { $0.start(at: .zero) } }
    mutating func openKeyboard() -> [TranscriptLine] { withEngine { $0.openKeyboard(fieldID: TextEntrySimulation.fieldID, at: $0.now) } }
    mutating func closeKeyboard() -> [TranscriptLine] { withEngine { $0.closeKeyboard(at: $0.now) } }

    /// How many characters of `target` the field starts with (case aside).
    func correctStart(of target: [Character]) -> Int {
        let typed = Array((engine.keyboardText?.before ?? "").lowercased())
        return zip(typed, target).prefix { $0 == $1 }.count
    }
}

extension Engine {
    /// The scan time the keyboard scans with (its own, else the profile's).
    public var keyboardScanTime: Interval { profile.keyboard.autoScanningTime ?? profile.scanning.autoScanningTime }
}
