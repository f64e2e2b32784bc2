import ArgumentParser
import Foundation
import SwitchCore
import SwitchPredict

/// `switchscan text stats PHRASES [--profile P] [--keyboard L] [--format text|json]`: how fast a
/// perfect user types each line of PHRASES on every layout × method × prediction count × switch
/// count, with the real engine on the virtual clock (docs/typing.md).
struct TextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "text",
        abstract: "Measure typing with the scanning keyboard.",
        subcommands: [TextStatsCommand.self])
}

struct TextStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Type every line of a phrase file with a perfect user on every keyboard configuration, and compare their speed.",
        discussion: """
        Each line is typed by the real engine on the virtual clock: the keyboard opens on a text \
        field, and a perfect user presses at the very end of the right stop's dwell (what `tree \
        stats` counts: the stop at index j of a level costs (j+1)·T), or with k switches the \
        colour holding its key one scan time after the colours show; it takes a predicted word \
        as soon as the row shows it. Case is not compared (sentence starts are capitalised by the \
        keyboard). Configurations: every layout (or --keyboard), the methods linear, grouped, \
        rowColumn and auto with one switch, group selection with 2 to 6 switches, and every \
        --predictions count. The baseline is qwerty, one group per row, no prediction. Words per \
        minute count 5 characters a word; keystroke savings is 1 − the presses with prediction ÷ \
        the presses of the same layout and method without. Each distinct context is predicted \
        once per run; the time spent predicting is reported apart.
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Argument(help: "A text file: one phrase a line (blank lines are skipped).")
    var phrases: String

    @Option(help: "A profile (path or name) whose timings and filters to use. Default: the default profile, else the built-in defaults.")
    var profile: String?

    @Option(help: "Measure only this layout (name or path); the qwerty baseline is always measured.")
    var keyboard: String?

    @Option(help: "Prediction counts to measure, comma-separated (0 = no prediction row).")
    var predictions: String = "0,3,5,8"

    @Option(help: "Where predictions come from: words (the layout language's frequency list, by frequency alone), presage (its n-gram model, in a child process), mixed (presage's words, then the list's), none.")
    var predictor: PredictionSources.Source = .mixed

    @Option(name: .customLong("presage-database"), help: "presage's n-gram database (default: /usr/share/presage/database_LANGUAGE.db).")
    var presageDatabase: String?

    @Option(help: "text or json.")
    var format: Format = .text

    @Option(help: ArgumentHelp("Type with this simulated person instead of the perfect user: a JSON file (reaction time, press duration, misses, bounces, accidental presses, seed; docs/typing.md). The phrases are one session per configuration; each gains the person's counts.", valueName: "FILE"))
    var person: String?

    @Option(help: ArgumentHelp("Measure only these methods, comma-separated: linear, grouped, rowColumn, auto, groupSelection2 … groupSelection6.", valueName: "LIST"))
    var methods: String?

    func run() throws {
        let started = Date()
        let loaded = try reportingInputErrors { try ProfileLibrary.load(profile) }.profile
        let counts = try parseCounts()
        let methodList = try parseMethods()
        let personModel = try person.map { file in try reportingInputErrors { try PersonFiles.load(file) } }
        let lines = try reportingInputErrors { () throws(InputError) -> [(Int, String)] in
            let bytes = try InputFiles.read(phrases, .tree)
            var out: [(Int, String)] = []
            for (k, raw) in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let words = raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
                if !words.isEmpty { out.append((k + 1, words.joined(separator: " "))) }
            }
            if out.isEmpty { throw InputError(file: InputFiles.displayName(phrases), message: "no phrases (every line is blank)") }
            return out
        }
        var names = keyboard.map { [$0] } ?? KeyboardLibrary.entries().map(\.name)
        if !names.contains("qwerty") { names.insert("qwerty", at: 0) }
        let layouts = try reportingInputErrors { () throws(InputError) -> [(String, KeyboardLayout)] in
            var out: [(String, KeyboardLayout)] = []
            for name in names {
                let layout = try KeyboardLibrary.load(name)
                out.append((name.hasSuffix(".json") ? layout.name : name, layout))
            }
            return out
        }
        // A phrase some layout cannot type is left out of every configuration (the same phrases
        // for all), and said.
        var kept: [(Int, String)] = []
        let typeable = layouts.map { ($0.0, $0.1.typeableCharacters) }  // made once: a set of every page's keys
        for (line, text) in lines {
            if let (name, c) = typeable.lazy.compactMap({ (n, set) in text.first { !set.contains($0) }.map { (n, $0) } }).first {
                note("\(InputFiles.displayName(phrases)):\(line): left out: layout \(TerminalText.escaped(name)) has no key for \(TerminalText.quoted(String(c)))")
            } else {
                kept.append((line, text))
            }
        }
        guard !kept.isEmpty else { throw fail("\(InputFiles.displayName(phrases)): no phrase can be typed on every layout") }

        let sources = try reportingInputErrors {
            try PredictionSources(source: counts.contains(where: { $0 > 0 }) ? predictor : .none, languages: Set(layouts.map(\.1.language)),
                                  most: counts.max() ?? 1, presageDatabase: presageDatabase)
        }
        do { try sources.start() } catch { throw fail(TerminalText.line("\(error)")) }
        defer { sources.stop() }
        let shared = SharedPredictions(sources)

        // Every configuration on its own (the cores share them); the predictions are shared, so
        // each distinct context is predicted once in the whole run.
        var list: [(name: String, layout: KeyboardLayout, method: TextEntrySimulation.Method, n: Int)] = []
        for (name, layout) in layouts {
            for method in methodList { for n in counts { list.append((name, layout, method, n)) } }
        }
        let jobs = list
        let out = ConfigurationResults(count: jobs.count)
        let phraseFile = InputFiles.displayName(phrases)
        let base = loaded
        let phraseList = kept
        // The longest first (group selection with few switches, then with predictions), so no
        // core is left idle at the end while the other finishes a long one.
        func weight(_ j: (name: String, layout: KeyboardLayout, method: TextEntrySimulation.Method, n: Int)) -> Int {
            (j.method.switches > 1 ? 100 - j.method.switches * 10 : (j.method == .auto ? 20 : 10)) + (j.n > 0 ? 1 : 0)
        }
        let order = jobs.indices.sorted { weight(jobs[$0]) > weight(jobs[$1]) }
        DispatchQueue.concurrentPerform(iterations: jobs.count) { n in
            let k = order[n]
            let job = jobs[k]
            let sim = TextEntrySimulation(base: base, layout: job.layout, method: job.method, predictions: job.n)
            var total = TextStats.Totals()
            var models = KeyboardModelCache()
            if let personModel {
                // One session with the person (TextCommand+Person.swift).
                do {
                    out.set(k, try Self.typeWithPerson(personModel, sim: sim, job: (job.name, job.method, job.n), phrases: phraseList, models: &models,
                                                      predict: { context, count in shared.predict(job.layout.language, context, count) }))
                } catch {
                    out.fail("\(phraseFile): \(job.name) \(job.method.name): \(error)")
                }
                return
            }
            for (line, text) in phraseList {
                do {
                    let r = try sim.type(text, models: &models) { context, count in shared.predict(job.layout.language, context, count) }
                    total.add(r, line: line, text: text)
                } catch {
                    out.fail("\(phraseFile):\(line): \(job.name) \(job.method.name): \(error)")
                    return
                }
            }
            out.set(k, TextStats.Configuration(keyboard: job.name, method: job.method, predictions: job.n, totals: total))
        }
        if let failure = out.failure { throw fail(failure) }
        let results = out.results.compactMap { $0 }
        let (predictSeconds, contexts) = shared.totals
        for failure in Set(shared.failures).sorted() { note("predictions failed: \(failure)") }
        var stats = TextStats(phrases: kept.count, configurations: results, predictionSeconds: predictSeconds, contexts: contexts,
                              seconds: Date().timeIntervalSince(started), predictor: predictor.rawValue)
        stats.personName = personModel?.name
        stats.cpuSeconds = Self.cpuSeconds()
        switch format {
        case .json: Output.line(stats.json.rendered(indent: 2))
        case .text: Output.lines(stats.text)
        }
    }

    /// This process's CPU time so far, user and system, all threads (presage's child is apart:
    /// the time waited for it is `prediction.seconds`).
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    private func parseCounts() throws -> [Int] {
        var out: [Int] = []
        for part in predictions.split(separator: ",") {
            guard let n = Int(part.trimmingCharacters(in: .whitespaces)), (0...KeyboardSettings.maximumPredictions).contains(n) else {
                throw ValidationError("--predictions: expected counts 0…\(KeyboardSettings.maximumPredictions) separated by commas, found \"\(predictions)\"")
            }
            if !out.contains(n) { out.append(n) }
        }
        if !out.contains(0) { out.insert(0, at: 0) }  // keystroke savings compare with it
        return out
    }
}

/// The predictions of a `text stats` run, shared by the configurations that run at once: a
/// context is predicted once (the first configuration that needs it asks; another that needs it
/// meanwhile waits for that answer), and the time spent predicting is counted apart. A context
/// known already is answered without waiting for the predictor's work on another.
final class SharedPredictions: @unchecked Sendable {
    /// Guards `cache` and the counts (held for a lookup only).
    private let lock = NSLock()
    /// One question at a time to the predictor (its child process answers one at a time).
    private let asking = NSLock()
    private let sources: PredictionSources
    private var cache: [String: [String]] = [:]
    private var seconds = 0.0
    private var contexts = 0
    private var failed: [String] = []

    init(_ sources: PredictionSources) { self.sources = sources }

    private func known(_ key: String) -> [String]? {
        lock.lock()
        defer { lock.unlock() }
        return cache[key]
    }

    func predict(_ language: String, _ context: String, _ count: Int) -> [String] {
        let key = language + "\u{0}" + context
        if let known = known(key) { return Array(known.prefix(count)) }
        asking.lock()
        defer { asking.unlock() }
        if let known = known(key) { return Array(known.prefix(count)) }  // asked while this waited
        let t0 = Date()
        let (found, failure) = sources.predict(context, language: language)
        let spent = Date().timeIntervalSince(t0)
        lock.lock()
        if let failure { failed.append(failure) }
        seconds += spent
        contexts += 1
        cache[key] = found
        lock.unlock()
        return Array(found.prefix(count))
    }

    var failures: [String] {
        lock.lock()
        defer { lock.unlock() }
        return failed
    }

    var totals: (seconds: Double, contexts: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (seconds, contexts)
    }
}

/// Each configuration's totals, written by whichever thread ran it.
final class ConfigurationResults: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var results: [TextStats.Configuration?]
    private(set) var failure: String?

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func set(_ k: Int, _ c: TextStats.Configuration) {
        lock.lock()
        results[k] = c
        lock.unlock()
    }

    func fail(_ message: String) {
        lock.lock()
        if failure == nil { failure = message }
        lock.unlock()
    }
}
extension PredictionSources.Source: ExpressibleByArgument {}
