import Foundation
import Testing

/// Issue 22: the third round of bad input, end to end through the `switchscan` executable. Each
/// test is named after its finding (the issue's numbers in the MARKs) and failed on the build
/// before the fix (`SWITCHSCAN_CLI=/path/to/old/switchscan swift test --filter BadInputRoundThree`
/// runs them against another build). The bad inputs are in `Tests/CLITests/BadInput/`.
@Suite("bad input, round three")
struct BadInputRoundThreeTests {
    static let demo = "Sources/switchscan/Demo/"
    static let tree = demo + "demo-tree.json"
    static let session = demo + "demo-session.evemu"
    static let badInput = "Tests/CLITests/BadInput/"

    static func path(_ name: String) -> String { CLI.packageRoot.path + "/" + badInput + name }

    /// `switchscan ARGS` with its standard output redirected by the shell (`> /dev/full`, `>&-`);
    /// standard error captured.
    static func redirected(_ redirect: String, _ arguments: [String], environment: [String: String] = [:]) throws -> CLIResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "exec \"$0\" \"$@\" \(redirect)", CLI.executable] + arguments
        p.currentDirectoryURL = CLI.packageRoot
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        p.standardInput = FileHandle.nullDevice
        let err = Pipe()
        p.standardError = err
        try p.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return CLIResult(status: p.terminationStatus, stdout: "", stderr: String(decoding: data, as: UTF8.self))
    }

    // MARK: 2. Every write checked

    /// Every one-shot command the issue names, with output that does not fit in a pipe's first
    /// write for most of them.
    static let oneShotCommands: [[String]] = [
        ["demo"],
        ["simulate", "--tree", tree, "--events", session, "--profile", "Profiles/single-switch-auto.json"],
        ["simulate", "--tree", tree, "--events", session, "--profile", "Profiles/single-switch-auto.json", "--report", "-"],
        ["tree", "show", tree],
        ["tree", "show", tree, "--format", "svg"],
        ["tree", "stats", tree],
        ["tree", "audit", badInput + "escapes-tree.json"],
        ["tree", "import", tree],
        ["calibrate", "--events", session, "--tree", tree, "--profile", "Profiles/single-switch-auto.json"],
        ["profiles"],
        ["profiles", "show", "tremor"],
        ["devices", "--format", "json"],
        ["--help"],
        ["tree", "stats", "--help"],
        ["--version"],
    ]

    @Test(arguments: oneShotCommands)
    func outputOnAFullDiskIsAnErrorWithStatus2(_ arguments: [String]) throws {
        let r = try Self.redirected("> /dev/full", arguments)
        #expect(r.status == 2, "\(arguments): \(r.stderr)")
        #expect(r.stderr.hasSuffix("switchscan: error: standard output: No space left on device\n"), "\(arguments): \(r.stderr)")
        #expect(r.stderr.components(separatedBy: "standard output").count == 2, "said once: \(r.stderr)")
    }

    @Test(arguments: oneShotCommands)
    func closedStandardOutputIsAnErrorWithStatus2(_ arguments: [String]) throws {
        let r = try Self.redirected(">&-", arguments)
        #expect(r.status == 2, "\(arguments): \(r.stderr)")
        #expect(r.stderr.hasSuffix("switchscan: error: standard output: Bad file descriptor\n"), "\(arguments): \(r.stderr)")
    }

    /// With descriptor 1 closed, the next `open` would get it: `tree import -o FILE` must not
    /// write its own note lines, or anything, into FILE by accident, and FILE gets only the tree.
    @Test func closedStandardOutputNeverBecomesAFileTheCommandOpens() throws {
        let out = try CLI.tempFile("closed-stdout-import.json", "")
        let r = try Self.redirected(">&-", ["tree", "import", Self.tree, "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let written = try String(contentsOfFile: out, encoding: .utf8)
        #expect(written.hasPrefix("{"))
        let again = try CLI.run(["tree", "show", out])
        #expect(again.status == 0, "\(again.stderr)")
    }

    /// `tree audit` finds problems (status 1) but its report is lost: 2, not 1.
    @Test func auditWhoseReportIsLostExits2Not1() throws {
        let r = try Self.redirected("> /dev/full", ["tree", "audit", Self.badInput + "escapes-tree.json"])
        #expect(r.status == 2)
    }

    /// A reader that goes away still ends a one-shot command by SIGPIPE (as `cat` and `tree`
    /// do), not by an error message.
    @Test func closedPipeStillEndsAOneShotCommandBySIGPIPE() throws {
        let big = try CLI.tempFile("many-items.json", Self.manyItems(20_000))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        // `head -1` reads one line and exits; status of switchscan from PIPESTATUS-less sh: its own.
        p.arguments = ["-c", "\"$0\" tree show \"$1\" 2>\"$2\" | head -1 >/dev/null; exit 0", CLI.executable, big, big + ".err"]
        p.currentDirectoryURL = CLI.packageRoot
        try p.run()
        p.waitUntilExit()
        let stderr = try String(contentsOfFile: big + ".err", encoding: .utf8)
        #expect(stderr.isEmpty, "\(stderr)")
    }

    static func manyItems(_ n: Int) -> String {
        let items = (0..<n).map { #"{"id":"b\#($0)","label":"Button \#($0)","traits":["button"],"frame":[0,\#($0 % 800),10,10]}"# }
        return #"{"screen":{"width":390,"height":844},"root":{"children":["# + items.joined(separator: ",") + "]}}"
    }

    // MARK: 3. One escaping rule for all text output

    /// True when `s` holds a control byte a terminal would act on: C0 but the line feed, DEL,
    /// C1 (U+0080…U+009F), the line and paragraph separators and the bidirectional overrides.
    static func controlCharacters(_ s: String) -> [Unicode.Scalar] {
        s.unicodeScalars.filter { u in
            (u.value < 0x20 && u != "\n") || (0x7F...0x9F).contains(u.value) || u.value == 0x2028 || u.value == 0x2029
                || (0x202A...0x202E).contains(u.value) || (0x2066...0x2069).contains(u.value)
        }
    }

    @Test func treeAuditPrintsNoControlCharacter() throws {
        let r = try CLI.run(["tree", "audit", Self.badInput + "escapes-tree.json"])
        #expect(r.status == 1)
        #expect(Self.controlCharacters(r.stdout).isEmpty, "\(r.stdout.debugDescription)")
        #expect(r.stdout.contains(#"clear: label "Clear\u{1B}[2J." ends with a period"#), "\(r.stdout)")
        #expect(r.stdout.contains(#"/5: duplicate id "dup\u{1B}[31m" (an earlier element has it; this one was renamed /5)"#), "\(r.stdout)")
    }

    @Test func multiLineLabelOfARealAndroidDumpStaysOneFindingPerLine() throws {
        let r = try CLI.run(["tree", "audit", Self.badInput + "android-multiline-label.xml"])
        #expect(r.status == 1)
        #expect(r.lines == [
            #"com.example:id/wifi: label "Wi-Fi button\nConnected." names its control type ("button"); the button trait already says it"#,
            #"com.example:id/wifi: label "Wi-Fi button\nConnected." ends with a period"#,
        ])
    }

    @Test func profileNameIsEscapedInProfilesAndDemo() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-escapes-\(UUID().uuidString)")
        let folder = config.appendingPathComponent("switchscan/profiles")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: config) }
        let profile = try String(contentsOfFile: Self.path("escapes-profile.json"), encoding: .utf8)
        try profile.write(to: folder.appendingPathComponent("evil\u{1B}[2J.json"), atomically: true, encoding: .utf8)
        let list = try CLI.run(["profiles"], environment: ["XDG_CONFIG_HOME": config.path])
        #expect(list.status == 0)
        #expect(Self.controlCharacters(list.stdout + list.stderr).isEmpty, "\(list.stdout.debugDescription)")
        #expect(list.stdout.contains(#"(Evil \u{1B}]0;retitled\u{7} profile\nsecond line)"#), "\(list.stdout)")
        let demo = try CLI.run(["demo", "--profile", Self.badInput + "escapes-profile.json"])
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(Self.controlCharacters(demo.stdout + demo.stderr).isEmpty, "\(demo.stderr.debugDescription)")
        #expect(demo.stderr.hasPrefix(#"switchscan demo: Evil \u{1B}]0;retitled\u{7} profile\nsecond line, a weather app screen"#), "\(demo.stderr)")
    }

    /// Every command's text output over the bad-input files: no control character on stdout or
    /// stderr (a file name with an escape in it included).
    @Test func noCommandPrintsAControlCharacter() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-escapes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A file name that is itself an escape sequence, holding a Chrome dump (whose notes name it).
        let chrome = dir.appendingPathComponent("dump\u{1B}]0;x\u{7}.json").path
        try #"{"nodes":[{"nodeId":"1","role":{"value":"RootWebArea"},"name":{"value":"Page\u001b[2J"},"childIds":["2","9"]},{"nodeId":"2","role":{"value":"button"},"name":{"value":"Go\nnow"},"parentId":"1"}]}"#
            .write(toFile: chrome, atomically: true, encoding: .utf8)
        let tree = Self.badInput + "escapes-tree.json"
        let android = Self.badInput + "android-multiline-label.xml"
        let profile = Self.badInput + "escapes-profile.json"
        let runs: [[String]] = [
            ["tree", "show", tree], ["tree", "show", android], ["tree", "show", chrome],
            ["tree", "audit", tree], ["tree", "audit", android], ["tree", "audit", chrome],
            ["tree", "stats", tree], ["tree", "stats", chrome, "--profile", profile],
            ["tree", "import", chrome], ["tree", "import", android, "-o", dir.appendingPathComponent("out\u{1B}[2J.json").path],
            ["simulate", "--tree", tree, "--events", Self.session, "--profile", profile, "--ids"],
            ["simulate", "--tree", chrome, "--events", Self.session, "--profile", profile],
            ["demo", "--profile", profile],
            ["profiles", "show", profile],
            ["calibrate", "--events", Self.session, "--tree", tree, "--profile", profile, "--hold", "0,0.1", "--ignore", "0", "--debounce", "0"],
            ["debug-events", "/dev/input/event\u{1B}[2J"],
            ["tree", "show", dir.appendingPathComponent("missing\u{1B}]0;x\u{7}.json").path],
        ]
        for arguments in runs {
            let r = try CLI.run(arguments)
            #expect(Self.controlCharacters(r.stdout).isEmpty, "\(arguments) stdout: \(r.stdout.debugDescription)")
            #expect(Self.controlCharacters(r.stderr).isEmpty, "\(arguments) stderr: \(r.stderr.debugDescription)")
        }
    }

    // MARK: 1. Bounded values: no conversion can trap

    /// The issue's reproducer (exit 132, SIGILL, before) and the same from every reader: one
    /// `switchscan: error:` line naming where, status 2, for `tree show --format svg`,
    /// `simulate --report` and every other command that reads the tree.
    static let hugeTrees: [(file: String, error: String)] = [
        ("huge-screen.json", "huge-screen.json:1:20: screen.width: expected a positive width of at most 1000000 points, found 1e+22"),
        ("huge-frame.json", "huge-frame.json:1:104: root.children[0].frame[2]: expected a width from 0 to 1000000 points, found 2e+20"),
        ("android-huge-width.xml", "android-huge-width.xml:2:53: width=\"…\" on <hierarchy>: 1e+22 is out of range; expected a coordinate or size of at most 1000000 points either way"),
        ("android-huge-bounds.xml", "android-huge-bounds.xml:3:287: bounds=\"…\" on <node>: 1e+20 in [0,0][99999999999999999999,10] is out of range; expected coordinates of at most 1000000 points either way"),
        ("ios-huge-application.xml", "ios-huge-application.xml:3:151: width=\"…\" on <XCUIElementTypeApplication>: 1e+22 is out of range; expected a coordinate or size of at most 1000000 points either way"),
    ]

    @Test(arguments: hugeTrees.indices)
    func hugeScreenOrFrameIsAnErrorNotACrash(_ k: Int) throws {
        let (file, error) = Self.hugeTrees[k]
        for arguments in [["tree", "show", Self.badInput + file, "--format", "svg"],
                          ["simulate", "--tree", Self.badInput + file, "--events", Self.session, "--report", "-"],
                          ["tree", "stats", Self.badInput + file], ["tree", "audit", Self.badInput + file]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 2, "\(arguments): \(r.status) \(r.stderr)")
            #expect(r.stderr == "switchscan: error: " + Self.badInput + error + "\n", "\(arguments)")
            #expect(r.stdout.isEmpty)
        }
    }

    /// A million points is still read (and drawn): the bound is on the value, not below it.
    @Test func coordinatesOfAMillionPointsAreRead() throws {
        let tree = try CLI.tempFile("million.json", #"{"screen":{"width":1000000,"height":1000000},"root":{"children":[{"label":"A","traits":["button"],"frame":[-1000000,1000000,1000000,1000000]}]}}"#)
        let r = try CLI.run(["tree", "show", tree, "--format", "svg"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("<svg"))
    }

    // MARK: 5. A bounded report

    /// Past the highlights the report details, the figures still count the whole session and a
    /// note says the chart and the lists stop (the cut is exercised small in SwitchReportTests;
    /// here the real command on a session of 10,500 highlights).
    @Test func reportOfALongSessionCoversItsFirst10000HighlightsAndSaysSo() throws {
        // 0.1 s a stop, never stopping; a press every 50 s for 1,100 s: about 11,000 highlights.
        let profile = try CLI.tempFile("fast-auto.json", #"{"name": "fast", "scanning": {"style": "auto", "autoScanningTime": 0.1, "loops": 100}, "switches": [{"key": "KEY_SPACE", "action": "select"}]}"#)
        var events = ""
        for k in 1...22 {
            let t = Double(k) * 50
            events += String(format: "E: %.6f 0001 0039 1\nE: %.6f 0000 0000 0\nE: %.6f 0001 0039 0\nE: %.6f 0000 0000 0\n", t, t, t + 0.05, t + 0.05)
        }
        let recording = try CLI.tempFile("long-session.evemu", events)
        let r = try CLI.run(["simulate", "--tree", Self.tree, "--profile", profile, "--events", recording, "--report", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        let note = try #require(r.stdout.firstMatch(of: /This session had ([0-9]+) highlights in ([0-9.]+) s: this part shows it up to ([0-9.]+) s \(the first 10000 highlights\)/))
        #expect(Int(note.1)! > 10_000)
        #expect(r.stdout.contains("<tr id=\"figure-presses\"><th scope=\"row\">Presses</th><td class=\"num\">22</td></tr>"), "the figures count every press")
        // The press list stops at the cut: fewer than 22 rows of accepted presses.
        let listed = r.stdout.components(separatedBy: "<td>accepted → select</td>").count - 1
        #expect(listed > 0 && listed < 22, "\(listed) presses listed")
    }

    // MARK: 6. Nothing silent

    static let noEvents: [(file: String, error: String)] = [
        ("empty.evemu", "empty.evemu: no events: the file is empty, or holds only blank lines and comments; there is nothing to replay (record one with `switchscan record`)"),
        ("blank-lines.evemu", "blank-lines.evemu: no events: the file is empty, or holds only blank lines and comments; there is nothing to replay (record one with `switchscan record`)"),
        ("comments-only.evemu", "comments-only.evemu: no events: the file is empty, or holds only blank lines and comments; there is nothing to replay (record one with `switchscan record`)"),
        ("libinput-no-events.yml", "libinput-no-events.yml: no events: it describes a device but holds no events (no \"E:\" lines, or an empty \"events:\" list); there is nothing to replay"),
        ("header-cut.evemu", "header-cut.evemu:27: no events: the file ends inside this line, before its first event (was it cut short?)"),
    ]

    @Test(arguments: noEvents.indices)
    func recordingWithNoEventsIsAnError(_ k: Int) throws {
        let (file, error) = Self.noEvents[k]
        let r = try CLI.run(["simulate", "--tree", Self.tree, "--profile", "Profiles/single-switch-auto.json", "--events", Self.badInput + file])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr == "switchscan: error: " + Self.badInput + error + "\n")
        #expect(r.stdout.isEmpty)
    }

    /// Every cut of a real recording inside its header (before the first event) is refused, at
    /// every byte: the issue found 36 truncations that ran 5 s of scanning and exited 0.
    @Test func everyCutOfARealRecordingBeforeItsFirstEventIsRefused() throws {
        let bytes = Array(try Data(contentsOf: CLI.packageRoot.appendingPathComponent(Self.session)))
        let firstEvent = try #require(String(decoding: bytes, as: UTF8.self).range(of: "\nE:")).lowerBound.utf16Offset(in: String(decoding: bytes, as: UTF8.self))
        for cut in stride(from: 1, through: firstEvent, by: max(1, firstEvent / 12)) {
            let file = try Self.bytesFile("cut-\(cut).evemu", Array(bytes[..<cut]))
            let r = try CLI.run(["simulate", "--tree", Self.tree, "--profile", "Profiles/single-switch-auto.json", "--events", file])
            #expect(r.status == 2, "cut at \(cut): \(r.stderr)")
            #expect(r.stderr.hasPrefix("switchscan: error: ") && r.stderr.filter { $0 == "\n" }.count == 1, "cut at \(cut): \(r.stderr)")
        }
    }

    static func bytesFile(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = try CLI.tempFile(name, "")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func truncatedRecordingIsAWarningNamingTheLine() throws {
        let r = try CLI.run(["simulate", "--tree", Self.tree, "--profile", "Profiles/single-switch-auto.json", "--events", Self.badInput + "events-cut.evemu", "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "switchscan: warning: \(Self.badInput)events-cut.evemu:54: the file ends inside this line (no line break, and it does not read): the recording was cut short here; the line is left out, the 26 events before it are replayed\n")
        #expect(r.lines.contains("{\"t\":19.500,\"type\":\"filter\",\"switch\":\"KEY_SPACE\",\"decision\":\"accepted\",\"action\":\"select\"}"))
    }

    static let treesWithoutItems = ["no-items-all-disabled.json", "no-items-static-text.json", "no-items-empty-modal.json"]

    @Test(arguments: treesWithoutItems)
    func treeWithNoScanItemsSaysWhyScanningStopped(_ file: String) throws {
        let r = try CLI.run(["simulate", "--tree", Self.badInput + file, "--profile", "Profiles/single-switch-auto.json", "--events", Self.session, "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Array(r.lines.prefix(2)) == ["{\"t\":0.000,\"type\":\"scan\",\"state\":\"started\"}",
                                            "{\"t\":0.000,\"type\":\"scan\",\"state\":\"stopped\",\"reason\":\"noItems\"}"])
        let text = try CLI.run(["simulate", "--tree", Self.badInput + file, "--profile", "Profiles/single-switch-auto.json", "--events", Self.session, "--until", "0"])
        #expect(text.lines == ["   0.000  scan       started", "   0.000  scan       stopped (noItems)"])
    }

    /// A layout change is a line of its own, naming the file; to a tree without items, scanning
    /// then stops and says why.
    @Test func layoutToATreeWithoutItemsIsNamedAndStopsScanningWithTheReason() throws {
        let empty = Self.badInput + "no-items-static-text.json"
        let r = try CLI.run(["simulate", "--tree", Self.tree, "--profile", "Profiles/single-switch-auto.json", "--events", Self.session,
                             "--format", "jsonl", "--until", "2", "--layout", "1.5:" + empty])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.suffix(2) == ["{\"t\":1.500,\"type\":\"tree\",\"change\":\"layout\",\"file\":\"\(empty)\"}",
                                      "{\"t\":1.500,\"type\":\"scan\",\"state\":\"stopped\",\"reason\":\"noItems\"}"])
        let text = try CLI.run(["simulate", "--tree", Self.tree, "--profile", "Profiles/single-switch-auto.json", "--events", Self.session,
                                "--until", "2", "--layout", "1.5:" + empty])
        #expect(text.lines.suffix(2) == ["   1.500  tree       layout \"\(empty)\"", "   1.500  scan       stopped (noItems)"])
    }

    @Test func treeGivenTwiceIsAUsageError() throws {
        let r = try CLI.run(["simulate", "--tree", Self.tree, "--tree", Self.badInput + "no-items-static-text.json", "--events", Self.session])
        #expect(r.status == 2)
        #expect(r.stderr == "switchscan: error: --tree given twice (\"\(Self.tree)\", then \"\(Self.badInput)no-items-static-text.json\"); give it once (see 'switchscan simulate --help')\n")
        #expect(r.stdout.isEmpty)
        let equals = try CLI.run(["calibrate", "--events", Self.session, "--tree=" + Self.tree, "--tree", Self.tree])
        #expect(equals.status == 2 && equals.stderr.contains("--tree given twice"), "\(equals.stderr)")
    }

    static let contradictoryProfiles: [(file: String, warning: String)] = [
        ("profile-group-switches-in-item-mode.json", "profile-group-switches-in-item-mode.json:6:33: switches[1].action: group1 does nothing: scanning.mode is \"item\", and the group switches choose colours only in \"groupSelection\""),
        ("profile-move-repeat-without-next.json", "profile-move-repeat-without-next.json:3:48: scanning.moveRepeat: does nothing: it repeats a held next or previous switch, and no switch is one"),
        ("profile-btn-touch-switch.json", "profile-btn-touch-switch.json:4:26: switches[0].key: BTN_TOUCH is a touchscreen's touch, which goes to the touch accommodations and never to a switch; to make the whole screen one switch, use \"touchAccommodations\": {\"touchAsSwitch\": \"select\"}"),
    ]

    @Test(arguments: contradictoryProfiles.indices)
    func settingThatDoesNothingIsWarned(_ k: Int) throws {
        let (file, warning) = Self.contradictoryProfiles[k]
        let r = try CLI.run(["profiles", "show", Self.badInput + file])
        #expect(r.status == 0)
        #expect(r.stderr.hasPrefix("switchscan: warning: " + Self.badInput + warning + "\n"), "\(r.stderr)")
    }

    /// The dump's notes (no geometry; childIds naming nodes the dump lacks) on every command that
    /// reads the dump, not only `tree import`.
    @Test func dumpNotesAreSaidByEveryCommandThatReadsTheDump() throws {
        let dump = Self.badInput + "cdp-missing-children.json"
        let notes = ["switchscan: note: \(dump): a Chrome DevTools dump has no geometry: no frames, dump order, activation by id, screen set to 1280×800",
                     "switchscan: note: \(dump): 2 childIds name nodes that are not in the dump (a depth-limited dump?); skipped"]
        for arguments in [["tree", "show", dump], ["tree", "audit", dump], ["tree", "stats", dump], ["tree", "import", dump],
                          ["simulate", "--tree", dump, "--events", Self.session, "--profile", "Profiles/single-switch-auto.json"],
                          ["calibrate", "--tree", dump, "--events", Self.session, "--profile", "Profiles/single-switch-auto.json", "--hold", "0", "--ignore", "0", "--debounce", "0"]] {
            let r = try CLI.run(arguments)
            let lines = r.stderr.split(separator: "\n").map(String.init)
            #expect(Array(lines.prefix(2)) == notes, "\(arguments): \(r.stderr)")
        }
        let chromium = "Tests/SwitchFormatsTests/Fixtures/import/realdata/web/chromium-dumpaxtree_commandfor-api-popover-menus-expected-mac.txt"
        let r = try CLI.run(["tree", "stats", chromium])
        #expect(r.stderr.contains("no geometry"), "\(r.stderr)")
    }

    @Test func eGalaxTouchscreenWhosePositionIsOnOtherAxesIsNoted() throws {
        let dir = "Tests/SwitchFormatsTests/Fixtures/recordings/evemu-devices/eGalax_Inc._USB_TouchController"
        let r = try CLI.run(["simulate", "--tree", Self.tree, "--profile", "Profiles/touch-tap-assistance.json", "--events", dir + ".events", "--desc", dir + ".desc"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("\"eGalax Inc. USB TouchController\" reports its touches' movement on ABS_Z and ABS_RX while ABS_X and ABS_Y never move: switchscan reads the position from ABS_X/ABS_Y (or ABS_MT_POSITION_X/Y), so every touch is at one point (those axes are not read)"), "\(r.stderr)")
    }

    // MARK: 7. Misleading messages name the real cause

    @Test func chromiumAuralinuxDumpIsNamedNotInvalidJSON() throws {
        let r = try CLI.run(["tree", "show", Self.badInput + "chromium-auralinux.txt"])
        #expect(r.status == 2)
        #expect(r.stderr == "switchscan: error: \(Self.badInput)chromium-auralinux.txt:1:1: a Chromium accessibility tree dump with Linux (auralinux) roles ([document web], *-expected-auralinux.txt); switchscan reads Chromium's dumps with macOS roles (AXWebArea …, *-expected-mac.txt), or a Chrome DevTools getFullAXTree result\n")
    }

    @Test func touchpadRecordingIsNamedATouchpad() throws {
        let pair = try CLI.run(["simulate", "--tree", Self.tree, "--profile", "Profiles/touch-tap-assistance.json",
                                "--events", Self.badInput + "touchpad.events", "--desc", Self.badInput + "touchpad.desc"])
        #expect(pair.status == 2)
        #expect(pair.stderr == "switchscan: error: \(Self.badInput)touchpad.events: has the touches of a touchpad: \"ITE Tech touchpad (synthetic)\" (in \(Self.badInput)touchpad.desc) has BTN_TOOL_FINGER and no INPUT_PROP_DIRECT; a touchpad moves a pointer and is not a touchscreen, and switchscan takes touches from touchscreens only (switch presses from keys)\n")
        let own = try CLI.run(["simulate", "--tree", Self.tree, "--profile", "Profiles/touch-tap-assistance.json", "--events", Self.badInput + "touchpad.evemu"])
        #expect(own.status == 2)
        #expect(own.stderr.contains("has the touches of a touchpad"), "\(own.stderr)")
        #expect(!own.stderr.contains("the description of the device"))
    }

    @Test func unreadableFileIsNamedBySystemWordsNotNSCocoaErrorDomain() throws {
        let r = try CLI.run(["simulate", "--tree", Self.tree, "--profile", "Profiles/single-switch-auto.json", "--events", "/proc/self/mem"])
        #expect(r.status == 2)
        #expect(r.stderr == "switchscan: error: /proc/self/mem: cannot be read: Input/output error\n")
    }

    @Test func unknownOptionOfRecordIsNamed() throws {
        let r = try CLI.run(["record", "--all"])
        #expect(r.status == 2)
        #expect(r.stderr == "switchscan: error: Unknown option '--all' (see 'switchscan record --help')\n")
    }

    @Test func runWithoutDevInputSaysThereIsNoneInsteadOfSuggestingDevice() throws {
        try #require(!FileManager.default.fileExists(atPath: "/dev/input"), "this machine has /dev/input; umockdev tests cover run there")
        let r = try CLI.run(["run", "--tree", Self.tree, "--profile", "Profiles/single-switch-auto.json", "--until", "1"])
        #expect(r.status == 2)
        #expect(r.stderr.hasSuffix("switchscan: error: /dev/input: does not exist: this system has no evdev input devices (a container, or a virtual machine without them); switchscan reads switches through evdev\n"), "\(r.stderr)")
        #expect(!r.stderr.contains("--device"))
    }

    @Test func negativeNumberAfterAnOptionGetsItsRangeNotMissingValue() throws {
        let until = try CLI.run(["simulate", "--tree", Self.tree, "--events", Self.session, "--until", "-5"])
        #expect(until.status == 2)
        #expect(until.stderr == "switchscan: error: --until must be a number of seconds between 0 and 31536000 (see 'switchscan simulate --help')\n")
        let hold = try CLI.run(["calibrate", "--events", Self.session, "--tree", Self.tree, "--hold", "-1,0"])
        #expect(hold.status == 2)
        #expect(hold.stderr == "switchscan: error: --hold: -1 s is outside holdDuration's range 0…10 s\n")
    }

    // MARK: 8. Real recordings: codes the description lacks are a warning

    @Test func keyTheDescriptionLacksIsAWarningNotARefusal() throws {
        let r = try CLI.run(["simulate", "--tree", Self.tree, "--profile", "Profiles/touch-tap-assistance.json",
                             "--events", Self.badInput + "doubletap-touchscreen.events", "--desc", Self.badInput + "doubletap-touchscreen.desc"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "switchscan: warning: \(Self.badInput)doubletap-touchscreen.events: 2 of its 86 events use codes the description in \(Self.badInput)doubletap-touchscreen.desc of \"Atmel maXTouch Touchscreen\" does not list (the first: BTN_TOOL_DOUBLETAP); the kernel drops those from such a device, and so does the replay\n")
        // The replay is the one without those events (the kernel's view of the recording).
        let plain = try CLI.run(["simulate", "--tree", Self.tree, "--profile", "Profiles/touch-tap-assistance.json",
                                 "--events", "Tests/SwitchFormatsTests/Fixtures/recordings/evemu-devices/Atmel_maXTouch_Touchscreen.1-finger-fast-taps.events",
                                 "--desc", Self.badInput + "doubletap-touchscreen.desc"])
        #expect(r.stdout == plain.stdout && !r.stdout.isEmpty)
    }
}
