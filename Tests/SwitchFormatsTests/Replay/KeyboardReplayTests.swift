import SwitchCore
import SwitchFormats
import Testing

/// The real keyboard recordings (Fixtures/recordings/evemu-devices) replayed through the real
/// engine with a profile that binds the recorded keys, scanning the bundled demo tree.
///
/// How the expected numbers were counted (by hand, once, from the `E:` lines; both files are
/// short enough to read whole): a press is an `EV_KEY` value 1, a release value 0, an autorepeat
/// value 2, per key.
///
/// Logitech K400 Plus (6 frames):
///     0.000001   KEY_ENTER 0        a release: Enter was down when recording started (no press)
///     11.228233  KEY_LEFTCTRL 1     press
///     11.476442  KEY_LEFTCTRL 2     autorepeat (248 ms after the press, then every ~33 ms)
///     11.509776  KEY_LEFTCTRL 2     autorepeat
///     11.543110  KEY_LEFTCTRL 2     autorepeat
///     11.576222  KEY_C 1            press (Ctrl+C; the recording ends with both keys down)
/// → KEY_LEFTCTRL 1 press and 3 autorepeats, KEY_C 1 press, KEY_ENTER 0 presses.
///
/// Lenovo ThinkPad Compact USB Keyboard (3 frames):
///     0.000001   KEY_ENTER 0        a release without a press
///     1.399994   KEY_LEFTCTRL 1     press
///     1.560031   KEY_C 1            press (both still down at the end)
/// → KEY_LEFTCTRL 1, KEY_C 1, KEY_ENTER 0; no autorepeat.
///
/// Scanning (demo tree, auto, 1 s per item, tap behavior alwaysTap so a select activates at
/// once): items in scan order edit, add, search, cupertino, london, tokyo, nairobi, lima,
/// celsius, fahrenheit, refresh, alerts, …, one per second from t = 0, so at 11.228 s `alerts`
/// (index 11) is highlighted and at 1.400 s `add` (index 1); after an activation scanning
/// resumes at the first item, `edit`.
@Suite("Replay: real keyboards")
struct KeyboardReplayTests {
    static let k400 = "Logitech_K400_Plus.events"
    static let lenovo = "Lenovo_ThinkPad_Compact_USB_Keyboard_with_TrackPoint.keyboard.events"

    /// Ctrl and C select, Enter selects too (it is never pressed in these recordings).
    static func keyboardProfile(_ configure: (inout Profile) -> Void = { _ in }) -> Profile {
        var p = Profile()
        p.name = "replay: keyboard"
        p.scanning.style = .auto
        p.scanning.autoScanningTime = .seconds(1)
        p.scanning.tapBehavior = .alwaysTap
        p.switches = [
            SwitchBinding(keyName: "KEY_LEFTCTRL", code: 29, action: .select),
            SwitchBinding(keyName: "KEY_C", code: 46, action: .select),
            SwitchBinding(keyName: "KEY_ENTER", code: 28, action: .select),
        ]
        configure(&p)
        return p
    }

    static func replay(_ file: String, until seconds: Double, _ configure: (inout Profile) -> Void = { _ in }) throws -> ReplayResult {
        let recording = try Replay.recording(file)
        return ReplayResult(lines: Replay.transcript(recording, tree: try Replay.demoTree(), profile: keyboardProfile(configure),
                                                     until: .seconds(seconds)))
    }

    @Test func theBoundCodesAreTheRecordedKeys() {
        for (name, code) in [("KEY_LEFTCTRL", 0x1d), ("KEY_C", 0x2e), ("KEY_ENTER", 0x1c)] as [(String, UInt16)] {
            #expect(EventCodes.code(named: name)?.type == EventCodes.EV_KEY)
            #expect(EventCodes.code(named: name)?.code == code)
        }
    }

    @Test func k400OnePressPerKeyAndThreeAutorepeats() throws {
        let r = try Self.replay(Self.k400, until: 13)
        #expect(r.accepted("KEY_LEFTCTRL") == [.µs(11_228_233)])
        #expect(r.accepted("KEY_C") == [.µs(11_576_222)])
        #expect(r.filterLines.filter { $0.key == "KEY_ENTER" }.isEmpty)
        #expect(r.rejected("KEY_LEFTCTRL", .autorepeat) == [.µs(11_476_442), .µs(11_509_776), .µs(11_543_110)])
        #expect(r.filterLines.count == 5)
        // Ctrl selects `alerts`; scanning resumes at `edit`, which C selects 348 ms later.
        #expect(r.performs.map(\.id) == ["alerts", "edit"])
        #expect(r.performs.map(\.t) == [.µs(11_228_233), .µs(11_576_222)])
    }

    @Test func lenovoOnePressPerKey() throws {
        let r = try Self.replay(Self.lenovo, until: 3)
        #expect(r.accepted("KEY_LEFTCTRL") == [.µs(1_399_994)])
        #expect(r.accepted("KEY_C") == [.µs(1_560_031)])
        #expect(r.filterLines.count == 2)
        #expect(r.performs.map(\.id) == ["add", "edit"])
    }

