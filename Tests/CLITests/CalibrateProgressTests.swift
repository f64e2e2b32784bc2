import Foundation
import TestPrograms
import Testing

/// `calibrate` over a long recording (issue 12, part 3): with stderr on a terminal it says how far
/// it is, at most once a second, and Ctrl-C stops it with nothing half-printed on stdout. The
/// terminal is a real pseudo-terminal (Python's `pty`), so `isatty(2)` is true as for a person.
@Suite("switchscan calibrate: progress and Ctrl-C")
struct CalibrateProgressTests {
    /// 3,000 presses of 200 ms, one a second.
    static let longRecording: String = (0..<3000).map { k in
        let down = String(format: "%.6f", Double(k) + 0.1), up = String(format: "%.6f", Double(k) + 0.3)
        return "E: \(down) 0001 0039 0001\nE: \(down) 0000 0000 0000\nE: \(up) 0001 0039 0000\nE: \(up) 0000 0000 0000\n"
    }.joined()

    /// Runs `argv` with stderr on a pseudo-terminal and stdout on a pipe; after the first progress
    /// text on the terminal, sends SIGINT. Prints JSON: what the terminal showed, stdout, and the
    /// return code (negative: the signal that ended it).
    static let driver = """
        import json, os, pty, signal, subprocess, sys, time
        master, slave = pty.openpty()
        # SIGINT as a shell gives it: a test runner may start us with it ignored or blocked, and
        # exec keeps both.
        def as_from_a_shell():
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
        p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL,
                             preexec_fn=as_from_a_shell)
        os.close(slave)
        seen, end = b"", time.time() + 60
        while b"settings replayed" not in seen and time.time() < end and p.poll() is None:
            try:
                seen += os.read(master, 4096)
            except OSError:
                break
        p.send_signal(signal.SIGINT)
        try:
            out, _ = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            out, _ = p.communicate()
        print(json.dumps({"terminal": seen.decode("utf-8", "replace"), "stdout": out.decode(), "code": p.returncode}))
        """

    @Test(.needs(["/usr/bin/python3"])) func longRunShowsProgressOnATerminalAndStopsOnCtrlC() throws {
        let events = try CLI.tempFile("calibrate-long.events", Self.longRecording)
        let profile = try CLI.tempFile("calibrate-progress-profile.json", CalibrateCommandTests.profileJSON)
        let driver = try CLI.tempFile("pty-driver.py", Self.driver)
        // 101 × 11 × 9 = 9,999 settings: minutes in a debug build, so it is still running when
        // the first progress line comes (after one second).
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [driver, CLI.executable, "calibrate", "--events", events, "--tree", CLI.packageRoot.path + "/" + CLI.demoTree,
                       "--profile", profile, "--hold", "0:0.5:0.005"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let result = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(String(decoding: data, as: UTF8.self))")
        let terminal = result["terminal"] as? String ?? ""
        // "\rswitchscan calibrate: N of 9999 settings replayed", N short of the end.
        let progress = try #require(terminal.firstMatch(of: /\rswitchscan calibrate: ([0-9]+) of 9999 settings replayed/), "\(terminal)")
        #expect((Int(progress.1) ?? 0) > 0 && (Int(progress.1) ?? 9999) < 9999)
        #expect(result["code"] as? Int == -Int(SIGINT))
        #expect(result["stdout"] as? String == "")
    }
}
