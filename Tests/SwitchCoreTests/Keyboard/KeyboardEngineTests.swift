import Foundation
import SwitchCore
import Testing

/// The keyboard inside the real engine on the virtual clock: exact transcripts for the timelines
/// of Engine+Keyboard.swift. A small layout keeps them short; the profile scans rows as groups
/// (one switch, auto scanning, 1 s a stop, no debounce).
///
///     screen: a text field "To" at the top; the panel below it (bottom of a 390 × 844 screen)
///     letters:  row1  h  i  e        digits: row1  1  2
///               row2  l  o  space            row2  abc  close
///               row3  shift  delete  123  hide keyboard
@Suite("Keyboard in the engine")
struct KeyboardEngineTests {
    static let layoutJSON = """
    {"name": "tiny", "pages": [
      {"name": "letters", "rows": [["h", "i", "e"], ["l", "o", {"key": "space"}],
                                   [{"key": "shift"}, {"key": "backspace"}, {"key": "page", "page": "digits", "label": "123"}, {"key": "close"}]]},
      {"name": "digits", "rows": [["1", "2"], [{"key": "page", "page": "letters", "label": "abc"}, {"key": "close"}]]}]}
    """

    static func tree(entry: String = "singleLine", value: String? = nil) throws -> ElementTree {
        try loadTree("""
        {"screen": {"width": 390, "height": 844}, "root": {"id": "root", "frame": [0, 0, 390, 844], "children": [
          {"id": "to", "label": "To", \(value.map { "\"value\": \"\($0)\", " } ?? "")"textEntry": "\(entry)", "frame": [10, 40, 370, 40]},
          {"id": "send", "label": "Send", "traits": ["button"], "frame": [10, 100, 100, 40]}
        ]}}
        """)
    }

    /// An engine with the tiny layout; `predictions` words in the row.
    static func script(predictions: Int = 0, entry: String = "singleLine", speech: Bool = false) throws -> EngineScript {
        let p = try profile("""
        {"scanning": {"grouping": "containers", "tapBehavior": "alwaysTap", "speech": \(speech)},
         "switches": [{"key": "KEY_SPACE", "action": "select"}, {"key": "KEY_ENTER", "action": "escape"}],
         "switchStabilization": {"debounce": 0}, "keyboard": {"layout": "tiny", "predictions": \(predictions)}}
        """)
        var s = EngineScript(tree: try tree(entry: entry), profile: p)
        s.engine.keyboardLayout = try KeyboardLayoutDecoder.decode(Array(layoutJSON.utf8), file: "tiny.json")
        return s
    }

    /// Lines of one kind only, for the tests that follow the typing and not every highlight.
    static func only(_ lines: [String], _ types: [String]) -> [String] {
        lines.filter { line in types.contains { line.contains("\"type\":\"\($0)\"") } }
    }

    /// Opens the keyboard on the field: `to` is the first item, tapped at once (alwaysTap).
    static func opened(predictions: Int = 0, entry: String = "singleLine", speech: Bool = false) throws -> EngineScript {
        var s = try Self.script(predictions: predictions, entry: entry, speech: speech)
        s.press(at: 0.9, held: 0.05)
        return s
    }

