import Foundation
import SwitchDisplayServers
import Testing

/// `switchscan` on a real headless sway 1.7 (issue 30's main gate), the same checks as the X11
/// live tests (SwitchDesktopTests): the real binary inside the session as its unprivileged user,
/// its display backend chosen from the session (wlroots), under umockdev with the desktop tests'
/// switch box; what happened read back independently: the application's state through pyatspi,
/// sway's tree through its IPC, the screen through grim. Every wait is for a condition.
@Suite(.serialized, .enabled(if: SwaySession.desktopUsable, "\(SwaySession.desktopSkipMessage)"))
struct SwayDesktopTests {
    // MARK: The tree

    /// A tree's frames are the true screen rectangles: the Target's frame in `tree show --desktop`
    /// is where the screenshot has the magenta Target, to the pixel: GTK 3 tiled (server-side
    /// decorations) and floating with a header bar (the client draws its decorations and a shadow
    /// round its window), moved. (GTK 4: `gtk4ButtonsAreFramedAndRingedAtTheirBorderBox`.)
    @Test(arguments: [false, true])
    func treeFramesAreTheTrueScreenRectangles(floatingWithHeaderBar: Bool) throws {
        let s = try SwaySession()
        defer { s.close() }
        let ipc = try SwayIPC(environment: s.environment)
        let window = try s.startApp(gtk: 3, title: "Frames", headerBar: floatingWithHeaderBar, ipc: ipc)
        if floatingWithHeaderBar {
            try ipc.command("[con_id=\(window.id)] floating enable, move position 83 47")
            _ = try s.waitFor("the window floating at 83, 47") { try ipc.windows().first { $0.id == window.id && $0.floating && $0.rect.x == 83 } }
        }
        var last = "nothing read"
        do {
            _ = try s.waitFor("the Target's frame where the screenshot has it") { () throws -> Bool? in
                let frame = try s.items(app: "wlapp.py")["Target"].flatMap { DesktopChecks.box($0.frame) }
                let found = try s.screenshot().box(of: DesktopChecks.magenta)
                last = "tree frame \(frame.map { "\($0)" } ?? "none"), screenshot \(found.map { "\($0)" } ?? "none")"
                guard let frame, let found else { return nil }
                return frame == found ? true : nil
            }
        } catch {
            Issue.record("GTK 3\(floatingWithHeaderBar ? ", floating with a header bar" : ""): \(last)")
        }
    }

    /// GTK 4.8 reports a button's content box (its label's, inside Adwaita's padding and border):
    /// the tree's frame is the border box the screenshot shows (the quirk pads it), tiled and
    /// floating with a header bar; the ring sits on it.
    @Test(arguments: [false, true])
    func gtk4ButtonsAreFramedAndRingedAtTheirBorderBox(floatingWithHeaderBar: Bool) throws {
        let s = try SwaySession()
        defer { s.close() }
        let ipc = try SwayIPC(environment: s.environment)
        let window = try s.startApp(gtk: 4, title: "Frames", headerBar: floatingWithHeaderBar, ipc: ipc)
        if floatingWithHeaderBar {
            try ipc.command("[con_id=\(window.id)] floating enable, move position 83 47")
            _ = try s.waitFor("the window floating at 83, 47") { try ipc.windows().first { $0.id == window.id && $0.floating && $0.rect.x == 83 } }
        }
        var last = "nothing read"
        var frame: (x: Int, y: Int, width: Int, height: Int)?
        do {
            _ = try s.waitFor("Press me's frame where the screenshot has its border") { () throws -> Bool? in
                frame = try s.items(app: "wlapp.py")["Press me"].flatMap { DesktopChecks.box($0.frame) }
                guard let f = frame else { return nil }
                let drawn = DesktopChecks.borderBox(try s.screenshot(), inside: f)
                last = "tree frame \(f), drawn \(drawn)"
                return f == drawn ? true : nil
            }
        } catch {
            Issue.record("GTK 4\(floatingWithHeaderBar ? ", floating with a header bar" : ""): \(last)")
        }
        guard let frame else { return }
        let at = try #require(try s.itemOrder(app: "wlapp.py").firstIndex(of: "Press me"))
        let run = try s.startLive({ dir in
            var sc = SwayScenario()
            sc.next(at)
            sc.waitFor(dir, "shot")
            sc.end()
            return sc
        }, ["run", "--desktop", "--app", "wlapp.py", "--profile", SwaySession.twoSwitchProfile, "--format", "jsonl"])
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        try run.await(s, "the highlight on Press me") { $0.lines("highlight").last?["label"] as? String == "Press me, button" }
        _ = DesktopChecks.expectRing(s, around: frame, "GTK 4's Press me")
        try run.go("shot")
        #expect(run.wait() == 0, "\(run.stderr)")
    }

