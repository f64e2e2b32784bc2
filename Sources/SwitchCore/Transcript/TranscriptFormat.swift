/// The two ways a transcript is printed: JSONL (one object per line, keys in a fixed order, `t`
/// with three decimals) for tools and tests, and aligned text for people.
public enum TranscriptFormat {
    public enum Style: String, Sendable, CaseIterable { case text, jsonl }

    /// - Parameter ids: text only: print element ids next to their labels (JSONL always has both).
    public static func render(_ line: TranscriptLine, as style: Style, ids: Bool = false) -> String {
        style == .jsonl ? jsonl(line) : text(line, ids: ids)
    }

    /// One JSON object, keys in a fixed order, written straight into a string: the live loop
    /// renders a line per press, so this path avoids building a `JSONOut` tree first.
    public static func jsonl(_ line: TranscriptLine) -> String {
        var w = LineWriter()
        w.raw("t", line.t.transcriptString)
        switch line.event {
        case .scan(let started):
            w.string("type", "scan")
            w.string("state", started ? "started" : "stopped")
        case .highlight(let id, let kind, let label):
            w.string("type", "highlight")
            w.string("id", id)
            w.string("label", label)
            w.string("kind", kind.rawValue)
        case .menuOpened(let id, let label, let items, let submenu):
            w.string("type", "menu")
            w.raw("open", "true")
            w.string("id", id)
            w.string("label", label)
            if let submenu { w.string("submenu", submenu) }
            w.strings("items", items.map(\.id))
            w.strings("labels", items.map(\.label))
        case .menuClosed:
            w.string("type", "menu")
            w.raw("open", "false")
        case .perform(let p):
            w.string("type", "perform")
            w.string("action", p.action.name)
            w.string("id", p.id)
            w.string("label", p.label)
            if case .custom(let name) = p.action { w.string("name", name) }
            w.performDetails(p.action)
            if let point = p.point { w.point("point", point) }
            if p.source == .touch { w.string("source", "touch") }
        case .speak(let text):
            w.string("type", "speak")
            w.string("text", text)
        case .filter(let f):
            w.string("type", "filter")
            w.string("switch", f.switchName)
            switch f.decision {
            case .accepted(let a): w.string("decision", "accepted"); w.string("action", a.rawValue)
            case .rejected(let r): w.string("decision", "rejected"); w.string("reason", r.rawValue)
            case .longPress(let a): w.string("decision", "longPress"); w.string("action", a.rawValue)
            }
        case .touch(let t):
            w.string("type", "touch")
            switch t.decision {
            case .tap(let point, let id, let label):
                w.string("decision", "tap")
                w.point("point", point)
                if let id { w.string("id", id) } else { w.raw("id", "null") }
                if let label { w.string("label", label) } else { w.raw("label", "null") }
            case .swipe(let from, let to, let direction):
                w.string("decision", "swipe")
                w.point("from", from)
                w.point("to", to)
                w.string("direction", direction.rawValue)
            case .hold(let point):
                w.string("decision", "hold")
                w.point("point", point)
            case .rejected(let reason, let point):
                w.string("decision", "rejected")
                w.string("reason", reason.rawValue)
                w.point("point", point)
            case .passedTap(let point):
                w.string("decision", "tap")
                w.point("point", point)
                w.string("output", "virtualTouchscreen")
            case .gesture(let from, let to, let duration):
                w.string("decision", "gesture")
                w.point("from", from)
                w.point("to", to)
                w.raw("seconds", formatMilliseconds(duration.microseconds))
                w.string("output", "virtualTouchscreen")
            }
            w.raw("contact", String(t.contact))
        case .device(let d):
            w.string("type", "device")
            w.string("change", d.change.rawValue)
            w.string("name", d.name)
            w.string("node", d.node)
        case .result(let r):
            w.string("type", "result")
            w.string("action", r.action.name)
            w.string("id", r.id)
            w.string("label", r.label)
            if case .custom(let name) = r.action { w.string("name", name) }
            w.performDetails(r.action)
            switch r.outcome {
            case .done(let how): w.string("result", "done"); w.string("how", how)
            case .failed(let why): w.string("result", "failed"); w.string("reason", why)
            }
        case .tree(let c):
            w.string("type", "tree")
            w.string("change", c.change.rawValue)
            w.string("app", c.app)
            w.string(c.change == .window ? "window" : "reason", c.detail)
        case .colorGroups(let groups):
            w.string("type", "groups")
            w.key("groups")
            w.out += "["
            for (n, g) in groups.enumerated() {
                if n > 0 { w.out += "," }
                var inner = LineWriter()
                inner.string("color", g.color)
                inner.strings("ids", g.ids)
                inner.strings("labels", g.labels)
                if g.back { inner.raw("back", "true") }
                w.out += inner.finish()
            }
            w.out += "]"
        case .sweep(let sweep):
            w.string("type", "sweep")
            w.string("kind", sweep.kind.rawValue)
            w.string("axis", sweep.axis.rawValue)
            switch sweep.motion {
            case .moving(let from, let to, let duration):
                w.raw("from", formatNumber(Point.rounded(from)))
                w.raw("to", formatNumber(Point.rounded(to)))
                w.raw("seconds", formatMilliseconds(duration.microseconds))
            case .stopped(let at):
                w.raw("stopped", formatNumber(Point.rounded(at)))
            }
            if sweep.kind == .band { w.raw("width", formatNumber(Point.rounded(sweep.width))) }
        case .point(let point, let id, let label):
            w.string("type", "point")
            w.point("point", point)
            if let id { w.string("id", id) } else { w.raw("id", "null") }
            if let label { w.string("label", label) } else { w.raw("label", "null") }
        case .pointMenuOpened(let point, let id, let label, let items, let submenu):
            w.string("type", "menu")
            w.raw("open", "true")
            w.point("point", point)
            if let id { w.string("id", id) } else { w.raw("id", "null") }
            if let label { w.string("label", label) } else { w.raw("label", "null") }
            if let submenu { w.string("submenu", submenu) }
            w.strings("items", items.map(\.id))
            w.strings("labels", items.map(\.label))
        case .mode(let mode):
            w.string("type", "mode")
            w.string("mode", mode.rawValue)
        case .pause(let p):
            w.string("type", "pause")
            w.string("state", p.state.rawValue)
            switch p.cause {
            case .hold(let name, _): w.string("by", "hold"); w.string("switch", name)
            case .chord(let chord): w.string("by", "chord"); w.string("chord", chord)
            case .menu: w.string("by", "menu")
            }
        case .setting(let c):
            w.string("type", "setting")
            w.string("name", c.name)
            w.settingValue("from", c.from)
            w.settingValue("to", c.to)
            if let limit = c.limit { w.string("limit", limit.rawValue) }
        case .drag(let d):
            w.string("type", "drag")
            w.string("state", d.state.rawValue)
            w.string("id", d.id)
            w.string("label", d.label)
            w.point("from", d.from)
        case .scanStopped(let why):
            w.string("type", "scan")
            w.string("state", "stopped")
            w.string("reason", why.rawValue)
        case .layoutLoaded(let file):
            w.string("type", "tree")
            w.string("change", "layout")
            w.string("file", file)
        case .typed(let typed):
            w.string("type", "type")
            w.string("text", typed.shownText)
            if typed.edit.delete != 0 { w.raw("delete", String(typed.edit.delete)) }
            if typed.edit.move != 0 { w.raw("move", String(typed.edit.move)) }
            w.string("key", typed.key)
        case .keyboard(let k):
            w.string("type", "keyboard")
            switch k {
            case .opened(let layout, let page, let id, let label, let password):
                w.string("state", "opened")
                w.string("layout", layout)
                w.string("page", page)
                if let id { w.string("id", id) } else { w.raw("id", "null") }
                if let label { w.string("label", label) } else { w.raw("label", "null") }
                if password { w.raw("password", "true") }
            case .closed:
                w.string("state", "closed")
            case .page(let page):
                w.string("page", page)
            case .shift(let shift):
                w.string("shift", shift.rawValue)
            case .predictions(let words):
                w.strings("predictions", words)
            case .predictionsFailed(let why):
                w.raw("predictions", "null")
                w.string("reason", why)
            case .learning(let notice):
                w.string("learning", notice.state.rawValue)
                w.string("reason", notice.reason)
            }
        case .typeResult(let r):
            w.string("type", "result")
            w.string("action", "type")
            w.string("id", r.id)
            w.string("label", r.label)
            switch r.outcome {
            case .done(let how): w.string("result", "done"); w.string("how", how)
            case .failed(let why): w.string("result", "failed"); w.string("reason", why)
            }
            if let text = r.shownText { w.string("text", text) } else { w.raw("text", "null") }
        case .adaptiveTiming(let c):
            w.string("type", "timing")
            w.string("name", "autoScanningTime")
            w.raw("from", seconds(c.from))
            w.raw("to", seconds(c.to))
            w.string("reason", c.reason.rawValue)
            w.raw("selections", String(c.window.selections))
            w.raw("undone", String(c.window.undone))
            w.raw("missed", String(c.window.missed))
            w.raw("medianPress", formatFixed(c.window.medianFraction, 2))
        }
        return w.finish()
    }