    @Test func keyboard_open_on_field() throws {
        var s = try Self.opened()
        #expect(s.take() == [
            "{\"t\":0.000,\"type\":\"scan\",\"state\":\"started\"}",
            "{\"t\":0.000,\"type\":\"highlight\",\"id\":\"to\",\"label\":\"To\",\"kind\":\"item\"}",
            "{\"t\":0.900,\"type\":\"filter\",\"switch\":\"KEY_SPACE\",\"decision\":\"accepted\",\"action\":\"select\"}",
            "{\"t\":0.900,\"type\":\"perform\",\"action\":\"activate\",\"id\":\"to\",\"label\":\"To\",\"point\":[195,60]}",
            "{\"t\":0.900,\"type\":\"keyboard\",\"state\":\"opened\",\"layout\":\"tiny\",\"page\":\"letters\",\"id\":\"to\",\"label\":\"To\"}",
            "{\"t\":0.900,\"type\":\"highlight\",\"id\":\"kbd:letters:row1\",\"label\":\"H to E, group, 3 items\",\"kind\":\"group\"}",
        ])
        #expect(s.engine.isKeyboardOpen)
        // The panel is at the bottom (the field is in the top half), the rows in reading order.
        #expect(s.engine.model.items.map { $0.id } == ["key:h", "key:i", "key:e", "key:l", "key:o", "key:space",
                                                   "key:shift", "key:backspace", "key:page:digits", "key:close"])
        #expect(s.engine.model.items[0].element.frame!.maxY > 422)
    }

    @Test func keyboard_word_by_keys() throws {
        var s = try Self.opened()
        _ = s.take()
        // Sentence start: letters show and type in capitals. Row 1 at 0.9, h at 1.9 (first of its row).
        s.press(at: 1.8, held: 0.05)   // row1
        s.press(at: 2.7, held: 0.05)   // h: "H"
        s.press(at: 3.6, held: 0.05)   // row1
        s.press(at: 5.5, held: 0.05)   // i (second of the row): "i"
        #expect(KeyboardEngineTests.only(s.take(), ["type", "keyboard"]) == [
            "{\"t\":2.700,\"type\":\"type\",\"text\":\"H\",\"key\":\"key:h\"}",
            "{\"t\":5.500,\"type\":\"type\",\"text\":\"i\",\"key\":\"key:i\"}",
        ])
        #expect(s.engine.keyboardText?.before == "Hi")
    }

    @Test func keyboard_word_by_prediction() throws {
        var s = try Self.script(predictions: 2)
        s.press(at: 0.9, held: 0.05)
        // The tree waits for the words of the empty context; they come at once.
        #expect(s.engine.wantedPredictions == PredictionRequest(context: "", count: 2))
        s.lines += s.engine.setPredictions(["hello", "i", "oh"], context: "", at: .seconds(0.95)).map(TranscriptFormat.jsonl)
        #expect(Array(s.take().suffix(2)) == [
            "{\"t\":0.950,\"type\":\"keyboard\",\"predictions\":[\"Hello\",\"I\"]}",
            "{\"t\":0.950,\"type\":\"highlight\",\"id\":\"kbd:predictions\",\"label\":\"Predictions, group, 2 items\",\"kind\":\"group\"}",
        ])
        s.press(at: 1.85, held: 0.05)  // the prediction row (shown at 0.95)
        s.press(at: 2.75, held: 0.05)  // "Hello"
        let lines = s.take()
        #expect(KeyboardEngineTests.only(lines, ["type"]) == ["{\"t\":2.750,\"type\":\"type\",\"text\":\"Hello \",\"key\":\"kbd:word:hello\"}"])
        #expect(s.engine.wantedPredictions == PredictionRequest(context: "Hello ", count: 2))
        // Only "i" completes nothing typed yet: the row shows the words that fit.
        s.lines += s.engine.setPredictions(["i", "hello"], context: "Hello ", at: .seconds(2.8)).map(TranscriptFormat.jsonl)
        #expect(s.take() == ["{\"t\":2.800,\"type\":\"keyboard\",\"predictions\":[\"I\",\"hello\"]}"])
        #expect(s.engine.keyboardText?.before == "Hello ")
    }

    @Test func keyboard_word_by_prediction_completes_the_letters_typed() throws {
        var s = try Self.script(predictions: 1)
        s.press(at: 0.9, held: 0.05)
        _ = s.engine.setPredictions([], context: "", at: .seconds(0.9))
        s.press(at: 1.8, held: 0.05)   // row1 (no prediction row: no words)
        s.press(at: 2.7, held: 0.05)   // h
        _ = s.take()
        s.lines += s.engine.setPredictions(["hello"], context: "H", at: .seconds(2.7)).map(TranscriptFormat.jsonl)
        s.press(at: 3.6, held: 0.05)   // the prediction row
        s.press(at: 4.5, held: 0.05)   // "Hello": only "ello " is typed
        #expect(KeyboardEngineTests.only(s.take(), ["type"]) == ["{\"t\":4.500,\"type\":\"type\",\"text\":\"ello \",\"key\":\"kbd:word:hello\"}"])
        #expect(s.engine.keyboardText?.before == "Hello ")
    }

    @Test func keyboard_backspace() throws {
        var s = try Self.opened()
        s.press(at: 1.8, held: 0.05); s.press(at: 2.7, held: 0.05)             // H
        s.press(at: 5.5, held: 0.05); s.press(at: 7.4, held: 0.05)             // row3 (third row), delete (second)
        #expect(KeyboardEngineTests.only(s.take(), ["type"]) == [
            "{\"t\":2.700,\"type\":\"type\",\"text\":\"H\",\"key\":\"key:h\"}",
            "{\"t\":7.400,\"type\":\"type\",\"text\":\"\",\"delete\":1,\"key\":\"key:backspace\"}",
        ])
        #expect(s.engine.keyboardText?.before == "")
    }

    @Test func keyboard_shift() throws {
        var s = try Self.opened()
        s.press(at: 1.8, held: 0.05); s.press(at: 2.7, held: 0.05)             // H (sentence start)
        s.press(at: 5.5, held: 0.05); s.press(at: 6.4, held: 0.05)             // row3, shift (first): once
        #expect(s.engine.model.items.first { $0.id == "key:e" }?.element.label == "E")
        s.press(at: 7.3, held: 0.05); s.press(at: 10.2, held: 0.05)            // row1, e (third): "E", shift off
        #expect(KeyboardEngineTests.only(s.take(), ["type", "keyboard"]).dropFirst() == [
            "{\"t\":2.700,\"type\":\"type\",\"text\":\"H\",\"key\":\"key:h\"}",
            "{\"t\":6.400,\"type\":\"keyboard\",\"shift\":\"once\"}",
            "{\"t\":10.200,\"type\":\"type\",\"text\":\"E\",\"key\":\"key:e\"}",
            "{\"t\":10.200,\"type\":\"keyboard\",\"shift\":\"off\"}",
        ])
        #expect(s.engine.model.items.first { $0.id == "key:e" }?.element.label == "e")
    }

    @Test func keyboard_page_switch() throws {
        var s = try Self.opened()
        s.press(at: 3.7, held: 0.05); s.press(at: 6.6, held: 0.05)             // row3, 123 (third)
        let lines = s.take()
        #expect(Array(lines.suffix(3)) == [
            "{\"t\":6.600,\"type\":\"keyboard\",\"page\":\"digits\"}",
            "{\"t\":6.600,\"type\":\"highlight\",\"id\":\"kbd:letters:row1\",\"label\":\"H to E, group, 3 items\",\"kind\":\"group\"}",
            "{\"t\":6.600,\"type\":\"highlight\",\"id\":\"kbd:digits:row1\",\"label\":\"1 to 2, group, 2 items\",\"kind\":\"group\"}",
        ])
        s.press(at: 7.5, held: 0.05); s.press(at: 9.4, held: 0.05)             // row1, 2 (second)
        #expect(KeyboardEngineTests.only(s.take(), ["type"]) == ["{\"t\":9.400,\"type\":\"type\",\"text\":\"2\",\"key\":\"key:2\"}"])
    }

    @Test func keyboard_close() throws {
        var s = try Self.opened()
        s.press(at: 3.7, held: 0.05); s.press(at: 7.6, held: 0.05)             // row3, hide keyboard (fourth)
        #expect(Array(s.take().suffix(3)) == [
            "{\"t\":7.600,\"type\":\"filter\",\"switch\":\"KEY_SPACE\",\"decision\":\"accepted\",\"action\":\"select\"}",
            "{\"t\":7.600,\"type\":\"keyboard\",\"state\":\"closed\"}",
            "{\"t\":7.600,\"type\":\"highlight\",\"id\":\"to\",\"label\":\"To\",\"kind\":\"item\"}",
        ])
        #expect(!s.engine.isKeyboardOpen)
        #expect(s.engine.model.items.map { $0.id } == ["to", "send"])
        // The application's scanning goes on from the field.
        s.run(until: 8.6)
        #expect(s.take() == ["{\"t\":8.600,\"type\":\"highlight\",\"id\":\"send\",\"label\":\"Send, button\",\"kind\":\"item\"}"])
    }

    @Test func keyboard_escape_at_its_top_level_closes_it() throws {
        var s = try Self.opened()
        _ = s.take()
        s.press(at: 1.8, held: 0.05)      // into row 1
        s.press(28, at: 2.0, held: 0.05)  // escape: out of the row
        s.press(28, at: 2.5, held: 0.05)  // escape at the top: closed
        #expect(Array(s.take().suffix(5)) == [
            "{\"t\":2.000,\"type\":\"filter\",\"switch\":\"KEY_ENTER\",\"decision\":\"accepted\",\"action\":\"escape\"}",
            "{\"t\":2.000,\"type\":\"highlight\",\"id\":\"kbd:letters:row1\",\"label\":\"H to E, group, 3 items\",\"kind\":\"group\"}",
            "{\"t\":2.500,\"type\":\"filter\",\"switch\":\"KEY_ENTER\",\"decision\":\"accepted\",\"action\":\"escape\"}",
            "{\"t\":2.500,\"type\":\"keyboard\",\"state\":\"closed\"}",
            "{\"t\":2.500,\"type\":\"highlight\",\"id\":\"to\",\"label\":\"To\",\"kind\":\"item\"}",
        ])
        #expect(!s.engine.isKeyboardOpen)
    }

    @Test func keyboard_predictions_timeout() throws {
        var s = try Self.script(predictions: 2)
        s.press(at: 0.9, held: 0.05)
        _ = s.take()
        s.run(until: 1.4)
        #expect(s.take() == [
            "{\"t\":1.400,\"type\":\"keyboard\",\"predictions\":null,\"reason\":\"no predictions within 0.5 s\"}",
            "{\"t\":1.400,\"type\":\"highlight\",\"id\":\"kbd:letters:row1\",\"label\":\"H to E, group, 3 items\",\"kind\":\"group\"}",
        ])
        // A late answer changes nothing.
        #expect(s.engine.setPredictions(["hello"], context: "", at: .seconds(1.5)).isEmpty)
    }

    @Test func keyboard_password_shows_bullets_and_predicts_nothing() throws {
        var s = try Self.opened(predictions: 3, entry: "password")
        s.press(at: 1.8, held: 0.05); s.press(at: 2.7, held: 0.05)
        let lines = s.take()
        #expect(KeyboardEngineTests.only(lines, ["type", "keyboard"]) == [
            "{\"t\":0.900,\"type\":\"keyboard\",\"state\":\"opened\",\"layout\":\"tiny\",\"page\":\"letters\",\"id\":\"to\",\"label\":\"To\",\"password\":true}",
            "{\"t\":2.700,\"type\":\"type\",\"text\":\"•\",\"key\":\"key:h\"}",
        ])
        #expect(s.engine.wantedPredictions == nil)
        #expect(s.engine.keyboardText?.before == "H")
    }

    @Test func keyboard_speaks_keys_but_never_a_password() throws {
        var s = try Self.opened(speech: true)
        #expect(s.take().contains("{\"t\":0.900,\"type\":\"speak\",\"text\":\"H to E, group, 3 items\"}"))
        var p = try Self.opened(entry: "password", speech: true)
        #expect(!p.take().contains { $0.contains("\"type\":\"speak\"") && $0.contains("H to E") })
    }

    /// In a password field nothing is said: no key, no row, no word typed (the same presses as
    /// keyboard_speaks_the_word_typed_after_the_next_highlight, which says them all elsewhere).
    @Test func keyboard_says_nothing_of_a_password() throws {
        var s = try Self.opened(entry: "password", speech: true)
        s.press(at: 1.8, held: 0.05); s.press(at: 2.7, held: 0.05)             // H
        s.press(at: 3.7, held: 0.05); s.press(at: 6.6, held: 0.05)             // row2, space (third)
        let lines = s.take()
        #expect(lines.contains("{\"t\":6.600,\"type\":\"type\",\"text\":\"•\",\"key\":\"key:space\"}"))
        #expect(lines.filter { $0.contains("\"type\":\"highlight\"") }.count > 4)
        // The field's own phrase was said before the keyboard opened; nothing after.
        let opened = try #require(lines.firstIndex { $0.contains("\"state\":\"opened\"") })
        #expect(!lines[opened...].contains { $0.contains("\"type\":\"speak\"") })
        #expect(lines[..<opened].contains { $0.contains("\"type\":\"speak\"") })  // speech is on
    }

    @Test func keyboard_speaks_the_word_typed_after_the_next_highlight() throws {
        var s = try Self.opened(speech: true)
        s.press(at: 1.8, held: 0.05); s.press(at: 2.7, held: 0.05)             // H
        s.press(at: 3.7, held: 0.05); s.press(at: 6.6, held: 0.05)             // row2, space (third)
        let lines = s.take()
        let at = lines.firstIndex(of: "{\"t\":6.600,\"type\":\"type\",\"text\":\" \",\"key\":\"key:space\"}")!
        #expect(Array(lines[(at + 1)...].prefix(3)) == [
            "{\"t\":6.600,\"type\":\"highlight\",\"id\":\"kbd:letters:row1\",\"label\":\"h to e, group, 3 items\",\"kind\":\"group\"}",
            "{\"t\":6.600,\"type\":\"speak\",\"text\":\"H\"}",
            "{\"t\":6.600,\"type\":\"speak\",\"text\":\"h to e, group, 3 items\"}",
        ])
    }
}

