import SwitchCore
import SwitchInput

/// The scanning keyboard on the live desktop (issue 18, docs/typing.md): where its `type` lines
/// go, and what has the keyboard focus.
///
///     keyboard opened on F       F focused (GrabFocus); typing goes to F
///     keyboard opened on nothing typing goes as key events to whatever has the X focus
///     type line                  EditableText into F, read back → result (done / failed: refused)
///                                F has no EditableText → F (and its window) focused, XTest keys
///                                → read back once the application had them (every 20 ms until
///                                the text changed, for at most 2 s: a loaded machine's browser
///                                takes its time) → result
///                                EditableText answered and F reads as before → the same edit as
///                                XTest keys, read back: changed → result done, and keys for every
///                                later edit into that application; unchanged → result failed
///                                (`TypingRoutes`: Firefox ESR's web fields drop EditableText)
///                                the application's keys learned → XTest keys at once
///                                no Text to read (a custom widget) → result done, no text
///     a read of the application  the focused field, or focused widget that is no scan item
///                                → `keyboardFocus` (when it changed): every item's scanner menu
///                                then offers Keyboard, which types into it
///
/// Every `type` line is answered by exactly one `result` line, in order; a password's text is
/// never read back into the keyboard.
struct TypingState {
    var target: TypingTarget?
    /// Read-backs waiting for the application to have had the keys, oldest first.
    var reads: [PendingRead] = []
    /// What was said to the engine last (nil: nothing yet).
    var sentFocus: KeyboardFocus??
    /// Which way edits go into each application's fields, as learned.
    var routes = TypingRoutes()

    /// When the oldest read-back is due (CLOCK_MONOTONIC µs).
    var readDeadline: Int64? { reads.first?.due }

    static let readInterval: Int64 = 20_000
    /// 2 s in all: an application on a loaded machine can take over a second to have the keys
    /// (the read-back ends as soon as the text changed; only a field that takes nothing waits it out).
    static let readTries = 100
}

/// The field the keyboard types into.
struct TypingTarget {
    var id: String
    var label: String
    var password: Bool
    /// It has no EditableText: key events (found at the first edit).
    var keys = false
}

/// A key-event edit whose result line waits for the application's text.
struct PendingRead {
    var target: TypingTarget
    var textBefore: String?
    var caretBefore: Int?
    var edit: KeyboardText.Edit
    var outcome: PerformResult.Outcome
    var changesText: Bool
    var secure: Bool
    var due: Int64
    var tries = 0
    /// The keys went after EditableText took nothing: the read-back teaches `TypingState.routes`.
    var fallback = false
}

extension DesktopSource {
    /// The keyboard opened: on a field (focused now, as a tap on it would), or on nothing known.
    func keyboardOpened(id: String?, label: String?, password: Bool) {
        typing.reads = []
        guard let id else {
            typingInto = nil
            return
        }
        typingInto = TypingTarget(id: id, label: label ?? "", password: password)
        performer.focus(id)
    }

    /// A piece typed: into the field, answered by its `result` line (now, or once the application
    /// has had the keys), and the text before the caret back to the keyboard.
    func type(_ typed: TypedText) -> [ShellInput] {
        guard var target = typingInto else {
            // Opened on nothing known: key events to whatever has the focus; nothing to read back.
            let outcome = performer.typeKeys(typed.edit)
            return [.line(.typeResult(TypeResult(id: "", label: "the keyboard focus", text: nil, secure: typed.secure, outcome)))]
        }
        let application = DesktopPerformer.split(target.id)?.bus ?? ""
        if !target.keys && typing.routes.route(for: application) == .keys {
            // The application drops EditableText (learned): keys into this field from now on.
            target.keys = true
            typingInto = target
            focusForKeys(target)
        }
        var fallback = false
        if !target.keys {
            let r = performer.type(typed.edit, into: target.id)
            switch typing.routes.handle(.editableText(r.effect), application: application) {
            case .sendKeys(let tookNothing):
                fallback = tookNothing
                if !tookNothing {
                    target.keys = true
                    typingInto = target
                }
                focusForKeys(target)
            default:
                return answer(target, text: r.text, caret: r.caret, r.outcome)
            }
        }
        let before = performer.readText(target.id)
        let outcome = performer.typeKeys(typed.edit)
        guard case .done = outcome, before.text != nil else {
            return answer(target, text: nil, caret: nil, outcome)
        }
        let changes = typed.edit.delete > 0 || !typed.edit.text.isEmpty
        typing.reads.append(PendingRead(target: target, textBefore: before.text, caretBefore: before.caret, edit: typed.edit, outcome: outcome, changesText: changes, secure: typed.secure,
                                        due: MonotonicClock.nowMicroseconds() + (changes ? TypingState.readInterval : 0), fallback: fallback))
        return []
    }

