import SwitchCore

/// How the pictures and the report say what happened, in words (titles, table cells).
enum Words {
    /// "London, button" (or the id when the element has no words).
    static func name(_ id: String, _ label: String) -> String { label.isEmpty ? id : label }

    /// `activate “Add, button” at (356, 73), by touch`: the element's words in quotes, as they
    /// often hold commas and end with a period.
    static func perform(_ p: Perform) -> String {
        let what = "“" + name(p.id, p.label) + "”"
        var s: String
        switch p.action {
        case .activate: s = "activate " + what
        case .tap: s = "tap " + what
        case .custom(let action): s = "“\(action)” on " + what
        case .increment: s = "increment " + what
        case .decrement: s = "decrement " + what
        case .escape: s = "escape from " + what
        case .rightClick: s = "right click on " + what
        case .doubleClick: s = "double click on " + what
        case .middleClick: s = "middle click on " + what
        case .hold: s = "hold on " + what
        case .drag(let from, let to): s = "drag " + what + " from \(from) to \(to)"
        case .scroll(let direction): s = "scroll \(direction.rawValue) on " + what
        case .key(let keys): s = "key \(keys) on " + what
        case .lockScreen: s = "lock the screen from " + what
        case .activateWindow: s = "switch to the window " + what
        case .closeWindow: s = "close the window " + what
        }
        if let point = p.point { s += " at \(point)" }
        if p.source == .touch { s += ", by touch" }
        return s
    }

    static func filter(_ f: FilterDecision) -> String {
        switch f.decision {
        case .accepted(let a): return "\(f.switchName) accepted → \(a.rawValue)"
        case .rejected(let r): return "\(f.switchName) rejected (\(reason(r)))"
        case .longPress(let a): return "\(f.switchName) long press → \(a.rawValue)"
        }
    }

    static func reason(_ r: FilterDecision.RejectReason) -> String {
        switch r {
        case .holdDuration: return "released before the hold duration"
        case .ignoreRepeat: return "inside the ignore-repeat time"
        case .debounce: return "bounce (debounce)"
        case .autorepeat: return "key autorepeat"
        }
    }

    static func touch(_ d: TouchDecision) -> String {
        switch d.decision {
        case .tap(let point, let id, let label):
            return "tap at \(point) → " + (id.map { "“" + name($0, label ?? "") + "”" } ?? "no item there")
        case .swipe(let from, let to, let direction):
            return "swipe \(direction.rawValue) from \(from) to \(to)"
        case .hold(let point):
            return "touch and hold at \(point)"
        case .rejected(let reason, let point):
            return "rejected at \(point) (" + (reason == .holdDuration ? "lifted before the hold duration" : "inside the ignore-repeat time") + ")"
        case .passedTap(let point):
            return "tap at \(point), passed on to the desktop"
        case .gesture(let from, let to, let duration):
            return "gesture from \(from) to \(to) in \(duration), passed on to the desktop"
        }
    }
}
