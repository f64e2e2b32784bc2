import ArgumentParser
import Foundation
import SwitchCore

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
    enum Predictor: String, ExpressibleByArgument, CaseIterable { case words, none }

    @Argument(help: "A text file: one phrase a line (blank lines are skipped).")
    var phrases: String

    @Option(help: "A profile (path or name) whose timings and filters to use. Default: the default profile, else the built-in defaults.")
    var profile: String?

    @Option(help: "Measure only this layout (name or path); the qwerty baseline is always measured.")
    var keyboard: String?

    @Option(help: "Prediction counts to measure, comma-separated (0 = no prediction row).")
    var predictions: String = "0,3,5,8"

    @Option(help: "Where predictions come from: words (the layout language's frequency list).")
    var predictor: Predictor = .words

    @Option(help: "text or json.")
    var format: Format = .text

    func run() throws {
        let started = Date()
        let loaded = try reportingInputErrors { try ProfileLibrary.load(profile) }.profile
        let counts = try parseCounts()
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
        for (line, text) in lines {
            if let (name, c) = layouts.lazy.compactMap({ (n, l) in text.first { !l.typeableCharacters.contains($0) }.map { (n, $0) } }).first {
                note("\(InputFiles.displayName(phrases)):\(line): left out: layout \(name) has no key for \"\(c)\"")
            } else {
                kept.append((line, text))
            }
        }
        guard !kept.isEmpty else { throw fail("\(InputFiles.displayName(phrases)): no phrase can be typed on every layout") }

        var words: [String: WordList] = [:]
        if predictor == .words, counts.contains(where: { $0 > 0 }) {
            for (_, l) in layouts where words[l.language] == nil {
                words[l.language] = try reportingInputErrors { try KeyboardLibrary.wordList(language: l.language) }
            }
        }
        let most = counts.max() ?? 0
        var cache: [String: [String]] = [:]
        var predictSeconds = 0.0
        var contexts = 0

        var results: [TextStats.Configuration] = []
        for (name, layout) in layouts {
            for method in TextEntrySimulation.Method.all {
                for n in counts {
                    let sim = TextEntrySimulation(base: loaded, layout: layout, method: method, predictions: n)
                    var total = TextStats.Totals()
                    for (line, text) in kept {
                        let r: TextEntrySimulation.PhraseResult
                        do {
                            r = try sim.type(text) { context, count in
                                let key = layout.language + "\u{0}" + context
                                if let known = cache[key] { return Array(known.prefix(count)) }
                                let t0 = Date()
                                var list = words[layout.language]
                                let found = predictor == .words ? (list?.predict(context, count: most) ?? []) : []
                                if let list { words[layout.language] = list }
                                predictSeconds += Date().timeIntervalSince(t0)
                                contexts += 1
                                cache[key] = found
                                return Array(found.prefix(count))
                            }
                        } catch {
                            throw fail("\(InputFiles.displayName(phrases)):\(line): \(name) \(method.name): \(error)")
                        }
                        total.add(r, line: line, text: text)
                    }
                    results.append(TextStats.Configuration(keyboard: name, method: method, predictions: n, totals: total))
                }
            }
        }
        let stats = TextStats(phrases: kept.count, configurations: results, predictionSeconds: predictSeconds, contexts: contexts,
                              seconds: Date().timeIntervalSince(started), predictor: predictor.rawValue)
        switch format {
        case .json: Output.line(stats.json.rendered(indent: 2))
        case .text: Output.lines(stats.text)
        }
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
