import Testing
@testable import SwitchCore

/// The overlay, speech and sound-cue settings of a profile (docs/live.md "Presentation").
@Suite struct PresentationSettingsTests {
    func decode(_ json: String) throws -> Profile { try ProfileDecoder.decode(Array(json.utf8), file: "p.json") }

    func error(_ json: String) -> String? {
        do { _ = try decode(json); return nil } catch { return (error as? InputError)?.description }
    }

    @Test func defaults() throws {
        let s = try decode("{}").scanning
        #expect(s.speechRate == 0.5 && s.speechVoice == nil && !s.pauseForSpeech && !s.soundEffects)
        #expect(s.cursorColor == .blue && s.cursorColor.description == "blue" && !s.largeCursor)
    }

    @Test func everyKey() throws {
        let s = try decode("""
            {"scanning": {"speech": true, "speechRate": 0.8, "speechVoice": "English (America)+Annie", "pauseForSpeech": true,
                          "soundEffects": true, "cursorColor": "Red", "largeCursor": true}}
            """).scanning
        #expect(s.speech && s.speechRate == 0.8 && s.speechVoice == "English (America)+Annie" && s.pauseForSpeech)
        #expect(s.soundEffects && s.largeCursor && s.cursorColor == CursorColor(red: 255, green: 59, blue: 48))
        let hex = try decode("{\"scanning\": {\"cursorColor\": \"#1E90fF\"}}").scanning.cursorColor
        #expect(hex == CursorColor(red: 0x1E, green: 0x90, blue: 0xFF) && hex.description == "#1e90ff")
    }

    @Test func badValuesAreNamed() {
        #expect(error("{\"scanning\": {\"speechRate\": 1.5}}") == "p.json:1:29: scanning.speechRate: 1.5 is out of range (expected 0…1)")
        #expect(error("{\"scanning\": {\"cursorColor\": \"teal\"}}")
            == "p.json:1:30: scanning.cursorColor: \"teal\" is not a cursor colour (expected one of: white, blue, red, green, yellow, orange, purple, or #RRGGBB)")
        #expect(error("{\"scanning\": {\"cursorColor\": \"#12345\"}}")?.contains("\"#12345\" is not a cursor colour") == true)
        #expect(error("{\"scanning\": {\"speechVoice\": \" \"}}") == "p.json:1:30: scanning.speechVoice: expected a speech-dispatcher voice name (see `spd-say -L`)")
        #expect(error("{\"scanning\": {\"largeCursor\": 1}}") == "p.json:1:30: scanning.largeCursor: expected true or false, found a number")
    }

    @Test func contrastOnTheCursorColour() {
        #expect(CursorColor(parsing: "yellow")!.contrastingIsBlack)
        #expect(CursorColor(parsing: "white")!.contrastingIsBlack)
        #expect(CursorColor(parsing: "blue")!.contrastingIsBlack)  // WCAG: 5.2:1 against black, 4.0:1 against white
        #expect(!CursorColor(parsing: "#000080")!.contrastingIsBlack)
        #expect(!CursorColor(parsing: "#7a1fa2")!.contrastingIsBlack)
    }
}
