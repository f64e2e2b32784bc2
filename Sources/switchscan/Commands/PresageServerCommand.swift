import ArgumentParser
import SwitchPredict

/// `switchscan presage-server`: the child process presage runs in (`PresageServer`), started by
/// switchscan itself, never by a person (hidden from help). An abort in presage ends only this.
struct PresageServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presage-server",
        abstract: "Run presage for another switchscan (internal).",
        shouldDisplay: false)

    @Option var database: String
    @Option(name: .customLong("user-database")) var userDatabase: String?
    @Option var home: String?
    @Option var suggestions: Int = 8
    @Flag(name: .customLong("online-learning")) var onlineLearning = false

    func validate() throws {
        guard (1...100).contains(suggestions) else { throw ValidationError("--suggestions: expected 1…100 words, found \(suggestions)") }
    }

    func run() throws {
        var o = PresageServer.Options(database: database, userDatabase: userDatabase, home: home)
        o.suggestions = suggestions
        o.onlineLearning = onlineLearning
        let status = PresageServer.serve(o)
        if status != 0 { throw ExitCode(status) }
    }
}
