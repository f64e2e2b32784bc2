/// The person's own words (docs/typing.md "Learning"): every word they wrote with the keyboard,
/// with how often and when last, kept in `$XDG_DATA_HOME/switchscan/words-LANGUAGE.txt`
/// (`word count last` lines) when `keyboard.learning` is on. Inside a word they come first in
/// the prediction row, most used first: a name, a place, a word of their trade that no list
/// knows is offered after its first use. Pure; the shell reads and writes the file
/// (`LearnedWordsFile`).
///
/// Bounded, so learning a sentence costs the same after years as on the first day: at most
/// `maximumWords` words of at most `maximumWordCharacters` characters (the file is then at most
/// `maximumFileBytes`). When a new word needs room, the least useful word goes:
///
///     useful = written more often, then written more recently ("last": the number of the
///              sentence it was last written in, counted by `learn`)
///     a word written in the last `graceSentences` sentences is never the one to go (a new
///     name must get the chance to be written a second time), unless every word is that recent
///
/// Counts saturate at `Int.max` (a count of 9223372036854775807 written again stays there).
/// The words are kept in that order as they change (a word moves by two binary searches), so a
/// sentence costs no sort of the whole list: making room walks up from the least useful, and
/// the file's text is written in the order kept.
public struct UserWords: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// How many times it was written.
        public var count: Int
        /// The sentence it was last written in (`UserWords.sentences` then); 0: before
        /// switchscan counted sentences (a `word count` line).
        public var last: Int

        public init(count: Int, last: Int) {
            self.count = count
            self.last = last
        }
    }

    /// The most words kept (Android's keyboard keeps 10,000 to 12,000 of a person's; the
    /// bundled English list has 40,000).
    public static let maximumWords = 50_000
    /// A longer "word" (a run of letters with no space) is not learned.
    public static let maximumWordCharacters = 64
    /// …nor one of more bytes than this (a character can be many code points).
    public static let maximumWordBytes = 256
    /// The largest file `maximumWords` words make: every line at its longest
    /// (`maximumWordBytes`, two 19-digit numbers, two spaces and a newline) fits in it.
    public static let maximumFileBytes = 16 << 20
    /// The words of the last this many sentences are kept when a word must go.
    public static let graceSentences = 1_000

    public private(set) var entries: [String: Entry] = [:]
    /// The words, most useful first (`moreUseful`).
    private var order: [String] = []
    /// Sentences learned so far (the newest `last`).
    public private(set) var sentences = 0
    /// The most words kept (`maximumWords`; smaller in tests).
    public let limit: Int
    /// Words forgotten to make room since this value was made (the shell says it once).
    public private(set) var forgotten = 0

    public init(limit: Int = UserWords.maximumWords) {
        self.limit = max(1, limit)
    }

    /// The same words, counts and sentence numbers (what the file keeps).
    public static func == (a: UserWords, b: UserWords) -> Bool {
        a.entries == b.entries && a.sentences == b.sentences
    }

    /// How often each word was written.
    public var counts: [String: Int] { entries.mapValues(\.count) }

    public var count: Int { entries.count }

    /// `word count` or `word count last` lines; `#` lines and blank lines are skipped; a
    /// malformed line is an error naming it (the file is the person's: never silently dropped).
    /// A word twice adds its counts (saturating). More than `limit` words: the most useful are
    /// kept, and `dropped` says how many were not.
    public init(text: String, file: String, limit: Int = UserWords.maximumWords) throws(InputError) {
        self.init(limit: limit)
        var line = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            line += 1
            let s = String(raw).trimmed
            if s.isEmpty || s.hasPrefix("#") { continue }
            let parts = s.split(separator: " ")
            func bad(_ expected: String) -> InputError {
                InputError(file: file, line: line, column: 1, path: "", message: "\(expected), found \"\(s.prefix(200))\"")
            }
            guard parts.count == 2 || parts.count == 3, let n = Int(parts[1]), n >= 1,
                  let last = parts.count == 3 ? Int(parts[2]) : 0, last >= 0 else {
                throw bad("expected \"word count\" or \"word count last\" (counts of at least 1, last at least 0)")
            }
            let word = String(parts[0]).lowercased()
            guard UserWords.fits(word) else {
                throw bad("expected a word of at most \(UserWords.maximumWordCharacters) characters")
            }
            var e = entries[word] ?? Entry(count: 0, last: 0)
            e.count = UserWords.adding(e.count, n)
            e.last = max(e.last, last)
            entries[word] = e
            sentences = max(sentences, last)
        }
        order = entries.keys.sorted { UserWords.moreUseful(($0, entries[$0]!), ($1, entries[$1]!)) }
        dropped = max(0, entries.count - self.limit)
        if dropped > 0 { trim(keepingAfter: sentences) }
        forgotten = 0
    }

    /// Words of the file beyond `limit` when it was read (the least useful, not kept).
    public private(set) var dropped = 0

    /// The file's bytes: UTF-8 (a byte-order mark allowed; anything else is an error naming the
    /// line), then as `init(text:file:limit:)`.
    public init(bytes: [UInt8], file: String, limit: Int = UserWords.maximumWords) throws(InputError) {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        guard let text = String(validating: body, as: UTF8.self) else {
            var line = 1
            for part in body.split(separator: 0x0A, omittingEmptySubsequences: false) {
                if String(validating: part, as: UTF8.self) == nil { break }
                line += 1
            }
            throw InputError(file: file, line: line, column: 1, message: "not UTF-8 text")
        }
        try self.init(text: text, file: file, limit: limit)
    }

    /// Counts every word of `text` (letters, digits and apostrophes; at least two characters,
    /// at most `maximumWordCharacters`) as written in the next sentence.
    public mutating func learn(_ text: String) {
        var words: [String] = []
        var word = ""
        func flush() {
            if word.count >= 2, word.contains(where: { $0.isLetter }) {
                let w = word.lowercased()
                if UserWords.fits(w) { words.append(w) }
            }
            word = ""
        }
        for c in text {
            if KeyboardText.isWordCharacter(c) { word.append(c) } else { flush() }
        }
        flush()
        guard !words.isEmpty else { return }
        sentences = UserWords.adding(sentences, 1)
        var times: [String: Int] = [:]
        for w in words { times[w, default: 0] += 1 }
        for (w, n) in times {
            if let old = entries[w] { order.remove(at: insertion(w, old)) }
            var e = entries[w] ?? Entry(count: 0, last: 0)
            e.count = UserWords.adding(e.count, n)
            e.last = sentences
            entries[w] = e
            order.insert(w, at: insertion(w, e))
        }
        if entries.count > limit {
            let before = entries.count
            trim(keepingAfter: sentences >= UserWords.graceSentences ? sentences - UserWords.graceSentences : 0)
            forgotten += before - entries.count
        }
    }

    /// The first place in `order` whose word is not more useful than `word` with `entry` (its
    /// own place when it is there with that entry).
    private func insertion(_ word: String, _ entry: Entry) -> Int {
        var lo = 0, hi = order.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if UserWords.moreUseful((order[mid], entries[order[mid]]!), (word, entry)) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Removes the least useful words until `limit` are left, walking up from the least useful:
    /// words written after sentence `recent` go only when no older one is left. One pass.
    private mutating func trim(keepingAfter recent: Int) {
        let excess = entries.count - limit
        guard excess > 0 else { return }
        var going = Set<Int>()
        var k = order.count - 1
        while k >= 0 && going.count < excess {
            if entries[order[k]]!.last <= recent { going.insert(k) }
            k -= 1
        }
        k = order.count - 1
        while going.count < excess {
            if !going.contains(k) { going.insert(k) }  // no older word left: the least useful recent ones
            k -= 1
        }
        for k in going { entries[order[k]] = nil }
        if going.count <= 16 {
            for k in going.sorted(by: >) { order.remove(at: k) }  // a sentence's few: no new array
        } else {
            order = order.enumerated().filter { !going.contains($0.offset) }.map(\.element)
        }
    }

    /// The words that complete `prefix` (case aside) and are longer than it, most used first
    /// (then most recent, then alphabetically), at most `count`.
    public func complete(_ prefix: String, count: Int) -> [String] {
        let p = prefix.lowercased()
        guard !p.isEmpty, count > 0 else { return [] }
        var found: [String] = []
        for w in order where w.hasPrefix(p) && w.count > p.count {
            found.append(w)
            if found.count == count { break }
        }
        return found
    }

    /// The file's text: a comment, then the words, most useful first.
    public var text: String { String(decoding: fileBytes, as: UTF8.self) }

    /// `text` as the bytes written (made straight into one buffer: 50,000 lines a sentence).
    public var fileBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(entries.count * 24 + 256)
        out += "# switchscan: the words you wrote with its keyboard (keyboard.learning); delete this file to forget them\n".utf8
        out += "# word, times written, the sentence it was last written in (at most \(UserWords.maximumWords) words are kept)\n".utf8
        var digits = [UInt8](repeating: 0, count: 20)
        func number(_ n: Int) {
            var n = n, k = digits.count
            repeat {
                k -= 1
                digits[k] = UInt8(48 + n % 10)
                n /= 10
            } while n > 0
            out += digits[k...]
        }
        for w in order {
            let e = entries[w]!
            out += w.utf8
            out.append(32)
            number(e.count)
            out.append(32)
            number(e.last)
            out.append(10)
        }
        return out
    }

    static func moreUseful(_ a: (key: String, value: Entry), _ b: (key: String, value: Entry)) -> Bool {
        if a.value.count != b.value.count { return a.value.count > b.value.count }
        if a.value.last != b.value.last { return a.value.last > b.value.last }
        return a.key < b.key
    }

    static func fits(_ word: String) -> Bool {
        !word.isEmpty && word.utf8.count <= maximumWordBytes && word.count <= maximumWordCharacters
    }

    /// `a + b`, at most `Int.max`.
    static func adding(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }
}
