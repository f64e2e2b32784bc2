import Dispatch
import Foundation
import SwitchCore
import Synchronization
import TestPrograms
import Testing

/// A headless desktop for one test: Xvfb, a private session bus, the real a11y bus and registry
/// (`scripts/desktop-tests/run-desktop.sh`), with processes started inside it, and torn down
/// at `close` (and by run-desktop.sh itself if the test process dies: its command waits for our
/// end of a pipe). A test fails with "missing: PROGRAM (Debian package P)" where something it needs
/// is not here (`scripts/setup.sh --tests` installs it: scripts/apt/test-desktop.list and the
/// other lists), never skipped.
///
/// A watchdog bounds each test (as PresenceTests' XvfbServer does for X tests): a session still
/// open `watchdog` seconds after it started has its desktop torn down (our end of its pipe is
/// closed: run-desktop.sh's teardown ends every process of the session, TERM then KILL, so
/// whatever the test waits on returns), and
/// `close` records the failure; if the test is still stuck `grace` seconds later, the test process
/// is aborted with a message: a red run, never a hung one. Every program run inside is bounded by
/// its own timeout too (TERM, then KILL after 2 s).
final class DesktopSession {
    static let repoRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
    static let fixtures = repoRoot + "/Tests/SwitchDesktopTests/Fixtures"
    static let runDesktop = repoRoot + "/scripts/desktop-tests/run-desktop.sh"
    static let testApp = fixtures + "/testapp.py"
    static let checker = fixtures + "/atspi-check.py"
    static let liveDriver = repoRoot + "/scripts/device-tests/umockdev-live.py"
    static let devices = repoRoot + "/Tests/SwitchInputTests/Fixtures/devices"
    static let twoSwitchProfile = fixtures + "/profile-two-switch.json"

