import Foundation
import Testing

/// Issue 32, point 4: watching a scan without input, a clinician's first question ("how does
/// auto scanning go over this screen?"). `simulate --until` without a recording, or with an
/// empty one, runs the scan and prints it; a recording with no events and no `--until` stays an
/// error, as does a run with neither.
@Suite("simulate without input")
struct SimulateWithoutInputTests {
    static let tree = "Sources/switchscan/Demo/demo-tree.json"
    static let clean = ["XDG_CONFIG_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-no-config").path]

    /// Auto scanning over the demo screen, one stop a second, nothing pressed.
    static let sixSeconds = """
        {"t":0.000,"type":"scan","state":"started"}
        {"t":0.000,"type":"highlight","id":"edit","label":"Edit, button, Lets you reorder and delete cities.","kind":"item"}
        {"t":1.000,"type":"highlight","id":"add","label":"Add, button, Adds a city.","kind":"item"}
        {"t":2.000,"type":"highlight","id":"search","label":"Search for a city or airport, search field","kind":"item"}
        {"t":3.000,"type":"highlight","id":"cupertino","label":"Cupertino, 18°, Sunny, button","kind":"item"}
        {"t":4.000,"type":"highlight","id":"london","label":"London, 11°, Light rain, button","kind":"item"}
        {"t":5.000,"type":"highlight","id":"tokyo","label":"Tokyo, 22°, Clear, button","kind":"item"}
        {"t":6.000,"type":"highlight","id":"nairobi","label":"Nairobi, 25°, Partly cloudy, button","kind":"item"}

        """

    @Test func untilWithoutARecordingWatchesTheScan() throws {
        let r = try CLI.run(["simulate", "--tree", Self.tree, "--profile", "single-switch-auto", "--until", "6", "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == Self.sixSeconds)
        #expect(r.stderr.isEmpty)
    }

    @Test func anEmptyRecordingWithUntilWatchesTheScan() throws {
        let empty = try CLI.tempFile("watch-empty.evemu", "")
        let comments = try CLI.tempFile("watch-comments.evemu", "# nothing recorded\n\n")
        for events in [empty, comments] {
            let r = try CLI.run(["simulate", "--tree", Self.tree, "--profile", "single-switch-auto", "--events", events, "--until", "6", "--format", "jsonl"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout == Self.sixSeconds)
        }
    }

    @Test func anEmptyRecordingWithoutUntilStaysAnError() throws {
        let empty = try CLI.tempFile("watch-empty-no-until.evemu", "")
        let r = try CLI.run(["simulate", "--tree", Self.tree, "--profile", "single-switch-auto", "--events", empty])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "switchscan: error: \(empty): no events: the file is empty, or holds only blank lines and comments; there is nothing to replay (record one with `switchscan record`)\n")
    }

    @Test func neitherARecordingNorUntilIsAUsageError() throws {
        let r = try CLI.run(["simulate", "--tree", Self.tree])
        #expect(r.status == 2)
        #expect(r.stderr == "switchscan: error: give --events FILE (a recording to replay), or --until SECONDS to watch the scan without input (or --person FILE --targets IDS: a simulated person) (see 'switchscan simulate --help')\n")
        let d = try CLI.run(["simulate", "--tree", Self.tree, "--until", "3", "--desc", "x.desc"])
        #expect(d.status == 2)
        #expect(d.stderr.contains("--desc describes the device of --events; give --events too"))
    }

    @Test func aProfileThatDoesNotScanHasNothingToWatch() throws {
        let r = try CLI.run(["simulate", "--tree", Self.tree, "--profile", "Profiles/touch-tap-assistance.json", "--until", "3"])
        #expect(r.status == 2)
        #expect(r.stderr == "switchscan: error: no recording: no events to replay, and the profile Profiles/touch-tap-assistance.json does not scan (no switch, no touchAsSwitch): there is no scan to watch\n")
    }

    /// Without --profile the default profile is used: it is named, as `run` names it.
    @Test func theProfileUsedIsNamedWithoutProfile() throws {
        let r = try CLI.run(["simulate", "--tree", Self.tree, "--until", "1"], environment: Self.clean)
        #expect(r.status == 0)
        #expect(r.stderr == "switchscan: profile: built-in defaults\n")
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-sim-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: config.appendingPathComponent("switchscan"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: config) }
        try "{\"name\": \"Anna \\u001b[31m\"}".write(to: config.appendingPathComponent("switchscan/profile.json"), atomically: true, encoding: .utf8)
        let d = try CLI.run(["simulate", "--tree", Self.tree, "--until", "1"], environment: ["XDG_CONFIG_HOME": config.path])
        #expect(d.status == 0, "\(d.stderr)")
        #expect(d.stderr == "switchscan: profile: \(config.path)/switchscan/profile.json (\"Anna \\u{1B}[31m\")\n")
    }
}