extension KeyboardEngineTests {
    /// keyboard_from_the_menu: a text field's scanner menu offers Keyboard (after the pages); it
    /// opens the keyboard on the field, and closing it returns to the field.
    @Test func keyboard_from_the_menu() throws {
        let p = try profile("""
        {"scanning": {"grouping": "containers"}, "switchStabilization": {"debounce": 0}, "keyboard": {"layout": "tiny", "predictions": 0}}
        """)
        var s = EngineScript(tree: try Self.tree(), profile: p)
        s.engine.keyboardLayout = try KeyboardLayoutDecoder.decode(Array(Self.layoutJSON.utf8), file: "tiny.json")
        s.press(at: 0.9, held: 0.05)  // the field: its menu opens
        let opened = try #require(s.take().first { $0.contains("\"type\":\"menu\",\"open\":true") })
        #expect(opened.contains("\"menu:keyboard\""))
        #expect(opened.contains("\"Keyboard\""))
        // Scan the menu until Keyboard is highlighted, then select it.
        var t = 0.95
        var found = false
        while t < 40 && !found {
            t += 0.5
            s.run(until: t)
            found = s.take().contains { $0.contains("\"id\":\"menu:keyboard\"") && $0.contains("\"type\":\"highlight\"") }
        }
        #expect(found)
        s.press(at: t + 0.1, held: 0.05)
        let lines = s.take()
        #expect(lines.contains { $0.contains("\"type\":\"keyboard\",\"state\":\"opened\"") && $0.contains("\"id\":\"to\"") })
        #expect(s.engine.isKeyboardOpen)
        // A button's menu has no Keyboard entry.
        #expect(!opened.contains("send"))
    }
}

