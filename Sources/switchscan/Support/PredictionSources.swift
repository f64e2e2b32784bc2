import Foundation
import SwitchCore
import SwitchPredict

/// Where the keyboard's words come from (docs/typing.md): presage's n-gram model (in its child
/// process) and the language's word list by frequency, mixed: before a word presage's words first
/// (what comes next depends on what came before), inside a word the list's first (its 40,000
/// words complete what presage's 7,000 do not), each filled by the other. Used by `run`,
/// `simulate` and `text stats`.
final class PredictionSources {
    enum Source: String, CaseIterable { case words, presage, mixed, none }

    let source: Source
    let most: Int
    private var lists: [String: WordList] = [:]
    /// Languages whose word list is read on first use.
    private var listsToRead: Set<String> = []
    private var presage: [String: PresageClient] = [:]

    /// `databases`: presage's model per language (nil: Debian's `database_LANGUAGE.db`).
    init(source: Source, languages: Set<String>, most: Int, presageDatabase: String? = nil, userDatabase: ((String) -> String?)? = nil,
         home: String) throws(InputError) {
        self.source = source
        self.most = max(most, 1)
        for language in languages.sorted() {
            if source == .words || source == .mixed { listsToRead.insert(language) }
            if source == .presage || source == .mixed {
                let database = presageDatabase ?? "/usr/share/presage/database_\(language).db"
                guard FileManager.default.fileExists(atPath: database) else {
                    throw InputError(file: database, message: "no presage database for \"\(language)\" (Debian's libpresage-data has en, es and it; another is built with presage's text2ngram)")
                }
                var o = PresageServer.Options(database: database, userDatabase: userDatabase?(language), home: home)
                o.suggestions = self.most
                presage[language] = PresageClient(executable: ProfileLibrary.executablePath() ?? CommandLine.arguments[0], options: o)
            }
        }
    }

    /// Reads the word lists and starts the presage children now (what is missing is said at
    /// once); without it they start on the first prediction.
    func start() throws {
        for language in listsToRead.sorted() { lists[language] = try KeyboardLibrary.wordList(language: language) }
        listsToRead = []
        for c in presage.values where !c.isRunning { try c.start() }
    }

    func stop() { for c in presage.values { c.stop() } }

    /// Seconds spent waiting for presage.
    var presageSeconds: Double { presage.values.reduce(0) { $0 + $1.seconds } }

    /// The words for `context`, at most `most`; presage's failure is thrown after the list's words
    /// were tried (a dead presage still leaves the list).
    func predict(_ context: String, language: String) -> (words: [String], failure: String?) {
        var fromPresage: [String] = []
        var failure: String?
        if let client = presage[language] {
            do { fromPresage = try client.predict(context) } catch { failure = "\(error)" }
        }
        var fromList: [String] = []
        if listsToRead.remove(language) != nil {
            do { lists[language] = try KeyboardLibrary.wordList(language: language) } catch { failure = failure ?? "\(error)" }
        }
        if var list = lists[language] {
            fromList = list.predict(context, count: most)
            lists[language] = list
        }
        let prefix = KeyboardText(before: context).wordPrefix
        let mixed = prefix.isEmpty ? fromPresage + fromList : fromList + fromPresage
        return (KeyboardPredictions.filter(mixed, prefix: prefix, count: most), failure)
    }
}
