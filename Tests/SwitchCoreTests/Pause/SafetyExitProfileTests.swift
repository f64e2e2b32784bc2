import SwitchCore
import Testing

/// `"safetyExit"` in a profile: defaults, the default moved past the profile's own holds, and
/// the errors that name the setting.
@Suite("Safety exit settings")
struct SafetyExitProfileTests {
    func decode(_ json: String) throws(InputError) -> Profile { try ProfileDecoder.decode(Array(json.utf8), file: "p.json") }

    func error(_ json: String) -> String {
        do {
            _ = try decode(json)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func onByDefaultWithThreeSecondsAndCtrlAltShiftS() throws {
        let p = try decode("{}")
        #expect(p.pauseHold == .seconds(3))
        #expect(p.safetyExit.pauseHold == nil)
        #expect(p.safetyExit.pauseChord?.description == "Ctrl+Alt+Shift+S")
    }

    @Test func theDefaultHoldStaysTwoSecondsLongerThanTheProfilesOwnHolds() throws {
        #expect(try decode(#"{"switchStabilization": {"holdDuration": 2.5}}"#).pauseHold == .seconds(4.5))
        #expect(try decode(#"{"switchStabilization": {"holdDuration": 0.5}}"#).pauseHold == .seconds(3))
        let longPress = #"{"switches": [{"key": "KEY_SPACE", "action": "select", "longPressAction": "escape"}], "switchStabilization": {"longPress": 4}}"#
        #expect(try decode(longPress).pauseHold == .seconds(6))
        // A long press without a long-press action never fires: it does not move the default.
        #expect(try decode(#"{"switchStabilization": {"longPress": 4}}"#).pauseHold == .seconds(3))
    }

    @Test func explicitValues() throws {
        let p = try decode(#"{"safetyExit": {"pauseHold": 5, "pauseChord": "Ctrl+Meta+KEY_F12"}}"#)
        #expect(p.pauseHold == .seconds(5))
        #expect(p.safetyExit.pauseChord?.description == "Ctrl+Meta+KEY_F12")
        let off = try decode(#"{"safetyExit": {"pauseHold": 0, "pauseChord": null}}"#)
        #expect(off.pauseHold == .zero)
        #expect(off.safetyExit.pauseChord == nil)
        #expect(try decode(#"{"safetyExit": {"pauseChord": ""}}"#).safetyExit.pauseChord == nil)
    }

    /// `profiles show` writes the hold in force, the default included; reading it back gives the
    /// same profile (an explicit hold equal to the default is the default).
    @Test func profilesShowWritesTheHoldInForce() throws {
        let p = try decode(#"{"switchStabilization": {"holdDuration": 2.5}, "safetyExit": {"pauseChord": "Ctrl+KEY_F12"}}"#)
        let text = ProfileEncoder.encode(p).rendered()
        #expect(text.contains(#""safetyExit":{"pauseHold":4.5,"pauseChord":"Ctrl+KEY_F12"},"menu":"#))
        #expect(try decode(text) == p)
        let off = try decode(#"{"safetyExit": {"pauseHold": 0, "pauseChord": null}}"#)
        #expect(ProfileEncoder.encode(off).rendered().contains(#""safetyExit":{"pauseHold":0,"pauseChord":null},"menu":"#))
        #expect(try decode(ProfileEncoder.encode(off).rendered()) == off)
    }

    @Test func badValuesNameTheSetting() {
        #expect(error(#"{"safetyExit": {"pauseHold": 0.5}}"#) == "p.json:1:30: safetyExit.pauseHold: expected 0 (off) or 1 to 60 seconds, found 0.5")
        #expect(error(#"{"safetyExit": {"pauseHold": 61}}"#).hasPrefix("p.json:1:30: safetyExit.pauseHold: "))
        #expect(error(#"{"safetyExit": {"pauseChord": "Ctrl+Hyper"}}"#)
                == "p.json:1:31: safetyExit.pauseChord: \"Hyper\" is not a key (expected Ctrl, Alt, Shift, Meta, a letter or digit, or an evdev key name such as KEY_F12)")
        #expect(error(#"{"safetyExit": {"pauseChord": 5}}"#).hasPrefix("p.json:1:31: safetyExit.pauseChord: "))
        #expect(error(#"{"safetyExit": {"pauseHld": 3}}"#).contains("unknown key \"pauseHld\""))
    }

    @Test func anExplicitHoldNotLongerThanTheProfilesOwnHoldsIsAnError() {
        #expect(error(#"{"switchStabilization": {"holdDuration": 3}, "safetyExit": {"pauseHold": 3}}"#)
                == "p.json:1:74: safetyExit.pauseHold: 3.0 s is not longer than switchStabilization.holdDuration (3.0 s): every accepted press would also pause; make it longer, or 0 to turn the hold off")
        #expect(error(#"{"switches": [{"key": "KEY_SPACE", "action": "select", "longPressAction": "escape"}], "switchStabilization": {"longPress": 2}, "safetyExit": {"pauseHold": 1.5}}"#)
                .contains("safetyExit.pauseHold: 1.5 s is not longer than switchStabilization.longPress (2.0 s): the long-press action could never fire"))
        // The keys may come in any order.
        #expect(error(#"{"safetyExit": {"pauseHold": 2}, "switchStabilization": {"holdDuration": 2.5}}"#).contains("not longer than switchStabilization.holdDuration"))
    }
}
