import Foundation
import Testing

/// The checks the desktop tests make on every compositor (sway, KWin), on plain values and the
/// session's screenshots and runs: where the ring is, where a button is drawn, how the scanning
/// keyboard is driven, what the scanner menu lists.
enum DesktopChecks {
    static let ringColor: UInt32 = 0x007AFF  // CursorColor.blue, the default
    static let magenta: UInt32 = 0xFF00FF

    static func box(_ f: [Double]) -> (x: Int, y: Int, width: Int, height: Int)? {
        f.count == 4 ? (Int(f[0]), Int(f[1]), Int(f[2]), Int(f[3])) : nil
    }

    /// How many pixels of the ring `t` wide just outside `frame` are not the ring's colour, and
    /// whether the frame's own pixels next to its edge kept `inside` (nil: not checked).
    static func ringMisses(_ shot: Image, around f: (x: Int, y: Int, width: Int, height: Int), t: Int = 4, scale: Int = 1,
                           color: UInt32 = ringColor) -> (band: Int, wrong: Int) {
        let (x0, y0, x1, y1) = ((f.x - t) * scale, (f.y - t) * scale, (f.x + f.width + t) * scale, (f.y + f.height + t) * scale)
        let (ix0, iy0, ix1, iy1) = (f.x * scale, f.y * scale, (f.x + f.width) * scale, (f.y + f.height) * scale)
        var band = 0, wrong = 0
        for y in max(0, y0)..<min(shot.height, y1) {
            for x in max(0, x0)..<min(shot.width, x1) where !(x >= ix0 && x < ix1 && y >= iy0 && y < iy1) {
                band += 1
                if shot.rgb(x, y) != color { wrong += 1 }
            }
        }
        return (band, wrong)
    }

    /// Waits until the screenshot shows the ring around `frame` (every band pixel the colour).
    static func expectRing(_ s: HeadlessSession, around f: (x: Int, y: Int, width: Int, height: Int), scale: Int = 1, _ what: String) -> Image? {
        var last = ""
        do {
            return try s.waitFor("the ring around \(what)") { () throws -> Image? in
                let shot = try s.screenshot()
                let m = ringMisses(shot, around: f, scale: scale)
                last = "\(m.wrong) of \(m.band) ring pixels around \(f) are not #007AFF"
                return m.band > 0 && m.wrong == 0 ? shot : nil
            }
        } catch {
            Issue.record("\(what): \(last)")
            return nil
        }
    }

    /// Where a button is drawn: from a point inside it near its left edge (away from its centred
    /// label), outwards along its middle row and column, to the first pixel that is not its face
    /// (its border line).
    static func borderBox(_ shot: Image, inside f: (x: Int, y: Int, width: Int, height: Int)) -> (x: Int, y: Int, width: Int, height: Int) {
        let (px, py) = (f.x + 8, f.y + f.height / 2)  // past the rounded corner
        let face = shot.rgb(px, py)
        let start = (x: f.x + 2, y: py)
        func differs(_ x: Int, _ y: Int) -> Bool {
            let c = shot.rgb(x, y)
            let d = abs(Int(c >> 16) - Int(face >> 16)) + abs(Int((c >> 8) & 0xFF) - Int((face >> 8) & 0xFF)) + abs(Int(c & 0xFF) - Int(face & 0xFF))
            return d > 24
        }
        var left = start.x, right = f.x + f.width - 3, top = py, bottom = py
        while left > 0 && !differs(left, py) { left -= 1 }
        while right < shot.width - 1 && !differs(right, py) { right += 1 }
        while top > 0 && !differs(px, top) { top -= 1 }
        while bottom < shot.height - 1 && !differs(px, bottom) { bottom += 1 }
        return (left, top, right - left + 1, bottom - top + 1)
    }

    /// qwerty scanned key by key (profile-typing.json), from its first key after every tap.
    static let keyOrder = ["q", "w", "e", "r", "t", "y", "u", "i", "o", "p", "a", "s", "d", "f", "g", "h", "j", "k", "l",
                           "shift", "z", "x", "c", "v", "b", "n", "m", "backspace", "123", " ", "return", "close"]

