/// A key combination a person sends from the scanner menu (`Ctrl+C`, `Alt+Tab`,
/// `XF86AudioRaiseVolume`): modifiers and one key, named by **keysym**, never by key position.
/// The senders (XTest, the uinput keyboard) look the keysym up in the current keyboard layout, so
/// Ctrl+A is Ctrl+A on AZERTY too (by position it would be Ctrl+Q).
///
/// Written as parts joined by "+": modifiers first (Ctrl, Alt, Shift, Super; Control, Meta and Win
/// are other names), then the key: one character (`C`, `/`, `é`), a named key (Escape, Enter, Tab,
/// Space, Backspace, Delete, Insert, Home, End, PageUp, PageDown, Up, Down, Left, Right, Menu,
/// Print, F1 … F24, plus, minus) or a media key by its X name (`XF86AudioRaiseVolume`). A modifier
/// alone is a key too (`Super`). The canonical text (`description`) is what the transcript shows.
public struct KeyCombo: Sendable, Equatable, Hashable, CustomStringConvertible {
    public enum Modifier: String, Sendable, CaseIterable, Comparable {
        case ctrl = "Ctrl", alt = "Alt", shift = "Shift", `super` = "Super"

        /// The left key's keysym (what a sender presses).
        public var keysym: UInt32 {
            switch self {
            case .ctrl: return 0xffe3   // Control_L
            case .alt: return 0xffe9    // Alt_L
            case .shift: return 0xffe1  // Shift_L
            case .super: return 0xffeb  // Super_L
            }
        }

        public static func < (a: Modifier, b: Modifier) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// In canonical order (Ctrl, Alt, Shift, Super).
    public var modifiers: [Modifier]
    /// The key's canonical name (`C`, `Tab`, `XF86AudioMute`, `é`).
    public var keyName: String
    /// The key's X keysym.
    public var keysym: UInt32

    public var description: String { (modifiers.map(\.rawValue) + [keyName]).joined(separator: "+") }

    static let modifierNames: [String: Modifier] = [
        "ctrl": .ctrl, "control": .ctrl, "alt": .alt, "shift": .shift, "super": .super, "meta": .super, "win": .super,
    ]

    /// Named keys: lowercased spellings → (canonical name, keysym). X's keysym names are accepted
    /// too (`Return`, `Page_Up`, `BackSpace`).
    static let namedKeys: [String: (name: String, keysym: UInt32)] = {
        var t: [String: (String, UInt32)] = [:]
        func add(_ name: String, _ keysym: UInt32, _ others: [String] = []) {
            for n in [name] + others { t[n.lowercased()] = (name, keysym) }
        }
        add("Escape", 0xff1b, ["Esc"])
        add("Enter", 0xff0d, ["Return"])
        add("Tab", 0xff09)
        add("Space", 0x20)
        add("Backspace", 0xff08, ["BackSpace"])
        add("Delete", 0xffff, ["Del"])
        add("Insert", 0xff63)
        add("Home", 0xff50)
        add("End", 0xff57)
        add("PageUp", 0xff55, ["Page_Up", "Prior", "PgUp"])
        add("PageDown", 0xff56, ["Page_Down", "Next", "PgDn"])
        add("Left", 0xff51)
        add("Up", 0xff52)
        add("Right", 0xff53)
        add("Down", 0xff54)
        add("Menu", 0xff67)
        add("Print", 0xff61)
        add("plus", 0x2b)
        add("minus", 0x2d)
        for n in 1...24 { add("F\(n)", 0xffbe + UInt32(n - 1)) }
        for (name, keysym) in KeyCombo.mediaKeys { add(name, keysym) }
        return t
    }()