    /// Appends `"key":value` pairs to one `{…}` line.
    private struct LineWriter {
        var out = "{"

        mutating func key(_ k: String) {
            if out.utf8.count > 1 { out += "," }
            out += "\""
            out += k
            out += "\":"
        }

        mutating func raw(_ k: String, _ v: String) {
            key(k)
            out += v
        }

        mutating func string(_ k: String, _ v: String) {
            key(k)
            JSONOut.writeString(v, into: &out)
        }

        mutating func strings(_ k: String, _ vs: [String]) {
            key(k)
            out += "["
            for (n, v) in vs.enumerated() {
                if n > 0 { out += "," }
                JSONOut.writeString(v, into: &out)
            }
            out += "]"
        }

        mutating func point(_ k: String, _ p: Point) {
            key(k)
            out += "["
            out += formatNumber(Point.rounded(p.x))
            out += ","
            out += formatNumber(Point.rounded(p.y))
            out += "]"
        }

        mutating func finish() -> String {
            out += "}"
            return out
        }

        /// What a gesture or key perform adds: a drag's ends, a scroll's direction, the keys.
        mutating func performDetails(_ action: Perform.Action) {
            switch action {
            case .drag(let from, let to): point("from", from); point("to", to)
            case .scroll(let direction): string("direction", direction.rawValue)
            case .key(let keys): string("keys", keys)
            default: break
            }
        }

