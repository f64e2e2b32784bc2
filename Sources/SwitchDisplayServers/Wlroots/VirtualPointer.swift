internal import CWayland

/// The pointer on wlroots compositors: a zwlr_virtual_pointer_v1 device on the seat, made once
/// (a device that appears just before its first click may miss it: clients learn of a new pointer
/// asynchronously), moved in absolute desktop coordinates (logical pixels: the output layout's
/// extent, every output, so a point on a second output or of a scale-2 output is reached
/// directly), with buttons and wheel steps. Each request group ends in `frame`, as a real mouse's
/// events do, and is sent at once.
///
///     move(x, y)      motion_absolute(x − layout.x, y − layout.y of the layout's width, height),
///                     in 1/16 logical pixel
///     press / release button (evdev code: BTN_LEFT, BTN_RIGHT, BTN_MIDDLE)
///     scroll(dx, dy)  axis_source wheel, axis_discrete per axis (15 per step, as libinput's
///                     wheel), positive = right / down
public final class VirtualPointer {
    public enum Button: UInt32, Sendable {
        case left = 0x110, right = 0x111, middle = 0x112
    }

    private let connection: WaylandConnection
    private let manager: OpaquePointer
    private let pointer: OpaquePointer
    /// Absolute positions are sent in 1/`subpixel` of a logical pixel.
    static let subpixel = 16.0

    /// Binds the manager and makes the device (one round trip, so it exists when this returns).
    public init(connection: WaylandConnection) throws(WaylandConnection.Failure) {
        guard let (manager, _) = connection.bind("zwlr_virtual_pointer_manager_v1", upTo: 2) else {
            throw .missing("zwlr_virtual_pointer_manager_v1")
        }
        guard let pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(manager, connection.seat) else {
            throw .lost("zwlr_virtual_pointer_manager_v1.create_virtual_pointer failed")
        }
        self.connection = connection
        self.manager = manager
        self.pointer = pointer
        try connection.roundtrip(for: "the virtual pointer")
    }

    deinit {
        zwlr_virtual_pointer_v1_destroy(pointer)
        zwlr_virtual_pointer_manager_v1_destroy(manager)
        connection.flush()
    }

    /// Moves to (x, y) in desktop logical pixels (clamped to the layout).
    public func move(toX x: Double, y: Double) {
        let b = connection.layoutBounds
        guard b.width > 0, b.height > 0 else { return }
        let k = VirtualPointer.subpixel
        let fx = min(max(0, (x - Double(b.x)) * k), Double(b.width) * k - 1)
        let fy = min(max(0, (y - Double(b.y)) * k), Double(b.height) * k - 1)
        zwlr_virtual_pointer_v1_motion_absolute(pointer, WaylandConnection.milliseconds(), UInt32(fx.rounded()), UInt32(fy.rounded()),
                                                UInt32(Double(b.width) * k), UInt32(Double(b.height) * k))
        frame()
    }

    public func press(_ button: Button) { self.button(button, pressed: true) }
    public func release(_ button: Button) { self.button(button, pressed: false) }

    /// `count` clicks (press, release) of `button` at (x, y), or where the pointer is.
    public func click(_ button: Button = .left, atX x: Double? = nil, y: Double? = nil, count: Int = 1) {
        if let x, let y { move(toX: x, y: y) }
        for _ in 0..<max(1, count) {
            press(button)
            release(button)
        }
    }

    /// Wheel steps: `dy` down (negative: up), `dx` right (negative: left).
    public func scroll(dx: Int = 0, dy: Int = 0) {
        guard dx != 0 || dy != 0 else { return }
        let t = WaylandConnection.milliseconds()
        zwlr_virtual_pointer_v1_axis_source(pointer, WL_POINTER_AXIS_SOURCE_WHEEL.rawValue)
        if dy != 0 {
            zwlr_virtual_pointer_v1_axis_discrete(pointer, t, WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue, wl_fixed_from_double(15 * Double(dy)), Int32(dy))
        }
        if dx != 0 {
            zwlr_virtual_pointer_v1_axis_discrete(pointer, t, WL_POINTER_AXIS_HORIZONTAL_SCROLL.rawValue, wl_fixed_from_double(15 * Double(dx)), Int32(dx))
        }
        frame()
    }

    private func button(_ b: Button, pressed: Bool) {
        zwlr_virtual_pointer_v1_button(pointer, WaylandConnection.milliseconds(), b.rawValue,
                                       pressed ? WL_POINTER_BUTTON_STATE_PRESSED.rawValue : WL_POINTER_BUTTON_STATE_RELEASED.rawValue)
        frame()
    }

    private func frame() {
        zwlr_virtual_pointer_v1_frame(pointer)
        connection.flush()
    }
}
