import Foundation
import TestPrograms
import Testing

/// Issue 22, finding 4: `tree show`, `tree stats`, `tree import`, `simulate` and `calibrate` say
/// how far they are on standard error when it is a terminal (a real pseudo-terminal, as for a
/// person), at most once a second after the first 2 s, ending the line when done; nothing of it
/// when standard error is a file, and nothing on a terminal when the work is over within 2 s.
/// `SWITCHSCAN_PROGRESS_DELAY=0` starts at once, so a small input shows it without a slow test.
@Suite("progress on a terminal")
struct ProgressTests {
    /// Runs `argv` with stderr on a pseudo-terminal and stdout on a pipe, to its end. Prints JSON:
    /// what the terminal showed, stdout's length and the return code.
    static let driver = """
        import json, os, pty, subprocess, sys, threading
        master, slave = pty.openpty()
        p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
        os.close(slave)
        # stdout is read meanwhile: a command whose output fills the pipe must not wait on us.
        out = []
        reader = threading.Thread(target=lambda: out.append(p.stdout.read()))
        reader.start()
        seen = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        reader.join()
        p.wait()
        print(json.dumps({"terminal": seen.decode("utf-8", "replace"), "stdout": len(out[0]), "code": p.returncode}))
        """

    static func onTerminal(_ arguments: [String], delay: String?, environment: [String: String] = [:]) throws -> (terminal: String, stdout: Int, code: Int) {
        try Programs.require("/usr/bin/python3")
        let driver = try CLI.tempFile("progress-pty.py", Self.driver)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [driver, CLI.executable] + arguments
        p.currentDirectoryURL = CLI.packageRoot
        var env = ProcessInfo.processInfo.environment
        env["SWITCHSCAN_PROGRESS_DELAY"] = delay
        env.merge(environment) { $1 }
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let r = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(String(decoding: data, as: UTF8.self))")
        return (r["terminal"] as? String ?? "", r["stdout"] as? Int ?? 0, r["code"] as? Int ?? -1)
    }

    static let tree = "Sources/switchscan/Demo/demo-tree.json"
    static let commands: [[String]] = [
        ["tree", "show", tree], ["tree", "stats", tree], ["tree", "import", tree],
        ["simulate", "--tree", tree, "--events", "Sources/switchscan/Demo/demo-session.evemu", "--profile", "Profiles/single-switch-auto.json"],
        ["calibrate", "--tree", tree, "--events", "Sources/switchscan/Demo/demo-session.evemu", "--profile", "Profiles/single-switch-auto.json"],
    ]

    @Test(arguments: commands)
    func longCommandSaysHowFarItIsOnATerminal(_ arguments: [String]) throws {
        let name = arguments[0] == "tree" ? "tree " + arguments[1] : arguments[0]
        let r = try Self.onTerminal(arguments, delay: "0")
        #expect(r.code == 0, "\(r.terminal)")
        #expect(r.stdout > 0)
        #expect(r.terminal.hasPrefix("\rswitchscan \(name): "), "\(r.terminal.debugDescription)")
        #expect(r.terminal.hasSuffix("\r\n") || r.terminal.hasSuffix("\n"), "the line is ended: \(r.terminal.debugDescription)")
        // At most once a second: a run of a second or two shows one or two lines.
        #expect(r.terminal.components(separatedBy: "\rswitchscan \(name): ").count - 1 <= 3, "\(r.terminal.debugDescription)")
    }

    /// The same commands over in well under 2 s: not a word (the usual case must stay quiet).
    @Test(arguments: commands)
    func shortRunSaysNothingOnATerminal(_ arguments: [String]) throws {
        let r = try Self.onTerminal(arguments, delay: nil)
        #expect(r.code == 0)
        #expect(!r.terminal.contains("\rswitchscan"), "\(r.terminal.debugDescription)")
    }

    /// Not a terminal (a log, a pipe): no progress, even with the delay at 0.
    @Test(arguments: commands)
    func noProgressWhenStandardErrorIsNotATerminal(_ arguments: [String]) throws {
        let r = try CLI.run(arguments, environment: ["SWITCHSCAN_PROGRESS_DELAY": "0"])
        #expect(r.status == 0)
        #expect(!r.stderr.contains("\r"), "\(r.stderr.debugDescription)")
    }
}
