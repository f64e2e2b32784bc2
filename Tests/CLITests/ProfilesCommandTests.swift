import Foundation
import Testing

/// Profiles where Linux users look (issue 13, part 2): by name from $XDG_CONFIG_HOME, then the
/// installed share folder (scripts/install-tests checks that one), then ./Profiles; the default
/// profile; `profiles` and `profiles show`.
@Suite("switchscan profiles")
struct ProfilesCommandTests {
    /// A scratch home and config folder, and a working directory without Profiles/.
    struct Home {
        let root: URL
        var config: URL { root.appendingPathComponent("config/switchscan") }
        var cwd: URL { root.appendingPathComponent("elsewhere") }
        var environment: [String: String] { ["HOME": root.path, "XDG_CONFIG_HOME": root.appendingPathComponent("config").path, "SWITCHSCAN_PROFILES": ""] }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-home-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("config/switchscan/profiles"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: root.appendingPathComponent("elsewhere"), withIntermediateDirectories: true)
        }

        func write(_ relative: String, _ text: String) throws {
            try text.write(to: config.appendingPathComponent(relative), atomically: true, encoding: .utf8)
        }

        func run(_ args: [String], stdin: Data? = nil) throws -> CLIResult {
            try CLI.run(args, cwd: cwd, environment: environment, stdin: stdin)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    static let tree = CLI.packageRoot.appendingPathComponent(CLI.demoTree).path
    static let events = CLI.packageRoot.appendingPathComponent("Sources/switchscan/Demo/two-switch-session.evemu").path
    static func simulate(_ home: Home, _ profile: [String], stdin: Data? = nil) throws -> CLIResult {
        try home.run(["simulate", "--tree", tree, "--events", events, "--format", "jsonl"] + profile, stdin: stdin)
    }

    @Test func userProfilesComeFirstAndAreListedWithTheirSource() throws {
        let home = try Home()
        defer { home.remove() }
        try home.write("profiles/mine.json", #"{"name": "Mine", "switches": [{"key": "KEY_ENTER", "action": "select"}]}"#)
        try home.write("profiles/tremor.json", #"{"name": "My tremor"}"#)
        let r = try home.run(["profiles"])
        #expect(r.status == 0, "\(r.stderr)")
        let user = home.config.appendingPathComponent("profiles").path
        let bundled = CLI.packageRoot.appendingPathComponent("Profiles").path
        #expect(r.lines.first == "NAME                  SOURCE      FILE  (TITLE)")
        #expect(r.lines.contains("mine                  user        \(user)/mine.json  (Mine)"))
        #expect(r.lines.contains("tremor                user        \(user)/tremor.json  (My tremor)"))
        #expect(r.lines.contains("                                  hides \(bundled)/tremor.json"))
        #expect(r.lines.contains("auto-tap              build tree  \(bundled)/auto-tap.json  (One switch, auto scanning, auto tap)"))
        #expect(r.lines.last == "default profile: \(home.config.path)/profile.json (absent: the built-in defaults are used)")
        // By name, from a directory without Profiles/: the user's file wins.
        let shown = try home.run(["profiles", "show", "tremor"])
        #expect(shown.stdout.contains("\"name\": \"My tremor\""))
        #expect(shown.stderr == "switchscan: \(user)/tremor.json\n")
        #expect(try home.run(["profiles", "show", "mine"]).stdout.contains("\"key\": \"KEY_ENTER\""))
    }

    @Test func theListInJSON() throws {
        let home = try Home()
        defer { home.remove() }
        try home.write("profile.json", "{}")
        let r = try home.run(["profiles", "--format", "json"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("\"source\": \"build tree\""))
        #expect(r.stdout.contains("\"default\": {\n    \"path\": \"\(home.config.path)/profile.json\",\n    \"exists\": true\n  }"))
    }

    /// The default profile replaces a missing --profile; without it, the built-in defaults
    /// (which single-switch-auto spells out) are used.
    @Test func theDefaultProfileIsUsedWithoutProfile() throws {
        let home = try Home()
        defer { home.remove() }
        let builtIn = try Self.simulate(home, [])
        #expect(builtIn.status == 0, "\(builtIn.stderr)")
        #expect(builtIn.stdout == (try Self.simulate(home, ["--profile", "single-switch-auto"])).stdout)
        let manual = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Profiles/two-switch-manual.json"), encoding: .utf8)
        try home.write("profile.json", manual)
        let withDefault = try Self.simulate(home, [])
        #expect(withDefault.stdout == (try Self.simulate(home, ["--profile", "two-switch-manual"])).stdout)
        #expect(withDefault.stdout != builtIn.stdout)
        // `tree stats` and `profiles show` use it too.
        #expect(try home.run(["profiles", "show"]).stdout.contains("\"style\": \"manual\""))
        // A broken default profile is an error naming it, not a silent fallback.
        try home.write("profile.json", #"{"scanning": {"style": "sideways"}}"#)
        let broken = try Self.simulate(home, [])
        #expect(broken.status == 2)
        #expect(broken.stderr.hasPrefix("switchscan: error: \(home.config.path)/profile.json:1:24: scanning.style"))
    }

    /// What `profiles show` prints is a complete profile: read back (from standard input) it
    /// drives the engine exactly as the original does.
    @Test(arguments: ["single-switch-auto", "two-switch-manual", "long-press-menu", "touch-as-switch", "tremor", "bouncy-switch"])
    func showPrintsAProfileThatReadsBackTheSame(_ name: String) throws {
        let home = try Home()
        defer { home.remove() }
        let shown = try home.run(["profiles", "show", name])
        #expect(shown.status == 0)
        for key in ["\"autoScanningTime\"", "\"debounce\"", "\"tapAssistanceGestureDelay\"", "\"touchAsSwitch\"", "\"devices\""] {
            #expect(shown.stdout.contains(key), "\(key) missing")
        }
        let original = try Self.simulate(home, ["--profile", name])
        let readBack = try Self.simulate(home, ["--profile", "-"], stdin: Data(shown.stdout.utf8))
        // The demo's key presses cannot reach the touchscreen-as-switch profile: both runs say so
        // (issue 12: a run that can do nothing exits non-zero).
        #expect(readBack.status == (name == "touch-as-switch" ? 2 : 0), "\(readBack.stderr)")
        #expect(readBack.status == original.status)
        #expect(readBack.stdout == original.stdout)
    }

    @Test func anUnknownNameListsTheAvailableOnes() throws {
        let home = try Home()
        defer { home.remove() }
        let r = try home.run(["profiles", "show", "tremr"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("switchscan: error: tremr: no such profile file or profile name; profiles available by name: auto-tap, bouncy-switch,"))
    }
}