    /// The read-backs that are due: a result line each, in order (one that waits holds the later
    /// ones back).
    func typingDue(nowMonotonic: Int64) -> [ShellInput] {
        var inputs: [ShellInput] = []
        while var r = typing.reads.first, r.due <= nowMonotonic {
            var (text, caret) = performer.readText(r.target.id)
            trace?("typing: read back \(text?.count ?? -1) characters, caret \(caret ?? -1), try \(r.tries + 1)")
            if let text, let before = r.textBefore, let at = r.caretBefore {
                let expected = TypingRoutes.afterKeys(r.edit, text: before, caret: at)
                if expected.text == text { caret = expected.caret }
            }
            let unchanged = r.changesText && text != nil && text == r.textBefore
            if unchanged && r.tries + 1 < TypingState.readTries {
                r.tries += 1
                r.due = nowMonotonic + TypingState.readInterval
                typing.reads[0] = r
                break
            }
            typing.reads.removeFirst()
            var outcome: PerformResult.Outcome = unchanged
                ? .failed("the field did not take the keys (it still reads \(TypingRoutes.shortQuote(text ?? "")))") : r.outcome
            if r.fallback {
                let application = DesktopPerformer.split(r.target.id)?.bus ?? ""
                let learned = typing.routes.handle(.fallbackKeys(changed: !unchanged), application: application)
                outcome = TypingRoutes.fallbackOutcome(learned, keys: r.outcome, text: text ?? "")
            }
            inputs += answer(r.target, text: text, caret: caret, outcome)
        }
        return inputs
    }

    /// The result line, and the text before and after the caret for the keyboard (never a
    /// password's).
    private func answer(_ target: TypingTarget, text: String?, caret: Int?, _ outcome: PerformResult.Outcome) -> [ShellInput] {
        var inputs: [ShellInput] = [.line(.typeResult(TypeResult(id: target.id, label: target.label, text: text, secure: target.password, outcome)))]
        if !target.password, let text, let caret, typingInto?.id == target.id {
            let scalars = Array(text.unicodeScalars)
            let cut = min(max(caret, 0), scalars.count)
            var before = "", after = ""
            before.unicodeScalars.append(contentsOf: scalars[..<cut])
            after.unicodeScalars.append(contentsOf: scalars[cut...])
            inputs.append(.fieldText(before: before, after: after))
        }
        return inputs
    }

    /// Key events go where the X focus is: the field focused, and its window given the focus
    /// when another has it (without a window manager, or one that did not follow GrabFocus).
    private func focusForKeys(_ target: TypingTarget) {
        performer.focus(target.id)
        guard let windows, let center = index[target.id]?.screenFrame?.center else { return }
        let px = center.x, py = center.y
        guard let w = windows.list().last(where: { $0.frame.x <= px && px < $0.frame.x + $0.frame.width && $0.frame.y <= py && py < $0.frame.y + $0.frame.height })
        else { return }
        if windows.active != w.id { _ = windows.activate(w.id) }
    }

    /// What has the keyboard focus in the application read last, when that changed since it was
    /// last said: the node with the FOCUSED state that keys are for. A field (editable, a
    /// terminal), or a focused widget scanning does not operate by itself (a canvas, a game, a
    /// drawing area that reads keys); never a button, link or other element the scanner activates,
    /// nor a window or a web page's document, where keys would mean nothing.
    func keyboardFocusChange() -> ShellInput? {
        let containers: Set<AtspiRole> = [.frame, .window, .dialog, .application, .panel, .filler, .scrollPane, .viewport]
        let focused = index.values.filter { info in
            let n = info.node
            guard n.states.contains(.focused), !containers.contains(n.role), !DesktopReader.isDocument(n.role) else { return false }
            return AtspiMapping.isFieldToTypeIn(n) || AtspiMapping.kind(n) != .element
        }.sorted { $0.node.id < $1.node.id }
        let pick = focused.first { AtspiMapping.isFieldToTypeIn($0.node) } ?? focused.first
        let focus = pick.map { info -> KeyboardFocus in
            let n = info.node
            var label = n.name.trimmed
            if label.isEmpty { label = (n.labelledBy ?? "").trimmed }
            if label.isEmpty { label = "the focused " + (n.role == .terminal ? "terminal" : "element") }
            let entry: Element.TextEntry? = n.role == .passwordText ? .password : (n.role == .terminal ? .terminal
                : (AtspiMapping.isFieldToTypeIn(n) ? (n.states.contains(.multiLine) ? .multiLine : .singleLine) : nil))
            return KeyboardFocus(id: n.id, label: label, frame: info.screenFrame, entry: entry)
        }
        if let sent = typing.sentFocus, sent == focus { return nil }
        typing.sentFocus = .some(focus)
        return .keyboardFocus(focus)
    }
}
