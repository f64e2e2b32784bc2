import SwitchCore
@testable import SwitchDesktop
import Testing

/// TypingRoutes' timelines (docs/typing.md): EditableText until an application is seen to drop it,
/// then key events for that application.
@Suite struct TypingRoutesTests {
    var routes = TypingRoutes()
    static let firefox = ":1.5", gedit = ":1.7"

    mutating func on(_ app: String, _ e: TypingRoutes.Event) -> TypingRoutes.Output { routes.handle(e, application: app) }

    @Test mutating func gtk_entry() {
        #expect(routes.route(for: Self.gedit) == .editableText)
        #expect(on(Self.gedit, .editableText(.changed)) == .answer)
        #expect(routes.route(for: Self.gedit) == .editableText)
        #expect(on(Self.gedit, .editableText(.refused)) == .answer)
        #expect(routes.learned.isEmpty)
    }

    @Test mutating func firefox_field() {
        #expect(on(Self.firefox, .editableText(.tookNothing)) == .sendKeys(fallback: true))
        #expect(routes.route(for: Self.firefox) == .editableText)  // not before the keys are seen to work
        #expect(on(Self.firefox, .fallbackKeys(changed: true)) == .remembered)
        #expect(routes.route(for: Self.firefox) == .keys)
        // An edit already sent through EditableText answers as it is.
        #expect(on(Self.firefox, .editableText(.tookNothing)) == .sendKeys(fallback: true))
        #expect(on(Self.firefox, .fallbackKeys(changed: true)) == .remembered)
        #expect(routes.learned == [Self.firefox])
    }

    @Test mutating func read_only_field() {
        #expect(on(Self.gedit, .editableText(.tookNothing)) == .sendKeys(fallback: true))
        #expect(on(Self.gedit, .fallbackKeys(changed: false)) == .failed)
        #expect(routes.route(for: Self.gedit) == .editableText)
        // Learned keys stay learned when one of that application's fields takes nothing.
        _ = on(Self.firefox, .fallbackKeys(changed: true))
        #expect(on(Self.firefox, .fallbackKeys(changed: false)) == .failed)
        #expect(routes.route(for: Self.firefox) == .keys)
    }

    @Test mutating func terminal() {
        #expect(on(Self.gedit, .editableText(.noInterface)) == .sendKeys(fallback: false))
        #expect(routes.route(for: Self.gedit) == .editableText)
    }

    @Test mutating func per_application() {
        _ = on(Self.firefox, .editableText(.tookNothing))
        _ = on(Self.firefox, .fallbackKeys(changed: true))
        #expect(routes.route(for: Self.firefox) == .keys)
        #expect(routes.route(for: Self.gedit) == .editableText)
    }

    /// The result lines a fallback's read-back gives.
    @Test func fallbackOutcomes() {
        let keys = PerformResult.Outcome.done("XTest keys: typed 1 character")
        #expect(TypingRoutes.fallbackOutcome(.remembered, keys: keys, text: "h")
            == .done("XTest keys: typed 1 character (EditableText changed nothing: keys for this application from now on)"))
        #expect(TypingRoutes.fallbackOutcome(.failed, keys: keys, text: "") == .failed("the field did not take the text (it still reads \"\")"))
        #expect(TypingRoutes.shortQuote(String(repeating: "a", count: 41) + "b") == "\"…" + String(repeating: "a", count: 38) + "b\"")
    }
}

extension TypingRoutesTests {
    /// What key events make of a field's text: BackSpaces before the caret, the text, the move.
    @Test func afterKeys() {
        typealias E = KeyboardText.Edit
        #expect(TypingRoutes.afterKeys(E(text: "h"), text: "", caret: 0) == ("h", 1))
        #expect(TypingRoutes.afterKeys(E(text: "i"), text: "h", caret: 1) == ("hi", 2))
        #expect(TypingRoutes.afterKeys(E(delete: 2, text: "é"), text: "hello", caret: 3) == ("hélo", 2))
        #expect(TypingRoutes.afterKeys(E(move: -1), text: "ab", caret: 2) == ("ab", 1))
        #expect(TypingRoutes.afterKeys(E(delete: 5), text: "ab", caret: 1) == ("b", 0))
        #expect(TypingRoutes.afterKeys(E(text: "x", move: 9), text: "ab", caret: 7) == ("abx", 3))
    }
}
