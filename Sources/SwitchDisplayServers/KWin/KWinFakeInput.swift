internal import CWayland
import Glibc
import SwitchCore
import SwitchDisplay
import SwitchInput

/// The pointer and the keys on KWin: `org_kde_kwin_fake_input` (plasma-wayland-protocols), on ONE
/// Wayland connection kept for the whole run. KWin's seat has a pointer and a keyboard only while
/// some fake-input client is connected, and applications bind `wl_pointer` only when the seat
/// announces one: a connection per click loses clicks to applications that bind late (measured,
/// packaging/kwin/README.md).
///
/// KWin offers the interface only to a binary a `.desktop` file names in
/// `X-KDE-Wayland-Interfaces` (packaging/kwin/switchscan-fake-input.desktop.in): without that
/// grant the global is not announced at all (`Failure.notGranted`).
///
///     connect: bind (version 4: keys), authenticate, round trip ─→ the seat now has a keyboard ─→
///              wl_seat.get_keyboard ─→ keymap (XKB text) ─→ `KeyLayout`: keys go by keysym
///              through the seat's own layout (KWin interprets key codes with it)
///     move     pointer_motion_absolute (logical desktop pixels, kept on the outputs)
///     button   button(evdev code, pressed)
///     wheel    axis(vertical/horizontal, ±15 per click, as libinput's wheel)
///     key      keyboard_key(evdev code, pressed)
///
/// Requests are flushed at once; the connection is read by the backend's loop descriptor
/// (`KWinBackend`), which notices KWin going away.
final class KWinFakeInput {
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// KWin does not announce the interface to this binary.
        case notGranted(binary: String)
        case connection(WaylandConnection.Failure)

        var description: String {
            switch self {
            case .notGranted(let binary):
                return "KWin does not let \(binary) use fake input (org_kde_kwin_fake_input): no .desktop file names it in "
                    + "X-KDE-Wayland-Interfaces"
            case .connection(let f): return f.description
            }
        }
    }

    let connection: WaylandConnection
    private let fake: OpaquePointer
    let version: UInt32
    private var seat: OpaquePointer?
    private var keyboard: OpaquePointer?
    /// The seat's keymap, once KWin sent it.
    private(set) var layout: KeyLayout?
    /// Why the seat's keymap could not be read (nil: read, or not sent yet).
    private(set) var keymapProblem: String?

    init(connection: WaylandConnection, binary: String) throws(Failure) {
        guard let (proxy, version) = connection.bind("org_kde_kwin_fake_input", upTo: 4) else { throw .notGranted(binary: binary) }
        self.connection = connection
        fake = proxy
        self.version = version
        org_kde_kwin_fake_input_authenticate(fake, "switchscan", "switch access: clicks and keys for a person who scans with switches")
        do {
            try connection.roundtrip(for: "fake input's authentication")
        } catch {
            throw .connection(error)
        }
        // Our own wl_seat, with a listener: the keyboard appears now that a fake-input device exists.
        if let (seat, _) = connection.bind("wl_seat", upTo: 1) {
            self.seat = seat
            wl_seat_add_listener(seat, seatListener, Unmanaged.passUnretained(self).toOpaque())
            try? connection.wait(timeout: 2, for: "the seat's keymap") { layout != nil || keymapProblem != nil }
        }
    }

    deinit {
        if let keyboard { wl_keyboard_destroy(keyboard) }
        if let seat { wl_seat_destroy(seat) }
        org_kde_kwin_fake_input_destroy(fake)
        connection.flush()
    }

    var isLost: Bool { connection.failure != nil }

    // MARK: Pointer

    /// Moves to (x, y) in desktop logical pixels, kept on the outputs.
    func move(to p: Point) {
        let b = connection.layoutBounds
        var x = p.x, y = p.y
        if b.width > 0 && b.height > 0 {
            x = min(max(Double(b.x), x), Double(b.x + b.width) - 1)
            y = min(max(Double(b.y), y), Double(b.y + b.height) - 1)
        }
        org_kde_kwin_fake_input_pointer_motion_absolute(fake, wl_fixed_from_double(x.rounded(.down)), wl_fixed_from_double(y.rounded(.down)))
        connection.flush()
    }

    static func code(_ b: PointerButton) -> UInt32 {
        switch b {
        case .left: 0x110
        case .right: 0x111
        case .middle: 0x112
        }
    }

    func button(_ b: PointerButton, down: Bool) {
        org_kde_kwin_fake_input_button(fake, KWinFakeInput.code(b), down ? WL_POINTER_BUTTON_STATE_PRESSED.rawValue : WL_POINTER_BUTTON_STATE_RELEASED.rawValue)
        connection.flush()
    }

    /// One wheel click (15 units, as libinput's wheel; positive is down or right).
    func wheel(_ d: ScrollDirection) {
        let (axis, value): (wl_pointer_axis, Double) = switch d {
        case .up, .top: (WL_POINTER_AXIS_VERTICAL_SCROLL, -15)
        case .down, .bottom: (WL_POINTER_AXIS_VERTICAL_SCROLL, 15)
        case .left: (WL_POINTER_AXIS_HORIZONTAL_SCROLL, -15)
        case .right: (WL_POINTER_AXIS_HORIZONTAL_SCROLL, 15)
        }
        org_kde_kwin_fake_input_axis(fake, axis.rawValue, wl_fixed_from_double(value))
        connection.flush()
    }

    // MARK: Keys

    /// One key (evdev code) down or up; nil, or why it cannot be sent.
    func key(_ code: UInt16, down: Bool) -> String? {
        guard version >= 4 else { return "KWin's fake input is version \(version), and keys need version 4 (KWin 5.23 or later)" }
        if let f = connection.failure { return f.description }
        org_kde_kwin_fake_input_keyboard_key(fake, UInt32(code), down ? 1 : 0)
        connection.flush()
        return nil
    }

    // MARK: The seat's keyboard

    fileprivate func capabilities(_ caps: UInt32) {
        let has = caps & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0
        if has, keyboard == nil, let seat, let k = wl_seat_get_keyboard(seat) {
            keyboard = k
            wl_keyboard_add_listener(k, keyboardListener, Unmanaged.passUnretained(self).toOpaque())
        } else if !has, let k = keyboard {
            wl_keyboard_destroy(k)
            keyboard = nil
        }
    }

    fileprivate func keymap(format: UInt32, fd: Int32, size: UInt32) {
        defer { close(fd) }
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, size > 0 else {
            keymapProblem = "KWin's seat sent a keymap that is not XKB text (format \(format))"
            return
        }
        guard let map = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else {
            keymapProblem = "cannot read KWin's keymap: \(String(cString: strerror(errno)))"
            return
        }
        defer { munmap(map, Int(size)) }
        let bytes = UnsafeRawBufferPointer(start: map, count: Int(size))
        let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        do {
            layout = try KeyLayout(keymapText: text, names: "of KWin's seat")
            keymapProblem = nil
        } catch {
            keymapProblem = "cannot compile KWin's keymap: \(error)"
        }
    }
}

