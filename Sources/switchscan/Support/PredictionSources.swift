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
/// (`words-LANGUAGE.txt`, `UserWords`, `LearnedWordsFile`: inside a word their words come first).
/// Without it nothing of theirs is read or written, so `text stats` and `simulate` stay the same
/// run after run.
///
/// Nothing here ends a session or is silent: what cannot be used is said once (`takeNotices`, a
/// transcript line and stderr for learning; `log` for presage's model) and the rest goes on:
///
///     words file unreadable (a folder, not UTF-8, malformed, too large) → left as it is, not
///         used, never written over; this session's words are still offered
///     words file cannot be written (a read-only folder, XDG_DATA_HOME unwritable) → said; the
///         session's words are still offered, and each sentence tries again
///     user-LANGUAGE.db refused by presage (not a database) → presage goes on without it
///     presage's model refused (missing, not a database) → presage off for the language; the
///         word list's words go on
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
    /// Languages whose words file cannot be read: never written over.
    private var unreadable: Set<String> = []
    private let log: (String) -> Void
    private var notices: [LearningNotice] = []
    private var said: Set<String> = []

    /// `presageDatabase`: presage's model (nil: Debian's `database_LANGUAGE.db`); `log`: notes
    /// for stderr.
    init(source: Source, languages: Set<String>, most: Int, presageDatabase: String? = nil, learning: String? = nil,
         log: @escaping (String) -> Void = { note($0) }) throws(InputError) {
        self.source = source
        self.most = max(most, 1)
        self.learning = learning
        self.log = log
        // presage makes the person's model in this folder (learning would make it anyway).
        if let learning { try? AtomicFile.makeFolder(learning) }
        for language in languages.sorted() {
            if source == .words || source == .mixed { listsToRead.insert(language) }
            if source == .presage || source == .mixed {
                let database = presageDatabase ?? "/usr/share/presage/database_\(language).db"
                guard FileManager.default.fileExists(atPath: database) else {
                    throw InputError(file: database, message: presageDatabase != nil ? "no such file (--presage-database)"
                        : "no presage database for \"\(language)\" (Debian's libpresage-data has en, es and it; another is built with presage's text2ngram)")
                }
                var o = PresageServer.Options(database: database, userDatabase: learning.map { "\($0)/user-\(language).db" })
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

    /// The words for `context`, at most `most`; presage's failure is thrown after the list's words
    /// were tried (a dead presage still leaves the list).
    func predict(_ context: String, language: String) -> (words: [String], failure: String?) {
        var fromPresage: [String] = []
        var failure: String?
        if presage[language] != nil {
            do { fromPresage = try askPresage(language) { c throws(PresageClient.Failure) in try c.predict(context) } ?? [] } catch { failure = "\(error)" }
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

    /// `ask` of `language`'s presage; a database it refuses is left out for the rest of the
    /// session (said once) and the question asked again without it (nil: presage is off).
    private func askPresage<T>(_ language: String, again: Bool = true, _ ask: (PresageClient) throws(PresageClient.Failure) -> T) throws(PresageClient.Failure) -> T? {
        for _ in 0..<(again ? 2 : 1) {
            guard let client = presage[language] else { return nil }
            do {
                return try ask(client)
            } catch .database(let path, let why) {
                client.stop()
                if let user = client.options.userDatabase, path == user {
                    var o = client.options
                    o.userDatabase = nil
                    presage[language] = PresageClient(executable: client.executable, options: o)
                    say(.failed, "\(why); presage goes on without your model, and nothing is learned into it until it is fixed or removed (it is left as it is)")
                } else {
                    presage[language] = nil
                    if said.insert("presage:\(language)").inserted {
                        log("note: presage is off for \"\(language)\": \(why); the keyboard's words come from the word list")
                    }
                    return nil
                }
            }
        }
        return nil
    }

    /// The file of the person's words for `language`.
    private func wordsFile(_ language: String) -> String? { learning.map { "\($0)/words-\(language).txt" } }

    /// The person's words for `language`, read from their file on first use (a file that cannot
    /// be read is said once and left alone).
    private func words(_ language: String) -> UserWords {
        if let known = userWords[language] { return known }
        var w = UserWords()
        if let file = wordsFile(language) {
            do {
                if let read = try LearnedWordsFile.read(file) {
                    w = read
                    if w.dropped > 0 {
                        say(.full, "\(file): \(w.count + w.dropped) words, more than the \(UserWords.maximumWords) kept: the most useful are used, and the \(w.dropped) others are left out when it is next written")
                    }
                }
            } catch {
                say(.failed, "\(error); your words in it are not used, and what you write is not kept, until it is fixed or removed (it is left as it is)")
                unreadable.insert(language)
            }
        }
        userWords[language] = w
        return w
    }

    /// Learns `text` (the person's own writing) into their model (learning never stops typing;
    /// what fails is in `takeNotices`).
    func learn(_ text: String, language: String) {
        guard let file = wordsFile(language), let folder = learning else { return }
        if presage[language]?.options.userDatabase != nil {
            do { _ = try askPresage(language, again: false) { c throws(PresageClient.Failure) in try c.learn(text) } } catch {
                say(.failed, "presage could not learn this sentence: \(error)")
            }
        }
        var w = words(language)
        let before = w.forgotten
        w.learn(text)
        userWords[language] = w
        if w.forgotten > before {
            say(.full, "\(file) holds \(UserWords.maximumWords) words, the most it keeps: the least useful make room for new ones (the least often written, then the longest ago; never a word of the last \(UserWords.graceSentences) sentences)")
        }
        guard !unreadable.contains(language) else { return }
        do {
            try AtomicFile.makeFolder(folder)
            try LearnedWordsFile.write(w, to: file)
        } catch {
            say(.failed, "your words are not kept: \(error); this session's words are offered until it ends")
        }
    }

    /// Says `reason` once a session.
    private func say(_ state: LearningNotice.State, _ reason: String) {
        if said.insert(reason).inserted { notices.append(LearningNotice(state, reason)) }
    }

    /// What learning has to say since the last call (each reason once a session).
    func takeNotices() -> [LearningNotice] {
        defer { notices = [] }
        return notices
    }
}
