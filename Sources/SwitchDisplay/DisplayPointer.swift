import SwitchCore

/// The pointer, for what has no accessible action (docs/desktop.md): a click where an element
/// has no action, the scanner menu's gestures (`PointerGesture`'s timed operations: right,
/// middle and double click, hold, drag, scroll) and wheel clicks over a container. Points are in
/// the desktop's logical pixels; a point off the screen is kept on it. Synthesized input is real
/// input: it reaches whatever is under the pointer.
public protocol DisplayPointer: AnyObject {
    /// Why this pointer can do nothing (a server without the extension it needs), checked before
    /// a gesture is started; nil when it can.
    var unavailable: DisplayFailure? { get }

    /// Moves to `point`, presses and releases `button`.
    func click(_ button: PointerButton, at point: Point) -> Result<Void, DisplayFailure>

    /// One wheel click in `direction` at `point` (up and top scroll up, down and bottom down).
    func wheel(_ direction: ScrollDirection, at point: Point) -> Result<Void, DisplayFailure>

    /// One operation of a gesture: a move, a button going down or up, a wheel click where the
    /// pointer is.
    func perform(_ op: PointerOp) -> Result<Void, DisplayFailure>
}

extension ScrollDirection {
    /// The button of a wheel click this way, as X11 numbers them (and xdotool, and the evdev
    /// tools after it): 4 up, 5 down, 6 left, 7 right.
    public var wheelButton: UInt32 {
        switch self {
        case .up, .top: 4
        case .down, .bottom: 5
        case .left: 6
        case .right: 7
        }
    }

    /// The direction of wheel button `b` (`wheelButton`'s inverse; any other button: down).
    public init(wheelButton b: UInt32) {
        switch b {
        case 4: self = .up
        case 6: self = .left
        case 7: self = .right
        default: self = .down
        }
    }
}
