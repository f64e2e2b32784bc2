import SwitchCore
import Testing

/// The text state's cases (the table in KeyboardText.swift's header), one test each.
@Suite("Keyboard text")
struct KeyboardTextTests {
    @Test func a_letter_at_a_sentence_start_is_a_capital() {
        var t = KeyboardText()
        #expect(t.apply(.text("h")).edit == .init(text: "H"))
        #expect(t.apply(.text("i")).edit == .init(text: "i"))
        _ = t.apply(.text("."))
        _ = t.apply(.space)
        #expect(t.capitals)
        #expect(t.apply(.text("o")).edit == .init(text: "O"))
    }

    @Test func shift_once_then_off_and_locked() {
        var t = KeyboardText(before: "x ")
        _ = t.apply(.shift)
        #expect(t.shift == .once)
        #expect(t.apply(.text("a")).edit?.text == "A")
        #expect(t.shift == .off)
        _ = t.apply(.shift); _ = t.apply(.shift)
        #expect(t.shift == .locked)
        _ = t.apply(.text("b")); _ = t.apply(.text("c"))
        #expect(t.before == "x ABC")
        _ = t.apply(.shift)
        #expect(t.shift == .off)
        _ = t.apply(.capsLock)
        #expect(t.shift == .locked)
    }

    @Test func a_chosen_word_types_the_rest_and_a_space() {
        var t = KeyboardText(before: "say hel")
        let e = t.choose("hello")
        #expect(e.edit == .init(text: "lo "))
        #expect(e.word == "hello")
        #expect(t.before == "say hello ")
        #expect(t.autoSpace)
    }

    @Test func a_chosen_word_that_does_not_begin_with_the_letters_replaces_them() {
        var t = KeyboardText(before: "say hlo")
        #expect(t.choose("hello").edit == .init(delete: 3, text: "hello "))
        #expect(t.before == "say hello ")
    }

    @Test func a_chosen_word_is_cased_like_the_sentence_and_the_letters() {
        #expect(KeyboardText().casing("hello") == "Hello")
        #expect(KeyboardText(before: "Oh. ").casing("hello") == "Hello")
        #expect(KeyboardText(before: "oh He").casing("hello") == "Hello")
        #expect(KeyboardText(before: "oh HE").casing("hello") == "HELLO")
        #expect(KeyboardText(before: "oh he").casing("hello") == "hello")
        #expect(KeyboardText(before: "so ").casing("i") == "I")
        #expect(KeyboardText(before: "so ").casing("i'm") == "I'm")
    }

    @Test func a_mark_after_a_chosen_words_space_replaces_it() {
        var t = KeyboardText(before: "hel")
        _ = t.choose("hello")
        #expect(t.apply(.text(".")).edit == .init(delete: 1, text: ". "))
        #expect(t.before == "hello. ")
        // A mark typed after a space of one's own stays where it is.
        var u = KeyboardText(before: "hello ")
        #expect(u.apply(.text(",")).edit == .init(text: ","))
    }

    @Test func backspace_and_delete_word() {
        var t = KeyboardText(before: "one two  ")
        #expect(t.apply(.backspace).edit == .init(delete: 1))
        #expect(t.apply(.deleteWord).edit == .init(delete: 4))
        #expect(t.before == "one ")
        var empty = KeyboardText()
        #expect(empty.apply(.backspace).edit == nil)
    }

    @Test func the_caret_moves_left_and_right() {
        var t = KeyboardText(before: "ab", after: "c")
        #expect(t.apply(.left).edit == .init(move: -1))
        #expect(t.before == "a" && t.after == "bc")
        #expect(t.apply(.right).edit == .init(move: 1))
        #expect(t.apply(.right).edit == .init(move: 1))
        #expect(t.apply(.right).edit == nil)
        #expect(t.before == "abc")
    }

    @Test func return_types_a_new_line_and_starts_a_sentence() {
        var t = KeyboardText(before: "hi")
        #expect(t.apply(.returnKey).edit == .init(text: "\n"))
        #expect(t.capitals)
    }

    @Test func text_read_back_replaces_what_the_keyboard_believed() {
        var t = KeyboardText(before: "hel")
        _ = t.choose("hello")
        t.fieldText(before: "hello world ", after: "")
        #expect(!t.autoSpace)
        #expect(t.wordPrefix == "")
        t.fieldText(before: "hello wor", after: nil)
        #expect(t.wordPrefix == "wor")
    }

    @Test func predictions_keep_the_words_that_complete_the_letters_once_each() {
        #expect(KeyboardPredictions.filter(["the", "then", "The", "a b", "", "them"], prefix: "th", count: 3) == ["the", "then", "them"])
        #expect(KeyboardPredictions.filter(["hello"], prefix: "x", count: 3).isEmpty)
    }
}

extension KeyboardTextTests {
    @Test func shift_at_a_sentence_start_types_the_next_letter_in_lower_case() {
        var t = KeyboardText()
        #expect(t.capitals)
        _ = t.apply(.shift)
        #expect(!t.capitals && t.shift == .off)
        #expect(t.apply(.text("h")).edit?.text == "h")
        _ = t.apply(.shift)
        #expect(t.shift == .once)
    }
}

@Suite("Keyboard settings")
struct KeyboardSettingsTests {
    @Test func everyGroupingIsReadAsWritten() throws {
        for name in ["none", "containers", "rowColumn", "auto"] {
            let p = try ProfileDecoder.decode(Array("{\"keyboard\": {\"grouping\": \"\(name)\"}}".utf8), file: "p.json")
            #expect(p.keyboard.grouping?.rawValue == name)
            #expect(p.keyboard.effectiveGrouping(p.scanning).rawValue == name)
        }
        let defaults = try ProfileDecoder.decode(Array("{\"keyboard\": {\"grouping\": null}}".utf8), file: "p.json")
        #expect(defaults.keyboard.grouping == nil)
        #expect(defaults.keyboard.effectiveGrouping(defaults.scanning) == .auto)
    }
}
