import Testing
@testable import SwitchCore

/// Speech-paced scanning (`pauseForSpeech`), the `speech_paced_*` timelines of Scanner.swift:
/// the dwell of a stop ends at max(highlight + dwell, the end of its phrase), and at most
/// `Scanner.speechPauseCap` after the dwell would have ended. Phrases are numbered from 0 in the
/// order of the `speak` lines.
@Suite struct ScannerSpeechPacingTests {
    static let paced = Fixture.settings(.auto) { $0.speech = true; $0.pauseForSpeech = true }

    @Test func speech_paced_phrase_longer_than_dwell() {
        var h = ScannerHarness(Fixture.abc, Self.paced)
        #expect(h.start() == ["0.000 scan started", "0.000 highlight item a", "0.000 speak \"A, button\""])
        #expect(h.run(until: 2.4) == [])
        #expect(h.spoken(0, at: 2.5) == [])
        #expect(h.run(until: 2.5) == ["2.500 highlight item b", "2.500 speak \"B, button\""])
        #expect(h.violations.isEmpty)
    }

    @Test func speech_paced_phrase_shorter_than_dwell() {
        var h = ScannerHarness(Fixture.abc, Self.paced)
        h.start()
        #expect(h.spoken(0, at: 0.3) == [])
        #expect(h.run(until: 0.999) == [])
        #expect(h.run(until: 1) == ["1.000 highlight item b", "1.000 speak \"B, button\""])
    }

    @Test func speech_paced_cap() {
        var h = ScannerHarness(Fixture.abc, Self.paced)
        h.start()
        #expect(h.run(until: 10.999) == [])
        #expect(h.run(until: 11) == ["11.000 highlight item b", "11.000 speak \"B, button\""])
    }

    @Test func speech_paced_stale_finish_changes_nothing() {
        var h = ScannerHarness(Fixture.abc, Self.paced)
        h.start()
        h.spoken(0, at: 1.5)
        #expect(h.run(until: 1.5) == ["1.500 highlight item b", "1.500 speak \"B, button\""])
        // Phrase 0 again (a late or repeated report), and phrase 2, not spoken yet: nothing moves.
        #expect(h.spoken(0, at: 2) == [])
        #expect(h.spoken(2, at: 2.2) == [])
        #expect(h.run(until: 3) == [])
        h.spoken(1, at: 3.2)
        #expect(h.run(until: 3.2) == ["3.200 highlight item c", "3.200 speak \"C, button\""])
    }

    @Test func speech_paced_finish_after_a_press_moved_on() {
        var h = ScannerHarness(Fixture.abc, Self.paced)
        h.start()
        #expect(h.press(.next, at: 0.2) == ["0.200 highlight item b", "0.200 speak \"B, button\""])
        #expect(h.spoken(0, at: 0.4) == [])  // a's phrase, interrupted: b still waits for its own
        #expect(h.run(until: 1.3) == [])
        h.spoken(1, at: 1.4)
        #expect(h.run(until: 1.4) == ["1.400 highlight item c", "1.400 speak \"C, button\""])
    }

    @Test func speech_paced_pause_on_first_item() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.speech = true; $0.pauseForSpeech = true; $0.pauseOnFirstItem = .seconds(2) })
        h.start()
        h.spoken(0, at: 0.5)
        #expect(h.run(until: 2.999) == [])
        #expect(h.run(until: 3) == ["3.000 highlight item b", "3.000 speak \"B, button\""])
    }

    @Test func speech_paced_menu_entries() {
        var h = ScannerHarness(Fixture.abc, Self.paced)
        h.start()
        h.spoken(0, at: 0.5)
        #expect(h.press(.select, at: 0.8) == [
            "0.800 menu open on a: menu:tap, menu:escape, menu:close", "0.800 highlight menuItem menu:tap", "0.800 speak \"Tap\"",
        ])
        #expect(h.run(until: 2.5) == [])
        h.spoken(1, at: 2.5)
        #expect(h.run(until: 2.5) == ["2.500 highlight menuItem menu:escape", "2.500 speak \"Escape\""])
    }

    @Test func speech_paced_step_style_dwell_selects_after_the_phrase() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.singleSwitchStep) { $0.speech = true; $0.pauseForSpeech = true })
        h.start()
        #expect(h.press(.select, at: 1) == ["1.000 highlight item b", "1.000 speak \"B, button\""])
        #expect(h.run(until: 3) == [])
        h.spoken(1, at: 3.5)
        #expect(h.run(until: 3.5).first == "3.500 menu open on b: menu:tap, menu:escape, menu:close")
    }

    @Test func speech_paced_needs_speech() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.pauseForSpeech = true })
        h.start()
        #expect(h.run(until: 1) == ["1.000 highlight item b"])
    }

    @Test func speech_without_pause_ignores_finishes() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.speech = true })
        h.start()
        #expect(h.spoken(0, at: 0.2) == [])
        #expect(h.run(until: 0.999) == [])
        #expect(h.run(until: 1) == ["1.000 highlight item b", "1.000 speak \"B, button\""])
    }

    @Test func speech_paced_finish_while_stopped_or_in_auto_tap() {
        var h = ScannerHarness(Fixture.abc, Fixture.settings(.auto) { $0.speech = true; $0.pauseForSpeech = true; $0.tapBehavior = .autoTap })
        h.start()
        h.press(.select, at: 0.5)  // Auto Tap window on a
        #expect(h.spoken(0, at: 0.6) == [])
        #expect(h.run(until: 1.25) == ["1.250 perform activate a", "1.250 highlight item a", "1.250 speak \"A, button\""])
        h.press(.stopScanning, at: 1.5)
        #expect(h.spoken(1, at: 1.6) == [])
        #expect(h.violations.isEmpty)
    }
}
