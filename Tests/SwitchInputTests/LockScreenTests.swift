import Foundation
import SwitchCore
import TestPrograms
import Testing

/// Lock screen from the scanner menu (issue 23, Sources/switchscan/Live/LockScreen.swift): `run`
/// asks loginctl for the user's graphical session and locks it. A stub `loginctl` first on PATH
/// records its arguments and answers session 7. Part of `UmockdevTests`, so serialized with it.
extension UmockdevTests {
    static let lockProfile = """
        { "scanning": { "style": "auto", "autoScanningTime": 3.0 },
          "switches": [ { "key": "KEY_SPACE", "action": "select" }, { "key": "KEY_ENTER", "action": "next" } ],
          "menu": { "show": ["menu:lockScreen"] } }
        """

    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func lockScreenRunsLoginctlOnTheUsersSession() throws {
        let dir = NSTemporaryDirectory() + "switchscan-lock-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/bin", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let stub = dir + "/bin/loginctl"
        try """
            #!/bin/sh
            echo "$*" >> \(dir)/calls
            [ "$1" = show-user ] && echo 7
            exit 0

            """.write(toFile: stub, atomically: true, encoding: .utf8)
        chmod(stub, 0o755)
        let profile = dir + "/profile.json"
        try Self.lockProfile.write(toFile: profile, atomically: true, encoding: .utf8)
        // The menu on the first item, Device (Enter ×2), its Lock screen (Enter ×3), chosen.
        let scenario = DeviceHarness.started + Self.press("KEY_SPACE") + String(repeating: Self.press("KEY_ENTER"), count: 2)
            + Self.press("KEY_SPACE") + String(repeating: Self.press("KEY_ENTER"), count: 3) + Self.press("KEY_SPACE") + "settle\nsignal INT\n"
        let r = DeviceHarness.live([F.keyboard], scenario: scenario, ["run", "--tree", tree, "--profile", profile, "--format", "jsonl"],
                                   env: ["PATH": dir + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "USER": "person"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = untimed(r.stdoutLines)
        #expect(lines.contains(#"{"type":"menu","open":true,"id":"edit","label":"Edit, button, Lets you reorder and delete cities.","submenu":"menu:device","items":["menu:volumeUp","menu:volumeDown","menu:mute","menu:lockScreen","menu:back","menu:close"],"labels":["Volume up","Volume down","Mute","Lock screen","Back","Close menu"]}"#), "\(r.stdout)")
        #expect(lines.contains(#"{"type":"perform","action":"lockScreen","id":"edit","label":"Edit, button, Lets you reorder and delete cities."}"#))
        #expect(lines.contains(#"{"type":"result","action":"lockScreen","id":"edit","label":"Edit, button, Lets you reorder and delete cities.","result":"done","how":"loginctl lock-session 7"}"#))
        #expect(try String(contentsOfFile: dir + "/calls", encoding: .utf8) == "show-user person -p Display --value\nlock-session 7\n")
    }

    /// Without a graphical session, or without loginctl, the result line says so.
    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func lockScreenWithoutASessionSaysWhy() throws {
        let dir = NSTemporaryDirectory() + "switchscan-lock-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/bin", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "#!/bin/sh\nexit 0\n".write(toFile: dir + "/bin/loginctl", atomically: true, encoding: .utf8)
        chmod(dir + "/bin/loginctl", 0o755)
        let profile = dir + "/profile.json"
        try Self.lockProfile.write(toFile: profile, atomically: true, encoding: .utf8)
        let scenario = DeviceHarness.started + Self.press("KEY_SPACE") + String(repeating: Self.press("KEY_ENTER"), count: 2)
            + Self.press("KEY_SPACE") + String(repeating: Self.press("KEY_ENTER"), count: 3) + Self.press("KEY_SPACE") + "settle\nsignal INT\n"
        let r = DeviceHarness.live([F.keyboard], scenario: scenario, ["run", "--tree", tree, "--profile", profile, "--format", "jsonl"],
                                   env: ["PATH": dir + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "USER": "person"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(untimed(r.stdoutLines).contains(#"{"type":"result","action":"lockScreen","id":"edit","label":"Edit, button, Lets you reorder and delete cities.","result":"failed","reason":"person has no graphical session to lock (loginctl show-user person -p Display is empty)"}"#), "\(r.stdout)")
    }
}
