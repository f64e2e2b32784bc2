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

/// One line on standard error, through the one output path (`Output.error`).
func printError(_ message: String) {
    Output.error(message)
}

/// The one-line error for a failure that is not an `InputError` (a device, a file to write),
/// and the exit status 2 to throw.
func fail(_ message: String) -> ExitCode {
    printError("switchscan: error: \(message)")
    return Exit.badInput
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
