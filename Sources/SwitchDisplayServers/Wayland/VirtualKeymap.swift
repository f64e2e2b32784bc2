internal import CXKBCommon
import Glibc

/// The keymap a virtual keyboard uploads (zwp_virtual_keyboard_v1, and any protocol that takes
/// the client's keymap): every key types one keysym at its only level, so typing needs no
/// modifiers and any character can be typed, "é", "ß", "€" and scripts the person's layout lacks
/// included (wtype's approach). Keys are numbered from evdev code 1 (XKB keycode 9):
///
///     evdev 1 … 4    Shift_L, Control_L, Alt_L, Super_L (modifier_map Shift, Control, Mod1, Mod4)
///     evdev 5 …      the base keys (printable ASCII, Return, Tab, BackSpace, Escape, Delete,
///                    Insert, Home, End, PageUp, PageDown, arrows, Menu, Print, F1 … F12),
///                    then keysyms added as texts need them
///
/// At most `maxKeys` keys (XKB keycode 255: what Xwayland and X clients can read); when a keysym
/// needs a key and none is left, the added keysym used longest ago gives its key up. Compiled by
/// libxkbcommon (so a keymap that does not compile never reaches the compositor) and uploaded as
/// the compiled, self-contained text.
struct VirtualKeymap {
    static let modifierKeysyms: [(keysym: UInt32, modifier: String)] = [
        (0xffe1, "Shift"), (0xffe3, "Control"), (0xffe9, "Mod1"), (0xffeb, "Mod4"),
    ]
    static let baseKeysyms: [UInt32] = Array(0x20...0x7e)
        + [0xff0d, 0xff09, 0xff08, 0xff1b, 0xffff, 0xff63, 0xff50, 0xff57, 0xff55, 0xff56, 0xff51, 0xff52, 0xff53, 0xff54, 0xff67, 0xff61]
        + Array(0xffbe...0xffc9)
    /// XKB keycodes 9 … 255.
    static let maxKeys = 247

    /// Keysyms on keys after the modifiers, in key order.
    private(set) var keysyms: [UInt32] = VirtualKeymap.baseKeysyms
    /// Added keysyms, least recently used first.
    private var recent: [UInt32] = []

    /// The evdev code of the key that types `keysym`, if the keymap has it.
    func code(of keysym: UInt32) -> UInt32? {
        if let m = VirtualKeymap.modifierKeysyms.firstIndex(where: { $0.keysym == keysym }) { return UInt32(m + 1) }
        guard let k = keysyms.firstIndex(of: keysym) else { return nil }
        return UInt32(VirtualKeymap.modifierKeysyms.count + k + 1)
    }

    /// The evdev code of a modifier's key (Shift, Control, Mod1, Mod4).
    static func modifierCode(_ modifier: String) -> UInt32? {
        modifierKeysyms.firstIndex { $0.modifier == modifier }.map { UInt32($0 + 1) }
    }

    /// Makes sure every keysym of `needed` has a key; true when the keymap changed (upload it
    /// before the next key). Marks them used.
    mutating func make(room needed: [UInt32]) -> Bool {
        var changed = false
        for keysym in needed where VirtualKeymap.modifierKeysyms.allSatisfy({ $0.keysym != keysym }) {
            if keysyms.contains(keysym) {
                if let r = recent.firstIndex(of: keysym) { recent.append(recent.remove(at: r)) }
                continue
            }
            if keysyms.count + VirtualKeymap.modifierKeysyms.count >= VirtualKeymap.maxKeys {
                // The least recently used added keysym not needed now gives its key up.
                guard let old = recent.firstIndex(where: { !needed.contains($0) }) else { continue }
                let keysymGone = recent.remove(at: old)
                keysyms[keysyms.firstIndex(of: keysymGone)!] = keysym
            } else {
                keysyms.append(keysym)
            }
            recent.append(keysym)
            changed = true
        }
        return changed
    }

    /// The keymap's XKB source.
    var source: String {
        var codes = "", symbols = ""
        let all = VirtualKeymap.modifierKeysyms.map(\.keysym) + keysyms
        for (k, keysym) in all.enumerated() {
            codes += "    <K\(k + 1)> = \(k + 9);\n"
            symbols += "    key <K\(k + 1)> { [ \(VirtualKeymap.name(of: keysym)) ] };\n"
        }
        for (k, m) in VirtualKeymap.modifierKeysyms.enumerated() {
            symbols += "    modifier_map \(m.modifier) { <K\(k + 1)> };\n"
        }
        return """
            xkb_keymap {
              xkb_keycodes "switchscan" {
                minimum = 8;
                maximum = \(max(255, all.count + 8));
            \(codes)  };
              xkb_types "switchscan" { include "complete" };
              xkb_compat "switchscan" { include "complete" };
              xkb_symbols "switchscan" {
            \(symbols)  };
            };

            """
    }

    /// A keysym's XKB name ("eacute", "EuroSign", "U1F600"), or its number.
    static func name(of keysym: UInt32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let n = xkb_keysym_get_name(keysym, &buffer, buffer.count)
        guard n > 0 else { return "0x" + String(keysym, radix: 16) }
        return String(decoding: buffer.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A keymap compiled by libxkbcommon: its full text (what goes to the compositor) and the
/// modifier masks the keyboard's `modifiers` request carries.
struct CompiledKeymap {
    let text: String
    /// Real modifier name → its mask bit.
    let masks: [String: UInt32]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(source: String) throws(Failure) {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { throw Failure(description: "libxkbcommon made no context") }
        defer { xkb_context_unref(context) }
        guard let keymap = xkb_keymap_new_from_string(context, source, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS) else {
            throw Failure(description: "the virtual keyboard's keymap does not compile (xkb-data installed?)")
        }
        defer { xkb_keymap_unref(keymap) }
        guard let raw = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else {
            throw Failure(description: "libxkbcommon could not write the keymap")
        }
        text = String(cString: raw)
        free(raw)
        var masks: [String: UInt32] = [:]
        for m in VirtualKeymap.modifierKeysyms.map(\.modifier) {
            let index = xkb_keymap_mod_get_index(keymap, m)
            if index != XKB_MOD_INVALID { masks[m] = 1 << index }
        }
        self.masks = masks
    }
}
