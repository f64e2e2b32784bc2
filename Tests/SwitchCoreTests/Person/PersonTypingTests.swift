import SwitchCore
import Testing

/// `text stats --person`'s typing: the person ends with the phrase, whatever they got wrong on
/// the way, and the session's counts add up.
@Suite("Person typing")
struct PersonTypingTests {
    static func layout(_ name: String) throws -> KeyboardLayout { try KeyboardLayoutTests.bundled(name) }

    static let words = ["hello", "help", "there", "the", "world", "we", "were", "see", "you", "soon", "how", "are"]

    static func predict(_ context: String, _ count: Int) -> [String] {
        let prefix = String(context.lowercased().reversed().prefix { $0.isLetter }.reversed())
        return Array(words.filter { $0.hasPrefix(prefix) }.prefix(count))
    }

    static func typist(seed: UInt64, _ edit: (inout PersonModel) -> Void = { _ in }) -> PersonModel {
        var m = PersonModel()
        m.reactionTime = .init(mean: 0.8, sd: 0.3)
        m.seed = seed
        edit(&m)
        return m
    }

    @Test func a_wrong_key_is_deleted_then_the_right_one_typed() throws {
        var base = Profile()
        base.scanning.autoScanningTime = .seconds(0.9)
        let sim = TextEntrySimulation(base: base, layout: try Self.layout("frequency"), method: .auto, predictions: 3)
        var models = KeyboardModelCache()
        var lines: [TranscriptLine] = []
        let r = try PersonTextEntry(sim: sim, person: Self.typist(seed: 1)).type(["hello there", "see you soon"], models: &models,
                                                                                predict: Self.predict) { lines.append($0) }
        #expect(r.phrases.count == 2)
        #expect(r.phrases.allSatisfy { !$0.gaveUp && $0.characters > 0 })
        let counts = r.phrases.reduce(PersonCounts()) { $0 + $1.counts }
        #expect(counts.late > 0)
        #expect(counts.corrections > 0)
        // Deletions were typed, and the field ended with each phrase.
        let typed = lines.compactMap { line -> TypedText? in if case .typed(let t) = line.event { return t } else { return nil } }
        #expect(typed.contains { $0.key == "key:backspace" })
        var text = "", finals: [String] = []
        for line in lines {
            switch line.event {
            case .keyboard(.opened): text = ""
            case .keyboard(.closed): finals.append(text)
            case .typed(let t):
                text = String(text.dropLast(t.edit.delete)) + t.edit.text
            default: break
            }
        }
        #expect(finals.map { $0.lowercased().trimmingTrailingSpace } == ["hello there", "see you soon"])
    }

    @Test func a_slow_scan_types_without_mistakes_at_the_perfect_users_presses() throws {
        // Reaction 0.5 ± 0 s against a 2 s dwell: never late; the presses are the perfect user's.
        var base = Profile()
        base.scanning.autoScanningTime = .seconds(2)
        let sim = TextEntrySimulation(base: base, layout: try Self.layout("qwerty"), method: .grouped, predictions: 0)
        var models = KeyboardModelCache()
        let r = try PersonTextEntry(sim: sim, person: Self.typist(seed: 2) { $0.reactionTime = .init(mean: 0.5, sd: 0) })
            .type(["see you"], models: &models, predict: Self.predict)
        let perfect = try sim.type("see you") { _, _ in [] }
        #expect(r.phrases[0].presses == perfect.presses)
        #expect(r.phrases[0].counts.late == 0 && r.phrases[0].counts.corrections == 0)
        // Each press comes 0.5 s into its stop instead of at its end: 1.5 s sooner a press.
        #expect(r.phrases[0].time.microseconds == perfect.time.microseconds - Int64(perfect.presses) * (1_500_000 - 1))
    }

    @Test func every_method_and_switch_count_finishes_its_phrases() throws {
        // A scan time the person mostly keeps up with (2 % late), few accidental presses: linear
        // scanning on a 40-key page, where a wrong key costs half a minute to delete, falls
        // behind a person who errs more (next test).
        var base = Profile()
        base.scanning.autoScanningTime = .seconds(1.4)
        for method in TextEntrySimulation.Method.all {
            let sim = TextEntrySimulation(base: base, layout: try Self.layout("frequency"), method: method, predictions: 5)
            var models = KeyboardModelCache()
            let r = try PersonTextEntry(sim: sim, person: Self.typist(seed: 3) { $0.falsePressesPerMinute = 0.2; $0.bounce.probability = 0.02 })
                .type(["how are you", "we were there"], models: &models, predict: Self.predict)
            #expect(r.phrases.allSatisfy { !$0.gaveUp }, "\(method)")
        }
    }

    @Test func a_phrase_not_finished_in_its_time_is_given_up_with_its_correct_start_counted() throws {
        // Linear scanning, 23 % of the presses late: each wrong key costs a delete that is itself
        // often late; with 15 s a character allowed, "we were there" is not done in time.
        let sim = TextEntrySimulation(base: Profile(), layout: try Self.layout("frequency"), method: .linear, predictions: 5)
        var models = KeyboardModelCache()
        var typing = PersonTextEntry(sim: sim, person: Self.typist(seed: 3) { $0.falsePressesPerMinute = 1; $0.bounce.probability = 0.05 })
        typing.phraseLimit = { .seconds(Double(15 * $0)) }
        let r = try typing.type(["how are you", "we were there"], models: &models, predict: Self.predict)
        #expect(!r.phrases[0].gaveUp)
        #expect(r.phrases[1].gaveUp)
        #expect(r.phrases[1].time == .seconds(15 * 13))
        #expect(r.phrases[1].characters < 13)
    }
}

extension String {
    var trimmingTrailingSpace: String { var s = self; while s.last == " " { s.removeLast() }; return s }
}
