import Foundation
import SwitchCore
@testable import SwitchInput
import Testing

/// `DeviceAccess`: reading what a node is from sysfs, and which fix the user is told.
@Suite("Device access")
struct DeviceAccessTests {
    @Test func sysfsBitmapsAreReadAsTheKernelPrintsThem() {
        #expect(DeviceAccess.bitmap("0") == [])
        #expect(DeviceAccess.bitmap("120013") == [0, 1, 4, 17, 20])
        // Two 64-bit words, the highest first: bit 0 of the first word is code 64.
        #expect(DeviceAccess.bitmap("1 8000000000000000") == [63, 64])
        // A gamepad's key bitmap: BTN_SOUTH (0x130) is in the fifth word.
        #expect(DeviceAccess.bitmap("1000000000000 0 0 0 0") == [0x130])
        #expect(DeviceAccess.bitmap("zz") == [])
    }

    @Test func theRuleAppliesToSwitchLikeDevicesAndJoysticksOnly() {
        #expect(DeviceAccess.ruleApplies(to: .switchButtons))
        #expect(DeviceAccess.ruleApplies(to: .gamepad))
        #expect(!DeviceAccess.ruleApplies(to: .keyboard))
        #expect(!DeviceAccess.ruleApplies(to: [.keyboard, .pointer]))
        #expect(!DeviceAccess.ruleApplies(to: .touchscreen))
        #expect(!DeviceAccess.ruleApplies(to: .pointer))
        #expect(!DeviceAccess.ruleApplies(to: []))
    }

    @Test func theAdviceNamesTheFixThatApplies() {
        let installed = DeviceAccess.advice(kind: .switchButtons, ids: "1234:5678", tagged: false, installedRule: "/usr/lib/udev/rules.d/70-switchscan.rules")
        #expect(installed.hasPrefix("permission denied: a switch-like device; switchscan's udev rule (/usr/lib/udev/rules.d/70-switchscan.rules) has not been applied to it yet: sudo udevadm control --reload && sudo udevadm trigger --subsystem-match=input --action=change"))
        let missing = DeviceAccess.advice(kind: .switchButtons, ids: nil, tagged: false, installedRule: nil)
        #expect(missing.hasPrefix("permission denied: a switch-like device; install switchscan's udev rule"))
        let tagged = DeviceAccess.advice(kind: .switchButtons, ids: nil, tagged: true, installedRule: nil)
        #expect(tagged.hasPrefix("permission denied although udev gives this device to the user at the seat (uaccess): you are not that user now"))
        let touch = DeviceAccess.advice(kind: .touchscreen, ids: "0eef:0001", tagged: false, installedRule: nil)
        #expect(touch.hasPrefix("permission denied: a touchscreen, which switchscan's udev rule leaves alone: add yourself to the `input` group"))
        #expect(touch.contains("ENV{SWITCHSCAN_SWITCH}=\"1\" (id 0eef:0001)"))
        let unknown = DeviceAccess.advice(kind: nil, ids: nil, tagged: false, installedRule: nil)
        #expect(unknown.hasPrefix("permission denied: add yourself to the `input` group"))
    }

    @Test func anOpenRefusedForPermissionCarriesTheAdvice() {
        let e = DeviceError(node: "/dev/input/event9", operation: .open, errno: EACCES, advice: "permission denied: X")
        #expect(e.description == "/dev/input/event9: permission denied: X")
        #expect(DeviceError(node: "/dev/input/event9", operation: .open, errno: ENOENT, advice: nil).reason == "no such device")
    }
}
