internal import CX11
import SwitchCore
import SwitchDisplay
import SwitchInput

/// Sends keys through XTest **by keysym, through the keyboard layout in use** (issue 23): the key
/// and the level (Shift, AltGr) that type a keysym are looked up in the current XKB group, so
/// Ctrl+A is Ctrl+A on AZERTY too (sent by position it would be Ctrl+Q). A keysym the layout lacks
/// (€ on a US layout, a character of another script) is mapped onto a spare keycode, one without
/// any keysym, as xdotool does; the spare keycodes keep their keysym until `finish` (a client
/// that reads the keymap again only when it handles the mapping change must still find it there),
/// the least recently used one taking the next missing keysym.
///
/// `typeText` types any Unicode text this way (the text-entry issue uses it for fields without
/// EditableText). Modifiers the person holds, and Caps Lock, are not cleared. The seam's keys
/// (`DisplayKeys`) on X11.
public final class KeySender: DisplayKeys {
    public let via = "XTest"

    private let display: OpaquePointer
    private let owned: XDisplay?
    private let hasXTest: Bool
    /// Spare keycodes (no keysym), found on first need.
    private var spares: [UInt32]?
    /// keysym → spare keycode mapped to it, most recently used last.
    private var mapped: [(keysym: UInt32, keycode: UInt32)] = []

    /// A sender on its own X connection (DISPLAY, or `display`); nil without a display.
    public convenience init?(display: String? = nil) {
        guard let x = XDisplay(name: display) else { return nil }
        self.init(x)
    }

    init(_ x: XDisplay) {
        display = x.display
        hasXTest = x.hasXTest
        owned = x
    }

    deinit { finish() }

    /// Presses and releases a combination: its modifiers, the level's modifiers, the key.
    /// Returns how, for a result line: `keys Ctrl+C`.
    @discardableResult
    public func send(_ combo: KeyCombo) -> Result<String, DisplayFailure> {
        guard hasXTest else { return .failure(.noXTest) }
        var held: [UInt32] = []
        for m in combo.modifiers {
            let kc = modifierKeycode(m)
            if kc != 0 { held.append(kc) }
        }
        switch press(keysym: combo.keysym, holding: held) {
        case .failure: return .failure(.cannotType(combo.description))
        case .success: return .success("keys \(combo)")
        }
    }

    /// Types `text`, character by character (a new line is Return, a tab Tab). Stops at the
    /// first character it cannot type.
    @discardableResult
    public func typeText(_ text: String) -> Result<String, DisplayFailure> {
        guard hasXTest else { return .failure(.noXTest) }
        for u in text.unicodeScalars {
            guard let keysym = KeyCombo.typingKeysym(for: u), case .success = press(keysym: keysym, holding: []) else {
                return .failure(.cannotType("\"" + String(u) + "\""))
            }
        }
        return .success("typed \(text.count) character\(text.count == 1 ? "" : "s")")
    }

    /// One edit of a field by key events (issue 18, a field without EditableText): BackSpace
    /// `delete` times, the text, then Left or Right `move` times. Stops at the first key it cannot
    /// send.
    @discardableResult
    public func typeEdit(delete: Int, text: String, move: Int) -> Result<String, DisplayFailure> {
        guard hasXTest else { return .failure(.noXTest) }
        var how: [String] = []
        for _ in 0..<max(0, delete) {
            guard case .success = press(keysym: 0xff08, holding: []) else { return .failure(.cannotType("BackSpace")) }
        }
        if delete > 0 { how.append("BackSpace ×\(delete)") }
        if !text.isEmpty {
            switch typeText(text) {
            case .success(let h): how.append(h)
            case .failure(let f): return .failure(f)
            }
        }
        let arrow: UInt32 = move < 0 ? 0xff51 : 0xff53  // Left, Right
        for _ in 0..<abs(move) {
            guard case .success = press(keysym: arrow, holding: []) else { return .failure(.cannotType(move < 0 ? "Left" : "Right")) }
        }
        if move != 0 { how.append((move < 0 ? "Left ×" : "Right ×") + "\(abs(move))") }
        return .success(how.joined(separator: ", "))
    }

    /// Gives the spare keycodes back their empty mapping.
    public func finish() {
        for m in mapped { cx11_map_keycode(display, m.keycode, 0) }
        mapped = []
    }

    // MARK: -

    private func press(keysym: UInt32, holding held: [UInt32]) -> Result<Void, DisplayFailure> {
        guard let (keycode, mods) = lookup(keysym) else { return .failure(.cannotType("")) }
        var down = held
        for bit in 0..<8 where mods & (1 << UInt32(bit)) != 0 {
            let kc = cx11_modifier_keycode(display, Int32(bit))
            if kc != 0 && !down.contains(kc) { down.append(kc) }
        }
        for kc in down { _ = cx11_xtest_keycode(display, kc, 1) }
        _ = cx11_xtest_keycode(display, keycode, 1)
        _ = cx11_xtest_keycode(display, keycode, 0)
        for kc in down.reversed() { _ = cx11_xtest_keycode(display, kc, 0) }
        cx11_sync(display)
        return .success(())
    }

    /// The key and real modifiers that type `keysym` in the current group, or a spare keycode
    /// mapped to it (no modifiers).
    private func lookup(_ unicodeOrLegacy: UInt32) -> (UInt32, UInt32)? {
        // X layouts name most characters by their legacy keysyms (EuroSign, Cyrillic_zhe): look
        // the character up by that one.
        let keysym = KeyLayout.legacyKeysym(unicodeOrLegacy)
        var keycode: UInt32 = 0, mods: UInt32 = 0
        if let k = mapped.firstIndex(where: { $0.keysym == keysym }) {
            let m = mapped.remove(at: k)
            mapped.append(m)
            return (m.keycode, 0)
        }
        if cx11_xkb_lookup(display, UInt(keysym), cx11_xkb_group(display), &keycode, &mods) != 0 { return (keycode, mods) }
        if spares == nil {
            var buffer = [UInt32](repeating: 0, count: 16)
            let n = cx11_spare_keycodes(display, &buffer, Int32(buffer.count))
            spares = Array(buffer.prefix(Int(n)))
        }
        let inUse = Set(mapped.map(\.keycode))
        let kc: UInt32
        if let free = spares?.first(where: { !inUse.contains($0) }) {
            kc = free
        } else if !mapped.isEmpty {
            kc = mapped.removeFirst().keycode
        } else {
            return nil
        }
        cx11_map_keycode(display, kc, UInt(keysym))
        mapped.append((keysym, kc))
        return (kc, 0)
    }

    /// The key of a combination's modifier: the key of its left keysym (Control_L, Alt_L, Shift_L,
    /// Super_L) in the layout, else a key the modifier map gives Control, Mod1, Shift or Mod4.
    private func modifierKeycode(_ m: KeyCombo.Modifier) -> UInt32 {
        var keycode: UInt32 = 0, mods: UInt32 = 0
        if cx11_xkb_lookup(display, UInt(m.keysym), cx11_xkb_group(display), &keycode, &mods) != 0, mods == 0 { return keycode }
        switch m {
        case .shift: return cx11_modifier_keycode(display, 0)
        case .ctrl: return cx11_modifier_keycode(display, 2)
        case .alt: return cx11_modifier_keycode(display, 3)
        case .super: return cx11_modifier_keycode(display, 6)
        }
    }
}

extension DisplayFailure {
    /// No key types it and no spare keycode is left to map it onto.
    static func cannotType(_ what: String) -> DisplayFailure {
        DisplayFailure("no key types \(what) and the keyboard has no spare keycode to map it onto")
    }
}
