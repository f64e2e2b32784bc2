import SwitchCore
import Testing

/// `touchAccommodations.output` (issue 20): where touches go, its default, its contradictions.
@Suite("profile: touchAccommodations.output")
struct TouchOutputProfileTests {
    func load(_ json: String) throws(InputError) -> (Profile, [String]) {
        var warnings: [InputError] = []
        let p = try ProfileDecoder.decode(Array(json.utf8), file: "p.json", warnings: &warnings)
        return (p, warnings.map(\.description))
    }

    func error(_ json: String) -> String? {
        do { _ = try load(json); return nil } catch { return error.description }
    }

    @Test func aProfileWithoutSwitchesPassesTouchesOnByDefault() throws {
        let (touchOnly, _) = try load(#"{"switches": [], "touchAccommodations": {"holdDuration": 0.2}}"#)
        #expect(touchOnly.touchOutput == .virtualTouchscreen && touchOnly.passesTouch)
        #expect(touchOnly.touchAccommodations.output == nil)
        let (withSwitch, _) = try load(#"{"touchAccommodations": {"holdDuration": 0.2}}"#)
        #expect(withSwitch.touchOutput == .activate && !withSwitch.passesTouch, "the default switch (KEY_SPACE) scans: taps activate, as before")
        let (asSwitch, _) = try load(#"{"switches": [], "touchAccommodations": {"touchAsSwitch": "select"}}"#)
        #expect(asSwitch.touchOutput == .activate && !asSwitch.passesTouch)
    }

    @Test func anExplicitOutputWins() throws {
        let (activate, _) = try load(#"{"switches": [], "touchAccommodations": {"output": "activate"}}"#)
        #expect(activate.touchOutput == .activate && !activate.passesTouch)
        let (passed, _) = try load(#"{"touchAccommodations": {"output": "virtualTouchscreen"}}"#)
        #expect(passed.touchOutput == .virtualTouchscreen && passed.passesTouch, "switches scan and touches pass on")
        let (same, _) = try load(#"{"switches": [], "touchAccommodations": {"output": "virtualTouchscreen"}}"#)
        #expect(same.touchAccommodations.output == nil, "the value it would have anyway is stored as the default")
    }

    @Test func virtualTouchscreenWithTouchAsSwitchIsAnError() {
        let e = error(#"{"touchAccommodations": {"touchAsSwitch": "select", "output": "virtualTouchscreen"}}"#)
        #expect(e == "p.json:1:63: touchAccommodations.output: \"virtualTouchscreen\" contradicts touchAsSwitch (\"select\"): with the screen as a switch no touch reaches the desktop; remove one of the two")
    }

    @Test func activateWithTouchAsSwitchIsAWarning() throws {
        let (_, warnings) = try load(#"{"touchAccommodations": {"touchAsSwitch": "next", "output": "activate"}, "scanning": {"style": "manual"}, "switches": [{"key": "KEY_ENTER", "action": "select"}]}"#)
        #expect(warnings == ["p.json:1:61: touchAccommodations.output: does nothing: with touchAsSwitch (\"next\") every touch is a press of the screen as a switch"])
    }

    @Test func aBadValueSaysWhatIsExpected() {
        let e = error(#"{"touchAccommodations": {"output": "uinput"}}"#)
        #expect(e?.hasPrefix("p.json:1:36: touchAccommodations.output: ") == true)
        #expect(e?.contains("\"virtualTouchscreen\"") == true && e?.contains("\"activate\"") == true)
        #expect(error(#"{"touchAccommodations": {"output": 1}}"#)?.hasPrefix("p.json:1:36: touchAccommodations.output: ") == true)
    }

    @Test func profilesShowWritesTheOutputInForceAndItReadsBack() throws {
        for json in [#"{"switches": []}"#, #"{"switches": [], "touchAccommodations": {"output": "activate"}}"#, #"{}"#,
                     #"{"touchAccommodations": {"output": "virtualTouchscreen"}}"#] {
            let (p, _) = try load(json)
            let written = ProfileEncoder.encode(p).rendered()
            #expect(written.contains("\"output\":\"\(p.touchOutput.rawValue)\""))
            let (back, _) = try load(written)
            #expect(back == p, "\(json)")
        }
    }
}
