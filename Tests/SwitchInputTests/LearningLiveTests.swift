import Foundation
import SwitchCore
import Testing

/// Issue 32 on `run` (which learns by default): the real binary on an emulated keyboard types
/// "We" into a text field and closes the keyboard (Escape), which learns it. A count at `Int.max`
/// in the person's words trapped and ended the session; a words file that is a folder was
/// silent. Now the count saturates, and the failure is one transcript line and one warning while
/// the session goes on to its end. Part of `UmockdevTests`, so serialized with it.
extension UmockdevTests {
    /// Space moves, Enter selects (a select taps), Escape closes the keyboard; qwerty scanned key
    /// by key from q: w is one move away, e two.
    static let typingProfile = """
        {"scanning": {"style": "manual", "tapBehavior": "alwaysTap", "focusedItemAfterTap": "current"},
         "switches": [{"key": "KEY_SPACE", "action": "next"}, {"key": "KEY_ENTER", "action": "select"},
                      {"key": "KEY_ESC", "action": "escape"}],
         "keyboard": {"layout": "qwerty", "predictions": 0, "grouping": "none"}}
        """

    /// `run` on a one-field tree with `words-en.txt` made by `prepare`, "We" typed and learned;
    /// the run is ended by SIGINT once the keyboard closed, what learning says was said and scanning went on.
    func typeAndLearn(_ prepare: (String) throws -> Void, waitFor: String) throws -> (DeviceHarness.Result, data: String, dir: String) {
        let dir = NSTemporaryDirectory() + "switchscan-learn-live-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/data/switchscan", withIntermediateDirectories: true)
        try """
            {"screen": {"width": 800, "height": 600}, "root": {"id": "window", "frame": [0, 0, 800, 600], "children": [
              {"id": "message", "label": "Message", "textEntry": "multiLine", "frame": [20, 20, 760, 100]}]}}
            """.write(toFile: dir + "/tree.json", atomically: true, encoding: .utf8)
        try Self.typingProfile.write(toFile: dir + "/profile.json", atomically: true, encoding: .utf8)
        try prepare(dir + "/data/switchscan/words-en.txt")
        // From the first highlight; the run ends once what is awaited was said and scanning went
        // on (a highlight after Escape: only the closing keyboard makes one).
        let scenario = DeviceHarness.started + Self.press("KEY_ENTER")  // the field: the keyboard opens
            + Self.press("KEY_SPACE") + Self.press("KEY_ENTER")  // w
            + Self.press("KEY_SPACE") + Self.press("KEY_SPACE") + Self.press("KEY_ENTER")  // e
            + "mark\n" + Self.press("KEY_ESC") + "wait \(waitFor)\nexpect \"type\":\"highlight\"\nsettle\nsignal INT\n"
        let r = DeviceHarness.live([F.keyboard], scenario: scenario,
                                   ["run", "--tree", dir + "/tree.json", "--profile", dir + "/profile.json", "--format", "jsonl"],
                                   env: ["XDG_DATA_HOME": dir + "/data", "XDG_CONFIG_HOME": dir + "/config"])
        return (r, dir + "/data/switchscan", dir)
    }

    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func runLearnsAWordCountedAtIntMaxAndGoesOn() throws {
        let (r, data, dir) = try typeAndLearn({ try "we 9223372036854775807\n".write(toFile: $0, atomically: true, encoding: .utf8) },
                                              waitFor: #""state":"closed""#)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(r.status == 0, "\(r.stderr)")
        let lines = untimed(r.stdoutLines)
        #expect(lines.contains(#"{"type":"type","text":"W","key":"key:w"}"#) && lines.contains(#"{"type":"type","text":"e","key":"key:e"}"#), "\(r.stdout)")
        #expect(lines.contains(#"{"type":"keyboard","state":"closed"}"#))
        // Scanning went on after the keyboard closed (the session did not end).
        let closed = try #require(r.stdoutLines.firstIndex { $0.contains(#""state":"closed""#) })
        #expect(r.stdoutLines[(closed + 1)...].contains { $0.contains(#""type":"highlight""#) })
        let words = try String(contentsOfFile: data + "/words-en.txt", encoding: .utf8)
        #expect(words.split(separator: "\n").dropFirst(2) == ["we 9223372036854775807 1"], "\(words)")
    }

    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func runSaysOnceThatItCannotKeepTheWordsAndGoesOn() throws {
        let (r, data, dir) = try typeAndLearn({ try FileManager.default.createDirectory(atPath: $0, withIntermediateDirectories: true) },
                                              waitFor: "learning")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(r.status == 0, "\(r.stderr)")
        let reason = "\(data)/words-en.txt: is a folder, expected the file of your learned words; your words in it are not used, and what you write is not kept, until it is fixed or removed (it is left as it is)"
        let said = untimed(r.stdoutLines).filter { $0.contains(#""learning":"#) }
        #expect(said == [#"{"type":"keyboard","learning":"failed","reason":"\#(reason)"}"#], "\(r.stdout)")
        #expect(r.stderrLines.filter { $0.contains("learning failed") } == ["switchscan: warning: learning failed: " + reason])
        let closed = try #require(r.stdoutLines.firstIndex { $0.contains(#""state":"closed""#) })
        #expect(r.stdoutLines[(closed + 1)...].contains { $0.contains(#""type":"highlight""#) })
    }
}
