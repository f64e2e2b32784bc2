import Foundation
import SwitchCore
import TestPrograms

/// Runs the real `switchscan` binary against emulated evdev nodes (umockdev: an LD_PRELOAD
/// sandbox, real libevdev, no root, no /dev/uinput). A test that needs it fails with "missing:
/// umockdev-run (Debian package umockdev)" where it is not installed (`.needs`: TestPrograms).
enum DeviceHarness {
    static let repoRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
    static let fixtures = repoRoot + "/Tests/SwitchInputTests/Fixtures"
    static let devices = fixtures + "/devices"
    static let liveDriver = repoRoot + "/scripts/device-tests/umockdev-live.py"

    /// The `switchscan` built next to the test bundle.
    static let binary: String = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("switchscan").path
    }()

    /// `umockdev-run`; `SWITCHSCAN_UMOCKDEV_RUN` points elsewhere (a missing path shows the
    /// failure a test gives without it: "missing: …").
    static let umockdevRun = ProcessInfo.processInfo.environment["SWITCHSCAN_UMOCKDEV_RUN"] ?? "/usr/bin/umockdev-run"
    /// What the umockdev tests need: the built binary and umockdev (`.needs(DeviceHarness.umockdevNeeds)`).
    static let umockdevNeeds = [binary, umockdevRun]
    /// What the live scenarios (umockdev-live.py) need besides: Debian's python3, umockdev's GI API
    /// (removal, signals: python3-gi + gir1.2-umockdev-1.0).
    static let liveNeeds = umockdevNeeds + ["/usr/bin/python3"]
    static let livePython: [(code: String, package: String)] = [
        ("import gi", "python3-gi"),
        ("import gi; gi.require_version('UMockdev', '1.0'); from gi.repository import UMockdev", "gir1.2-umockdev-1.0"),
    ]

    /// A live scenario's start (jsonl runs): the program is running and has shown its first
    /// highlight, so presses go to a scan that is there (not after a guessed 200 ms).
    static let started = "wait running\nexpect \"type\":\"highlight\"\n"

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
        var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
        /// `--show-frames` lines without their times: "/dev/input/event2 KEY_SPACE 1".
        var frames: [String] {
            stderrLines.filter { $0.hasPrefix("frame ") }.map { $0.split(separator: " ", maxSplits: 2).last.map(String.init) ?? "" }
        }
        var frameTimes: [Double] {
            stderrLines.filter { $0.hasPrefix("frame ") }.compactMap { Double($0.split(separator: " ")[1]) }
        }
    }

    /// A fixture device: its .umockdev/.ioctl pair and node.
    struct Fixture {
        var name: String
        var node: String
        var umockdevArgs: [String] { ["-d", "\(devices)/\(name).umockdev", "-i", "\(node)=\(devices)/\(name).ioctl"] }
        static let oneKeySwitch = Fixture(name: "switch", node: "/dev/input/event2")
        static let touchscreen = Fixture(name: "touch", node: "/dev/input/event5")
        static let keyboard = Fixture(name: "keyboard", node: "/dev/input/event10")
        static let gamepad = Fixture(name: "gamepad", node: "/dev/input/event11")
    }

    /// `umockdev-run` with the fixtures (and events files for some) around `switchscan args`.
    static func umockdev(_ fixtures: [Fixture], events: [String: String] = [:], _ args: [String], timeout: Double = 30) -> Result {
        var argv = [umockdevRun]
        for f in fixtures {
            argv += f.umockdevArgs
            if let e = events[f.node] { argv += ["-e", "\(f.node)=\(devices)/\(e)"] }
        }
        return run(argv + ["--", binary] + args, timeout: timeout)
    }

    /// The live driver with a scenario (text of scenario lines).
    /// `env`: variables set for it (and the program), e.g. XDG_CONFIG_HOME.
    /// `log`: a file for the driver's record of each event written with its real stamp.
    static func live(_ fixtures: [Fixture], scenario: String, _ args: [String], timeout: Double = 60, env: [String: String] = [:],
                     log: String? = nil) -> Result {
        let path = NSTemporaryDirectory() + "switchscan-scenario-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: path, contents: Data(scenario.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var argv = ["/usr/bin/python3", liveDriver] + (log.map { ["--log", $0] } ?? [])
        for f in fixtures {
            argv += ["--device", "\(devices)/\(f.name).umockdev", "--ioctl", "\(f.node)=\(devices)/\(f.name).ioctl"]
        }
        return run(argv + ["--scenario", path, "--", binary] + args, timeout: timeout, cwd: devices, env: env)
    }

    /// Runs a process to its end (killed after `timeout` s: status 124), stdout and stderr via files.
    static func run(_ argv: [String], timeout: Double, cwd: String? = nil, env: [String: String] = [:]) -> Result {
        let dir = NSTemporaryDirectory()
        let out = dir + "switchscan-out-\(UUID().uuidString)", err = dir + "switchscan-err-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: out, contents: nil)
        FileManager.default.createFile(atPath: err, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: out); try? FileManager.default.removeItem(atPath: err) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst())
        if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        if !env.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 } }
        p.standardOutput = FileHandle(forWritingAtPath: out)
        p.standardError = FileHandle(forWritingAtPath: err)
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch { return Result(status: 127, stdout: "", stderr: "cannot start \(argv[0]): \(error)") }
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(10_000) }
        var status: Int32
        if p.isRunning {
            p.terminate()
            p.waitUntilExit()
            status = 124
        } else {
            status = p.terminationStatus
        }
        let o = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        let e = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        return Result(status: status, stdout: o, stderr: e)
    }
}
