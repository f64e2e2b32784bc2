/// The pointer gestures of the scanner menu (issue 23) as timed pointer operations, the same for
/// XTest on X11 and the uinput pointer of `--inject` (each only carries the operations out):
///
///     right / middle click   move to p; press, release                         (at once)
///     double click           move to p; press, release; 50 ms; press, release
///     hold                   move to p; press; `holdTime` later release
///     drag from a to b       move to a; press; 10 moves along the line, one every 50 ms
///                            (b at 0.5 s); release at b
///     scroll up/down/…       move to p; 5 wheel clicks, 20 ms apart
///
/// The whole gesture is one perform at its end of the menu: no button is down while the person
/// scans (a drag's second point is chosen first, then the drag runs in half a second).
public enum PointerButton: Int, Sendable, Equatable {
    case left = 1, middle = 2, right = 3
}

public enum PointerOp: Sendable, Equatable {
    case move(Point)
    case button(PointerButton, down: Bool)
    /// One wheel click (X buttons 4–7; REL_WHEEL / REL_HWHEEL).
    case wheel(ScrollDirection)
}

/// An operation and when it is due, from the gesture's start.
public struct TimedPointerOp: Sendable, Equatable {
    public var after: Interval
    public var op: PointerOp

    public init(after: Interval, _ op: PointerOp) {
        self.after = after
        self.op = op
    }
}

public enum PointerGesture {
    public static let dragDuration = Interval.milliseconds(500)
    public static let dragSteps = 10
    public static let wheelClicks = 5
    public static let wheelGap = Interval.milliseconds(20)
    public static let doubleClickGap = Interval.milliseconds(50)

    /// The operations of a gesture perform; nil for a perform that is no pointer gesture (and for
    /// a gesture without a point: a scroll container paged by the desktop has none).
    public static func ops(for perform: Perform, holdTime: Interval) -> [TimedPointerOp]? {
        let now = Interval.zero
        func click(_ b: PointerButton, at t: Interval = .zero) -> [TimedPointerOp] {
            [TimedPointerOp(after: t, .button(b, down: true)), TimedPointerOp(after: t, .button(b, down: false))]
        }
        switch perform.action {
        case .rightClick, .middleClick, .doubleClick, .hold, .scroll:
            guard let p = perform.point else { return nil }
            let move = TimedPointerOp(after: now, .move(p))
            switch perform.action {
            case .rightClick: return [move] + click(.right)
            case .middleClick: return [move] + click(.middle)
            case .doubleClick: return [move] + click(.left) + click(.left, at: doubleClickGap)
            case .hold:
                return [move, TimedPointerOp(after: now, .button(.left, down: true)),
                        TimedPointerOp(after: max(holdTime, .zero), .button(.left, down: false))]
            case .scroll(let d):
                return [move] + (0..<wheelClicks).map { TimedPointerOp(after: wheelGap * $0, .wheel(d)) }
            default: return nil
            }
        case .drag(let from, let to):
            var ops = [TimedPointerOp(after: now, .move(from)), TimedPointerOp(after: now, .button(.left, down: true))]
            for k in 1...dragSteps {
                let f = Double(k) / Double(dragSteps)
                let p = Point(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f)
                ops.append(TimedPointerOp(after: Interval(microseconds: dragDuration.microseconds * Int64(k) / Int64(dragSteps)), .move(p)))
            }
            ops.append(TimedPointerOp(after: dragDuration, .button(.left, down: false)))
            return ops
        case .tap, .activate, .custom, .increment, .decrement, .escape, .key, .lockScreen, .activateWindow, .closeWindow:
            return nil
        }
    }

    /// How a result line says what was done: `right click at (30, 50)`.
    public static func describe(_ perform: Perform, holdTime: Interval) -> String {
        let at = perform.point.map { " at \($0)" } ?? ""
        switch perform.action {
        case .rightClick: return "right click" + at
        case .middleClick: return "middle click" + at
        case .doubleClick: return "double click" + at
        case .hold: return "button held \(formatNumber(holdTime.seconds)) s" + at
        case .drag(let from, let to): return "dragged from \(from) to \(to) in \(formatNumber(dragDuration.seconds)) s"
        case .scroll(let d): return "\(wheelClicks) wheel clicks \(d.rawValue)" + at
        default: return perform.action.name + at
        }
    }
}
