import Foundation
import SwitchCore
import Testing

/// `switchscan` on a real headless GNOME Shell 43 with switchscan's extension enabled (issue 30's
/// GNOME gate), the same checks as the X11 live tests (SwitchDesktopTests) and the sway ones: the
/// real binary in the session, its display backend chosen from the session (gnome), under
/// umockdev with the desktop tests' switch box; what happened read back independently: the
/// application's state through pyatspi, the windows through the extension's own GetWindows, the
/// screen through gnome-screenshot. GNOME's quirks each have a check: Qt 5's own title bar, the
/// first event of new virtual devices, scale 2, two monitors; and the failure paths: the
/// extension turned off and on mid-run, the Shell going away, a window moved. Every wait is for a
/// condition.
@Suite(.serialized, .enabled(if: GnomeSession.usable, "\(GnomeSession.skipMessage)"))
struct GnomeDesktopTests {
    static let run = ["run", "--desktop", "--app", "wlapp.py", "--profile", HeadlessSession.twoSwitchProfile, "--format", "jsonl"]

    /// Where `label` is in the scan order of wlapp.py (a GTK 3 window on GNOME draws its own
    /// title bar: its Close button is scanned first).
    func position(_ s: GnomeSession, _ label: String, app: String = "wlapp.py") throws -> Int {
        let order = try s.itemOrder(app: app)
        return try #require(order.firstIndex(of: label), "\(label) not in \(order)")
    }

    // MARK: The tree

    /// A tree's frames are the true screen rectangles: the magenta Target of a GTK 3 window
    /// (client-side title bar and shadows: AT-SPI counts from the buffer), with and without a
    /// header bar, is where `tree show --desktop` says, to the pixel.
    @Test(arguments: [false, true])
    func treeFramesAreTheTrueScreenRectanglesGtk3(headerBar: Bool) throws {
        let s = try GnomeSession()
        defer { s.close() }
        try s.startApp(extra: headerBar ? ["--headerbar"] : [])
        try expectTargetFrame(s, "GTK 3\(headerBar ? " with a header bar" : "")")
    }

    /// Qt 5 draws its own title bar inside its surface on GNOME (no server-side decorations):
    /// the AT-SPI top-level is smaller than the buffer, and the origin is the buffer plus the side
    /// margin and the title bar (`ToplevelOrigin`). GTK 4 counts from its frame, not its buffer,
    /// and reports a button's content box (the quirk pads it): both buttons' frames are where the
    /// screenshot draws their border box.
    @Test(arguments: ["qt5", "gtk4"])
    func treeFramesAreTheTrueScreenRectanglesQt5AndGtk4(toolkit: String) throws {
        let s = try GnomeSession()
        defer { s.close() }
        let (app, button) = toolkit == "qt5" ? ("qt5app.py", "Qt press") : ("wlapp.py", "Press me")
        if toolkit == "qt5" {
            try s.start(["/usr/bin/python3", GnomeSession.qt5app])
            try s.awaitApp(app)
        } else {
            try s.startApp(gtk: 4)
        }
        DesktopChecks.expectFrameWhereDrawn(s, app: app, button, toolkit) { DesktopChecks.borderBox($0, inside: $1) }
    }

    /// The Target's frame from the tree equals the screenshot's magenta box (device pixels
    /// divided by the scale).
    func expectTargetFrame(_ s: GnomeSession, _ what: String) throws {
        DesktopChecks.expectFrameWhereDrawn(s, "Target", what) { shot, _ in
            shot.box(of: DesktopChecks.magenta).map { (x: $0.x / s.scale, y: $0.y / s.scale, width: $0.width / s.scale, height: $0.height / s.scale) }
        }
    }

    // MARK: A press, the ring

