import Glibc
import SwitchCore
import SwitchInput
import Testing

/// Which keyboards `run` watches for the pause chord, and what it says when it can read none
/// (docs/live.md "Safety exit").
@Suite("Pause chord devices")
struct ChordWatchTests {
    let chord = KeyChord.default

    func selected(_ node: String, _ d: DeviceDescription) -> SelectedDevice {
        SelectedDevice(node: node, description: d, explicit: true, reason: "--device")
    }

    @Test func everyOtherKeyboardIsWatchedNotTheSwitchesNorTheSelected() {
        let entries = Devices.desk + [Devices.entry("/dev/input/event12", Devices.usbKeyboard)]
        let watched = DeviceSelection.chordWatch(chord, selected: [selected("/dev/input/event0", Devices.keyboard)], entries: entries)
        #expect(watched.map(\.node) == ["/dev/input/event12"])
        #expect(watched.first?.reason == "pause chord Ctrl+Alt+Shift+S")
        #expect(DeviceSelection.chordWatch(nil, selected: [], entries: entries).isEmpty)
        #expect(!DeviceSelection.canType(chord, on: Devices.oneKeySwitch))
        #expect(DeviceSelection.canType(chord, on: Devices.keyboard))
    }

    @Test func nothingToSayWhenAReadDeviceCanTypeTheChordOrItIsOff() {
        #expect(DeviceSelection.chordUnreadNote(chord, read: [Devices.oneKeySwitch, Devices.keyboard], entries: Devices.desk) == nil)
        #expect(DeviceSelection.chordUnreadNote(nil, read: [Devices.oneKeySwitch], entries: Devices.desk) == nil)
    }

    @Test func noKeyboardAtAll() {
        #expect(DeviceSelection.chordUnreadNote(chord, read: [Devices.oneKeySwitch], entries: [Devices.entry("/dev/input/event2", Devices.oneKeySwitch)])
                == "the pause chord Ctrl+Alt+Shift+S is not read: no keyboard is plugged in")
    }

    /// A node that cannot be opened and that sysfs does not describe (here: none exists) may be
    /// the keyboard: it is named, with the permission advice.
    @Test func aKeyboardThatCannotBeOpenedIsNamedWithTheFix() {
        let note = DeviceSelection.chordUnreadNote(chord, read: [Devices.oneKeySwitch],
                                                   entries: [Devices.entry("/dev/input/event2", Devices.oneKeySwitch), Devices.denied("/dev/input/event99")])
        #expect(note?.hasPrefix("the pause chord Ctrl+Alt+Shift+S is not read: /dev/input/event99 cannot be opened (permission denied: ") == true)
        #expect(note?.contains("input") == true)
    }
}