    /// The media and device keys (XF86keysym.h).
    public static let mediaKeys: [(String, UInt32)] = [
        ("XF86AudioLowerVolume", 0x1008ff11), ("XF86AudioMute", 0x1008ff12), ("XF86AudioRaiseVolume", 0x1008ff13),
        ("XF86AudioPlay", 0x1008ff14), ("XF86AudioStop", 0x1008ff15), ("XF86AudioPrev", 0x1008ff16),
        ("XF86AudioNext", 0x1008ff17), ("XF86AudioPause", 0x1008ff31), ("XF86AudioMicMute", 0x1008ffb2),
        ("XF86MonBrightnessUp", 0x1008ff02), ("XF86MonBrightnessDown", 0x1008ff03),
    ]

    public init(modifiers: [Modifier], keyName: String, keysym: UInt32) {
        self.modifiers = modifiers.sorted()
        self.keyName = keyName
        self.keysym = keysym
    }

    /// Parses a written combination; the error's message says what is wrong and what is expected.
    public init(parsing text: String) throws(KeyChordError) {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map { String($0).trimmedSpaces }
        guard parts.allSatisfy({ !$0.isEmpty }) else {
            throw KeyChordError("\"\(text)\" has an empty part (write keys joined by \"+\", e.g. \"Ctrl+C\"; the + key is \"plus\")")
        }
        var modifiers: [Modifier] = []
        for word in parts.dropLast() {
            guard let m = KeyCombo.modifierNames[word.lowercased()] else {
                throw KeyChordError("\"\(word)\" is not a modifier (only the last part is a key; modifiers are Ctrl, Alt, Shift, Super)")
            }
            if modifiers.contains(m) { throw KeyChordError("\"\(text)\" names \(m.rawValue) twice") }
            modifiers.append(m)
        }
        let last = parts.last!
        if let m = KeyCombo.modifierNames[last.lowercased()] {
            guard modifiers.isEmpty else { throw KeyChordError("\"\(text)\" ends in a modifier (\(m.rawValue)); the last part is the key") }
            self.init(modifiers: [], keyName: m.rawValue, keysym: m.keysym)
        } else if let named = KeyCombo.namedKeys[last.lowercased()] {
            self.init(modifiers: modifiers, keyName: named.name, keysym: named.keysym)
        } else if last.unicodeScalars.count == 1, let u = last.unicodeScalars.first, let keysym = KeyCombo.keysym(for: u) {
            // A letter is named in capitals and sent as its lower-case keysym: Shift is only
            // pressed when written (Ctrl+Shift+Z).
            let lower = Character(u).lowercased()
            let key = lower.unicodeScalars.count == 1 ? lower.unicodeScalars.first! : u
            self.init(modifiers: modifiers, keyName: Character(u).uppercased().count == 1 ? Character(u).uppercased() : last,
                      keysym: KeyCombo.keysym(for: key) ?? keysym)
        } else {
            throw KeyChordError("\"\(last)\" is not a key (expected one character such as C or /, a key name such as Escape, Enter, Tab, Space, Backspace, Delete, Home, End, PageUp, PageDown, Up, Down, Left, Right, F1 … F24, plus, minus, or a media key such as XF86AudioRaiseVolume)")
        }
    }

    /// The keysym that types a character of a text (XTest's and the uinput keyboard's one rule):
    /// a new line (`\n` or `\r`) is Return, a tab Tab, anything else `keysym(for:)`.
    public static func typingKeysym(for u: Unicode.Scalar) -> UInt32? {
        switch u {
        case "\n", "\r": return 0xff0d
        case "\t": return 0xff09
        default: return keysym(for: u)
        }
    }

    /// The keysym of a character (X11's rule: Latin-1 is its own keysym, any other character is
    /// 0x01000000 + its code point); nil for control characters.
    public static func keysym(for u: Unicode.Scalar) -> UInt32? {
        switch u.value {
        case 0x20...0x7e, 0xa0...0xff: return u.value
        case 0...0x1f, 0x7f...0x9f: return nil
        default: return 0x0100_0000 + u.value
        }
    }
}

extension String {
    fileprivate var trimmedSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