    // MARK: A switch press, the ring

    /// The display backend is the session's (wlroots, with the reason); a switch press activates
    /// "Press me" (AT-SPI reads "Pressed 1"); two presses on, the ring sits exactly on the
    /// Target's border (every pixel of the 4 px band the cursor colour, by grim).
    @Test func aSwitchPressActivatesAButtonAndTheRingSitsOnTheElementsBorder() throws {
        let s = try SwaySession()
        defer { s.close() }
        let ipc = try SwayIPC(environment: s.environment)
        try s.startApp(ipc: ipc)
        let target = try #require(try s.items(app: "wlapp.py")["Target"].flatMap { DesktopChecks.box($0.frame) })
        let run = try s.startLive({ dir in
            var sc = SwayScenario()
            sc.select()
            sc.next(2)
            sc.expect("\"label\":\"Target, button\"")
            sc.waitFor(dir, "shot")
            sc.end()
            return sc
        }, ["run", "--desktop", "--app", "wlapp.py", "--profile", SwaySession.twoSwitchProfile, "--format", "jsonl"])
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        try run.await(s, "the highlight on Target") { $0.lines("highlight").last?["label"] as? String == "Target, button" }
        _ = DesktopChecks.expectRing(s, around: target, "the Target")
        try run.go("shot")
        #expect(run.wait() == 0, "\(run.stderr)")
        #expect(run.stderr.contains("switchscan: display: wlroots (a sway session: SWAYSOCK="), "\(run.stderr)")
        #expect(run.stderr.contains("switchscan: showing the highlight on sway (Wayland wayland-"), "\(run.stderr)")
        #expect(run.lines("result").map { "\($0["action"] ?? "") \($0["result"] ?? "") \($0["how"] ?? "")" } == ["activate done action \"Click\""])
        _ = try s.waitFor("Pressed 1 on the bus") { s.named(app: "wlapp.py")["Pressed 1"] != nil ? true : nil }
    }

    // MARK: Typing

