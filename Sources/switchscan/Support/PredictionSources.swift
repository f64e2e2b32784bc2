import Foundation
import SwitchCore
import SwitchPredict

/// Where the keyboard's words come from (docs/typing.md): presage's n-gram model (in its child
/// process) and the language's word list by frequency, mixed: before a word presage's words first
/// (what comes next depends on what came before), inside a word the list's first (its 40,000
/// words complete what presage's 7,000 do not), each filled by the other. Used by `run`,
/// `simulate` and `text stats`.
///
/// Learning (`learning`: the folder of the person's model, `$XDG_DATA_HOME/switchscan`): what they
/// write goes into presage's user n-gram model (`user-LANGUAGE.db`, presage's
/// UserSmoothedNgramPredictor, so what comes next learns their phrases) and their own word list
/// (`words-LANGUAGE.txt`, `UserWords`: inside a word their words come first). Without it nothing
/// of theirs is read or written, so `text stats` and `simulate` stay the same run after run.
final class PredictionSources {
    enum Source: String, CaseIterable { case words, presage, mixed, none }

    let source: Source
    let most: Int
    private var lists: [String: WordList] = [:]
    /// Languages whose word list is read on first use.
    private var listsToRead: Set<String> = []
    private var presage: [String: PresageClient] = [:]
    /// The folder of the person's model (nil: no learning).
    let learning: String?
    private var userWords: [String: UserWords] = [:]

    /// `databases`: presage's model per language (nil: Debian's `database_LANGUAGE.db`).
    init(source: Source, languages: Set<String>, most: Int, presageDatabase: String? = nil, learning: String? = nil,
         home: String) throws(InputError) {
        self.source = source
        self.most = max(most, 1)
        self.learning = learning
        for language in languages.sorted() {
            if source == .words || source == .mixed { listsToRead.insert(language) }
            if source == .presage || source == .mixed {
                let database = presageDatabase ?? "/usr/share/presage/database_\(language).db"
                guard FileManager.default.fileExists(atPath: database) else {
                    throw InputError(file: database, message: "no presage database for \"\(language)\" (Debian's libpresage-data has en, es and it; another is built with presage's text2ngram)")
                }
                var o = PresageServer.Options(database: database, userDatabase: learning.map { "\($0)/user-\(language).db" }, home: home)
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

    /// presage's own files for a run that learns nothing: a folder of this process's (`run`,
    /// `simulate` and `text stats` remove it at their end).
    static var scratchHome: String { FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-presage-\(getpid())").path }

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
        // In place: a copy would copy the list's memo of every prefix at every prediction.
        if lists[language] != nil { fromList = lists[language]!.predict(context, count: most) }
        let prefix = KeyboardText(before: context).wordPrefix
        let own = learning == nil ? [] : words(language).complete(prefix, count: most)
        let mixed = prefix.isEmpty ? fromPresage + fromList : own + fromList + fromPresage
        return (KeyboardPredictions.filter(mixed, prefix: prefix, count: most), failure)
    }

    /// The person's words for `language`, read from their file on first use (a file that cannot
    /// be read is said once and left alone: learning starts a new one only when it can).
    private func words(_ language: String) -> UserWords {
        if let known = userWords[language] { return known }
        var w = UserWords()
        if let folder = learning, let data = FileManager.default.contents(atPath: "\(folder)/words-\(language).txt") {
            do { w = try UserWords(text: String(decoding: data, as: UTF8.self), file: "\(folder)/words-\(language).txt") } catch {
                note("warning: \(error); your words are not used until it is fixed or removed")
                unreadable.insert(language)
            }
        }
        userWords[language] = w
        return w
    }
    private var unreadable: Set<String> = []

    /// Learns `text` (the person's own writing) into their model; the failure, if any (learning
    /// never stops typing).
    @discardableResult
    func learn(_ text: String, language: String) -> String? {
        guard let folder = learning else { return nil }
        var failure: String?
        if let client = presage[language] {
            do { try client.learn(text) } catch { failure = "\(error)" }
        }
        var w = words(language)
        guard !unreadable.contains(language) else { return failure }
        w.learn(text)
        userWords[language] = w
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // Atomically (a new file renamed over the old): a crash never leaves half of them.
            try Data(w.text.utf8).write(to: URL(fileURLWithPath: "\(folder)/words-\(language).txt"), options: .atomic)
        } catch {
            failure = failure ?? "cannot keep your words in \(folder): \(error)"
        }
        return failure
    }
}
