import SwitchCore

/// Keys by keysym through a keyboard layout, sent as evdev key downs and ups by whatever carries
/// them (`--inject`'s uinput keyboard; KWin's fake input, through the seat's own keymap): the one
/// place that turns a combination, a text or an edit into key presses.
///
///     send(Ctrl+C)     Control_L down, C down, C up, Control_L up (the level's modifiers too:
///                      Shift for a capital, AltGr for €)
///     typeText("Hé")   per character: its level's modifiers down, the key down and up, them up
///     typeEdit         BackSpace × delete, the text, Left/Right × |move|
///
/// A keysym the layout lacks stops there, with a message that names it (no key can be added:
/// the keymap is the system's or the compositor's).
public struct LayoutTyping {
    public let layout: KeyLayout
    /// Sends one key (evdev code) down or up; the message of a failure.
    private let key: (_ code: UInt16, _ down: Bool) -> String?

    public init(layout: KeyLayout, key: @escaping (_ code: UInt16, _ down: Bool) -> String?) {
        self.layout = layout
        self.key = key
    }

    /// Presses a combination: its modifiers, the level's modifiers, the key; releases them in
    /// reverse.
    public func send(_ combo: KeyCombo) -> String? {
        guard let k = layout.keys(for: combo.keysym) else {
            return "\(combo): the keyboard layout \(layout.names) has no key for it"
        }
        var held = combo.modifiers.map { layout.code(of: $0) }
        for m in k.modifiers where !held.contains(m) { held.append(m) }
        return tap(k.code, holding: held)
    }

    /// Types `text` character by character (`KeyCombo.typingKeysym`: a new line is Return, a tab
    /// Tab); the message of the first character it cannot type.
    public func typeText(_ text: String) -> String? {
        for u in text.unicodeScalars {
            guard let keysym = KeyCombo.typingKeysym(for: u), let k = layout.keys(for: keysym) else {
                return "\"\(u)\": the keyboard layout \(layout.names) has no key for it"
            }
            if let e = tap(k.code, holding: k.modifiers) { return e }
        }
        return nil
    }

    /// One edit of a field by key events (issue 18): BackSpace `delete` times, the text, then Left
    /// or Right `move` times; the message of the first key it cannot send.
    public func typeEdit(delete: Int, text: String, move: Int) -> String? {
        if let e = repeatKey(0xff08, "BackSpace", times: delete) { return e }
        if let e = typeText(text) { return e }
        return move < 0 ? repeatKey(0xff51, "Left", times: -move) : repeatKey(0xff53, "Right", times: move)
    }

    /// Taps the key of `keysym` (`name`, for the message) `times` times; nothing when `times` ≤ 0.
    private func repeatKey(_ keysym: UInt32, _ name: String, times: Int) -> String? {
        guard times > 0 else { return nil }
        guard let k = layout.keys(for: keysym) else { return "\(name): the keyboard layout \(layout.names) has no key for it" }
        for _ in 0..<times { if let e = tap(k.code, holding: k.modifiers) { return e } }
        return nil
    }

    private func tap(_ code: UInt16, holding held: [UInt16]) -> String? {
        for m in held { if let e = key(m, true) { return e } }
        if let e = key(code, true) { return e }
        if let e = key(code, false) { return e }
        for m in held.reversed() { if let e = key(m, false) { return e } }
        return nil
    }
}
