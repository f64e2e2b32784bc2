import Foundation
import Testing

/// `switchscan simulate` end to end: golden transcripts for every bundled profile over the demo
/// tree and a bundled recording (each checked by reading it once), determinism, options, and
/// bad input.
@Suite("switchscan simulate")
struct SimulateCommandTests {
    static let demo = "Sources/switchscan/Demo/"
    /// Every profile in Profiles/, with the bundled recording that exercises it. The ones that
    /// choose Escape in the scanner menu by timing have recordings retimed for the longer menu of
    /// issue 23 (auto-session, step-session, touch-switch-session, and two-switch-session's one
    /// more press): each still chooses what it chose.
    static let goldenCases: [(profile: String, recording: String)] = [
        ("single-switch-auto", "auto-session"), ("group-scanning", "demo-session"), ("auto-tap", "demo-session"),
        ("single-switch-step", "step-session"), ("long-press-menu", "demo-session"), ("tremor", "demo-session"),
        ("bouncy-switch", "auto-session"), ("two-switch-manual", "two-switch-session"),
        ("touch-tap-assistance", "touch-session"), ("touch-as-switch", "touch-switch-session"),
        // Issue 32: group selection as Android sets it up, two colour switches and nothing else;
        // the two-switch recording's Space and Enter choose blue and red.
        ("group-selection", "two-switch-session"),
    ]

    static func simulate(_ profile: String, _ recording: String, _ extra: [String] = []) throws -> CLIResult {
        try CLI.run(["simulate", "--tree", demo + "demo-tree.json", "--profile", profile,
                     "--events", demo + recording + ".evemu", "--format", "jsonl"] + extra)
    }

    @Test(arguments: goldenCases.map { "\($0.profile) \($0.recording)" })
    func goldenTranscript(_ pair: String) throws {
        let parts = pair.split(separator: " ").map(String.init)
        let r = try Self.simulate(parts[0], parts[1])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        let golden = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Tests/CLITests/Golden/\(parts[0]).jsonl"), encoding: .utf8)
        #expect(r.stdout == golden)
    }

