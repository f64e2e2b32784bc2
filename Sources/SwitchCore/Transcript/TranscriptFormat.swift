/// The two ways a transcript is printed: JSONL (one object per line, keys in a fixed order, `t`
/// with three decimals) for tools and tests, and aligned text for people.
public enum TranscriptFormat {
    public enum Style: String, Sendable, CaseIterable { case text, jsonl }

    public static func render(_ line: TranscriptLine, as style: Style) -> String {
        style == .jsonl ? jsonl(line) : text(line)
    }

    public static func json(_ line: TranscriptLine) -> JSONOut {
        var m: [(String, JSONOut)] = [("t", .raw(line.t.transcriptString))]
        switch line.event {
        case .scan(let started):
            m += [("type", .string("scan")), ("state", .string(started ? "started" : "stopped"))]
        case .highlight(let id, let kind):
            m += [("type", .string("highlight")), ("id", .string(id)), ("kind", .string(kind.rawValue))]
        case .menuOpened(let id, let items):
            m += [("type", .string("menu")), ("open", .bool(true)), ("id", .string(id)), ("items", .array(items.map { .string($0) }))]
        case .menuClosed:
            m += [("type", .string("menu")), ("open", .bool(false))]
        case .perform(let p):
            m += [("type", .string("perform")), ("action", .string(p.action.name)), ("id", .string(p.id))]
            if case .custom(let name) = p.action { m.append(("name", .string(name))) }
            if let point = p.point { m.append(("point", point.json)) }
            if p.source == .touch { m.append(("source", .string("touch"))) }
        case .speak(let text):
            m += [("type", .string("speak")), ("text", .string(text))]
        case .filter(let f):
            m += [("type", .string("filter")), ("switch", .string(f.switchName))]
            switch f.decision {
            case .accepted(let a): m += [("decision", .string("accepted")), ("action", .string(a.rawValue))]
            case .rejected(let r): m += [("decision", .string("rejected")), ("reason", .string(r.rawValue))]
            case .longPress(let a): m += [("decision", .string("longPress")), ("action", .string(a.rawValue))]
            }
        case .touch(let t):
            m.append(("type", .string("touch")))
            switch t.decision {
            case .tap(let point, let id):
                m += [("decision", .string("tap")), ("point", point.json), ("id", id.map { .string($0) } ?? .null)]
            case .swipe(let from, let to, let direction):
                m += [("decision", .string("swipe")), ("from", from.json), ("to", to.json), ("direction", .string(direction.rawValue))]
            case .hold(let point):
                m += [("decision", .string("hold")), ("point", point.json)]
            case .rejected(let reason, let point):
                m += [("decision", .string("rejected")), ("reason", .string(reason.rawValue)), ("point", point.json)]
            }
            m.append(("contact", .number(Double(t.contact))))
        case .device(let d):
            m += [("type", .string("device")), ("change", .string(d.change.rawValue)), ("name", .string(d.name)), ("node", .string(d.node))]
        }
        return .object(m)
    }

    public static func jsonl(_ line: TranscriptLine) -> String { json(line).rendered() }

    /// `   2.300  menu       open cell1: menu:tap, menu:action:Delete, menu:close`
    public static func text(_ line: TranscriptLine) -> String {
        let t = line.t.transcriptString
        let time = String(repeating: " ", count: max(0, 8 - t.count)) + t
        func row(_ type: String, _ rest: String) -> String {
            time + "  " + type + String(repeating: " ", count: max(1, 11 - type.count)) + rest
        }
        switch line.event {
        case .scan(let started):
            return row("scan", started ? "started" : "stopped")
        case .highlight(let id, let kind):
            return row("highlight", pad(kind.rawValue, 10) + id)
        case .menuOpened(let id, let items):
            return row("menu", "open on \(id): " + items.joined(separator: ", "))
        case .menuClosed:
            return row("menu", "closed")
        case .perform(let p):
            var s = pad(p.action.name, 10) + p.id
            if case .custom(let name) = p.action { s += " \"\(name)\"" }
            if let point = p.point { s += " at \(point)" }
            if p.source == .touch { s += " (touch)" }
            return row("perform", s)
        case .speak(let text):
            return row("speak", "\"\(text)\"")
        case .filter(let f):
            switch f.decision {
            case .accepted(let a): return row("filter", "\(f.switchName) accepted → \(a.rawValue)")
            case .rejected(let r): return row("filter", "\(f.switchName) rejected (\(r.rawValue))")
            case .longPress(let a): return row("filter", "\(f.switchName) long press → \(a.rawValue)")
            }
        case .touch(let t):
            switch t.decision {
            case .tap(let point, let id):
                return row("touch", "tap at \(point) → \(id ?? "no item there") [contact \(t.contact)]")
            case .swipe(let from, let to, let direction):
                return row("touch", "swipe \(direction.rawValue) from \(from) to \(to) [contact \(t.contact)]")
            case .hold(let point):
                return row("touch", "hold at \(point) [contact \(t.contact)]")
            case .rejected(let reason, let point):
                return row("touch", "rejected (\(reason.rawValue)) at \(point) [contact \(t.contact)]")
            }
        case .device(let d):
            return row("device", "\(d.change.rawValue) \(d.node) \"\(d.name)\"")
        }
    }

    private static func pad(_ s: String, _ width: Int) -> String {
        s + String(repeating: " ", count: max(1, width - s.count))
    }
}
