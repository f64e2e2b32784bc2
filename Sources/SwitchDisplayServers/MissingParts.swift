import SwitchDisplay

extension DisplayNeed {
    /// What a result line says when the pointer or keyboard a need wants is not there (`why`), or,
    /// for the Windows page, `windows` — the words every Wayland backend gives (`DisplayBackend.missing`),
    /// `place` naming where when it helps (" on this compositor").
    func missingWords(_ why: String, windows: String, place: String = "") -> String {
        switch self {
        case .click: return "no pointer to click with\(place): \(why)"
        case .scroll: return "no pointer to scroll with\(place): \(why)"
        case .pointerGesture: return "no pointer for the gesture\(place): \(why)"
        case .escapeKey: return "no keyboard to press Escape with\(place): \(why)"
        case .keys: return "no keyboard to send keys with\(place): \(why)"
        case .typing: return "no keyboard to type with\(place): \(why)"
        case .windows: return windows
        }
    }
}
