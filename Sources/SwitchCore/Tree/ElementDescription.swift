/// What VoiceOver (and Switch Control's speech) says for an element: label, value, trait words,
/// hint, joined with ", " ("Add, button, Adds a city."; "Volume, 50%, adjustable").
public enum ElementDescription {
    /// Trait words in the order they are spoken. Traits without a word (staticText, playsSound…)
    /// describe behaviour, not what the element is, and are not spoken.
    static let traitWords: [(Traits, String)] = [
        (.button, "button"), (.link, "link"), (.searchField, "search field"), (.keyboardKey, "key"),
        (.header, "heading"), (.image, "image"), (.tabBar, "tab bar"), (.adjustable, "adjustable"),
        (.selected, "selected"), (.notEnabled, "dimmed"),
    ]

    public static func words(for traits: Traits) -> [String] {
        traitWords.compactMap { traits.contains($0.0) ? $0.1 : nil }
    }

    public static func spoken(_ e: Element) -> String {
        var parts: [String] = []
        if let l = e.label?.trimmed, !l.isEmpty { parts.append(l) }
        if let v = e.value?.trimmed, !v.isEmpty { parts.append(v) }
        parts.append(contentsOf: words(for: e.traits))
        if let h = e.hint?.trimmed, !h.isEmpty { parts.append(h) }
        return parts.joined(separator: ", ")
    }
}

extension String {
    /// Without leading and trailing whitespace (labels, values and hints as they are read).
    public var trimmed: String {
        // Fast path: a visible ASCII character at both ends (most labels) leaves nothing to trim.
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F { return self }
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