    /// Hold duration 0.3 s: neither key is ever released, so both count, each 0.3 s after its
    /// press (the autorepeats don't end the hold). Same number of presses, later.
    @Test func holdDurationDelaysAcceptanceOfKeysThatStayDown() throws {
        let r = try Self.replay(Self.k400, until: 13) { $0.switchStabilization.holdDuration = .seconds(0.3) }
        #expect(r.accepted("KEY_LEFTCTRL") == [.µs(11_528_233)])
        #expect(r.accepted("KEY_C") == [.µs(11_876_222)])
        #expect(r.rejected("KEY_LEFTCTRL", .autorepeat).count == 3)
        #expect(r.filterLines.filter { if case .rejected(.holdDuration) = $0.decision { return true }; return false }.isEmpty)
    }

    /// Hold duration 0.8 s: Ctrl is accepted at 12.028233, after the highlight moved on from
    /// `alerts` to `tabWeather` at 12.000 (scanning keeps going while a press waits). With
    /// `selectTarget: press` (default) the select applies to `alerts`, highlighted at the
    /// physical press; with `accept` to `tabWeather`. C (pressed at 11.576, accepted at 12.376)
    /// comes after the resume that Ctrl's activation caused, so its snapshot no longer applies:
    /// it selects `edit` either way.
    @Test func selectTargetPressVersusAccept() throws {
        let press = try Self.replay(Self.k400, until: 13) { $0.switchStabilization.holdDuration = .seconds(0.8) }
        let accept = try Self.replay(Self.k400, until: 13) {
            $0.switchStabilization.holdDuration = .seconds(0.8)
            $0.switchStabilization.selectTarget = .accept
        }
        for r in [press, accept] {
            #expect(r.accepted("KEY_LEFTCTRL") == [.µs(12_028_233)])
            #expect(r.accepted("KEY_C") == [.µs(12_376_222)])
            #expect(r.lines.contains(TranscriptLine(t: .seconds(12), .highlight(id: "tabWeather", kind: .item, label: "Weather, button, selected"))))
        }
        #expect(press.performs.map(\.id) == ["alerts", "edit"])
        #expect(accept.performs.map(\.id) == ["tabWeather", "edit"])
    }

    /// Long press 0.2 s with Ctrl's long-press action `escape`: Ctrl is held past it, so at
    /// 11.428233 the long-press action fires instead of select (no `accepted` line for Ctrl);
    /// C has no long-press action and selects on its press as before.
    @Test func longPressFiresTheLongPressAction() throws {
        let r = try Self.replay(Self.k400, until: 13) {
            $0.switchStabilization.longPress = .seconds(0.2)
            $0.switches[0].longPressAction = .escape
        }
        #expect(r.longPresses("KEY_LEFTCTRL") == [.µs(11_428_233)])
        #expect(r.accepted("KEY_LEFTCTRL").isEmpty)
        #expect(r.accepted("KEY_C") == [.µs(11_576_222)])
    }

    /// Ignore repeat is per switch: Ctrl and C are two switches, so C 161 ms after Ctrl is not a
    /// repeat, even with a 1 s ignore-repeat time at either anchor. Debounce off changes nothing
    /// either (no chatter in these recordings).
    @Test func ignoreRepeatAndDebounceLeaveDistinctKeysAlone() throws {
        for anchor in [SwitchStabilization.IgnoreRepeatAnchor.acceptedPress, .release] {
            let r = try Self.replay(Self.lenovo, until: 3) {
                $0.switchStabilization.ignoreRepeat = .seconds(1)
                $0.switchStabilization.ignoreRepeatFrom = anchor
            }
            #expect(r.accepted("KEY_LEFTCTRL") == [.µs(1_399_994)])
            #expect(r.accepted("KEY_C") == [.µs(1_560_031)])
        }
        let undebounced = try Self.replay(Self.k400, until: 13) { $0.switchStabilization.debounce = .zero }
        let debounced = try Self.replay(Self.k400, until: 13)
        #expect(undebounced.lines == debounced.lines)
    }

    /// Calibration over the same recording counts the same presses: every setting of a small grid
    /// accepts 2 presses and rejects the 3 autorepeats (hold durations up to 0.3 s: the keys stay
    /// down; ignore repeat: distinct switches).
    @Test func calibrationAgreesWithTheReplay() throws {
        let recording = try Replay.recording(Self.k400)
        let events = try #require(recording.devices.first?.events)
        let grid = try Calibration.Grid(holdDurations: [.zero, .seconds(0.3)], ignoreRepeats: [.zero, .seconds(1)],
                                        debounces: [.zero, .seconds(0.025)])
        let outcomes = Calibration.run(events: events, profile: Self.keyboardProfile(), grid: grid)
        #expect(outcomes.count == 8)
        #expect(outcomes.allSatisfy { $0.accepted == 2 && $0.rejected == Calibration.Rejections(autorepeat: 3) })
    }
}
