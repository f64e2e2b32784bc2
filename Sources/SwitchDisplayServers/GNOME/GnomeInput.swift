import SwitchCore
import SwitchDisplay

/// The pointer and the keys on GNOME Shell: the extension's Clutter virtual devices (made once
/// when it is enabled, announced by the seat before its name shows: the first click lands) and
/// the Shell's input method for text.
///
///     click      PointerMove, PointerButton down, up: sent together, the last one waited for
///                (the Shell carries out one connection's calls in order)
///     wheel      PointerMove, PointerScroll by one step
///     combo      Key down for each modifier and the key, then up in reverse (by keysym: mutter
///                finds the key on its keymap and adds Shift for a capital)
///     text       each run of printable characters committed by `Text` (the Shell's input method,
///                as its own on-screen keyboard types: any character, whatever the keymap);
///                a new line or a tab by `Key`; without a field that has the input method's focus
///                (`Text` answers false) the characters go by `Key`, which reaches the client only
///                for keysyms of the current keymap
///     edit       BackSpace by `Key`, the text as above, Left or Right by `Key`; keys travel through
///                the seat's input thread while `Text` is carried out at once, so before a `Text`
///                that follows keys the Shell is asked to paint a frame (`Sync`): the keys are in
///                by then
final class GnomeInput: DisplayPointer, DisplayKeys {
    let shell: GnomeShellConnection
    let via = "switchscan's GNOME Shell extension"

    init(shell: GnomeShellConnection) {
        self.shell = shell
    }

    // MARK: DisplayPointer

    var unavailable: DisplayFailure? { shell.unavailable }

    func click(_ button: PointerButton, at point: Point) -> Result<Void, DisplayFailure> {
        shell.send("PointerMove", [.double(point.x), .double(point.y)])
        shell.send("PointerButton", [.uint32(UInt32(button.rawValue)), .bool(true)])
        return shell.call("PointerButton", [.uint32(UInt32(button.rawValue)), .bool(false)]).map { _ in () }
    }

    func wheel(_ direction: ScrollDirection, at point: Point) -> Result<Void, DisplayFailure> {
        shell.send("PointerMove", [.double(point.x), .double(point.y)])
        return scroll(direction)
    }

    func perform(_ op: PointerOp) -> Result<Void, DisplayFailure> {
        switch op {
        case .move(let p): return shell.call("PointerMove", [.double(p.x), .double(p.y)]).map { _ in () }
        case .button(let b, let down): return shell.call("PointerButton", [.uint32(UInt32(b.rawValue)), .bool(down)]).map { _ in () }
        case .wheel(let d): return scroll(d)
        }
    }

    /// One wheel step: dy > 0 is down, dx > 0 right.
    private func scroll(_ d: ScrollDirection) -> Result<Void, DisplayFailure> {
        let (dx, dy): (Double, Double) = switch d {
        case .up, .top: (0, -1)
        case .down, .bottom: (0, 1)
        case .left: (-1, 0)
        case .right: (1, 0)
        }
        return shell.call("PointerScroll", [.double(dx), .double(dy)]).map { _ in () }
    }

    // MARK: DisplayKeys

    func send(_ combo: KeyCombo) -> Result<String, DisplayFailure> {
        let keys = combo.modifiers.map(\.keysym) + [combo.keysym]
        return pressAndRelease(keys).map { "keys \(combo)" }
    }

    func typeText(_ text: String) -> Result<String, DisplayFailure> {
        var keysSent = false
        return type(text, keysSent: &keysSent).map { "typed \(text.count) character\(text.count == 1 ? "" : "s")" + ($0 ? " by key" : "") }
    }

    func typeEdit(delete: Int, text: String, move: Int) -> Result<String, DisplayFailure> {
        var how: [String] = []
        var keysSent = false
        if delete > 0 {
            for _ in 0..<delete { if case .failure(let e) = pressAndRelease([0xff08]) { return .failure(e) } }
            keysSent = true
            how.append("BackSpace ×\(delete)")
        }
        if !text.isEmpty {
            if case .failure(let e) = type(text, keysSent: &keysSent) { return .failure(e) }
            how.append("typed \(text.count) character\(text.count == 1 ? "" : "s")")
        }
        if move != 0 {
            for _ in 0..<abs(move) { if case .failure(let e) = pressAndRelease([move < 0 ? 0xff51 : 0xff53]) { return .failure(e) } }
            how.append((move < 0 ? "Left ×" : "Right ×") + "\(abs(move))")
        }
        return .success(how.joined(separator: ", "))
    }

    /// Nothing to put back: the extension's devices are its own, and it releases what they
    /// hold when it is disabled.
    func finish() {}

    /// Types `text`: printable runs by `Text`, new lines and tabs (and everything, without an
    /// input method focus) by `Key`. True when any of it went by key.
    private func type(_ text: String, keysSent: inout Bool) -> Result<Bool, DisplayFailure> {
        var byKey = false
        var run = ""
        func commit() -> Result<Void, DisplayFailure> {
            guard !run.isEmpty else { return .success(()) }
            defer { run = "" }
            if keysSent && shell.apiVersion >= 2 { _ = shell.call("Sync") }
            switch shell.call("Text", [.string(run)]) {
            case .failure(let e): return .failure(e)
            case .success(let r) where r.first?.bool == true: return .success(())
            case .success:
                // No field has the input method's focus: key by key.
                for u in run.unicodeScalars {
                    guard let keysym = KeyCombo.keysym(for: u) else { return .failure(DisplayFailure("cannot type \"\(u)\"")) }
                    if case .failure(let e) = pressAndRelease([keysym]) { return .failure(e) }
                }
                byKey = true
                keysSent = true
                return .success(())
            }
        }
        for u in text.unicodeScalars {
            if u == "\n" || u == "\r" || u == "\t" {
                if case .failure(let e) = commit() { return .failure(e) }
                if case .failure(let e) = pressAndRelease([KeyCombo.typingKeysym(for: u)!]) { return .failure(e) }
                keysSent = true
            } else if KeyCombo.keysym(for: u) != nil {
                run.unicodeScalars.append(u)
            } else {
                return .failure(DisplayFailure("cannot type \"\(u)\""))
            }
        }
        return commit().map { byKey }
    }

    /// Presses `keysyms` in order and releases them in reverse; the last release waited for.
    private func pressAndRelease(_ keysyms: [UInt32]) -> Result<Void, DisplayFailure> {
        if let why = unavailable { return .failure(why) }
        for k in keysyms { shell.send("Key", [.uint32(k), .bool(true)]) }
        for k in keysyms.reversed().dropLast() { shell.send("Key", [.uint32(k), .bool(false)]) }
        return shell.call("Key", [.uint32(keysyms[0]), .bool(false)]).map { _ in () }
    }
}
