/// What `text stats --person` adds to a configuration (docs/typing.md "A simulated person"): the
/// person's counts, the scan time at the start and the end of the session (adaptive timing moves
/// it), and the words per minute of the last half of the phrases. `wordsPerMinute` counts the
/// phrases' correct text only, over the whole time, corrections included.
public struct PersonFigures: Sendable, Equatable {
    public var counts: PersonCounts
    public var scanTimeAtStart: Interval
    public var scanTimeAtEnd: Interval
    /// Adaptive timing's changes over the session.
    public var changes: Int
    /// Phrases not finished within their time (their correct start counts).
    public var gaveUp: Int
    public var lastHalfWordsPerMinute: Double

    public init(_ r: PersonTextEntry.Result) {
        counts = r.phrases.reduce(PersonCounts()) { $0 + $1.counts }
        scanTimeAtStart = r.scanTimeAtStart
        scanTimeAtEnd = r.scanTimeAtEnd
        changes = r.changes
        gaveUp = r.phrases.filter(\.gaveUp).count
        let half = r.phrases.dropFirst(r.phrases.count / 2)
        let seconds = half.reduce(0.0) { $0 + $1.time.seconds }
        let characters = half.reduce(0) { $0 + $1.characters }
        lastHalfWordsPerMinute = seconds > 0 ? Double(characters) / 5 / (seconds / 60) : 0
    }

    var json: [(String, JSONOut)] {
        [("selections", .number(Double(counts.selections))),
         ("late", .number(Double(counts.late))),
         ("missed", .number(Double(counts.missed))),
         ("extraPresses", .number(Double(counts.extraPresses))),
         ("corrections", .number(Double(counts.corrections))),
         ("gaveUp", .number(Double(gaveUp))),
         ("autoScanningTime", .object([("start", .raw(formatFixed(scanTimeAtStart.seconds, 3))),
                                       ("end", .raw(formatFixed(scanTimeAtEnd.seconds, 3))),
                                       ("changes", .number(Double(changes)))])),
         ("lastHalfWordsPerMinute", .raw(formatFixed(lastHalfWordsPerMinute, 3)))]
    }

    static let header = ["selections", "late", "missed", "extra", "corrections", "scan time (s)", "last-half wpm"]

    var cells: [String] {
        [String(counts.selections), String(counts.late), String(counts.missed), String(counts.extraPresses), String(counts.corrections),
         scanTimeAtStart == scanTimeAtEnd ? formatFixed(scanTimeAtStart.seconds, 3)
             : formatFixed(scanTimeAtStart.seconds, 3) + "→" + formatFixed(scanTimeAtEnd.seconds, 3),
         formatFixed(lastHalfWordsPerMinute, 3)]
    }
}

extension TextEntrySimulation.PhraseResult {
    /// A phrase the person typed, as `TextStats.Totals` adds it up.
    public init(_ p: PersonTextEntry.Phrase) {
        self.init(time: p.time, presses: p.presses, characters: p.characters)
    }
}