    /// The display backend is the session's (gnome, with the reason); a switch press activates
    /// "Press me" (AT-SPI reads "Pressed 1"); two presses on, the extension draws the ring exactly
    /// on the Target's border (every pixel of the 4 px band the cursor colour, by gnome-screenshot).
    @Test func aSwitchPressActivatesAButtonAndTheRingSitsOnTheElementsBorder() throws {
        let s = try GnomeSession()
        defer { s.close() }
        try s.startApp()
        let (press, onTarget) = (try position(s, "Press me"), try position(s, "Target"))
        let run = try DesktopChecks.pressThenRingOnTheTarget(s, pressAt: press, targetAt: onTarget, args: GnomeDesktopTests.run)
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        #expect(run.stderr.contains("switchscan: display: gnome (a GNOME Wayland session: XDG_CURRENT_DESKTOP=GNOME"), "\(run.stderr)")
        #expect(run.stderr.contains("switchscan: showing the highlight on GNOME Shell 43"), "\(run.stderr)")
        // The run's end cleared the scene: the ring is gone.
        _ = try s.waitFor("the ring gone") { try s.screenshot().box(of: DesktopChecks.ringColor) == nil ? true : nil }
    }

    // MARK: Typing

    /// The scanning keyboard types a sentence into a GTK entry (AT-SPI EditableText), read back
    /// through AT-SPI; while it is open, its panel is on the screen (white, the ring on one key,
    /// below the field).
    @Test func theKeyboardTypesASentenceIntoAnEntry() throws {
        let s = try GnomeSession(watchdog: DesktopChecks.sentenceWatchdog)
        defer { s.close() }
        try s.startApp()
        try DesktopChecks.keyboardTypesASentence(s, entryAt: try position(s, "Type here"), keep: "gnome-keyboard-panel")
    }

    /// Keys into a widget without Text (typingapp.py's key log, which takes key events through
    /// GTK's input method context): the keyboard opened from Clear's menu for what has the focus
    /// types through the extension; the application says what it received.
    @Test func keyEventsIntoAWidgetWithoutText() throws {
        let s = try GnomeSession()
        defer { s.close() }
        try s.startFixture("typingapp.py")
        let log = try position(s, "Clear", app: "typingapp.py")
        let keyboardAt = try #require(try DesktopChecks.menuItems(s, app: "typingapp.py", nexts: log).firstIndex(of: "menu:keyboard"))
        try DesktopChecks.keysIntoAWidgetWithoutText(s, logAt: log, keyboardAt: keyboardAt, via: "switchscan's GNOME Shell extension")
    }

    // MARK: The scanner menu

    /// The Windows page switches windows: from Two (the Shell focused it last), the page lists
    /// One; choosing it activates One through the extension (GetWindows and AT-SPI's active state
    /// say so) and scanning goes into it: a press activates One's button.
    @Test func theWindowsMenuSwitchesWindows() throws {
        let s = try GnomeSession()
        defer { s.close() }
        try s.startApp(title: "One", name: "one.py")
        try s.startApp(title: "Two", name: "two.py")
        let shell = try s.shell()
        _ = try s.waitFor("Two focused") { try shell.windows().first { $0.title == "Two" && $0.focused } }
        try DesktopChecks.windowsMenuSwitchesToOne(s, pressAt: try position(s, "Press me", app: "one.py"),
                                                   how: "activated by switchscan's GNOME Shell extension") {
            try shell.windows().first { $0.focused }?.title == "One"
        }
    }

