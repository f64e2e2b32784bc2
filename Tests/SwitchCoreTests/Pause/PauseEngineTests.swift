import SwitchCore
import Testing

/// The safety exit inside the engine: exact transcripts on the virtual clock (the simulator's
/// lines), docs/live.md "Safety exit".
@Suite("Pause in the engine")
struct PauseEngineTests {
    func paused(_ t: String, _ key: String = "KEY_SPACE") -> String { "{\"t\":\(t),\"type\":\"pause\",\"state\":\"paused\",\"by\":\"hold\",\"switch\":\"\(key)\"}" }
    func resumed(_ t: String, _ key: String = "KEY_SPACE") -> String { "{\"t\":\(t),\"type\":\"pause\",\"state\":\"resumed\",\"by\":\"hold\",\"switch\":\"\(key)\"}" }
    func scan(_ t: String, _ state: String) -> String { "{\"t\":\(t),\"type\":\"scan\",\"state\":\"\(state)\"}" }
    /// A highlight whose label the shared `labels` table does not hold.
    func entry(_ t: String, _ id: String, _ label: String, _ kind: String = "menuItem") -> String {
        "{\"t\":\(t),\"type\":\"highlight\",\"id\":\"\(id)\",\"label\":\"\(label)\",\"kind\":\"\(kind)\"}"
    }
    let menuOnA = menuLine("0.500", "a", own: ["menu:tap"])
    func byChord(_ t: String, _ state: String) -> String {
        "{\"t\":\(t),\"type\":\"pause\",\"state\":\"\(state)\",\"by\":\"chord\",\"chord\":\"Ctrl+Alt+Shift+S\"}"
    }

    /// Manual scanning (no timers of its own), so every line comes from the presses.
    func manual(_ extra: String = "") throws -> Profile {
        try profile("{\"scanning\": {\"style\": \"manual\"}, \"switches\": [{\"key\": \"KEY_SPACE\", \"action\": \"next\"}, {\"key\": \"KEY_ENTER\", \"action\": \"select\"}]\(extra)}")
    }

