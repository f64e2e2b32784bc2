/// How long a phrase takes to speak, as the simulator assumes it (docs/live.md "Speech-paced
/// scanning"): the live loop hears the real end of each phrase from speech-dispatcher; the
/// simulator takes it from this model, so a simulation with `pauseForSpeech` stays exact and
/// repeatable.
///
/// The model counts words and pauses and scales them by the speaking rate:
///
///     duration = (0.7 + 1.2 × words + 0.5 × pauses) × 60 s / wpm
///
/// A word is a run of non-space characters with a letter or digit in it; a pause is a `,` `;` `:`
/// `.` `!` or `?` followed by a space or the end. The constants were fitted to espeak-ng 1.51 (the
/// voice speech-dispatcher uses on Debian), whose phrases include their trailing silence; at the
/// normal rate the model is within about 20 % of it (BENCHMARKS.md, "Speech").
/// All arithmetic is in integer microseconds.
public struct SpeechTimeModel: Sendable, Equatable {
    /// Words per minute.
    public var wordsPerMinute: Int

    public init(wordsPerMinute: Int) {
        self.wordsPerMinute = max(1, wordsPerMinute)
    }

    /// The model for a profile's `speechRate` (the speed speech-dispatcher's espeak-ng module
    /// gives that rate).
    public init(speechRate: Double) {
        self.init(wordsPerMinute: SpeechRate.wordsPerMinute(speechRate))
    }

    public func duration(of text: String) -> Interval {
        let (words, pauses) = SpeechTimeModel.count(text)
        let tenths = Int64(7 + 12 * words + 5 * pauses)
        return Interval(microseconds: tenths * 6_000_000 / Int64(wordsPerMinute))
    }

    static func count(_ text: String) -> (words: Int, pauses: Int) {
        var words = 0, pauses = 0
        var wordHasAlnum = false
        var previous: Character = " "
        for ch in text {
            if ch.isWhitespace {
                if wordHasAlnum { words += 1 }
                wordHasAlnum = false
                if ",;:.!?".contains(previous) { pauses += 1 }
            } else if ch.isLetter || ch.isNumber {
                wordHasAlnum = true
            }
            previous = ch
        }
        if wordHasAlnum { words += 1 }
        if ",;:.!?".contains(previous) { pauses += 1 }
        return (words, pauses)
    }
}

/// `speechRate` (0…1, 0.5 normal) on speech-dispatcher's scale (SSIP `SET SELF RATE`, −100…100)
/// and as the speed its espeak-ng module sets (80 / 170 / 449 words per minute at 0 / 0.5 / 1:
/// `EspeakMinRate`, `EspeakNormalRate`, `EspeakMaxRate` in Debian's espeak-ng.conf).
public enum SpeechRate {
    public static func ssip(_ speechRate: Double) -> Int {
        Int(((min(max(speechRate, 0), 1) - 0.5) * 200).rounded())
    }

    /// The module's formula (speech-dispatcher `espeak.c`, `espeak_set_rate`), integer division
    /// as in C.
    public static func wordsPerMinute(_ speechRate: Double) -> Int {
        let rate = ssip(speechRate)
        return rate < 0 ? 170 + (170 - 80) * rate / 100 : 170 + (449 - 170) * rate / 100
    }
}
