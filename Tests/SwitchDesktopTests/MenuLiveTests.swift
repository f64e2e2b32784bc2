import CX11
import Foundation
import SwitchCore
import Testing

/// The scanner menu's gestures, keys and settings live (issue 23): the headless desktop, the menu
/// test application (Fixtures/menuapp.py, GTK 3), the real `switchscan run --desktop` under
/// umockdev with the switch box (Space next, Enter select, M menu, Esc escape; auto scanning
/// every 2 s: profile-menu.json). What happened is read back from the application (pyatspi), the
/// X clipboard (xclip), an X client of the test's own (XTestClient) and a stub `loginctl`, not
/// from the transcript. Two runs in one desktop: keys and settings, then the pointer gestures.
@Suite(.serialized)
struct MenuLiveTests {
    static let app = DesktopSession.fixtures + "/menuapp.py"
    static let profile = DesktopSession.fixtures + "/profile-menu.json"

    static func menuOpened(_ r: DesktopSession.Result) -> [String] {
        r.lines("menu").compactMap { l in (l["open"] as? Bool) == true ? ((l["submenu"] as? String) ?? "top") + " " + (l["label"] as? String ?? "") : nil }
    }

    static func results(_ r: DesktopSession.Result) -> [String] {
        r.lines("result").map { "\($0["action"] ?? "") \($0["result"] ?? "") \($0["how"] ?? $0["reason"] ?? "")" }
    }

    /// The menu on the highlighted item (M), `page` entries down (Space) and into it (Enter),
    /// `entry` down and chosen (Enter).
    static func choose(page: Int, entry: Int) -> String {
        Keys.menu + Keys.next(page) + Keys.tap("ENTER", thenWait: 300) + Keys.next(entry) + Keys.select
    }

