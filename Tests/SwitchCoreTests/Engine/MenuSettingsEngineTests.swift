import SwitchCore
import Testing

/// Settings and Pause from the scanner menu inside the engine (issue 23): the change is a line,
/// takes effect at once and is kept in the engine's profile (what `run` saves); Pause goes
/// through the safety exit and is resumed by it. Auto scanning with a select switch (space) and
/// a next switch (Enter), so the menu is reached by presses at exact times.
@Suite("Menu settings in the engine")
struct MenuSettingsEngineTests {
    static let twoSwitches = #"{"switches": [{"key": "KEY_SPACE", "action": "select"}, {"key": "KEY_ENTER", "action": "next"}]"#

    /// The Settings page open on a (presses every 0.2 s from 0.5 s): Faster is highlighted at `t`.
    static func onSettings(_ extra: String = "") throws -> (EngineScript, Double) {
        var s = EngineScript(tree: try threeButtonTree(), profile: try profile(twoSwitches + extra + "}"))
        s.press(at: 0.5)                                  // the menu on a
        var t = 0.7
        for _ in 0..<4 { s.press(28, at: t); t += 0.2 }   // Gestures, Device, Shortcuts, Settings
        s.press(at: t)                                    // the Settings page, on Faster (1.5 s)
        _ = s.take()
        return (s, t)
    }

