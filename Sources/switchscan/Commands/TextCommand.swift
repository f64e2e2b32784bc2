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
        once per run; the time spent predicting is reported apart. Each layout is measured on the \
        phrases it can type (the baseline says on how many); the profile used is named.
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Argument(help: "A UTF-8 text file: one phrase a line (LF or CRLF; blank lines are skipped). Each layout types the phrases it has keys for; a phrase left out is said with its reason.")
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
        let loaded = try reportingInputErrors { try ProfileLibrary.load(profile) }
        let counts = try parseCounts()
        let methodList = try parseMethods()
        let personModel = try person.map { file in try reportingInputErrors { try PersonFiles.load(file) } }
        let phraseFile = InputFiles.displayName(phrases)
        let lines = try reportingInputErrors { () throws(InputError) -> [PhraseFile.Phrase] in
            let out = try PhraseFile.phrases(InputFiles.read(phrases, .phrases), file: phraseFile)
            if out.isEmpty { throw InputError(file: phraseFile, message: "no phrases (every line is blank)") }
            return out
        }
        var names = keyboard.map { [$0] } ?? KeyboardLibrary.entries().map(\.name)
        if !names.contains("qwerty") { names.insert("qwerty", at: 0) }
        let loadedLayouts = try reportingInputErrors { () throws(InputError) -> [(name: String, layout: KeyboardLayout)] in
            var out: [(name: String, layout: KeyboardLayout)] = []
            for name in names {
                let layout = try KeyboardLibrary.load(name)
                out.append((name.hasSuffix(".json") || name.contains("/") ? layout.name : name, layout))
            }
            return out
        }
        // Each layout types the phrases it has keys for; the others are left out of it, and said.
        let layouts = TextStatsRun.layouts(loadedLayouts, phrases: lines)
        guard layouts.contains(where: { !$0.phrases.isEmpty }) else {
            Self.noteLeftOut(layouts.flatMap(\.leftOut), file: phraseFile)
            throw fail("\(TerminalText.line(phraseFile)): no phrase can be typed on any layout")
        }

        let sources = try reportingInputErrors {
            try PredictionSources(source: counts.contains(where: { $0 > 0 }) ? predictor : .none, languages: Set(layouts.map(\.layout.language)),
                                  most: counts.max() ?? 1, presageDatabase: presageDatabase)
        }
        do { try sources.start() } catch { throw fail(TerminalText.line("\(error)")) }
        defer { sources.stop() }
        let shared = SharedPredictions(sources)

        // Every configuration on its own (the cores share them); the predictions are shared, so
        // each distinct context is predicted once in the whole run.
        let jobs = TextStatsRun.jobs(layouts, counts: counts, methods: methodList)
        let figures = PersonFiguresByJob(count: jobs.count)
        let out = ConfigurationResults(count: jobs.count)
        let base = loaded.profile
        // The longest first (group selection with few switches, then with predictions), so no
        // core is left idle at the end while the other finishes a long one.
        func weight(_ j: TextStatsRun.Job) -> Int {
            (j.method.switches > 1 ? 100 - j.method.switches * 10 : (j.method == .auto ? 20 : 10)) + (j.predictions > 0 ? 1 : 0)
        }
        let order = jobs.indices.sorted { weight(jobs[$0]) > weight(jobs[$1]) }
        // Progress on a terminal (`Progress`, as `calibrate`): the characters typed so far.
        let total = jobs.reduce(0) { sum, j in sum + layouts[j.layout].phrases.reduce(0) { $0 + $1.text.count } }
        let progress = SharedProgress(Progress("text stats"), total: total)
        DispatchQueue.concurrentPerform(iterations: jobs.count) { n in
            let k = order[n]
            let job = jobs[k]
            let layout = layouts[job.layout]
            let sim = TextEntrySimulation(base: base, layout: layout.layout, method: job.method, predictions: job.predictions)
            var outcomes: [Result<TextEntrySimulation.PhraseResult, TextEntrySimulation.Failure>] = []
            outcomes.reserveCapacity(layout.phrases.count)
            var models = KeyboardModelCache()
            if let personModel {
                // One session with the person (TextCommand+Person.swift): every phrase of the
                // layout typed in turn, the engine and its clock going on.
                let typed = Self.typeWithPerson(personModel, sim: sim, phrases: layout.phrases, models: &models,
                                                predict: { context, count in shared.predict(layout.layout.language, context, count) })
                out.set(k, typed.outcomes)
                if let f = typed.figures { figures.set(k, f) }
                progress.add(layout.phrases.reduce(0) { $0 + $1.text.count })
                return
            }
            for phrase in layout.phrases {
                do throws(TextEntrySimulation.Failure) {
                    outcomes.append(.success(try sim.type(phrase.text, models: &models) { context, count in
                        shared.predict(layout.layout.language, context, count)
                    }))
                } catch {
                    outcomes.append(.failure(error))
                }
                progress.add(phrase.text.count)
            }
            out.set(k, outcomes)
        }
        progress.finish()
        let assembled = TextStatsRun.assemble(layouts, jobs, out.results)
        Self.noteLeftOut(assembled.leftOut, file: phraseFile)
        let (predictSeconds, contexts) = shared.totals
        for failure in Set(shared.failures).sorted() { note("predictions failed: \(failure)") }
        var stats = TextStats(phrases: assembled.phrases, characters: assembled.characters, configurations: assembled.configurations,
                              predictionSeconds: predictSeconds, contexts: contexts, seconds: Date().timeIntervalSince(started), predictor: predictor.rawValue)
        stats.profile = (loaded.profile.name, loaded.path.map(InputFiles.displayName))
        stats.leftOut = assembled.leftOut
        stats.personName = personModel?.name
        figures.attach(to: &stats.configurations, layouts: layouts, jobs: jobs)
        stats.cpuSeconds = Self.cpuSeconds()
        switch format {
        case .json: Output.line(stats.json.rendered(indent: 2))
        case .text: Output.lines(stats.text)
        }
    }

    /// The phrases left out, one note a line and layout reason: the first 20 lines, then how many
    /// more (the JSON has them all).
    static func noteLeftOut(_ leftOut: [TextStats.LeftOut], file: String) {
        // One note per line and reason: several layouts that lack the same key are named together.
        var notes: [(line: Int, reason: String, layouts: [String])] = []
        for l in leftOut {
            if let k = notes.lastIndex(where: { $0.line == l.line && $0.reason == l.reason }) {
                notes[k].layouts.append(l.layout)
            } else {
                notes.append((l.line, l.reason, [l.layout]))
            }
        }
        let shown = 20
        for n in notes.prefix(shown) {
            let who = n.layouts.count == 1 ? "layout \(TerminalText.escaped(n.layouts[0]))" : "layouts " + n.layouts.map(TerminalText.escaped).joined(separator: ", ")
            note("\(file):\(n.line): left out of \(who): \(n.reason)")
        }
        if notes.count > shown {
            let lines = Set(notes.dropFirst(shown).map(\.line)).count
            note("\(file): \(notes.count - shown) more left out, on \(lines) more lines (--format json lists them all)")
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

/// Each configuration's outcomes, phrase by phrase, written by whichever thread ran it.
final class ConfigurationResults: @unchecked Sendable {
    typealias Outcomes = [Result<TextEntrySimulation.PhraseResult, TextEntrySimulation.Failure>]
    private let lock = NSLock()
    private var stored: [Outcomes]

    init(count: Int) { stored = Array(repeating: [], count: count) }

    func set(_ k: Int, _ outcomes: Outcomes) {
        lock.lock()
        stored[k] = outcomes
        lock.unlock()
    }

    var results: [Outcomes] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}

/// One `Progress` line for work done on several threads: each adds what it finished.
final class SharedProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let progress: Progress
    private let total: Int
    private var done = 0

    init(_ progress: Progress, total: Int) {
        self.progress = progress
        self.total = total
    }

    func add(_ n: Int) {
        lock.lock()
        defer { lock.unlock() }
        done += n
        progress.update("\(done) of \(total) characters typed")
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        progress.finish("\(done) of \(total) characters typed")
    }
}
extension PredictionSources.Source: ExpressibleByArgument {}
