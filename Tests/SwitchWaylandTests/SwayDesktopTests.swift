import Foundation
import SwitchDisplayServers
import TestPrograms
import Testing

/// `switchscan` on a real headless sway 1.7 (issue 30's main gate), the same checks as the X11
/// live tests (SwitchDesktopTests): the real binary inside the session as its unprivileged user,
/// its display backend chosen from the session (wlroots), under umockdev with the desktop tests'
/// switch box; what happened read back independently: the application's state through pyatspi,
/// sway's tree through its IPC, the screen through grim. Every wait is for a condition.
@Suite(.serialized, .needs(SwaySession.desktopNeeds, python: SwaySession.desktopPython))
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
        DesktopChecks.expectFrameWhereDrawn(s, "Target", "GTK 3\(floatingWithHeaderBar ? ", floating with a header bar" : "")") { shot, _ in
            shot.box(of: DesktopChecks.magenta)
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
        let frame = DesktopChecks.expectFrameWhereDrawn(s, "Press me", "GTK 4\(floatingWithHeaderBar ? ", floating with a header bar" : "")") {
            DesktopChecks.borderBox($0, inside: $1)
        }
        guard let frame else { return }
        let at = try #require(try s.itemOrder(app: "wlapp.py").firstIndex(of: "Press me"))
        let run = try s.startLive({ dir in
            var sc = LiveScenario()
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
        let run = try DesktopChecks.pressThenRingOnTheTarget(s)
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        #expect(run.stderr.contains("switchscan: display: wlroots (a sway session: SWAYSOCK="), "\(run.stderr)")
        #expect(run.stderr.contains("switchscan: showing the highlight on sway (Wayland wayland-"), "\(run.stderr)")
    }

    // MARK: Typing

    /// The scanning keyboard types a sentence into a GTK entry (AT-SPI EditableText: no key
    /// event needed), read back through AT-SPI; while it is open its panel is on the screen (a
    /// white panel with the ring on the key, away from the field).
    @Test func theKeyboardTypesASentenceIntoAnEntry() throws {
        let s = try SwaySession(watchdog: DesktopChecks.sentenceWatchdog)
        defer { s.close() }
        let ipc = try SwayIPC(environment: s.environment)
        try s.startApp(ipc: ipc)
        try DesktopChecks.keyboardTypesASentence(s, entryAt: 1, keep: "sway-keyboard-panel")
    }

    /// Keys into a widget without Text (typingapp.py's key log): the keyboard opened from Clear's
    /// menu for what has the focus types through the virtual keyboard; the application says what
    /// it received.
    @Test func keyEventsIntoAWidgetWithoutText() throws {
        let s = try SwaySession()
        defer { s.close() }
        let ipc = try SwayIPC(environment: s.environment)
        try s.startDesktopApp("typingapp.py", ipc: ipc)
        try DesktopChecks.keysIntoAWidgetWithoutText(s, logAt: 2, keyboardAt: 5, via: "virtual keyboard keys")
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
        try DesktopChecks.windowsMenuSwitchesToOne(s, how: "focused (sway IPC)") { SwayTree.focused(try ipc.windows())?.id == one.id }
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
        let args = ["run", "--desktop", "--app", "menuapp.py", "--profile", SwaySession.twoSwitchProfile, "--format", "jsonl"]
        // Drag from Level: the drop point is chosen from Level on (the highlight stays there).
        var drag = LiveScenario()
        drag.next(level)
        drag.choose(page: levelGestures, entry: gestures.firstIndex(of: "menu:drag")!, expecting: "\"type\":\"drag\"")
        drag.next(order.firstIndex(of: "Drop here")! - level)
        drag.select(expecting: "\"action\":\"drag\"")
        var double = LiveScenario()
        double.next(bananas)
        double.choose(page: bananasGestures, entry: gestures.firstIndex(of: "menu:doubleClick")!)
        var right = LiveScenario()
        right.choose(page: textGestures, entry: gestures.firstIndex(of: "menu:rightClick")!)
        // Each run waits, once its gesture was performed, until the application shows what it
        // did (the gesture's steps run over time from the loop), then ends.
        typealias Check = ([String: [String: Any]]) -> Bool
        let checks: [(String, LiveScenario, Check)] = [
            ("the knob dragged near the scale's end", drag, { ($0["Level"]?["value"] as? Double).map { $0 > 80 && $0 < 100 } ?? false }),
            ("Bananas activated", double, { $0["Activated: Bananas"] != nil }),
            ("the entry's context menu", right, { $0["Select All"]?["role"] as? String == "menu item" }),
        ]
        var results: [String] = []
        for (what, scenario, check) in checks {
            let run = try s.startLive({ dir in
                var sc = scenario
                sc.waitFor(dir, "seen")
                sc.end()
                return sc
            }, args)
            defer { try? FileManager.default.removeItem(atPath: run.dir) }
            var state: [String: [String: Any]] = [:]
            do {
                _ = try s.waitFor(what) { () -> Bool? in
                    state = s.named(app: "menuapp.py")
                    return check(state) ? true : nil
                }
            } catch {
                Issue.record("\(error): menuapp.py is \(state)\n\(run.stdout)")
            }
            try run.go("seen")
            #expect(run.wait() == 0, "\(run.stderr)")
            results += run.lines("result").map { "\($0["action"] ?? "") \($0["result"] ?? "") \($0["how"] ?? $0["reason"] ?? "")" }
        }
        #expect(results.count == 3 && results[0].hasPrefix("drag done dragged from") && results[1].hasPrefix("doubleClick done double click at")
                && results[2].hasPrefix("rightClick done right click at"), "\(results)")
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
        var sc = LiveScenario()
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
        var sc = LiveScenario()
        sc.choose(page: shortcuts, entry: selectAll)
        sc.choose(page: device, entry: up)
        sc.end()
        let r = try s.live(sc, ["run", "--desktop", "--app", "wlapp.py", "--profile", SwaySession.twoSwitchProfile, "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.results == ["key done keys Ctrl+A", "key done keys XF86AudioRaiseVolume"], "\(r.text)")
        var keys = ""
        do {
            _ = try s.waitFor("both keys in the window's log") { () -> Bool? in
                keys = (try? String(contentsOfFile: log + "/keys", encoding: .utf8)) ?? ""
                return keys.contains("key a control") && keys.contains("key AudioRaiseVolume") ? true : nil  // GDK's name for XF86AudioRaiseVolume
            }
        } catch {
            Issue.record("\(error): the window got \(keys.debugDescription)")
        }
    }

}

// MARK: Failure paths, scale, outputs

extension SwayDesktopTests {
    /// The compositor goes away mid-run: `run` says so in one line, lets go of the devices it
    /// grabbed (the loop's way out), and exits with status 1; nothing is left waiting.
    @Test func theCompositorGoingAwayEndsTheRunWithAClearMessage() throws {
        let s = try SwaySession()
        defer { s.close() }
        let ipc = try SwayIPC(environment: s.environment)
        try s.startApp(ipc: ipc)
        let run = try s.startLive({ dir in
            var sc = LiveScenario()
            sc.waitFor(dir, "gone")
            sc.end()
            return sc
        }, ["run", "--desktop", "--app", "wlapp.py", "--profile", SwaySession.twoSwitchProfile, "--format", "jsonl"] + DesktopChecks.grabArgs)
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        try run.await(s, "the first highlight") { !$0.lines("highlight").isEmpty }
        try? ipc.command("exit")  // sway may close the socket before it answers
        try run.await(s, "switchscan's error line") { $0.stderr.contains("switchscan: error: ") }
        try run.go("gone")
        #expect(run.wait(timeout: 30) == 1, "\(run.stderr)")
        let error = DesktopChecks.releasedThenOneError(run)
        #expect(error.hasPrefix("switchscan: error: the Wayland compositor sway went away ("), "\(run.stderr)")
        #expect(error.hasSuffix("): nothing can be shown or done on the desktop any more"), "\(error)")
    }

    /// A window that moves is followed: sway tells of a tiled move (`move right`: the two
    /// windows swap places, neither changes size, so the application itself learns nothing) and
    /// the frames follow the window's new origin without an AT-SPI read (or through the re-read the
    /// application's focus events start, when those come first); a floating window moved
    /// (sway 1.7 tells nothing) is found within the second's look; the ring follows each time.
    @Test func aWindowThatMovesIsFollowed() throws {
        let s = try SwaySession()
        defer { s.close() }
        let ipc = try SwayIPC(environment: s.environment)
        let moving = try s.startApp(title: "Moving", ipc: ipc)
        try s.startDesktopApp("menuapp.py", ipc: ipc)   // beside it, right; no magenta in it
        let at = try #require(try s.itemOrder(app: "wlapp.py").firstIndex(of: "Target"))
        let run = try s.startLive({ dir in
            var sc = LiveScenario()
            sc.next(at)
            sc.waitFor(dir, "seen")
            sc.end()
            return sc
        }, ["run", "--desktop", "--app", "wlapp.py", "--profile", SwaySession.twoSwitchProfile, "--format", "jsonl"],
           env: ["SWITCHSCAN_DESKTOP_TRACE": "1"])
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        try run.await(s, "the highlight on Target") { $0.lines("highlight").last?["label"] as? String == "Target, button" }
        func ringOnTarget(_ what: String) throws {
            var last = ""
            do {
                _ = try s.waitFor("the ring around the Target, \(what)") { () throws -> Bool? in
                    let shot = try s.screenshot()
                    guard let target = shot.box(of: DesktopChecks.magenta) else { return nil }
                    let m = DesktopChecks.ringMisses(shot, around: target)
                    last = "\(m.wrong) of \(m.band) ring pixels around \(target) are not the ring's"
                    return m.wrong == 0 ? true : nil
                }
            } catch {
                Issue.record("\(what): \(last)\n\(run.stderr.suffix(2000))")
            }
        }
        try ringOnTarget("at the start")
        let before = try #require(try s.screenshot().box(of: DesktopChecks.magenta))
        let traceBefore = run.stderr.count
        try ipc.command("[con_id=\(moving.id)] move right")
        _ = try s.waitFor("the windows swapped") { try ipc.windows().first { $0.id == moving.id && $0.rect.x > 600 } }
        try ringOnTarget("moved right")
        let after = try #require(try s.screenshot().box(of: DesktopChecks.magenta))
        #expect(after.x > before.x && after.width == before.width, "\(before) → \(after)")
        // sway's move event, or (on a busy machine, when the application's own focus events come
        // first) the re-read they start, which asks sway for the origin again: either way the
        // frames follow within one change.
        let trace = String(run.stderr.dropFirst(traceBefore))
        #expect(trace.contains("desktop: windows moved: frames followed") || trace.contains("desktop: read wlapp.py"), "\(trace.suffix(2000))")
        try ipc.command("[con_id=\(moving.id)] floating enable")
        _ = try s.waitFor("the window floating") { try ipc.windows().first { $0.id == moving.id && $0.floating } }
        try ringOnTarget("floating")
        try ipc.command("[con_id=\(moving.id)] move position 37 61")
        _ = try s.waitFor("the window at 37, 61") { try ipc.windows().first { $0.id == moving.id && $0.rect.x == 37 && $0.rect.y == 61 } }
        try ringOnTarget("floating, moved")
        try run.go("seen")
        #expect(run.wait() == 0, "\(run.stderr)")
    }

    /// Scale 2: the tree's frames are logical pixels (the Target's frame is the screenshot's
    /// magenta box halved), and the ring around it is 8 device pixels of exactly the cursor
    /// colour, with nothing blended beside it (whole pixels, crisp).
    @Test func atScaleTwoRingsAreInLogicalPixelsAndCrisp() throws {
        let s = try SwaySession(outputs: ["1280x800@2"])
        defer { s.close() }
        let ipc = try SwayIPC(environment: s.environment)
        try s.startApp(ipc: ipc)
        let frame = try #require(try s.items(app: "wlapp.py")["Target"].flatMap { DesktopChecks.box($0.frame) })
        let plain = try s.screenshot()
        let device = try #require(plain.box(of: DesktopChecks.magenta))
        #expect(device.x == 2 * frame.x && device.y == 2 * frame.y && device.width == 2 * frame.width && device.height == 2 * frame.height,
                "frame \(frame), device pixels \(device)")
        let at = try #require(try s.itemOrder(app: "wlapp.py").firstIndex(of: "Target"))
        let run = try s.startLive({ dir in
            var sc = LiveScenario()
            sc.next(at)
            sc.waitFor(dir, "seen")
            sc.end()
            return sc
        }, ["run", "--desktop", "--app", "wlapp.py", "--profile", SwaySession.twoSwitchProfile, "--format", "jsonl"])
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        try run.await(s, "the highlight on Target") { $0.lines("highlight").last?["label"] as? String == "Target, button" }
        let shot = try #require(DesktopChecks.expectRing(s, around: frame, scale: 2, "the Target at scale 2"))
        // One device pixel outside the band, all round: what was there before the ring.
        let (x0, y0, x1, y1) = (2 * (frame.x - 4) - 1, 2 * (frame.y - 4) - 1, 2 * (frame.x + frame.width + 4), 2 * (frame.y + frame.height + 4))
        var changed = 0
        for x in x0...x1 { for y in [y0, y1] where shot.rgb(x, y) != plain.rgb(x, y) { changed += 1 } }
        for y in y0...y1 { for x in [x0, x1] where shot.rgb(x, y) != plain.rgb(x, y) { changed += 1 } }
        #expect(changed == 0, "\(changed) pixels beside the ring changed (blended edges)")
        try run.go("seen")
        #expect(run.wait() == 0, "\(run.stderr)")
    }

    /// Two outputs: a window on the second output is framed in the whole desktop's pixels (the
    /// Target's frame is the magenta box of the screenshot of both), and ringed there.
    @Test func anElementOnTheSecondOutputIsFramedAndRinged() throws {
        let s = try SwaySession(outputs: ["1280x800", "1024x768"])
        defer { s.close() }
        let ipc = try SwayIPC(environment: s.environment)
        let window = try s.startApp(ipc: ipc)
        try ipc.command("[con_id=\(window.id)] move container to output HEADLESS-2, focus")
        _ = try s.waitFor("the window on HEADLESS-2") { try ipc.windows().first { $0.id == window.id && $0.output == "HEADLESS-2" && $0.rect.x >= 1280 } }
        var frame: (x: Int, y: Int, width: Int, height: Int)?
        var last = ""
        do {
            _ = try s.waitFor("the Target's frame where the screenshot has it") { () throws -> Bool? in
                frame = try s.items(app: "wlapp.py")["Target"].flatMap { DesktopChecks.box($0.frame) }
                let found = try s.screenshot().box(of: DesktopChecks.magenta)
                last = "tree frame \(frame.map { "\($0)" } ?? "none"), screenshot \(found.map { "\($0)" } ?? "none")"
                return frame != nil && found != nil && frame! == found! ? true : nil
            }
        } catch {
            Issue.record("second output: \(last)")
        }
        let f = try #require(frame)
        #expect(f.x >= 1280)
        let at = try #require(try s.itemOrder(app: "wlapp.py").firstIndex(of: "Target"))
        let run = try s.startLive({ dir in
            var sc = LiveScenario()
            sc.next(at)
            sc.waitFor(dir, "seen")
            sc.end()
            return sc
        }, ["run", "--desktop", "--app", "wlapp.py", "--profile", SwaySession.twoSwitchProfile, "--format", "jsonl"])
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        try run.await(s, "the highlight on Target") { $0.lines("highlight").last?["label"] as? String == "Target, button" }
        _ = DesktopChecks.expectRing(s, around: f, "the Target on the second output")
        #expect(run.stderr.contains("(2304x800)"), "the overlay covers both outputs: \(run.stderr)")
        try run.go("seen")
        #expect(run.wait() == 0, "\(run.stderr)")
    }
}
