import Dispatch
import Foundation
import SwitchDisplayServers
import Synchronization
import Testing

/// A headless sway session for one test (`scripts/wayland-tests/run-sway.sh`: a private session
/// bus, the a11y bus and registry, sway with fixed outputs, run as the unprivileged user
/// `switchscan-wl` when the tests run as root), torn down at `close` (and by run-sway.sh itself if
/// the test process dies: its command waits on our end of a pipe). Tests skip with a message
/// where sway cannot start (`scripts/setup.sh --tests` installs scripts/apt/test-wayland.list).
///
/// The components under test connect from this process, with the session's environment
/// (`environment`: WAYLAND_DISPLAY, XDG_RUNTIME_DIR, SWAYSOCK): root may open the session user's
/// sockets. Everything that checks them runs inside the session as its user (`run`, `start`):
/// the applications, pyatspi (an application's accessibility socket admits its own user only),
/// grim. A watchdog tears a session still open after `watchdog` seconds down (whatever the test
/// waits on then fails) and `close` records it; a test still stuck `grace` seconds later aborts
/// the run with a message: red, never hung.
final class SwaySession {
    static let repoRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
    static let runSway = repoRoot + "/scripts/wayland-tests/run-sway.sh"
    static let fixtures = repoRoot + "/Tests/SwitchWaylandTests/Fixtures"
    static let app = fixtures + "/wlapp.py"
    static let extents = fixtures + "/atspi-extents.py"
    static let checker = repoRoot + "/Tests/SwitchDesktopTests/Fixtures/atspi-check.py"

    /// Whether sway, grim, at-spi2-core and Debian's python3 with GTK 3, GTK 4 and pyatspi are here.
    static let usable: Bool = {
        let fm = FileManager.default
        for tool in ["/usr/bin/sway", "/usr/bin/grim", "/usr/bin/swaymsg", "/usr/bin/dbus-daemon", "/usr/libexec/at-spi-bus-launcher",
                     "/usr/bin/python3", "/usr/bin/setpriv"] where !fm.isExecutableFile(atPath: tool) { return false }
        let probe = run(["/usr/bin/python3", "-c", """
            import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk; import pyatspi
            """], env: nil, timeout: 30)
        return probe.status == 0
    }()
    static let skipMessage = "needs sway, grim, at-spi2-core, python3-gi with GTK 3 and 4, python3-pyatspi (scripts/apt/test-wayland.list)"

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

    /// RUN_SWAY_DIR of the session.
    let directory: String
    /// The session's environment (what its processes get).
    let environment: [String: String]
    private let session: Process
    private let keepAlive: Pipe
    private var started: [Process] = []
    private let watch = Watch()
    private var timer: DispatchSourceTimer?
    private let limit: Double
    static let grace: Double = 30

    final class Watch: Sendable {
        let fired = Atomic<Bool>(false)
        let closed = Atomic<Bool>(false)
    }

