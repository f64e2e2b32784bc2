import Foundation
import SwitchCore
import Testing

/// `switchscan setup` on an emulated switch (issue 31): the real binary in umockdev, its own
/// XDG_CONFIG_HOME. The scenario answers each prompt once it is printed (after a reaction of
/// about 0.8 s), then selects item 3 of the confirmation when it is printed lit: waits for
/// conditions, never for fixed times alone. Part of `UmockdevTests`, so serialized with it.
extension UmockdevTests {
    static func answer(_ prompt: Int, of n: Int) -> String {
        "mark\nexpect \\[\(prompt)/\(n)\\] ● PRESS NOW\nsleep 800\n" + press("KEY_SPACE")
    }

    /// Item 3 lit → a press 0.25 s later.
    static let selectThree = "mark\nexpect \\[3\\].*← select\nsleep 250\n" + press("KEY_SPACE")

    static let setupScenario = "wait switch test\n" + (1...5).map { answer($0, of: 5) }.joined()
        + String(repeating: selectThree, count: 4) + "sleep 500\n"

    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func setupMeasuresTheSwitchAndWritesTheDefaultProfileKeepingTheOldOne() throws {
        let home = try configHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let folder = home + "/switchscan"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.clinicianProfile.write(toFile: folder + "/profile.json", atomically: true, encoding: .utf8)
        let r = DeviceHarness.live([F.keyboard], scenario: Self.setupScenario,
                                   ["setup", "--presses", "5", "--no-show", "--format", "json"], timeout: 120, env: ["XDG_CONFIG_HOME": home])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let measured = try #require(json["measured"] as? [String: Any])
        #expect(measured["answered"] as? Int == 5)
        let rt = try #require(measured["reactionTime"] as? [String: Any])
        let mean = try #require(rt["mean"] as? Double)
        #expect(mean > 0.75 && mean < 2.0, "\(rt)")
        // The profile written: the clinician's switches, the recommended timing.
        let written = try String(contentsOfFile: folder + "/profile.json", encoding: .utf8)
        let profile = try ProfileDecoder.decode(Array(written.utf8), file: "profile.json")
        #expect(profile.switches.map(\.keyName) == ["KEY_SPACE", "KEY_ENTER"])
        #expect(profile.scanning.autoScanningTime.seconds >= mean / 0.65 - 0.001)
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("profile.json.before-setup-") }
        #expect(kept.count == 1)
        if let old = kept.first { #expect(try String(contentsOfFile: folder + "/" + old, encoding: .utf8) == Self.clinicianProfile) }
        #expect(r.stderrLines.contains { $0.hasPrefix("switchscan: wrote \(folder)/profile.json; the previous profile is kept as ") })
    }

    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func setupWithASwitchNeverPressedEndsAfterTheWaitAndWritesNothing() throws {
        let home = try configHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let r = DeviceHarness.live([F.keyboard], scenario: "wait switch test\nsleep 100\n", ["setup", "--wait", "2", "--no-show"],
                                   timeout: 60, env: ["XDG_CONFIG_HOME": home])
        #expect(r.status == 2)
        #expect(r.stderr.contains("switchscan: error: no press from the switch in 2 s: check that it is plugged in, that it is the one the profile names (KEY_SPACE), and that the person can reach it; nothing written"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home + "/switchscan"))
    }

    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func setupInterruptedWritesNothing() throws {
        let home = try configHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let r = DeviceHarness.live([F.keyboard], scenario: Self.answer(1, of: 20) + "signal INT\n", ["setup", "--no-show"],
                                   timeout: 60, env: ["XDG_CONFIG_HOME": home])
        #expect(r.status == 130)
        #expect(r.stderr.contains("switchscan: setup stopped before it was done; nothing written"))
        #expect(!FileManager.default.fileExists(atPath: home + "/switchscan"))
    }

    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func setupWithNoSwitchSaysSo() throws {
        let home = try configHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let r = DeviceHarness.live([F.touchscreen], scenario: "sleep 100\n", ["setup", "--no-show"], timeout: 60, env: ["XDG_CONFIG_HOME": home])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("switchscan: error: "))
        #expect(!FileManager.default.fileExists(atPath: home + "/switchscan"))
    }
}

extension UmockdevTests {
    /// Adaptive timing in `run` (issue 31): 21 selections early in the first item's dwell (a
    /// window whose presses, 0.2 s, say the person's best is far below 2 s) make scanning a step faster (a `timing` line); at the end of the run
    /// the scan time reached is kept in the default profile, like the menu's settings, that value
    /// alone changed.
    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func adaptiveTimingIsKeptInTheDefaultProfileAtTheEndOfRun() throws {
        let home = try configHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let folder = home + "/switchscan"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let profile = """
            {
              "scanning": { "autoScanningTime": 2.0, "tapBehavior": "alwaysTap" },
              "adaptiveTiming": { "enabled": true }
            }

            """
        try profile.write(toFile: folder + "/profile.json", atomically: true, encoding: .utf8)
        // Each selection: a press 0.2 s into the first item's dwell; the activation lights the
        // first item again (Always Tap), which the next press waits for.
        let select = "mark\n" + Self.press("KEY_SPACE") + "expect \"type\":\"highlight\",\"id\":\"edit\"\nsleep 200\n"
        let scenario = "wait running\nsleep 200\n" + String(repeating: select, count: 21) + "expect \"type\":\"timing\"\nsignal INT\n"
        let r = DeviceHarness.live([F.keyboard], scenario: scenario, ["run", "--tree", tree, "--format", "jsonl"], timeout: 120,
                                   env: ["XDG_CONFIG_HOME": home])
        #expect(r.status == 0, "\(r.stderr)")
        let timing = r.stdoutLines.filter { $0.contains(#""type":"timing""#) }
        #expect(timing.count == 1)
        #expect(timing.first?.contains(#""from":2.0,"to":1.862,"reason":"faster","selections":20,"undone":0,"missed":0"#) == true, "\(timing)")
        #expect(r.stderrLines.contains("switchscan: adaptive timing: autoScanningTime 2.0 s → 1.862 s, saved in \(folder)/profile.json"), "\(r.stderr)")
        #expect(try String(contentsOfFile: folder + "/profile.json", encoding: .utf8) == profile.replacingOccurrences(of: "2.0,", with: "1.862,"))
    }
}
