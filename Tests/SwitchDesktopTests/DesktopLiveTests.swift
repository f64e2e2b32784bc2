import Foundation
import SwitchCore
import Testing

/// The live desktop against real applications on a real accessibility bus (issue 9, point 5):
/// each test starts its own headless desktop (Xvfb, session bus, a11y bus, registry), the test
/// application (Fixtures/testapp.py, GTK 3) or gtk3-widget-factory, and the real `switchscan`
/// under umockdev with an emulated switch box (Space next, Enter select, M menu, Esc escape;
/// profile-two-switch.json) or the one-key switch. What the application did is read back through
/// AT-SPI by an independent client (Fixtures/atspi-check.py, pyatspi), not from the transcript.
@Suite(.serialized)
struct DesktopLiveTests {
    static var idPattern: Regex<Substring> { /:[0-9]+\.[0-9]+\/org\/a11y\/atspi\/accessible\/[0-9]+/ }

    /// `tree show --desktop` with the ids taken out (they hold the bus name and GTK's numbering).
    static func normalized(_ text: String) -> String {
        text.replacing(idPattern, with: "#")
    }

    /// The scan items of the application: first word of the description (the label) → id.
    func items(_ s: DesktopSession, app: String = "testapp.py") throws -> [String: String] {
        let r = s.switchscan(["tree", "show", "--desktop", "--app", app, "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        var out: [String: String] = [:]
        for item in json["items"] as? [[String: Any]] ?? [] {
            let label = (item["description"] as? String ?? "").components(separatedBy: ", ")[0]
            if out[label] == nil { out[label] = item["id"] as? String }
        }
        return out
    }

    func run(_ s: DesktopSession, _ keys: String, app: [String] = ["--app", "testapp.py"], extra: [String] = []) -> DesktopSession.Result {
        let r = s.live(scenario: Keys.started + keys + Keys.settled,
                       ["run", "--desktop"] + app + ["--profile", DesktopSession.twoSwitchProfile, "--format", "jsonl"] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        return r
    }

    func highlights(_ r: DesktopSession.Result) -> [String] { r.lines("highlight").compactMap { $0["id"] as? String } }

    func results(_ r: DesktopSession.Result) -> [String] {
        r.lines("result").map { "\($0["action"] ?? "") \($0["result"] ?? "") \($0["how"] ?? $0["reason"] ?? "")" }
    }

    // MARK: The tree

    /// The live tree equals the expected labels, traits, frames, groups and scan order, and a
    /// second read gives the same ids.
    @Test func testAppTreeIsTheExpectedOne() throws {
        let s = try DesktopSession()
        defer { s.close() }
        try s.startTestApp()
        let first = s.switchscan(["tree", "show", "--desktop", "--app", "testapp.py"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(Self.normalized(first.stdout) == """
            11 scan items, 1 groups, screen 1600×900
             1  #  "Count, button"  [8, 29, 464, 34]
             2  #  "Bold, off, button"  [8, 88, 464, 34]
             3  #  "Volume, 40, adjustable"  [8, 126, 464, 45]
             4  #  "Name"  [53, 175, 419, 34]
             5  #  "General, button, selected"  [29, 217, 51, 30]  group #
             6  #  "Advanced, button"  [112, 217, 64, 30]  group #
             7  #  "About, button"  [208, 217, 38, 30]  group #
             8  #  "Apply, button"  [15, 257, 450, 34]
             9  #  "Open dialog, button"  [8, 302, 464, 34]
            10  #  "Add row, button"  [8, 340, 464, 34]
            11  #  "Quit, button"  [8, 382, 464, 34]

            """)
        #expect(first.stdout.contains(Self.idPattern))
        let second = s.switchscan(["tree", "show", "--desktop", "--app", "testapp.py"])
        #expect(second.stdout == first.stdout)
        // Without --app: the active window (no window manager gives focus here: the newest
        // application's window) is the same tree.
        let active = s.switchscan(["tree", "show", "--desktop"])
        #expect(active.stdout == first.stdout, "\(active.stderr)")
    }

    /// An application nobody here wrote: gtk3-widget-factory's first page.
    @Test func widgetFactoryTree() throws {
        let s = try DesktopSession()
        defer { s.close() }
        try s.start(["/usr/bin/gtk3-widget-factory"])
        try s.waitFor("gtk3-widget-factory")
        let r = s.switchscan(["tree", "show", "--desktop", "--app", "gtk3-widget-factory"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = Self.normalized(r.stdout).split(separator: "\n").map(String.init)
        #expect(lines.first == "67 scan items, 18 groups, screen 1600×900")
        // The header bar first (its own group), in reading order; insensitive widgets are no stops;
        // tabs are buttons, the selected one says so; sliders are adjustable with their value.
        #expect(Array(lines.dropFirst().prefix(7)) == [
            #" 1  #  "Page 1, checked, button"  [501, 4, 121, 46]  group # › #"#,
            #" 2  #  "Page 2, not checked, button"  [622, 4, 121, 46]  group # › #"#,
            #" 3  #  "Page 3, not checked, button"  [743, 4, 122, 46]  group # › #"#,
            #" 4  #  "Menu, off, button"  [1193, 4, 36, 46]  group #"#,
            #" 5  #  "Minimize, button"  [1242, 12, 34, 30]  group # › #"#,
            #" 6  #  "Maximize, button"  [1282, 12, 34, 30]  group # › #"#,
            #" 7  #  "Close, button"  [1322, 12, 34, 30]  group # › #"#,
        ])
        #expect(lines.contains { $0.contains(#""50, adjustable"  [557, 135, 307, 34]"#) })
        #expect(lines.contains { $0.contains(#""Andrea, button"  [1174, 88, 70, 21]"#) })
        #expect(lines.filter { $0.contains(#""page 1, button, selected""#) }.count == 4)
        #expect(!r.stdout.contains("togglebutton, on, button\"  [392, 193"))  // insensitive
    }

    // MARK: Actions, state read back through AT-SPI

    /// Presses activate a real button and a toggle; the application's state changed.
    @Test func pressesActivateAButtonAndAToggle() throws {
        let s = try DesktopSession()
        defer { s.close() }
        try s.startTestApp()
        let ids = try items(s)
        let r = run(s, Keys.select + Keys.next() + Keys.select)
        #expect(results(r) == ["activate done action \"Click\"", "activate done action \"Click\""])
        #expect(r.lines("perform").compactMap { $0["id"] as? String } == [ids["Count"], ids["Bold"]].compactMap { $0 })
        let state = s.state()
        #expect(state["Clicked 1 times"] != nil, "\(state.keys.sorted())")
        #expect((state["Bold"]?["states"] as? [String])?.contains("checked") == true)
    }

    /// The one-key switch, auto scanning: a press while Bold is highlighted toggles it.
    @Test func oneKeySwitchAutoScanning() throws {
        let s = try DesktopSession()
        defer { s.close() }
        try s.startTestApp()
        let ids = try items(s)
        let d = DesktopSession.devices
        let profile = DesktopSession.fixtures + "/profile-one-switch-auto.json"
        // The press once the highlight is on Bold (auto scanning: it rests there a second).
        let bold = try #require(ids["Bold"])
        let scenario = "wait running\nexpect \"type\":\"highlight\",\"id\":\"\(bold)\"\npress /dev/input/event2 KEY_SPACE\nsleep 80\nrelease /dev/input/event2 KEY_SPACE\n"
            + Keys.settled
        let path = NSTemporaryDirectory() + "switchscan-desktop-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: path, contents: Data(scenario.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = s.run(["/usr/bin/python3", DesktopSession.liveDriver, "--device", d + "/switch.umockdev",
                       "--ioctl", "/dev/input/event2=\(d)/switch.ioctl", "--scenario", path, "--",
                       DesktopSession.binary, "run", "--desktop", "--app", "testapp.py", "--profile", profile, "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Array(highlights(r).prefix(2)) == [ids["Count"], ids["Bold"]].compactMap { $0 })
        #expect(r.lines("perform").compactMap { $0["id"] as? String } == [ids["Bold"]].compactMap { $0 })
        #expect(results(r) == ["activate done action \"Click\""])
        #expect((s.state()["Bold"]?["states"] as? [String])?.contains("checked") == true)
    }

    /// Increment from the scanner menu moves the slider by its step.
    @Test func sliderIsIncremented() throws {
        let s = try DesktopSession()
        defer { s.close() }
        try s.startTestApp()
        let r = run(s, Keys.next(2) + Keys.menu + Keys.next() + Keys.select)
        #expect(r.lines("menu").first?["items"] as? [String] == ["menu:tap", "menu:increment", "menu:decrement", "menu:gestures", "menu:device",
                                                               "menu:shortcuts", "menu:settings", "menu:escape", "menu:close"])
        #expect(results(r) == ["increment done value 40 → 45"])
        #expect(s.state()["Volume"]?["value"] as? Double == 45)
    }

    /// Activating a tab selects it (GTK's tabs have no action: the tab list's Selection); the
    /// re-read tree shows the new page.
    @Test func tabIsSelected() throws {
        let s = try DesktopSession()
        defer { s.close() }
        try s.startTestApp()
        let r = run(s, Keys.next(5) + Keys.select + Keys.next(3))
        #expect(results(r) == ["activate done selected tab 2 of its tab list"])
        let state = s.state()
        #expect((state["Advanced"]?["states"] as? [String])?.contains("selected") == true)
        #expect((state["General"]?["states"] as? [String])?.contains("selected") == false)
        // The page changed under the scan: after Advanced come About, then the new page's Reset.
        let ids = try items(s)
        #expect(Array(highlights(r).suffix(3)) == [ids["About"], ids["Reset"], ids["Open dialog"]].compactMap { $0 })
    }

    /// The modal dialog takes scanning into it; closing it brings the highlight back to the button
    /// that opened it (by identity). Followed as the active window (no --app).
    @Test func modalDialogInAndBackByIdentity() throws {
        let s = try DesktopSession()
        defer { s.close() }
        try s.startTestApp()
        let ids = try items(s)
        let opener = try #require(ids["Open dialog"])
        // Open dialog (item 9), then in the dialog: Remember, Cancel (closes it).
        let r = run(s, Keys.next(8) + Keys.select + Keys.next() + Keys.select, app: [])
        let h = highlights(r)
        let opened = try #require(h.firstIndex(of: opener))
        let inDialog = Array(h[(opened + 2)...].prefix(2))  // after the resumed highlight on the opener
        #expect(inDialog.count == 2 && !inDialog.contains { ids.values.contains($0) }, "\(h)")
        #expect(h.last == opener, "\(h)")
        #expect(results(r).count == 2)
        #expect(s.state()["Confirm"] == nil)
        #expect(s.state()["Open dialog"] != nil)
    }

    /// The list grows: the new row is scanned right after the button that added it.
    @Test func listGrows() throws {
        let s = try DesktopSession()
        defer { s.close() }
        try s.startTestApp()
        let r = run(s, Keys.next(9) + Keys.select + Keys.select + Keys.next(2))
        let ids = try items(s)
        #expect(ids["Row 1"] != nil && ids["Row 2"] != nil, "\(ids.keys.sorted())")
        #expect(Array(highlights(r).suffix(2)) == [ids["Row 1"], ids["Row 2"]].compactMap { $0 })
        #expect(s.state()["Row 2"] != nil)
    }

    /// Rows added and removed by the application itself (no press: no perform's full read) are
    /// read as subtrees spliced into the kept tree; the tree the engine has at the end is exactly
    /// what a full read (`tree dump --desktop`) gives: ids, labels, traits, frames, order.
    @Test func subtreeReadsEqualAFullRead() throws {
        let s = try DesktopSession()
        defer { s.close() }
        // The rows are added once the run scans (the scenario makes `go`), every 250 ms.
        let go = NSTemporaryDirectory() + "switchscan-desktop-go-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: go) }
        try s.startTestApp(["--add-every", "250", "--add-count", "8", "--rows-max", "3", "--add-when", go])
        let file = NSTemporaryDirectory() + "switchscan-desktop-tree-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        // Until the engine's tree has the eighth row and no longer the fifth (rows-max 3).
        let r = s.live(scenario: Keys.started + "copy \(DesktopSession.twoSwitchProfile) \(go)\n"
                       + "waitfile \(file) ^(?![\\s\\S]*\"Row 5\")[\\s\\S]*\"Row 8\"\nsignal INT\n",
                       ["run", "--desktop", "--app", "testapp.py", "--profile", DesktopSession.twoSwitchProfile, "--format", "jsonl"],
                       env: ["SWITCHSCAN_DESKTOP_TRACE": "1", "SWITCHSCAN_DESKTOP_TREE": file])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains(" subtrees), "), "no subtree read: \(r.stderr.suffix(3000))")
        let full = s.switchscan(["tree", "dump", "--desktop", "--app", "testapp.py"])
        #expect(full.status == 0, "\(full.stderr)")
        let live = try String(contentsOfFile: file, encoding: .utf8)
        #expect(live.contains("\"Row 8\"") && !live.contains("\"Row 5\""), "\(live)")
        #expect(live == full.stdout)
    }

    // MARK: Applications that quit or hang

    /// The application quits mid-scan: its tree ends, the engine keeps running, and scanning
    /// starts again when the application comes back (a second instance, titled "Second").
    @Test func applicationQuitsMidScan() throws {
        let s = try DesktopSession()
        defer { s.close() }
        let first = try s.startTestApp()
        // A second instance once the first has quit (its process gone).
        try s.start(["/bin/sh", "-c", "while [ -e /proc/\(first.processIdentifier) ] && ! grep -q '^[^)]*) Z' /proc/\(first.processIdentifier)/stat; do sleep 0.05; done; exec \"$0\" --title Second",
                     DesktopSession.testApp])
        // Quit (item 11), then a press once the second instance's window is scanned.
        let r = run(s, Keys.next(10) + Keys.select + #"expect "type":"tree","change":"window","app":"testapp.py","window":"Second""# + "\n" + Keys.next())
        // A quitting application can stop answering before it leaves the bus (under load, longer
        // than the 300 ms timeout): a `notAnswering` line may come before `ended`.
        let trees = r.lines("tree").map { "\($0["change"] ?? "") \($0["window"] ?? $0["reason"] ?? "")" }
            .filter { !$0.hasPrefix("notAnswering ") }
        #expect(trees.count == 3 && trees.first == "window Switch test" && trees[1].hasPrefix("ended ") && trees.last == "window Second", "\(r.stdout)")
        #expect(r.lines("scan").map { $0["state"] as? String ?? "" } == ["started", "stopped", "started"])
        // The engine kept running: the press after the new window came moved the highlight in it.
        #expect(r.lines.last?["type"] as? String == "highlight", "\(r.stdout)")
    }

    /// An application that does not answer (SIGSTOP: the test application's "Freeze" button has
    /// a helper stop its process 0.3 s later and continue it 1.5 s after that) costs one bounded
    /// pause and clear lines: the activation that got no answer fails, the tree ends; once the
    /// application answers again it is scanned again.
    @Test func hungApplicationCostsABoundedPause() throws {
        let s = try DesktopSession()
        defer { s.close() }
        let app = try s.startTestApp(["--freeze", "3"])
        // Freeze is item 12; once the application is stopped (its /proc state T), Count (wrapped
        // round) is activated; the press 400 ms after it must not wait for the application; once
        // it answers again (its window read again) the last select activates Count.
        let stopped = "waitfile /proc/\(app.processIdentifier)/stat ^[^)]*\\) T\n"
        let r = run(s, Keys.next(11) + Keys.tap("ENTER", thenWait: 100) + stopped + Keys.next() + Keys.tap("ENTER", thenWait: 400)
                    + Keys.next() + "mark\n" + #"expect "type":"tree","change":"window""# + "\n" + Keys.select)
        #expect(results(r).first == "activate done action \"Click\"", "\(r.stdout)")  // Freeze itself
        let failed = try #require(r.lines("result").first { $0["result"] as? String == "failed" }, "\(r.stdout)\n\(r.stderr)")
        #expect(failed["reason"] as? String == "no reply in time: the application does not answer")
        let trees = r.lines("tree").map { "\($0["change"] ?? "") \($0["window"] ?? $0["reason"] ?? "")" }
        #expect(trees == ["window Switch test", "notAnswering no reply within 300 ms", "window Switch test"], "\(r.stdout)")
        // The bounded pause: the press written 400 ms after the unanswered select is read at most
        // 0.45 s late (the timeout is 0.3 s).
        let selects = r.lines("filter").filter { $0["action"] as? String == "select" }.compactMap { $0["t"] as? Double }
        let t0 = try #require(failed["t"] as? Double)
        let nextPress = try #require(r.lines("filter").compactMap { $0["t"] as? Double }.first { $0 > t0 })
        #expect(nextPress - t0 < 0.4 + 0.45, "\(r.stdout)")
        #expect(selects.count == 3)
        // It answers again: the last activation is done.
        #expect(results(r).last == "activate done action \"Click\"", "\(r.stdout)")
    }

    // MARK: Replay

    /// `tree dump` then `simulate` on the dump gives the live run's transcript on the same presses
    /// (the desktop's own result and tree lines aside).
    @Test func dumpThenSimulateGivesTheLiveTranscript() throws {
        let s = try DesktopSession()
        defer { s.close() }
        try s.startTestApp()
        let dir = NSTemporaryDirectory() + "switchscan-dump-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let dump = s.switchscan(["tree", "dump", "--desktop", "--app", "testapp.py", "-o", dir + "/tree.json"])
        #expect(dump.status == 0, "\(dump.stderr)")
        // `-o -` is standard output (not a file named "-"), the same tree as the file.
        let toStdout = s.switchscan(["tree", "dump", "--desktop", "--app", "testapp.py", "-o", "-"])
        #expect(toStdout.status == 0 && toStdout.stderr.isEmpty, "\(toStdout.stderr)")
        #expect(toStdout.stdout == (try String(contentsOfFile: dir + "/tree.json", encoding: .utf8)))
        #expect(!FileManager.default.fileExists(atPath: "-"))
        // Bold toggles (its value changes, the ids do not), the menu opens on Volume and closes.
        let r = run(s, Keys.next() + Keys.select + Keys.next() + Keys.menu + Keys.next(4) + Keys.select + Keys.next(), extra: ["--show-frames"])
        // The frames the live engine got, as an evemu events file.
        var evemu = ""
        var lastFrame = 0.0
        let codes = ["KEY_SPACE": "0039", "KEY_ENTER": "001c", "KEY_M": "0032", "KEY_ESC": "0001"]
        for line in r.stderr.split(separator: "\n") where line.hasPrefix("frame ") {
            let f = line.split(separator: " ")
            guard f.count >= 5, let code = codes[String(f[3])] else { continue }
            // evemu times are <sec>.<usec>: the frame's time with its fraction padded to 6 digits.
            let parts = f[1].split(separator: ".", maxSplits: 1)
            let fraction = parts.count == 2 ? String(parts[1]) : ""
            let time = "\(parts[0]).\(fraction)\(String(repeating: "0", count: max(0, 6 - fraction.count)))"
            evemu += "E: \(time) 0001 \(code) \(f[4])\nE: \(time) 0000 0000 0\n"
            lastFrame = max(lastFrame, Double(time) ?? 0)
        }
        try evemu.write(toFile: dir + "/presses.evemu", atomically: true, encoding: .utf8)
        // The run's end: its last line, or its last press when that came later. Transcript times
        // are rounded to the millisecond, frame times are exact to the microsecond: a last press
        // at 2.2544 s is written "t":2.254, and --until 2.254 would leave it out of the simulation.
        let last = max(r.lines.last?["t"] as? Double ?? 0, lastFrame)
        let sim = s.switchscan(["simulate", "--tree", dir + "/tree.json", "--profile", DesktopSession.twoSwitchProfile,
                                "--events", dir + "/presses.evemu", "--until", String(format: "%.6f", last), "--format", "jsonl"])
        #expect(sim.status == 0, "\(sim.stderr)")
        let live = r.stdoutLines.filter { !$0.contains(#""type":"result""#) && !$0.contains(#""type":"tree""#) }
        #expect(live.count > 10)
        #expect(live == sim.stdoutLines, "live:\n\(live.joined(separator: "\n"))\nsimulated:\n\(sim.stdout)")
        #expect(r.lines("result").count == 1)
    }

    // MARK: Bad input

    @Test func clearErrors() throws {
        let s = try DesktopSession()
        defer { s.close() }
        try s.startTestApp()
        let missing = s.switchscan(["tree", "show", "--desktop", "--app", "no-such-app"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "switchscan: error: no application named \"no-such-app\" on the accessibility bus (there are: testapp.py)\n")
        let unwritable = s.switchscan(["tree", "dump", "--desktop", "--app", "testapp.py", "-o", "/no-such-dir/tree.json"])
        #expect(unwritable.status != 0)
        #expect(unwritable.stderr == "switchscan: error: /no-such-dir/tree.json: cannot be written: No such file or directory\n", "\(unwritable.stderr)")
        let both = s.switchscan(["tree", "show", "x.json", "--desktop"])
        #expect(both.status == 2 && both.stderr.contains("give a tree file or --desktop, not both"))
        // The highlight is drawn by default with --desktop: without an X server, one line that
        // says how to scan without it, and --no-show then gets past it (to the devices here).
        var noX = s.environment
        noX["DISPLAY"] = nil
        let profile = DesktopSession.twoSwitchProfile
        let shown = DesktopSession.run([DesktopSession.binary, "run", "--desktop", "--profile", profile, "--until", "1"], env: noX, timeout: 30)
        #expect(shown.status == 2)
        #expect(shown.stderr.hasSuffix("DISPLAY is not set (run it in an X session: Xorg, or Xwayland for X11 applications); --no-show scans without drawing the highlight\n"), "\(shown.stderr)")
        let unshown = DesktopSession.run([DesktopSession.binary, "run", "--desktop", "--no-show", "--profile", profile, "--until", "1"], env: noX, timeout: 30)
        #expect(unshown.status == 2 && !unshown.stderr.contains("X server") && (unshown.stderr.contains("/dev/input: does not exist: this system has no evdev input devices")
                                                                                                         || unshown.stderr.contains("/dev/input: holds no event device")), "\(unshown.stderr)")
        let noBus = DesktopSession.run([DesktopSession.binary, "tree", "dump", "--desktop"], env: ["PATH": "/usr/bin:/bin"], timeout: 30)
        #expect(noBus.status == 2)
        #expect(noBus.stderr.hasPrefix("switchscan: error: no accessibility bus"), "\(noBus.stderr)")
    }
}