extension KeyboardEngineTests {
    /// keyboard_for_the_focus: while the live desktop says something scanning cannot reach has the
    /// keyboard focus (a terminal here, no scan item), a button's menu offers Keyboard too; it opens
    /// the keyboard for the focus, and closing it returns to the button. Without such a focus (none,
    /// or a field that is a scan item) a button's menu has none.
    @Test func keyboard_for_the_focus() throws {
        let p = try profile("""
        {"scanning": {"grouping": "containers"}, "switchStabilization": {"debounce": 0}, "keyboard": {"layout": "tiny", "predictions": 0}}
        """)
        var s = EngineScript(tree: try Self.tree(), profile: p)
        s.engine.keyboardLayout = try KeyboardLayoutDecoder.decode(Array(Self.layoutJSON.utf8), file: "tiny.json")
        // The focus on a field that is a scan item: that field opens the keyboard itself.
        #expect(s.engine.keyboardFocusChanged(KeyboardFocus(id: "to", label: "To", frame: nil, entry: .singleLine), at: .seconds(0.5)).isEmpty)
        s.press(at: 1.9, held: 0.05)  // Send: its menu opens
        var opened = try #require(s.take().first { $0.contains("\"type\":\"menu\",\"open\":true") })
        #expect(opened.contains("\"id\":\"send\"") && !opened.contains("menu:keyboard"))
        s.press(at: 2.0, held: 0.05)  // Tap (the first entry): the button is activated, the menu closes
        _ = s.take()
        let focus = KeyboardFocus(id: ":1.9/vte", label: "Terminal", frame: Rect(x: 0, y: 500, width: 390, height: 300))
        #expect(s.engine.keyboardFocusChanged(focus, at: .seconds(2.5)).isEmpty)
        // Scan to Send again and open its menu.
        var t = 2.5
        var onSend = false
        while t < 20 && !onSend {
            t += 0.5
            s.run(until: t)
            onSend = s.take().contains { $0.contains("\"type\":\"highlight\"") && $0.contains("\"id\":\"send\"") }
        }
        #expect(onSend)
        s.press(at: t + 0.1, held: 0.05)
        opened = try #require(s.take().first { $0.contains("\"type\":\"menu\",\"open\":true") })
        #expect(opened.contains("\"id\":\"send\"") && opened.contains("\"menu:keyboard\""))
        var found = false
        while t < 60 && !found {
            t += 0.5
            s.run(until: t)
            found = s.take().contains { $0.contains("\"id\":\"menu:keyboard\"") && $0.contains("\"type\":\"highlight\"") }
        }
        #expect(found)
        s.press(at: t + 0.1, held: 0.05)
        let lines = s.take()
        #expect(lines.contains { $0.contains("\"type\":\"keyboard\",\"state\":\"opened\",\"layout\":\"tiny\",\"page\":\"letters\",\"id\":\":1.9/vte\",\"label\":\"Terminal\"") },
                "\(lines)")
        // The terminal is in the lower half: the panel goes to the top.
        #expect(s.engine.model.scopeFrame?.y == 0)
        #expect(s.engine.closeKeyboard(at: .seconds(t + 1)).contains { $0.event == .highlight(id: "send", kind: .item, label: "Send, button") })
    }
}

