import Foundation
import SwitchCore
import TestPrograms
import Testing

/// Settings the person changes from the scanner menu, kept by `run` (issue 23,
/// Sources/switchscan/Live/SettingsSaving.swift): the real binary on an emulated keyboard, with
/// its own XDG_CONFIG_HOME. Part of `UmockdevTests`, so serialized with it.
extension UmockdevTests {
    /// A clinician's default profile: auto scanning every 2 s, Space selects, Enter moves on (so
    /// the menu is reached by presses, whatever the machine's load), Slower adds 0.5 s.
    static let clinicianProfile = """
        {
          "name": "Two switches, slow auto",
          "scanning": { "style": "auto", "autoScanningTime": 2.0, "loops": 2 },
          "switches": [ { "key": "KEY_SPACE", "action": "select" }, { "key": "KEY_ENTER", "action": "next" } ],
          "menu": { "speedStep": 0.5, "top": ["menu:shortcut:copy"] }
        }

        """

    static func press(_ key: String) -> String {
        "press /dev/input/event10 \(key)\nsleep 60\nrelease /dev/input/event10 \(key)\nsleep 150\n"
    }

    /// The menu on the first item, its Settings page, Slower chosen `times` times (Enter moves, Space selects).
    static func slower(_ times: Int) -> String {
        DeviceHarness.started + press("KEY_SPACE")                              // the menu on edit
            + String(repeating: press("KEY_ENTER"), count: 5)                           // Copy, Gestures, Device, Shortcuts, Settings
            + press("KEY_SPACE") + press("KEY_ENTER")                                   // the page, on Slower
            + String(repeating: press("KEY_SPACE"), count: times) + "settle\nsignal INT\n"
    }

    func configHome() throws -> String {
        let dir = NSTemporaryDirectory() + "switchscan-config-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Acceptance: Slower three times in `run`; the next `run` with the default profile scans
    /// that much slower, and the file is the clinician's but for that one value.
    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func slowerThreeTimesIsStillSlowerNextTime() throws {
        let home = try configHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let path = home + "/switchscan/profile.json"
        try FileManager.default.createDirectory(atPath: home + "/switchscan", withIntermediateDirectories: true)
        try Self.clinicianProfile.write(toFile: path, atomically: true, encoding: .utf8)
        let env = ["XDG_CONFIG_HOME": home]
        let before = DeviceHarness.run([DeviceHarness.binary, "profiles", "show"], timeout: 20, env: env)
        #expect(before.status == 0, "\(before.stderr)")

        let r = DeviceHarness.live([F.keyboard], scenario: Self.slower(3), ["run", "--tree", tree, "--format", "jsonl"], env: env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutLines.filter { $0.contains(#""type":"setting""#) }.map { $0.replacingOccurrences(of: #"^\{"t":[0-9.]+,"#, with: "{", options: .regularExpression) } == [
            #"{"type":"setting","name":"autoScanningTime","from":2.0,"to":2.5}"#,
            #"{"type":"setting","name":"autoScanningTime","from":2.5,"to":3.0}"#,
            #"{"type":"setting","name":"autoScanningTime","from":3.0,"to":3.5}"#,
        ])
        #expect(r.stderrLines.filter { $0.contains("saved in") } == [
            "switchscan: autoScanningTime 2.0 s → 2.5 s, saved in \(path)",
            "switchscan: autoScanningTime 2.5 s → 3.0 s, saved in \(path)",
            "switchscan: autoScanningTime 3.0 s → 3.5 s, saved in \(path)",
        ])
        // The file: the clinician's, byte for byte, but the one value; `profiles show` differs
        // in that line only.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.clinicianProfile.replacingOccurrences(of: "2.0,", with: "3.5,"))
        let after = DeviceHarness.run([DeviceHarness.binary, "profiles", "show"], timeout: 20, env: env)
        #expect(after.status == 0, "\(after.stderr)")
        let changed = zip(before.stdoutLines, after.stdoutLines).filter { $0 != $1 }
        #expect(changed.map { "\($0.0) → \($0.1.trimmingCharacters(in: .whitespaces))" } == [#"    "autoScanningTime": 2, → "autoScanningTime": 3.5,"#])
        #expect(before.stdoutLines.count == after.stdoutLines.count)

        // Started again with the default profile: the highlight rests 3.5 s on the first item.
        let again = DeviceHarness.live([F.keyboard], scenario: "wait running\nwait \"id\":\"add\"\nsignal INT\n",
                                       ["run", "--tree", tree, "--format", "jsonl"], timeout: 30, env: env)
        #expect(again.status == 0, "\(again.stderr)")
        let highlights = again.stdoutLines.filter { $0.contains(#""type":"highlight""#) }.compactMap(time)
        #expect(highlights.count == 2)
        if highlights.count == 2 { #expect(abs(highlights[1] - highlights[0] - 3.5) < 0.05, "\(again.stdout)") }
    }

    /// A profile given with --profile is never rewritten: the change lasts for the session, and
    /// stderr says so.
    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func aProfileGivenWithProfileIsNeverRewritten() throws {
        let home = try configHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let given = home + "/clinician.json"
        try Self.clinicianProfile.write(toFile: given, atomically: true, encoding: .utf8)
        let r = DeviceHarness.live([F.keyboard], scenario: Self.slower(1), ["run", "--tree", tree, "--profile", given, "--format", "jsonl"],
                                   env: ["XDG_CONFIG_HOME": home])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutLines.contains { $0.hasSuffix(#""type":"setting","name":"autoScanningTime","from":2.0,"to":2.5}"#) })
        #expect(r.stderrLines.contains("switchscan: autoScanningTime 2.0 s → 2.5 s for this session only: \(given) was given with --profile, and such a profile is never rewritten"))
        #expect(try String(contentsOfFile: given, encoding: .utf8) == Self.clinicianProfile)
        #expect(!FileManager.default.fileExists(atPath: home + "/switchscan"))
    }

    /// No default profile yet: it and its folder are made, holding the changed setting alone (the
    /// built-in defaults: one switch, 1 s auto scanning, so each press waits for its entry).
    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func withoutADefaultProfileItIsMadeWithTheSettingAlone() throws {
        let home = try configHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let env = ["XDG_CONFIG_HOME": home + "/config"]
        let scenario = "wait running\nwait \"id\":\"edit\"\n" + Self.press("KEY_SPACE")
            + "wait \"id\":\"menu:settings\"\n" + Self.press("KEY_SPACE")
            + "wait \"id\":\"menu:slower\"\n" + Self.press("KEY_SPACE") + "settle\nsignal INT\n"
        let r = DeviceHarness.live([F.keyboard], scenario: scenario, ["run", "--tree", tree, "--format", "jsonl"], env: env)
        #expect(r.status == 0, "\(r.stderr)")
        let path = home + "/config/switchscan/profile.json"
        #expect(r.stderrLines.contains("switchscan: autoScanningTime 1.0 s → 1.1 s, saved in \(path)"), "\(r.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\n  \"scanning\": { \"autoScanningTime\": 1.1 }\n}\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: home + "/config/switchscan")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }
}
