import Foundation
import SwitchCore
import SwitchInput
import TestPrograms
import Testing

/// Which keys `--inject`'s keyboard presses for a keysym, through a layout compiled by
/// libxkbcommon from xkb-data (scripts/apt/build-keys.list): by keysym, never by position.
@Suite(.needs(["/usr/share/X11/xkb/rules/evdev"]))
struct KeyLayoutTests {
    @Test func azertyTypesByKeysym() throws {
        let fr = try KeyLayout(layout: "fr")
        #expect(fr.names == "fr")
        #expect(fr.keys(for: 0x61)! == (16, []))             // a: the key a US keyboard calls Q
        #expect(fr.keys(for: 0x31)! == (2, [42]))            // 1 needs Shift on AZERTY
        #expect(fr.keys(for: 0x0100_20ac)! == (18, [100]))   // €: AltGr (right Alt) + E
        #expect(fr.keys(for: 0x1008ff13)! == (115, []))      // XF86AudioRaiseVolume: KEY_VOLUMEUP
        #expect(fr.code(of: .ctrl) == 29)
    }

    @Test func usLayout() throws {
        let us = try KeyLayout(layout: "us")
        #expect(us.keys(for: 0x61)! == (30, []))
        #expect(us.keys(for: 0x41)! == (30, [42]))            // A: Shift + a
        #expect(us.keys(for: 0x0100_0436) == nil)            // ж: no key of a US keyboard
        #expect(KeyLayout.legacyKeysym(0x0100_0436) == 0x6d6)  // Cyrillic_zhe
        #expect(KeyLayout.legacyKeysym(0x61) == 0x61)
    }

    @Test func theSystemsLayoutFileIsRead() {
        let text = "# KEYBOARD CONFIGURATION FILE\nXKBMODEL=\"pc105\"\nXKBLAYOUT=\"de\"\nXKBVARIANT=\"nodeadkeys\"\nXKBOPTIONS=\"\"\n\nBACKSPACE=\"guess\"\n"
        #expect(KeyLayoutTests.assignments(text) == ["XKBMODEL": "pc105", "XKBLAYOUT": "de", "XKBVARIANT": "nodeadkeys", "BACKSPACE": "guess"])
    }

    static func assignments(_ text: String) -> [String: String] { KeyLayout.shellAssignments(text) }
}

/// `run` never reads a device switchscan made (issue 23: a synthetic Enter from the uinput keyboard
/// must never select).
@Suite struct OwnDeviceTests {
    @Test func devicesNamedSwitchscanAreOwn() {
        for name in ["switchscan output", "switchscan keyboard", "switchscan pointer"] { #expect(DeviceEnumeration.isOwnDevice(name: name)) }
        for name in ["switchscanner", "AT Translated Set 2 keyboard", "My switchscan box"] { #expect(!DeviceEnumeration.isOwnDevice(name: name)) }
        #expect(DeviceEnumeration.isOwnDevice(name: UInputKeyboard.deviceName) && DeviceEnumeration.isOwnDevice(name: UInputPointer.deviceName))
    }
}
