internal import CEvdev
import SwitchCore

/// `--inject`'s keyboard (issue 23): a uinput device, "switchscan keyboard", with every key of a
/// keyboard and the media keys. Key combinations and text go by keysym through the system's layout
/// (`KeyLayout`). `run` never reads a device named "switchscan …", so a synthetic Enter never
/// selects.
public final class UInputKeyboard {
    public static let deviceName = "switchscan keyboard"
    private let device: UInputDevice
    public let layout: KeyLayout

    public init(layout: KeyLayout) throws(DeviceError) {
        self.layout = layout
        device = try UInputDevice(name: UInputKeyboard.deviceName, product: 0x0002) { dev in
            libevdev_enable_event_type(dev, UInt32(EV_KEY))
            // KEY_ESC … KEY_MICMUTE: the keyboard keys, the media and device keys.
            for code in UInt32(KEY_ESC)...UInt32(KEY_MICMUTE) { libevdev_enable_event_code(dev, UInt32(EV_KEY), code, nil) }
        }
    }

    public var node: String? { device.node }

    /// Presses a combination: its modifiers, the level's modifiers, the key; releases them in
    /// reverse. Each change is a frame of its own, as a keyboard sends them.
    public func send(_ combo: KeyCombo) -> String? {
        guard let key = layout.keys(for: combo.keysym) else {
            return "\(combo): the keyboard layout \(layout.names) has no key for it"
        }
        var held = combo.modifiers.map { layout.code(of: $0) }
        for m in key.modifiers where !held.contains(m) { held.append(m) }
        return tap(key.code, holding: held)
    }

    /// Types `text` character by character (`KeyCombo.typingKeysym`: a new line is Return, a tab
    /// Tab); the message of the first character it cannot type.
    public func typeText(_ text: String) -> String? {
        for u in text.unicodeScalars {
            guard let keysym = KeyCombo.typingKeysym(for: u), let key = layout.keys(for: keysym) else {
                return "\"\(u)\": the keyboard layout \(layout.names) has no key for it"
            }
            if let e = tap(key.code, holding: key.modifiers) { return e }
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
        guard let key = layout.keys(for: keysym) else { return "\(name): the keyboard layout \(layout.names) has no key for it" }
        for _ in 0..<times { if let e = tap(key.code, holding: key.modifiers) { return e } }
        return nil
    }

    private func tap(_ code: UInt16, holding held: [UInt16]) -> String? {
        let key = UInt16(EV_KEY)
        for m in held { if let e = device.write([(key, m, 1)]) { return e } }
        if let e = device.write([(key, code, 1)]) { return e }
        if let e = device.write([(key, code, 0)]) { return e }
        for m in held.reversed() { if let e = device.write([(key, m, 0)]) { return e } }
        return nil
    }
}
