internal import CWayland
import Glibc
import SwitchCore

/// Keys on wlroots compositors: a zwp_virtual_keyboard_v1 device on the seat with a keymap of our
/// own (`VirtualKeymap`: every keysym on a key of its own, uploaded again when a text needs one it
/// lacks), so keys go by keysym, whatever the person's layout, and any character types.
///
///     typeText("é€")  keymap grown if needed ─→ per character: key down, key up
///     send(Ctrl+C)    Control_L down, modifiers(Control) ─→ key of "c" down, up ─→
///                     Control_L up, modifiers(none)
///
/// wlroots takes a virtual keyboard's modifier state only from `modifiers` (its key events do not
/// update it), so both are sent, as a real keyboard's compositor would see them. Sending waits
/// for nothing; the loop flushes.
public final class VirtualKeyboard {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// A character no keysym stands for (a control character).
        case cannotType(String)
        case keymap(String)

        public var description: String {
            switch self {
            case .cannotType(let what): return "no key types \(what)"
            case .keymap(let why): return why
            }
        }
    }

    private let connection: WaylandConnection
    private let manager: OpaquePointer
    private let keyboard: OpaquePointer
    private var keymap = VirtualKeymap()
    private var masks: [String: UInt32] = [:]

    /// Binds the manager, makes the device on the seat and uploads the base keymap.
    public init(connection: WaylandConnection) throws(WaylandConnection.Failure) {
        guard let seat = connection.seat else { throw .missing("wl_seat") }
        guard let (manager, _) = connection.bind("zwp_virtual_keyboard_manager_v1", upTo: 1) else {
            throw .missing("zwp_virtual_keyboard_manager_v1")
        }
        guard let keyboard = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(manager, seat) else {
            throw .lost("zwp_virtual_keyboard_manager_v1.create_virtual_keyboard failed")
        }
        self.connection = connection
        self.manager = manager
        self.keyboard = keyboard
        if case .failure(let f) = upload() { throw .lost(f.description) }
        try connection.roundtrip(for: "the virtual keyboard")
    }

    deinit {
        zwp_virtual_keyboard_v1_destroy(keyboard)
        wl_proxy_destroy(manager)
        connection.flush()
    }

    /// Types `text` character by character (a new line is Return, a tab Tab).
    @discardableResult
    public func typeText(_ text: String) -> Result<String, Failure> {
        var keysyms: [UInt32] = []
        for u in text.unicodeScalars {
            guard let k = KeyCombo.typingKeysym(for: u) else { return .failure(.cannotType("\"\(u.escaped(asASCII: true))\"")) }
            keysyms.append(k)
        }
        if case .failure(let f) = ensureKeys(keysyms) { return .failure(f) }
        for k in keysyms { tap(keymap.code(of: k)!) }
        connection.flush()
        return .success("typed \(text.count) character\(text.count == 1 ? "" : "s")")
    }

    /// Presses and releases a combination: modifiers held (and in the modifier state), the key.
    @discardableResult
    public func send(_ combo: KeyCombo) -> Result<String, Failure> {
        if case .failure(let f) = ensureKeys([combo.keysym]) { return .failure(f) }
        let names = combo.modifiers.map(VirtualKeyboard.modifierName)
        var mask: UInt32 = 0
        for name in names {
            key(VirtualKeymap.modifierCode(name)!, down: true)
            mask |= masks[name] ?? 0
            zwp_virtual_keyboard_v1_modifiers(keyboard, mask, 0, 0, 0)
        }
        tap(keymap.code(of: combo.keysym)!)
        for name in names.reversed() {
            key(VirtualKeymap.modifierCode(name)!, down: false)
            mask &= ~(masks[name] ?? 0)
            zwp_virtual_keyboard_v1_modifiers(keyboard, mask, 0, 0, 0)
        }
        connection.flush()
        return .success("keys \(combo)")
    }

    /// Presses and releases the key of one keysym.
    @discardableResult
    public func tap(keysym: UInt32) -> Result<String, Failure> {
        if case .failure(let f) = ensureKeys([keysym]) { return .failure(f) }
        tap(keymap.code(of: keysym)!)
        connection.flush()
        return .success("key \(VirtualKeymap.name(of: keysym))")
    }

    // MARK: -

    static func modifierName(_ m: KeyCombo.Modifier) -> String {
        switch m {
        case .shift: return "Shift"
        case .ctrl: return "Control"
        case .alt: return "Mod1"
        case .super: return "Mod4"
        }
    }

    private func ensureKeys(_ keysyms: [UInt32]) -> Result<Void, Failure> {
        guard keymap.make(room: keysyms) else { return .success(()) }
        return upload()
    }

    private func tap(_ code: UInt32) {
        key(code, down: true)
        key(code, down: false)
    }

    private func key(_ code: UInt32, down: Bool) {
        zwp_virtual_keyboard_v1_key(keyboard, WaylandConnection.milliseconds(), code,
                                    down ? WL_KEYBOARD_KEY_STATE_PRESSED.rawValue : WL_KEYBOARD_KEY_STATE_RELEASED.rawValue)
    }

    /// Compiles the keymap and hands it to the compositor (a copy in shared memory, which
    /// libwayland duplicates the descriptor of when it queues the request).
    private func upload() -> Result<Void, Failure> {
        let compiled: CompiledKeymap
        do {
            compiled = try CompiledKeymap(source: keymap.source)
        } catch {
            return .failure(.keymap(error.description))
        }
        masks = compiled.masks
        let bytes = Array(compiled.text.utf8) + [0]
        let fd = cwl_memfd("switchscan-keymap")
        guard fd >= 0 else { return .failure(.keymap("no shared memory for the keymap: \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            guard n > 0 else { return .failure(.keymap("cannot write the keymap: \(String(cString: strerror(errno)))")) }
            written += n
        }
        zwp_virtual_keyboard_v1_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, fd, UInt32(bytes.count))
        return .success(())
    }
}