    /// Starts sway with `outputs` (run-sway.sh's --output: "1280x800", "1280x800@2").
    init(outputs: [String] = ["1280x800"], watchdog: Double = 180) throws {
        limit = watchdog
        let p = Process()
        p.executableURL = URL(fileURLWithPath: SwaySession.runSway)
        p.arguments = outputs.flatMap { ["--output", $0] } + ["bash", "-c", "echo \"$RUN_SWAY_DIR\"; read -r _ || true"]
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
            throw SessionError("the headless sway session did not start: \(why)")
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
            DispatchQueue.global().asyncAfter(deadline: .now() + SwaySession.grace) {
                guard !watch.closed.load(ordering: .acquiring) else { return }
                let message = "SwaySession watchdog: a Wayland test is still stuck \(SwaySession.grace) s after its session was torn down; aborting the test run\n"
                _ = message.withCString { write(2, $0, strlen($0)) }
                abort()
            }
        }
        timer.schedule(deadline: .now() + watchdog)
        timer.resume()
        self.timer = timer
    }

    /// Ends the session (run-sway.sh's teardown) and waits for run-sway.sh to exit.
    func close() {
        guard !watch.closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        timer?.cancel()
        if watch.fired.load(ordering: .acquiring) {
            Issue.record("watchdog: the test was still running after \(limit) s, so its sway session was torn down")
        }
        for p in started where p.isRunning { p.terminate() }
        try? keepAlive.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(15)
        while session.isRunning && Date() < deadline { usleep(20_000) }
        if session.isRunning { session.terminate() }
    }

    /// run-sway.sh's exit status after `close` (0: torn down with nothing left behind).
    var exitStatus: Int32? { session.isRunning ? nil : session.terminationStatus }

    deinit { close() }

    /// Live processes whose environment names this session (what teardown must leave none of).
    func leftovers() -> [Int32] {
        let marker = Data("RUN_SWAY_DIR=\(directory)\0".utf8)
        var out: [Int32] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(name), let env = FileManager.default.contents(atPath: "/proc/\(name)/environ"),
                  env.range(of: marker) != nil else { continue }
            let stat = (try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8)) ?? ""
            if let close = stat.lastIndex(of: ")"), stat[stat.index(close, offsetBy: 2)] == "Z" { continue }  // a zombie
            out.append(pid)
        }
        return out
    }

    /// Runs a program inside the session, as its user, to its end (killed after `timeout` s: 124).
    func run(_ argv: [String], timeout: Double = 60) -> Result {
        SwaySession.run([SwaySession.runSway, "--join", directory] + argv, env: nil, timeout: timeout)
    }

    /// Starts a program inside the session in the background; its output goes to `log` (a file
    /// in a temporary folder) when given. The process is the program itself (run-sway.sh execs).
    @discardableResult
    func start(_ argv: [String], log: String? = nil) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: SwaySession.runSway)
        p.arguments = ["--join", directory] + argv
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

    /// Starts the test application (Fixtures/wlapp.py) and waits until sway shows its window and
    /// its tree is on the accessibility bus. Returns its window.
    @discardableResult
    func startApp(gtk: Int = 3, title: String = "Wayland test", name: String = "wlapp.py", size: String = "400x300",
                  headerBar: Bool = false, fixed: Bool = false, ipc: SwayIPC) throws -> SwayWindow {
        let p = try start(["/usr/bin/python3", SwaySession.app, "--gtk", "\(gtk)", "--title", title, "--name", name, "--size", size]
                          + (headerBar ? ["--headerbar"] : []) + (fixed ? ["--fixed"] : []))
        let window = try waitFor("\(name)'s window in sway's tree") {
            try ipc.windows().first { $0.pid == p.processIdentifier && $0.title == title }
        }
        let r = run(["/usr/bin/python3", SwaySession.checker, "wait", name, "30"], timeout: 40)
        if r.status != 0 { throw SessionError("\(name) did not appear on the accessibility bus: \(r.stderr)") }
        return window
    }

    struct Extents: CustomStringConvertible {
        var x: Int, y: Int, width: Int, height: Int
        var window: String
        /// The first child's top-left (a GTK 3 window's title bar).
        var first: (x: Int, y: Int)?
        var description: String { "\(width)x\(height)+\(x)+\(y)" + (first.map { " (first child at \($0.x), \($0.y))" } ?? "") }
    }

    /// Where AT-SPI says the node `name` of application `app` is (window-relative on Wayland).
    func extents(app: String = "wlapp.py", _ name: String) throws -> Extents {
        let r = run(["/usr/bin/python3", SwaySession.extents, app, name], timeout: 30)
        guard r.status == 0, let o = try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any],
              let x = o["x"] as? Int, let y = o["y"] as? Int, let w = o["width"] as? Int, let h = o["height"] as? Int else {
            throw SessionError("AT-SPI has no \"\(name)\" in \(app): \(r.stderr)")
        }
        let first = (o["first"] as? [String: Any]).flatMap { f in (f["x"] as? Int).flatMap { fx in (f["y"] as? Int).map { (fx, $0) } } }
        return Extents(x: x, y: y, width: w, height: h, window: o["window"] as? String ?? "", first: first)
    }

    /// The checker's view of an application: one JSON object per named or editable node.
    func state(app: String = "wlapp.py") -> [[String: Any]] {
        run(["/usr/bin/python3", SwaySession.checker, "state", app], timeout: 30).lines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// A screenshot by grim (inside the session): of `output`, or of a region of the desktop.
    func screenshot(output: String? = nil, region: (x: Int, y: Int, width: Int, height: Int)? = nil, scale: Int? = nil) throws -> Image {
        var argv = ["/usr/bin/grim", "-t", "ppm"]
        if let scale { argv += ["-s", "\(scale)"] }
        if let output { argv += ["-o", output] }
        if let r = region { argv += ["-g", "\(r.x),\(r.y) \(r.width)x\(r.height)"] }
        let r = run(argv + ["-"], timeout: 30)
        guard r.status == 0, let image = Image(ppm: r.stdout) else { throw SessionError("grim failed: \(r.stderr)") }
        return image
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

/// An RGB picture (grim's PPM), for pixel checks.
struct Image {
    let width: Int, height: Int
    let rgb: [UInt8]

    init(width: Int, height: Int, rgb: [UInt8]) {
        (self.width, self.height, self.rgb) = (width, height, rgb)
    }

    /// Binary PPM (P6, maxval 255).
    init?(ppm data: Data) {
        let bytes = [UInt8](data)
        var fields: [Int] = [], i = 2
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "6") else { return nil }
        while fields.count < 3 && i < bytes.count {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0a || bytes[i] == 0x0d || bytes[i] == 0x09 { i += 1 }
            if i < bytes.count, bytes[i] == UInt8(ascii: "#") { while i < bytes.count, bytes[i] != 0x0a { i += 1 }; continue }
            var v = 0
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { v = v * 10 + Int(bytes[i] - 0x30); i += 1 }
            fields.append(v)
        }
        i += 1  // the single whitespace after maxval
        guard fields.count == 3, fields[2] == 255, bytes.count - i >= fields[0] * fields[1] * 3 else { return nil }
        width = fields[0]
        height = fields[1]
        rgb = Array(bytes[i..<i + width * height * 3])
    }

    /// 0xRRGGBB of a pixel.
    func rgb(_ x: Int, _ y: Int) -> UInt32 {
        let k = (y * width + x) * 3
        return UInt32(rgb[k]) << 16 | UInt32(rgb[k + 1]) << 8 | UInt32(rgb[k + 2])
    }

    /// "#RRGGBB" of a pixel.
    func pixel(_ x: Int, _ y: Int) -> String {
        let v = rgb(x, y)
        let hex = String(v, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - hex.count) + hex
    }

    /// The bounding box of the pixels of exactly this colour (0xRRGGBB); nil when there are none.
    func box(of color: UInt32) -> (x: Int, y: Int, width: Int, height: Int)? {
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<height {
            for x in 0..<width where rgb(x, y) == color {
                x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
            }
        }
        return x1 < 0 ? nil : (x0, y0, x1 - x0 + 1, y1 - y0 + 1)
    }
}