    static func type(_ sc: inout LiveScenario, _ text: String) {
        for c in text {
            sc.next(keyOrder.firstIndex(of: String(c))!)
            sc.select(expecting: "\"action\":\"type\"")
        }
    }

    /// The top menu's entries on the item `nexts` presses from the first, in `app` (nil: the
    /// active window's, once the window list is read: the Windows page shows then).
    static func menuItems(_ s: HeadlessSession, app: String?, nexts: Int = 0, profile: String = HeadlessSession.twoSwitchProfile) throws -> [String] {
        var sc = LiveScenario()
        if app == nil { sc.expect("desktop: windows: ") }
        sc.next(nexts)
        sc.menu()
        sc.end()
        let r = try s.live(sc, ["run", "--desktop"] + (app.map { ["--app", $0] } ?? []) + ["--profile", profile, "--format", "jsonl", "--no-show"],
                           env: ["SWITCHSCAN_DESKTOP_TRACE": "1"])
        return r.lines("menu").first?["items"] as? [String] ?? []
    }

    /// The ids of a submenu's entries (the top menu's entry `page`, on the first item of `app`).
    static func submenu(_ s: HeadlessSession, app: String = "wlapp.py", page: Int) throws -> [String]? {
        var sc = LiveScenario()
        sc.menu()
        sc.next(page)
        sc.select(expecting: "\"type\":\"menu\"")
        sc.end()
        let r = try s.live(sc, ["run", "--desktop", "--app", app, "--profile", HeadlessSession.twoSwitchProfile, "--format", "jsonl", "--no-show"])
        return r.lines("menu").last?["items"] as? [String]
    }

