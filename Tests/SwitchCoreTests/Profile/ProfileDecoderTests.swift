import Foundation
import SwitchCore
import Testing

@Suite("Profiles")
struct ProfileDecoderTests {
    func decode(_ json: String) throws(InputError) -> Profile { try ProfileDecoder.decode(Array(json.utf8), file: "p.json") }

    func error(_ json: String) -> String? {
        do { _ = try decode(json); return nil } catch { return error.description }
    }

    @Test func anEmptyProfileHasTheDocumentedDefaults() throws {
        let p = try decode("{}")
        #expect(p.scanning.style == .auto)
        #expect(p.scanning.groupItems == false)
        #expect(p.scanning.autoScanningTime == .seconds(1.0))
        #expect(p.scanning.pauseOnFirstItem == .zero)
        #expect(p.scanning.loops == 4)
        #expect(p.scanning.moveRepeat == .zero)
        #expect(p.scanning.tapBehavior == .default)
        #expect(p.scanning.autoTapTime == .seconds(0.75))
        #expect(p.scanning.focusedItemAfterTap == .first)
        #expect(p.scanning.speech == false)
        #expect(p.switches == [SwitchBinding(keyName: "KEY_SPACE", code: 57, action: .select)])
        #expect(p.switchStabilization == SwitchStabilization())
        #expect(p.switchStabilization.debounce == .seconds(0.025))
        #expect(p.switchStabilization.ignoreRepeatFrom == .acceptedPress)
        #expect(p.switchStabilization.selectTarget == .press)
        #expect(p.touchAccommodations.tapAssistance == .off)
        #expect(p.touchAccommodations.tapAssistanceGestureDelay == .seconds(0.5))
        #expect(p.touchAccommodations.touchAsSwitch == nil)
        #expect(p.scans)
    }