    @Test func slowerThreeTimesLengthensTheDwellAndTheProfile() throws {
        var (s, t) = try Self.onSettings()
        s.press(28, at: t + 0.2)                          // Slower
        for k in 0..<3 { s.press(at: t + 0.4 + 0.2 * Double(k)) }
        let lines = s.take()
        #expect(lines.filter { $0.contains("\"type\":\"setting\"") } == [
            #"{"t":1.900,"type":"setting","name":"autoScanningTime","from":1.0,"to":1.1}"#,
            #"{"t":2.100,"type":"setting","name":"autoScanningTime","from":1.1,"to":1.2}"#,
            #"{"t":2.300,"type":"setting","name":"autoScanningTime","from":1.2,"to":1.3}"#,
        ])
        #expect(s.engine.profile.scanning.autoScanningTime == .seconds(1.3))
        // The highlight stays on Slower; the next stop comes 1.3 s later, and the next after that.
        s.run(until: 5)
        #expect(s.take() == [hl("3.600", "menu:autoScanning", "menuItem"), hl("4.900", "menu:speech", "menuItem")])
    }

    @Test func aSettingIsNotASelectionButAGestureIs() throws {
        var (s, t) = try Self.onSettings()
        s.press(at: t + 0.2)                              // Faster
        let lines = s.take()
        #expect(!lines.contains { $0.contains("\"type\":\"perform\"") })
        #expect(lines.first == #"{"t":1.700,"type":"filter","switch":"KEY_SPACE","decision":"accepted","action":"select"}"#)
        #expect(lines.dropFirst().first == #"{"t":1.700,"type":"setting","name":"autoScanningTime","from":1.0,"to":0.9}"#)
    }

    @Test func speechAndSoundsAreKeptInTheProfile() throws {
        var (s, t) = try Self.onSettings()
        for _ in 0..<3 { t += 0.2; s.press(28, at: t) }  // Slower, Auto scanning, Speech
        s.press(at: t + 0.2)
        #expect(s.take().suffix(5) == [
            #"{"t":2.300,"type":"filter","switch":"KEY_SPACE","decision":"accepted","action":"select"}"#,
            #"{"t":2.300,"type":"setting","name":"speech","from":false,"to":true}"#,
            #"{"t":2.300,"type":"menu","open":false}"#, hl("2.300", "a"),
            #"{"t":2.300,"type":"speak","text":"A, button"}"#,
        ])
        #expect(s.engine.profile.scanning.speech)
        var (u, v) = try Self.onSettings()
        for _ in 0..<4 { v += 0.2; u.press(28, at: v) }  // … Sounds
        u.press(at: v + 0.2)
        #expect(u.take().contains(#"{"t":2.500,"type":"setting","name":"soundEffects","from":false,"to":true}"#))
        #expect(u.engine.profile.scanning.soundEffects)
    }

    @Test func autoScanningOffIsKeptAndNextStillMoves() throws {
        var (s, t) = try Self.onSettings()
        for _ in 0..<2 { t += 0.2; s.press(28, at: t) }  // Slower, Auto scanning
        s.press(at: t + 0.2)
        #expect(s.take().contains(#"{"t":2.100,"type":"setting","name":"style","from":"auto","to":"manual"}"#))
        #expect(s.engine.profile.scanning.style == .manual)
        s.run(until: 10)
        #expect(s.take().isEmpty)
        s.press(28, at: 10)
        #expect(s.take() == [accepted("10.000", "next", "KEY_ENTER"), hl("10.000", "b")])
    }

    @Test func pauseFromTheMenuReleasesTheSwitchesAndTheHoldResumes() throws {
        var (s, t) = try Self.onSettings()
        for _ in 0..<5 { t += 0.2; s.press(28, at: t) }  // … Pause (at 2.5 s)
        _ = s.take()
        s.key(EventCodes.KEY_SPACE, 1, at: 2.7)           // chosen; still held: it is spent
        s.run(until: 6)
        s.key(EventCodes.KEY_SPACE, 0, at: 6)
        #expect(s.take() == [
            accepted("2.700"),
            #"{"t":2.700,"type":"menu","open":false}"#,
            #"{"t":2.700,"type":"pause","state":"paused","by":"menu"}"#,
            #"{"t":2.700,"type":"scan","state":"stopped"}"#,
        ])
        #expect(s.engine.isPaused)
        #expect(s.engine.nextDeadline() == nil)
        // The person resumes alone: a hold of pauseHold (3 s).
        s.key(EventCodes.KEY_SPACE, 1, at: 7)
        s.run(until: 10.5)
        #expect(s.take().prefix(3) == [
            #"{"t":10.000,"type":"pause","state":"resumed","by":"hold","switch":"KEY_SPACE"}"#,
            #"{"t":10.000,"type":"scan","state":"started"}"#, hl("10.000", "a"),
        ])
        #expect(!s.engine.isPaused)
    }

    @Test func pauseIsOfferedOnlyWithAPauseHold() throws {
        var e = EngineScript(tree: try threeButtonTree(), profile: try profile(Self.twoSwitches + #", "safetyExit": {"pauseHold": 0}}"#))
        e.press(at: 0.5)
        var t = 0.7
        for _ in 0..<4 { e.press(28, at: t); t += 0.2 }
        e.press(at: t)
        let page = e.take().first { $0.contains("\"submenu\":\"menu:settings\"") }
        #expect(page?.contains(#""items":["menu:faster","menu:slower","menu:autoScanning","menu:speech","menu:sounds","menu:back","menu:close"]"#) == true)
    }

    @Test func theMenuContextFollowsTheProfile() throws {
        let one = MenuContext(profile: try profile("{}"))
        #expect(!one.canMoveWithoutTimer)
        #expect(one.canResumeFromPause)
        let long = MenuContext(profile: try profile(#"{"switches": [{"key": "KEY_SPACE", "action": "select", "longPressAction": "next"}], "switchStabilization": {"longPress": 1}}"#))
        #expect(long.canMoveWithoutTimer)
        let off = MenuContext(profile: try profile(#"{"switches": [{"key": "KEY_SPACE", "action": "select", "longPressAction": "next"}]}"#))
        #expect(!off.canMoveWithoutTimer)  // longPress 0: the long action never fires
        #expect(!MenuContext(profile: try profile(#"{"safetyExit": {"pauseHold": 0}}"#)).canResumeFromPause)
    }
}
