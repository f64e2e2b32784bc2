import Testing
@testable import SwitchCore

/// The simulator's speech-time model and speech-paced simulations: the dwell of every stop equals
/// the model's duration of its phrase, to the microsecond.
@Suite struct SpeechTimeModelTests {
    @Test func words_and_pauses() {
        #expect(SpeechTimeModel.count("Add, button") == (2, 1))
        #expect(SpeechTimeModel.count("Volume, 50%, adjustable") == (3, 2))
        #expect(SpeechTimeModel.count("London, 18 degrees, button, Shows the forecast.") == (7, 4))
        #expect(SpeechTimeModel.count("Wi-Fi 3.5 -- x") == (3, 0))
        #expect(SpeechTimeModel.count("") == (0, 0))
        #expect(SpeechTimeModel.count("  Tap  ") == (1, 0))
    }

    @Test func rate_mapping_is_speech_dispatchers() {
        #expect(SpeechRate.ssip(0) == -100 && SpeechRate.ssip(0.5) == 0 && SpeechRate.ssip(1) == 100)
        #expect(SpeechRate.ssip(0.25) == -50 && SpeechRate.ssip(0.75) == 50)
        #expect(SpeechRate.wordsPerMinute(0) == 80)
        #expect(SpeechRate.wordsPerMinute(0.5) == 170)
        #expect(SpeechRate.wordsPerMinute(1) == 449)
        #expect(SpeechRate.wordsPerMinute(0.25) == 125)   // 170 + 90 × (−50) / 100
        #expect(SpeechRate.wordsPerMinute(0.75) == 309)   // 170 + 279 × 50 / 100 (C's integer division)
    }

    @Test func durations_in_integer_microseconds() {
        let m = SpeechTimeModel(wordsPerMinute: 170)
        // (7 + 12·2 + 5·1) tenths × 6,000,000 / 170 = 36 × 35,294.1… → 1,270,588 µs
        #expect(m.duration(of: "Add, button") == Interval(microseconds: 1_270_588))
        #expect(m.duration(of: "Tap") == Interval(microseconds: 19 * 6_000_000 / 170))
        #expect(SpeechTimeModel(speechRate: 1).duration(of: "Tap") < SpeechTimeModel(speechRate: 0).duration(of: "Tap"))
    }

    static func engine(_ change: (inout Profile) -> Void = { _ in }) -> Engine {
        var p = Profile()
        p.scanning.autoScanningTime = .seconds(0.1)
        p.scanning.speech = true
        p.scanning.pauseForSpeech = true
        p.scanning.loops = 1
        change(&p)
        let tree = Fixture.tree([Fixture.button("a"), Fixture.button("b", actions: ["Delete"]),
                                 Element(id: "v", label: "Volume", value: "50%", traits: .adjustable)])
        return Engine(tree: tree, profile: p, devices: [nil] as [DeviceDescription?])
    }

    @Test func simulated_dwell_equals_the_models_utterance_durations() {
        let model = SpeechTimeModel(wordsPerMinute: 170)
        var engine = Self.engine()
        let lines = Simulation.transcript(&engine, inputs: [], until: .seconds(30), speech: model)
        let highlights = lines.filter { if case .highlight = $0.event { return true } else { return false } }
        let phrases = lines.compactMap { line -> (Instant, String)? in
            if case .speak(let text) = line.event { return (line.t, text) }
            return nil
        }
        #expect(phrases.map(\.1) == ["A, button", "B, button", "Volume, 50%, adjustable"])
        #expect(highlights.count == 3)
        // Each next highlight comes exactly when the phrase before it ends; the last phrase ends
        // the pass (loops = 1): scanning stops then.
        for k in 1..<3 {
            #expect(highlights[k].t == phrases[k - 1].0 + model.duration(of: phrases[k - 1].1))
        }
        let stop = lines.first { $0.event == .scan(started: false) }
        #expect(stop?.t == phrases[2].0 + model.duration(of: phrases[2].1))
    }

    @Test func without_pause_the_dwell_is_the_scanning_time() {
        var engine = Self.engine { $0.scanning.pauseForSpeech = false }
        let lines = Simulation.transcript(&engine, inputs: [], until: .seconds(30), speech: SpeechTimeModel(wordsPerMinute: 170))
        let times = lines.filter { if case .highlight = $0.event { return true } else { return false } }.map(\.t)
        #expect(times == [.zero, .seconds(0.1), .seconds(0.2)])
    }

    @Test func a_long_dwell_is_not_shortened_by_a_short_phrase() {
        var engine = Self.engine { $0.scanning.autoScanningTime = .seconds(3) }
        let lines = Simulation.transcript(&engine, inputs: [], until: .seconds(30), speech: SpeechTimeModel(wordsPerMinute: 449))
        let times = lines.filter { if case .highlight = $0.event { return true } else { return false } }.map(\.t)
        #expect(times == [.zero, .seconds(3), .seconds(6)])
    }

    @Test func a_press_interrupts_the_phrase_and_the_next_one_paces() {
        // The menu opens at 0.5 s (select on a, while its 1.27 s phrase is still spoken): "Tap"
        // interrupts it, and the menu's first dwell lasts Tap's phrase.
        let model = SpeechTimeModel(wordsPerMinute: 170)
        var engine = Self.engine()
        let press = InputFrame(time: .seconds(0.5), events: [InputEvent(type: EventCodes.EV_KEY, code: EventCodes.KEY_SPACE, value: 1)])
        let release = InputFrame(time: .seconds(0.6), events: [InputEvent(type: EventCodes.EV_KEY, code: EventCodes.KEY_SPACE, value: 0)])
        let lines = Simulation.transcript(&engine, inputs: [.frame(press, device: 0), .frame(release, device: 0)],
                                          until: .seconds(30), speech: model)
        let menuHighlights = lines.filter { if case .highlight(_, .menuItem, _) = $0.event { return true } else { return false } }
        #expect(menuHighlights.count >= 2)
        #expect(menuHighlights[0].t == .seconds(0.5))
        #expect(menuHighlights[1].t.microseconds == Instant.seconds(0.5).microseconds + model.duration(of: "Tap").microseconds)
    }
}
