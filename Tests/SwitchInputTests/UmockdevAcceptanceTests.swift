import Foundation
import SwitchCore
import TestPrograms
import Testing

/// The issue's acceptance on the device path, through the real binary on emulated nodes: a device
/// removed mid-press or mid-contact ends it without firing anything (each next to the same
/// scenario with a release, which does fire, so the check can fail), events queued before the
/// engine starts are processed, SIGHUP loads the new tree (and keeps the old one when the new one
/// is bad). Part of `UmockdevTests`, so serialized with it. Grab release on every way out is
/// checked where a grab is observable, in the VM (`vm-inside.sh`).
extension UmockdevTests {
    var longPressProfile: String { DeviceHarness.repoRoot + "/Profiles/long-press-menu.json" }
    var touchProfile: String { DeviceHarness.fixtures + "/profile-touch.json" }

    /// `{"t":1.234,"type":…}` → `{"type":…}`.
    func untimed(_ lines: [String]) -> [String] {
        lines.map { $0.replacingOccurrences(of: #"^\{"t":[0-9.]+,"#, with: "{", options: .regularExpression) }
    }

    func time(_ line: String) -> Double? {
        guard let m = line.firstMatch(of: /^\{"t":([0-9.]+),/) else { return nil }
        return Double(m.1)
    }

    /// Long press (1 s) on select: a press decides nothing until it is released or held long
    /// enough. Unplugged 200 ms into the press: no filter line, no action, no menu; scanning goes on.
    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func removedMidLongPressFiresNothing() throws {
        let r = DeviceHarness.live([F.oneKeySwitch], scenario: """
            wait running
            press /dev/input/event2 KEY_SPACE
            sleep 200
            remove /sys/devices/virtual/input/input102/event2
            wait device removed
            sleep 1500
            signal INT
            """, ["run", "--tree", tree, "--profile", longPressProfile, "--format", "jsonl", "--show-frames"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.frames == ["/dev/input/event2 KEY_SPACE 1"])
        let lines = untimed(r.stdoutLines)
        #expect(Array(lines.prefix(3)) == [#"{"type":"scan","state":"started"}"#, #"{"type":"highlight","id":"edit","label":"Edit, button, Lets you reorder and delete cities.","kind":"item"}"#,
                                           #"{"type":"device","change":"removed","name":"Test One-Key Switch","node":"/dev/input/event2"}"#])
        #expect(lines.dropFirst(3).allSatisfy { $0.hasPrefix(#"{"type":"highlight""#) }, "\(r.stdout)")
        // The engine kept running: the next scan step came after the removal.
        let removedAt = try #require(r.stdoutLines.first { $0.contains(#""change":"removed""#) }.flatMap(time))
        #expect(r.stdoutLines.contains { $0.contains(#""type":"highlight""#) && (time($0) ?? 0) > removedAt })
    }

    /// The same scenario with a release instead of the unplug selects: the check above can fail.
    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func releasedShortPressSelects() {
        let r = DeviceHarness.live([F.oneKeySwitch], scenario: """
            wait running
            press /dev/input/event2 KEY_SPACE
            sleep 200
            release /dev/input/event2 KEY_SPACE
            sleep 300
            signal INT
            """, ["run", "--tree", tree, "--profile", longPressProfile, "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Array(untimed(r.stdoutLines).dropFirst(2).prefix(2)) == [
            #"{"type":"filter","switch":"KEY_SPACE","decision":"accepted","action":"select"}"#,
            #"{"type":"perform","action":"activate","id":"edit","label":"Edit, button, Lets you reorder and delete cities.","point":[38,73]}"#,
        ])
    }

    static let touchDown = """
        event /dev/input/event5 EV_ABS ABS_MT_TRACKING_ID 7
        event /dev/input/event5 EV_ABS ABS_MT_POSITION_X 200
        event /dev/input/event5 EV_ABS ABS_MT_POSITION_Y 300
        event /dev/input/event5 EV_KEY BTN_TOUCH 1
        event /dev/input/event5 EV_ABS ABS_X 200
        event /dev/input/event5 EV_ABS ABS_Y 300
        event /dev/input/event5 EV_SYN SYN_REPORT 0
        """

    /// A contact held past the hold duration (0.1 s) is a tap when lifted; unplugged instead, it
    /// ends as nothing: the transcript is the removal alone.
    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func touchscreenRemovedMidContactTapsNothing() {
        let r = DeviceHarness.live([F.touchscreen], scenario: """
            wait running
            \(Self.touchDown)
            sleep 300
            remove /sys/devices/virtual/input/input105/event5
            wait device removed
            sleep 500
            signal INT
            """, ["run", "--tree", tree, "--profile", touchProfile, "--device", F.touchscreen.node, "--format", "jsonl", "--show-frames"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.frames.count == 1)
        #expect(untimed(r.stdoutLines) == [#"{"type":"device","change":"removed","name":"Test MT Touchscreen","node":"/dev/input/event5"}"#])
    }

    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func touchLiftedAfterTheHoldIsATap() {
        let r = DeviceHarness.live([F.touchscreen], scenario: """
            wait running
            \(Self.touchDown)
            sleep 300
            event /dev/input/event5 EV_ABS ABS_MT_TRACKING_ID -1
            event /dev/input/event5 EV_KEY BTN_TOUCH 0
            event /dev/input/event5 EV_SYN SYN_REPORT 0
            sleep 200
            signal INT
            """, ["run", "--tree", tree, "--profile", touchProfile, "--device", F.touchscreen.node, "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(untimed(r.stdoutLines) == [#"{"type":"touch","decision":"tap","point":[40.646,234.662],"id":null,"label":null,"contact":7}"#])
    }

    /// umockdev writes the first events of the file when it starts, before switchscan has even
    /// opened the node: they wait in the node and are processed at the start (t = 0 + the time of
    /// the first read), not dropped.
    @Test func eventsQueuedBeforeStartAreProcessed() throws {
        let r = DeviceHarness.umockdev([F.oneKeySwitch], events: [F.oneKeySwitch.node: "switch-at-start.events"],
                                       runArgs + ["--until", "0.6", "--show-frames", "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.frames == ["/dev/input/event2 KEY_SPACE 1", "/dev/input/event2 KEY_SPACE 0"])
        let accepted = try #require(r.stdoutLines.first { $0.contains(#""decision":"accepted""#) })
        #expect(untimed([accepted]) == [#"{"type":"filter","switch":"KEY_SPACE","decision":"accepted","action":"select"}"#])
        #expect((time(accepted) ?? 1) < 0.3)
    }

    /// Presses read late keep their own times (issue 18's lost press): switchscan is stopped
    /// (SIGSTOP, as a loaded machine's scheduler or a slow AT-SPI call holds the loop), three taps
    /// 100 ms apart reach the device, then it goes on and reads them in one batch. With the
    /// default debounce (25 ms) all three move the highlight, 100 ms apart: stamped by the read
    /// they were one instant, and debounce swallowed two of them as contact chatter.
    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func pressesReadLateKeepTheirSpacing() throws {
        let dir = NSTemporaryDirectory() + "switchscan-late-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let profile = dir + "/next.json"
        try #"{"scanning": {"style": "manual"}, "switches": [{"key": "KEY_SPACE", "action": "next"}, {"key": "KEY_ENTER", "action": "select"}]}"#
            .write(toFile: profile, atomically: true, encoding: .utf8)
        let tap = "press /dev/input/event10 KEY_SPACE\nrelease /dev/input/event10 KEY_SPACE\nsleep 100\n"
        let log = dir + "/written"
        let r = DeviceHarness.live([F.keyboard], scenario: DeviceHarness.started + "signal STOP\n" + tap + tap + tap
                                   + "signal CONT\nsettle\nsignal INT\n",
                                   ["run", "--tree", tree, "--profile", profile, "--format", "jsonl"], log: log)
        #expect(r.status == 0, "\(r.stderr)")
        let filters = r.stdoutLines.filter { $0.contains(#""type":"filter""#) }
        #expect(untimed(filters) == Array(repeating: #"{"type":"filter","switch":"KEY_SPACE","decision":"accepted","action":"next"}"#, count: 3),
                "\(r.stdout)")
        // The presses' spacing as written (100 ms, more when the driver is late on a loaded
        // machine), against the spacing the engine gave them, read all at once after SIGCONT.
        let written = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasSuffix(" 1 57 1") }.compactMap { Double($0.split(separator: " ")[0]) }
        let times = filters.compactMap(time)
        try #require(times.count == 3 && written.count == 3, "\(times) \(written)")
        for k in 1..<3 {
            #expect(abs((times[k] - times[k - 1]) - (written[k] - written[k - 1])) < 0.002, "engine \(times), written \(written)")
        }
    }

    /// SIGHUP re-reads --tree: scanning moves to the new tree's items at once.
    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func sighupLoadsTheNewTree() throws {
        let dir = NSTemporaryDirectory() + "switchscan-hup-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: tree, toPath: dir + "/tree.json")
        try """
            {"screen": {"width": 390, "height": 844},
             "root": {"id": "dialog", "frame": [0, 0, 390, 844], "children": [
               {"id": "ok", "label": "OK", "traits": ["button"], "frame": [40, 700, 140, 44]},
               {"id": "cancel", "label": "Cancel", "traits": ["button"], "frame": [210, 700, 140, 44]}]}}
            """.write(toFile: dir + "/dialog.json", atomically: true, encoding: .utf8)
        let r = DeviceHarness.live([F.oneKeySwitch], scenario: """
            wait running
            sleep 300
            copy \(dir)/dialog.json \(dir)/tree.json
            signal HUP
            wait tree reloaded
            sleep 1200
            signal INT
            """, ["run", "--tree", dir + "/tree.json", "--profile", profile, "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderrLines.contains("switchscan: SIGHUP: tree reloaded"))
        // The reload is a layout change from a file: named by a line of its own (issue 22).
        #expect(Array(untimed(r.stdoutLines).prefix(5)) == [
            #"{"type":"scan","state":"started"}"#, #"{"type":"highlight","id":"edit","label":"Edit, button, Lets you reorder and delete cities.","kind":"item"}"#,
            #"{"type":"tree","change":"layout","file":"\#(dir)/tree.json"}"#,
            #"{"type":"highlight","id":"ok","label":"OK, button","kind":"item"}"#, #"{"type":"highlight","id":"cancel","label":"Cancel, button","kind":"item"}"#,
        ])
        if let okAt = r.stdoutLines.dropFirst(3).first.flatMap(time) { #expect(okAt >= 0.25 && okAt < 0.8) }
    }

    /// A SIGHUP with a broken tree file: a clear note, and scanning goes on over the old tree.
    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func sighupWithABadTreeKeepsTheOldOne() throws {
        let dir = NSTemporaryDirectory() + "switchscan-hup-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: tree, toPath: dir + "/tree.json")
        try #"{"root": {"id": "x", "frame": [0, 0, 10]}}"#.write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        let r = DeviceHarness.live([F.oneKeySwitch], scenario: """
            wait running
            sleep 200
            copy \(dir)/bad.json \(dir)/tree.json
            signal HUP
            wait keeping the current tree
            sleep 1000
            signal INT
            """, ["run", "--tree", dir + "/tree.json", "--profile", profile, "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderrLines.contains { $0.hasPrefix("switchscan: SIGHUP: keeping the current tree: \(dir)/tree.json:1:") })
        #expect(Array(untimed(r.stdoutLines).prefix(3)) == [
            #"{"type":"scan","state":"started"}"#, #"{"type":"highlight","id":"edit","label":"Edit, button, Lets you reorder and delete cities.","kind":"item"}"#,
            #"{"type":"highlight","id":"add","label":"Add, button, Adds a city.","kind":"item"}"#,
        ])
    }
}
