import Foundation
import SwitchDisplayServers
import Testing

/// What the desktop tests on a headless compositor (sway, KWin) add to `HeadlessSession`: the real
/// `switchscan` run inside the session (`switchscan`), and under umockdev's live driver with the
/// desktop tests' switch box (Space next, Enter select, M menu, Esc escape at /dev/input/event10)
/// driven by a scenario that waits for conditions (`LiveScenario`: each press waits for the line
/// it causes), in the foreground (`live`) or in the background while the test looks at the
/// screen (`startLive`: the scenario waits for files the test writes).
extension HeadlessSession {
    static let desktopFixtures = repoRoot + "/Tests/SwitchDesktopTests/Fixtures"
    static let liveDriver = repoRoot + "/scripts/device-tests/umockdev-live.py"
    static let devices = repoRoot + "/Tests/SwitchInputTests/Fixtures/devices"
    static let twoSwitchProfile = desktopFixtures + "/profile-two-switch.json"
    static let typingProfile = desktopFixtures + "/profile-typing.json"

    /// The `switchscan` built next to the test bundle.
    static let binary: String = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("switchscan").path
    }()

    /// Whether `switchscan` and umockdev's live driver can run here.
    static let switchscanUsable: Bool = FileManager.default.isExecutableFile(atPath: binary)
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/umockdev-run")
        && run(["/usr/bin/python3", "-c", "import gi; gi.require_version('UMockdev', '1.0'); from gi.repository import UMockdev"],
               env: nil, timeout: 30).status == 0
    static let switchscanSkipMessage = "the switchscan binary and umockdev (scripts/apt/test-desktop.list)"

    /// A folder the session's user can read and write (scenarios, trees, outputs), removed by `done`.
    static func sharedFolder() throws -> String {
        let dir = NSTemporaryDirectory() + "switchscan-sway-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        chmod(dir, 0o777)
        return dir
    }

    /// `switchscan args` inside the session (`env`: added to the session's environment).
    func switchscan(_ args: [String], env: [String: String] = [:], timeout: Double = 60) -> Result {
        run(["/usr/bin/env"] + env.map { "\($0.key)=\($0.value)" } + [HeadlessSession.binary] + args, timeout: timeout)
    }

    /// The umockdev live driver's command line around `switchscan args`.
    private func driverCommand(_ scenario: String, _ args: [String], env: [String: String]) -> [String] {
        let d = HeadlessSession.devices
        return ["/usr/bin/env"] + env.map { "\($0.key)=\($0.value)" } + ["/usr/bin/python3", HeadlessSession.liveDriver,
                "--device", d + "/keyboard.umockdev", "--ioctl", "/dev/input/event10=\(d)/keyboard.ioctl", "--scenario", scenario, "--",
                HeadlessSession.binary] + args
    }

    /// `switchscan args` under the live driver, to its end.
    func live(_ scenario: LiveScenario, _ args: [String], env: [String: String] = [:], timeout: Double = 90) throws -> Result {
        let dir = try HeadlessSession.sharedFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try scenario.text.write(toFile: dir + "/scenario", atomically: true, encoding: .utf8)
        chmod(dir + "/scenario", 0o644)
        return run(driverCommand(dir + "/scenario", args, env: env), timeout: timeout)
    }

    /// A run in the background; its output in files of `dir` (a `sharedFolder`).
    final class LiveRun {
        let process: Process
        let dir: String
        init(process: Process, dir: String) {
            self.process = process
            self.dir = dir
        }

        var stdout: String { (try? String(contentsOfFile: dir + "/out", encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOfFile: dir + "/err", encoding: .utf8)) ?? "" }
        var lines: [[String: Any]] {
            stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        func lines(_ type: String) -> [[String: Any]] { lines.filter { $0["type"] as? String == type } }
        /// "action result how-or-reason" of each result line.
        var results: [String] { lines("result").map { "\($0["action"] ?? "") \($0["result"] ?? "") \($0["how"] ?? $0["reason"] ?? "")" } }

        /// Lets the scenario go on past its `waitfile DIR/name go`.
        func go(_ name: String) throws {
            try "go\n".write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
            chmod(dir + "/" + name, 0o644)
        }

        /// Waits (at most `timeout` s) until `condition` holds of the run; a timeout says what
        /// the run printed.
        func await(_ s: HeadlessSession, _ what: String, timeout: Double = 30, _ condition: (LiveRun) -> Bool) throws {
            do {
                _ = try s.waitFor(what, timeout: timeout) { condition(self) ? true : nil }
            } catch {
                throw SessionError("\(error)\nstdout:\n\(stdout.suffix(3000))\nstderr:\n\(stderr.suffix(3000))")
            }
        }

        /// Waits (at most `timeout` s) for the run to end; its exit status (nil: still running).
        func wait(timeout: Double = 60) -> Int32? {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            return process.isRunning ? nil : process.terminationStatus
        }
    }

    /// `switchscan args` under the live driver in the background (the scenario's `waitfile`s name
    /// files in the run's folder: `LiveScenario.waitFor(name)`).
    func startLive(_ scenario: (String) -> LiveScenario, _ args: [String], env: [String: String] = [:]) throws -> LiveRun {
        let dir = try HeadlessSession.sharedFolder()
        try scenario(dir).text.write(toFile: dir + "/scenario", atomically: true, encoding: .utf8)
        chmod(dir + "/scenario", 0o644)
        let command = driverCommand(dir + "/scenario", args, env: env)
        let p = try start(["/bin/sh", "-c", "exec \"$@\" >\"\(dir)/out\" 2>\"\(dir)/err\"", "sh"] + command)
        return LiveRun(process: p, dir: dir)
    }

    /// The scan items `tree show --desktop --app APP --format json` gives: label (the first part
    /// of the description) → (id, frame).
    func items(app: String) throws -> [String: (id: String, frame: [Double])] {
        let r = switchscan(["tree", "show", "--desktop", "--app", app, "--format", "json"])
        guard r.status == 0, let json = try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any] else {
            throw SessionError("tree show --desktop --app \(app) failed: \(r.stderr)")
        }
        var out: [String: (id: String, frame: [Double])] = [:]
        for item in json["items"] as? [[String: Any]] ?? [] {
            let label = (item["description"] as? String ?? "").components(separatedBy: ", ")[0]
            if out[label] == nil, let id = item["id"] as? String { out[label] = (id, item["frame"] as? [Double] ?? []) }
        }
        return out
    }

    /// The scan items' labels in scan order (`tree show --desktop --app APP`).
    func itemOrder(app: String) throws -> [String] {
        let r = switchscan(["tree", "show", "--desktop", "--app", app, "--format", "json"])
        guard r.status == 0, let json = try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any] else {
            throw SessionError("tree show --desktop --app \(app) failed: \(r.stderr)")
        }
        return (json["items"] as? [[String: Any]] ?? []).map { ($0["description"] as? String ?? "").components(separatedBy: ", ")[0] }
    }

    /// The checker's view of an application by name (the first node of each name).
    func named(app: String) -> [String: [String: Any]] {
        var out: [String: [String: Any]] = [:]
        for o in state(app: app) {
            let name = (o["name"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "(\(o["role"] as? String ?? "?"))"
            if out[name] == nil { out[name] = o }
        }
        return out
    }
}

extension SwaySession {
    /// Starts one of the desktop tests' GTK 3 applications (testapp.py, menuapp.py, listapp.py)
    /// and waits until sway shows it and its tree is on the accessibility bus.
    @discardableResult
    func startDesktopApp(_ name: String, args: [String] = [], ipc: SwayIPC) throws -> SwayWindow {
        let p = try start(["/usr/bin/python3", HeadlessSession.desktopFixtures + "/" + name] + args)
        let window = try waitFor("\(name)'s window in sway's tree") { try ipc.windows().first { $0.pid == p.processIdentifier } }
        let r = run(["/usr/bin/python3", HeadlessSession.checker, "wait", name, "30"], timeout: 40)
        if r.status != 0 { throw SessionError("\(name) did not appear on the accessibility bus: \(r.stderr)") }
        return window
    }
}

extension HeadlessSession.Result {
    var jsonLines: [[String: Any]] { lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } }
    func lines(_ type: String) -> [[String: Any]] { jsonLines.filter { $0["type"] as? String == type } }
    /// "action result how-or-reason" of each result line.
    var results: [String] { lines("result").map { "\($0["action"] ?? "") \($0["result"] ?? "") \($0["how"] ?? $0["reason"] ?? "")" } }
}