    /// A run that ended because its display server went away (it had grabbed the switch box:
    /// `grabArgs`): `run` said from the devices' state that it released them, then one error
    /// line; returns that line.
    static func releasedThenOneError(_ run: HeadlessSession.LiveRun) -> String {
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasSuffix(grabbed) }, "\(run.stderr)")
        let errors = lines.indices.filter { lines[$0].hasPrefix("switchscan: error: ") }
        let released = lines.firstIndex(of: "switchscan: every switch device released")
        #expect(errors.count == 1 && released.map { $0 < errors[0] } == true, "\(run.stderr)")
        return errors.first.map { lines[$0] } ?? ""
    }

    /// How `run --grab --device /dev/input/event10`'s note on the live driver's switch box ends.
    static let grabbed = "/dev/input/event10 \"Test Full Keyboard\" (named by path), grabbed"
    static let grabArgs = ["--grab", "--device", "/dev/input/event10"]

    /// The session's watchdog for `keyboardTypesASentence` (seconds).
    static let sentenceWatchdog: Double = 420

    /// The scanning keyboard types a sentence into wlapp.py's entry (AT-SPI EditableText: no key
    /// event needed), read back through AT-SPI; while it is open its panel is on the screen (white,
    /// the ring on one key, below the field). `entryAt`: presses from the first item to the entry;
    /// `keep`: the panel's screenshot's name (SWITCHSCAN_TEST_KEEP). About 190 presses, each
    /// awaited: minutes on a loaded machine (give the session a watchdog of `sentenceWatchdog`).
    static func keyboardTypesASentence(_ s: HeadlessSession, entryAt: Int, keep: String) throws {
        let field = try #require(try s.items(app: "wlapp.py")["Type here"].flatMap { box($0.frame) })
        let data = try HeadlessSession.sharedFolder()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let run = try s.startLive({ dir in
            var sc = LiveScenario()
            sc.next(entryAt)
            sc.select(expecting: "\"type\":\"keyboard\"")
            sc.next(keyOrder.firstIndex(of: "shift")!)   // the sentence start's capital declined
            sc.select(expecting: "\"type\":\"highlight\"")
            type(&sc, "hello")
            sc.waitFor(dir, "panel")
            type(&sc, " world")
            sc.end()
            return sc
        }, ["run", "--desktop", "--app", "wlapp.py", "--profile", HeadlessSession.typingProfile, "--format", "jsonl"], env: ["XDG_DATA_HOME": data])
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        _ = try s.waitFor("hello typed", timeout: 180) { (s.named(app: "wlapp.py")["Type here"]?["text"] as? String) == "hello" ? true : nil }
        var latest: Image?
        defer { latest?.keep(keep) }
        let shot = try s.waitFor("the keyboard panel") { () throws -> Image? in
            let shot = try s.screenshot()
            latest = shot
            guard let ring = shot.box(of: ringColor), ring.y > field.y + field.height, ring.y > 40 else { return nil }
            let line = (0..<shot.width).filter { shot.rgb($0, ring.y - 30) == 0xFFFFFF }.count
            return line > shot.width / 2 ? shot : nil
        }
        let ring = try #require(shot.box(of: ringColor))
        #expect(ring.width < 200 && ring.height < 120, "the ring is on one key: \(ring)")
        try run.go("panel")
        #expect(run.wait(timeout: 180) == 0, "\(run.stderr)")
        #expect(run.lines("type").compactMap { $0["text"] as? String }.joined() == "hello world")
        let results = run.lines("result").filter { $0["action"] as? String == "type" }
        #expect(results.count == 11 && results.allSatisfy { $0["result"] as? String == "done" }, "\(results)")
        #expect(s.named(app: "wlapp.py")["Type here"]?["text"] as? String == "hello world")
    }

    /// Keys into a widget without Text (typingapp.py's key log): the keyboard opened from the
    /// scanner menu of Clear (`logAt` presses from the first item; its menu's Keyboard entry
    /// `keyboardAt`) for what has the focus types "hi" as keys; each result says the keys went
    /// `via` (its first words); the application says what it received.
    static func keysIntoAWidgetWithoutText(_ s: HeadlessSession, logAt: Int, keyboardAt: Int, via: String) throws {
        let data = try HeadlessSession.sharedFolder()
        defer { try? FileManager.default.removeItem(atPath: data) }
        var sc = LiveScenario()
        sc.next(logAt)
        sc.menu()
        sc.next(keyboardAt)
        sc.select(expecting: "\"type\":\"keyboard\"")
        type(&sc, "hi")
        sc.end()
        let r = try s.live(sc, ["run", "--desktop", "--app", "typingapp.py", "--profile", HeadlessSession.typingProfile, "--format", "jsonl"],
                           env: ["XDG_DATA_HOME": data])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines("keyboard").first?["label"] as? String == "Key log", "\(r.text)")
        let results = r.lines("result").filter { $0["action"] as? String == "type" }
        #expect(results.count == 2 && results.allSatisfy { ($0["how"] as? String ?? "").hasPrefix(via) }, "\(results)")
        _ = try s.waitFor("the key log's text") { s.named(app: "typingapp.py")["Received: Hi"] != nil ? true : nil }
    }

    typealias Box = (x: Int, y: Int, width: Int, height: Int)

    /// Waits until the tree's frame of `name` in `app` (`tree show --desktop`) is where the
    /// screenshot draws it (`drawn`: from the picture and the frame; a magenta widget's box, a
    /// button's border box), to the pixel; records `what` and the last difference if it never is.
    /// Returns the frame.
    @discardableResult
    static func expectFrameWhereDrawn(_ s: HeadlessSession, app: String = "wlapp.py", _ name: String, _ what: String,
                                      drawn: @escaping (Image, Box) -> Box?) -> Box? {
        var last = "nothing read"
        do {
            return try s.waitFor("\(name)'s frame where the screenshot draws it") { () throws -> Box? in
                guard let f = try s.items(app: app)[name].flatMap({ box($0.frame) }) else { return nil }
                let found = drawn(try s.screenshot(), f)
                last = "tree frame \(f), drawn \(found.map { "\($0)" } ?? "none")"
                guard let found, found == f else { return nil }
                return f
            }
        } catch {
            Issue.record("\(what): \(last)")
            return nil
        }
    }

    /// A switch press on wlapp.py's Press me (`pressAt` presses from the first item) activates it
    /// (its result line; AT-SPI reads "Pressed 1"), then `targetAt − pressAt` presses on the ring
    /// sits exactly on the Target's border (every pixel of the 4 px band the cursor colour, by the
    /// session's screenshot). Returns the run (each compositor checks its own notes).
    static func pressThenRingOnTheTarget(_ s: HeadlessSession, pressAt: Int = 0, targetAt: Int = 2,
                                         args: [String] = ["run", "--desktop", "--app", "wlapp.py", "--profile", HeadlessSession.twoSwitchProfile,
                                                           "--format", "jsonl"]) throws -> HeadlessSession.LiveRun {
        let target = try #require(try s.items(app: "wlapp.py")["Target"].flatMap { box($0.frame) })
        let run = try s.startLive({ dir in
            var sc = LiveScenario()
            sc.next(pressAt)
            sc.select()
            sc.next(targetAt - pressAt)
            sc.expect("\"label\":\"Target, button\"")
            sc.waitFor(dir, "shot")
            sc.end()
            return sc
        }, args)
        try run.await(s, "the highlight on Target") { $0.lines("highlight").last?["label"] as? String == "Target, button" }
        _ = expectRing(s, around: target, "the Target")
        try run.go("shot")
        #expect(run.wait() == 0, "\(run.stderr)")
        #expect(run.lines("result").map { "\($0["action"] ?? "") \($0["result"] ?? "") \($0["how"] ?? "")" } == ["activate done action \"Click\""])
        _ = try s.waitFor("Pressed 1 on the bus") { s.named(app: "wlapp.py")["Pressed 1"] != nil ? true : nil }
        return run
    }

    /// The Windows page switches windows (one.py "One" and two.py "Two" showing, Two active):
    /// a run without --app scans Two; its top menu's Windows page lists One first; choosing it
    /// activates One (`how`: the result's words) and scanning goes into it: `pressAt` presses
    /// on, a press activates One's button. Checked while the run goes on (on sway GTK calls a
    /// window active only while the seat has the run's virtual keyboard): AT-SPI reads One
    /// active and "Pressed 1", and `oneActive` (the compositor's own word) holds.
    static func windowsMenuSwitchesToOne(_ s: HeadlessSession, pressAt: Int = 0, how: String,
                                         oneActive: () throws -> Bool) throws {
        let top = try menuItems(s, app: nil)
        let windowsAt = try #require(top.firstIndex(of: "menu:windows"), "\(top)")
        let run = try s.startLive({ dir in
            var sc = LiveScenario()
            sc.expect("desktop: windows: \\[.*one.py")
            sc.menu()
            sc.next(windowsAt)
            sc.select(expecting: "\"submenu\":\"menu:windows\"")
            sc.select(expecting: "\"action\":\"activateWindow\"")
            sc.expect("\"window\":\"One\"")
            sc.next(pressAt)
            sc.select()
            sc.waitFor(dir, "seen")
            sc.end()
            return sc
        }, ["run", "--desktop", "--profile", HeadlessSession.twoSwitchProfile, "--format", "jsonl"], env: ["SWITCHSCAN_DESKTOP_TRACE": "1"])
        defer { try? FileManager.default.removeItem(atPath: run.dir) }
        var state: [String: [String: Any]] = [:]
        do {
            _ = try s.waitFor("One active and pressed") { () -> Bool? in
                state = s.named(app: "one.py")
                return state["Pressed 1"] != nil && (state["One"]?["states"] as? [String] ?? []).contains("active") ? true : nil
            }
        } catch {
            Issue.record("\(error): one.py is \(state)\n\(run.stdout)\n\(run.stderr.suffix(2000))")
        }
        #expect(try oneActive(), "the compositor says One is active")
        try run.go("seen")
        #expect(run.wait() == 0, "\(run.stderr)")
        let page = run.lines("menu").first { $0["submenu"] as? String == "menu:windows" }
        #expect((page?["labels"] as? [String])?.first == "one.py — One", "\(run.stdout)")
        #expect(run.results == ["activateWindow done \(how)", "activate done action \"Click\""], "\(run.stdout)")
        #expect(run.lines("tree").map { "\($0["change"] ?? "") \($0["window"] ?? "")" } == ["window Two", "window One"])
    }
}
