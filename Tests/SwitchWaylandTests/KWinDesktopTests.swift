import Foundation
import SwitchDisplayServers
import Testing

/// `switchscan` on a real headless KWin 5.27 (issue 30, KDE Plasma), the same checks as the X11
/// live tests (SwitchDesktopTests) and sway's (SwayDesktopTests): the real binary, granted fake
/// input by a .desktop file as an installation grants it, its display backend chosen from the
/// session (kwin), under umockdev with the desktop tests' switch box; what happened read back
/// independently: the application's state through pyatspi, the screen through KWin's ScreenShot2.
/// Then the failure paths: KWin going away, the script unloaded, a window moved, fake input
/// refused. Every wait is for a condition. (Plasma 6's renamed script API cannot run here: Debian
/// 12 has KWin 5.27; KWinScriptTests checks the choice of the script's object by version.)
@Suite(.serialized, .enabled(if: KWinTestSession.usable, "\(KWinTestSession.skipMessage)"))
struct KWinDesktopTests {
    static let profile = HeadlessSession.twoSwitchProfile

    static func run(_ app: String = "wlapp.py", _ extra: [String] = []) -> [String] {
        ["run", "--desktop", "--app", app, "--profile", profile, "--format", "jsonl"] + extra
    }

    // MARK: The tree

    /// A tree's frames are the true screen rectangles: GTK 3's magenta Target in `tree show
    /// --desktop` is where KWin's screenshot has it, to the pixel (its window placed by KWin,
    /// then moved by a Meta+drag); GTK 4.8's Press me is framed at its drawn border box.
    @Test func treeFramesAreTheTrueScreenRectangles() throws {
        let s = try KWinTestSession()
        defer { s.close() }
        try s.startWlapp(title: "Frames")
        let magenta = { (shot: Image, _: DesktopChecks.Box) in shot.box(of: DesktopChecks.magenta) }
        let placed = try #require(DesktopChecks.expectFrameWhereDrawn(s, "Target", "GTK 3, placed by KWin", drawn: magenta))
        try s.drag(from: placed.x + 5, placed.y + 5, by: 100, 50)
        let moved = try #require(DesktopChecks.expectFrameWhereDrawn(s, "Target", "GTK 3, moved by (100, 50)", drawn: magenta))
        #expect((moved.x - placed.x, moved.y - placed.y) == (100, 50))

        try s.startWlapp(title: "Frames 4", name: "wlapp4.py", gtk: 4)
        DesktopChecks.expectFrameWhereDrawn(s, app: "wlapp4.py", "Press me", "GTK 4's border box") { DesktopChecks.borderBox($0, inside: $1) }
    }

    // MARK: A switch press, the ring