    @Test func everyKeyIsRead() throws {
        let p = try decode("""
        { "name": "All", "devices": ["/dev/input/event3", "046d:c52b"],
          "scanning": { "style": "singleSwitchStep", "groupItems": true, "autoScanningTime": 2.5,
                        "pauseOnFirstItem": 0.7, "loops": 2, "moveRepeat": 0.4,
                        "tapBehavior": "autoTap", "autoTapTime": 1.25,
                        "focusedItemAfterTap": "current", "speech": true },
          "switches": [ { "key": "BTN_A", "action": "next", "longPressAction": "menu" }, { "key": 28, "action": "select" } ],
          "switchStabilization": { "holdDuration": 0.1, "ignoreRepeat": 0.3, "ignoreRepeatFrom": "release",
                                   "longPress": 1, "debounce": 0, "selectTarget": "accept" },
          "touchAccommodations": { "holdDuration": 0.15, "ignoreRepeat": 0.2, "tapAssistance": "final",
                                   "tapAssistanceGestureDelay": 0.8, "touchAsSwitch": "select" } }
        """)
        #expect(p.name == "All")
        #expect(p.devices == ["/dev/input/event3", "046d:c52b"])
        #expect(p.scanning.style == .singleSwitchStep && p.scanning.groupItems && p.scanning.speech)
        #expect(p.scanning.autoScanningTime == .milliseconds(2500) && p.scanning.pauseOnFirstItem == .milliseconds(700))
        #expect(p.scanning.loops == 2 && p.scanning.moveRepeat == .milliseconds(400))
        #expect(p.scanning.tapBehavior == .autoTap && p.scanning.autoTapTime == .milliseconds(1250))
        #expect(p.scanning.focusedItemAfterTap == .current)
        #expect(p.switches == [
            SwitchBinding(keyName: "BTN_A", code: 0x130, action: .next, longPressAction: .menu),
            SwitchBinding(keyName: "KEY_ENTER", code: 28, action: .select),
        ])
        #expect(p.switchStabilization.holdDuration == .milliseconds(100) && p.switchStabilization.ignoreRepeat == .milliseconds(300))
        #expect(p.switchStabilization.ignoreRepeatFrom == .release && p.switchStabilization.longPress == .seconds(1))
        #expect(p.switchStabilization.debounce == .zero && p.switchStabilization.selectTarget == .accept)
        #expect(p.touchAccommodations.holdDuration == .milliseconds(150) && p.touchAccommodations.ignoreRepeat == .milliseconds(200))
        #expect(p.touchAccommodations.tapAssistance == .final && p.touchAccommodations.tapAssistanceGestureDelay == .milliseconds(800))
        #expect(p.touchAccommodations.touchAsSwitch == .select)
    }

    @Test func aTouchOnlyProfileDoesNotScan() throws {
        let p = try decode("{\"switches\": [], \"touchAccommodations\": {\"touchAsSwitch\": null}}")
        #expect(p.switches.isEmpty && !p.scans)
        #expect(try decode("{\"switches\": [], \"touchAccommodations\": {\"touchAsSwitch\": \"select\"}}").scans)
    }

    @Test func unknownKeysAndBadValuesAreNamed() {
        #expect(error("{\"scaning\": {}}")?.hasPrefix("p.json:1:13: scaning: unknown key \"scaning\"") == true)
        #expect(error("{\"scanning\": {\"autoScanTime\": 1}}")?.hasPrefix("p.json:1:31: scanning.autoScanTime: unknown key") == true)
        #expect(error("{\"scanning\": {\"autoScanningTime\": 0}}") == "p.json:1:35: scanning.autoScanningTime: 0 is out of range (expected 0.1…60)")
        #expect(error("{\"scanning\": {\"loops\": 0}}") == "p.json:1:24: scanning.loops: 0 is not a whole number in 1…100")
        #expect(error("{\"scanning\": {\"loops\": 2.5}}") == "p.json:1:24: scanning.loops: 2.5 is not a whole number in 1…100")
        #expect(error("{\"scanning\": {\"style\": \"fast\"}}") == "p.json:1:24: scanning.style: \"fast\" is not one of \"auto\", \"manual\", \"singleSwitchStep\"")
        #expect(error("{\"switchStabilization\": {\"debounce\": 2}}") == "p.json:1:38: switchStabilization.debounce: 2 is out of range (expected 0…1)")
        #expect(error("{\"switchStabilization\": {\"holdDuration\": -0.1}}") == "p.json:1:42: switchStabilization.holdDuration: -0.1 is out of range (expected 0…10)")
        #expect(error("{\"touchAccommodations\": {\"tapAssistance\": \"middle\"}}") == "p.json:1:43: touchAccommodations.tapAssistance: \"middle\" is not one of \"off\", \"initial\", \"final\"")
        #expect(error("{\"scanning\": {\"speech\": \"yes\"}}") == "p.json:1:25: scanning.speech: expected true or false, found a string")
    }

    @Test func switchEntriesAreChecked() {
        #expect(error("{\"switches\": [{\"key\": \"KEY_SPACEBAR\", \"action\": \"select\"}]}")
            == "p.json:1:23: switches[0].key: \"KEY_SPACEBAR\" is not an evdev key or button name (such as KEY_SPACE, BTN_0, BTN_SOUTH) or a key number")
        #expect(error("{\"switches\": [{\"key\": \"ABS_X\", \"action\": \"select\"}]}")?.contains("switches[0].key: \"ABS_X\" is not an evdev key") == true)
        #expect(error("{\"switches\": [{\"key\": 1000, \"action\": \"select\"}]}") == "p.json:1:23: switches[0].key: 1000 is not a whole number in 1…767")
        #expect(error("{\"switches\": [{\"key\": \"KEY_SPACE\", \"action\": \"click\"}]}")?.hasPrefix("p.json:1:46: switches[0].action: \"click\" is not one of \"select\", \"next\"") == true)
        #expect(error("{\"switches\": [{\"action\": \"select\"}]}") == "p.json:1:15: switches[0]: missing key \"key\" (an evdev key name such as \"KEY_SPACE\" or a number)")
        #expect(error("{\"switches\": [{\"key\": \"KEY_A\", \"action\": \"next\"}, {\"key\": \"KEY_A\", \"action\": \"select\"}]}")
            == "p.json:1:59: switches[1].key: KEY_A is already assigned to next; a key can have one action")
    }

    @Test func everyBundledProfileLoads() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Profiles")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count >= 9)
        for f in files {
            let path = dir.appendingPathComponent(f).path
            let p = try ProfileDecoder.decode([UInt8](FileManager.default.contents(atPath: path)!), file: path)
            #expect(!p.name.isEmpty)
        }
    }
}
