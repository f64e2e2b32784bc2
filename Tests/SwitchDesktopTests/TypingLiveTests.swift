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
        // The sentence start shows capitals: shift declines them for the first letter.
        let keys = Keys.next(3) + Keys.select + Self.type("hello world")
        let data = try Self.dataHome()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let r = s.live(scenario: Keys.started + keys + Keys.settled,
                       ["run", "--desktop", "--app", "testapp.py", "--profile", Self.typingProfile, "--format", "jsonl"], timeout: 120,
                       env: ["XDG_DATA_HOME": data])
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

/// The keyboard into fields of other kinds (issue 18): a GtkTextView and a field that refuses
/// text (`typingapp.py`), a widget with no Text at all, only key events (through XTest, opened from
/// a button's scanner menu for what has the keyboard focus), a Qt line edit (Debian's
/// qtbase5-examples) and a VTE terminal (xfce4-terminal, key events through XTest), each read
/// back through AT-SPI (switchscan's `result` lines and pyatspi) or, for the widget without
/// Text, in the application itself.
extension TypingLiveTests {
    static let typingApp = DesktopSession.fixtures + "/typingapp.py"

    static func type(_ text: String, declineCapital: Bool = true) -> String {
        (declineCapital ? key("shift") : "") + text.map { "mark\n" + key(String($0)) + #"expect "action":"type""# + "\n" }.joined()
    }

    /// A folder of the test's own for the person's model (`run` learns there: the profile's
    /// `keyboard.learning` is on).
    static func dataHome() throws -> String {
        let dir = NSTemporaryDirectory() + "switchscan-typing-data-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func run(_ s: DesktopSession, app: String, data: String, _ keys: String, timeout: Double = 120) -> DesktopSession.Result {
        s.live(scenario: Keys.started + keys + Keys.settled,
               ["run", "--desktop", "--app", app, "--profile", Self.typingProfile, "--format", "jsonl"], timeout: timeout,
               env: ["XDG_DATA_HOME": data])
    }

    func typeResults(_ r: DesktopSession.Result) -> [[String: Any]] { r.lines("result").filter { $0["action"] as? String == "type" } }

    @Test func aTextViewAndAFieldThatRefusesText() throws {
        let s = try DesktopSession()
        defer { s.close() }
        try s.start([Self.typingApp])
        try s.waitFor("typingapp.py")
        let data = try Self.dataHome()
        defer { try? FileManager.default.removeItem(atPath: data) }
        // Notes (a GtkTextView): "hi", closed; Locked: "a" is refused, closed; the session goes on.
        let r = run(s, app: "typingapp.py", data: data, Keys.select + Self.type("hi") + Self.key("close")
                    + Keys.next(1) + Keys.select + Self.type("a") + Self.key("close") + Keys.next(1))
        #expect(r.status == 0, "\(r.stderr)")
        let results = typeResults(r)
        #expect(results.count == 3, "\(r.stdoutLines.filter { !$0.contains("\"highlight\"") }.joined(separator: "\n"))")
        #expect(results.prefix(2).allSatisfy { $0["result"] as? String == "done" && ($0["how"] as? String ?? "").hasPrefix("EditableText") }, "\(results)")
        #expect(results.dropFirst().first?["text"] as? String == "hi")
        let refused = results.last
        #expect(refused?["label"] as? String == "Locked")
        #expect(refused?["result"] as? String == "failed")
        #expect(refused?["reason"] as? String == "the field did not take the text (it still reads \"\")", "\(String(describing: refused))")
        // After the refusal the session went on: the keyboard closed and scanning moved on.
        let closes = r.lines("keyboard").filter { $0["state"] as? String == "closed" }
        #expect(closes.count == 2)
        #expect(r.lines("highlight").last?["label"] as? String == "Clear, button")
        #expect(s.state("typingapp.py")["Notes"]?["text"] as? String == "hi")
        // The person's words were learned into their model (run: keyboard.learning is on); what
        // the field refused was not. The file: its `#` comment lines, then `word count last` (the
        // word "hi", written once, in the first sentence learned).
        let words = (try? String(contentsOfFile: data + "/switchscan/words-en.txt", encoding: .utf8)) ?? ""
        #expect(words.split(separator: "\n").filter { !$0.hasPrefix("#") } == ["hi 1 1"], "\(words)")
        #expect(FileManager.default.fileExists(atPath: data + "/switchscan/user-en.db"))
    }

    /// The key log has no Text: the keyboard, opened from Clear's menu for what has the focus,
    /// types into it by XTest key events; the application says what it received.
    @Test func keyEventsIntoAWidgetWithoutText() throws {
        let s = try DesktopSession()
        defer { s.close() }
        try s.start([Self.typingApp])
        try s.waitFor("typingapp.py")
        // Clear (third), its menu: Tap, Gestures, Device, Shortcuts, Settings, Keyboard.
        let data = try Self.dataHome()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let r = run(s, app: "typingapp.py", data: data, Keys.next(2) + Keys.menu + Keys.next(5) + Keys.select + Self.type("hi", declineCapital: false)
                    + Self.key("close"))
        #expect(r.status == 0, "\(r.stderr)")
        let menu = r.lines("menu").first { $0["open"] as? Bool == true }
        #expect((menu?["items"] as? [String])?.contains("menu:keyboard") == true, "\(String(describing: menu))")
        let opened = r.lines("keyboard").first { $0["state"] as? String == "opened" }
        #expect(opened?["label"] as? String == "Key log", "\(r.stdoutLines.filter { $0.contains("keyboard") })")
        let results = typeResults(r)
        #expect(results.count == 2)
        #expect(results.allSatisfy { $0["result"] as? String == "done" && ($0["how"] as? String ?? "").hasPrefix("XTest keys") }, "\(results)")
        // Read back in the application: its label.
        #expect(s.state("typingapp.py").keys.contains("Received: Hi"), "\(s.state("typingapp.py").keys.sorted())")
        // Closing returned to the button whose menu opened it.
        #expect(r.lines("highlight").last?["label"] as? String == "Clear, button")
    }

    @Test func aQtLineEdit() throws {
        let s = try DesktopSession(needs: QtExamples.needs)
        defer { s.close() }
        try s.start([QtExamples.directory + "/lineedits/lineedits"])
        try s.waitFor("lineedits")
        // The combo box "Normal", then the line edit "Echo".
        let data = try Self.dataHome()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let r = run(s, app: "lineedits", data: data, Keys.next(1) + Keys.select + Self.type("hi"))
        #expect(r.status == 0, "\(r.stderr)")
        let results = typeResults(r)
        #expect(results.count == 2 && results.allSatisfy { $0["result"] as? String == "done" }, "\(results)")
        #expect(results.last?["text"] as? String == "hi")
        // The panel around it has the same name: the node of role text.
        let nodes = s.run([DesktopSession.checker, "state", "lineedits"]).stdoutLines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let echo = nodes.first { $0["role"] as? String == "text" && $0["name"] as? String == "Echo" }
        #expect(echo?["text"] as? String == "hi", "\(nodes)")
    }

    @Test func aVteTerminal() throws {
        let s = try DesktopSession(needs: ["/usr/bin/xfce4-terminal"])
        defer { s.close() }
        try s.start(["/usr/bin/xfce4-terminal", "--disable-server", "--geometry", "80x20+0+0", "-x", "/bin/bash", "--norc", "--noprofile"],
                    env: ["PS1": "$ "])
        try s.waitFor("xfce4-terminal")
        // The menu bar's six menus, the tab, then the terminal; no capital in a terminal.
        let data = try Self.dataHome()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let r = run(s, app: "xfce4-terminal", data: data, Keys.next(7) + Keys.select + Self.type("echo hi", declineCapital: false))
        #expect(r.status == 0, "\(r.stderr)")
        let opened = r.lines("keyboard").first { $0["state"] as? String == "opened" }
        #expect(opened?["label"] as? String == "Terminal")
        let results = typeResults(r)
        #expect(results.count == 7 && results.allSatisfy { $0["result"] as? String == "done" && ($0["how"] as? String ?? "").hasPrefix("XTest keys") },
                "\(results)")
        #expect((results.last?["text"] as? String ?? "").contains("$ echo hi"), "\(String(describing: results.last))")
        let terminal = s.state("xfce4-terminal").values.first { $0["role"] as? String == "terminal" }
        #expect((terminal?["text"] as? String ?? "").contains("$ echo hi"), "\(String(describing: terminal))")
    }
}

