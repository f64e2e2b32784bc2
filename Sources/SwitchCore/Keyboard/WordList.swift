/// Word completion by frequency alone (`Keyboards/words/en.txt`, from wordfreq, CC BY-SA 4.0):
/// the most frequent words that begin with the letters typed so far, whatever came before them.
/// Pure: a sorted list and a binary search; each prefix's answer is kept, so a run asks the list
/// once per prefix.
public struct WordList: Sendable {
    /// Sorted by word.
    private let words: [(word: String, count: Int)]
    private var memo: [String: [String]] = [:]

    /// `word count` lines; `#` lines and blank lines are skipped. A malformed line is an error
    /// naming it.
    public init(text: String, file: String) throws(InputError) {
        words = try WordList.entries(text, file: file, minimum: 0).sorted { $0.word < $1.word }
    }

    /// The `word count` lines of a list (lower-cased words; `#` lines and blank lines skipped),
    /// each count at least `minimum`; a malformed line is an error naming it.
    static func entries(_ text: String, file: String, minimum: Int) throws(InputError) -> [(word: String, count: Int)] {
        var list: [(word: String, count: Int)] = []
        var line = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            line += 1
            let s = String(raw).trimmed
            if s.isEmpty || s.hasPrefix("#") { continue }
            let parts = s.split(separator: " ")
            guard parts.count == 2, let n = Int(parts[1]), n >= minimum else {
                throw InputError(file: file, line: line, column: 1, path: "", message: "expected \"word count\", found \"\(s)\"")
            }
            list.append((String(parts[0]).lowercased(), n))
        }
        return list
    }

    public var count: Int { words.count }

    /// The `count` most frequent words that complete the word before the caret in `context`.
    public mutating func predict(_ context: String, count: Int) -> [String] {
        let prefix = String(context.reversed().prefix(while: KeyboardText.isWordCharacter).reversed()).lowercased()
        let key = prefix + "\u{0}" + String(count)
        if let known = memo[key] { return known }
        var lo = 0, hi = words.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if words[mid].word < prefix { lo = mid + 1 } else { hi = mid }
        }
        var best: [(String, Int)] = []
        var k = lo
        while k < words.count, words[k].word.hasPrefix(prefix) {
            let candidate = words[k]
            if best.count < count || candidate.count > best[best.count - 1].1 {
                let at = best.firstIndex { $0.1 < candidate.count } ?? best.count
                best.insert((candidate.word, candidate.count), at: at)
                if best.count > count { best.removeLast() }
            }
            k += 1
        }
        let out = best.map(\.0)
        memo[key] = out
        return out
    }
}
