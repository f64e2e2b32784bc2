import Foundation
import SwitchCore
import SwitchInput

/// Lock screen from the scanner menu (issue 23): `loginctl lock-session ID`, the ID being the
/// user's graphical session (`loginctl show-user "$USER" -p Display --value`), so it works from
/// the user service too (which runs outside the session). The entry is hidden unless the profile
/// shows it: a person who cannot unlock alone must not lock themselves out. A `result` line says
/// what was done.
final class LockScreen: LoopAdapter {
    let name = "lock screen"
    /// How long a loginctl may take before it is given up (killed).
    static let timeout: Double = 3

    func observe(_ line: TranscriptLine, model: ScanModel) -> [ShellInput] {
        guard case .perform(let p) = line.event, p.action == .lockScreen else { return [] }
        return [.line(.result(PerformResult(p, LockScreen.lock())))]
    }

    static func lock() -> PerformResult.Outcome {
        let env = ProcessInfo.processInfo.environment
        let user = env["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) } ?? ""
        let show = run(["loginctl", "show-user", user, "-p", "Display", "--value"])
        guard show.status == 0 else { return .failed("loginctl show-user \(user) failed: \(show.why)") }
        let session = show.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !session.isEmpty else { return .failed("\(user) has no graphical session to lock (loginctl show-user \(user) -p Display is empty)") }
        let lock = run(["loginctl", "lock-session", session])
        guard lock.status == 0 else { return .failed("loginctl lock-session \(session) failed: \(lock.why)") }
        return .done("loginctl lock-session \(session)")
    }

    /// Runs a program found on PATH; its status, standard output, and why it failed.
    static func run(_ argv: [String]) -> (status: Int32, output: String, why: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = argv
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch { return (127, "", "cannot start \(argv[0]): \(error)") }
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(5_000) }
        if p.isRunning {
            p.terminate()
            p.waitUntilExit()
            return (124, "", "no answer within \(formatNumber(timeout)) s")
        }
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let why = p.terminationStatus == 127 ? "\(argv[0]) is not installed" : error.isEmpty ? "status \(p.terminationStatus)" : error
        return (p.terminationStatus, output, why)
    }
}
