internal import CXKBCommon
import Foundation
import SwitchCore

/// The keyboard layout `--inject`'s uinput keyboard types through (issue 23): which key (evdev
/// code) and which modifier keys type a keysym, so keys go by keysym and never by key position
/// (Ctrl+A on AZERTY is the key labelled A, where a US keyboard has Q).
///
/// Without X there is no server to ask, so the layout is the system's: `XKB_DEFAULT_LAYOUT`,
/// `…_VARIANT`, `…_MODEL`, `…_OPTIONS` in the environment, else Debian's `/etc/default/keyboard`
/// (XKBLAYOUT …, what the console and a desktop session start from), else US. A keysym the layout
/// lacks cannot be typed through uinput (there is no keymap to add it to).
public final class KeyLayout {
    private let context: OpaquePointer
    private let keymap: OpaquePointer
    /// The RMLVO names used ("fr", "de(nodeadkeys)" …), for notes.
    public let names: String

    public enum Failure: Error, CustomStringConvertible {
        case noKeymap(String)
        public var description: String {
            switch self {
            case .noKeymap(let names): return "cannot compile the keyboard layout \(names) (xkb-data installed?)"
            }
        }
    }

    /// `layout` …: explicit names (tests); nil: the system's, as above.
    public init(layout: String? = nil, variant: String? = nil, model: String? = nil, options: String? = nil) throws(Failure) {
        var rmlvo = (layout: layout, variant: variant, model: model, options: options)
        let env = ProcessInfo.processInfo.environment
        if layout == nil && env["XKB_DEFAULT_LAYOUT"] == nil, let text = try? String(contentsOfFile: "/etc/default/keyboard", encoding: .utf8) {
            let values = KeyLayout.shellAssignments(text)
            rmlvo = (values["XKBLAYOUT"], values["XKBVARIANT"], values["XKBMODEL"], values["XKBOPTIONS"])
        }
        names = [rmlvo.layout ?? env["XKB_DEFAULT_LAYOUT"] ?? "us", rmlvo.variant.map { "(\($0))" } ?? ""].joined()
        guard let ctx = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { throw .noKeymap(names) }
        guard let map = cxkb_keymap(ctx, rmlvo.layout, rmlvo.variant, rmlvo.model, rmlvo.options) else {
            xkb_context_unref(ctx)
            throw .noKeymap(names)
        }
        context = ctx
        keymap = map
    }

    /// A keymap a compositor sent (wl_keyboard.keymap, XKB text): the keys of the seat that
    /// synthesized keys go through (KWin's fake input), whatever the system's files say.
    /// `names`: how notes name it.
    public init(keymapText: String, names: String) throws(Failure) {
        self.names = names
        guard let ctx = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { throw .noKeymap(names) }
        guard let map = xkb_keymap_new_from_string(ctx, keymapText, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS) else {
            xkb_context_unref(ctx)
            throw .noKeymap(names)
        }
        context = ctx
        keymap = map
    }

    deinit {
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    /// A character's keysym as X layouts name it: the legacy keysym where there is one (0x20ac
    /// EuroSign for U+20AC, Cyrillic_zhe for ж), else the Unicode keysym it was.
    public static func legacyKeysym(_ keysym: UInt32) -> UInt32 {
        guard keysym >= 0x0100_0000 && keysym <= 0x0110_ffff else { return keysym }
        let legacy = xkb_utf32_to_keysym(keysym - 0x0100_0000)
        return legacy == 0 ? keysym : legacy
    }

    /// The evdev code of the key that types `keysym` and the evdev codes of the modifier keys its
    /// level needs (Shift, AltGr …); nil when the layout has no key for it.
    public func keys(for unicodeOrLegacy: UInt32) -> (code: UInt16, modifiers: [UInt16])? {
        let keysym = KeyLayout.legacyKeysym(unicodeOrLegacy)
        var evdev: UInt32 = 0, mask: UInt32 = 0
        guard cxkb_lookup(keymap, keysym, KeyLayout.maxCode, &evdev, &mask) != 0 else { return nil }
        var modifiers: [UInt16] = []
        for index in 0..<xkb_keymap_num_mods(keymap) where mask & (1 << index) != 0 {
            guard let name = xkb_keymap_mod_get_name(keymap, index).map({ String(cString: $0) }),
                  let (keysym, usual) = KeyLayout.modifierKeys[name] else { continue }
            // The key keyboards have for it (AltGr is right Alt), where the layout puts it there.
            var code: UInt32 = usual, m: UInt32 = 0
            if cxkb_key_has(keymap, usual, keysym) == 0 && cxkb_lookup(keymap, keysym, KeyLayout.maxCode, &code, &m) == 0 { continue }
            if !modifiers.contains(UInt16(code)) { modifiers.append(UInt16(code)) }
        }
        return (UInt16(evdev), modifiers)
    }

    /// The evdev code of a combination's modifier key (left Ctrl, Alt, Shift, Super).
    public func code(of modifier: KeyCombo.Modifier) -> UInt16 {
        var code: UInt32 = 0, m: UInt32 = 0
        if cxkb_lookup(keymap, modifier.keysym, KeyLayout.maxCode, &code, &m) != 0 { return UInt16(code) }
        switch modifier {   // evdev's own codes, whatever the layout
        case .ctrl: return 29
        case .alt: return 56
        case .shift: return 42
        case .super: return 125
        }
    }

    /// The highest key code looked at: KEY_MICMUTE, the last key `UInputKeyboard` has (a layout
    /// also names keys no keyboard has, EuroSign on key 435 among them).
    static let maxCode: UInt32 = 248

    /// The keysyms that set a modifier of a level, and the evdev key keyboards have for each (Lock
    /// is never pressed: Caps Lock would stay on).
    static let modifierKeys: [String: (keysym: UInt32, usual: UInt32)] = [
        "Shift": (0xffe1, 42), "Control": (0xffe3, 29), "Mod1": (0xffe9, 56), "Alt": (0xffe9, 56),
        "Mod4": (0xffeb, 125), "Super": (0xffeb, 125), "Mod5": (0xfe03, 100), "LevelThree": (0xfe03, 100),
    ]

    /// `NAME="value"` lines of a shell file such as /etc/default/keyboard.
    public static func shellAssignments(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let l = line.trimmingCharacters(in: .whitespaces)
            guard !l.hasPrefix("#"), let eq = l.firstIndex(of: "=") else { continue }
            let value = l[l.index(after: eq)...].trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
            if !value.isEmpty { out[String(l[..<eq])] = value }
        }
        return out
    }
}
