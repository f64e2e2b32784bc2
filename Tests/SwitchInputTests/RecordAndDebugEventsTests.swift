import Foundation
import SwitchCore
import SwitchFormats
import SwitchInput
import TestPrograms
import Testing

/// `record` with several devices (libinput-record YAML), key codes hidden on full keyboards,
/// `debug-events`, and `devices` on nodes the user cannot open (issue 13, parts 3 and 6), on
/// emulated nodes through real libevdev.
@Suite(.serialized, .needs(DeviceHarness.umockdevNeeds))
struct RecordAndDebugEventsTests {
    typealias F = DeviceHarness.Fixture
    static let switchAndKeyboard: [String: String] = [F.oneKeySwitch.node: "switch.events", F.keyboard.node: "keyboard.events"]
    static let profile = DeviceHarness.repoRoot + "/Profiles/single-switch-auto.json"

    static func temporary(_ ext: String) -> String { NSTemporaryDirectory() + "switchscan-rec-\(UUID().uuidString).\(ext)" }

    static func source(_ file: String) throws -> [InputEvent] {
        try EvemuFormat.parse(Array(try Data(contentsOf: URL(fileURLWithPath: DeviceHarness.devices + "/" + file))), file: file).events.map(\.event)
    }

    /// The frames the engine would get from a recording, without times.
    static func eventsRead(_ path: String) throws -> Recording {
        try RecordingFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
    }

    @Test func twoDevicesGoIntoOneLibinputRecordFileWithTheKeyboardsKeysHidden() throws {
        let out = Self.temporary("yml")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = DeviceHarness.umockdev([F.oneKeySwitch, F.keyboard], events: Self.switchAndKeyboard,
                                       ["record", F.oneKeySwitch.node, "Full Keyboard", "-o", out, "--until", "1.5"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderrLines.first == "switchscan: /dev/input/event10 \"Test Full Keyboard\" is a full keyboard: letter, digit, punctuation and Space keys are shown as KEY_A and scancodes as 30 (--show-keycodes keeps them)")
        #expect(r.stderrLines.last == "switchscan: recorded 37 events from 2 devices to \(out)")
        let recording = try Self.eventsRead(out)
        #expect(recording.devices.map { $0.description?.name } == ["Test One-Key Switch", "Test Full Keyboard"])
        // The switch as it was; the keyboard's a, 1 and Space as KEY_A, Enter kept, every scancode 30.
        #expect(recording.devices[0].events.map(\.event) == (try Self.source("switch.events")))
        let typed = recording.devices[1].events.map(\.event).filter { $0.type == EventCodes.EV_KEY }
        #expect(typed.map(\.code) == [30, 30, 30, 30, 30, 30, 28, 28])
        #expect(typed.map(\.value) == [1, 0, 1, 0, 1, 0, 1, 0])
        #expect(recording.devices[1].events.map(\.event).filter { $0.type == EventCodes.EV_MSC }.allSatisfy { $0.value == 30 })
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.hasPrefix("# libinput record, written by switchscan record\nversion: 1\nndevices: 2\ndevices:\n- node: \"/dev/input/event2\"\n"))
        #expect(text.contains("    # /dev/input/event10 \"Test Full Keyboard\" is a full keyboard"))
        // One time base: every time within the recording, each device's in order.
        for d in recording.devices {
            #expect(d.events.map(\.time) == d.events.map(\.time).sorted())
            #expect(d.events.allSatisfy { $0.time <= .seconds(1.5) })
        }
    }

