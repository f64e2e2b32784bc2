/// A scanning keyboard's layout, as a `keyboards/NAME.json` file describes it (docs/typing.md):
/// pages of rows of keys. A page is either written out row by row (`qwerty`, `abc`) or
/// **computed**: its keys are placed where they cost least under the profile's timings, by the
/// letter frequencies the page carries (`frequency`, `KeyboardArrangement`).
public struct KeyboardLayout: Sendable, Equatable {
    public var name: String
    /// BCP 47 language tag of the text it writes ("en"): which word list and presage model fit.
    public var language: String
    public var pages: [Page]

    public init(name: String, language: String, pages: [Page]) {
        self.name = name
        self.language = language
        self.pages = pages
    }

    public struct Page: Sendable, Equatable {
        public var name: String
        /// Written-out rows (empty for a computed page until it is arranged).
        public var rows: [[Key]]
        /// A computed page: what to place and how.
        public var computed: Computed?

        public init(name: String, rows: [[Key]], computed: Computed? = nil) {
            self.name = name
            self.rows = rows
            self.computed = computed
        }
    }

    /// A page whose key positions are computed: `keys` placed on a grid of `columns` columns (or
    /// the best of `columns` … `maxColumns`), most frequent where reaching costs least; `fixed`
    /// rows follow the computed ones as written.
    public struct Computed: Sendable, Equatable {
        public var keys: [Key]
        /// How often each key is used, per key id (relative; missing = 0).
        public var frequencies: [String: Double]
        public var columns: ClosedRange<Int>
        public var fixed: [[Key]]

        public init(keys: [Key], frequencies: [String: Double], columns: ClosedRange<Int>, fixed: [[Key]]) {
            self.keys = keys
            self.frequencies = frequencies
            self.columns = columns
            self.fixed = fixed
        }
    }

    public struct Key: Sendable, Equatable, Hashable {
        public var kind: Kind
        /// What the key shows and speech says; nil: the kind's own word.
        public var label: String?
        /// Relative width in its row (1 = a letter key).
        public var width: Double

        public init(_ kind: Kind, label: String? = nil, width: Double = 1) {
            self.kind = kind
            self.label = label
            self.width = width
        }

        /// Stable within a page, and the same on every page for the same key (the highlight and
        /// group selection's memory of what was chosen follow it): `key:q`, `key:space`,
        /// `key:page:digits`. A place (`Kind.place`) is `place:N`: outside the `key:` ids, so no
        /// key of a layout can be taken for one.
        public var id: String {
            switch kind {
            case .text(let t): return "key:" + t.lowercased()
            case .page(let p): return "key:page:" + p
            case .place(let n): return "place:\(n)"
            default: return "key:" + kind.name
            }
        }

        /// The word shown and spoken when the layout gives none.
        public var defaultLabel: String {
            switch kind {
            case .text(let t): return t
            case .space: return "space"
            case .backspace: return "delete"
            case .deleteWord: return "delete word"
            case .returnKey: return "return"
            case .shift: return "shift"
            case .capsLock: return "caps lock"
            case .page(let p): return p
            case .left: return "cursor left"
            case .right: return "cursor right"
            case .close: return "hide keyboard"
            case .place(let n): return "place \(n + 1)"
            }
        }
    }

    public enum Kind: Sendable, Equatable, Hashable {
        /// Types its text (a letter, a digit, a mark, or a few characters).
        case text(String)
        case space, backspace, deleteWord, returnKey
        /// One-shot shift: off → once → locked → off.
        case shift
        case capsLock
        /// Shows the page of that name.
        case page(String)
        /// Moves the caret one character.
        case left, right
        /// Closes the keyboard (scanning returns to the field).
        case close
        /// The n-th place of a computed page while its places are costed (`KeyboardArrangement`);
        /// never read from a layout file and never in an arranged layout. It types nothing.
        case place(Int)

        /// The name in layout files (`{"key": "backspace"}`).
        public var name: String {
            switch self {
            case .text: return "text"
            case .space: return "space"
            case .backspace: return "backspace"
            case .deleteWord: return "deleteWord"
            case .returnKey: return "return"
            case .shift: return "shift"
            case .capsLock: return "capsLock"
            case .page: return "page"
            case .left: return "left"
            case .right: return "right"
            case .close: return "close"
            case .place: return "place"
            }
        }

        /// The kinds a file names with `"key"` (text keys are plain strings or `"text"`).
        public static let named: [String: Kind] = [
            "space": .space, "backspace": .backspace, "deleteWord": .deleteWord, "return": .returnKey,
            "shift": .shift, "capsLock": .capsLock, "left": .left, "right": .right, "close": .close,
        ]
    }

    public func page(named name: String) -> Page? { pages.first { $0.name == name } }

    /// Every character a text key of any page types (after arranging, computed pages included).
    public var typeableCharacters: Set<Character> {
        var out: Set<Character> = [" ", "\n"]
        for page in pages {
            for key in page.rows.joined() + (page.computed.map { $0.keys + $0.fixed.joined() } ?? []) {
                if case .text(let t) = key.kind {
                    for c in t {
                        out.insert(c)
                        out.formUnion(Set(String(c).uppercased()))
                    }
                }
            }
        }
        return out
    }
}