    /// The scanning keyboard types a sentence into a GTK entry (AT-SPI EditableText: no key
    /// event needed), read back through AT-SPI; while it is open its panel is on the screen (a
    /// white panel with the ring on the key, away from the field).
    @Test func theKeyboardTypesASentenceIntoAnEntry() throws {
        let s = try SwaySession()
        defer { s.close() }
        let ipc = try SwayIPC(environment: s.environment)
        try s.startApp(ipc: ipc)
        let field = try #require(try s.items(app: "wlapp.py")["Type here"].flatMap { DesktopChecks.box($0.frame) })
        let data = try SwaySession.sharedFolder()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let run = try s.startLive({ dir in
            var sc = SwayScenario()
            sc.next()
            sc.select(expecting: "\"type\":\"keyboard\"")
            sc.next(DesktopChecks.keyOrder.firstIndex(of: "shift")!)   // the sentence start's capital declined
            sc.select(expecting: "\"type\":\"highlight\"")
            DesktopChecks.type(&sc, "hello")
            sc.waitFor(dir, "panel")
            DesktopChecks.type(&sc, " world")
            sc.end()
            return sc
        }, ["run", "--desktop", "--app", "wlapp.py", "--profile", SwaySession.typingProfile, "--format", "jsonl"], env: ["XDG_DATA_HOME": data])
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        _ = try s.waitFor("hello typed", timeout: 60) { (s.named(app: "wlapp.py")["Type here"]?["text"] as? String) == "hello" ? true : nil }
        // The keyboard's panel: white, ringed keys, not over the field.
        var latest: Image?
        defer { latest?.keep("sway-keyboard-panel") }
        let shot = try s.waitFor("the keyboard panel") { () throws -> Image? in
            let shot = try s.screenshot()
            latest = shot
            // The ring on a key, below the field, under the panel's white text line.
            guard let ring = shot.box(of: DesktopChecks.ringColor), ring.y > field.y + field.height, ring.y > 40 else { return nil }
            let line = (0..<shot.width).filter { shot.rgb($0, ring.y - 30) == 0xFFFFFF }.count
            return line > shot.width / 2 ? shot : nil
        }
        let ring = try #require(shot.box(of: DesktopChecks.ringColor))
        #expect(ring.width < 200 && ring.height < 120, "the ring is on one key: \(ring)")
        try run.go("panel")
        #expect(run.wait(timeout: 90) == 0, "\(run.stderr)")
        let typed = run.lines("type").compactMap { $0["text"] as? String }.joined()
        #expect(typed == "hello world")
        let results = run.lines("result").filter { $0["action"] as? String == "type" }
        #expect(results.count == 11 && results.allSatisfy { $0["result"] as? String == "done" }, "\(results)")
        #expect(s.named(app: "wlapp.py")["Type here"]?["text"] as? String == "hello world")
    }

