/// Deterministic JSON output with keys in the order given, so `tree show --format json`,
/// `tree import` and the other JSON reports are byte-identical run to run. (Transcript lines are
/// written straight into a string by `TranscriptFormat`, the hot path.)
public indirect enum JSONOut: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    /// A number written exactly as given (e.g. "1.000" seconds).
    case raw(String)
    case string(String)
    case array([JSONOut])
    case object([(String, JSONOut)])

    /// Compact (`{"a":1}`) or, with `indent`, pretty-printed with that many spaces per level.
    public func rendered(indent: Int? = nil) -> String {
        var out = ""
        write(into: &out, indent: indent, level: 0)
        return out
    }

    func write(into out: inout String, indent: Int?, level: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let d): out += formatNumber(d)
        case .raw(let s): out += s
        case .string(let s): JSONOut.writeString(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            // Arrays of scalars stay on one line even when pretty-printing ([x, y, w, h]).
            let scalar = items.allSatisfy { if case .array = $0 { return false }; if case .object = $0 { return false }; return true }
            out += "["
            for (k, item) in items.enumerated() {
                if k > 0 { out += indent == nil || scalar ? (indent == nil ? "," : ", ") : "," }
                if let indent, !scalar { newline(&out, indent, level + 1) }
                item.write(into: &out, indent: indent, level: level + 1)
            }
            if let indent, !scalar { newline(&out, indent, level) }
            out += "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{"
            for (k, (key, value)) in members.enumerated() {
                if k > 0 { out += "," }
                if let indent { newline(&out, indent, level + 1) }
                JSONOut.writeString(key, into: &out)
                out += indent == nil ? ":" : ": "
                value.write(into: &out, indent: indent, level: level + 1)
            }
            if let indent { newline(&out, indent, level) }
            out += "}"
        }
    }

    private func newline(_ out: inout String, _ indent: Int, _ level: Int) {
        out += "\n"
        out += String(repeating: " ", count: indent * level)
    }

    static func writeString(_ s: String, into out: inout String) {
        // Most strings need no escaping: append them whole (the transcript's hot path).
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            out += "\""
            out += s
            out += "\""
            return
        }
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}