    /// The display backend is the session's (kwin, with the reason) and the highlight is on KWin's
    /// layer shell; a switch press activates "Press me" (AT-SPI reads "Pressed 1"); two presses
    /// on, the ring sits exactly on the Target's border (every pixel of the 4 px band the cursor
    /// colour, by ScreenShot2). Nothing is said about fake input: it was granted.
    @Test func aSwitchPressActivatesAButtonAndTheRingSitsOnTheElementsBorder() throws {
        let s = try KWinTestSession()
        defer { s.close() }
        try s.startWlapp()
        let run = try DesktopChecks.pressThenRingOnTheTarget(s, args: Self.run())
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        #expect(run.stderr.contains("switchscan: display: kwin (a KDE Plasma Wayland session: XDG_CURRENT_DESKTOP=KDE, WAYLAND_DISPLAY=wayland-k)"),
                "\(run.stderr)")
        #expect(run.stderr.contains("switchscan: showing the highlight on KWin (Wayland wayland-k, layer shell) (1280x800)"), "\(run.stderr)")
        #expect(!run.stderr.contains("fake input"), "\(run.stderr)")
    }

    // MARK: Typing

    /// The scanning keyboard types a sentence into a GTK entry (AT-SPI EditableText), read back
    /// through AT-SPI; while it is open its panel is on the screen (white, the ring on one key,
    /// below the field).
    @Test func theKeyboardTypesASentenceIntoAnEntry() throws {
        let s = try KWinTestSession(watchdog: DesktopChecks.sentenceWatchdog)
        defer { s.close() }
        try s.startWlapp()
        try DesktopChecks.keyboardTypesASentence(s, entryAt: 1, keep: "kwin-keyboard-panel")
    }

    /// Keys into a widget without Text (typingapp.py's key log): the keyboard opened from Clear's
    /// menu for what has the focus types through KWin's fake input, by keysym through the seat's
    /// keymap (a capital with Shift); the application says what it received.
    @Test func keysThroughFakeInputIntoAWidgetWithoutText() throws {
        let s = try KWinTestSession()
        defer { s.close() }
        try s.startDesktopApp("typingapp.py")
        try DesktopChecks.keysIntoAWidgetWithoutText(s, logAt: 2, keyboardAt: 5, via: "KWin's fake input")
    }

    // MARK: The scanner menu

    /// The Windows page switches windows: from Two (scanned: KWin activated it last), the page
    /// lists One; choosing it has the KWin script activate One (AT-SPI's active state says so)
    /// and scanning goes into it: a press activates One's button.
    @Test func theWindowsMenuSwitchesWindows() throws {
        let s = try KWinTestSession()
        defer { s.close() }
        try s.startWlapp(title: "One", name: "one.py")
        try s.startWlapp(title: "Two", name: "two.py")
        _ = try s.waitFor("Two active") { (s.named(app: "two.py")["Two"]?["states"] as? [String] ?? []).contains("active") ? true : nil }
        try DesktopChecks.windowsMenuSwitchesToOne(s, how: "activated (KWin script)") {
            (s.named(app: "one.py")["One"]?["states"] as? [String] ?? []).contains("active")
        }
    }

    /// The scanner menu's pointer gestures through KWin's fake input (menuapp.py): Drag the
    /// scale's knob onto the button under its right end, Double click Bananas, Right click the
    /// entry: GTK's own context menu opens (read back through AT-SPI).
    @Test func gesturesFromTheMenuDragDoubleClickAndRightClick() throws {
        let s = try KWinTestSession()
        defer { s.close() }
        try s.startDesktopApp("menuapp.py")
        let order = ["Text", "Fruit", "Apples", "Bananas", "Cherries", "Level", "Drop here"]
        let items = try s.items(app: "menuapp.py")
        #expect(order.allSatisfy { items[$0] != nil }, "\(items.keys.sorted())")
        let level = order.firstIndex(of: "Level")!, bananas = order.firstIndex(of: "Bananas")!
        let levelGestures = try #require(try DesktopChecks.menuItems(s, app: "menuapp.py", nexts: level).firstIndex(of: "menu:gestures"))
        let bananasGestures = try #require(try DesktopChecks.menuItems(s, app: "menuapp.py", nexts: bananas).firstIndex(of: "menu:gestures"))
        let textGestures = try #require(try DesktopChecks.menuItems(s, app: "menuapp.py").firstIndex(of: "menu:gestures"))
        let gestures = ["menu:rightClick", "menu:doubleClick", "menu:middleClick", "menu:hold", "menu:drag"]
        // Scanning goes on from where it is: choosing the drop point starts at the dragged item,
        // and after a perform the highlight stays on the item it was chosen on.
        func steps(_ from: Int, _ to: Int) -> Int { (to - from + order.count) % order.count }
        let drop = order.firstIndex(of: "Drop here")!
        var sc = LiveScenario()
        sc.next(level)
        sc.choose(page: levelGestures, entry: gestures.firstIndex(of: "menu:drag")!, expecting: "\"type\":\"drag\"")
        sc.next(steps(level, drop))
        sc.select(expecting: "\"action\":\"drag\"")
        sc.next(steps(drop, bananas))
        sc.choose(page: bananasGestures, entry: gestures.firstIndex(of: "menu:doubleClick")!)
        sc.next(steps(bananas, 0))
        sc.choose(page: textGestures, entry: gestures.firstIndex(of: "menu:rightClick")!)
        sc.end()
        let r = try s.live(sc, Self.run("menuapp.py"))
        #expect(r.status == 0, "\(r.stderr)")
        let results = r.results
        #expect(results.count == 3 && results[0].hasPrefix("drag done dragged from") && results[1].hasPrefix("doubleClick done double click at")
                && results[2].hasPrefix("rightClick done right click at"),
                "\(results)")
        _ = try s.waitFor("the drag, the double click and the context menu read back") { () -> Bool? in
            let state = s.named(app: "menuapp.py")
            let level = state["Level"]?["value"] as? Double ?? 0
            return level > 80 && level < 100 && state["Activated: Bananas"] != nil && state["Select All"]?["role"] as? String == "menu item" ? true : nil
        }
    }

    // MARK: Failure paths

    /// KWin goes away mid-run: switchscan says so in one line and exits 1 by its loop's way out
    /// (grabs released, every adapter finished); the session leaves nothing behind.
    @Test func kwinGoingAwayEndsTheRunWithAClearMessage() throws {
        let s = try KWinTestSession()
        try s.startWlapp()
        let run = try s.startLive({ dir in
            var sc = LiveScenario()
            sc.waitFor(dir, "never")
            return sc
        }, Self.run("wlapp.py", DesktopChecks.grabArgs))
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        try run.await(s, "the first highlight") { !$0.lines("highlight").isEmpty }
        let kwin = try #require(s.kwinPid)
        // KILL, as a crash: a compositor started from the test process inherits its blocked
        // signals (SigBlk has TERM: swift-testing's threads block them), so KWin would not see TERM.
        kill(kwin, SIGKILL)
        try run.await(s, "switchscan's error line") { $0.stderr.contains("switchscan: error: ") }
        try run.go("never")   // the driver's scenario ends; it exits with switchscan's status
        #expect(run.wait(timeout: 60) == 1, "\(run.stderr)")
        let error = DesktopChecks.releasedThenOneError(run)
        #expect(error.contains("KWin") && error.contains("went away") && error.hasSuffix("nothing can be shown or done on the desktop any more"),
                "\(run.stderr)")
        s.close()
        #expect(s.leftovers().isEmpty, "left running: \(s.leftovers())")
    }

    /// The script unloaded mid-run (someone called unloadScript): a note says so at once and
    /// what still works; scanning goes on with AT-SPI actions (a press activates Press me), the
    /// Windows page is empty, and the run ends normally.
    @Test func theScriptUnloadedMidRunGoesBackToActions() throws {
        let s = try KWinTestSession()
        defer { s.close() }
        try s.startWlapp()
        let run = try s.startLive({ dir in
            var sc = LiveScenario()
            sc.waitFor(dir, "unloaded")
            sc.select()
            sc.end()
            return sc
        }, Self.run("wlapp.py", []), env: ["SWITCHSCAN_DESKTOP_TRACE": "1"])
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        try run.await(s, "the first highlight") { !$0.lines("highlight").isEmpty }
        let unload = s.scripting("unloadScript", ["switchscan"])
        #expect(unload.text.contains("true"), "unloadScript: \(unload.text) \(unload.stderr)")
        try run.await(s, "the note") { $0.stderr.contains("KWin's script stopped (it was unloaded)") }
        try run.go("unloaded")
        #expect(run.wait() == 0, "\(run.stderr)")
        let note = run.stderr.split(separator: "\n").filter { $0.contains("KWin's script stopped") }
        let expected: String = "switchscan: KWin's script stopped (it was unloaded): the Windows page is empty and windows are no longer "
            + "followed as they move; scanning goes on with AT-SPI actions, the highlight where the windows were last reported"
        #expect(note == [Substring(expected)], "\(run.stderr)")
        #expect(run.lines("result").map { "\($0["action"] ?? "") \($0["result"] ?? "") \($0["how"] ?? "")" } == ["activate done action \"Click\""],
                "\(run.stdout)")
        _ = try s.waitFor("Pressed 1 on the bus") { s.named(app: "wlapp.py")["Pressed 1"] != nil ? true : nil }
    }

    /// A window moves (Meta+drag): KWin's script reports it, and the highlight follows at the
    /// first change it reports (the tree's frames moved without an AT-SPI read: the application
    /// does not know it moved); the ring is on the Target at its new place.
    @Test func aMovedWindowIsFollowedWithinOneChange() throws {
        let s = try KWinTestSession()
        defer { s.close() }
        try s.startWlapp()
        let target = try #require(try s.items(app: "wlapp.py")["Target"].flatMap { DesktopChecks.box($0.frame) })
        let run = try s.startLive({ dir in
            var sc = LiveScenario()
            sc.next(2)
            sc.expect("\"label\":\"Target, button\"")
            sc.waitFor(dir, "moved")
            sc.end()
            return sc
        }, Self.run(), env: ["SWITCHSCAN_DESKTOP_TRACE": "1"])
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        try run.await(s, "the highlight on Target") { $0.lines("highlight").last?["label"] as? String == "Target, button" }
        _ = DesktopChecks.expectRing(s, around: target, "the Target where KWin placed it")
        try s.drag(from: target.x + 5, target.y + 5, by: 100, 50)
        let moved = (x: target.x + 100, y: target.y + 50, width: target.width, height: target.height)
        _ = DesktopChecks.expectRing(s, around: moved, "the Target moved by (100, 50)")
        try run.go("moved")
        #expect(run.wait() == 0, "\(run.stderr)")
        // The highlight followed the report of the window's last place at once: a "frames
        // followed" trace at or after that report (both carry CLOCK_MONOTONIC µs: the notes of
        // one wakeup reach stderr in another order than they were made), with no AT-SPI read of
        // the application started in between.
        let trace = run.stderr.split(separator: "\n").map(String.init)
        func time(_ line: String, after marker: String) -> Int64? {
            guard let r = line.range(of: marker) else { return nil }
            return Int64(line[r.upperBound...].prefix { $0.isNumber })
        }
        func bufferX(_ line: String) -> Double? {
            guard line.contains("desktop: KWin report at "), let open = line.firstIndex(of: "["),
                  let list = try? JSONSerialization.jsonObject(with: Data(line[open...].utf8)) as? [[String: Any]],
                  let w = list.first(where: { $0["caption"] as? String == "Wayland test" }) else { return nil }
            return ((w["buffer"] as? [String: Any])?["x"] as? NSNumber)?.doubleValue
        }
        let first = try #require(trace.compactMap(bufferX).first, "\(run.stderr)")
        let reported = try #require(trace.first { bufferX($0) == first + 100 }.flatMap { time($0, after: "KWin report at ") },
                                    "no report of the window at x + 100: \(run.stderr)")
        let followed = try #require(trace.compactMap { time($0, after: "windows moved: frames followed at ") }.filter { $0 >= reported }.min(),
                                    "\(run.stderr)")
        let reads = trace.filter { $0.contains("desktop: read ") }.compactMap { time($0, after: "started at ") }
        #expect(!reads.contains { $0 >= reported && $0 <= followed }, "an AT-SPI read between the report and the follow: \(run.stderr)")
    }

    /// Two outputs (1280x800 side by side): a window KWin placed on the second output (the
    /// pointer's) is framed in the whole desktop's pixels (the Target's frame is the screenshot's
    /// magenta box, past x 1280) and ringed there (the layer-shell overlay covers both outputs);
    /// a press still activates.
    @Test func anElementOnTheSecondOutputIsFramedAndRinged() throws {
        let s = try KWinTestSession(outputs: 2)
        defer { s.close() }
        try s.movePointer(to: 1920, 400)
        try s.startWlapp()
        let magenta = { (shot: Image, _: DesktopChecks.Box) in shot.box(of: DesktopChecks.magenta) }
        let placed = try #require(DesktopChecks.expectFrameWhereDrawn(s, "Target", "GTK 3 on the second output", drawn: magenta))
        #expect(placed.x >= 1280, "\(placed)")
        let run = try DesktopChecks.pressThenRingOnTheTarget(s, args: Self.run())
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        #expect(run.stderr.contains("switchscan: showing the highlight on KWin (Wayland wayland-k, layer shell) (2560x800)"), "\(run.stderr)")
    }

    /// Without the .desktop grant KWin offers no fake input: said once, with the fix; AT-SPI
    /// actions still work (a press activates Press me) and a gesture that needs the pointer says
    /// why it cannot.
    @Test func fakeInputRefusedIsSaidOnceWithTheFix() throws {
        let s = try KWinTestSession(grant: false)
        defer { s.close() }
        try s.startWlapp()
        let top = try DesktopChecks.menuItems(s, app: "wlapp.py")
        let gestures = try #require(top.firstIndex(of: "menu:gestures"), "\(top)")
        var sc = LiveScenario()
        sc.select()
        sc.choose(page: gestures, entry: 0)   // Right click on Press me
        sc.end()
        let r = try s.live(sc, Self.run())
        #expect(r.status == 0, "\(r.stderr)")
        let real = URL(fileURLWithPath: HeadlessSession.binary).resolvingSymlinksInPath().path
        let said = r.stderr.split(separator: "\n").filter { $0.contains("org_kde_kwin_fake_input") }
        let expected: String = "switchscan: KWin does not let \(real) use fake input (org_kde_kwin_fake_input): no .desktop file names it in "
            + "X-KDE-Wayland-Interfaces: clicks and keys go through AT-SPI actions alone; to let it click and type, install "
            + "org.switchscan.switchscan-fake-input.desktop (install.sh and the .deb do: share/applications, Exec=\(real), "
            + "X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input), run kbuildsycoca5 (kbuildsycoca6 on Plasma 6) and start switchscan again"
        #expect(said == [Substring(expected)], "\(r.stderr)")
        #expect(r.results.first == "activate done action \"Click\"", "\(r.text)")
        #expect(r.results.last?.hasPrefix("rightClick failed no pointer for the gesture: KWin does not let") == true, "\(r.text)")
        _ = try s.waitFor("Pressed 1 on the bus") { s.named(app: "wlapp.py")["Pressed 1"] != nil ? true : nil }
    }
}