    /// The `switchscan` built next to the test bundle.
    static let binary: String = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("switchscan").path
    }()

    /// What every desktop test needs: the binary, Xvfb, D-Bus, at-spi2-core, ps (run-desktop.sh's
    /// teardown), Debian's python3 with GTK 3, pyatspi and umockdev's GI bindings, umockdev.
    static let programs = ["/usr/bin/Xvfb", "/usr/bin/dbus-daemon", "/usr/bin/dbus-send", "/usr/libexec/at-spi-bus-launcher",
                           "/usr/libexec/at-spi2-registryd", "/usr/bin/ps", "/usr/bin/python3", "/usr/bin/umockdev-run"]
    static let pythonModules: [(code: String, package: String)] = [
        ("import gi", "python3-gi"),
        ("import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk", "gir1.2-gtk-3.0"),
        ("import gi; gi.require_version('UMockdev', '1.0'); from gi.repository import UMockdev", "gir1.2-umockdev-1.0"),
        ("import pyatspi", "python3-pyatspi"),
    ]

    /// Throws "missing: PROGRAM (Debian package P)" for whatever of the desktop and of `extra` is
    /// not here (`Programs`: a test that cannot run fails, it is never skipped).
    static func require(_ extra: [String]) throws {
        try Programs.require([binary] + programs + extra)
        try Programs.requirePython(pythonModules)
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    let environment: [String: String]
    private let session: Process
    private let keepAlive: Pipe
    private var started: [Process] = []
    private let watch = Watch()
    /// Made and resumed once the desktop runs (a dispatch source released while suspended traps).
    private var timer: DispatchSourceTimer?
    private let limit: Double
    static let grace: Double = 30

    /// Whether the watchdog fired, and whether the test closed its session.
    final class Watch: Sendable {
        let fired = Atomic<Bool>(false)
        let closed = Atomic<Bool>(false)
    }

    /// Starts the desktop (about 0.3 s), once everything it and the test need (`needs`: programs
    /// the test starts, package files it reads) is here.
    init(watchdog: Double = 180, needs: [String] = []) throws {
        try DesktopSession.require(needs)
        limit = watchdog
        let p = Process()
        p.executableURL = URL(fileURLWithPath: DesktopSession.runDesktop)
        // The session's command reports its directory, then waits for our end of the pipe.
        p.arguments = ["bash", "-c", "echo \"$RUN_DESKTOP_DIR\"; read -r _"]
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        p.standardError = FileHandle.nullDevice
        try p.run()
        session = p
        keepAlive = input
        var line = Data()
        let reader = output.fileHandleForReading
        while true {
            let byte = reader.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        let dir = String(decoding: line, as: UTF8.self)
        guard !dir.isEmpty, let text = try? String(contentsOfFile: dir + "/env", encoding: .utf8) else {
            p.terminate()
            throw SessionError("the headless desktop did not start")
        }
        var env = ProcessInfo.processInfo.environment
        for raw in text.split(separator: "\n") {
            // `export NAME=value` with bash's %q quoting (backslashes before special characters).
            guard raw.hasPrefix("export "), let eq = raw.firstIndex(of: "=") else { continue }
            let name = String(raw[raw.index(raw.startIndex, offsetBy: 7)..<eq])
            var value = ""
            var escaped = false
            for c in raw[raw.index(after: eq)...] {
                if escaped || c != "\\" { value.append(c); escaped = false } else { escaped = true }
            }
            env[name] = value
        }
        environment = env
        let (fd, watch) = (input.fileHandleForWriting.fileDescriptor, watch)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler {
            guard !watch.closed.load(ordering: .acquiring) else { return }
            watch.fired.store(true, ordering: .releasing)
            // Our end of the session's pipe is replaced by /dev/null (the descriptor stays valid
            // for `close`): the session's command sees the end, and run-desktop.sh tears down.
            let null = open("/dev/null", O_WRONLY)
            if null >= 0 { dup2(null, fd); Glibc.close(null) }
            DispatchQueue.global().asyncAfter(deadline: .now() + DesktopSession.grace) {
                guard !watch.closed.load(ordering: .acquiring) else { return }
                let message = "DesktopSession watchdog: a desktop test is still stuck \(DesktopSession.grace) s after its desktop was torn down; aborting the test run\n"
                _ = message.withCString { write(2, $0, strlen($0)) }
                abort()
            }
        }
        timer.schedule(deadline: .now() + watchdog)
        timer.resume()
        self.timer = timer
    }

    struct SessionError: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    /// Ends everything started in the session (run-desktop.sh's teardown: TERM, KILL after 2 s).
    func close() {
        guard !watch.closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        timer?.cancel()
        if watch.fired.load(ordering: .acquiring) {
            Issue.record("watchdog: the test was still running after \(limit) s, so its desktop was torn down (something inside it was stuck)")
        }
        for p in started where p.isRunning { p.terminate() }
        try? keepAlive.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(10)
        while session.isRunning && Date() < deadline { usleep(20_000) }
        if session.isRunning { session.terminate() }
    }

    deinit { close() }

    /// Starts a program in the background inside the session (an application), with `env` added
    /// to the session's environment.
    @discardableResult
    func start(_ argv: [String], env extra: [String: String] = [:]) throws -> Process {
        if argv[0].hasPrefix("/usr/") { try Programs.require(argv[0]) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst())
        p.environment = environment.merging(extra) { $1 }
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        started.append(p)
        return p
    }

    /// Starts the test application and waits until its tree is complete.
    @discardableResult
    func startTestApp(_ args: [String] = []) throws -> Process {
        let p = try start([DesktopSession.testApp] + args)
        try waitFor("testapp.py")
        return p
    }

    func waitFor(_ app: String) throws {
        let r = run([DesktopSession.checker, "wait", app, "30"], timeout: 40)
        if r.status != 0 { throw SessionError("\(app) did not appear on the accessibility bus: \(r.stderr)") }
    }

    /// Runs a program inside the session to its end (killed after `timeout` s: status 124). A
    /// program that is not here is a recorded failure that names its package, not a status to
    /// read a wrong value from.
    func run(_ argv: [String], timeout: Double = 60, env extra: [String: String] = [:]) -> Result {
        if argv[0].hasPrefix("/usr/"), !Programs.isPresent(argv[0]) {
            Issue.record(Comment(rawValue: Programs.message(argv[0])))
            return Result(status: 127, stdout: "", stderr: Programs.message(argv[0]))
        }
        return DesktopSession.run(argv, env: environment.merging(extra) { $1 }, timeout: timeout)
    }

    /// `switchscan args` inside the session. A one-shot `tree` read that ends because the
    /// application did not answer a call within its 300 ms (status 2, "no reply within": an
    /// application on a loaded machine) is run again, at most four times more.
    func switchscan(_ args: [String], timeout: Double = 60) -> Result {
        var r = run([DesktopSession.binary] + args, timeout: timeout)
        for _ in 0..<4 where args.first == "tree" && r.status == 2 && r.stderr.contains("no reply within") {
            r = run([DesktopSession.binary] + args, timeout: timeout)
        }
        return r
    }

    /// `switchscan args` under the umockdev live driver with the fixture keyboard (a switch box:
    /// Space, Enter, M, Esc) at /dev/input/event10, driven by `scenario` (umockdev-live.py lines).
    /// `tee`: a file that gets the run's stdout lines as they come (a watcher beside the run).
    func live(scenario: String, _ args: [String], timeout: Double = 60, env: [String: String] = [:], tee: String? = nil) -> Result {
        let path = NSTemporaryDirectory() + "switchscan-desktop-scenario-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: path, contents: Data(scenario.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let d = DesktopSession.devices
        // SWITCHSCAN_TEST_KEEP=DIR: every live run's scenario, output, errors and the events as
        // written (umockdev-live --log: their real stamps) kept there.
        let keep = ProcessInfo.processInfo.environment["SWITCHSCAN_TEST_KEEP"]
        let base = keep.map { $0 + "/" + UUID().uuidString }
        let r = run(["/usr/bin/python3", DesktopSession.liveDriver] + (tee.map { ["--tee", $0] } ?? []) + (base.map { ["--log", $0 + ".written"] } ?? [])
                    + ["--device", d + "/keyboard.umockdev", "--ioctl", "/dev/input/event10=\(d)/keyboard.ioctl", "--scenario", path, "--",
                       DesktopSession.binary] + args, timeout: timeout, env: env)
        if let base {
            try? scenario.write(toFile: base + ".scenario", atomically: true, encoding: .utf8)
            try? r.stdout.write(toFile: base + ".out", atomically: true, encoding: .utf8)
            try? r.stderr.write(toFile: base + ".err", atomically: true, encoding: .utf8)
        }
        return r
    }

    /// The checker's view of the test application (pyatspi): name → its JSON object.
    /// `visibleIsEnough`: GTK 4.8, which sets no SHOWING below its windows.
    func state(_ app: String = "testapp.py", visibleIsEnough: Bool = false) -> [String: [String: Any]] {
        var out: [String: [String: Any]] = [:]
        for line in run([DesktopSession.checker, "state", app] + (visibleIsEnough ? ["--visible"] : []), timeout: 30).stdoutLines {
            guard let obj = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            let name = (obj["name"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "(\(obj["role"] as? String ?? "?"))"
            if out[name] == nil { out[name] = obj }
        }
        return out
    }

    /// The checker's view once `holds` is true of it (the application handles what it was sent
    /// in its own time: on a loaded machine after the run that sent it has ended), or after 20 s
    /// the last view, for the test's expectations to report.
    func state(_ app: String = "testapp.py", until holds: ([String: [String: Any]]) -> Bool) -> [String: [String: Any]] {
        let deadline = Date().addingTimeInterval(20)
        var now = state(app)
        while !holds(now) && Date() < deadline {
            usleep(100_000)
            now = state(app)
        }
        return now
    }

    static func run(_ argv: [String], env: [String: String]?, timeout: Double) -> Result {
        let dir = NSTemporaryDirectory()
        let out = dir + "switchscan-out-\(UUID().uuidString)", err = dir + "switchscan-err-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: out, contents: nil)
        FileManager.default.createFile(atPath: err, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: out); try? FileManager.default.removeItem(atPath: err) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst())
        if let env { p.environment = env }
        p.standardOutput = FileHandle(forWritingAtPath: out)
        p.standardError = FileHandle(forWritingAtPath: err)
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch { return Result(status: 127, stdout: "", stderr: "cannot start \(argv[0]): \(error)") }
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(10_000) }
        var status: Int32
        if p.isRunning {
            p.terminate()
            let killAt = Date().addingTimeInterval(2)
            while p.isRunning && Date() < killAt { usleep(10_000) }
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
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

/// Scenario lines for the fixture keyboard at /dev/input/event10.
enum Keys {
    /// A press and release, then `ms` before the next (the person's rhythm), counted from when the
    /// run has read the press (its filter line): on a loaded machine a press written late can be
    /// read after the engine's clock passed its stamp and take the clock's time, and one written
    /// right after it would then look like a bounce.
    static func tap(_ key: String, thenWait ms: Int = 150) -> String {
        "mark\npress /dev/input/event10 KEY_\(key)\nrelease /dev/input/event10 KEY_\(key)\nexpect \"type\":\"filter\"\nsleep \(ms)\n"
    }
    static func next(_ n: Int = 1) -> String { String(repeating: tap("SPACE", thenWait: 100), count: n) }
    /// To item `index` of `count` from the first: Next, or Previous (Backspace) round the end when
    /// that is shorter (profile-web.json, profile-web-typing.json).
    static func to(_ index: Int, of count: Int) -> String {
        index <= count / 2 ? next(index) : String(repeating: tap("BACKSPACE", thenWait: 100), count: count - index)
    }
    static let select = tap("ENTER", thenWait: 600)
    /// A run's start: once it runs and its first highlight is out (the tree read, scanning on).
    static let started = "wait running\nexpect \"type\":\"highlight\"\n"
    /// A run's end: once it has read every press (a filter line each), Ctrl-C.
    static let settled = "settle\nsignal INT\n"
    /// The desktop's trace on stderr (`SWITCHSCAN_DESKTOP_TRACE`), for the conditions below.
    static let trace = ["SWITCHSCAN_DESKTOP_TRACE": "1"]
    /// A web page's run: once the page is read whole (the trace says so; with `trace`). A page
    /// with items: Chromium has an empty document besides, read first.
    static let pageRead = "wait running\nexpect desktop: page .* built: [1-9]\n"
    static let menu = tap("M")
    static let escape = tap("ESC", thenWait: 600)
}

/// Transcript helpers.
extension DesktopSession.Result {
    /// JSONL lines as objects.
    var lines: [[String: Any]] {
        stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The lines of a type.
    func lines(_ type: String) -> [[String: Any]] { lines.filter { $0["type"] as? String == type } }
}