nonisolated(unsafe) private let seatListener: UnsafeMutablePointer<wl_seat_listener> = {
    let p = UnsafeMutablePointer<wl_seat_listener>.allocate(capacity: 1)
    p.initialize(to: wl_seat_listener(
        capabilities: { data, _, caps in
            guard let data else { return }
            Unmanaged<KWinFakeInput>.fromOpaque(data).takeUnretainedValue().capabilities(caps)
        },
        name: { _, _, _ in }))
    return p
}()

nonisolated(unsafe) private let keyboardListener: UnsafeMutablePointer<wl_keyboard_listener> = {
    let p = UnsafeMutablePointer<wl_keyboard_listener>.allocate(capacity: 1)
    p.initialize(to: wl_keyboard_listener(
        keymap: { data, _, format, fd, size in
            guard let data else { close(fd); return }
            Unmanaged<KWinFakeInput>.fromOpaque(data).takeUnretainedValue().keymap(format: format, fd: fd, size: size)
        },
        enter: { _, _, _, _, _ in },
        leave: { _, _, _, _ in },
        key: { _, _, _, _, _, _ in },
        modifiers: { _, _, _, _, _, _, _ in },
        repeat_info: { _, _, _, _ in }))
    return p
}()

/// The seam's pointer through fake input.
extension KWinFakeInput: DisplayPointer {
    var unavailable: DisplayFailure? { connection.failure.map { DisplayFailure($0.description) } }

    func click(_ b: PointerButton, at point: Point) -> Result<Void, DisplayFailure> {
        if let f = unavailable { return .failure(f) }
        move(to: point)
        button(b, down: true)
        button(b, down: false)
        return unavailable.map { .failure($0) } ?? .success(())
    }

    func wheel(_ direction: ScrollDirection, at point: Point) -> Result<Void, DisplayFailure> {
        if let f = unavailable { return .failure(f) }
        move(to: point)
        wheel(direction)
        return unavailable.map { .failure($0) } ?? .success(())
    }

    func perform(_ op: PointerOp) -> Result<Void, DisplayFailure> {
        if let f = unavailable { return .failure(f) }
        switch op {
        case .move(let p): move(to: p)
        case .button(let b, let down): button(b, down: down)
        case .wheel(let d): wheel(d)
        }
        return unavailable.map { .failure($0) } ?? .success(())
    }
}

/// The seam's keys through fake input, by keysym through the seat's keymap.
extension KWinFakeInput: DisplayKeys {
    var via: String { "KWin's fake input" }

    private func typing() -> Result<LayoutTyping, DisplayFailure> {
        if let f = unavailable { return .failure(f) }
        guard let layout else {
            return .failure(DisplayFailure(keymapProblem ?? "KWin's seat sent no keymap (no keyboard on the seat)"))
        }
        return .success(LayoutTyping(layout: layout) { [unowned self] code, down in key(code, down: down) })
    }

    func send(_ combo: KeyCombo) -> Result<String, DisplayFailure> {
        typing().flatMap { LayoutKeys.send($0, combo) }
    }

    func typeText(_ text: String) -> Result<String, DisplayFailure> {
        typing().flatMap { LayoutKeys.typeText($0, text) }
    }

    func typeEdit(delete: Int, text: String, move: Int) -> Result<String, DisplayFailure> {
        typing().flatMap { LayoutKeys.typeEdit($0, delete: delete, text: text, move: move) }
    }

    /// Nothing to put back: the seat's keymap was never changed.
    func finish() {}
}