    /// A right click from the scanner menu (the run's first and only synthesized event: the
    /// extension's devices were announced before its name showed, so GNOME does not drop it)
    /// opens the entry's context menu, GTK's own (read back through AT-SPI).
    @Test func aRightClickFromTheMenuOpensAContextMenu() throws {
        let s = try GnomeSession()
        defer { s.close() }
        try s.startFixture("menuapp.py")
        let text = try position(s, "Text", app: "menuapp.py")
        let textGestures = try #require(try DesktopChecks.menuItems(s, app: "menuapp.py", nexts: text).firstIndex(of: "menu:gestures"))
        var sc = LiveScenario()
        sc.next(text)
        sc.choose(page: textGestures, entry: 0)   // menu:rightClick
        sc.end()
        let r = try s.live(sc, ["run", "--desktop", "--app", "menuapp.py", "--profile", HeadlessSession.twoSwitchProfile, "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.results.count == 1 && r.results[0].hasPrefix("rightClick done right click at"), "\(r.results)")
        _ = try s.waitFor("the context menu on the bus") { s.named(app: "menuapp.py")["Select All"]?["role"] as? String == "menu item" ? true : nil }
    }

    // MARK: Scale 2, two monitors

    /// At scale 2 everything the extension speaks is in logical pixels: the Target's frame times 2
    /// is its device box in the screenshot, and the ring's 4 logical pixels are 8 device pixels on
    /// its border.
    @Test func scaleTwo() throws {
        let s = try GnomeSession(scale: 2)
        defer { s.close() }
        try s.startApp()
        try expectTargetFrame(s, "scale 2")
        try expectRingOnTarget(s, "at scale 2")
    }

    /// Two monitors side by side (one desktop 2560 wide): the window dragged onto the second,
    /// its Target's frame and ring are where the screenshot shows them.
    @Test func twoMonitors() throws {
        let s = try GnomeSession(monitors: 2)
        defer { s.close() }
        try s.startApp()
        try s.shell().move(title: "Wayland test", by: 1280, 40, in: s)
        try expectTargetFrame(s, "on the second monitor")
        let target = try #require(try s.items(app: "wlapp.py")["Target"].flatMap { DesktopChecks.box($0.frame) })
        #expect(target.x >= 1280, "\(target)")
        try expectRingOnTarget(s, "on the second monitor")
    }

    /// A run with the highlight on the Target until the test writes `go("done")`.
    func highlightTarget(_ s: GnomeSession) throws -> HeadlessSession.LiveRun {
        let onTarget = try position(s, "Target")
        let run = try s.startLive({ dir in
            var sc = LiveScenario()
            sc.next(onTarget)
            sc.expect("\"label\":\"Target, button\"")
            sc.waitFor(dir, "done")
            sc.end()
            return sc
        }, GnomeDesktopTests.run)
        try run.await(s, "the highlight on Target") { $0.lines("highlight").last?["label"] as? String == "Target, button" }
        return run
    }

    /// The ring checked on the Target's border.
    func expectRingOnTarget(_ s: GnomeSession, _ what: String) throws {
        let target = try #require(try s.items(app: "wlapp.py")["Target"].flatMap { DesktopChecks.box($0.frame) })
        let run = try highlightTarget(s)
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        _ = DesktopChecks.expectRing(s, around: target, scale: s.scale, "the Target \(what)")
        try run.go("done")
        #expect(run.wait() == 0, "\(run.stderr)")
    }

    // MARK: Failure paths

    /// A window moved while its Target is highlighted: the extension says its windows changed,
    /// the tree's frames follow the window's new origin, and the ring is on the Target's new
    /// border (no AT-SPI event comes: the application does not know it moved).
    @Test func theHighlightFollowsAMovedWindow() throws {
        let s = try GnomeSession()
        defer { s.close() }
        try s.startApp()
        let before = try #require(try s.items(app: "wlapp.py")["Target"].flatMap { DesktopChecks.box($0.frame) })
        let run = try highlightTarget(s)
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        _ = DesktopChecks.expectRing(s, around: before, "the Target before the move")
        try s.shell().move(title: "Wayland test", by: 120, 70, in: s)
        let after = (x: before.x + 120, y: before.y + 70, width: before.width, height: before.height)
        _ = DesktopChecks.expectRing(s, around: after, "the Target after the move")
        try run.go("done")
        #expect(run.wait() == 0, "\(run.stderr)")
    }

    /// The extension turned off mid-run: a note says so with the command that turns it on, the
    /// ring goes, and a press still activates the button through AT-SPI; turned on again: a note,
    /// the ring is back, and a right click sent through its new devices (their first event)
    /// opens the entry's context menu.
    @Test func theExtensionTurnedOffAndOnMidRun() throws {
        let s = try GnomeSession()
        defer { s.close() }
        try s.startApp()
        let shell = try s.shell()
        let (press, entry) = (try position(s, "Press me"), try position(s, "Type here"))
        let entryGestures = try #require(try DesktopChecks.menuItems(s, app: "wlapp.py", nexts: entry).firstIndex(of: "menu:gestures"))
        let run = try s.startLive({ dir in
            var sc = LiveScenario()
            sc.next(press)
            sc.waitFor(dir, "off")
            sc.expect("extension was turned off")
            sc.select()
            sc.waitFor(dir, "on")
            sc.expect("extension is back")
            sc.next(entry - press)
            sc.choose(page: entryGestures, entry: 0)   // Type here: menu:rightClick
            sc.end()
            return sc
        }, GnomeDesktopTests.run)
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        try run.await(s, "the first highlight") { !$0.lines("highlight").isEmpty }
        _ = try s.waitFor("the ring") { try s.screenshot().box(of: DesktopChecks.ringColor) }
        let off = s.extensions(["disable", "switchscan@switchscan.org"])
        #expect(off.status == 0, "\(off.stderr)")
        _ = try s.waitFor("the extension's name gone") { try shell.bus.nameOwner("org.switchscan.Shell").get() == nil ? true : nil }
        try run.go("off")
        try run.await(s, "the press's result") { !$0.lines("result").isEmpty }
        _ = try s.waitFor("Pressed 1 on the bus") { s.named(app: "wlapp.py")["Pressed 1"] != nil ? true : nil }
        _ = try s.waitFor("no ring without the extension") { try s.screenshot().box(of: DesktopChecks.ringColor) == nil ? true : nil }
        let on = s.extensions(["enable", "switchscan@switchscan.org"])
        #expect(on.status == 0, "\(on.stderr)")
        try run.go("on")
        #expect(run.wait(timeout: 90) == 0, "\(run.stderr)")
        #expect(run.stderr.contains("switchscan: switchscan's GNOME Shell extension was turned off: no highlight, and clicks, keys and the "
                                    + "Windows page only where AT-SPI has an action; gnome-extensions enable switchscan@switchscan.org brings them back"),
                "\(run.stderr)")
        #expect(run.stderr.contains("switchscan: switchscan's GNOME Shell extension is back"), "\(run.stderr)")
        let results = run.lines("result").map { "\($0["action"] ?? "") \($0["result"] ?? "") \($0["how"] ?? "")" }
        #expect(results.count == 2 && results[0] == "activate done action \"Click\"" && results[1].hasPrefix("rightClick done right click at"),
                "\(results)")
        _ = try s.waitFor("the context menu on the bus") { s.named(app: "wlapp.py")["Select All"]?["role"] as? String == "menu item" ? true : nil }
    }

    /// Without the extension at the start: `run` says so with the command that turns it on and
    /// where the Shell has it, and scanning runs on AT-SPI actions alone (a press activates the
    /// button).
    @Test func withoutTheExtensionRunSaysHowToTurnItOn() throws {
        let s = try GnomeSession(extension: "disabled")
        defer { s.close() }
        try s.startApp()
        var sc = LiveScenario()
        sc.next(try position(s, "Press me"))
        sc.select()
        sc.end()
        let r = try s.live(sc, GnomeDesktopTests.run)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("switchscan: the GNOME Shell extension switchscan@switchscan.org (\(s.environment["HOME"] ?? "")/.local/share/"
                                  + "gnome-shell/extensions/switchscan@switchscan.org) is not enabled: no highlight, and clicks, keys and the Windows "
                                  + "page only where AT-SPI has an action; scanning goes on with AT-SPI actions. To turn it on: "
                                  + "gnome-extensions enable switchscan@switchscan.org"), "\(r.stderr)")
        #expect(r.results == ["activate done action \"Click\""], "\(r.text)")
        _ = try s.waitFor("Pressed 1 on the bus") { s.named(app: "wlapp.py")["Pressed 1"] != nil ? true : nil }
    }

    /// GNOME Shell goes away mid-run: the run ends at once with a clear message and a non-zero
    /// status (its devices released, its adapters finished), and nothing of the session is left.
    @Test func theShellGoingAwayEndsTheRun() throws {
        let s = try GnomeSession()
        defer {
            s.close()
            #expect(s.leftovers().isEmpty, "processes left: \(s.leftovers())")
        }
        try s.startApp()
        let run = try s.startLive({ _ in
            var sc = LiveScenario()
            sc.expect("went away")   // returns when the program ends
            sc.end()
            return sc
        }, GnomeDesktopTests.run + DesktopChecks.grabArgs)
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        try run.await(s, "the first highlight") { !$0.lines("highlight").isEmpty }
        let shellPid = try #require(s.leftovers().first { (try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8)) == "gnome-shell\n" })
        kill(shellPid, SIGKILL)
        let status = run.wait(timeout: 30)
        #expect(status != nil && status != 0, "\(run.stderr)")
        let error = DesktopChecks.releasedThenOneError(run)
        #expect(error.hasPrefix("switchscan: error: the Wayland compositor GNOME Shell went away")
                || error.hasPrefix("switchscan: error: GNOME Shell went away"), "\(run.stderr)")
    }
}