        mutating func settingValue(_ k: String, _ v: SettingChange.Value) {
            switch v {
            case .seconds(let s): raw(k, TranscriptFormat.seconds(s))
            case .bool(let b): raw(k, b ? "true" : "false")
            case .text(let t): string(k, t)
            }
        }
    }

    /// Seconds as a JSON number with at least one decimal (`1.0`, `1.1`, `0.95`): a setting's
    /// value reads as a time.
    static func seconds(_ i: Interval) -> String {
        let s = formatNumber(i.seconds)
        return s.contains(".") || s.contains("e") ? s : s + ".0"
    }

    public static func settingText(_ v: SettingChange.Value) -> String {
        switch v {
        case .seconds(let s): return seconds(s) + " s"
        case .bool(let b): return b ? "on" : "off"
        case .text(let t): return quoted(t)
        }
    }

    /// `   2.300  menu       open on "London, button": "Tap", "Delete", "Close menu"`
    ///
    /// Stops, menu entries and acted-on elements are named by their labels, quoted, with control
    /// characters escaped (`quoted`); `ids` adds each one's id in brackets. An element without
    /// words is named by its id alone: `[/0/3]`.
    public static func text(_ line: TranscriptLine, ids: Bool = false) -> String {
        let t = line.t.transcriptString
        let time = String(repeating: " ", count: max(0, 8 - t.count)) + t
        func row(_ type: String, _ rest: String) -> String {
            time + "  " + type + String(repeating: " ", count: max(1, 11 - type.count)) + rest
        }
        func name(_ id: String, _ label: String) -> String {
            if label.isEmpty { return "[" + escaped(id) + "]" }
            return ids ? quoted(label) + " [" + escaped(id) + "]" : quoted(label)
        }
        switch line.event {
        case .scan(let started):
            return row("scan", started ? "started" : "stopped")
        case .highlight(let id, let kind, let label):
            return row("highlight", pad(kind.rawValue, 10) + name(id, label))
        case .menuOpened(let id, let label, let items, let submenu):
            return row("menu", "open " + (submenu.map { escaped($0) + " " } ?? "") + "on " + name(id, label) + ": "
                       + items.map { name($0.id, $0.label) }.joined(separator: ", "))
        case .menuClosed:
            return row("menu", "closed")
        case .perform(let p):
            var s = pad(p.action.name, 10)
            switch p.action {
            case .custom(let action): s += quoted(action) + " on "
            case .scroll(let direction): s += direction.rawValue + " on "
            case .key(let keys): s += escaped(keys) + " on "
            default: break
            }
            s += name(p.id, p.label)
            if case .drag(let from, let to) = p.action { s += " from \(from) to \(to)" }
            if let point = p.point { s += " at \(point)" }
            if p.source == .touch { s += " (touch)" }
            return row("perform", s)
        case .speak(let text):
            return row("speak", quoted(text))
        case .filter(let f):
            switch f.decision {
            case .accepted(let a): return row("filter", "\(f.switchName) accepted → \(a.rawValue)")
            case .rejected(let r): return row("filter", "\(f.switchName) rejected (\(r.rawValue))")
            case .longPress(let a): return row("filter", "\(f.switchName) long press → \(a.rawValue)")
            }
        case .touch(let t):
            switch t.decision {
            case .tap(let point, let id, let label):
                let hit = id.map { name($0, label ?? "") } ?? "no item there"
                return row("touch", "tap at \(point) → \(hit) [contact \(t.contact)]")
            case .swipe(let from, let to, let direction):
                return row("touch", "swipe \(direction.rawValue) from \(from) to \(to) [contact \(t.contact)]")
            case .hold(let point):
                return row("touch", "hold at \(point) [contact \(t.contact)]")
            case .rejected(let reason, let point):
                return row("touch", "rejected (\(reason.rawValue)) at \(point) [contact \(t.contact)]")
            case .passedTap(let point):
                return row("touch", "tap at \(point) → virtual touchscreen [contact \(t.contact)]")
            case .gesture(let from, let to, let duration):
                return row("touch", "gesture from \(from) to \(to) in \(formatMilliseconds(duration.microseconds)) s → virtual touchscreen [contact \(t.contact)]")
            }
        case .device(let d):
            return row("device", "\(d.change.rawValue) \(d.node) " + quoted(d.name))
        case .result(let r):
            var s = pad(r.action.name, 10)
            switch r.action {
            case .custom(let action): s += quoted(action) + " on "
            case .scroll(let direction): s += direction.rawValue + " on "
            case .key(let keys): s += escaped(keys) + " on "
            default: break
            }
            s += name(r.id, r.label)
            switch r.outcome {
            case .done(let how): s += " done: " + escaped(how)
            case .failed(let why): s += " failed: " + escaped(why)
            }
            return row("result", s)
        case .tree(let c):
            switch c.change {
            case .window: return row("tree", "window " + quoted(c.detail) + " of " + quoted(c.app))
            case .ended: return row("tree", "ended: " + quoted(c.app) + ": " + escaped(c.detail))
            case .notAnswering: return row("tree", "not answering: " + quoted(c.app) + ": " + escaped(c.detail))
            case .busy: return row("tree", "busy: " + quoted(c.app) + ": " + escaped(c.detail))
            case .settled: return row("tree", "settled: " + quoted(c.app) + ": " + escaped(c.detail))
            }
        case .colorGroups(let groups):
            return row("groups", groups.map { g in
                g.color + ": " + (zip(g.ids, g.labels).map(name) + (g.back ? ["(back)"] : [])).joined(separator: " ")
            }.joined(separator: " | "))
        case .sweep(let sweep):
            var s = "\(sweep.axis.rawValue) \(sweep.kind.rawValue)"
            if sweep.kind == .band { s += " \(formatNumber(Point.rounded(sweep.width))) wide" }
            switch sweep.motion {
            case .moving(let from, let to, let duration):
                s += " \(formatNumber(Point.rounded(from))) → \(formatNumber(Point.rounded(to))) in \(formatMilliseconds(duration.microseconds)) s"
            case .stopped(let at):
                s += " stopped at \(formatNumber(Point.rounded(at)))"
            }
            return row("sweep", s)
        case .point(let point, let id, let label):
            return row("point", "\(point) → " + (id.map { name($0, label ?? "") } ?? "no item there"))
        case .pointMenuOpened(let point, let id, let label, let items, let submenu):
            return row("menu", "open " + (submenu.map { escaped($0) + " " } ?? "") + "at \(point)" + (id.map { " on " + name($0, label ?? "") } ?? "") + ": "
                       + items.map { name($0.id, $0.label) }.joined(separator: ", "))
        case .mode(let mode):
            return row("mode", mode.rawValue)
        case .pause(let p):
            switch p.cause {
            case .hold(let name, let held): return row("pause", "\(p.state.rawValue): \(name) held \(held)")
            case .chord(let chord): return row("pause", "\(p.state.rawValue): \(chord)")
            case .menu: return row("pause", "\(p.state.rawValue): scanner menu")
            }
        case .setting(let c):
            if let limit = c.limit { return row("setting", escaped(c.name) + " stays " + settingText(c.to) + ": already the \(limit.rawValue)") }
            return row("setting", escaped(c.name) + " " + settingText(c.from) + " → " + settingText(c.to))
        case .drag(let d):
            switch d.state {
            case .choosing: return row("drag", "from " + name(d.id, d.label) + " at \(d.from): choose where it drops")
            case .cancelled: return row("drag", "cancelled: " + name(d.id, d.label))
            }
        case .scanStopped(let why):
            return row("scan", "stopped (\(why.rawValue))")
        case .layoutLoaded(let file):
            return row("tree", "layout " + quoted(file))
        case .typed(let typed):
            var s = quoted(typed.shownText)
            if typed.edit.delete != 0 { s += " after deleting \(typed.edit.delete)" }
            if typed.edit.move != 0 { s = "caret \(typed.edit.move > 0 ? "+" : "")\(typed.edit.move)" }
            return row("type", s + " [" + escaped(typed.key) + "]")
        case .keyboard(let k):
            switch k {
            case .opened(let layout, let page, let id, let label, let password):
                let field = id.map { " on " + name($0, label ?? "") } ?? ""
                return row("keyboard", "opened " + quoted(layout) + " page " + quoted(page) + field + (password ? " (password)" : ""))
            case .closed: return row("keyboard", "closed")
            case .page(let page): return row("keyboard", "page " + quoted(page))
            case .shift(let shift): return row("keyboard", "shift " + shift.rawValue)
            case .predictions(let words): return row("keyboard", "predictions " + (words.isEmpty ? "none" : words.map(quoted).joined(separator: " ")))
            case .predictionsFailed(let why): return row("keyboard", "predictions failed: " + escaped(why))
            case .learning(let notice): return row("keyboard", "learning \(notice.state.rawValue): " + escaped(notice.reason))
            }
        case .typeResult(let r):
            var s = pad("type", 10) + name(r.id, r.label)
            switch r.outcome {
            case .done(let how): s += " done: " + escaped(how)
            case .failed(let why): s += " failed: " + escaped(why)
            }
            s += ", text " + (r.shownText.map(quoted) ?? "unreadable")
            return row("result", s)
        case .adaptiveTiming(let c):
            let w = c.window
            return row("timing", "autoScanningTime " + seconds(c.from) + " → " + seconds(c.to) + " s (\(c.reason.rawValue): of \(w.selections) selections \(w.undone) undone, \(w.missed) after a full pass, median press at \(Int((w.medianFraction * 100).rounded())) % of the dwell)")
        }
    }

    /// `s` in double quotes, escaped (`TerminalText.quoted`).
    public static func quoted(_ s: String) -> String { TerminalText.quoted(s) }

    /// `s` safe to print on one terminal line (`TerminalText.escaped`: the one rule for all text
    /// output). Labels and ids come from applications and dumps, so they are never printed raw.
    public static func escaped(_ s: String) -> String { TerminalText.escaped(s) }

    private static func pad(_ s: String, _ width: Int) -> String {
        s + String(repeating: " ", count: max(1, width - s.count))
    }
}
