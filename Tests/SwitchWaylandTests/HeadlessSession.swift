import Dispatch
import Foundation
import Synchronization
import Testing

/// A headless compositor session for one test, started by one of scripts/wayland-tests' runners
/// (run-sway.sh, run-kwin.sh: a private session bus, the a11y bus and registry, the compositor),
/// torn down at `close` (and by the runner itself if the test process dies: its command waits on
/// our end of a pipe). The runner's command prints the session's folder, whose `env` file holds
/// the environment its processes get (`environment`).
///
/// A watchdog tears a session still open after `watchdog` seconds down (whatever the test waits
/// on then fails) and `close` records it; a test still stuck `grace` seconds later aborts the run
/// with a message: red, never hung. Subclasses say how a program runs inside (`run`, `start`: as
/// the session's user on sway, with the environment on KWin) and how the screen is read.
class HeadlessSession {
    static let repoRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
    static let checker = repoRoot + "/Tests/SwitchDesktopTests/Fixtures/atspi-check.py"

    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
        var lines: [String] { text.split(separator: "\n").map(String.init) }
    }

    struct SessionError: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    /// The session's folder (RUN_SWAY_DIR, SESSION_DIR).
    let directory: String
    /// The session's environment (what its processes get).
    let environment: [String: String]
    /// The variable naming `directory` in every process of the session (what `leftovers` looks for).
    private let marker: String
    private let what: String
    private let session: Process
    private let keepAlive: Pipe
    var started: [Process] = []
    private let watch = Watch()
    private var timer: DispatchSourceTimer?
    private let limit: Double
    static let grace: Double = 30

    final class Watch: Sendable {
        let fired = Atomic<Bool>(false)
        let closed = Atomic<Bool>(false)
    }

    /// Starts `runner` with `arguments` before its command; `marker`: the variable the runner sets
    /// to the session's folder; `what`: the session in messages ("sway session").
    init(runner: String, arguments: [String], marker: String, what: String, watchdog: Double) throws {
        limit = watchdog
        self.marker = marker
        self.what = what
        let p = Process()
        p.executableURL = URL(fileURLWithPath: runner)
        p.arguments = arguments + ["bash", "-c", "echo \"$\(marker)\"; read -r _ || true"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        p.standardInput = input
        p.standardOutput = output
        p.standardError = errors
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
        directory = String(decoding: line, as: UTF8.self)
        guard !directory.isEmpty, let text = try? String(contentsOfFile: directory + "/env", encoding: .utf8) else {
            p.waitUntilExit()
            let why = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw SessionError("the headless \(what) did not start: \(why)")
        }
        var env: [String: String] = [:]
        for raw in text.split(separator: "\n") {
            // `export NAME=value` with bash's %q quoting (backslashes before special characters).
            guard raw.hasPrefix("export "), let eq = raw.firstIndex(of: "=") else { continue }
            let name = String(raw[raw.index(raw.startIndex, offsetBy: 7)..<eq])
            var value = "", escaped = false
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
            let null = open("/dev/null", O_WRONLY)
            if null >= 0 { dup2(null, fd); Glibc.close(null) }
            DispatchQueue.global().asyncAfter(deadline: .now() + HeadlessSession.grace) {
                guard !watch.closed.load(ordering: .acquiring) else { return }
                let message = "HeadlessSession watchdog: a Wayland test is still stuck \(HeadlessSession.grace) s after its session was torn down; aborting the test run\n"
                _ = message.withCString { write(2, $0, strlen($0)) }
                abort()
            }
        }
        timer.schedule(deadline: .now() + watchdog)
        timer.resume()
        self.timer = timer
    }

    /// Ends the session (the runner's teardown) and waits for the runner to exit.
    func close() {
        guard !watch.closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        timer?.cancel()
        if watch.fired.load(ordering: .acquiring) {
            Issue.record("watchdog: the test was still running after \(limit) s, so its \(what) was torn down")
        }
        for p in started where p.isRunning { p.terminate() }
        try? keepAlive.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(15)
        while session.isRunning && Date() < deadline { usleep(20_000) }
        if session.isRunning { session.terminate() }
    }

    /// The runner's exit status after `close` (0: torn down with nothing left behind).
    var exitStatus: Int32? { session.isRunning ? nil : session.terminationStatus }

    deinit { close() }

    /// Live processes whose environment names this session (what teardown must leave none of).
    func leftovers() -> [Int32] {
        let needle = Data("\(marker)=\(directory)\0".utf8)
        var out: [Int32] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(name), let env = FileManager.default.contents(atPath: "/proc/\(name)/environ"),
                  env.range(of: needle) != nil else { continue }
            let stat = (try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8)) ?? ""
            if let close = stat.lastIndex(of: ")"), stat[stat.index(close, offsetBy: 2)] == "Z" { continue }  // a zombie
            out.append(pid)
        }
        return out
    }

    /// Runs a program inside the session to its end (killed after `timeout` s: 124).
    func run(_ argv: [String], timeout: Double = 60) -> Result {
        HeadlessSession.run(argv, env: environment, timeout: timeout)
    }

    /// Starts a program inside the session in the background; its output goes to `log` (a file
    /// in a temporary folder) when given.
    @discardableResult
    func start(_ argv: [String], log: String? = nil) throws -> Process {
        try launch(executable: argv[0], arguments: Array(argv.dropFirst()), environment: environment, log: log)
    }

    /// Starts `executable` in the background, kept for `close` to end.
    func launch(executable: String, arguments: [String], environment: [String: String]?, log: String?) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        if let environment { p.environment = environment }
        p.standardInput = FileHandle.nullDevice
        if let log {
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            p.standardOutput = FileHandle(forWritingAtPath: log)
        } else {
            p.standardOutput = FileHandle.nullDevice
        }
        p.standardError = FileHandle.nullDevice
        try p.run()
        started.append(p)
        return p
    }

    /// The checker's view of an application: one JSON object per named or editable node.
    func state(app: String) -> [[String: Any]] {
        run(["/usr/bin/python3", HeadlessSession.checker, "state", app], timeout: 30).lines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The whole desktop's picture, in logical pixels at scale 1 (each compositor's own tool).
    func screenshot() throws -> Image {
        throw SessionError("\(what): no screenshot tool")
    }

    /// Polls `probe` (every 20 ms, at most `timeout` s) until it gives a value.
    func waitFor<T>(_ what: String, timeout: Double = 20, _ probe: () throws -> T?) throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        var lastError: Error?
        while Date() < deadline {
            do {
                if let v = try probe() { return v }
            } catch {
                lastError = error
            }
            usleep(20_000)
        }
        throw SessionError("timed out waiting for \(what)\(lastError.map { " (last error: \($0))" } ?? "")")
    }

    static func run(_ argv: [String], env: [String: String]?, timeout: Double) -> Result {
        let dir = NSTemporaryDirectory()
        let out = dir + "switchscan-wl-out-\(UUID().uuidString)", err = dir + "switchscan-wl-err-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: out); try? FileManager.default.removeItem(atPath: err) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst())
        if let env { p.environment = env }
        p.standardOutput = FileHandle(forWritingAtPath: out)
        p.standardError = FileHandle(forWritingAtPath: err)
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch { return Result(status: 127, stdout: Data(), stderr: "cannot start \(argv[0]): \(error)") }
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
        return Result(status: status, stdout: FileManager.default.contents(atPath: out) ?? Data(),
                      stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }
}
