import SwitchCore
import SwitchDisplay

/// The seam's pointer on wlroots: the virtual pointer (`VirtualPointer`), in the desktop's
/// logical pixels (every output; a point off the layout is kept on it).
final class WlrootsPointer: DisplayPointer {
    private let pointer: VirtualPointer
    private let connection: WaylandConnection

    init(_ pointer: VirtualPointer, connection: WaylandConnection) {
        self.pointer = pointer
        self.connection = connection
    }

    var unavailable: DisplayFailure? { connection.failure.map { DisplayFailure("the Wayland compositor is gone: \($0)") } }

    func click(_ button: PointerButton, at point: Point) -> Result<Void, DisplayFailure> {
        if let why = unavailable { return .failure(why) }
        pointer.click(Self.button(button), atX: point.x, y: point.y)
        return unavailable.map { .failure($0) } ?? .success(())
    }

    func wheel(_ direction: ScrollDirection, at point: Point) -> Result<Void, DisplayFailure> {
        if let why = unavailable { return .failure(why) }
        pointer.move(toX: point.x, y: point.y)
        let (dx, dy) = Self.steps(direction)
        pointer.scroll(dx: dx, dy: dy)
        return unavailable.map { .failure($0) } ?? .success(())
    }

    func perform(_ op: PointerOp) -> Result<Void, DisplayFailure> {
        if let why = unavailable { return .failure(why) }
        switch op {
        case .move(let p): pointer.move(toX: p.x, y: p.y)
        case .button(let b, let down): down ? pointer.press(Self.button(b)) : pointer.release(Self.button(b))
        case .wheel(let d):
            let (dx, dy) = Self.steps(d)
            pointer.scroll(dx: dx, dy: dy)
        }
        return unavailable.map { .failure($0) } ?? .success(())
    }

    static func button(_ b: PointerButton) -> VirtualPointer.Button {
        switch b {
        case .left: .left
        case .middle: .middle
        case .right: .right
        }
    }

    /// One wheel step this way: (right, down), each −1, 0 or 1.
    static func steps(_ d: ScrollDirection) -> (dx: Int, dy: Int) {
        switch d {
        case .up, .top: (0, -1)
        case .down, .bottom: (0, 1)
        case .left: (-1, 0)
        case .right: (1, 0)
        }
    }
}

/// The seam's keys on wlroots: the virtual keyboard with its own keymap (`VirtualKeyboard`), so
/// any keysym types whatever the person's layout, "é", "€" and other scripts included.
final class WlrootsKeys: DisplayKeys {
    let via = "virtual keyboard"
    private let keyboard: VirtualKeyboard
    private let connection: WaylandConnection

    init(_ keyboard: VirtualKeyboard, connection: WaylandConnection) {
        self.keyboard = keyboard
        self.connection = connection
    }

    private var gone: DisplayFailure? { connection.failure.map { DisplayFailure("the Wayland compositor is gone: \($0)") } }

    func send(_ combo: KeyCombo) -> Result<String, DisplayFailure> {
        if let gone { return .failure(gone) }
        return keyboard.send(combo).mapError { DisplayFailure($0.description) }
    }

    func typeText(_ text: String) -> Result<String, DisplayFailure> {
        if let gone { return .failure(gone) }
        return keyboard.typeText(text).mapError { DisplayFailure($0.description) }
    }

    func typeEdit(delete: Int, text: String, move: Int) -> Result<String, DisplayFailure> {
        if let gone { return .failure(gone) }
        var how: [String] = []
        for _ in 0..<max(0, delete) {
            if case .failure(let f) = keyboard.tap(keysym: 0xff08) { return .failure(DisplayFailure(f.description)) }  // BackSpace
        }
        if delete > 0 { how.append("BackSpace ×\(delete)") }
        if !text.isEmpty {
            switch keyboard.typeText(text) {
            case .success(let h): how.append(h)
            case .failure(let f): return .failure(DisplayFailure(f.description))
            }
        }
        for _ in 0..<abs(move) {
            if case .failure(let f) = keyboard.tap(keysym: move < 0 ? 0xff51 : 0xff53) { return .failure(DisplayFailure(f.description)) }  // Left, Right
        }
        if move != 0 { how.append((move < 0 ? "Left ×" : "Right ×") + "\(abs(move))") }
        return .success(how.joined(separator: ", "))
    }

    /// The keymap is the virtual keyboard's own: nothing of the person's to put back.
    func finish() {}
}
