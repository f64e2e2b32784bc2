/// The person's own words (docs/typing.md "Learning"): every word they wrote with the keyboard,
/// with how often, kept in `$XDG_DATA_HOME/switchscan/words-LANGUAGE.txt` (the word list's
/// format, `word count` lines) when `keyboard.learning` is on. Inside a word they come first in
/// the prediction row, most used first: a name, a place, a word of their trade that no list
/// knows is offered after its first use. Pure; the shell reads and writes the file.
public struct UserWords: Sendable, Equatable {
    public private(set) var counts: [String: Int] = [:]

    public init() {}

    /// `word count` lines; `#` lines and blank lines are skipped; a malformed line is an error
    /// naming it (the file is the person's: never silently dropped).
    public init(text: String, file: String) throws(InputError) {
        for (word, n) in try WordList.entries(text, file: file, minimum: 1) { counts[word, default: 0] += n }
    }

    /// Counts every word of `text` (letters, digits and apostrophes; at least two characters).
    public mutating func learn(_ text: String) {
        var word = ""
        func flush() {
            if word.count >= 2, word.contains(where: { $0.isLetter }) { counts[word.lowercased(), default: 0] += 1 }
            word = ""
        }
        for c in text {
            if KeyboardText.isWordCharacter(c) { word.append(c) } else { flush() }
        }
        flush()
    }

    /// The words that complete `prefix` (case aside) and are longer than it, most used first
    /// (then alphabetically), at most `count`.
    public func complete(_ prefix: String, count: Int) -> [String] {
        let p = prefix.lowercased()
        guard !p.isEmpty else { return [] }
        return counts.filter { $0.key.hasPrefix(p) && $0.key.count > p.count }
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(count).map(\.key)
    }

    /// The file's text: a comment, then the words by count, then alphabetically.
    public var text: String {
        var out = "# switchscan: the words you wrote with its keyboard (keyboard.learning); delete this file to forget them\n"
        for (w, n) in counts.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) { out += "\(w) \(n)\n" }
        return out
    }
}
