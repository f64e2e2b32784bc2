import SwitchCore

/// Which way the scanning keyboard's edits go into an application's fields (pure; docs/typing.md),
/// learned from what the application did with them. Firefox ESR's web fields answer EditableText's
/// InsertText and SetTextContents with true and change nothing (issue 32), where key events work;
/// GTK and Qt fields take EditableText, and a terminal has none.
///
/// One route per application (its bus name): EditableText until the application is seen to drop
/// it, then key events (XTest on the desktop) for every later edit into it.
///
/// States and events (every pair handled in `handle`; both states answer alike, the state is what
/// `route(for:)` says):
///
///                   editableText(changed | refused)   editableText(noInterface)   editableText(tookNothing)        fallbackKeys(changed: true)   fallbackKeys(changed: false)
///   editableText    answer (nothing learned)          sendKeys (this field only)  sendKeys(fallback), read back    learn keys → keys, remembered  failed (took neither: read-only)
///   keys            answer (an edit already sent)     sendKeys                    sendKeys(fallback)               remembered                     failed
///
/// Timelines (tests in TypingRoutesTests, named after them):
///
///   gtk_entry             edit → EditableText changed the text → answer; the next edit EditableText again
///   firefox_field         edit → EditableText answered, text unchanged → the same edit as keys → read back
///                         changed → keys remembered; the next edit goes as keys at once
///   read_only_field       edit → EditableText unchanged → keys → unchanged → failed; nothing learned
///   terminal              edit → no EditableText → keys for that field; the application keeps EditableText
///   per_application       keys learned for one application; another still gets EditableText
public struct TypingRoutes: Sendable, Equatable {
    public enum Route: Sendable, Equatable {
        case editableText, keys
    }

    /// What EditableText did with an edit, read back through Text.
    public enum EditableTextResult: Sendable, Equatable {
        /// The text changed.
        case changed
        /// The field refused (the call answered false) or the call failed: its own result line.
        case refused
        /// The field has no EditableText (or no Text to find the caret with).
        case noInterface
        /// The call answered true and the text reads as before (Firefox ESR's web fields).
        case tookNothing
    }

    public enum Event: Sendable, Equatable {
        case editableText(EditableTextResult)
        /// The key events sent after EditableText took nothing, read back once the application
        /// had them.
        case fallbackKeys(changed: Bool)
    }

    public enum Output: Sendable, Equatable {
        /// The edit's result line as it is.
        case answer
        /// Send the same edit as key events and read back (`fallback`: EditableText took nothing).
        case sendKeys(fallback: Bool)
        /// The keys took it: key events for this application from now on.
        case remembered
        /// Neither EditableText nor the keys changed the text: a field that takes nothing.
        case failed
    }

    /// Application (bus name) → key events learned.
    public private(set) var learned: Set<String> = []

    public init() {}

    public func route(for application: String) -> Route {
        learned.contains(application) ? .keys : .editableText
    }

    public mutating func handle(_ event: Event, application: String) -> Output {
        switch event {
        case .editableText(.changed), .editableText(.refused):
            return .answer
        case .editableText(.noInterface):
            return .sendKeys(fallback: false)
        case .editableText(.tookNothing):
            return .sendKeys(fallback: true)
        case .fallbackKeys(changed: true):
            learned.insert(application)
            return .remembered
        case .fallbackKeys(changed: false):
            return .failed
        }
    }

    /// The result line of a fallback's read-back: the keys' outcome, said to be the fallback, or
    /// EditableText's reason when the keys changed nothing either.
    public static func fallbackOutcome(_ output: Output, keys: PerformResult.Outcome, text: String) -> PerformResult.Outcome {
        switch (output, keys) {
        case (.remembered, .done(let how)):
            return .done(how + " (EditableText changed nothing: keys for this application from now on)")
        case (.failed, _):
            return .failed("the field did not take the text (it still reads \(shortQuote(text)))")
        default:
            return keys
        }
    }

    /// The text and caret key events make of `text` with the caret at `caret` (offsets in
    /// characters, as AT-SPI's Text has them): `delete` BackSpaces, the text typed, the caret moved
    /// by `move` (what XTest sends, in that order). A read-back that finds this text has this caret,
    /// whatever caret the application says at that moment (Firefox tells the new text before it
    /// moves its caret).
    public static func afterKeys(_ edit: KeyboardText.Edit, text: String, caret: Int) -> (text: String, caret: Int) {
        var scalars = Array(text.unicodeScalars)
        var at = min(max(caret, 0), scalars.count)
        let from = max(0, at - edit.delete)
        scalars.removeSubrange(from..<at)
        at = from
        let typed = Array(edit.text.unicodeScalars)
        scalars.insert(contentsOf: typed, at: at)
        at = min(max(at + typed.count + edit.move, 0), scalars.count)
        var out = ""
        out.unicodeScalars.append(contentsOf: scalars)
        return (out, at)
    }

    /// A field's text in a result line: quoted, its last 39 characters when it is longer than 40.
    public static func shortQuote(_ s: String) -> String {
        "\"" + (s.count > 40 ? "…" + s.suffix(39) : s) + "\""
    }
}
