/// Which keys a recording or `debug-events` hides unless `--show-keycodes` (a clinician may
/// record on a full keyboard, where a password could be typed). libinput's rule (tools/
/// libinput-record.c, `obfuscate_keycode`): the alphanumeric block from KEY_1 to KEY_SPACE except
/// Tab, Enter and Left Ctrl, and the keypad digits, become KEY_A, and every MSC_SCAN value becomes
/// KEY_A's scancode (30). switchscan applies it to devices that are full keyboards (udev's
/// ID_INPUT_KEYBOARD test): a switch interface or a key box with a few keys cannot type text, and
/// hiding its KEY_1 would make its recording useless for `simulate` and `calibrate`.
public enum KeycodePrivacy {
    static let KEY_TAB: UInt16 = 15
    static let KEY_ENTER: UInt16 = 28
    static let KEY_LEFTCTRL: UInt16 = 29
    static let KEY_CAPSLOCK: UInt16 = 58
    static let KEY_KP7: UInt16 = 71
    static let KEY_KPDOT: UInt16 = 83
    public static let KEY_A: UInt16 = 30
    public static let MSC_SCAN: UInt16 = 4
    /// What libinput writes for a hidden scancode (KEY_A's).
    public static let hiddenScancode: Int32 = 30

    /// True for the codes libinput hides.
    public static func isAlphanumeric(_ code: UInt16) -> Bool {
        switch code {
        case KEY_TAB, KEY_ENTER, KEY_LEFTCTRL: return false
        default: return (code > EventCodes.KEY_ESC && code < KEY_CAPSLOCK) || (code >= KEY_KP7 && code <= KEY_KPDOT)
        }
    }

    /// Whether a device's keys are hidden (a full keyboard).
    public static func applies(to device: DeviceDescription) -> Bool {
        device.kind.contains(.keyboard)
    }

    /// The event as it may be shown: an alphanumeric key as KEY_A, a scancode as 30.
    public static func hidden(_ e: InputEvent) -> InputEvent {
        var e = e
        if e.type == EventCodes.EV_KEY && isAlphanumeric(e.code) {
            e.code = KEY_A
        } else if e.type == EventCodes.EV_MSC && e.code == MSC_SCAN {
            e.value = hiddenScancode
        }
        return e
    }

    /// The note for stderr and the recording when a device's keys are hidden.
    public static func note(node: String, name: String) -> String {
        "\(node) \"\(name)\" is a full keyboard: letter, digit, punctuation and Space keys are shown as KEY_A and scancodes as 30 (--show-keycodes keeps them)"
    }
}