/// The name the sway tests were written with.
typealias SwayScenario = LiveScenario

/// A umockdev-live scenario for the switch box at /dev/input/event10 in which every press waits
/// for what it causes (a line of the transcript), never for a fixed time: it starts once the
/// first highlight is out, and ends once every press was read (`settle`), with SIGINT.
struct LiveScenario {
    private(set) var text = "wait running\nexpect \"type\":\"highlight\"\n"

    /// A tap of `key`, then the line matching `regex` that it causes. Taps are stamped at least
    /// 60 ms apart (the events' own time stamps, which the filters go by: more than the
    /// profiles' 25 ms debounce), so none is taken for a bounce, however fast the answers come.
    mutating func tap(_ key: String, expecting regex: String) {
        text += "sleep 60\nmark\npress /dev/input/event10 KEY_\(key)\nrelease /dev/input/event10 KEY_\(key)\nexpect \(regex)\n"
    }

    /// Space: the highlight moves (`n` times).
    mutating func next(_ n: Int = 1) {
        for _ in 0..<n { tap("SPACE", expecting: "\"type\":\"highlight\"") }
    }

    /// Enter on an item: its perform's result line (`expecting`: a submenu's menu line instead).
    mutating func select(expecting regex: String = "\"type\":\"result\"") { tap("ENTER", expecting: regex) }

    /// M: the scanner menu opens.
    mutating func menu() { tap("M", expecting: "\"type\":\"menu\"") }

    /// The menu's `page` entry (Space `page` times, Enter: its submenu), then its `entry` chosen.
    mutating func choose(page: Int, entry: Int, expecting regex: String = "\"type\":\"result\"") {
        menu()
        next(page)
        select(expecting: "\"type\":\"menu\"")
        next(entry)
        select(expecting: regex)
    }

    /// Waits until the program printed a line matching `regex` (since the last press).
    mutating func expect(_ regex: String) { text += "expect \(regex)\n" }

    /// Waits for the test to write `dir/name` (`LiveRun.go`).
    mutating func waitFor(_ dir: String, _ name: String) { text += "waitfile \(dir)/\(name) go\n" }

    /// Every press read, then SIGINT.
    mutating func end() { text += "settle\nsignal INT\n" }
}