extension KeyboardEngineTests {
    /// An engine on the tiny layout with learning on or off, the keyboard opened on the field.
    static func learning(_ on: Bool, entry: String = "singleLine") throws -> EngineScript {
        let p = try profile("""
        {"scanning": {"grouping": "containers", "tapBehavior": "alwaysTap"},
         "switches": [{"key": "KEY_SPACE", "action": "select"}],
         "switchStabilization": {"debounce": 0}, "keyboard": {"layout": "tiny", "predictions": 0, "learning": \(on)}}
        """)
        var s = EngineScript(tree: try tree(entry: entry), profile: p)
        s.engine.keyboardLayout = try KeyboardLayoutDecoder.decode(Array(layoutJSON.utf8), file: "tiny.json")
        s.press(at: 0.9, held: 0.05)
        return s
    }

    /// Types h, e, space, h, o (rows as groups, 0.9 s a stop, each key from the first row again).
    static func typeHeHo(_ s: inout EngineScript) {
        s.press(at: 1.8, held: 0.05); s.press(at: 2.7, held: 0.05)                                  // H
        s.press(at: 3.6, held: 0.05); s.press(at: 6.3, held: 0.05)                                  // row1, e (third)
        s.press(at: 8.1, held: 0.05); s.press(at: 10.8, held: 0.05)                                 // row2, space (third)
        s.press(at: 11.7, held: 0.05); s.press(at: 12.6, held: 0.05)                                // h
        s.press(at: 14.4, held: 0.05); s.press(at: 16.2, held: 0.05)                                // row2, o (second)
    }

