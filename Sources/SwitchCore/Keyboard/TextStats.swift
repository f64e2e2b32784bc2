/// What `text stats` reports (docs/typing.md): per configuration, seconds and presses per
/// character, words per minute (5 characters a word), keystroke savings (1 − presses with
/// prediction ÷ presses of the same layout and method without) and the worst phrase, with the
/// JSON names the issue fixed:
///
///     {"phrases", "characters", "baseline": NAME,
///      "configurations": [{"name", "keyboard", "method", "predictions", "switches",
///        "secondsPerCharacter", "pressesPerCharacter", "wordsPerMinute", "keystrokeSavings",
///        "worstPhrase"}], "prediction": {…}, "seconds"}
public struct TextStats: Sendable {
    public struct Totals: Sendable, Equatable {
        public var time = Interval.zero
        public var presses = 0
        public var characters = 0
        /// Phrases typed (a layout's configurations type the phrases it can type).
        public var phrases = 0
        public var worst: (line: Int, text: String, secondsPerCharacter: Double)?

        public init() {}

        public mutating func add(_ r: TextEntrySimulation.PhraseResult, line: Int, text: String) {
            time = time + r.time
            presses += r.presses
            characters += r.characters
            phrases += 1
            let spc = r.time.seconds / Double(max(r.characters, 1))
            if worst == nil || spc > worst!.secondsPerCharacter { worst = (line, text, spc) }
        }

        public static func == (a: Totals, b: Totals) -> Bool {
            a.time == b.time && a.presses == b.presses && a.characters == b.characters && a.phrases == b.phrases && a.worst?.line == b.worst?.line
        }
    }

    public struct Configuration: Sendable {
        public var keyboard: String
        public var method: TextEntrySimulation.Method
        public var predictions: Int
        public var totals: Totals
        /// What the simulated person did (`text stats --person`), nil for the perfect user.
        public var person: PersonFigures?

        public init(keyboard: String, method: TextEntrySimulation.Method, predictions: Int, totals: Totals) {
            self.keyboard = keyboard
            self.method = method
            self.predictions = predictions
            self.totals = totals
        }

        /// "qwerty grouped 0p 1sw".
        public var name: String { "\(keyboard) \(method.name) \(predictions)p \(method.switches)sw" }
        public var secondsPerCharacter: Double { totals.time.seconds / Double(max(totals.characters, 1)) }
        public var pressesPerCharacter: Double { Double(totals.presses) / Double(max(totals.characters, 1)) }
        public var wordsPerMinute: Double { totals.time.seconds > 0 ? Double(totals.characters) / 5 / (totals.time.seconds / 60) : 0 }
    }

    /// A phrase left out of a layout's configurations, and why.
    public struct LeftOut: Sendable, Equatable {
        public var line: Int
        public var layout: String
        public var reason: String

        public init(line: Int, layout: String, reason: String) {
            self.line = line
            self.layout = layout
            self.reason = reason
        }
    }

    /// Phrases measured on at least one layout, and their characters.
    public var phrases: Int
    public var characters: Int
    public var configurations: [Configuration]
    public var predictionSeconds: Double
    public var contexts: Int
    public var seconds: Double
    /// The CPU time the run took (all its threads), when measured.
    public var cpuSeconds: Double?
    public var predictor: String
    /// The simulated person who typed (`--person`), nil for the perfect user.
    public var personName: String?
    /// The profile whose timings and filters were used: its name, and its file (nil: the
    /// built-in defaults).
    public var profile: (name: String, file: String?) = ("built-in defaults", nil)
    /// Phrases some layout left out (a character it has no key for, or a configuration that could
    /// not type it), by line.
    public var leftOut: [LeftOut] = []

    public init(phrases: Int, characters: Int, configurations: [Configuration], predictionSeconds: Double, contexts: Int, seconds: Double, predictor: String) {
        self.phrases = phrases
        self.characters = characters
        self.configurations = configurations
        self.predictionSeconds = predictionSeconds
        self.contexts = contexts
        self.seconds = seconds
        self.predictor = predictor
    }

    public var baseline: Configuration? {
        configurations.first { $0.keyboard == "qwerty" && $0.method == .grouped && $0.predictions == 0 }
    }

    /// "qwerty grouped 0p 1sw", "… on 3 of 5 phrases" when the baseline layout could type only
    /// those, "none (qwerty can type none of the phrases)".
    var baselineWords: String {
        guard let b = baseline else {
            // `--methods` without grouped measures no baseline at all.
            return configurations.contains { $0.method == .grouped } ? "none (qwerty can type none of the phrases)" : "none (--methods leaves out grouped)"
        }
        return TerminalText.line(b.name) + (b.totals.phrases < phrases ? ", on \(b.totals.phrases) of \(phrases) phrases" : "")
    }

    /// "greek 3 of 5" for every layout measured on fewer phrases than the run.
    var fewer: [String] {
        var seen = Set<String>()
        return configurations.compactMap { c in
            guard c.totals.phrases < phrases, seen.insert(c.keyboard).inserted else { return nil }
            return "\(TerminalText.line(c.keyboard)) \(c.totals.phrases) of \(phrases)"
        }
    }

