import SwitchCore
import SwitchDisplay

/// The keyboard's edits into a real field (docs/typing.md), the performer's half
/// (`DesktopSource+Typing` decides which and when):
///
/// - **EditableText** where the field has it: delete before the caret, insert at the caret, the
///   caret moved after the text, then read back through `Text` (the whole text and the caret), so
///   the keyboard learns what the field really holds. A field that keeps its text as it was after
///   EditableText answered yes (read-only, or Firefox ESR's web fields, which drop what is
///   inserted) is `tookNothing`: its caret is put back, and `TypingRoutes` decides what follows
///   (the same edit as key events).
/// - **Key events** where it has no EditableText (a terminal, some Qt and custom widgets): the
///   field is focused, then the display's keys (`DisplayKeys`: XTest on X11) send BackSpace, the
///   text by keysym through the current layout (shifted and non-ASCII characters too) and the
///   arrows; the text is read back later, when the application has had the keys (`readText`).
extension DesktopPerformer {
    struct Typed {
        var outcome: PerformResult.Outcome
        /// The field's text and where the caret is in it, when it could be read.
        var text: String?
        var caret: Int?
        var notAnswering = false
        /// What EditableText did: changed the text, refused, is not there, or took nothing.
        var effect: TypingRoutes.EditableTextResult = .refused
    }

    /// The field's whole text and its caret (nil: it has no Text, or did not answer).
    func readText(_ id: String) -> (text: String?, caret: Int?) {
        guard let (b, p) = DesktopPerformer.split(id), let batch = bus.batch(for: b) else { return (nil, nil) }
        let all = batch.call(p, "org.a11y.atspi.Text", "GetText", [.i32(0), .i32(-1)])
        let caret = batch.property(p, "org.a11y.atspi.Text", "CaretOffset")
        batch.flush()
        return ((try? batch.reply(all).get())??.string, (try? batch.reply(caret).get())??.int.map { Int($0) })
    }

    /// Gives the field the keyboard focus (`Component.GrabFocus`: GTK also brings its window up).
    @discardableResult
    func focus(_ id: String) -> Bool {
        guard let (b, p) = DesktopPerformer.split(id), let batch = bus.batch(for: b) else { return false }
        let t = batch.call(p, "org.a11y.atspi.Component", "GrabFocus")
        if case .success(let v) = batch.reply(t) { return v?.bool != false }
        return false
    }

    /// The edit through EditableText, read back; `effect` says what EditableText did with it.
    func type(_ edit: KeyboardText.Edit, into id: String) -> Typed {
        guard let (b, p) = DesktopPerformer.split(id), let batch = bus.batch(for: b) else {
            return Typed(outcome: .failed("the field is gone"))
        }
        let text = "org.a11y.atspi.Text", editable = "org.a11y.atspi.EditableText"
        let (before, caretNow) = readText(id)
        guard let current = caretNow else { return Typed(outcome: .failed("no EditableText"), effect: .noInterface) }
        var caret = current
        var how: [String] = []
        func noInterface(_ e: DBusCallError) -> Bool {
            if case .failed(let m) = e, m.contains("UnknownMethod") || m.contains("nterface") { return true }
            return false
        }
        if edit.delete > 0 {
            let from = max(0, caret - edit.delete)
            let t = batch.call(p, editable, "DeleteText", [.i32(Int32(clamping: from)), .i32(Int32(clamping: caret))])
            switch batch.reply(t) {
            case .success(let v) where v?.bool != false: how.append("deleted \(caret - from)"); caret = from
            case .success: return Typed(outcome: .failed("the field refused to delete text"), text: before, caret: current)
            case .failure(let e) where noInterface(e): return Typed(outcome: .failed("no EditableText"), text: before, caret: current, effect: .noInterface)
            case .failure(let e): return Typed(outcome: .failed(e.reason), text: before, caret: current, notAnswering: e == .timeout)
            }
        }
        if !edit.text.isEmpty {
            let count = edit.text.unicodeScalars.count
            let t = batch.call(p, editable, "InsertText", [.i32(Int32(clamping: caret)), .string(edit.text), .i32(Int32(clamping: count))])
            switch batch.reply(t) {
            case .success(let v) where v?.bool != false: how.append("inserted at \(caret)"); caret += count
            case .success: return Typed(outcome: .failed("the field refused the text"), text: before, caret: current)
            case .failure(let e) where noInterface(e) && edit.delete == 0:
                return Typed(outcome: .failed("no EditableText"), text: before, caret: current, effect: .noInterface)
            case .failure(let e): return Typed(outcome: .failed(e.reason), text: before, caret: current, notAnswering: e == .timeout)
            }
        }
        caret += edit.move
        let set = batch.call(p, text, "SetCaretOffset", [.i32(Int32(clamping: max(0, caret)))])
        _ = batch.reply(set)
        let (after, caretAfter) = readText(id)
        if let after, let before, after == before, edit.delete > 0 || !edit.text.isEmpty {
            // Nothing changed: a read-only field, or an application that drops what it is given.
            // The caret goes back where it was, for key events to type there instead.
            if caretAfter != current { _ = batch.reply(batch.call(p, text, "SetCaretOffset", [.i32(Int32(clamping: current))])) }
            return Typed(outcome: .failed("the field did not take the text (it still reads \(TypingRoutes.shortQuote(after)))"), text: after,
                         caret: current, effect: .tookNothing)
        }
        return Typed(outcome: .done("EditableText " + (how.isEmpty ? "caret \(caret)" : how.joined(separator: ", "))), text: after, caret: caretAfter,
                     effect: .changed)
    }

    /// The edit as key events (the focus must be on the field): "XTest keys: …" on X11.
    func typeKeys(_ edit: KeyboardText.Edit) -> PerformResult.Outcome {
        guard let keys else { return .failed(missing(.typing)) }
        switch keys.typeEdit(delete: edit.delete, text: edit.text, move: edit.move) {
        case .success(let how): return .done("\(keys.via) keys: " + how)
        case .failure(let why): return .failed(why.description)
        }
    }
}