    /// keyboard_learns_sentences: nothing is learned while a sentence is being written; closing
    /// the keyboard hands over what was written since it opened (the last word too), once.
    @Test func keyboard_learns_what_was_written_when_it_closes() throws {
        var s = try Self.learning(true)
        Self.typeHeHo(&s)
        #expect(s.engine.keyboardText?.before == "He ho")
        #expect(s.engine.takeLearning().isEmpty)
        _ = s.engine.closeKeyboard(at: .seconds(20))
        #expect(s.engine.takeLearning() == ["He ho"])
        #expect(s.engine.takeLearning().isEmpty)
    }

    /// The field's text before the keyboard opened is not the person's writing of this session;
    /// a new line ends a sentence and hands it over at once.
    @Test func keyboard_learns_only_this_sessions_writing() throws {
        let p = try profile("""
        {"scanning": {"grouping": "containers", "tapBehavior": "alwaysTap"}, "switches": [{"key": "KEY_SPACE", "action": "select"}],
         "switchStabilization": {"debounce": 0}, "keyboard": {"layout": "tiny", "predictions": 0}}
        """)
        var s = EngineScript(tree: try Self.tree(value: "Dear Ann"), profile: p)
        s.engine.keyboardLayout = try KeyboardLayoutDecoder.decode(Array(Self.layoutJSON.utf8), file: "tiny.json")
        s.press(at: 0.9, held: 0.05)
        _ = s.engine.fieldText(before: "Dear Ann, hello\nsee", after: "", at: .seconds(1))
        _ = s.engine.closeKeyboard(at: .seconds(2))
        #expect(s.engine.takeLearning() == [", hello\nsee"])
    }

