import SwitchCore
import Testing

/// libinput's rule for hiding typed text in recordings, on full keyboards only.
@Suite("Key code privacy")
struct KeycodePrivacyTests {
    @Test func lettersDigitsPunctuationSpaceAndKeypadDigitsAreHidden() {
        // KEY_1 2, KEY_Q 16, KEY_A 30, KEY_M 50, KEY_SLASH 53, KEY_SPACE 57, KEY_KP7 71, KEY_KPDOT 83
        for code: UInt16 in [2, 11, 12, 14, 16, 30, 50, 53, 57, 71, 83] {
            #expect(KeycodePrivacy.isAlphanumeric(code), "\(code)")
            #expect(KeycodePrivacy.hidden(InputEvent(type: EventCodes.EV_KEY, code: code, value: 1)) == InputEvent(type: EventCodes.EV_KEY, code: 30, value: 1))
        }
    }

    @Test func escTabEnterLeftCtrlAndNonTextKeysAreKept() {
        // KEY_ESC 1, KEY_TAB 15, KEY_ENTER 28, KEY_LEFTCTRL 29, KEY_CAPSLOCK 58, KEY_F1 59, KEY_KPENTER 96, BTN_0 256, BTN_SOUTH 304
        for code: UInt16 in [1, 15, 28, 29, 58, 59, 96, 256, 304] {
            #expect(!KeycodePrivacy.isAlphanumeric(code), "\(code)")
            let e = InputEvent(type: EventCodes.EV_KEY, code: code, value: 1)
            #expect(KeycodePrivacy.hidden(e) == e)
        }
    }

    @Test func scancodesAreHiddenAndOtherEventsKept() {
        #expect(KeycodePrivacy.hidden(InputEvent(type: EventCodes.EV_MSC, code: 4, value: 458756)) == InputEvent(type: EventCodes.EV_MSC, code: 4, value: 30))
        let abs = InputEvent(type: EventCodes.EV_ABS, code: 30, value: 7)
        #expect(KeycodePrivacy.hidden(abs) == abs)
        let syn = InputEvent(type: EventCodes.EV_SYN, code: 0, value: 0)
        #expect(KeycodePrivacy.hidden(syn) == syn)
    }

    @Test func onlyFullKeyboardsAreHidden() {
        let keyboard = DeviceDescription(name: "kbd", codes: [EventCodes.EV_KEY: Set(1...57)])
        let oneKey = DeviceDescription(name: "switch", codes: [EventCodes.EV_KEY: [EventCodes.KEY_SPACE]])
        let keyBox = DeviceDescription(name: "Hitch", codes: [EventCodes.EV_KEY: [2, 3, 4, 5, 6]])
        #expect(KeycodePrivacy.applies(to: keyboard))
        #expect(!KeycodePrivacy.applies(to: oneKey))
        #expect(!KeycodePrivacy.applies(to: keyBox))
    }
}
