import Foundation
import Testing

/// `simulate` opens the scanning keyboard as `run` does (the profile's layout), so a recorded
/// session types; it learns what was written into the person's model only with `--learn`
/// (issue 18, docs/typing.md "Learning").
///
///     tree: one text field "Message"; profile: Space next, Enter select, a select taps; the
///     keyboard qwerty scanned key by key (its order below), no predictions
///     recording: Enter (the field: the keyboard opens), then h, i, space, the close key
@Suite("simulate and the keyboard", .serialized)
struct KeyboardSimulateTests {
    static let order = ["q", "w", "e", "r", "t", "y", "u", "i", "o", "p", "a", "s", "d", "f", "g", "h", "j", "k", "l",
                        "shift", "z", "x", "c", "v", "b", "n", "m", "backspace", "123", " ", "return", "close"]

    /// evemu lines: Enter, then each key as Space × its place and Enter, 0.15 s apart (`skip`:
    /// stops before the keys, a prediction row's words).
    static func recording(_ keys: [String], skip: Int = 0) -> String {
        var out = ""
        var t = 0.5
        func tap(_ code: String) {
            out += String(format: "E: %.6f 0001 %@ 1\nE: %.6f 0000 0000 0\n", t, code, t)
            out += String(format: "E: %.6f 0001 %@ 0\nE: %.6f 0000 0000 0\n", t + 0.05, code, t + 0.05)
            t += 0.15
        }
        tap("001c")
        for k in keys {
            for _ in 0..<(skip + order.firstIndex(of: k)!) { tap("0039") }
            tap("001c")
        }
        return out
    }

    struct Setup {
        let dir: String
        let tree: String
        let profile: String
        let events: String
        var data: String { dir + "/data" }

        init(learning: Bool = true) throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-kbd-sim-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            tree = dir + "/tree.json"
            profile = dir + "/profile.json"
            events = dir + "/session.evemu"
            try """
            {"screen": {"width": 800, "height": 600}, "root": {"id": "window", "frame": [0, 0, 800, 600], "children": [
              {"id": "message", "label": "Message", "textEntry": "multiLine", "frame": [20, 20, 760, 100]}]}}
            """.write(toFile: tree, atomically: true, encoding: .utf8)
            try """
            {"scanning": {"style": "manual", "tapBehavior": "alwaysTap", "focusedItemAfterTap": "current"},
             "switches": [{"key": "KEY_SPACE", "action": "next"}, {"key": "KEY_ENTER", "action": "select"}],
             "keyboard": {"layout": "qwerty", "predictions": 0, "grouping": "none", "learning": \(learning)}}
            """.write(toFile: profile, atomically: true, encoding: .utf8)
            try KeyboardSimulateTests.recording(["shift", "h", "i", " ", "close"]).write(toFile: events, atomically: true, encoding: .utf8)
        }

        func simulate(_ extra: [String] = []) throws -> CLIResult {
            try CLI.run(["simulate", "--tree", tree, "--profile", profile, "--events", events, "--format", "jsonl"] + extra,
                        environment: ["XDG_DATA_HOME": data, "XDG_CONFIG_HOME": dir + "/config"])
        }

        func remove() { try? FileManager.default.removeItem(atPath: dir) }
    }

    @Test func aRecordedSessionTypesWithTheKeyboard() throws {
        let s = try Setup()
        defer { s.remove() }
        let r = try s.simulate()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.contains { $0.contains(#""type":"keyboard","state":"opened","layout":"qwerty","page":"letters","id":"message""#) })
        let typed = r.lines.compactMap { line -> String? in
            guard line.contains(#""type":"type""#), let m = line.firstMatch(of: /"text":"([^"]*)"/) else { return nil }
            return String(m.1)
        }
        #expect(typed == ["h", "i", " "], "\(r.stdout)")
        #expect(r.lines.contains { $0.contains(#""type":"keyboard","state":"closed""#) })
        // Nothing of the person's was read or written, and the run is the same again.
        #expect(!FileManager.default.fileExists(atPath: s.data + "/switchscan/words-en.txt"))
        #expect(try s.simulate().stdout == r.stdout)
    }

    @Test func learnWritesThePersonsWordsAndNothingElseChanges() throws {
        let s = try Setup()
        defer { s.remove() }
        let plain = try s.simulate()
        let learned = try s.simulate(["--learn"])
        #expect(learned.status == 0, "\(learned.stderr)")
        #expect(learned.stdout == plain.stdout)
        let words = try String(contentsOfFile: s.data + "/switchscan/words-en.txt", encoding: .utf8)
        #expect(words.split(separator: "\n").dropFirst(2) == ["hi 1 1"], "\(words)")
        // Again: counted twice.
        _ = try s.simulate(["--learn"])
        let again = try String(contentsOfFile: s.data + "/switchscan/words-en.txt", encoding: .utf8)
        #expect(again.split(separator: "\n").dropFirst(2) == ["hi 2 2"])
    }

    /// `--learn` with `keyboard.learning` off in the profile: the profile wins, nothing is written.
    @Test func learnDoesNothingWhenTheProfileSaysNo() throws {
        let s = try Setup(learning: false)
        defer { s.remove() }
        let r = try s.simulate(["--learn"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.data + "/switchscan/words-en.txt"))
    }
}
