import Foundation
import SwitchCore
import Testing

/// Issue 32, point 1: a computed page is costed with a place in every spot of its grid
/// (`KeyboardLayout.Kind.place`). A place must not be confusable with anything a layout file can
/// hold: a key whose text starts with U+E000 and a number was taken for a place and indexed out
/// of range (`text stats`, and `simulate` when the keyboard opened).
@Suite("Computed pages: places")
struct ComputedPagePlaceTests {
    /// A computed page whose keys and fixed row look like the old placeholders ("\u{E000}N"), one
    /// of them with a number far past the page's places.
    static let layoutJSON = """
        {"name": "private-use", "pages": [{"name": "letters", "computed": {
          "keys": ["a", "\\uE0000", "\\uE0007", {"key": "space"}],
          "frequencies": {"a": 5, "\\uE0000": 1, "\\uE0007": 2, "space": 9},
          "columns": [2, 3],
          "fixed": [["\\uE00099", {"text": "\\uE000 1"}, {"key": "backspace"}, {"key": "close"}]]}}]}
        """

    @Test func keys_that_look_like_the_old_placeholders_are_placed_as_keys() throws {
        let layout = try KeyboardLayoutDecoder.decode(Array(Self.layoutJSON.utf8), file: "private-use.json")
        let cost = ScanCostModel(scanTime: .seconds(1), firstItemPause: .zero)
        for method in [KeyboardArrangement.Method(grouping: .containers, cost: cost),
                       KeyboardArrangement.Method(grouping: .none, cost: cost),
                       KeyboardArrangement.Method(grouping: .containers, cost: cost, groupSwitches: 3)] {
            let rows = KeyboardArrangement.arrange(layout, method: method, slots: 3).pages[0].rows
            let ids = rows.joined().map(\.id)
            // Every key once, nothing else: the four placed (most frequent first), then the fixed row.
            #expect(ids.sorted() == ["key:a", "key:backspace", "key:close", "key:space", "key:\u{E000}0", "key:\u{E000}7",
                                     "key:\u{E000}99", "key:\u{E000} 1"].sorted())
            #expect(rows.last?.map(\.id) == ["key:\u{E000}99", "key:\u{E000} 1", "key:backspace", "key:close"])
            #expect(rows.first?.first?.id == "key:space")
            #expect(!ids.contains { $0.hasPrefix("place:") })
        }
    }

    @Test func a_place_has_an_id_no_layout_key_can_have() {
        let place = KeyboardLayout.Key(.place(0))
        #expect(place.id == "place:0")
        for kind: KeyboardLayout.Kind in [.text("place:0"), .text("\u{E000}0"), .page("0"), .space, .close] {
            #expect(KeyboardLayout.Key(kind).id.hasPrefix("key:"))
            #expect(KeyboardLayout.Key(kind).id != place.id)
        }
        var text = KeyboardText()
        let effect = text.apply(.place(3))
        #expect(effect.edit == nil && effect.word == nil && !effect.close && effect.page == nil)
        #expect(text.before.isEmpty)
    }

    /// The simulation types on it: the keyboard opens (the engine arranges the page) and types a
    /// private-use key like any other.
    @Test func the_keyboard_opens_and_types_a_private_use_key() throws {
        let layout = try KeyboardLayoutDecoder.decode(Array(Self.layoutJSON.utf8), file: "private-use.json")
        let sim = TextEntrySimulation(base: Profile(), layout: layout, method: .grouped, predictions: 0)
        let r = try sim.type("a\u{E000}99 \u{E000}7") { _, _ in [] }
        #expect(r.characters == 7)
        #expect(r.presses > 0)
    }
}
