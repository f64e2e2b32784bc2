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

/// Standard output with a flush per line, so a transcript piped to another program (or killed by
/// a signal) never loses a line it printed.
enum Output {
    static func line(_ s: String) {
        var s = s
        s += "\n"
        s.withUTF8 { buf in
            var p = buf.baseAddress!
            var n = buf.count
            while n > 0 {
                let w = Foundation.write(1, p, n)
                if w <= 0 { if errno == EINTR { continue }; return }
                p += w
                n -= w
            }
        }
    }
}
