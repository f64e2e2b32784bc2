/// A keyboard shortcut such as `Ctrl+Alt+Shift+S` (the pause chord of the safety exit, docs/live.md
/// "Safety exit"). Each part is a group of EV_KEY codes of which one must be down: a modifier
/// stands for its left and right keys, any other part for one key. The chord is complete when
/// every group has a key down.
public struct KeyChord: Sendable, Equatable, CustomStringConvertible {
    public struct Part: Sendable, Equatable {
        /// How the part was written ("Ctrl", "S", "KEY_F12").
        public var name: String
        public var codes: [UInt16]
    }

    public var parts: [Part]

    /// Ctrl+Alt+Shift+S: four keys no program binds by itself and no one presses by accident.
    public static let `default` = try! KeyChord(parsing: "Ctrl+Alt+Shift+S")

    /// Modifier names (case-insensitive) and their left/right evdev codes.
    static let modifiers: [String: (name: String, codes: [UInt16])] = [
        "ctrl": ("Ctrl", [29, 97]), "control": ("Ctrl", [29, 97]),
        "alt": ("Alt", [56, 100]),
        "shift": ("Shift", [42, 54]),
        "meta": ("Meta", [125, 126]), "super": ("Meta", [125, 126]), "win": ("Meta", [125, 126]),
    ]

    /// Parts joined by "+": Ctrl, Alt, Shift, Meta (Super, Win), a letter or digit, or an evdev
    /// key name (`KEY_F12`, `KEY_PAUSE`). The message of a thrown string says what is wrong.
    public init(parsing text: String) throws(KeyChordError) {
        var parts: [Part] = []
        for raw in text.split(separator: "+", omittingEmptySubsequences: false) {
            let word = String(raw).trimmingSpaces
            guard !word.isEmpty else { throw KeyChordError("\"\(text)\" has an empty part (write keys joined by \"+\", e.g. \"Ctrl+Alt+Shift+S\")") }
            let part: Part
            if let m = KeyChord.modifiers[word.lowercased()] {
                part = Part(name: m.name, codes: m.codes)
            } else if word.count == 1, let c = word.uppercased().first, c.isASCII, c.isLetter || c.isNumber,
                      let (_, code) = EventCodes.code(named: "KEY_\(c)") {
                part = Part(name: String(c), codes: [code])
            } else if let (type, code) = EventCodes.code(named: word), type == EventCodes.EV_KEY {
                part = Part(name: word, codes: [code])
            } else {
                throw KeyChordError("\"\(word)\" is not a key (expected Ctrl, Alt, Shift, Meta, a letter or digit, or an evdev key name such as KEY_F12)")
            }
            if parts.contains(where: { $0.codes == part.codes }) { throw KeyChordError("\"\(text)\" names \(part.name) twice") }
            parts.append(part)
        }
        self.parts = parts
    }

    /// `Ctrl+Alt+Shift+S`.
    public var description: String { parts.map(\.name).joined(separator: "+") }

    /// Whether `code` belongs to one of the parts.
    public func contains(_ code: UInt16) -> Bool { parts.contains { $0.codes.contains(code) } }

    /// Whether every part has one of its keys down.
    public func isComplete(isDown: (UInt16) -> Bool) -> Bool {
        parts.allSatisfy { $0.codes.contains(where: isDown) }
    }
}

public struct KeyChordError: Error, Equatable, Sendable {
    public var message: String
    init(_ message: String) { self.message = message }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
