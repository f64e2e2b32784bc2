import Foundation
import Testing

/// Issue 32, point 5: messages that misled or said too little, each with its input. Every
/// error is one line naming where and what is expected, exit status 2.
@Suite("messages, round four")
struct MessagesRoundFourTests {
    static let tree = "Sources/switchscan/Demo/demo-tree.json"

    static func profile(_ name: String, _ json: String) throws -> String { try CLI.tempFile(name, json) }

    // MARK: Negative counts

    @Test func negativePredictionsAndSuggestionsNameTheirRange() throws {
        let p = try CLI.run(["text", "stats", "/dev/null", "--predictions", "-1"])
        #expect(p.status == 2)
        #expect(p.stderr == "switchscan: error: --predictions: expected counts 0…8 separated by commas, found \"-1\" (see 'switchscan text stats --help')\n")
        let s = try CLI.run(["presage-server", "--database", "x", "--home", "/tmp", "--suggestions", "-5"])
        #expect(s.status == 2)
        #expect(s.stderr == "switchscan: error: --suggestions: expected 1…100 words, found -5 (see 'switchscan presage-server --help')\n")
        #expect(!p.stderr.contains("Missing value") && !s.stderr.contains("Missing value"))
    }

    // MARK: Size limits name the kind of file

    @Test func aWordListOverItsLimitIsNamedAsOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-words-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("words"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Keyboards/qwerty.json"), to: folder.appendingPathComponent("qwerty.json"))
        let words = folder.appendingPathComponent("words/en.txt")
        try String(repeating: "hello 12345\n", count: 100_000).write(to: words, atomically: true, encoding: .utf8)  // 1.2 MB
        let phrases = try CLI.tempFile("words-limit.txt", "hi\n")
        let r = try CLI.run(["text", "stats", phrases, "--keyboard", "qwerty", "--predictions", "0,3", "--predictor", "words"],
                            environment: ["SWITCHSCAN_KEYBOARDS": folder.path, "SWITCHSCAN_MAX_FILE_MB": "1"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "switchscan: error: \(words.path): 1200000 bytes, larger than the 1 MiB (1048576 bytes) a word list may have; SWITCHSCAN_MAX_FILE_MB=N raises the limit to N MiB\n", "\(r.stderr)")
    }

    // MARK: The profile's keyboard layout is checked at load

    @Test func aProfileWhoseLayoutDoesNotExistFailsAtLoad() throws {
        let missing = try Self.profile("layout-missing.json", "{\"keyboard\": {\"layout\": \"dvorak\"}}\n")
        let r = try CLI.run(["profiles", "show", missing])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "switchscan: error: \(missing):1:25: keyboard.layout: \"dvorak\": no such keyboard layout file or layout name; layouts available by name: abc, frequency, qwerty\n")
        // A layout that is there but does not read: its own error, with its file and line.
        let bad = try CLI.tempFile("layout-bad-pages.json", "{\"name\": \"x\"}\n")
        let uses = try Self.profile("layout-bad.json", "{\"keyboard\": {\"layout\": \"\(bad)\"}}\n")
        let b = try CLI.run(["simulate", "--tree", Self.tree, "--profile", uses, "--until", "1"])
        #expect(b.status == 2)
        #expect(b.stderr == "switchscan: error: \(uses):1:25: keyboard.layout: \"\(bad)\": \(bad):1:1: missing key \"pages\" (at least one page of keys)\n")
        let fine = try Self.profile("layout-fine.json", "{\"keyboard\": {\"layout\": \"qwerty\"}}\n")
        #expect(try CLI.run(["profiles", "show", fine]).status == 0)
    }

    // MARK: The right field is blamed

    @Test func theScreenAsTheOnlySwitchIsBlamedNotSwitches() throws {
        let group = try Self.profile("touch-group1.json", "{\"switches\": [], \"touchAccommodations\": {\"touchAsSwitch\": \"group1\"}}\n")
        let r = try CLI.run(["profiles", "show", group])
        #expect(r.status == 2)
        #expect(r.stderr == "switchscan: error: \(group):1:59: touchAccommodations.touchAsSwitch: the screen is the only switch and it is \"group1\" (group1 chooses a colour only in \"groupSelection\"; scanning.mode is \"item\"): nothing selects, so nothing could ever be chosen; use \"select\", or add switches\n")
        // With switches that select, a colour for the screen in item mode is a warning.
        let warn = try Self.profile("touch-group1-warn.json", "{\"touchAccommodations\": {\"touchAsSwitch\": \"group1\"}}\n")
        let w = try CLI.run(["profiles", "show", warn])
        #expect(w.status == 0)
        #expect(w.stderr.contains("warning: \(warn):1:43: touchAccommodations.touchAsSwitch: group1 does nothing: scanning.mode is \"item\""), "\(w.stderr)")
    }

