import Foundation
import Testing

/// `simulate` never writes a setting the person changed from the scanner menu: its transcript has
/// the same `setting` line as `run`'s, and stderr says whether `run` would have saved it
/// (issue 23, Sources/switchscan/Live/SettingsSaving.swift).
@Suite("simulate: settings from the menu")
struct MenuSettingsCLITests {
    /// One switch, 1 s auto scanning over the demo tree: the menu on Edit at 0.5 s, Settings
    /// (its fifth entry, 4.5–5.5 s) at 5.0, Slower (6.0–7.0 s) at 6.5.
    static func recording() throws -> String {
        let demo = try String(contentsOfFile: CLI.packageRoot.appendingPathComponent("Sources/switchscan/Demo/demo-session.evemu").path, encoding: .utf8)
        let head = demo.split(separator: "\n").filter { !$0.hasPrefix("E:") }.joined(separator: "\n")
        let presses = [0.5, 5.0, 6.5].map { t in
            String(format: "E: %.6f 0001 0039 1\nE: %.6f 0000 0000 0\nE: %.6f 0001 0039 0\nE: %.6f 0000 0000 0", t, t, t + 0.1, t + 0.1)
        }
        return try CLI.tempFile("slower.evemu", head + "\n" + presses.joined(separator: "\n") + "\n")
    }

    static func simulate(_ extra: [String], config: String) throws -> CLIResult {
        try CLI.run(["simulate", "--tree", "Sources/switchscan/Demo/demo-tree.json", "--events", try recording(), "--format", "jsonl", "--until", "8"] + extra,
                    environment: ["XDG_CONFIG_HOME": config])
    }

    @Test func theDefaultProfileWouldBeSavedButIsNot() throws {
        let config = NSTemporaryDirectory() + "switchscan-sim-\(UUID().uuidString)"
        let r = try Self.simulate([], config: config)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.contains(#"{"t":6.500,"type":"setting","name":"autoScanningTime","from":1.0,"to":1.1}"#), "\(r.stdout)")
        // Without --profile the profile used is named first (issue 32), as `run` names it.
        #expect(r.stderr == "switchscan: profile: built-in defaults\nswitchscan: autoScanningTime 1.0 s → 1.1 s: not saved (simulate never writes; run would save it in \(config)/switchscan/profile.json)\n")
        #expect(!FileManager.default.fileExists(atPath: config))
    }

    @Test func aProfileGivenWithProfileWouldOnlyLastTheSession() throws {
        let config = NSTemporaryDirectory() + "switchscan-sim-\(UUID().uuidString)"
        let r = try Self.simulate(["--profile", "single-switch-auto"], config: config)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.contains(#"{"t":6.500,"type":"setting","name":"autoScanningTime","from":1.0,"to":1.1}"#))
        #expect(r.stderr == "switchscan: autoScanningTime 1.0 s → 1.1 s: not saved (simulate never writes; run would keep it for its session only: a profile given with --profile is never rewritten)\n")
    }
}