/// A web form's labelled text input, typed into by the scanning keyboard in both browsers (issue
/// 32), read back through AT-SPI (pyatspi). Chromium's field has no EditableText: key events from
/// the first letter. Firefox ESR's answers EditableText with true and changes nothing: the first
/// letter goes again as key events, and Firefox gets key events from then on.
extension TypingLiveTests {
    static let webTypingProfile = DesktopSession.fixtures + "/profile-web-typing.json"

    @Test(arguments: WebBrowser.allCases)
    func aWebFormsTextInput(_ browser: WebBrowser) throws {
        let s = try DesktopSession(watchdog: 300, needs: browser.needs)
        defer { s.close() }
        try browser.start(s, page: "form.html")
        let form = try browser.waitForItems(s, containing: "About", framed: WebLiveTests.formItems)
        let name = try #require(form.index(of: "Name"), "\(form.labels)")
        let data = try Self.dataHome()
        defer { try? FileManager.default.removeItem(atPath: data) }
        // Once the page is read whole (the trace says so), to the field and into it; each letter
        // once the one before is answered.
        let keys = Keys.pageRead + Keys.to(name, of: form.items.count) + "mark\n" + Keys.select
            + #"expect "state":"opened""# + "\n" + Self.type("hi") + Keys.settled
        let r = s.live(scenario: keys, ["run", "--desktop", "--app", browser.appName, "--profile", Self.webTypingProfile, "--format", "jsonl", "--no-show"],
                       timeout: 180, env: ["XDG_DATA_HOME": data, "SWITCHSCAN_DESKTOP_TRACE": "1"])
        #expect(r.status == 0, "\(r.stderr.suffix(2000))")
        let opened = r.lines("keyboard").first { $0["state"] as? String == "opened" }
        #expect(opened?["label"] as? String == "Name", "\(r.stdoutLines.filter { !$0.contains("\"highlight\"") }.joined(separator: "\n"))")
        let results = typeResults(r)
        let readBacks = r.stderr.split(separator: "\n").filter { $0.contains("typing: ") }.joined(separator: "\n")
        #expect(results.count == 2 && results.allSatisfy { $0["result"] as? String == "done" }, "\(results)\n\(readBacks)")
        #expect(results.last?["text"] as? String == "hi", "\(results)\n\(readBacks)")
        let how = results.map { $0["how"] as? String ?? "" }
        switch browser {
        case .chromium:
            #expect(how == ["XTest keys: typed 1 character", "XTest keys: typed 1 character"], "\(how)")
        case .firefox:
            #expect(how == ["XTest keys: typed 1 character (EditableText changed nothing: keys for this application from now on)",
                            "XTest keys: typed 1 character"], "\(how)")
        }
        // The page's own field, through pyatspi.
        let field = s.run([DesktopSession.checker, "state", browser.appName], timeout: 30).stdoutLines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.first { $0["role"] as? String == "entry" && $0["name"] as? String == "Name" }
        #expect(field?["text"] as? String == "hi", "\(String(describing: field))")
    }
}
