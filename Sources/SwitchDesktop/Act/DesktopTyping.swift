import SwitchCore

/// The keyboard's edits into a real field (docs/typing.md): through AT-SPI `EditableText` where the
/// field has it (delete before the caret, insert at the caret, the caret moved after the text),
/// then read back through `Text` (the whole text and the caret), so the keyboard learns what the
/// field really holds: an application that refuses text, filters it or completes it is seen.
/// A field without `EditableText` answers `failed` (key events through XTest come with issue 23's
/// KeySender); the session goes on either way.
extension DesktopPerformer {
    struct Typed {
        var outcome: PerformResult.Outcome
        /// The field's text and where the caret is in it, when it could be read.
        var text: String?
        var caret: Int?
        var notAnswering = false
    }

    func type(_ edit: KeyboardText.Edit, into id: String) -> Typed {
        guard let (b, p) = DesktopPerformer.split(id), let batch = bus.batch(for: b) else {
            return Typed(outcome: .failed("the field is gone"))
        }
        let text = "org.a11y.atspi.Text", editable = "org.a11y.atspi.EditableText"
        func read() -> (String?, Int?) {
            let all = batch.call(p, text, "GetText", [.i32(0), .i32(-1)])
            let caret = batch.property(p, text, "CaretOffset")
            batch.flush()
            return ((try? batch.reply(all).get())??.string, (try? batch.reply(caret).get())??.int.map { Int($0) })
        }
        let (before, caretNow) = read()
        guard let current = caretNow else { return Typed(outcome: .failed("the field has no Text interface to write at its caret")) }
        var caret = current
        var how: [String] = []
        if edit.delete > 0 {
            let from = max(0, caret - edit.delete)
            let t = batch.call(p, editable, "DeleteText", [.i32(Int32(clamping: from)), .i32(Int32(clamping: caret))])
            switch batch.reply(t) {
            case .success(let v) where v?.bool != false: how.append("deleted \(caret - from)"); caret = from
            case .success: return Typed(outcome: .failed("the field refused to delete text"), text: before, caret: current)
            case .failure(let e): return Typed(outcome: .failed(failure(e, editable)), text: before, caret: current, notAnswering: e == .timeout)
            }
        }
        if !edit.text.isEmpty {
            let count = edit.text.unicodeScalars.count
            let t = batch.call(p, editable, "InsertText", [.i32(Int32(clamping: caret)), .string(edit.text), .i32(Int32(clamping: count))])
            switch batch.reply(t) {
            case .success(let v) where v?.bool != false: how.append("inserted at \(caret)"); caret += count
            case .success: return Typed(outcome: .failed("the field refused the text"), text: before, caret: current)
            case .failure(let e): return Typed(outcome: .failed(failure(e, editable)), text: before, caret: current, notAnswering: e == .timeout)
            }
        }
        caret += edit.move
        let set = batch.call(p, text, "SetCaretOffset", [.i32(Int32(clamping: max(0, caret)))])
        _ = batch.reply(set)
        let (after, caretAfter) = read()
        return Typed(outcome: .done("EditableText " + (how.isEmpty ? "caret \(caret)" : how.joined(separator: ", "))), text: after, caret: caretAfter)
    }

    private func failure(_ e: DBusCallError, _ interface: String) -> String {
        if case .failed(let m) = e, m.contains("UnknownMethod") || m.contains("nterface") {
            return "the field has no EditableText (typing by key events comes with XTest's KeySender)"
        }
        return e.reason
    }
}