    /// Shortcuts: Select all, Copy; Device: volume up, down, mute, Lock screen; Settings: Slower,
    /// then the menu closed and the next dwell measured. On an AZERTY layout: keys go by keysym.
    @Test func keysAndSettings() throws {
        let s = try DesktopSession(needs: ["/usr/bin/setxkbmap", "/usr/bin/xclip"])
        defer { s.close() }
        let display = try #require(s.environment["DISPLAY"])
        #expect(s.run(["/usr/bin/setxkbmap", "-display", display, "fr"]).status == 0)
        try s.start([Self.app])
        try s.waitFor("menuapp.py")
        // A media-key daemon of the test's own: it grabs the volume keys, the entry keeps the focus.
        let media = try XTestClient(display, grab: [0x1008ff13, 0x1008ff11, 0x1008ff12])
        let bin = NSTemporaryDirectory() + "switchscan-menu-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: bin) }
        try "#!/bin/sh\necho \"$*\" >> \(bin)/calls\n[ \"$1\" = show-user ] && echo c2\nexit 0\n".write(toFile: bin + "/loginctl", atomically: true, encoding: .utf8)
        chmod(bin + "/loginctl", 0o755)

        // Each perform resumes on the first item, the entry, so every menu opens on it.
        let scenario = Keys.started
            + Self.choose(page: 3, entry: 5)      // Shortcuts: Select all
            + Self.choose(page: 3, entry: 0)      // Shortcuts: Copy
            + Self.choose(page: 2, entry: 0) + Self.choose(page: 2, entry: 1) + Self.choose(page: 2, entry: 2)   // volume up, down, mute
            + Self.choose(page: 2, entry: 3)      // Lock screen
            + Keys.menu + Keys.next(4) + Keys.tap("ENTER", thenWait: 300) + Keys.next(1) + Keys.select   // Settings: Slower
            + "mark\n" + Keys.menu + "expect \"open\":false\n"                                              // closed;
            + "mark\nexpect \"type\":\"highlight\"\nmark\nexpect \"type\":\"highlight\"\n" + Keys.settled  // a whole dwell
        let r = s.live(scenario: scenario, ["run", "--desktop", "--app", "menuapp.py", "--no-show", "--profile", Self.profile, "--format", "jsonl"],
                       timeout: 90, env: ["PATH": bin + ":" + (s.environment["PATH"] ?? "/usr/bin:/bin"), "USER": "person"])
        #expect(r.status == 0, "\(r.stderr)")
        let pages = ["menu:shortcuts", "menu:shortcuts", "menu:device", "menu:device", "menu:device", "menu:device", "menu:settings"]
        #expect(Self.menuOpened(r) == pages.flatMap { ["top Text, hello switch", "\($0) Text, hello switch"] }, "\(r.stdout)")
        #expect(Self.results(r) == ["key done keys Ctrl+A", "key done keys Ctrl+C", "key done keys XF86AudioRaiseVolume",
                                    "key done keys XF86AudioLowerVolume", "key done keys XF86AudioMute", "lockScreen done loginctl lock-session c2"])

        // Ctrl+A on AZERTY selected all of the entry (by position it would have been Ctrl+Q),
        // Ctrl+C copied it: the X clipboard holds the whole text.
        let clipboard = s.run(["/usr/bin/xclip", "-o", "-selection", "clipboard"], timeout: 10)
        #expect(clipboard.stdout == "hello switch", "\(clipboard.stderr)")
        // The volume keys reached an X client as their keysyms.
        #expect(media.presses() == ["XF86AudioRaiseVolume", "XF86AudioLowerVolume", "XF86AudioMute"])
        // Lock screen asked for the user's graphical session and locked it.
        #expect(try String(contentsOfFile: bin + "/calls", encoding: .utf8) == "show-user person -p Display --value\nlock-session c2\n")

        // Slower: 2 s → 3 s; after the menu closed, the highlight rested 3 s on the entry.
        #expect(r.lines("setting").map { "\($0["name"] ?? "")" } == ["autoScanningTime"])
        #expect(r.lines("setting").first?["from"] as? Double == 2 && r.lines("setting").first?["to"] as? Double == 3)
        let closed = try #require(r.lines.lastIndex { $0["type"] as? String == "menu" && ($0["open"] as? Bool) == false })
        let after = r.lines[closed...].filter { $0["type"] as? String == "highlight" }.compactMap { $0["t"] as? Double }
        #expect(after.count >= 2)
        if after.count >= 2 { #expect(abs(after[1] - after[0] - 3.0) < 0.001, "\(r.stdout)") }
        let before = r.lines.prefix { $0["type"] as? String != "filter" }.filter { $0["type"] as? String == "highlight" }.compactMap { $0["t"] as? Double }
        #expect(before.count == 1 || abs(before[1] - before[0] - 2.0) < 0.001)
    }

    /// Drag the scale's knob onto the button under its right end; double click Bananas; right
    /// click the entry: its context menu opens.
    @Test func pointerGestures() throws {
        let s = try DesktopSession()
        defer { s.close() }
        try s.start([Self.app])
        try s.waitFor("menuapp.py")
        let scenario = Keys.started
            + Keys.next(5) + Self.choose(page: 3, entry: 4)            // Level: Gestures, Drag
            + Keys.next(6) + "mark\n" + Keys.select + "expect \"action\":\"drag\",\"id\"\n"   // the drop target: Drop here (the drag takes 0.5 s)
            + Keys.next(3) + Self.choose(page: 3, entry: 1)            // Bananas: Gestures, Double click
            + "mark\n" + Self.choose(page: 1, entry: 0)                // the entry: Gestures, Right click
            + "expect \"action\":\"rightClick\",\"id\"\n" + Keys.settled
        let r = s.live(scenario: scenario, ["run", "--desktop", "--app", "menuapp.py", "--no-show", "--profile", Self.profile, "--format", "jsonl"], timeout: 90)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines("drag").map { "\($0["state"] ?? "") \($0["label"] ?? "")" } == ["choosing Level, 50, adjustable"], "\(r.stdout)")
        #expect(Self.results(r) == ["drag done dragged from (220, 250) to (389, 297) in 0.5 s",
                                    "doubleClick done double click at (170, 129.5)", "rightClick done right click at (170, 37)"], "\(r.stdout)")
        let state = s.state("menuapp.py") { state in
            ((state["Level"]?["value"] as? Double).map { $0 > 80 } ?? false) && state["Activated: Bananas"] != nil && state["Select All"] != nil
        }
        // The drag moved the knob to the drop point's place along the scale (value read back).
        let level = try #require(state["Level"]?["value"] as? Double)
        #expect(level > 80 && level < 100, "Level is \(level)")
        // The double click activated the row.
        #expect(state["Activated: Bananas"] != nil, "\(state.keys.sorted())")
        // The right click opened GTK's own context menu of the entry.
        #expect(state["Select All"]?["role"] as? String == "menu item", "\(state.keys.sorted())")
    }
}
