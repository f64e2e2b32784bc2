import SwitchCore
import Testing

/// The one rule XTest's `KeySender` and the uinput keyboard type a text by.
@Suite("Typing keysyms")
struct TypingKeysymTests {
    @Test func aNewLineIsReturnATabIsTabAndAnyOtherCharacterIsItsKeysym() {
        #expect(KeyCombo.typingKeysym(for: "\n") == 0xff0d)
        #expect(KeyCombo.typingKeysym(for: "\r") == 0xff0d)
        #expect(KeyCombo.typingKeysym(for: "\t") == 0xff09)
        #expect(KeyCombo.typingKeysym(for: "a") == 0x61)
        #expect(KeyCombo.typingKeysym(for: "é") == 0xe9)
        #expect(KeyCombo.typingKeysym(for: "€") == 0x0100_20ac)
        #expect(KeyCombo.typingKeysym(for: "\u{7}") == nil)  // BEL: no key types it
    }
}
