import Foundation
import Testing

/// The scanning keyboard on a real desktop (docs/typing.md): a umockdev switch box drives
/// `run --desktop`; selecting the test application's GTK 3 entry opens the keyboard, and the keys
/// type into the entry through AT-SPI EditableText; the entry reads back through AT-SPI Text, both
/// in switchscan's own `result` lines and in pyatspi's view of the application.
@Suite("Typing on the live desktop", .serialized)
struct TypingLiveTests {
    static let typingProfile = DesktopSession.fixtures + "/profile-typing.json"

    /// qwerty scanned key by key (`profile-typing.json`), from its first key after every tap.
    static let order = ["q", "w", "e", "r", "t", "y", "u", "i", "o", "p", "a", "s", "d", "f", "g", "h", "j", "k", "l",
                        "shift", "z", "x", "c", "v", "b", "n", "m", "backspace", "123", " ", "return", "close"]

    static func key(_ name: String) -> String {
        let n = order.firstIndex(of: name)!
        return String(repeating: Keys.tap("SPACE", thenWait: 90), count: n) + Keys.tap("ENTER", thenWait: 250)
    }

    @Test func aSwitchTypesHelloWorldIntoAGtkEntry() throws {
        let s = try DesktopSession()
        defer { s.close() }
        try s.startTestApp()
        // Count, Bold, Volume, then the Name entry: selected, it opens the keyboard.
        var keys = Keys.next(3) + Keys.select
        // The sentence start shows capitals: shift declines them for the first letter.
        keys += Self.key("shift")
        for c in "hello world" { keys += Self.key(String(c)) }
        let r = s.live(scenario: "wait running\nsleep 300\n" + keys + "sleep 500\nsignal INT\n",
                       ["run", "--desktop", "--app", "testapp.py", "--profile", Self.typingProfile, "--format", "jsonl"], timeout: 120)
        #expect(r.status == 0, "\(r.stderr)")
        let opened = r.lines("keyboard").first { $0["state"] as? String == "opened" }
        #expect(opened?["layout"] as? String == "qwerty")
        let typed = r.lines("type").compactMap { $0["text"] as? String }.joined()
        #expect(typed == "hello world", "\(r.stdoutLines.filter { $0.contains("\"type\":\"type\"") || $0.contains("\"filter\"") }.suffix(40).joined(separator: "\n"))")
        let results = r.lines("result").filter { $0["action"] as? String == "type" }
        #expect(results.count == 11)
        #expect(results.allSatisfy { $0["result"] as? String == "done" }, "\(results)")
        #expect(results.last?["text"] as? String == "hello world")
        // The application's own view, through pyatspi.
        let entry = s.state().first { $0.value["role"] as? String == "text" }?.value
        #expect(entry?["text"] as? String == "hello world")
    }
}
