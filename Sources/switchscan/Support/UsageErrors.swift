import ArgumentParser
import Foundation

/// The command-line conventions of libinput's tools, applied to every command in one place:
/// a usage error (unknown option, missing argument, bad value, a failed `validate()`) is exactly
/// one line on stderr, `switchscan: error: …`, and exit status 2 (swift-argument-parser's own
/// default is status 64 and a message followed by the whole usage). `--help` and `--version` print
/// to stdout with status 0; an `ExitCode` thrown by a command (which has printed its own line) is
/// kept; any other error is one `switchscan: error:` line and status 1.
enum CommandLineConventions {
    static let usageStatus: Int32 = 2

    static func main<Root: ParsableCommand>(_ root: Root.Type, arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        // Before anything is opened (`Output`): a closed descriptor 1 must not become a file's.
        Output.secureStandardDescriptors()
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
