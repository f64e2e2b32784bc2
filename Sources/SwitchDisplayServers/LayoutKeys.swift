import SwitchCore
import SwitchDisplay
import SwitchInput

/// A keyboard that types by keysym through a layout and answers nil or the message of what it
/// could not send (`LayoutTyping`: KWin's fake input; `UInputKeyboard`: uinput elsewhere).
protocol LayoutKeySender {
    func send(_ combo: KeyCombo) -> String?
    func typeText(_ text: String) -> String?
    func typeEdit(delete: Int, text: String, move: Int) -> String?
}

extension LayoutTyping: LayoutKeySender {}
extension UInputKeyboard: LayoutKeySender {}

/// The seam's answers (`DisplayKeys`) for such a keyboard: how it went, in the result line's words.
enum LayoutKeys {
    static func send(_ k: LayoutKeySender, _ combo: KeyCombo) -> Result<String, DisplayFailure> {
        k.send(combo).map { .failure(DisplayFailure($0)) } ?? .success("keys \(combo)")
    }

    static func typeText(_ k: LayoutKeySender, _ text: String) -> Result<String, DisplayFailure> {
        k.typeText(text).map { .failure(DisplayFailure($0)) } ?? .success(typed(text))
    }

    static func typeEdit(_ k: LayoutKeySender, delete: Int, text: String, move: Int) -> Result<String, DisplayFailure> {
        if let e = k.typeEdit(delete: delete, text: text, move: move) { return .failure(DisplayFailure(e)) }
        var how: [String] = []
        if delete > 0 { how.append("BackSpace ×\(delete)") }
        if !text.isEmpty { how.append(typed(text)) }
        if move != 0 { how.append((move < 0 ? "Left ×" : "Right ×") + "\(abs(move))") }
        return .success(how.joined(separator: ", "))
    }

    static func typed(_ text: String) -> String { "typed \(text.count) character\(text.count == 1 ? "" : "s")" }
}