    @Test func keyboard_learns_nothing_with_learning_off_or_in_a_password() throws {
        var off = try Self.learning(false)
        Self.typeHeHo(&off)
        _ = off.engine.closeKeyboard(at: .seconds(20))
        #expect(off.engine.takeLearning().isEmpty)
        var secret = try Self.learning(true, entry: "password")
        Self.typeHeHo(&secret)
        _ = secret.engine.closeKeyboard(at: .seconds(20))
        #expect(secret.engine.takeLearning().isEmpty)
    }
}

extension KeyboardEngineTests {
    /// Speech-paced scanning in the keyboard: after a word is typed the next stop is highlighted,
    /// the word is said, then the stop's phrase; the highlight moves on only once speech has said
    /// the stop's phrase (which speech-dispatcher says after the word), a scan time after it.
    @Test func keyboard_speech_paced_scanning_waits_for_the_word_and_the_phrase() throws {
        let p = try profile("""
        {"scanning": {"grouping": "containers", "tapBehavior": "alwaysTap", "speech": true, "pauseForSpeech": true},
         "switches": [{"key": "KEY_SPACE", "action": "select"}],
         "switchStabilization": {"debounce": 0}, "keyboard": {"layout": "tiny", "predictions": 0}}
        """)
        var s = EngineScript(tree: try Self.tree(), profile: p)
        s.engine.keyboardLayout = try KeyboardLayoutDecoder.decode(Array(Self.layoutJSON.utf8), file: "tiny.json")
        var spoken = 0, now = 0.0, pressed = 0.0
        /// Says every phrase written so far, to its end at `now` (speech-dispatcher's end events).
        func sayAll() {
            let total = s.lines.filter { $0.contains(#""type":"speak""#) }.count
            while spoken < total {
                s.lines += s.engine.speechFinished(utterance: spoken, at: .seconds(now)).map(TranscriptFormat.jsonl)
                spoken += 1
            }
        }
        /// Scans (speech said at once) until `id` is highlighted, entering the group that holds it.
        func select(_ id: String) {
            while true {
                switch s.engine.highlightReach(itemID: id) {
                case .item?:
                    now += 0.1
                    pressed = now
                    s.press(at: now, held: 0.05)
                    now += 0.05
                    return
                case .group?:
                    now += 0.1
                    s.press(at: now, held: 0.05)
                    now += 0.05
                    sayAll()
                case nil:
                    guard let d = s.engine.nextDeadline() else { return }
                    now = d.seconds
                    s.run(until: now)
                    sayAll()
                }
            }
        }
        sayAll()
        select("to")
        sayAll()
        select("key:h")
        sayAll()
        select("key:space")
        let lines = s.take()
        let at = try #require(lines.firstIndex { $0.contains(#""type":"type","text":" ""#) })
        let t0 = pressed  // the press
        let press = Instant.seconds(t0)
        let t = String(format: "%.3f", t0)
        #expect(Array(lines[(at + 1)...].prefix(3)) == [
            #"{"t":\#(t),"type":"highlight","id":"kbd:letters:row1","label":"h to e, group, 3 items","kind":"group"}"#,
            #"{"t":\#(t),"type":"speak","text":"H"}"#,
            #"{"t":\#(t),"type":"speak","text":"h to e, group, 3 items"}"#,
        ])
        // While speech goes on the dwell waits (at most its cap, 10 s more than the scan time).
        #expect(s.engine.nextDeadline() == press + .seconds(1) + Scanner.speechPauseCap)
        // The word said (1.5 s): still waiting for the stop's phrase, said after it.
        s.lines += s.engine.speechFinished(utterance: spoken, at: press + .milliseconds(1500)).map(TranscriptFormat.jsonl)
        #expect(s.engine.nextDeadline() == press + .seconds(1) + Scanner.speechPauseCap)
        #expect(!s.take().contains { $0.contains(#""type":"highlight""#) })
        // The phrase said (2.5 s): the dwell ends then (later than the scan time), row 2.
        s.lines += s.engine.speechFinished(utterance: spoken + 1, at: press + .milliseconds(2500)).map(TranscriptFormat.jsonl)
        #expect(s.engine.nextDeadline() == press + .milliseconds(2500))
        s.run(until: t0 + 2.6)
        #expect(s.take().first { $0.contains(#""type":"highlight""#) }?.contains(#""id":"kbd:letters:row2""#) == true)
    }
}
