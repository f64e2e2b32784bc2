import SwitchCore

/// What `--inject` does on the desktop for one transcript line (pure; `UInputOutput` does it).
public enum InjectionStep: Equatable, Sendable {
    /// A touch down and up at a screen pixel.
    case tap(x: Int32, y: Int32)
    /// A key press and release.
    case key(UInt16)
    /// An action a synthetic input device cannot perform; the message says which.
    case needsBridge(String)
    /// A key combination through the uinput keyboard, by keysym (issue 23).
    case keys(KeyCombo)
    /// A pointer gesture through the uinput pointer, over time (issue 23).
    case pointer([TimedPointerOp])
    /// The scanning keyboard's edit as key events through the uinput keyboard (issue 18):
    /// BackSpace × delete, the text by keysym through the system's layout, the arrows.
    case edit(KeyboardText.Edit)
}

/// Maps `perform` lines to device input: an activation taps its activation point, a point
/// scanning tap taps its point, escape presses
/// KEY_ESC; custom actions, increment and decrement need the application (an accessibility
/// bridge), so they are only reported. The scanner menu's gestures go to the uinput pointer
/// (`PointerGesture`), its keys to the uinput keyboard; Lock screen is no device input (its own
/// adapter runs loginctl). The scanning keyboard's `type` lines are key events on the uinput
/// keyboard. Points are clamped onto the screen.
public struct InjectionPlan: Sendable, Equatable {
    public var width: Int32
    public var height: Int32
    /// How long Hold keeps the button down (the profile's `menu.holdTime`).
    public var holdTime: Interval

    public init(screen: Size, holdTime: Interval = MenuSettings().holdTime) {
        width = Int32(clamping: max(1, Int(screen.width.rounded())))
        height = Int32(clamping: max(1, Int(screen.height.rounded())))
        self.holdTime = holdTime
    }

    public func steps(for line: TranscriptLine) -> [InjectionStep] {
        if case .typed(let typed) = line.event { return [.edit(typed.edit)] }
        guard case .perform(let p) = line.event else { return [] }
        switch p.action {
        case .tap:
            guard let point = p.point else { return [.needsBridge("tap on \(p.id): no point")] }
            return [.tap(x: clamp(point.x, width), y: clamp(point.y, height))]
        case .activate:
            guard let point = p.point else {
                return [.needsBridge("activate \(p.id): no activation point to tap; needs an application bridge")]
            }
            return [.tap(x: clamp(point.x, width), y: clamp(point.y, height))]
        case .escape:
            return [.key(EventCodes.KEY_ESC)]
        case .custom(let name):
            return [.needsBridge("custom action \"\(name)\" on \(p.id) needs an application bridge")]
        case .increment:
            return [.needsBridge("increment \(p.id) needs an application bridge")]
        case .decrement:
            return [.needsBridge("decrement \(p.id) needs an application bridge")]
        case .rightClick, .doubleClick, .middleClick, .hold, .drag, .scroll:
            guard let ops = PointerGesture.ops(for: p, holdTime: holdTime) else {
                return [.needsBridge("\(p.action.name) on \(p.id): no point; needs an application bridge")]
            }
            return [.pointer(ops)]
        case .key(let keys):
            guard let combo = try? KeyCombo(parsing: keys) else { return [.needsBridge("\"\(keys)\" is not a key combination")] }
            return [.keys(combo)]
        case .lockScreen:
            return []  // Not device input: the lock-screen adapter runs loginctl.
        case .activateWindow, .closeWindow:
            return [.needsBridge("\(p.action.name) \(p.id) needs the live desktop (run --desktop)")]
        }
    }

    private func clamp(_ v: Double, _ size: Int32) -> Int32 {
        guard v.isFinite else { return 0 }
        return Int32(min(Double(size - 1), max(0, v.rounded(.down))))
    }
}
