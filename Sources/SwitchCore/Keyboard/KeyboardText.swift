/// What the keyboard knows of the field it writes into, and what each key does to it: a pure
/// state machine (the engine applies its edits; the live shell reads the field back and hands the
/// text before the caret in again, so edits made another way are respected).
///
///     key / input            text before the caret          shift        transcript
///     q (shift off)          "…" + "q"                      off          type "q"
///     q (shift once)         "…" + "Q"                      → off        type "Q"
///     q (sentence start)     "" + "Q"                       off          type "Q" (auto-capital)
///     space                  + " "                          off          type " "
///     word "hello"           "he" → "hello "                off          type "llo " (the rest + a space)
///     . after a word's space "hello " → "hello. "           off          type ". " delete 1
///     backspace              drops one character                          type delete 1
///     delete word            drops the word before the caret              type delete n
///     left / right           the caret moves one character                type move -1 / +1
///     return                 + "\n"                                       type "\n"
///     shift                  off → once → locked → off      (labels change); at a sentence
///                            start (capitals shown): the next letter in lower case
///     caps lock              locked ↔ off
///     fieldText(s)           s (read back from the application)
public struct KeyboardText: Sendable, Equatable {
    public enum Shift: String, Sendable { case off, once, locked }

    /// Text before and after the caret.
    public private(set) var before: String
    public private(set) var after: String
    public private(set) var shift: Shift = .off
    /// The last edit ended with the space a chosen word adds: a mark typed now replaces it.
    public private(set) var autoSpace = false
    /// Capitalise the first letter of a sentence (iOS, Onboard's auto-capitalization).
    public var autoCapitalize = true
    /// Shift pressed while a sentence start showed capitals: this letter in lower case (iOS).
    public private(set) var lowerOnce = false

    public init(before: String = "", after: String = "") {
        self.before = before
        self.after = after
    }

    /// One change to the field: delete `delete` characters before the caret, insert `text`, then
    /// move the caret by `move` characters.
    public struct Edit: Sendable, Equatable {
        public var delete: Int
        public var text: String
        public var move: Int

        public init(delete: Int = 0, text: String = "", move: Int = 0) {
            self.delete = delete
            self.text = text
            self.move = move
        }
    }

    /// What a key did: the edit (nil: none), a word completed (speech says it), a close.
    public struct Effect: Sendable, Equatable {
        public var edit: Edit?
        public var word: String?
        public var close = false
        public var page: String?
    }

    /// Marks that take the place of the space a chosen word added.
    static let closingMarks: Set<Character> = [".", ",", "!", "?", ";", ":"]

    /// Whether the caret is at the start of a sentence (empty, or after . ! ? and a space, or a
    /// new line).
    public var atSentenceStart: Bool {
        var sawSpace = false
        for c in before.reversed() {
            if c == "\n" { return true }
            if c == " " || c == "\t" { sawSpace = true; continue }
            return sawSpace && (c == "." || c == "!" || c == "?")
        }
        return true
    }

    /// Letters show (and type) in capitals now.
    public var capitals: Bool { shift != .off || (autoCapitalize && !lowerOnce && atSentenceStart) }

    /// The longest word the keyboard predicts, completes or says: every predictor's words are
    /// far shorter (the English list's longest has 18 letters). Past it, what is typed is no word
    /// any predictor completes, and looking further back would make every key cost more as the
    /// run grows (a 5,000-letter "word" took a minute to type, issue 32).
    public static let longestWord = 64

    /// The word being typed: the letters (and apostrophes) right before the caret; empty when
    /// there are more than `longestWord` of them (`inLongWord`).
    public var wordPrefix: String {
        guard let start = wordStart else { return "" }
        return String(before[start...])
    }

    /// The caret is after more than `longestWord` letters: a run no predictor completes.
    public var inLongWord: Bool { wordStart == nil }

    /// Where the word being typed starts (at most `longestWord` characters back); nil past that.
    private var wordStart: String.Index? {
        var start = before.endIndex
        var letters = 0
        while start > before.startIndex {
            let previous = before.index(before: start)
            guard KeyboardText.isWordCharacter(before[previous]) else { break }
            letters += 1
            if letters > KeyboardText.longestWord { return nil }
            start = previous
        }
        return start
    }

    /// How much of the text before the caret a predictor is given: the word being typed and the
    /// three words before it (presage's models are 3-grams and read no further back; the word
    /// lists read the word alone), at most `contextLimit` characters. Bounded, so every key costs
    /// the same however long the text is, and a context repeats (it is predicted once).
    public var predictionContext: String {
        var start = before.endIndex
        var characters = 0
        var breaks = 0
        var inBreak = false
        while start > before.startIndex, characters < KeyboardText.contextLimit {
            let previous = before.index(before: start)
            let c = before[previous]
            let isBreak = c == " " || c == "\t" || c == "\n"
            if isBreak && !inBreak {
                breaks += 1
                if breaks > 3 { break }
            }
            inBreak = isBreak
            start = previous
            characters += 1
        }
        return String(before[start...])
    }

