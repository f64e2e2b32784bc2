import SwitchCore

/// Writing SVG and HTML by hand: a string builder with escaping, so every word that came from a
/// tree or a recording is text, never markup. The output is deterministic (no dates, no random
/// ids) so two runs of the same session write the same bytes.
struct Markup {
    private(set) var out = ""

    init() {}

    /// `<name a="v" …>`; attributes in the order given, values escaped.
    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        out += "<" + name
        attrs(attributes)
        out += ">"
    }

    /// `<name a="v" …/>`.
    mutating func empty(_ name: String, _ attributes: [(String, String)] = []) {
        out += "<" + name
        attrs(attributes)
        out += "/>"
    }

    mutating func close(_ name: String) { out += "</" + name + ">" }

    /// `<name …>text</name>`, the text escaped.
    mutating func element(_ name: String, _ attributes: [(String, String)] = [], text: String) {
        open(name, attributes)
        self.text(text)
        close(name)
    }

    mutating func text(_ s: String) { out += Markup.escape(s) }

    /// Markup made elsewhere (a picture inside the page), inserted as it is.
    mutating func raw(_ s: String) { out += s }

    mutating func newline() { out += "\n" }

    private mutating func attrs(_ attributes: [(String, String)]) {
        for (k, v) in attributes {
            out += " " + k + "=\""
            out += Markup.escape(v)
            out += "\""
        }
    }

    /// Text and attribute values: `& < > " '` as entities, and the characters XML 1.0 cannot carry
    /// (C0 controls other than tab and line breaks, lone surrogates cannot occur in a Swift
    /// string, U+FFFE/U+FFFF) as U+FFFD, so a hostile label can neither inject markup nor make
    /// the file unreadable.
    static func escape(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { needsEscape($0) }) else { return s }
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                if needsEscape(u) { out += "\u{FFFD}" } else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }

    private static func needsEscape(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x26, 0x3C, 0x3E, 0x22, 0x27: return true
        case 0x09, 0x0A, 0x0D: return false
        case 0x00...0x1F, 0xFFFE, 0xFFFF: return true
        default: return false
        }
    }
}

/// A coordinate or length in SVG: at most two decimals, no exponent.
func svgNumber(_ d: Double) -> String {
    formatNumber((d * 100).rounded() / 100)
}

/// `s` cut to `limit` characters with "…" when longer (SVG text cannot wrap or measure itself).
func truncated(_ s: String, _ limit: Int) -> String {
    guard s.count > limit, limit > 1 else { return s }
    return String(s.prefix(limit - 1)) + "…"
}

/// Seconds with three decimals, as in transcripts.
func seconds(_ t: Instant) -> String { t.transcriptString }
