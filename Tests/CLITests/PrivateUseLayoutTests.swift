import Foundation
import Testing

/// Issue 32, point 1: a layout whose keys start with U+E000 and a number (the old placeholders'
/// spelling) crashed `text stats` and `simulate` as the keyboard opened. Both now place and type
/// its keys.
@Suite("a layout with private-use keys")
struct PrivateUseLayoutTests {
    /// A computed page (`frequency`'s kind) with keys and a fixed row spelled as the old
    /// placeholders, one with a number far past the page's places.
    static let layout = """
        {"name": "private-use", "pages": [{"name": "letters", "computed": {
          "keys": ["h", "i", "\\uE0000", "\\uE0007", {"key": "space"}],
          "frequencies": {"h": 5, "i": 4, "\\uE0000": 1, "\\uE0007": 2, "space": 9},
          "columns": [2, 3],
          "fixed": [["\\uE00099", {"key": "backspace"}, {"key": "close"}]]}}]}
        """

    @Test func textStatsMeasuresIt() throws {
        let layout = try CLI.tempFile("private-use.json", Self.layout)
        let phrases = try CLI.tempFile("private-use.txt", "hi\nhi hi\n")
        let r = try CLI.run(["text", "stats", phrases, "--keyboard", layout, "--predictions", "0,3", "--predictor", "words"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.first == "2 phrases, 7 characters; baseline qwerty grouped 0p 1sw")
        #expect(r.lines.contains { $0.hasPrefix("private-use groupSelection 3p 2sw ") })
    }

    @Test func simulateOpensTheKeyboardOnIt() throws {
        let layout = try CLI.tempFile("private-use-sim.json", Self.layout)
        let tree = try CLI.tempFile("private-use-tree.json", """
            {"screen": {"width": 800, "height": 600}, "root": {"id": "window", "frame": [0, 0, 800, 600], "children": [
              {"id": "message", "label": "Message", "textEntry": "singleLine", "frame": [20, 20, 760, 40]}]}}
            """)
        let profile = try CLI.tempFile("private-use-profile.json", """
            {"scanning": {"tapBehavior": "alwaysTap"}, "keyboard": {"layout": "\(layout)", "predictions": 0}}
            """)
        let events = try CLI.tempFile("private-use.evemu", "E: 0.500000 0001 0039 1\nE: 0.500000 0000 0000 0\nE: 0.550000 0001 0039 0\nE: 0.550000 0000 0000 0\n")
        let r = try CLI.run(["simulate", "--tree", tree, "--profile", profile, "--events", events, "--until", "5", "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("{\"t\":0.500,\"type\":\"keyboard\",\"state\":\"opened\",\"layout\":\"private-use\",\"page\":\"letters\""), "\(r.stdout)")
        // The fixed row, led by the key spelled as place 99 of the old placeholders.
        #expect(r.stdout.contains("\"label\":\"\u{E000}99 to hide keyboard, row, 3 items\""), "\(r.stdout)")
    }
}