    /// Keystroke savings of `c` against the same layout and method without prediction.
    public func keystrokeSavings(_ c: Configuration) -> Double {
        guard c.predictions > 0, let none = configurations.first(where: { $0.keyboard == c.keyboard && $0.method == c.method && $0.predictions == 0 }),
              none.totals.presses > 0 else { return 0 }
        return 1 - Double(c.totals.presses) / Double(none.totals.presses)
    }

    /// The fastest configuration with `switches` switches.
    public func best(switches: Int) -> Configuration? {
        configurations.filter { $0.method.switches == switches }.min { $0.secondsPerCharacter < $1.secondsPerCharacter }
    }

    public var json: JSONOut {
        let configs = configurations.map { c in
            JSONOut.object([
                ("name", .string(c.name)),
                ("keyboard", .string(c.keyboard)),
                ("method", .string(c.method.name)),
                ("predictions", .number(Double(c.predictions))),
                ("switches", .number(Double(c.method.switches))),
                ("phrases", .number(Double(c.totals.phrases))),
                ("characters", .number(Double(c.totals.characters))),
                ("secondsPerCharacter", .raw(formatFixed(c.secondsPerCharacter, 3))),
                ("pressesPerCharacter", .raw(formatFixed(c.pressesPerCharacter, 3))),
                ("wordsPerMinute", .raw(formatFixed(c.wordsPerMinute, 3))),
                ("keystrokeSavings", .raw(formatFixed(keystrokeSavings(c), 3))),
                ("worstPhrase", c.totals.worst.map { w in .object([("line", .number(Double(w.line))), ("text", .string(w.text)),
                                                                   ("secondsPerCharacter", .raw(formatFixed(w.secondsPerCharacter, 3)))]) } ?? .null),
            ] + (c.person?.json ?? []))
        }
        return .object([
            ("phrases", .number(Double(phrases))),
            ("characters", .number(Double(characters))),
            ("baseline", baseline.map { .string($0.name) } ?? .null),
            ("profile", .object([("name", .string(profile.name)), ("file", profile.file.map { .string($0) } ?? .null)])),
            ("configurations", .array(configs)),
            ("leftOut", .array(leftOut.map { .object([("line", .number(Double($0.line))), ("layout", .string($0.layout)),
                                                      ("reason", .string($0.reason))]) })),
            ("prediction", .object([("source", .string(predictor)), ("contexts", .number(Double(contexts))),
                                    ("seconds", .raw(formatFixed(predictionSeconds, 3)))])),
            ("seconds", .raw(formatFixed(seconds, 3))),
            ("cpuSeconds", cpuSeconds.map { .raw(formatFixed($0, 3)) } ?? .null),
        ] + (personName.map { [("person", JSONOut.string($0))] } ?? []))
    }

    /// A table for people, fastest first within each switch count, then the summary.
    public var text: [String] {
        var out = ["\(phrases) phrases, \(characters) characters; baseline \(baselineWords)",
                   "profile " + (profile.file.map { "\(TerminalText.line($0)) (\(TerminalText.quoted(profile.name)))" } ?? profile.name)]
        if !fewer.isEmpty { out.append("measured on fewer phrases: " + fewer.joined(separator: ", ")) }
        let header = ["configuration", "s/char", "presses/char", "wpm", "× baseline", "keystroke savings", "worst phrase (s/char)"]
            + (personName != nil ? PersonFigures.header : [])
        var rows: [[String]] = [header]
        let base = baseline?.wordsPerMinute ?? 0
        for k in 1...6 {
            for c in configurations.filter({ $0.method.switches == k }).sorted(by: { $0.secondsPerCharacter < $1.secondsPerCharacter }) {
                rows.append([TerminalText.line(c.name), formatFixed(c.secondsPerCharacter, 3), formatFixed(c.pressesPerCharacter, 3),
                             formatFixed(c.wordsPerMinute, 3), base > 0 ? formatFixed(c.wordsPerMinute / base, 2) : "-",
                             formatFixed(keystrokeSavings(c) * 100, 1) + " %",
                             c.totals.worst.map { "\($0.line): \(formatFixed($0.secondsPerCharacter, 2))" } ?? "-"]
                            + (personName != nil ? c.person?.cells ?? [] : []))
            }
        }
        let widths = (0..<header.count).map { col in rows.map { $0[col].count }.max() ?? 0 }
        for r in rows {
            out.append(r.enumerated().map { $0.offset == 0 ? $0.element.padding(widths[0]) : $0.element.leftPadding(widths[$0.offset]) }.joined(separator: "  "))
        }
        out.append("predictions: \(predictor), \(contexts) contexts predicted in \(formatFixed(predictionSeconds, 3)) s; whole run \(formatFixed(seconds, 3)) s"
                   + (cpuSeconds.map { ", \(formatFixed($0, 3)) s of CPU" } ?? ""))
        return out
    }
}

extension String {
    func padding(_ n: Int) -> String { self + String(repeating: " ", count: max(0, n - count)) }
    func leftPadding(_ n: Int) -> String { String(repeating: " ", count: max(0, n - count)) + self }
}