    @Test func everyBundledProfileHasAGoldenTranscript() throws {
        let profiles = try FileManager.default.contentsOfDirectory(atPath: CLI.packageRoot.appendingPathComponent("Profiles").path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        #expect(profiles == Self.goldenCases.map(\.profile).sorted())
    }

    @Test func twoRunsPrintByteIdenticalOutput() throws {
        for format in ["jsonl", "text"] {
            let a = try Self.simulate("group-scanning", "demo-session", ["--format", format])
            let b = try Self.simulate("group-scanning", "demo-session", ["--format", format])
            #expect(a.status == 0 && b.status == 0)
            #expect(a.stdout == b.stdout)
            #expect(!a.stdout.isEmpty)
        }
    }

    @Test func theDemoPrintsItsTranscript() throws {
        let r = try CLI.run(["demo"])
        #expect(r.status == 0)
        let golden = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Tests/CLITests/Golden/demo.txt"), encoding: .utf8)
        #expect(r.stdout == golden)
        #expect(r.stderr.hasPrefix("switchscan demo: One switch, group scanning"))
    }

    @Test func untilEndsTheRun() throws {
        let r = try Self.simulate("single-switch-auto", "demo-session", ["--until", "2.5"])
        #expect(r.status == 0)
        #expect(r.lines == [
            "{\"t\":0.000,\"type\":\"scan\",\"state\":\"started\"}",
            "{\"t\":0.000,\"type\":\"highlight\",\"id\":\"edit\",\"label\":\"Edit, button, Lets you reorder and delete cities.\",\"kind\":\"item\"}",
            "{\"t\":1.000,\"type\":\"highlight\",\"id\":\"add\",\"label\":\"Add, button, Adds a city.\",\"kind\":\"item\"}",
            "{\"t\":2.000,\"type\":\"highlight\",\"id\":\"search\",\"label\":\"Search for a city or airport, search field\",\"kind\":\"item\"}",
        ])
    }

    @Test func withoutUntilARunEndsWhenNothingIsPending() throws {
        // One press of Space at 0.5 s: auto scanning goes on in the menu it opened, but the run
        // ends 5 s after the last input while timers are still pending. (A recording with no
        // events at all is an error since issue 22.)
        let one = try CLI.tempFile("one-press.evemu", "E: 0.500000 0001 0039 1\nE: 0.500000 0000 0000 0\nE: 0.600000 0001 0039 0\nE: 0.600000 0000 0000 0\n")
        let r = try CLI.run(["simulate", "--tree", Self.demo + "demo-tree.json", "--profile", "single-switch-auto", "--events", one, "--format", "jsonl"])
        #expect(r.status == 0)
        #expect(r.lines.count == 10)   // scan started, edit, the press, the menu, then its entries at 0.5 … 5.5 s
        #expect(r.lines.last == "{\"t\":5.500,\"type\":\"highlight\",\"id\":\"menu:escape\",\"label\":\"Escape\",\"kind\":\"menuItem\"}")
        // Manual scanning has no timers: the run ends at the last input.
        let manual = try CLI.run(["simulate", "--tree", Self.demo + "demo-tree.json", "--profile", "two-switch-manual", "--events", one, "--format", "jsonl"])
        #expect(manual.lines.count == 4)
        #expect(manual.lines.last == "{\"t\":0.500,\"type\":\"highlight\",\"id\":\"add\",\"label\":\"Add, button, Adds a city.\",\"kind\":\"item\"}")
    }

    @Test func aLayoutChangeLoadsANewTreeMidScan() throws {
        let second = try CLI.tempFile("second.json", """
        {"screen": {"width": 390, "height": 844}, "root": {"frame": [0, 0, 390, 844], "children": [
          {"id": "search", "label": "Search", "traits": ["searchField"], "frame": [16, 60, 358, 36]},
          {"id": "done", "label": "Done", "traits": ["button"], "frame": [16, 120, 100, 44]}
        ]}}
        """)
        let r = try Self.simulate("single-switch-auto", "demo-session", ["--until", "3", "--layout", "2.5:" + second])
        #expect(r.status == 0)
        #expect(r.lines.suffix(4) == [
            "{\"t\":2.700,\"type\":\"filter\",\"switch\":\"KEY_SPACE\",\"decision\":\"accepted\",\"action\":\"select\"}",
            "{\"t\":2.700,\"type\":\"menu\",\"open\":true,\"id\":\"search\",\"label\":\"Search, search field\",\"items\":[\"menu:tap\",\"menu:gestures\",\"menu:device\",\"menu:shortcuts\",\"menu:settings\",\"menu:escape\",\"menu:close\"],\"labels\":[\"Tap\",\"Gestures\",\"Device\",\"Shortcuts\",\"Settings\",\"Escape\",\"Close menu\"]}",
            "{\"t\":2.700,\"type\":\"highlight\",\"id\":\"menu:tap\",\"label\":\"Tap\",\"kind\":\"menuItem\"}",
            "{\"t\":2.712,\"type\":\"filter\",\"switch\":\"KEY_SPACE\",\"decision\":\"rejected\",\"reason\":\"debounce\"}",
        ])
        // The change is named (issue 22: a --layout left no line), and the highlight stayed on
        // "search" (same id): no other line at 2.5.
        #expect(r.lines.filter { $0.hasPrefix("{\"t\":2.500") } == ["{\"t\":2.500,\"type\":\"tree\",\"change\":\"layout\",\"file\":\"\(second)\"}"])
    }

    @Test func badInputIsOneClearLineAndStatusTwo() throws {
        let tree = Self.demo + "demo-tree.json", events = Self.demo + "demo-session.evemu"
        let badProfile = try CLI.tempFile("bad-profile.json", "{\"scanning\": {\"loops\": 0}}")
        let badEvents = try CLI.tempFile("bad.evemu", "E: 0.1 0001 zz 1\n")
        let cases: [([String], String)] = [
            (["--tree", "/nonexistent.json", "--profile", "single-switch-auto", "--events", events], "switchscan: error: /nonexistent.json: no such file"),
            (["--tree", tree, "--profile", badProfile, "--events", events], "switchscan: error: \(badProfile):1:24: scanning.loops: 0 is not a whole number in 1…100"),
            (["--tree", tree, "--profile", "no-such-profile", "--events", events], "switchscan: error: no-such-profile: no such profile file or profile name; profiles available by name: auto-tap"),
            (["--tree", tree, "--profile", "single-switch-auto", "--events", badEvents], "switchscan: error: \(badEvents):1"),
            (["--tree", tree, "--profile", "single-switch-auto", "--events", events, "--layout", "soon:" + tree], "switchscan: error: --layout: expected SECONDS:FILE, e.g. 2.5:second-screen.json, found \"soon:\(tree)\""),
        ]
        for (args, prefix) in cases {
            let r = try CLI.run(["simulate"] + args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stdout.isEmpty)
            #expect(r.stderr.hasPrefix(prefix), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1)
        }
    }
}
