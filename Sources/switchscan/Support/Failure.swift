import ArgumentParser
import Foundation
import SwitchCore

/// Exit statuses: 0 done, 1 `tree audit` found problems, 2 bad input (one clear line on stderr).
enum Exit {
    static let findings = ExitCode(1)
    static let badInput = ExitCode(2)
}

/// Runs `body`; an `InputError` becomes one line on stderr and exit status 2.
func reportingInputErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as InputError {
        printError("switchscan: error: \(error)")
        throw Exit.badInput
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// The one-line error for a failure that is not an `InputError` (a device, a file to write),
/// and the exit status 2 to throw.
func fail(_ message: String) -> ExitCode {
    printError("switchscan: error: \(message)")
    return Exit.badInput
}

/// Standard output written straight to fd 1, so what was printed is out even if the program is
/// then killed by a signal.
enum Output {
    /// One line, written at once.
    static func line(_ s: String) {
        write(s + "\n")
    }

    /// Many lines, written in blocks of about 64 KiB: one `write` per line costs a system call
    /// per line (51,000 for a large dump's scan order).
    static func lines<S: Sequence<String>>(_ lines: S) {
        var block = ""
        block.reserveCapacity(70_000)
        for line in lines {
            block += line
            block += "\n"
            if block.utf8.count >= 65_536 {
                write(block)
                block.removeAll(keepingCapacity: true)
            }
        }
        if !block.isEmpty { write(block) }
    }

    /// All of `text` (retrying short writes and EINTR); gives up silently on another error (a
    /// closed pipe ends the program with SIGPIPE anyway).
    static func write(_ text: String) {
        _ = write(text, to: 1)
    }

    /// All of `text` to `fd`; false (errno set) when a write fails.
    static func write(_ text: String, to fd: Int32) -> Bool {
        var text = text
        return text.withUTF8 { buf -> Bool in
            guard var p = buf.baseAddress else { return true }
            var n = buf.count
            while n > 0 {
                let w = Foundation.write(fd, p, n)
                if w < 0 && errno == EINTR { continue }
                if w <= 0 { return false }
                p += w
                n -= w
            }
            return true
        }
    }
}

/// Large values a command has finished with, left for the process's exit to reclaim: freeing a
/// 300,000-node tree and its model node by node takes a tenth of `tree show`'s time just before
/// the process ends anyway (compilers skip that final free for the same reason).
enum KeptUntilExit {
    nonisolated(unsafe) private static var values: [Any] = []

    static func keep(_ value: Any) { values.append(value) }
}

/// The format of a report (`tree show`, `tree stats`, `devices`, `calibrate`).
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// `--until` for every command that takes it (`simulate`, `run`, `record`): the one bound on
/// times from outside (`TimeLimit`), a clear error and exit status 2 beyond it.
func validateUntil(_ until: Double?) throws {
    if let until, TimeLimit.instant(seconds: until) == nil {
        throw ValidationError("--until must be a number of seconds between 0 and \(TimeLimit.maximumSeconds)")
    }
}
