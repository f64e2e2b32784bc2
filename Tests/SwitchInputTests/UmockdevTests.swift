import Foundation
import SwitchCore
import SwitchFormats
import TestPrograms
import Testing

/// The real binary on emulated nodes (real libevdev): enumeration, reading, grabbing, removal,
/// signals, errors, recording. Serialized: the timing of one must not starve another.
@Suite(.serialized, .needs(DeviceHarness.umockdevNeeds))
struct UmockdevTests {
    typealias F = DeviceHarness.Fixture
    let tree = DeviceHarness.fixtures + "/tree.json"
    let profile = DeviceHarness.fixtures + "/profile-space.json"
    var runArgs: [String] { ["run", "--tree", tree, "--profile", profile] }

    @Test func devicesListsAllFourFixturesWithTheirKinds() {
        let r = DeviceHarness.umockdev([F.oneKeySwitch, F.touchscreen, F.keyboard, F.gamepad], ["devices"])
        #expect(r.status == 0)
        let rows = r.stdoutLines.filter { $0.hasPrefix("Kernel:") || $0.hasPrefix("Kind:") || $0.hasPrefix("Device:") }
        #expect(rows == [
            "Device:       Test One-Key Switch", "Kernel:       /dev/input/event2", "Kind:         switch-like buttons",
            "Device:       Test MT Touchscreen", "Kernel:       /dev/input/event5", "Kind:         touchscreen",
            "Device:       Test Full Keyboard", "Kernel:       /dev/input/event10", "Kind:         keyboard",
            "Device:       Test Gamepad", "Kernel:       /dev/input/event11", "Kind:         gamepad",
        ])
        #expect(r.stdoutLines.contains("Keys:         KEY_ESC KEY_1 KEY_2 KEY_3 KEY_4 KEY_5 KEY_6 KEY_7 … KEY_M KEY_SPACE (47 keys)"))
        #expect(r.stdoutLines.contains("Id:           usb:045e:028e"))
    }

    @Test func devicesAsJSON() throws {
        let r = DeviceHarness.umockdev([F.oneKeySwitch, F.gamepad], ["devices", "--format", "json"])
        #expect(r.status == 0)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(items.count == 2)
        #expect(items.first?["kind"] as? [String] == ["switch-like buttons"])
        #expect(items.first?["keys"] as? [String] == ["KEY_SPACE"])
        #expect(items.last?["node"] as? String == "/dev/input/event11")
        #expect((items.last?["axes"] as? [Any])?.count == 8)
    }

    @Test func devicesWithoutAnyNode() {
        let r = DeviceHarness.umockdev([], ["devices", "--format", "json"])
        #expect(r.status == 0)
        #expect(r.stdout == "[]\n")
    }

    /// Press, release, a held press with two autorepeat (value 2) frames, release: every frame
    /// reaches the engine, in order; grab works; the refused clock id is only a note. (umockdev
    /// replays the file in real time and its stamps are the file's, so a frame is timed when it is
    /// read: its spacing is that of the reads, which a loaded machine delays. The spacing of real
    /// stamps is checked where the driver logs them: `pressesReadLateKeepTheirSpacing`,
    /// TranscriptEqualityTests.)
    @Test func runReadsTheSwitch() {
        // --until 5: the replay (0.9 s) is read whole even when a loaded machine runs it late.
        let r = DeviceHarness.umockdev([F.oneKeySwitch], events: [F.oneKeySwitch.node: "switch.events"],
                                       runArgs + ["--until", "5", "--show-frames", "--grab"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.frames == ["/dev/input/event2 KEY_SPACE 1", "/dev/input/event2 KEY_SPACE 0", "/dev/input/event2 KEY_SPACE 1",
                             "/dev/input/event2 KEY_SPACE 2", "/dev/input/event2 KEY_SPACE 2", "/dev/input/event2 KEY_SPACE 0"])
        // In order (frames read in one batch share its time).
        let t = r.frameTimes
        #expect(t.count == 6 && zip(t, t.dropFirst()).allSatisfy { $0 <= $1 }, "\(t)")
        #expect(r.stderrLines.contains("switchscan: reading /dev/input/event2 \"Test One-Key Switch\" (has KEY_SPACE), grabbed"))
        #expect(r.stderrLines.contains("switchscan: /dev/input/event2: cannot set CLOCK_MONOTONIC timestamps (No such file or directory); its events are timed by their wall-clock stamps (by the read when those cannot be trusted)"))
    }

    @Test func runReadsProtocolBTouchFrames() {
        let r = DeviceHarness.umockdev([F.touchscreen], events: [F.touchscreen.node: "touch.events"],
                                       runArgs + ["--device", "test mt", "--until", "1", "--show-frames"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.frames == [
            "/dev/input/event5 ABS_MT_TRACKING_ID 7, ABS_MT_POSITION_X 960, ABS_MT_POSITION_Y 540, BTN_TOUCH 1, ABS_X 960, ABS_Y 540",
            "/dev/input/event5 ABS_MT_TRACKING_ID -1, BTN_TOUCH 0",
            "/dev/input/event5 ABS_MT_TRACKING_ID 8, ABS_MT_POSITION_X 100, ABS_MT_POSITION_Y 200, ABS_MT_SLOT 1, ABS_MT_TRACKING_ID 9, ABS_MT_POSITION_X 300, ABS_MT_POSITION_Y 400, BTN_TOUCH 1, ABS_X 100, ABS_Y 200",
            "/dev/input/event5 ABS_MT_SLOT 0, ABS_MT_TRACKING_ID -1, ABS_MT_SLOT 1, ABS_MT_TRACKING_ID -1, BTN_TOUCH 0",
        ])
    }

    /// Auto-selection reads both devices that have KEY_SPACE, grabs the switch and leaves the
    /// only full keyboard alone.
    @Test func grabNeverTakesTheOnlyKeyboardUnasked() {
        let r = DeviceHarness.umockdev([F.oneKeySwitch, F.keyboard, F.gamepad], runArgs + ["--until", "0.3", "--grab"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderrLines.contains("switchscan: reading /dev/input/event2 \"Test One-Key Switch\" (has KEY_SPACE), grabbed"))
        #expect(r.stderrLines.contains("switchscan: reading /dev/input/event10 \"Test Full Keyboard\" (has KEY_SPACE)"))
        #expect(r.stderrLines.contains("switchscan: not grabbing /dev/input/event10 \"Test Full Keyboard\": it looks like your only full keyboard (name it with --device to grab it anyway)"))
        #expect(!r.stderr.contains("event11"))
    }

    @Test func grabTheKeyboardWhenNamed() {
        let r = DeviceHarness.umockdev([F.keyboard], runArgs + ["--until", "0.2", "--grab", "--device", "Test Full Keyboard"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderrLines.contains("switchscan: reading /dev/input/event10 \"Test Full Keyboard\" (named \"Test Full Keyboard\"), grabbed"))
        #expect(r.stderr.contains("a full keyboard: its keys will not reach other programs"))
    }

    @Test func profileDevicesAreUsed() throws {
        let path = NSTemporaryDirectory() + "switchscan-profile-\(UUID().uuidString).json"
        try #"{"switches": [{"key": "BTN_SOUTH", "action": "select"}], "devices": ["045e:028e"]}"#.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = DeviceHarness.umockdev([F.oneKeySwitch, F.gamepad], ["run", "--tree", tree, "--profile", path, "--until", "0.2"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderrLines.contains("switchscan: reading /dev/input/event11 \"Test Gamepad\" (id 045e:028e)"))
    }

    /// Issue 22, finding 2: `run` with its transcript on a full disk keeps the engine going (every
    /// press is still read and filtered), says once that the transcript is no longer written, and
    /// exits 2 at its end instead of 0.
    @Test func runOnAFullDiskWarnsOnceKeepsGoingAndExits2() {
        let r = runRedirected("> /dev/full", ["--until", "1.5", "--show-frames"])
        #expect(r.status == 2, "\(r.stderr)")
        let warning = "switchscan: warning: standard output: No space left on device; the transcript is no longer written"
        #expect(r.stderrLines.filter { $0 == warning }.count == 1, "\(r.stderr)")
        // The engine went on after the first failed write: every frame was still read.
        #expect(r.frames.count == 6, "\(r.stderr)")
    }

    /// The same with standard output closed (`>&-`): the device opened is never descriptor 1.
    @Test func runWithStandardOutputClosedWarnsAndExits2() {
        let r = runRedirected(">&-", ["--until", "1.5", "--show-frames"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderrLines.contains("switchscan: warning: standard output: Bad file descriptor; the transcript is no longer written"), "\(r.stderr)")
        #expect(r.frames.count == 6, "\(r.stderr)")
    }

    /// `switchscan run …` inside umockdev with its standard output redirected by a shell.
    func runRedirected(_ redirect: String, _ extra: [String]) -> DeviceHarness.Result {
        var argv = [DeviceHarness.umockdevRun] + F.oneKeySwitch.umockdevArgs + ["-e", "\(F.oneKeySwitch.node)=\(DeviceHarness.devices)/switch.events"]
        argv += ["--", "/bin/sh", "-c", "exec \"$0\" \"$@\" \(redirect)", DeviceHarness.binary] + runArgs + extra
        return DeviceHarness.run(argv, timeout: 30)
    }

    @Test func badDeviceIsAClearErrorWithStatus2() {
        let r = DeviceHarness.umockdev([F.oneKeySwitch], runArgs + ["--device", "pedal", "--until", "1"])
        #expect(r.status == 2)
        #expect(r.stderr == "switchscan: error: --device pedal: no input device is named like \"pedal\"; devices: /dev/input/event2 \"Test One-Key Switch\" 1234:5678\n")
        let missing = DeviceHarness.umockdev([F.oneKeySwitch], runArgs + ["--device", "/dev/input/event9", "--until", "1"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "switchscan: error: --device /dev/input/event9: no such device\n")
    }

    @Test func noDeviceWithTheSwitchKeyIsStatus2() {
        let r = DeviceHarness.umockdev([F.gamepad], runArgs + ["--until", "1"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("no input device has the profile's switch keys (KEY_SPACE); name one with --device"))
    }

    @Test func injectWithoutUinputFailsAtStartWithStatus2() throws {
        try #require(!FileManager.default.fileExists(atPath: "/dev/uinput"), "this machine has /dev/uinput; the VM test covers --inject")
        let r = DeviceHarness.umockdev([F.oneKeySwitch], runArgs + ["--inject", "--until", "5"])
        #expect(r.status == 2)
        #expect(r.stderr == "switchscan: error: cannot create the output device: /dev/uinput does not exist: load the uinput module (sudo modprobe uinput)\n")
    }

    @Test func badTreeIsStatus2() {
        let r = DeviceHarness.umockdev([F.oneKeySwitch], ["run", "--tree", "/nonexistent/tree.json", "--profile", profile])
        #expect(r.status == 2)
        #expect(r.stderr == "switchscan: error: /nonexistent/tree.json: no such file\n")
    }

    /// evemu file out, evemu file in: the description and every event, times from the first event.
    @Test func recordRoundTrip() throws {
        let out = NSTemporaryDirectory() + "switchscan-rec-\(UUID().uuidString).evemu"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = DeviceHarness.umockdev([F.oneKeySwitch], events: [F.oneKeySwitch.node: "switch.events"],
                                       ["record", "--device", "one-key", "-o", out, "--until", "1.2"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderrLines.last == "switchscan: recorded 13 events to \(out)")
        let recorded = try EvemuFormat.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out))), file: out)
        let source = try EvemuFormat.parse(Array(try Data(contentsOf: URL(fileURLWithPath: DeviceHarness.devices + "/switch.events"))), file: "switch.events")
        #expect(recorded.events == source.events)
        let d = try #require(recorded.description)
        #expect(d.name == "Test One-Key Switch")
        #expect(d.vendorProduct == "1234:5678")
        #expect(d.codes[EventCodes.EV_KEY] == [EventCodes.KEY_SPACE])
        #expect(d.kind == .switchButtons)
        // What `simulate` does with it: the same frames as the source.
        #expect(Recording(devices: [recorded]).mergedFrames().map(\.frame) == Recording(devices: [source]).mergedFrames().map(\.frame))
    }

    @Test func recordKeepsTheTouchscreensAxesAndProperties() throws {
        let out = NSTemporaryDirectory() + "switchscan-rec-\(UUID().uuidString).evemu"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = DeviceHarness.umockdev([F.touchscreen], events: [F.touchscreen.node: "touch.events"],
                                       ["record", "--device", F.touchscreen.node, "-o", out, "--until", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let recorded = try EvemuFormat.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out))), file: out)
        let source = try EvemuFormat.parse(Array(try Data(contentsOf: URL(fileURLWithPath: DeviceHarness.devices + "/touch.events"))), file: "touch.events")
        #expect(recorded.events == source.events)
        let d = try #require(recorded.description)
        #expect(d.isTouchscreen)
        #expect(d.has(property: EventCodes.INPUT_PROP_DIRECT))
        #expect(d.absInfo[EventCodes.ABS_X] == DeviceDescription.AbsInfo(minimum: 0, maximum: 1919, resolution: 10))
        #expect(d.absInfo[EventCodes.ABS_MT_SLOT]?.maximum == 9)
        #expect(d.absInfo[EventCodes.ABS_MT_TRACKING_ID]?.maximum == 65535)
    }

    @Test func recordNeedsOneNode() {
        let r = DeviceHarness.umockdev([F.oneKeySwitch], ["record", "--device", "nope", "-o", "/tmp/x.evemu"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("switchscan: error: --device nope: no input device is named like \"nope\""))
    }

    // MARK: live scenarios (umockdev's GI API)

    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func sigintEndsWithStatus0() {
        let r = DeviceHarness.live([F.oneKeySwitch], scenario: """
            wait running
            press /dev/input/event2 KEY_SPACE
            wait /dev/input/event2 KEY_SPACE 1
            signal INT
            """, runArgs + ["--grab", "--show-frames"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.frames == ["/dev/input/event2 KEY_SPACE 1"])
    }

    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func sigtermEndsWithStatus0() {
        let r = DeviceHarness.live([F.oneKeySwitch], scenario: "wait running\nsignal TERM\n", runArgs)
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func sighupReloadsTheTree() {
        let r = DeviceHarness.live([F.oneKeySwitch], scenario: """
            wait running
            signal HUP
            wait tree reloaded
            press /dev/input/event2 KEY_SPACE
            release /dev/input/event2 KEY_SPACE
            wait /dev/input/event2 KEY_SPACE 0
            signal INT
            """, runArgs + ["--show-frames"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderrLines.contains("switchscan: SIGHUP: tree reloaded"))
        #expect(r.frames == ["/dev/input/event2 KEY_SPACE 1", "/dev/input/event2 KEY_SPACE 0"])
    }

    /// The switch is unplugged while held: a `device removed` line, the engine keeps running;
    /// it comes back on another node (a USB replug may renumber): `device added`, read again.
    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func deviceRemovedMidPressAndBack() {
        let r = DeviceHarness.live([F.oneKeySwitch], scenario: """
            wait running
            press /dev/input/event2 KEY_SPACE
            wait /dev/input/event2 KEY_SPACE 1
            remove /sys/devices/virtual/input/input102/event2
            wait device removed
            sleep 200
            add switch-replugged.umockdev /dev/input/event3=switch-replugged.ioctl
            wait device is back
            press /dev/input/event3 KEY_SPACE
            release /dev/input/event3 KEY_SPACE
            wait /dev/input/event3 KEY_SPACE 0
            signal INT
            """, runArgs + ["--grab", "--show-frames", "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        let devices = r.stdoutLines.filter { $0.contains(#""type":"device""#) }.map { $0.replacingOccurrences(of: #"^\{"t":[0-9.]+,"#, with: "{", options: .regularExpression) }
        #expect(devices == [#"{"type":"device","change":"removed","name":"Test One-Key Switch","node":"/dev/input/event2"}"#,
                            #"{"type":"device","change":"added","name":"Test One-Key Switch","node":"/dev/input/event3"}"#])
        #expect(r.frames == ["/dev/input/event2 KEY_SPACE 1", "/dev/input/event3 KEY_SPACE 1", "/dev/input/event3 KEY_SPACE 0"])
        #expect(r.stderrLines.contains("switchscan: /dev/input/event3: device is back (was /dev/input/event2)"))
    }

    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func recordKeepsEverythingOnSigint() throws {
        let out = NSTemporaryDirectory() + "switchscan-rec-\(UUID().uuidString).evemu"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = DeviceHarness.live([F.oneKeySwitch], scenario: """
            wait recording
            press /dev/input/event2 KEY_SPACE
            sleep 120
            release /dev/input/event2 KEY_SPACE
            sleep 100
            signal INT
            """, ["record", "--device", "/dev/input/event2", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let recorded = try EvemuFormat.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out))), file: out)
        #expect(recorded.events.map(\.event.description) == ["KEY_SPACE 1", "SYN_REPORT 0", "KEY_SPACE 0", "SYN_REPORT 0"])
        #expect(recorded.events.first?.time == .zero)
        if let last = recorded.events.last { #expect(abs(last.time.seconds - 0.12) < 0.03) }
    }
}
