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
}
