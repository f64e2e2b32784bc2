import Glibc
import SwitchCore
import SwitchInput
import Testing

@Suite struct DeviceReportTests {
    @Test func textBlocksLikeLibinputListDevices() {
        let lines = DeviceReport.text([Devices.entry("/dev/input/event2", Devices.oneKeySwitch),
                                       Devices.entry("/dev/input/event5", Devices.touchscreen),
                                       Devices.denied("/dev/input/event9")])
        #expect(lines == [
            "Device:       Test One-Key Switch",
            "Kernel:       /dev/input/event2",
            "Id:           usb:1234:5678",
            "Kind:         switch-like buttons",
            "Keys:         KEY_SPACE",
            "Axes:         none",
            "",
            "Device:       Test MT Touchscreen",
            "Kernel:       /dev/input/event5",
            "Id:           i2c:045e:04d2",
            "Kind:         touchscreen",
            "Keys:         BTN_TOUCH",
            "Axes:         ABS_X 0..1919, ABS_Y 0..1079, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID",
            "Properties:   INPUT_PROP_DIRECT",
            "",
            "Device:       (cannot open)",
            "Kernel:       /dev/input/event9",
            "Error:        permission denied: add yourself to the `input` group (sudo usermod -aG input $USER) and log in again",
        ])
    }

    @Test func longKeyListsAreShortened() {
        let lines = DeviceReport.text([Devices.entry("/dev/input/event0", Devices.keyboard)])
        #expect(lines[3] == "Kind:         keyboard")
        #expect(lines[4] == "Keys:         KEY_ESC KEY_1 KEY_2 KEY_3 KEY_4 KEY_5 KEY_6 KEY_7 … KEY_F11 KEY_F12 (88 keys)")
    }

    @Test func twelveKeysAreListedInFull() {
        #expect(DeviceReport.shortened((1...12).map { "K\($0)" }) == "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12")
        #expect(DeviceReport.shortened([]) == "none")
    }

    @Test func jsonHasEverything() {
        let json = DeviceReport.json([Devices.entry("/dev/input/event7", Devices.receiverMouse), Devices.denied("/dev/input/event9")]).rendered()
        #expect(json == #"[{"node":"/dev/input/event7","name":"Logitech USB Receiver Mouse","bus":"usb","vendor":"046d","product":"c52b","kind":["pointer"],"keys":["BTN_LEFT","BTN_RIGHT"],"axes":[],"relativeAxes":["REL_X","REL_Y"],"properties":[]},{"node":"/dev/input/event9","error":"permission denied: add yourself to the `input` group (sudo usermod -aG input $USER) and log in again"}]"#)
    }

    @Test func busNames() {
        #expect(DeviceReport.busName(0x03) == "usb")
        #expect(DeviceReport.busName(0x05) == "bluetooth")
        #expect(DeviceReport.busName(0x06) == "virtual")
        #expect(DeviceReport.busName(0x11) == "i8042")
        #expect(DeviceReport.busName(0x42) == "bus0042")
    }

    @Test func errorReasons() {
        #expect(DeviceError(node: "/dev/uinput", operation: .uinput, errno: -ENOENT).description
                == "cannot create the output device: /dev/uinput does not exist: load the uinput module (sudo modprobe uinput)")
        #expect(DeviceError(node: "/dev/input/event3", operation: .grab, errno: EBUSY).description == "/dev/input/event3: cannot grab: another program has grabbed it")
        #expect(DeviceError(node: "/dev/input/event3", operation: .describe, errno: ENOTTY).description.hasPrefix("/dev/input/event3: not an evdev device ("))
        // /dev/uinput there but not writable: the udev rule is the fix (touch passthrough, --inject).
        #expect(DeviceError(node: "/dev/uinput", operation: .uinput, errno: EACCES).reason
                == "permission denied on /dev/uinput: install switchscan's udev rule (70-switchscan.rules: scripts/install.sh or the .deb), which gives /dev/uinput to the user at the seat, then run `sudo udevadm trigger --sysname-match=uinput` (or log in again); or run as root")
        #expect(DeviceError(node: "/dev/input/event9", operation: .own, errno: 0, advice: "switchscan ELAN Touchscreen").description
                == "/dev/input/event9: \"switchscan ELAN Touchscreen\" is a device switchscan made; it never reads its own devices (what it writes must not come back as input): name the real device")
    }
}
