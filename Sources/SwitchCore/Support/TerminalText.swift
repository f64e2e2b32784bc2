/// The one escaping rule for everything the tool prints as text (docs/transcript.md): labels,
/// ids, names and paths come from applications, dumps, profiles and the kernel, and a terminal
/// must never receive them raw. An `ESC ] 0 ; … BEL` in a label would retitle the terminal,
/// `ESC [ 2 J` clear it, a newline split one finding over two lines.
///
/// What is escaped: the characters that would break the line or move the cursor (C0 and C1
/// controls, DEL, line and paragraph separators) and the bidirectional overrides and isolates
/// that would reorder what follows them, written `\n`, `\t`, `\r`, else `\u{1B}`. Inside quotes
/// (`escaped`, `quoted`) `"` and `\` are escaped too, so a quoted value always ends at its quote.
/// The transcript, `tree show`, `tree audit`, `profiles`, `demo`, `debug-events`, `devices` and
/// every message on standard error (`InputError`, notes, warnings) follow it.
public enum TerminalText {
    /// `s` safe to print inside double quotes on one terminal line.
    public static func escaped(_ s: String) -> String {
        escape(s, quotes: true)
    }

    /// `s` in double quotes, escaped.
    public static func quoted(_ s: String) -> String {
        "\"" + escape(s, quotes: true) + "\""
    }

    /// A whole line of text (a message that quotes values itself): control characters escaped by
    /// the same rule, `"` and `\` left as they are.
    public static func line(_ s: String) -> String {
        escape(s, quotes: false)
    }

    /// At most `limit` characters of `s`, then "…" and how long it is: a value quoted in a message
    /// (a 900,000-character menu id) must not fill the terminal.
    public static func shortened(_ s: String, to limit: Int = 60) -> String {
        guard s.utf8.count > limit else { return s }
        let n = s.count
        return n > limit ? String(s.prefix(limit)) + "… (\(n) characters)" : s
    }

    /// Whether `s` holds nothing `line` would escape.
    public static func isSafe(_ s: String) -> Bool {
        !s.unicodeScalars.contains { isUnsafe($0) }
    }

    private static func escape(_ s: String, quotes: Bool) -> String {
        // Printable ASCII without `"` and `\` (most ids and labels) needs nothing: checked on
        // the bytes, which is much cheaper than the scalars (`tree show` escapes 100,000 strings
        // for a large dump).
        let plain = s.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && (!quotes || ($0 != 0x22 && $0 != 0x5C)) }
        }
        if plain == true { return s }
        func needsEscape(_ u: Unicode.Scalar) -> Bool {
            isUnsafe(u) || (quotes && (u == "\"" || u == "\\"))
        }
        guard s.unicodeScalars.contains(where: needsEscape) else { return s }
        var out = ""
        for u in s.unicodeScalars {
            guard needsEscape(u) else {
                out.unicodeScalars.append(u)
                continue
            }
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out += "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    private static func isUnsafe(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00...0x1F, 0x7F...0x9F: return true         // C0, DEL, C1
        case 0x2028, 0x2029: return true                   // line and paragraph separators
        case 0x202A...0x202E, 0x2066...0x2069: return true // bidi embeddings, overrides, isolates
        default: return false
        }
    }
}