    @Test func showKeycodesKeepsTheRealKeys() throws {
        let out = Self.temporary("yml")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = DeviceHarness.umockdev([F.keyboard], events: [F.keyboard.node: "keyboard.events"],
                                       ["record", F.keyboard.node, "-o", out, "--until", "1.2", "--show-keycodes"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("full keyboard"))
        let recording = try Self.eventsRead(out)
        #expect(recording.devices.count == 1)
        #expect(recording.devices[0].events.map(\.event) == (try Self.source("keyboard.events")))
    }

    /// `simulate` replays what `record` wrote for two devices: the keyboard's Enter (kept) and the
    /// switch's Space (bound by two-switch-manual) both reach the engine.
    @Test func simulateReadsTheMultiDeviceRecordingBack() throws {
        let out = Self.temporary("yml")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = DeviceHarness.umockdev([F.oneKeySwitch, F.keyboard], events: Self.switchAndKeyboard,
                                       ["record", F.oneKeySwitch.node, F.keyboard.node, "-o", out, "--until", "1.5"])
        #expect(r.status == 0, "\(r.stderr)")
        let sim = DeviceHarness.run([DeviceHarness.binary, "simulate", "--tree", DeviceHarness.fixtures + "/tree.json",
                                     "--profile", DeviceHarness.repoRoot + "/Profiles/two-switch-manual.json", "--events", out, "--format", "jsonl"], timeout: 30)
        #expect(sim.status == 0, "\(sim.stderr)")
        let accepted = sim.stdoutLines.filter { $0.contains("\"decision\":\"accepted\"") }
        #expect(accepted.map { $0.contains("KEY_ENTER") ? "enter" : "space" }.sorted() == ["enter", "space", "space"])
    }

    @Test func oneDeviceToStandardOutputIsEvemu() throws {
        let r = DeviceHarness.umockdev([F.oneKeySwitch], events: [F.oneKeySwitch.node: "switch.events"],
                                       ["record", F.oneKeySwitch.node, "--until", "1.2"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderrLines.last == "switchscan: recorded 13 events to <stdout>")
        let device = try EvemuFormat.parse(Array(r.stdout.utf8), file: "stdout")
        #expect(device.events.map(\.event) == (try Self.source("switch.events")))
    }

    @Test func evemuHoldsOneDevice() {
        let r = DeviceHarness.umockdev([F.oneKeySwitch, F.keyboard], ["record", F.oneKeySwitch.node, F.keyboard.node, "--format", "evemu", "-o", "/tmp/x.evemu"])
        #expect(r.status == 2)
        #expect(r.stderr == "switchscan: error: /dev/input/event2, /dev/input/event10: 2 device nodes (/dev/input/event2, /dev/input/event10); an evemu file holds one device: use --format yaml\n")
    }

    // MARK: debug-events

    @Test func debugEventsPrintsFramesAndTheFiltersDecisions() throws {
        // --until 5: umockdev's real-time replay (0.9 s) is read whole even when a loaded machine runs it late.
        let r = DeviceHarness.umockdev([F.oneKeySwitch], events: [F.oneKeySwitch.node: "switch.events"],
                                       ["debug-events", "--profile", Self.profile, "--until", "5", "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdoutLines.map { $0.replacingOccurrences(of: #""t":[0-9.]+,"#, with: "", options: .regularExpression) }
        #expect(lines == [
            #"{"type":"device","change":"added","name":"Test One-Key Switch","node":"/dev/input/event2"}"#,
            #"{"type":"evdev","node":"/dev/input/event2","events":["KEY_SPACE 1"]}"#,
            #"{"type":"filter","switch":"KEY_SPACE","decision":"accepted","action":"select"}"#,
            #"{"type":"evdev","node":"/dev/input/event2","events":["KEY_SPACE 0"]}"#,
            #"{"type":"evdev","node":"/dev/input/event2","events":["KEY_SPACE 1"]}"#,
            #"{"type":"filter","switch":"KEY_SPACE","decision":"accepted","action":"select"}"#,
            #"{"type":"evdev","node":"/dev/input/event2","events":["KEY_SPACE 2"]}"#,
            #"{"type":"filter","switch":"KEY_SPACE","decision":"rejected","reason":"autorepeat"}"#,
            #"{"type":"evdev","node":"/dev/input/event2","events":["KEY_SPACE 2"]}"#,
            #"{"type":"filter","switch":"KEY_SPACE","decision":"rejected","reason":"autorepeat"}"#,
            #"{"type":"evdev","node":"/dev/input/event2","events":["KEY_SPACE 0"]}"#,
        ])
        // Nothing of scanning: no tree, no highlight.
        #expect(!r.stdout.contains("highlight"))
        #expect(r.stderrLines.first == "switchscan: profile: \(Self.profile) (\"One switch, auto scanning\")")
    }

    /// Issue 22, finding 3: a device names itself (a uinput device can take any name), and
    /// `devices`, `debug-events` and their notes print that name escaped, never raw: an
    /// `ESC ] 0 ;` would retitle the terminal. The device is the switch fixture renamed.
    @Test func deviceNameWithTerminalEscapesIsPrintedEscaped() throws {
        let dir = NSTemporaryDirectory() + "switchscan-evil-device-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let name = "Evil\u{1B}]0;owned\u{7} switch\u{1B}[2J"
        let devices = DeviceHarness.devices
        var umockdev = try String(contentsOfFile: devices + "/switch.umockdev", encoding: .utf8)
        umockdev = umockdev.replacingOccurrences(of: "Test One-Key Switch", with: name)
        try umockdev.write(toFile: dir + "/evil.umockdev", atomically: true, encoding: .utf8)
        var ioctl = try String(contentsOfFile: devices + "/switch.ioctl", encoding: .utf8)
        let hex = name.utf8.map { String(format: "%02X", $0) }.joined()
        let old = "Test One-Key Switch".utf8.map { String(format: "%02X", $0) }.joined()
        ioctl = ioctl.replacingOccurrences(of: old + String(repeating: "00", count: name.utf8.count - "Test One-Key Switch".utf8.count), with: hex)
        try ioctl.write(toFile: dir + "/evil.ioctl", atomically: true, encoding: .utf8)
        let node = F.oneKeySwitch.node
        let base = [DeviceHarness.umockdevRun, "-d", dir + "/evil.umockdev", "-i", "\(node)=\(dir)/evil.ioctl", "-e", "\(node)=\(devices)/switch.events", "--", DeviceHarness.binary]
        for args in [["devices"], ["debug-events", "--profile", Self.profile, "--until", "1.2"], ["debug-events", node, "--profile", Self.profile, "--until", "0.5", "--format", "jsonl"]] {
            let r = DeviceHarness.run(base + args, timeout: 30)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            #expect(r.stdout.contains("Evil\\u{1B}]0;owned\\u{7} switch\\u{1B}[2J") || r.stdout.contains(#"Evil\u001b]0;owned\u0007 switch\u001b[2J"#), "\(args): \(r.stdout)")
            let raw = (r.stdout + r.stderr).unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
            #expect(raw.isEmpty, "\(args): \((r.stdout + r.stderr).debugDescription)")
        }
    }

    /// Without DEVICE every readable device; on the keyboard, the profile's own key (Space) shows,
    /// the rest is hidden; in text, rows like the transcript's.
    @Test func debugEventsOnEveryDeviceHidesTheKeyboardsText() throws {
        let r = DeviceHarness.umockdev([F.oneKeySwitch, F.keyboard], events: [F.keyboard.node: "keyboard.events"],
                                       ["debug-events", "--profile", Self.profile, "--until", "1.2"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = r.stdoutLines.map { String($0.dropFirst(10)) }
        #expect(rows == [
            "device     added /dev/input/event2 \"Test One-Key Switch\"",
            "device     added /dev/input/event10 \"Test Full Keyboard\"",
            "event10    MSC_SCAN 30, KEY_A 1", "event10    MSC_SCAN 30, KEY_A 0",
            "event10    MSC_SCAN 30, KEY_A 1", "event10    MSC_SCAN 30, KEY_A 0",
            "event10    MSC_SCAN 30, KEY_SPACE 1", "filter     KEY_SPACE accepted → select", "event10    MSC_SCAN 30, KEY_SPACE 0",
            "event10    MSC_SCAN 30, KEY_ENTER 1", "event10    MSC_SCAN 30, KEY_ENTER 0",
        ])
        let shown = DeviceHarness.umockdev([F.keyboard], events: [F.keyboard.node: "keyboard.events"],
                                           ["debug-events", F.keyboard.node, "--profile", Self.profile, "--until", "1.2", "--show-keycodes"])
        #expect(shown.stdoutLines.contains { $0.hasSuffix("event10    MSC_SCAN 458782, KEY_1 1") })
    }

    // MARK: devices on nodes the user cannot open

    /// Run as `nobody` with the emulated nodes made unreadable: the switch-like device and the
    /// gamepad are pointed to the udev rule, the full keyboard to the `input` group.
    @Test(.enabled(if: getuid() == 0, "needs root (to become nobody)"), .needs(["/usr/bin/setpriv"]))
    func devicesSaysWhichFixAppliesToAnUnreadableNode() throws {
        // nobody must be able to read the fixtures and run the binary.
        let dir = NSTemporaryDirectory() + "switchscan-nobody-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for f in [F.oneKeySwitch, F.keyboard, F.gamepad] {
            for ext in ["umockdev", "ioctl"] { try FileManager.default.copyItem(atPath: "\(DeviceHarness.devices)/\(f.name).\(ext)", toPath: "\(dir)/\(f.name).\(ext)") }
        }
        try FileManager.default.copyItem(atPath: DeviceHarness.binary, toPath: dir + "/switchscan")
        _ = DeviceHarness.run(["/bin/chmod", "-R", "a+rX", dir], timeout: 10)
        var argv = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/env", "HOME=\(dir)", DeviceHarness.umockdevRun]
        for f in [F.oneKeySwitch, F.keyboard, F.gamepad] { argv += ["-d", "\(dir)/\(f.name).umockdev", "-i", "\(f.node)=\(dir)/\(f.name).ioctl"] }
        argv += ["--", "/bin/sh", "-c", "chmod 000 \"$UMOCKDEV_DIR\"/dev/input/event*; exec \(dir)/switchscan devices"]
        let r = DeviceHarness.run(argv, timeout: 30, cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let errors = r.stdoutLines.filter { $0.hasPrefix("Error:") }
        #expect(errors.count == 3)
        let rule = DeviceAccess.installedRule()
        let ruleAdvice = rule.map { "switchscan's udev rule (\($0)) has not been applied to it yet" } ?? "install switchscan's udev rule (70-switchscan.rules: scripts/install.sh or the switchscan .deb)"
        #expect(errors[0].hasPrefix("Error:        permission denied: a switch-like device; \(ruleAdvice)"))
        #expect(errors[1] == "Error:        permission denied: a full keyboard, which switchscan's udev rule leaves alone: add yourself to the `input` group (sudo usermod -aG input $USER) and log in again; or mark it as a switch for the rule with ENV{SWITCHSCAN_SWITCH}=\"1\" (id 046d:c32b) in a local udev rule (see \"Access without root\" in the manual, docs/install.md)")
        #expect(errors[2].hasPrefix("Error:        permission denied: a joystick or gamepad; \(ruleAdvice)"))
    }
}
