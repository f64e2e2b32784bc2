import ArgumentParser
import Foundation
import SwitchCore

/// The command-line conventions of libinput's tools, applied to every command in one place:
/// a usage error (unknown option, missing argument, bad value, a failed `validate()`) is exactly
/// one line on stderr, `switchscan: error: …`, and exit status 2 (swift-argument-parser's own
/// default is status 64 and a message followed by the whole usage). `--help` and `--version` print
/// to stdout with status 0; an `ExitCode` thrown by a command (which has printed its own line) is
/// kept; any other error is one `switchscan: error:` line and status 1.
enum CommandLineConventions {
    static let usageStatus: Int32 = 2

    static func main<Root: ParsableCommand>(_ root: Root.Type, arguments original: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        // Before anything is opened (`Output`): a closed descriptor 1 must not become a file's.
        Output.secureStandardDescriptors()
        let arguments: [String]
        do {
            arguments = try ArgumentCheck.normalized(original)
        } catch {
            printError("switchscan: error: \(error.message) (see '\(commandPath(root, original)) --help')")
            exit(usageStatus)
        }
        do {
            var command = try root.parseAsRoot(arguments)
            try command.run()
            exit(Output.failure == nil ? 0 : Exit.badInput.rawValue)
        } catch {
            let code = root.exitCode(for: error)
            if code == .success {
                // --help, --version, completion scripts: on standard output, through the checked path.
                let text = root.fullMessage(for: error)
                if !text.isEmpty { Output.line(text) }
                exit(Output.failure == nil ? 0 : Exit.badInput.rawValue)
            }
            if let thrown = error as? ExitCode { exit(Output.failure == nil ? thrown.rawValue : Exit.badInput.rawValue) }
            let message = oneLine(root.message(for: error))
            if code == .validationFailure {
                let path = commandPath(root, arguments)
                printError("switchscan: error: \(message) (see '\(path) --help')")
                exit(usageStatus)
            }
            printError("switchscan: error: \(message)")
            exit(code.rawValue)
        }
    }

    /// Joins a message's lines into one.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }

    /// "switchscan tree show": the root and the subcommands named at the start of `arguments`.
    static func commandPath(_ root: ParsableCommand.Type, _ arguments: [String]) -> String {
        var names = [root._commandName]
        var command = root
        for argument in arguments {
            guard let next = command.configuration.subcommands.first(where: { $0._commandName == argument || $0.configuration.aliases.contains(argument) }) else { break }
            names.append(next._commandName)
            command = next
        }
        return names.joined(separator: " ")
    }
}

/// What swift-argument-parser lets through on a command line and libinput's tools do not
/// (issue 22): checked before parsing.
/// - An option that names a file, given twice, is a usage error (the parser kept the last one
///   without a word: `--tree a.json --tree b.json` ran on b.json). Settings (`--format`,
///   `--until`) keep the usual last-one-wins of command lines.
/// - A negative number after an option that takes a number (`--until -5`, `--hold -1,0`) is that
///   option's value, so its own range check answers (the parser took `-5` for an option and said
///   "Missing value").
enum ArgumentCheck {
    struct Problem: Error { var message: String }

    /// Options that name one file (every command's; `--layout` and `--device` are repeatable).
    static let singleValued: Set<String> = ["--tree", "--events", "--profile", "--desc", "--report", "--output", "-o"]
    /// Options whose value may start with a minus sign.
    static let numeric: Set<String> = ["--until", "--hold", "--ignore", "--debounce", "--expect", "--layout", "--predictions", "--suggestions"]

    static func normalized(_ arguments: [String]) throws(Problem) -> [String] {
        var out: [String] = []
        var seen: [String: String] = [:]
        var k = 0
        while k < arguments.count {
            let a = arguments[k]
            if a == "--" {
                out += arguments[k...]
                break
            }
            let name = a.hasPrefix("-") ? String(a.split(separator: "=", maxSplits: 1).first ?? "") : ""
            var value: String?
            if a.hasPrefix("--"), let eq = a.firstIndex(of: "=") {
                value = String(a[a.index(after: eq)...])
                out.append(a)
            } else if numeric.contains(name), k + 1 < arguments.count, looksNegative(arguments[k + 1]) {
                value = arguments[k + 1]
                out.append(name + "=" + arguments[k + 1])
                k += 1
            } else {
                if singleValued.contains(name), k + 1 < arguments.count { value = arguments[k + 1] }
                out.append(a)
            }
            if singleValued.contains(name) {
                let canonical = name == "-o" ? "--output" : name
                if let first = seen[canonical] {
                    throw Problem(message: "\(name) given twice (\(TerminalText.quoted(first)), then \(TerminalText.quoted(value ?? ""))); give it once")
                }
                seen[canonical] = value ?? ""
            }
            k += 1
        }
        return out
    }

    /// `-5`, `-0.5`, `-1,0`, `-.5`: a number, not an option.
    static func looksNegative(_ s: String) -> Bool {
        guard s.hasPrefix("-"), s.count > 1 else { return false }
        let second = s[s.index(after: s.startIndex)]
        return second.isNumber || second == "."
    }
}