    /// Keys into a widget without Text (typingapp.py's key log): the keyboard opened from Clear's
    /// menu for what has the focus types through the virtual keyboard; the application says what
    /// it received.
    @Test func keyEventsIntoAWidgetWithoutText() throws {
        let s = try SwaySession()
        defer { s.close() }
        let ipc = try SwayIPC(environment: s.environment)
        try s.startDesktopApp("typingapp.py", ipc: ipc)
        let data = try SwaySession.sharedFolder()
        defer { try? FileManager.default.removeItem(atPath: data) }
        var sc = SwayScenario()
        sc.next(2)
        sc.menu()
        sc.next(5)
        sc.select(expecting: "\"type\":\"keyboard\"")
        DesktopChecks.type(&sc, "hi")
        sc.end()
        let r = try s.live(sc, ["run", "--desktop", "--app", "typingapp.py", "--profile", SwaySession.typingProfile, "--format", "jsonl"],
                           env: ["XDG_DATA_HOME": data])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines("keyboard").first?["label"] as? String == "Key log", "\(r.text)")
        let results = r.lines("result").filter { $0["action"] as? String == "type" }
        #expect(results.count == 2 && results.allSatisfy { ($0["how"] as? String ?? "").hasPrefix("virtual keyboard keys") }, "\(results)")
        _ = try s.waitFor("the key log's text") { s.named(app: "typingapp.py")["Received: Hi"] != nil ? true : nil }
    }

    // MARK: The scanner menu

    /// The Windows page switches windows: from Two (scanned: sway focused it last), the page
    /// lists One; choosing it focuses One (sway's tree and AT-SPI's active state say so) and
    /// scanning goes into it: a press activates One's button.
    @Test func theWindowsMenuSwitchesWindows() throws {
        let s = try SwaySession()
        defer { s.close() }
        let ipc = try SwayIPC(environment: s.environment)
        let one = try s.startApp(title: "One", name: "one.py", ipc: ipc)
        try s.startApp(title: "Two", name: "two.py", ipc: ipc)
        let top = try DesktopChecks.menuItems(s, app: "two.py")
        let windowsAt = try #require(top.firstIndex(of: "menu:windows"), "\(top)")
        var sc = SwayScenario()
        sc.expect("windows: \\[.*one.py")
        sc.menu()
        sc.next(windowsAt)
        sc.select(expecting: "\"submenu\":\"menu:windows\"")
        sc.select(expecting: "\"action\":\"activateWindow\"")
        sc.expect("\"window\":\"One\"")
        sc.select()
        sc.end()
        let r = try s.live(sc, ["run", "--desktop", "--profile", SwaySession.twoSwitchProfile, "--format", "jsonl"],
                           env: ["SWITCHSCAN_DESKTOP_TRACE": "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let page = r.lines("menu").first { $0["submenu"] as? String == "menu:windows" }
        #expect((page?["labels"] as? [String])?.first == "one.py — One", "\(r.text)")
        #expect(r.results == ["activateWindow done focused (sway IPC)", "activate done action \"Click\""], "\(r.text)")
        #expect(r.lines("tree").map { "\($0["change"] ?? "") \($0["window"] ?? "")" } == ["window Two", "window One"])
        #expect(SwayTree.focused(try ipc.windows())?.id == one.id)
        _ = try s.waitFor("One active and pressed") { () -> Bool? in
            let state = s.named(app: "one.py")
            return state["Pressed 1"] != nil && (state["One"]?["states"] as? [String] ?? []).contains("active") ? true : nil
        }
    }

    /// The scanner menu's pointer gestures through the virtual pointer (menuapp.py): Drag the
    /// scale's knob onto the button under its right end, Double click Bananas, Right click the
    /// entry: GTK's own context menu opens (read back through AT-SPI).
    @Test func gesturesFromTheMenuDragDoubleClickAndRightClick() throws {
        let s = try SwaySession()
        defer { s.close() }
        let ipc = try SwayIPC(environment: s.environment)
        try s.startDesktopApp("menuapp.py", ipc: ipc)
        let order = ["Text", "Fruit", "Apples", "Bananas", "Cherries", "Level", "Drop here"]
        let items = try s.items(app: "menuapp.py")
        #expect(order.allSatisfy { items[$0] != nil }, "\(items.keys.sorted())")
        let level = order.firstIndex(of: "Level")!, bananas = order.firstIndex(of: "Bananas")!
        let levelGestures = try #require(try DesktopChecks.menuItems(s, app: "menuapp.py", nexts: level).firstIndex(of: "menu:gestures"))
        let bananasGestures = try #require(try DesktopChecks.menuItems(s, app: "menuapp.py", nexts: bananas).firstIndex(of: "menu:gestures"))
        let textGestures = try #require(try DesktopChecks.menuItems(s, app: "menuapp.py").firstIndex(of: "menu:gestures"))
        let gestures = ["menu:rightClick", "menu:doubleClick", "menu:middleClick", "menu:hold", "menu:drag"]
        var sc = SwayScenario()
        sc.next(level)
        sc.choose(page: levelGestures, entry: gestures.firstIndex(of: "menu:drag")!, expecting: "\"type\":\"drag\"")
        sc.next(order.firstIndex(of: "Drop here")!)   // choosing the drop point starts at the first item
        sc.select(expecting: "\"action\":\"drag\"")
        sc.next(bananas)
        sc.choose(page: bananasGestures, entry: gestures.firstIndex(of: "menu:doubleClick")!)
        sc.choose(page: textGestures, entry: gestures.firstIndex(of: "menu:rightClick")!)
        sc.end()
        let r = try s.live(sc, ["run", "--desktop", "--app", "menuapp.py", "--profile", SwaySession.twoSwitchProfile, "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        let results = r.results
        #expect(results.count == 3 && results[0].hasPrefix("drag done dragged from") && results[1].hasPrefix("doubleClick done double click at")
                && results[2].hasPrefix("rightClick done right click at"), "\(results)")
        _ = try s.waitFor("the drag, the double click and the context menu read back") { () -> Bool? in
            let state = s.named(app: "menuapp.py")
            let level = state["Level"]?["value"] as? Double ?? 0
            return level > 80 && level < 100 && state["Activated: Bananas"] != nil && state["Select All"]?["role"] as? String == "menu item" ? true : nil
        }
    }

    /// The Scroll page pages a GTK list through its scroll bar's Value (an action: no pointer),
    /// and scanning goes on in what is now in view.
    @Test func theScrollPagePagesAList() throws {
        let s = try SwaySession()
        defer { s.close() }
        let ipc = try SwayIPC(environment: s.environment)
        try s.startDesktopApp("listapp.py", ipc: ipc)
        let top = try DesktopChecks.menuItems(s, app: "listapp.py", nexts: 1)
        let scroll = try #require(top.firstIndex(of: "menu:scroll"), "\(top)")
        var sc = SwayScenario()
        sc.next(1)
        sc.menu()
        sc.next(scroll)
        sc.select(expecting: "\"submenu\":\"menu:scroll\"")
        sc.select()
        sc.expect("\"type\":\"highlight\"")
        sc.end()
        let r = try s.live(sc, ["run", "--desktop", "--app", "listapp.py", "--profile", SwaySession.twoSwitchProfile, "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.results.count == 1 && r.results[0].hasPrefix("scroll done"), "\(r.text)")
        _ = try s.waitFor("the scroll bar moved") { (s.named(app: "listapp.py")["Rows scroll bar"]?["value"] as? Double ?? 0) > 0 ? true : nil }
    }

    /// Shortcuts and device keys through the virtual keyboard, by keysym: Select all (Ctrl+A) and
    /// the volume keys reach the focused GTK window (it prints every key it gets).
    @Test func shortcutsAndDeviceKeysReachTheFocusedWindow() throws {
        let s = try SwaySession()
        defer { s.close() }
        let ipc = try SwayIPC(environment: s.environment)
        let log = try SwaySession.sharedFolder()
        defer { try? FileManager.default.removeItem(atPath: log) }
        let p = try s.start(["/usr/bin/python3", SwaySession.app, "--keys"], log: log + "/keys")
        _ = try s.waitFor("the window") { try ipc.windows().first { $0.pid == p.processIdentifier } }
        _ = s.run(["/usr/bin/python3", SwaySession.checker, "wait", "wlapp.py", "30"], timeout: 40)
        let top = try DesktopChecks.menuItems(s, app: "wlapp.py")
        let shortcuts = try #require(top.firstIndex(of: "menu:shortcuts")), device = try #require(top.firstIndex(of: "menu:device"))
        let shortcutItems = try #require(try DesktopChecks.submenu(s, page: shortcuts))
        let deviceItems = try #require(try DesktopChecks.submenu(s, page: device))
        let selectAll = try #require(shortcutItems.firstIndex(of: "menu:shortcut:selectAll"), "\(shortcutItems)")
        let up = try #require(deviceItems.firstIndex(of: "menu:volumeUp"), "\(deviceItems)")
        var sc = SwayScenario()
        sc.choose(page: shortcuts, entry: selectAll)
        sc.choose(page: device, entry: up)
        sc.end()
        let r = try s.live(sc, ["run", "--desktop", "--app", "wlapp.py", "--profile", SwaySession.twoSwitchProfile, "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.results == ["key done keys Ctrl+A", "key done keys XF86AudioRaiseVolume"], "\(r.text)")
        _ = try s.waitFor("both keys in the window's log") { () -> Bool? in
            let keys = (try? String(contentsOfFile: log + "/keys", encoding: .utf8)) ?? ""
            return keys.contains("key a control") && keys.contains("key XF86AudioRaiseVolume") ? true : nil
        }
    }
}