    /// The most characters `predictionContext` holds.
    public static let contextLimit = 256

    static func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "'" || c == "’" }

    // MARK: Keys

    public mutating func apply(_ kind: KeyboardLayout.Kind) -> Effect {
        switch kind {
        case .text(let t):
            return type(t)
        case .space:
            let word = wordPrefix
            return Effect(edit: insert(" "), word: word.isEmpty ? nil : word)
        case .returnKey:
            let word = wordPrefix
            return Effect(edit: insert("\n"), word: word.isEmpty ? nil : word)
        case .backspace:
            guard before.popLast() != nil else { return Effect() }
            autoSpace = false
            return Effect(edit: Edit(delete: 1))
        case .deleteWord:
            // Spaces before the caret, then the word (or the marks) before them: Ctrl+Backspace.
            var n = 0
            while let c = before.last, c == " " || c == "\t" { before.removeLast(); n += 1 }
            if let c = before.last, KeyboardText.isWordCharacter(c) {
                while let c = before.last, KeyboardText.isWordCharacter(c) { before.removeLast(); n += 1 }
            } else {
                while let c = before.last, !KeyboardText.isWordCharacter(c), c != " ", c != "\n" { before.removeLast(); n += 1 }
            }
            autoSpace = false
            return n == 0 ? Effect() : Effect(edit: Edit(delete: n))
        case .left:
            guard let c = before.popLast() else { return Effect() }
            after.insert(c, at: after.startIndex)
            autoSpace = false
            return Effect(edit: Edit(move: -1))
        case .right:
            guard let c = after.first else { return Effect() }
            after.removeFirst()
            before.append(c)
            autoSpace = false
            return Effect(edit: Edit(move: 1))
        case .shift:
            switch shift {
            case .off where capitals:
                lowerOnce = true  // a sentence start's capital, declined
            case .off:
                shift = .once
                lowerOnce = false
            case .once: shift = .locked
            case .locked: shift = .off
            }
            return Effect()
        case .capsLock:
            shift = shift == .locked ? .off : .locked
            return Effect()
        case .page(let p):
            return Effect(page: p)
        case .close:
            return Effect(close: true)
        case .place:
            return Effect()
        }
    }

    /// A text key: capitals as shift and the sentence say; a closing mark right after a chosen
    /// word's space takes that space's place and brings its own.
    private mutating func type(_ t: String) -> Effect {
        if t.count == 1, let c = t.first, KeyboardText.closingMarks.contains(c), autoSpace, before.last == " " {
            before.removeLast()
            before += t + " "
            autoSpace = true
            return Effect(edit: Edit(delete: 1, text: t + " "))
        }
        let text = capitals ? t.uppercased() : t
        if shift == .once { shift = .off }
        return Effect(edit: insert(text))
    }

    private mutating func insert(_ text: String) -> Edit {
        before += text
        autoSpace = false
        lowerOnce = false
        return Edit(text: text)
    }

    // MARK: Words

    /// Chooses a predicted word: completes the word being typed with it (only the rest is typed
    /// when the letters so far begin it) and adds a space, unless one follows the caret already.
    public mutating func choose(_ word: String) -> Effect {
        let prefix = wordPrefix
        let shown = casing(word)
        let space = after.first == " " ? "" : " "
        var edit: Edit
        if shown.lowercased().hasPrefix(prefix.lowercased()) {
            edit = Edit(text: String(shown.dropFirst(prefix.count)) + space)
        } else {
            edit = Edit(delete: prefix.count, text: shown + space)
            before.removeLast(prefix.count)
        }
        before += edit.text
        if shift == .once { shift = .off }
        lowerOnce = false
        autoSpace = !space.isEmpty
        return Effect(edit: edit, word: shown)
    }

    /// How a predicted word is written here: capitalised at a sentence start or after a capital
    /// typed, in capitals with caps lock or a prefix typed in capitals (presage's models are lower
    /// case); "i" and "i'm" … as English writes them.
    public func casing(_ word: String) -> String { casing([word])[0] }

    /// `casing` for several words (the prefix and the sentence are looked at once).
    public func casing(_ words: [String]) -> [String] {
        let prefix = wordPrefix
        let upper = shift == .locked || (prefix.count >= 2 && prefix == prefix.uppercased() && prefix != prefix.lowercased())
        let typedCapital = prefix.first.map { $0.isUppercase } ?? false
        let sentence = autoCapitalize && !lowerOnce && prefix.isEmpty && atSentenceStart
        return words.map { word in
            if upper { return word.uppercased() }
            let english = word == "i" || word.hasPrefix("i'")
            if typedCapital || sentence || shift == .once || english, let first = word.first {
                return String(first).uppercased() + word.dropFirst()
            }
            return word
        }
    }

    // MARK: Reading back

    /// The text before (and after) the caret as read from the application: it replaces what the
    /// keyboard believed (another input method, a paste, the application's own completion).
    public mutating func fieldText(before: String, after: String?) {
        if before != self.before { autoSpace = false }
        self.before = before
        if let after { self.after = after }
    }
}