    @Test func aLongHoldPausesAndTheNextResumesAtTheFirstItem() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try manual())
        _ = s.take()
        s.press(at: 1, held: 4)  // next at 1, paused at 4, the release at 5 does nothing
        s.press(at: 6, held: 0.1)  // paused: nothing
        s.press(at: 7, held: 3.5)  // resumed at 10; its release at 10.5 does nothing
        s.press(at: 11, held: 0.1)  // next again
        s.run(until: 12)
        #expect(s.take() == [
            accepted("1.000", "next"), hl("1.000", "b"),
            paused("4.000"), scan("4.000", "stopped"),
            resumed("10.000"), scan("10.000", "started"), hl("10.000", "a"),
            accepted("11.000", "next"), hl("11.000", "b"),
        ])
    }

    @Test func whilePausedAutoScanningStandsStillAndTheMenuCloses() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("{}"))
        _ = s.take()
        s.press(at: 0.5, held: 3.2)  // select opens the menu on a; paused at 3.5
        s.run(until: 20)
        #expect(s.take() == [
            accepted("0.500"),
            menuOnA,
            hl("0.500", "menu:tap", "menuItem"), hl("1.500", "menu:gestures", "menuItem"), hl("2.500", "menu:device", "menuItem"),
            paused("3.500"), "{\"t\":3.500,\"type\":\"menu\",\"open\":false}", scan("3.500", "stopped"),
        ])
        #expect(s.engine.isPaused)
        #expect(s.engine.nextDeadline() == nil)
    }

    @Test func theChordPausesAndResumesAndIsNotASwitchPress() throws {
        // The chord's S is also a switch here: completing the chord consumes it.
        let p = try profile("{\"scanning\": {\"style\": \"manual\"}, \"switches\": [{\"key\": \"KEY_S\", \"action\": \"next\"}]}")
        var s = EngineScript(tree: try threeButtonTree(), profile: p)
        _ = s.take()
        for code: UInt16 in [29, 56, 42] { s.key(code, 1, at: 1) }
        s.press(31, at: 1.5)  // Ctrl+Alt+Shift+S
        s.press(31, at: 2)  // S again, modifiers still held: resume
        for code: UInt16 in [29, 56, 42] { s.key(code, 0, at: 3) }
        s.press(31, at: 4)  // S alone: a switch press
        #expect(s.take() == [
            byChord("1.500", "paused"), scan("1.500", "stopped"),
            byChord("2.000", "resumed"), scan("2.000", "started"), hl("2.000", "a"),
            accepted("4.000", "next", "KEY_S"), hl("4.000", "b"),
        ])
    }

    @Test func aChordOnlyKeyboardNeverActsAsASwitch() throws {
        let keyboard = DeviceDescription(name: "keyboard", codes: [EventCodes.EV_KEY: Set(1...100)])
        var engine = Engine(tree: try threeButtonTree(), profile: try manual(), devices: [EngineScript.switchBox, keyboard], chordOnly: [1])
        var lines = engine.start(at: .zero).map(TranscriptFormat.jsonl)
        func key(_ code: UInt16, _ value: Int32, _ t: Double, device: Int) {
            lines += engine.handle(frame: InputFrame(time: .seconds(t), events: [InputEvent(type: EventCodes.EV_KEY, code: code, value: value)]),
                                   device: device).map(TranscriptFormat.jsonl)
        }
        key(EventCodes.KEY_SPACE, 1, 1, device: 1)  // Space on the keyboard: not the switch
        key(EventCodes.KEY_SPACE, 0, 5, device: 1)  // (held 4 s: not a pause hold either)
        for code: UInt16 in [97, 100, 54, 31] { key(code, 1, 6, device: 1) }  // right Ctrl, Alt, Shift + S
        key(EventCodes.KEY_SPACE, 1, 7, device: 0)  // the switch, paused: nothing
        key(EventCodes.KEY_SPACE, 0, 7.1, device: 0)
        lines += engine.advance(to: .seconds(12)).map(TranscriptFormat.jsonl)
        #expect(lines == [
            scan("0.000", "started"), hl("0.000", "a"),
            byChord("6.000", "paused"), scan("6.000", "stopped"),
        ])
    }

    @Test func aSwitchHeldAtTheResumeIsIgnoredUntilReleasedEvenWhenTheChordResumed() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try manual())
        _ = s.take()
        for code: UInt16 in [29, 56, 42, 31] { s.key(code, 1, at: 1) }  // paused by the chord
        s.key(EventCodes.KEY_SPACE, 1, at: 2)  // the switch goes down while paused
        s.key(31, 0, at: 2.5)
        s.key(31, 1, at: 3)  // resumed by the chord, the switch still down
        s.key(EventCodes.KEY_SPACE, 0, at: 3.5)  // its release: nothing
        s.press(at: 4)
        #expect(s.take() == [
            byChord("1.000", "paused"), scan("1.000", "stopped"),
            byChord("3.000", "resumed"), scan("3.000", "started"), hl("3.000", "a"),
            accepted("4.000", "next"), hl("4.000", "b"),
        ])
    }

    @Test func aLayoutWhilePausedWaitsForTheResume() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try manual())
        _ = s.take()
        s.press(at: 0, held: 3.1)
        s.layout(try loadTree("""
            {"root": {"id": "root", "frame": [0, 0, 390, 844], "children": [
              {"id": "x", "label": "X", "traits": ["button"], "frame": [0, 0, 100, 50]}]}}
            """), at: 4)
        s.press(at: 5, held: 3.1)
        #expect(s.take() == [
            accepted("0.000", "next"), hl("0.000", "b"),
            paused("3.000"), scan("3.000", "stopped"),
            resumed("8.000"), scan("8.000", "started"), entry("8.000", "x", "X, button", "item"),
        ])
    }

    @Test func theScreenAsASwitchPausesByALongTouch() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile("{\"touchAccommodations\": {\"touchAsSwitch\": \"select\"}, \"switches\": []}"))
        _ = s.take()
        s.touch(at: 0.5, from: (10, 10), held: 3.5)
        s.run(until: 5)
        #expect(s.take() == [
            accepted("0.500", "select", "touchscreen"),
            menuOnA,
            hl("0.500", "menu:tap", "menuItem"), hl("1.500", "menu:gestures", "menuItem"), hl("2.500", "menu:device", "menuItem"),
            paused("3.500", "touchscreen"), "{\"t\":3.500,\"type\":\"menu\",\"open\":false}", scan("3.500", "stopped"),
        ])
    }

    @Test func touchesDoNothingWhilePaused() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try manual())
        _ = s.take()
        s.press(at: 0, held: 3.1)
        s.touch(at: 4, from: (50, 25))  // on "a": no tap while paused
        s.press(at: 5, held: 3.1)
        s.touch(at: 9, from: (50, 25))
        #expect(s.take() == [
            accepted("0.000", "next"), hl("0.000", "b"),
            paused("3.000"), scan("3.000", "stopped"),
            resumed("8.000"), scan("8.000", "started"), hl("8.000", "a"),
            "{\"t\":9.050,\"type\":\"touch\",\"decision\":\"tap\",\"point\":[50,25],\"id\":\"a\",\"label\":\"A, button\",\"contact\":1}",
            "{\"t\":9.050,\"type\":\"perform\",\"action\":\"activate\",\"id\":\"a\",\"label\":\"A, button\",\"point\":[50,25],\"source\":\"touch\"}",
        ])
    }

    @Test func unpluggingTheHeldSwitchDropsTheHold() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try manual())
        _ = s.take()
        s.key(EventCodes.KEY_SPACE, 1, at: 0)
        s.removeDevice(0, at: 1)
        s.run(until: 10)
        #expect(s.take() == [accepted("0.000", "next"), hl("0.000", "b")])
        #expect(!s.engine.isPaused)
    }

    @Test func pauseHoldZeroAndNoChordTurnTheExitOff() throws {
        var s = EngineScript(tree: try threeButtonTree(), profile: try manual(", \"safetyExit\": {\"pauseHold\": 0, \"pauseChord\": null}"))
        _ = s.take()
        s.press(at: 0, held: 30)
        for code: UInt16 in [29, 56, 42, 31] { s.key(code, 1, at: 31) }
        #expect(s.take() == [accepted("0.000", "next"), hl("0.000", "b")])
    }

    @Test func theTextTranscriptSaysWhatPausedAndHow() {
        let hold = TranscriptLine(t: .seconds(4), .pause(PauseChange(.paused, .hold(switchName: "KEY_SPACE", held: .seconds(3)))))
        let chord = TranscriptLine(t: .seconds(9), .pause(PauseChange(.resumed, .chord("Ctrl+Alt+Shift+S"))))
        #expect(TranscriptFormat.text(hold) == "   4.000  pause      paused: KEY_SPACE held 3.000s")
        #expect(TranscriptFormat.text(chord) == "   9.000  pause      resumed: Ctrl+Alt+Shift+S")
    }
}
