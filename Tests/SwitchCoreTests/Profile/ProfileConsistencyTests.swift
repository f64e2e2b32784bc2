import Foundation
import SwitchCore
import Testing

/// Issue 12, part 2: contradictory profiles are errors or warnings naming the setting (they
/// loaded silently before).
@Suite("profile consistency")
struct ProfileConsistencyTests {
    func load(_ json: String) throws(InputError) -> (Profile, [String]) {
        var warnings: [InputError] = []
        let p = try ProfileDecoder.decode(Array(json.utf8), file: "p.json", warnings: &warnings)
        return (p, warnings.map(\.description))
    }

    func error(_ json: String) -> String? {
        do { _ = try load(json); return nil } catch { return error.description }
    }

    @Test func manualScanningWithNoNextSwitchIsAnError() {
        let e = error(#"{"scanning": {"style": "manual"}, "switches": [{"key": "KEY_SPACE", "action": "select"}]}"#)
        #expect(e?.hasPrefix("p.json:1:24: scanning.style: \"manual\" scanning moves only when a next or previous switch is pressed") == true)
        #expect(e?.contains("they bind select") == true)
        // With a previous switch it moves: fine.
        #expect(error(#"{"scanning": {"style": "manual"}, "switches": [{"key": "KEY_SPACE", "action": "select"}, {"key": "KEY_A", "action": "previous"}]}"#) == nil)
    }

    @Test func onlyStopScanningBoundIsAnError() {
        let e = error(#"{"switches": [{"key": "KEY_SPACE", "action": "stopScanning"}]}"#)
        #expect(e?.hasPrefix("p.json:1:14: switches: no switch selects (they bind stopScanning)") == true)
    }

    @Test func longPressActionWithLongPressOffIsAWarning() throws {
        let (_, warnings) = try load(#"{"switches": [{"key": "KEY_SPACE", "action": "select", "longPressAction": "menu"}]}"#)
        #expect(warnings == ["p.json:1:75: switches[0].longPressAction: menu never fires: switchStabilization.longPress is 0 (off); set it to the hold time in seconds"])
    }

    @Test func longPressShorterThanHoldDurationIsAnError() {
        let e = error(#"{"switchStabilization": {"holdDuration": 0.5, "longPress": 0.3}, "switches": [{"key": "KEY_SPACE", "action": "select", "longPressAction": "menu"}]}"#)
        #expect(e?.hasPrefix("p.json:1:60: switchStabilization.longPress: 0.3 s is not longer than holdDuration (0.5 s)") == true)
        // Equal is as bad: every accepted press is already a long press.
        #expect(error(#"{"switchStabilization": {"holdDuration": 0.5, "longPress": 0.5}, "switches": [{"key": "KEY_SPACE", "action": "select", "longPressAction": "menu"}]}"#) != nil)
        #expect(error(#"{"switchStabilization": {"holdDuration": 0.5, "longPress": 1}, "switches": [{"key": "KEY_SPACE", "action": "select", "longPressAction": "menu"}]}"#) == nil)
    }

    @Test func longPressWithNoLongPressActionIsAWarning() throws {
        let (_, warnings) = try load(#"{"switchStabilization": {"longPress": 1}, "switches": [{"key": "KEY_SPACE", "action": "select"}]}"#)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("switchStabilization.longPress: does nothing: no switch has a \"longPressAction\"") == true)
    }

    @Test func everyBundledProfileLoadsWithoutAWarning() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Profiles")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }
        #expect(files.count >= 9)
        for f in files {
            var warnings: [InputError] = []
            _ = try ProfileDecoder.decode([UInt8](FileManager.default.contents(atPath: dir.appendingPathComponent(f).path)!), file: f, warnings: &warnings)
            #expect(warnings.isEmpty, "\(f): \(warnings)")
        }
    }

    /// Issue 32, point 10: group selection as docs/scanning.md and Android set it up, with only
    /// its colour switches, was refused ("no switch selects" with `auto`, "moves only when a next
    /// or previous switch is pressed" with `manual`). The colours move and choose, whatever the
    /// style; fewer than two colours, or a colour without the ones before it, stay errors.
    @Test(arguments: ["", #", "style": "auto""#, #", "style": "manual""#, #", "style": "singleSwitchStep""#])
    func groupSelectionNeedsOnlyItsColourSwitches(_ style: String) throws {
        let colours = #"[{"key": "KEY_SPACE", "action": "group1"}, {"key": "KEY_ENTER", "action": "group2"}]"#
        let (p, warnings) = try load(#"{"scanning": {"mode": "groupSelection""# + style + #"}, "switches": "# + colours + "}")
        #expect(p.groupSwitchCount == 2)
        #expect(warnings.isEmpty, "\(warnings)")
        let one = error(#"{"scanning": {"mode": "groupSelection""# + style + #"}, "switches": [{"key": "KEY_SPACE", "action": "group1"}]}"#)
        #expect(one?.hasSuffix("scanning.mode: groupSelection needs at least two switches with the actions group1 and group2 (up to group6)") == true, "\(one ?? "no error")")
        let gap = error(#"{"scanning": {"mode": "groupSelection""# + style + #"}, "switches": [{"key": "KEY_SPACE", "action": "group1"}, {"key": "KEY_ENTER", "action": "group3"}]}"#)
        #expect(gap?.hasSuffix("switches[1]: group3 needs switches for every group before it (group1 … group3)") == true, "\(gap ?? "no error")")
    }
}
