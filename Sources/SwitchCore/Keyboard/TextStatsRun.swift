/// How a `text stats` run turns its typing into figures (docs/typing.md), apart from the shell
/// that runs the configurations on every core.
///
/// Each layout types the phrases it has keys for (a Greek layout its Greek phrases, the qwerty
/// baseline the phrases it can type), and a phrase one of a layout's configurations could not
/// type is left out of all of them: every configuration of a layout is measured on the same
/// phrases, so its methods and prediction counts compare (keystroke savings are within a
/// layout and method). Nothing is dropped silently: each phrase left out has its reason.
public enum TextStatsRun {
    /// A layout and the phrases it is given.
    public struct Layout: Sendable {
        public var name: String
        public var layout: KeyboardLayout
        /// The phrases it has a key for every character of.
        public var phrases: [PhraseFile.Phrase]
        /// The others, each with the first character it has no key for.
        public var leftOut: [TextStats.LeftOut]
    }

    /// One configuration to run: a layout (index into the layouts), a method, a prediction count.
    public struct Job: Sendable {
        public var layout: Int
        public var method: TextEntrySimulation.Method
        public var predictions: Int
    }

    /// The phrases each layout can type, by the characters its keys type.
    public static func layouts(_ list: [(name: String, layout: KeyboardLayout)], phrases: [PhraseFile.Phrase]) -> [Layout] {
        list.map { entry in
            let keys = entry.layout.typeableCharacters
            var kept: [PhraseFile.Phrase] = []
            var left: [TextStats.LeftOut] = []
            for p in phrases {
                if let c = p.text.first(where: { !keys.contains($0) }) {
                    left.append(TextStats.LeftOut(line: p.line, layout: entry.name, reason: "no key for \(TerminalText.quoted(String(c)))"))
                } else {
                    kept.append(p)
                }
            }
            return Layout(name: entry.name, layout: entry.layout, phrases: kept, leftOut: left)
        }
    }

    /// Every layout × method (all, or `--methods`) × prediction count, for the layouts with a
    /// phrase to type.
    public static func jobs(_ layouts: [Layout], counts: [Int], methods: [TextEntrySimulation.Method] = TextEntrySimulation.Method.all) -> [Job] {
        var out: [Job] = []
        for (k, l) in layouts.enumerated() where !l.phrases.isEmpty {
            for method in methods { for n in counts { out.append(Job(layout: k, method: method, predictions: n)) } }
        }
        return out
    }

    /// The configurations' totals over the phrases every configuration of their layout typed, and
    /// every phrase left out (by line, then layout), from `outcomes[j][p]`: job j's outcome on
    /// phrase p of its layout. Also the phrases measured on some layout, and their characters.
    public static func assemble(_ layouts: [Layout], _ jobs: [Job],
                                _ outcomes: [[Result<TextEntrySimulation.PhraseResult, TextEntrySimulation.Failure>]])
        -> (configurations: [TextStats.Configuration], leftOut: [TextStats.LeftOut], phrases: Int, characters: Int) {
        var leftOut = layouts.flatMap(\.leftOut)
        var failed = layouts.map { Array(repeating: false, count: $0.phrases.count) }
        var reasons: [(layout: Int, phrase: Int, reason: String)] = []
        for (j, job) in jobs.enumerated() {
            for (p, outcome) in outcomes[j].enumerated() {
                guard case .failure(let why) = outcome, !failed[job.layout][p] else { continue }
                failed[job.layout][p] = true
                reasons.append((job.layout, p, "\(job.method.name) \(job.predictions)p \(job.method.switches)sw could not type it: \(why)"))
            }
        }
        for r in reasons {
            leftOut.append(TextStats.LeftOut(line: layouts[r.layout].phrases[r.phrase].line, layout: layouts[r.layout].name, reason: r.reason))
        }
        var configurations: [TextStats.Configuration] = []
        var measured: [Int: Int] = [:]  // line → characters
        for (j, job) in jobs.enumerated() {
            let l = layouts[job.layout]
            var totals = TextStats.Totals()
            for (p, outcome) in outcomes[j].enumerated() {
                guard !failed[job.layout][p], case .success(let r) = outcome else { continue }
                totals.add(r, line: l.phrases[p].line, text: l.phrases[p].text)
                measured[l.phrases[p].line] = r.characters
            }
            guard totals.phrases > 0 else { continue }
            configurations.append(TextStats.Configuration(keyboard: l.name, method: job.method, predictions: job.predictions, totals: totals))
        }
        leftOut.sort { $0.line != $1.line ? $0.line < $1.line : $0.layout < $1.layout }
        return (configurations, leftOut, measured.count, measured.values.reduce(0, +))
    }
}
