import Testing
@testable import SwitchCore

/// The words the transcript names things by (docs/transcript.md): the engine puts them in its
/// events from the model it scans at that instant, the text format prints them (ids only with
/// `ids`), JSONL carries both, and nothing from a label reaches a terminal unescaped.
@Suite struct TranscriptLabelTests {
    static let manual = Fixture.settings(.manual) { $0.groupItems = true }

    /// The Tools group (x, y), then row r inside a list container that has a scroll action; the
    /// scope is the root, labelled "Main window".
    static func model() -> ScanModel {
        let list = Element(id: "list", label: "Cities", customActions: ["Scroll forward"], order: .declared,
                           children: [Fixture.button("r")])
        return ScanModel(tree: ElementTree(
            screen: Size(width: 400, height: 800),
            root: Element(id: "root", label: "Main window", frame: Rect(x: 0, y: 0, width: 400, height: 800), order: .declared,
                          children: [Fixture.group("g", label: "Tools", [Fixture.button("x"), Fixture.button("y")]), list])))
    }

    func events(_ outputs: [Scanner.Output]) -> [TranscriptEvent] {
        outputs.compactMap { if case .emit(let e) = $0 { return e }; return nil }
    }

    @Test func highlights_name_items_groups_escape_stops_and_menu_entries() {
        var s = Scanner(model: Self.model(), settings: Self.manual)
        #expect(events(s.handle(.start, at: .zero)) == [.scan(started: true), .highlight(id: "g", kind: .group, label: "Tools, group, 2 items")])
        #expect(events(s.handle(.action(.select, target: nil), at: .seconds(1))) == [.highlight(id: "x", kind: .item, label: "X, button")])
        _ = s.handle(.action(.next, target: nil), at: .seconds(2))
        // The escape stop is named by its group; its kind says it is the way out.
        #expect(events(s.handle(.action(.next, target: nil), at: .seconds(3))) == [.highlight(id: "g", kind: .groupExit, label: "Tools, group, 2 items")])
        #expect(events(s.handle(.action(.select, target: nil), at: .seconds(4))) == [.highlight(id: "g", kind: .group, label: "Tools, group, 2 items")])
        #expect(events(s.handle(.action(.next, target: nil), at: .seconds(5))) == [.highlight(id: "r", kind: .item, label: "R, button")])
        #expect(events(s.handle(.action(.select, target: nil), at: .seconds(6))) == [
            .menuOpened(id: "r", label: "R, button", items: [
                MenuEntryName(id: "menu:tap", label: "Tap"), MenuEntryName(id: "menu:action:Scroll forward", label: "Scroll forward"),
                // r has no place on screen: no Gestures.
                MenuEntryName(id: "menu:device", label: "Device"), MenuEntryName(id: "menu:shortcuts", label: "Shortcuts"),
                MenuEntryName(id: "menu:settings", label: "Settings"),
                MenuEntryName(id: "menu:escape", label: "Escape"), MenuEntryName(id: "menu:close", label: "Close menu"),
            ]),
            .highlight(id: "menu:tap", kind: .menuItem, label: "Tap"),
        ])
        // A container's action is performed on the container, named by its description.
        #expect(events(s.handle(.action(.next, target: nil), at: .seconds(7))) == [.highlight(id: "menu:action:Scroll forward", kind: .menuItem, label: "Scroll forward")])
        #expect(events(s.handle(.action(.select, target: nil), at: .seconds(8))).first
                == .perform(Perform(.custom("Scroll forward"), id: "list", label: "Cities", point: nil)))
    }

    @Test func escape_at_the_top_level_names_the_scope() {
        var s = Scanner(model: Self.model(), settings: Self.manual)
        _ = s.handle(.start, at: .zero)
        #expect(events(s.handle(.action(.escape, target: nil), at: .seconds(1))).first
                == .perform(Perform(.escape, id: "root", label: "Main window")))
    }

    @Test func a_label_comes_from_the_model_at_that_instant() {
        var s = Scanner(model: Fixture.abc, settings: Fixture.settings(.manual))
        _ = s.handle(.start, at: .zero)
        // b is renamed while a is highlighted: the next highlight says the new words.
        let renamed = Fixture.model([Fixture.button("a"), Element(id: "b", label: "Bravo", value: "on", traits: [.button]), Fixture.button("c")])
        #expect(events(s.handle(.layout(renamed), at: .seconds(1))).isEmpty)
        #expect(events(s.handle(.action(.next, target: nil), at: .seconds(2))) == [.highlight(id: "b", kind: .item, label: "Bravo, on, button")])
    }

    // MARK: Text and JSONL

    static let line = TranscriptLine(t: .seconds(2.3), .menuOpened(id: "cell1", label: "London, button", items: [
        MenuEntryName(id: "menu:tap", label: "Tap"), MenuEntryName(id: "menu:action:Delete", label: "Delete"),
    ]))

    @Test func text_names_by_label_and_adds_ids_only_when_asked() {
        #expect(TranscriptFormat.text(Self.line) == #"   2.300  menu       open on "London, button": "Tap", "Delete""#)
        #expect(TranscriptFormat.text(Self.line, ids: true)
                == #"   2.300  menu       open on "London, button" [cell1]: "Tap" [menu:tap], "Delete" [menu:action:Delete]"#)
        let custom = TranscriptLine(t: .seconds(3), .perform(Perform(.custom("Delete"), id: "cell1", label: "London, button")))
        #expect(TranscriptFormat.text(custom) == #"   3.000  perform    custom    "Delete" on "London, button""#)
        let tap = TranscriptLine(t: .seconds(1.4), .touch(TouchDecision(contact: 0, .tap(point: Point(x: 120, y: 300), id: "add", label: "Add, button"))))
        #expect(TranscriptFormat.text(tap) == #"   1.400  touch      tap at (120, 300) → "Add, button" [contact 0]"#)
        #expect(TranscriptFormat.text(tap, ids: true) == #"   1.400  touch      tap at (120, 300) → "Add, button" [add] [contact 0]"#)
    }

    @Test func an_element_without_words_is_named_by_its_id() {
        let l = TranscriptLine(t: .zero, .highlight(id: "/0/3", kind: .item, label: ""))
        #expect(TranscriptFormat.text(l) == "   0.000  highlight  item      [/0/3]")
        #expect(TranscriptFormat.text(l, ids: true) == "   0.000  highlight  item      [/0/3]")
    }

    @Test func jsonl_keeps_the_id_and_adds_the_label() {
        #expect(TranscriptFormat.jsonl(Self.line)
                == #"{"t":2.300,"type":"menu","open":true,"id":"cell1","label":"London, button","items":["menu:tap","menu:action:Delete"],"labels":["Tap","Delete"]}"#)
        let hl = TranscriptLine(t: .zero, .highlight(id: "a", kind: .item, label: "Line\nbreak \"q\""))
        #expect(TranscriptFormat.jsonl(hl) == #"{"t":0.000,"type":"highlight","id":"a","label":"Line\nbreak \"q\"","kind":"item"}"#)
        let nothing = TranscriptLine(t: .zero, .touch(TouchDecision(contact: 2, .tap(point: Point(x: 1, y: 2), id: nil, label: nil))))
        #expect(TranscriptFormat.jsonl(nothing) == #"{"t":0.000,"type":"touch","decision":"tap","point":[1,2],"id":null,"label":null,"contact":2}"#)
    }

    @Test func control_characters_in_labels_and_ids_are_escaped_in_text() {
        let hostile = "Pay\u{1B}[2J\n\tnow\r\u{7F}\u{85}\u{2028}\u{202E}gnp.exe \"x\" \\ ok 👍🏽 Wi‑Fi"
        let l = TranscriptLine(t: .zero, .highlight(id: "id\u{1B}\n", kind: .item, label: hostile))
        let text = TranscriptFormat.text(l, ids: true)
        #expect(text == #"   0.000  highlight  item      "Pay\u{1B}[2J\n\tnow\r\u{7F}\u{85}\u{2028}\u{202E}gnp.exe \"x\" \\ ok 👍🏽 Wi‑Fi" [id\u{1B}\n]"#)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        // Speech text and device names go through the same quoting.
        #expect(TranscriptFormat.text(TranscriptLine(t: .zero, .speak("a\nb"))) == #"   0.000  speak      "a\nb""#)
        #expect(TranscriptFormat.quoted("plain") == "\"plain\"")
    }
}
