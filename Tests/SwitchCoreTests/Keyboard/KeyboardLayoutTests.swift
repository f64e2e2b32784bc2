import Foundation
import SwitchCore
import Testing

/// Layout files: the bundled ones load; a bad one is one error with file, line, column, path and
/// what was expected (the profile reader's quality).
@Suite("Keyboard layouts")
struct KeyboardLayoutTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Keyboards")

    static func bundled(_ name: String) throws -> KeyboardLayout {
        let bytes = try Array(Data(contentsOf: folder.appendingPathComponent(name + ".json")))
        return try KeyboardLayoutDecoder.decode(bytes, file: name + ".json")
    }

    static func error(_ json: String) -> String {
        do {
            _ = try KeyboardLayoutDecoder.decode(Array(json.utf8), file: "k.json")
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func the_bundled_layouts_load() throws {
        let qwerty = try Self.bundled("qwerty")
        #expect(qwerty.pages.map(\.name) == ["letters", "digits", "symbols"])
        #expect(qwerty.pages[0].rows.map { $0.map(\.id) } == [
            ["key:q", "key:w", "key:e", "key:r", "key:t", "key:y", "key:u", "key:i", "key:o", "key:p"],
            ["key:a", "key:s", "key:d", "key:f", "key:g", "key:h", "key:j", "key:k", "key:l"],
            ["key:shift", "key:z", "key:x", "key:c", "key:v", "key:b", "key:n", "key:m", "key:backspace"],
            ["key:page:digits", "key:space", "key:return", "key:close"],
        ])
        let abc = try Self.bundled("abc")
        #expect(abc.pages[0].rows[0].map(\.id) == ["key:a", "key:b", "key:c", "key:d", "key:e", "key:f"])
        let frequency = try Self.bundled("frequency")
        #expect(frequency.pages[0].computed?.keys.count == 33)
        // Every layout types the letters, digits and the common marks.
        for layout in [qwerty, abc, frequency] {
            for c in "abcdefghijklmnopqrstuvwxyzABCZ0123456789.,?!'-\"" { #expect(layout.typeableCharacters.contains(c), "\(layout.name) \(c)") }
        }
    }

    @Test func the_frequency_layout_puts_frequent_keys_where_they_cost_least() throws {
        let frequency = try Self.bundled("frequency")
        let cost = ScanCostModel(scanTime: .seconds(1), firstItemPause: .zero)
        // Row groups: the cost of a key is (row + 1) + (column + 1) scan times.
        let rows = KeyboardArrangement.arrange(frequency, method: .init(grouping: .containers, cost: cost), slots: 0).pages[0].rows
        #expect(rows[0].first?.id == "key:space")
        #expect(rows[0].dropFirst().first?.id == "key:e")
        #expect(rows[1].first?.id == "key:t")
        #expect(rows.last?.map(\.id) == ["key:page:digits", "key:return", "key:deleteWord", "key:close"])
        // Linear: in order of frequency, the prediction row first.
        let linear = KeyboardArrangement.arrange(frequency, method: .init(grouping: .none, cost: cost), slots: 2).pages[0].rows
        #expect(Array(linear.joined().prefix(6).map(\.id)) == ["key:space", "key:e", "key:t", "key:a", "key:o", "key:i"])
    }

    @Test func bad_layouts_are_one_clear_error() {
        #expect(Self.error("{\"pages\": []}") == "k.json:1:1: missing key \"name\" (the layout's name)")
        #expect(Self.error("{\"name\": \"x\", \"pages\": []}") == "k.json:1:24: pages: expected at least one page")
        #expect(Self.error("{\"name\": \"x\", \"pages\": [{\"name\": \"a\", \"rows\": [[{\"key\": \"shfit\"}]]}]}")
                == "k.json:1:57: pages[0].rows[0][0].key: unknown key kind \"shfit\" (expected one of: backspace, capsLock, close, deleteWord, left, page, return, right, shift, space; or a string, or {\"text\": …}, for a key that types)")
        #expect(Self.error("{\"name\": \"x\", \"pages\": [{\"name\": \"a\", \"rows\": [[\"q\", {\"key\": \"page\", \"page\": \"b\"}]]}]}")
                == "k.json:1:78: pages[0].rows[0][1].page: no page named \"b\" (pages: a)")
        #expect(Self.error("{\"name\": \"x\", \"pages\": [{\"name\": \"a\", \"rows\": [[\"q\", \"Q\"]]}]}")
                == "k.json:1:25: pages[0]: page \"a\" has the key \"Q\" twice (key:q)")
        #expect(Self.error("{\"name\": \"x\", \"pages\": [{\"name\": \"a\", \"rows\": [[\"q\", {\"key\": \"page\", \"page\": \"b\"}]]}, {\"name\": \"b\", \"rows\": [[\"1\"]]}]}")
                == "k.json:1:87: pages[1]: page \"b\" has no page key: a person on it could not reach the other pages")
        #expect(Self.error("{\"name\": \"x\", \"pages\": [{\"name\": \"a\", \"rows\": [[\"\"]]}]}")
                == "k.json:1:49: pages[0].rows[0][0]: expected the text the key types, found an empty string")
        #expect(Self.error("{\"name\": \"x\", \"pages\": [{\"name\": \"a\", \"rows\": [[{\"text\": \"a\", \"width\": 0}]]}]}")
                == "k.json:1:72: pages[0].rows[0][0].width: 0 is out of range (expected 0.25…10)")
        #expect(Self.error("{\"name\": \"x\", \"pages\": [{\"name\": \"a\", \"computed\": {\"keys\": [\"a\", \"b\"], \"frequencies\": {\"c\": 1}}}]}")
                == "k.json:1:93: pages[0].computed.frequencies.c: unknown key \"c\" (expected one of: a, b)")
    }
}
