import SwitchCore
import Testing

/// Every `switchStabilization` and `touchAccommodations` setting changes the transcript as the
/// manual describes (docs/profiles.md): the same input, with the setting off and on, through the whole engine.
@Suite("Settings change the transcript")
struct SettingEffectTests {
    /// A press at 0.5 s held 0.1 s, and another at 0.7 s held 0.1 s (a tremor's second press).
    func doublePress(_ profileJSON: String) throws -> [String] {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile(profileJSON))
        _ = s.take()
        s.press(at: 0.5, held: 0.1)
        s.press(at: 0.7, held: 0.1)
        s.run(until: 0.9)
        return s.take().filter { $0.contains("\"filter\"") }
    }

    @Test func ignoreRepeatFromTheAcceptedPress() throws {
        #expect(try doublePress("{\"scanning\": {\"style\": \"manual\"}, \"switches\": [{\"key\": \"KEY_SPACE\", \"action\": \"next\"}]}")
            == [accepted("0.500", "next"), accepted("0.700", "next")])
        #expect(try doublePress("{\"scanning\": {\"style\": \"manual\"}, \"switches\": [{\"key\": \"KEY_SPACE\", \"action\": \"next\"}], \"switchStabilization\": {\"ignoreRepeat\": 0.25}}")
            == [accepted("0.500", "next"), rejected("0.700", "ignoreRepeat")])
        // 0.2 s after the accepted press is outside a 0.2 s window (a press at exactly T counts).
        #expect(try doublePress("{\"scanning\": {\"style\": \"manual\"}, \"switches\": [{\"key\": \"KEY_SPACE\", \"action\": \"next\"}], \"switchStabilization\": {\"ignoreRepeat\": 0.2}}")
            == [accepted("0.500", "next"), accepted("0.700", "next")])
    }

    @Test func ignoreRepeatFromTheRelease() throws {
        // The first release is at 0.6: from it, a 0.15 s window covers the press at 0.7; from the
        // accepted press (0.5) it does not.
        let base = "{\"scanning\": {\"style\": \"manual\"}, \"switches\": [{\"key\": \"KEY_SPACE\", \"action\": \"next\"}], \"switchStabilization\": {\"ignoreRepeat\": 0.15"
        #expect(try doublePress(base + "}}") == [accepted("0.500", "next"), accepted("0.700", "next")])
        #expect(try doublePress(base + ", \"ignoreRepeatFrom\": \"release\"}}") == [accepted("0.500", "next"), rejected("0.700", "ignoreRepeat")])
    }

    @Test func debounceSwallowsChatterAndZeroTurnsItOff() throws {
        func chatter(_ json: String) throws -> [String] {
            var s = EngineScript(tree: try threeButtonTree(), profile: try profile(json))
            _ = s.take()
            s.key(EventCodes.KEY_SPACE, 1, at: 0.500)
            s.key(EventCodes.KEY_SPACE, 0, at: 0.505)
            s.key(EventCodes.KEY_SPACE, 1, at: 0.512)
            s.key(EventCodes.KEY_SPACE, 0, at: 0.600)
            s.run(until: 0.9)
            return s.take().filter { $0.contains("\"filter\"") }
        }
        let manual = "{\"scanning\": {\"style\": \"manual\"}, \"switches\": [{\"key\": \"KEY_SPACE\", \"action\": \"next\"}]"
        #expect(try chatter(manual + "}") == [accepted("0.500", "next"), rejected("0.512", "debounce")])
        #expect(try chatter(manual + ", \"switchStabilization\": {\"debounce\": 0}}") == [accepted("0.500", "next"), accepted("0.512", "next")])
    }

    @Test func holdDurationAcceptsAtPressPlusHold() throws {
        let manual = "{\"scanning\": {\"style\": \"manual\"}, \"switches\": [{\"key\": \"KEY_SPACE\", \"action\": \"next\"}]"
        #expect(try doublePress(manual + ", \"switchStabilization\": {\"holdDuration\": 0.1}}") == [accepted("0.600", "next"), accepted("0.800", "next")])
        #expect(try doublePress(manual + ", \"switchStabilization\": {\"holdDuration\": 0.101}}") == [rejected("0.600", "holdDuration"), rejected("0.800", "holdDuration")])
    }

    @Test func longPressMovesTheShortActionToTheRelease() throws {
        let lp = "{\"scanning\": {\"style\": \"manual\"}, \"switches\": [{\"key\": \"KEY_SPACE\", \"action\": \"next\", \"longPressAction\": \"stopScanning\"}]"
        #expect(try doublePress(lp + "}") == [accepted("0.500", "next"), accepted("0.700", "next")])   // longPress 0: ignored
        #expect(try doublePress(lp + ", \"switchStabilization\": {\"longPress\": 1}}") == [accepted("0.600", "next"), accepted("0.800", "next")])
    }

    @Test func moveRepeatRepeatsAHeldNext() throws {
        func hold(_ json: String) throws -> [String] {
            var s = EngineScript(tree: try threeButtonTree(), profile: try profile(json))
            _ = s.take()
            s.press(at: 0.5, held: 1.0)
            return s.take().filter { $0.contains("highlight") }
        }
        let manual = "{\"scanning\": {\"style\": \"manual\", \"moveRepeat\": 0.3}, \"switches\": [{\"key\": \"KEY_SPACE\", \"action\": \"next\"}]}"
        #expect(try hold(manual) == [hl("0.500", "b"), hl("0.800", "c"), hl("1.100", "vol"), hl("1.400", "a")])
        #expect(try hold(manual.replacingOccurrences(of: ", \"moveRepeat\": 0.3", with: "")) == [hl("0.500", "b")])
    }

    // Touch accommodations.

    func touches(_ json: String, _ script: (inout EngineScript) -> Void) throws -> [String] {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile(json))
        _ = s.take()
        script(&s)
        return s.take().filter { $0.contains("\"type\":\"touch\"") }
    }

    @Test func touchIgnoreRepeatDropsTouchesStartingSoonAfterAnAcceptedOne() throws {
        func three(_ s: inout EngineScript) {
            s.touch(id: 1, at: 1.0, from: (50, 20), held: 0.05)
            s.touch(id: 2, at: 1.1, from: (52, 21), held: 0.05)
            s.touch(id: 3, at: 1.2, from: (49, 22), held: 0.05)
        }
        let off = try touches("{\"switches\": [], \"touchAccommodations\": {\"output\": \"activate\"}}", three)
        #expect(off.count == 3 && off.allSatisfy { $0.contains("\"tap\"") })
        #expect(try touches("{\"switches\": [], \"touchAccommodations\": {\"output\": \"activate\", \"ignoreRepeat\": 0.3}}", three) == [
            "{\"t\":1.050,\"type\":\"touch\",\"decision\":\"tap\",\"point\":[50,20],\"id\":\"a\",\"label\":\"A, button\",\"contact\":1}",
            "{\"t\":1.100,\"type\":\"touch\",\"decision\":\"rejected\",\"reason\":\"ignoreRepeat\",\"point\":[52,21],\"contact\":2}",
            "{\"t\":1.200,\"type\":\"touch\",\"decision\":\"rejected\",\"reason\":\"ignoreRepeat\",\"point\":[49,22],\"contact\":3}",
        ])
    }

    @Test func tapAssistanceChoosesTheInitialOrFinalLocationOfAWanderingTouch() throws {
        func wander(_ s: inout EngineScript) { s.touch(at: 1.0, from: (50, 20), to: (170, 30), held: 0.3) }
        // Off: it moved more than 10 points, so it is a swipe.
        #expect(try touches("{\"switches\": [], \"touchAccommodations\": {\"output\": \"activate\"}}", wander) == [
            "{\"t\":1.300,\"type\":\"touch\",\"decision\":\"swipe\",\"from\":[50,20],\"to\":[170,30],\"direction\":\"right\",\"contact\":1}",
        ])
        #expect(try touches("{\"switches\": [], \"touchAccommodations\": {\"output\": \"activate\", \"tapAssistance\": \"initial\"}}", wander) == [
            "{\"t\":1.300,\"type\":\"touch\",\"decision\":\"tap\",\"point\":[50,20],\"id\":\"a\",\"label\":\"A, button\",\"contact\":1}",
        ])
        #expect(try touches("{\"switches\": [], \"touchAccommodations\": {\"output\": \"activate\", \"tapAssistance\": \"final\"}}", wander) == [
            "{\"t\":1.300,\"type\":\"touch\",\"decision\":\"tap\",\"point\":[170,30],\"id\":\"b\",\"label\":\"B, button\",\"contact\":1}",
        ])
    }

    @Test func theGestureDelayTurnsALongTouchIntoAGesture() throws {
        func long(_ s: inout EngineScript) { s.touch(at: 1.0, from: (50, 20), to: (170, 30), held: 0.3) }
        // Lifted at 0.3 s: a tap with a 0.5 s delay; with a 0.2 s delay, a gesture from where the
        // finger was when the delay ran out (it had already moved to (170, 30) and stayed): a hold.
        #expect(try touches("{\"switches\": [], \"touchAccommodations\": {\"output\": \"activate\", \"tapAssistance\": \"initial\", \"tapAssistanceGestureDelay\": 0.5}}", long).first?.contains("\"tap\"") == true)
        #expect(try touches("{\"switches\": [], \"touchAccommodations\": {\"output\": \"activate\", \"tapAssistance\": \"initial\", \"tapAssistanceGestureDelay\": 0.2}}", long) == [
            "{\"t\":1.300,\"type\":\"touch\",\"decision\":\"hold\",\"point\":[170,30],\"contact\":1}",
        ])
        // Moving on after the delay makes it a swipe from the point where the delay ran out.
        #expect(try touches("{\"switches\": [], \"touchAccommodations\": {\"output\": \"activate\", \"tapAssistance\": \"initial\", \"tapAssistanceGestureDelay\": 0.1}}", long) == [
            "{\"t\":1.300,\"type\":\"touch\",\"decision\":\"swipe\",\"from\":[50,20],\"to\":[170,30],\"direction\":\"right\",\"contact\":1}",
        ])
    }

    @Test func touchAsSwitchTurnsTouchesIntoSelects() throws {
        var on = EngineScript(tree: try threeButtonTree(), profile: try profile("{\"switches\": [], \"touchAccommodations\": {\"touchAsSwitch\": \"select\"}}"))
        on.touch(at: 0.5, from: (380, 800), held: 0.1)
        #expect(on.take().contains(accepted("0.500", "select", "touchscreen")))
        var off = EngineScript(tree: try threeButtonTree(), profile: try profile("{\"switches\": [], \"touchAccommodations\": {\"output\": \"activate\"}}"))
        off.touch(at: 0.5, from: (380, 800), held: 0.1)
        #expect(off.take() == ["{\"t\":0.600,\"type\":\"touch\",\"decision\":\"tap\",\"point\":[380,800],\"id\":null,\"label\":null,\"contact\":1}"])
    }
}