    // MARK: Long values and many shortcuts

    @Test func aHugeMenuIdIsShortenedInTheMessage() throws {
        let id = "menu:x" + String(repeating: "a", count: 900_000)
        let huge = try Self.profile("huge-menu-id.json", "{\"menu\": {\"top\": [\"\(id)\"]}}\n")
        let r = try CLI.run(["profiles", "show", huge])
        #expect(r.status == 2)
        #expect(r.stderr.count < 2_000, "\(r.stderr.count) characters")
        #expect(r.stderr.hasPrefix("switchscan: error: \(huge):1:19: menu.top[0]: unknown menu entry \"menu:xaaaa"))
        #expect(r.stderr.contains("a… (900006 characters)\" (expected one of: menu:tap, "))
        let style = try Self.profile("huge-style.json", "{\"scanning\": {\"style\": \"\(String(repeating: "z", count: 100_000))\"}}\n")
        let s = try CLI.run(["profiles", "show", style])
        #expect(s.status == 2 && s.stderr.count < 500, "\(s.stderr.count)")
    }

    /// 25,000 shortcuts took 11 s to check (each name compared with every one before it); the
    /// check is one look-up a name now (its time: BENCHMARKS.md, issue 32). A clash at the end
    /// still names the shortcut it clashes with.
    @Test func manyShortcutsAreCheckedAndAClashIsFound() throws {
        let many = (0..<25_000).map { "{\"name\": \"S\($0)\", \"keys\": \"Ctrl+A\"}" }
        let ok = try Self.profile("shortcuts-25000.json", "{\"menu\": {\"shortcuts\": [\(many.joined(separator: ", "))]}}\n")
        let r = try CLI.run(["profiles", "show", ok])
        #expect(r.status == 0, "\(r.stderr.prefix(300))")
        let clash = try Self.profile("shortcuts-clash.json", "{\"menu\": {\"shortcuts\": [\((many + ["{\"name\": \"s12345\", \"keys\": \"Ctrl+B\"}"]).joined(separator: ", "))]}}\n")
        let c = try CLI.run(["profiles", "show", clash])
        #expect(c.status == 2)
        #expect(c.stderr.contains("menu.shortcuts[25000].name: \"s12345\" clashes with the shortcut \"S12345\" (Ctrl+A) before it; give it another name"), "\(c.stderr.prefix(300))")
    }

    // MARK: run without a tree

    @Test func runWithoutATreeSaysHowToGetTouchPassthrough() throws {
        let r = try CLI.run(["run", "--profile", "Profiles/tremor.json", "--until", "1"])
        #expect(r.status == 2)
        #expect(r.stderr == "switchscan: error: give a tree file or --desktop: the profile scans (it has switches); for touch passthrough without a tree (touches filtered, then passed on to the desktop), give a profile with \"switches\": []; to scan and pass touches on too, keep the switches, set touchAccommodations.output to \"virtualTouchscreen\" and give a tree file or --desktop (see 'switchscan run --help')\n")
        let screen = try CLI.run(["run", "--profile", "Profiles/touch-as-switch.json", "--until", "1"])
        #expect(screen.status == 2)
        #expect(screen.stderr == "switchscan: error: give a tree file or --desktop: the profile scans (the screen is a switch); for touch passthrough without a tree (touches filtered, then passed on to the desktop), remove touchAsSwitch and give \"switches\": [] (see 'switchscan run --help')\n")
    }

    // MARK: Faster at the floor

    /// Settings → Faster at 0.1 s said nothing; now a `setting` line and a note say it stays.
    @Test func fasterAtItsFloorSaysSo() throws {
        let fast = try Self.profile("fast.json", "{\"name\": \"fast\", \"scanning\": {\"autoScanningTime\": 0.1}}\n")
        // Select Edit at 0.05 (its menu: Tap, Gestures, Device, Shortcuts, Settings 0.45 …),
        // Settings at 0.5 (Faster first), Faster at 0.55.
        let events = try CLI.tempFile("fast.evemu", [0.05, 0.5, 0.55].map { t in
            String(format: "E: %.6f 0001 0039 1\nE: %.6f 0000 0000 0\nE: %.6f 0001 0039 0\nE: %.6f 0000 0000 0\n", t, t, t + 0.01, t + 0.01)
        }.joined())
        let r = try CLI.run(["simulate", "--tree", Self.tree, "--profile", fast, "--events", events, "--until", "0.6", "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.contains(#"{"t":0.550,"type":"setting","name":"autoScanningTime","from":0.1,"to":0.1,"limit":"fastest"}"#), "\(r.stdout)")
        #expect(r.stderr == "switchscan: autoScanningTime stays 0.1 s: already the fastest\n")
    }
}
