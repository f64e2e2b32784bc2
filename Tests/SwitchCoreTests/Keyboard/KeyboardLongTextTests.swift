import Foundation
import SwitchCore
import Testing

/// Issue 32, point 3 (long lines): every key costs the same however long the text is. A 10 KB
/// line took 11 s and 40 KB never ended, a 5,000-letter word a minute: the keyboard looked at
/// the whole text at every key (the prediction context, the word being typed). What a key looks
/// at is now bounded: the word being typed (at most `KeyboardText.longestWord` letters) and the
/// three words before it (`predictionContext`). The figures: BENCHMARKS.md, issue 32.
@Suite("Keyboard: long texts")
struct KeyboardLongTextTests {
    @Test func the_prediction_context_is_the_word_and_the_three_before_it() {
        #expect(KeyboardText(before: "one two three four five si").predictionContext == "three four five si")
        #expect(KeyboardText(before: "one two three four five ").predictionContext == "three four five ")
        #expect(KeyboardText(before: "two words").predictionContext == "two words")
        #expect(KeyboardText(before: "").predictionContext == "")
        #expect(KeyboardText(before: "line one\nline  two\tand so").predictionContext == "line  two\tand so")
        // At most `contextLimit` characters, whatever the words.
        let long = String(repeating: "x", count: 1000)
        #expect(KeyboardText(before: "a " + long).predictionContext.count == KeyboardText.contextLimit)
    }

    @Test func a_run_longer_than_the_longest_word_is_no_word() {
        let word = String(repeating: "h", count: KeyboardText.longestWord)
        #expect(KeyboardText(before: "say " + word).wordPrefix == word)
        #expect(!KeyboardText(before: "say " + word).inLongWord)
        #expect(KeyboardText(before: "say " + word + "h").wordPrefix == "")
        #expect(KeyboardText(before: "say " + word + "h").inLongWord)
        #expect(!KeyboardText(before: "say " + word + "h ").inLongWord)
    }

    /// Timeline keyboard_long_word (Engine+Keyboard.swift): past the longest word no prediction is
    /// asked and the row is emptied; after the run, predictions are asked again.
    @Test func keyboard_long_word() throws {
        var s = try KeyboardEngineTests.opened(predictions: 2)
        _ = s.engine.setPredictions(["hello"], context: "", at: .seconds(0.95))
        let word = String(repeating: "h", count: KeyboardText.longestWord)
        _ = s.engine.fieldText(before: word, after: "", at: .seconds(1))
        #expect(s.engine.wantedPredictions == PredictionRequest(context: word, count: 2))
        _ = s.engine.setPredictions(["hhh"], context: word, at: .seconds(1))
        _ = s.take()
        s.lines += s.engine.fieldText(before: word + "h", after: "", at: .seconds(2)).map(TranscriptFormat.jsonl)
        #expect(s.engine.wantedPredictions == nil)
        #expect(KeyboardEngineTests.only(s.take(), ["keyboard"]) == ["{\"t\":2.000,\"type\":\"keyboard\",\"predictions\":[]}"])
        // Another letter: nothing more is asked or said.
        s.lines += s.engine.fieldText(before: word + "hh", after: "", at: .seconds(3)).map(TranscriptFormat.jsonl)
        #expect(s.engine.wantedPredictions == nil)
        #expect(KeyboardEngineTests.only(s.take(), ["keyboard"]).isEmpty)
        _ = s.engine.fieldText(before: word + "hh ", after: "", at: .seconds(4))
        #expect(s.engine.wantedPredictions == PredictionRequest(context: word + "hh ", count: 2))
    }

    /// A phrase of one 300-letter word and a long line are typed whole, their characters counted.
    @Test func a_long_word_and_a_long_line_are_typed() throws {
        let layout = try KeyboardLayoutTests.bundled("qwerty")
        let sim = TextEntrySimulation(base: Profile(), layout: layout, method: .grouped, predictions: 3)
        let word = String(repeating: "etaoin", count: 50)
        let r = try sim.type(word) { context, _ in [String(context.suffix(3))] }
        #expect(r.characters == 300)
        let line = Array(repeating: "the quick brown fox", count: 40).joined(separator: " ")
        let l = try sim.type(line) { _, _ in ["the", "quick", "brown"] }
        #expect(l.characters == line.count)
    }
}
