/// `tree audit`: the accessibility problems a developer can fix, one finding per problem, each
/// naming the element. Rules follow Apple's guidance (REFERENCE §1): labels are short, carry no
/// control type and no trailing period; hints end with a period and do not name the gesture;
/// a control is one kind; frames are on screen; ids are unique.
public struct AuditFinding: Equatable, Sendable, CustomStringConvertible {
    public var id: String
    public var rule: Rule
    public var message: String

    public enum Rule: String, Sendable {
        case missingLabel, labelNamesControlType, labelEndsWithPeriod, hintWithoutPeriod, hintNamesGesture,
             exclusiveTraits, zeroSizeFrame, offScreenFrame, duplicateID
    }

    /// One line: the id escaped, the message's quoted words escaped where it was made
    /// (`TerminalText`), so a label holding a terminal escape or a newline stays one safe line.
    public var description: String { TerminalText.escaped(id) + ": " + TerminalText.line(message) }
}

public enum TreeAudit {
    /// Control-type words that do not belong in a label, by trait.
    static let controlWords: [(Traits, [[String]])] = [
        (.button, [["button"]]), (.link, [["link"]]), (.searchField, [["search", "field"]]),
        (.keyboardKey, [["key"]]), (.image, [["image"]]), (.adjustable, [["slider"], ["adjustable"]]),
        (.tabBar, [["tab", "bar"]]), (.header, [["heading"], ["header"]]),
    ]
    static let gestureWords: Set<String> = ["tap", "taps", "tapping", "swipe", "swipes", "swiping"]

    public static func findings(_ tree: ElementTree, model: ScanModel? = nil) -> [AuditFinding] {
        let model = model ?? ScanModel(tree: tree)
        let scanIDs = Set(model.items.map(\.id))
        let screen = tree.screenRect
        var out: [AuditFinding] = []
        for e in model.accessibilityElements {
            func add(_ rule: AuditFinding.Rule, _ message: String) { out.append(AuditFinding(id: e.id, rule: rule, message: message)) }
            let label = e.label?.trimmed ?? ""
            if scanIDs.contains(e.id) && label.isEmpty {
                add(.missingLabel, "scan item has no label")
            }
            if !label.isEmpty {
                let words = wordsOf(label)
                for (trait, phrases) in controlWords where e.traits.contains(trait) {
                    if let phrase = phrases.first(where: { containsPhrase(words, $0) }) {
                        add(.labelNamesControlType, "label \(TerminalText.quoted(label)) names its control type (\"\(phrase.joined(separator: " "))\"); the \(trait.nameList[0]) trait already says it")
                        break
                    }
                }
                if label.hasSuffix(".") && !label.hasSuffix("...") {
                    add(.labelEndsWithPeriod, "label \(TerminalText.quoted(label)) ends with a period")
                }
            }
            if let hint = e.hint?.trimmed, !hint.isEmpty {
                if !hint.hasSuffix(".") {
                    add(.hintWithoutPeriod, "hint \(TerminalText.quoted(hint)) does not end with a period")
                }
                let words = wordsOf(hint)
                if let g = words.first(where: { gestureWords.contains($0) }) {
                    let doubled = containsPhrase(words, ["double", g])
                    add(.hintNamesGesture, "hint \(TerminalText.quoted(hint)) names a gesture (\"\(doubled ? "double " + g : g)\"); say what happens instead")
                }
            }
            let kinds = e.traits.intersection(Traits.exclusiveKinds)
            if kinds.nameList.count > 1 {
                add(.exclusiveTraits, "traits \(kinds.nameList.joined(separator: " and ")) are mutually exclusive")
            }
            if let f = e.frame {
                if f.width == 0 || f.height == 0 {
                    add(.zeroSizeFrame, "frame \(f) has zero size")
                } else if !f.intersects(screen) {
                    add(.offScreenFrame, "frame \(f) is off screen (screen is \(formatNumber(tree.screen.width))×\(formatNumber(tree.screen.height)))")
                }
            }
        }
        for d in tree.duplicateIds {
            out.append(AuditFinding(id: d.assigned, rule: .duplicateID, message: "duplicate id \(TerminalText.quoted(d.declared)) (an earlier element has it; this one was renamed \(d.assigned))"))
        }
        return out
    }

    /// Lower-cased words, split at anything that is not a letter or digit ("double-tap" → double, tap).
    static func wordsOf(_ s: String) -> [String] {
        s.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }

    static func containsPhrase(_ words: [String], _ phrase: [String]) -> Bool {
        guard phrase.count <= words.count else { return false }
        for start in 0...(words.count - phrase.count) where Array(words[start..<start + phrase.count]) == phrase {
            return true
        }
        return false
    }
}
