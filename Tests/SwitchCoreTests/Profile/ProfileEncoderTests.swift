import Foundation
@testable import SwitchCore
import Testing

/// `ProfileEncoder` (what `switchscan profiles show` prints): every setting, defaults included,
/// and a text that reads back as the same profile.
@Suite("Profile encoder")
struct ProfileEncoderTests {
    static let profilesFolder: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Profiles")
    }()

    static var bundled: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: profilesFolder.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }

    func roundTrip(_ p: Profile) throws -> Profile {
        try ProfileDecoder.decode(Array(ProfileEncoder.encode(p).rendered(indent: 2).utf8), file: "shown.json")
    }

    @Test(arguments: bundled)
    func everyBundledProfileReadsBackTheSame(_ file: String) throws {
        let p = try ProfileDecoder.decode(Array(try Data(contentsOf: Self.profilesFolder.appendingPathComponent(file))), file: file)
        #expect(try roundTrip(p) == p)
    }

    @Test func aProfileWithEverySettingChangedReadsBackTheSame() throws {
        var p = Profile()
        p.name = "All \"quoted\""
        p.scanning.style = .singleSwitchStep
        p.scanning.groupItems = true
        p.scanning.autoScanningTime = .seconds(2.5)
        p.scanning.pauseOnFirstItem = .seconds(0.7)
        p.scanning.loops = 2
        p.scanning.moveRepeat = .seconds(0.4)
        p.scanning.tapBehavior = .autoTap
        p.scanning.autoTapTime = .seconds(1.25)
        p.scanning.focusedItemAfterTap = .current
        p.scanning.speech = true
        p.switches = [SwitchBinding(keyName: "KEY_ENTER", code: 28, action: .select, longPressAction: .menu),
                      SwitchBinding(keyName: "BTN_0", code: 0x100, action: .next)]
        p.switchStabilization.holdDuration = .seconds(0.1)
        p.switchStabilization.ignoreRepeat = .seconds(0.3)
        p.switchStabilization.ignoreRepeatFrom = .release
        p.switchStabilization.longPress = .seconds(1)
        p.switchStabilization.debounce = .seconds(0.05)
        p.switchStabilization.selectTarget = .accept
        p.touchAccommodations.holdDuration = .seconds(0.2)
        p.touchAccommodations.ignoreRepeat = .seconds(0.5)
        p.touchAccommodations.tapAssistance = .final
        p.touchAccommodations.tapAssistanceGestureDelay = .seconds(0.75)
        p.touchAccommodations.touchAsSwitch = .select
        p.devices = ["/dev/input/event3", "046d:c52b"]
        #expect(try roundTrip(p) == p)
    }

    /// Reflection writes the stored properties: this fails when a setting the decoder reads is not
    /// a stored property of the same name (or a new property is not a setting).
    @Test func everyKeyTheDecoderReadsIsWritten() throws {
        guard case .object(let top) = ProfileEncoder.encode(Profile()) else { Issue.record("not an object"); return }
        #expect(Set(top.map(\.0)) == ProfileDecoder.topKeys)
        func keys(_ name: String) -> Set<String> {
            guard case .object(let members)? = top.first(where: { $0.0 == name })?.1 else { return [] }
            return Set(members.map(\.0))
        }
        // groupItems is the old spelling of grouping (a computed property, read but not written).
        #expect(keys("scanning") == ProfileDecoder.scanningKeys.union(ProfileDecoder.presentationKeys).subtracting(["groupItems"]))
        #expect(keys("switchStabilization") == ProfileDecoder.stabilizationKeys)
        #expect(keys("touchAccommodations") == ProfileDecoder.touchKeys)
        #expect(keys("safetyExit") == ProfileDecoder.safetyExitKeys)
        #expect(keys("keyboard") == ProfileDecoder.keyboardKeys)
        #expect(keys("menu") == ProfileDecoder.menuKeys)
    }

    @Test func theDefaultsAreWrittenAsTheManualShowsThem() {
        let text = ProfileEncoder.encode(Profile()).rendered()
        #expect(text == #"{"name":"Unnamed profile","scanning":{"style":"auto","grouping":"none","autoScanningTime":1,"pauseOnFirstItem":0,"loops":4,"moveRepeat":0,"tapBehavior":"default","autoTapTime":0.75,"focusedItemAfterTap":"first","speech":false,"speechRate":0.5,"speechVoice":null,"pauseForSpeech":false,"soundEffects":false,"cursorColor":"blue","largeCursor":false,"mode":"item","modeSwitch":false,"point":{"bandSpeed":50,"lineSpeed":25,"bandWidth":150,"bandHeight":120,"edgePause":0.25}},"switches":[{"key":"KEY_SPACE","action":"select"}],"switchStabilization":{"holdDuration":0,"ignoreRepeat":0,"ignoreRepeatFrom":"acceptedPress","longPress":0,"debounce":0.025,"selectTarget":"press"},"touchAccommodations":{"holdDuration":0,"ignoreRepeat":0,"tapAssistance":"off","tapAssistanceGestureDelay":0.5,"touchAsSwitch":null,"output":"activate"},"devices":[],"keyboard":{"layout":"frequency","predictions":8,"autoScanningTime":null,"grouping":null,"learning":true},"safetyExit":{"pauseHold":3,"pauseChord":"Ctrl+Alt+Shift+S"},"menu":{"hide":[],"show":[],"top":[],"shortcuts":[],"speedStep":0.1,"holdTime":1},"adaptiveTiming":{"enabled":false,"minimum":0.4,"maximum":5}}"#)
    }
}
