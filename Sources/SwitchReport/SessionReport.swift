import SwitchCore

/// `simulate … --report FILE.html`: one self-contained HTML page of a session for a clinician:
/// the session's figures, the screen (one picture per tree the session used), the path of the
/// highlight over time, every perform and every press with its filter decision, and how the
/// figures are counted.
///
/// Self-contained: the styles and pictures are inline, there is no script, and the page's
/// Content-Security-Policy (`default-src 'none'`) forbids a browser to fetch anything for it, so
/// it opens from a file, a mail attachment or a USB stick without a server or a network.
public enum SessionReport {
    public struct Session: Sendable {
        /// The tree, profile and input as the user named them (file names).
        public var treeName: String
        public var profileName: String
        public var inputName: String
        /// Every tree the session used: the first at t = 0, then one per layout change.
        public var screens: [Screen]
        public var lines: [TranscriptLine]
        /// When the session ended.
        public var end: Instant
        /// The figures of the whole session, when `lines` holds only its first part (a
        /// `Recorder`'s); nil: worked out from `lines`.
        public var figures: SessionFigures?
        /// Set when `lines` is only the first part of the session.
        public var detail: Detail?

        public init(treeName: String, profileName: String, inputName: String, screens: [Screen], lines: [TranscriptLine], end: Instant) {
            self.treeName = treeName
            self.profileName = profileName
            self.inputName = inputName
            self.screens = screens
            self.lines = lines
            self.end = end
        }

        /// The session `recorder` saw: the figures over all of it, the lines of its detailed part.
        public init(treeName: String, profileName: String, inputName: String, screens: [Screen], recorder: Recorder, end: Instant) {
            self.init(treeName: treeName, profileName: profileName, inputName: inputName, screens: screens, lines: recorder.lines, end: end)
            var figures = recorder.figures
            figures.finish(end: end)
            self.figures = figures
            if let at = recorder.detailEnds {
                detail = Detail(highlights: recorder.highlights, kept: recorder.keptHighlights, endsAt: at)
            }
        }
    }

    /// The detailed part of a long session: the chart and the lists show its first `kept`
    /// highlights (up to `endsAt`) of `highlights`.
    public struct Detail: Sendable {
        public var highlights: Int
        public var kept: Int
        public var endsAt: Instant
    }

    /// A session's report gathered while it runs (`simulate --report`), in memory that does not
    /// grow with the recording (issue 22: a million presses made a 742 MB page at 1.77 GB):
    /// every line counts in the figures, and the lines up to the `limit`-th highlight are kept
    /// for the path chart and the press, perform and touch lists; past it, a note says so.
    public struct Recorder: Sendable {
        /// The highlights the chart and the lists cover.
        public static let detailedHighlights = 10_000

        public let limit: Int
        public private(set) var figures: SessionFigures
        public private(set) var lines: [TranscriptLine] = []
        public private(set) var highlights = 0
        /// The time of the first highlight past `limit`: the detailed part ends there.
        public private(set) var detailEnds: Instant?

        /// - Parameter trees: every tree of the session (its on/off elements decide misses).
        public init(trees: [ElementTree], limit: Int = Recorder.detailedHighlights) {
            self.limit = limit
            figures = SessionFigures(isToggle: SessionFigures.toggles(in: trees))
        }

        /// The lines kept at most, whatever the highlights (a touch-only session has none).
        public static let maximumLines = 200_000
        /// The highlights in the kept part.
        public private(set) var keptHighlights = 0

        public mutating func observe(_ line: TranscriptLine) {
            if case .highlight = line.event { highlights += 1 }
            if detailEnds == nil, highlights > limit || lines.count >= Recorder.maximumLines {
                detailEnds = line.t
                keptHighlights = highlights - (highlights > limit ? 1 : 0)
                figures.keepsSelections = false
                lines = Array(lines)  // no spare capacity kept
            }
            figures.observe(line)
            if detailEnds == nil { lines.append(line) }
        }
    }

    public struct Screen: Sendable {
        public var at: Instant
        public var name: String
        public var tree: ElementTree

        public init(at: Instant, name: String, tree: ElementTree) {
            self.at = at
            self.name = name
            self.tree = tree
        }
    }

    static let style = """
    body { font-family: "DejaVu Sans", Verdana, sans-serif; color: #212121; margin: 24px; max-width: 1200px; line-height: 1.4; }
    h1 { font-size: 1.6em; margin-bottom: 0.2em; }
    h2 { font-size: 1.25em; margin-top: 1.6em; border-bottom: 1px solid #bdbdbd; }
    dl.session { display: grid; grid-template-columns: max-content auto; gap: 2px 16px; }
    dl.session dt { font-weight: bold; }
    dl.session dd { margin: 0; }
    table { border-collapse: collapse; margin: 8px 0; }
    th, td { border: 1px solid #e0e0e0; padding: 3px 8px; text-align: left; vertical-align: top; }
    th { background: #f5f5f5; }
    td.num { text-align: right; font-variant-numeric: tabular-nums; }
    tr.miss td { background: #ffebee; }
    tr.rejected td { color: #c62828; }
    .scroll { overflow-x: auto; border: 1px solid #e0e0e0; }
    figure { margin: 8px 0 16px 0; }
    figcaption { color: #616161; }
    .key span { display: inline-block; margin-right: 16px; }
    .swatch { display: inline-block; width: 12px; height: 12px; vertical-align: middle; margin-right: 4px; }
    """

    public static func html(_ s: Session) -> String {
        let trees = s.screens.map(\.tree)
        let figures = s.figures ?? SessionFigures(s.lines, end: s.end, isToggle: SessionFigures.toggles(in: trees))
        var m = Markup()
        m.raw("<!DOCTYPE html>\n")
        m.open("html", [("lang", "en")])
        m.newline()
        m.open("head")
        m.empty("meta", [("charset", "utf-8")])
        m.empty("meta", [("http-equiv", "Content-Security-Policy"), ("content", "default-src 'none'; style-src 'unsafe-inline'")])
        m.empty("meta", [("name", "viewport"), ("content", "width=device-width, initial-scale=1")])
        m.element("title", text: "Switch session: \(s.treeName), \(s.profileName)")
        m.open("style")
        m.raw(style)
        m.close("style")
        m.close("head")
        m.newline()
        m.open("body")
        m.newline()
        m.element("h1", text: "Switch session")
        m.open("dl", [("class", "session")])
        for (k, v) in [("Screen", s.treeName), ("Profile", s.profileName), ("Input", s.inputName),
                       ("Length", "\(seconds(s.end)) s (t = 0 is the start of scanning)")] {
            m.element("dt", text: k)
            m.element("dd", text: v)
        }
        if s.screens.count > 1 {
            m.element("dt", text: "Layout changes")
            m.element("dd", text: s.screens.dropFirst().map { "\(seconds($0.at)) s: \($0.name)" }.joined(separator: "; "))
        }
        m.close("dl")
        m.newline()

        figuresSection(&m, figures)
        screensSection(&m, s)
        pathSection(&m, s, figures)
        performsSection(&m, s, figures)
        pressesSection(&m, s)
        touchesSection(&m, s)
        definitionsSection(&m)

        m.close("body")
        m.newline()
        m.close("html")
        m.newline()
        return m.out
    }

    // MARK: Sections

    static func figuresSection(_ m: inout Markup, _ f: SessionFigures) {
        m.open("section", [("id", "figures")])
        m.element("h2", text: "Figures")
        m.open("table")
        func row(_ name: String, _ value: String, id: String) {
            m.open("tr", [("id", "figure-" + id)])
            m.element("th", [("scope", "row")], text: name)
            m.element("td", [("class", "num")], text: value)
            m.close("tr")
            m.newline()
        }
        row("Presses", "\(f.presses)", id: "presses")
        row("Accepted", "\(f.accepted)" + (f.longPresses > 0 ? " (\(f.longPresses) long)" : ""), id: "accepted")
        let reasons = [(FilterDecision.RejectReason.holdDuration, "hold duration"), (.ignoreRepeat, "ignore repeat"), (.debounce, "debounce")]
            .compactMap { r, name in f.rejectedBy[r].map { "\(name) \($0)" } }
        row("Rejected", "\(f.rejected)" + (reasons.isEmpty ? "" : " (" + reasons.joined(separator: ", ") + ")"), id: "rejected")
        if f.switches.count > 1 {
            for sw in f.switches { row("  \(sw.name)", "\(sw.accepted) accepted, \(sw.rejected) rejected", id: "switch-" + sw.name) }
        }
        if f.keyRepeats > 0 { row("Key repeats ignored", "\(f.keyRepeats)", id: "key-repeats") }
        if f.touchTaps + f.touchSwipes + f.touchHolds + f.touchGestures + f.touchRejected > 0 {
            let gestures = f.touchGestures > 0 ? ", \(f.touchGestures) gestures passed on" : ""
            row("Touches", "\(f.touchTaps) taps, \(f.touchSwipes) swipes, \(f.touchHolds) holds\(gestures), \(f.touchRejected) rejected", id: "touches")
        }
        row("Selections", "\(f.selectionCount)", id: "selections")
        row("Selections per minute", f.selectionsPerMinute.map { formatFixed($0, 2) } ?? "–", id: "per-minute")
        row("Average time to a selection", f.averageTimeToSelect.map { seconds(Instant.zero + $0) + " s" } ?? "–", id: "time-to-select")
        row("Misses", "\(f.misses)" + (f.selectionCount == 0 ? "" : " of \(f.selectionCount)"), id: "misses")
        row("Escapes", "\(f.escapes)", id: "escapes")
        row("Menus closed without an action", "\(f.menusClosedWithoutAction)", id: "menus-closed")
        m.close("table")
        m.close("section")
        m.newline()
    }

    static func screensSection(_ m: inout Markup, _ s: Session) {
        m.open("section", [("id", "screen")])
        m.element("h2", text: s.screens.count > 1 ? "The screens" : "The screen")
        for (k, screen) in s.screens.enumerated() {
            m.open("figure")
            m.open("div", [("class", "scroll")])
            m.raw(ScreenPicture.svg(screen.tree, title: screen.name, id: "screen-\(k)"))
            m.close("div")
            m.element("figcaption", text: k == 0 ? "From the start: the scan items numbered in scan order, groups dashed."
                                                  : "From \(seconds(screen.at)) s (a layout change).")
            m.close("figure")
            m.newline()
        }
        m.close("section")
        m.newline()
    }

    static func pathSection(_ m: inout Markup, _ s: Session, _ f: SessionFigures) {
        m.open("section", [("id", "path")])
        m.element("h2", text: "The path of the highlight")
        detailNote(&m, s)
        let scanned = s.lines.contains { if case .highlight = $0.event { return true }; return false }
        m.element("p", text: scanned ? "Each bar is a highlight, on its stop's row, from when it was highlighted until the next one; the line follows the highlight. Hover a mark for its time and words."
                                     : "Nothing was highlighted: this profile does not scan (touch only). The chart shows the touches and what they performed.")
        m.open("div", [("class", "scroll")])
        let model = ScanModel(tree: s.screens.first?.tree ?? ElementTree(screen: Size(width: 1, height: 1), root: Element()))
        let misses = Set(f.selections.filter { $0.miss != nil }.map(\.t))
        m.raw(HighlightTimeline.svg(s.lines, model: model, end: s.detail?.endsAt ?? s.end, misses: misses, id: "timeline"))
        m.close("div")
        m.open("p", [("class", "key")])
        for (colour, words) in [(HighlightTimeline.itemColour, "item"), (HighlightTimeline.groupColour, "group"),
                                (HighlightTimeline.exitColour, "a group's escape stop"), (HighlightTimeline.menuColour, "menu entry"),
                                (HighlightTimeline.acceptedColour, "▲ accepted press, ◆ long press"),
                                (HighlightTimeline.rejectedColour, "✕ rejected press; a miss"),
                                (HighlightTimeline.performColour, "a perform"), (HighlightTimeline.touchColour, "● touch")] {
            m.open("span")
            m.open("span", [("class", "swatch"), ("style", "background: \(colour)")])
            m.close("span")
            m.text(words)
            m.close("span")
        }
        m.close("p")
        m.close("section")
        m.newline()
    }

    static func performsSection(_ m: inout Markup, _ s: Session, _ f: SessionFigures) {
        m.open("section", [("id", "performs")])
        m.element("h2", text: "Selections and escapes")
        detailNote(&m, s)
        var bySelectionTime: [Instant: [SessionFigures.Selection]] = [:]
        for sel in f.selections { bySelectionTime[sel.t, default: []].append(sel) }
        m.open("table")
        m.open("thead")
        m.open("tr")
        for h in ["#", "Time (s)", "Performed", "Time to select (s)", "Miss"] { m.element("th", [("scope", "col")], text: h) }
        m.close("tr")
        m.close("thead")
        m.open("tbody")
        var n = 0
        var used: [Instant: Int] = [:]
        for line in s.lines {
            guard case .perform(let p) = line.event else { continue }
            var selection: SessionFigures.Selection?
            if p.action != .escape, let list = bySelectionTime[line.t] {
                let k = used[line.t, default: 0]
                if k < list.count { selection = list[k]; used[line.t] = k + 1 }
            }
            let missWords: String
            switch selection?.miss {
            case .escaped(let at)?: missWords = "escaped at \(seconds(at)) s"
            case .undone(let by, let at)?: missWords = "undone at \(seconds(at)) s (\(Words.perform(by)))"
            case nil: missWords = ""
            }
            m.open("tr", selection?.miss != nil ? [("class", "miss")] : [])
            if selection != nil { n += 1 }
            m.element("td", [("class", "num")], text: selection != nil ? "\(n)" : "")
            m.element("td", [("class", "num")], text: seconds(line.t))
            m.element("td", text: Words.perform(p))
            m.element("td", [("class", "num")], text: selection.map { seconds(Instant.zero + $0.timeToSelect) } ?? "")
            m.element("td", text: missWords)
            m.close("tr")
            m.newline()
        }
        m.close("tbody")
        m.close("table")
        if n == 0 { m.element("p", text: "Nothing was performed.") }
        m.close("section")
        m.newline()
    }

    static func pressesSection(_ m: inout Markup, _ s: Session) {
        m.open("section", [("id", "presses")])
        m.element("h2", text: "Presses")
        detailNote(&m, s)
        m.open("table")
        m.open("thead")
        m.open("tr")
        for h in ["Time (s)", "Switch", "Decision", "Highlighted then"] { m.element("th", [("scope", "col")], text: h) }
        m.close("tr")
        m.close("thead")
        m.open("tbody")
        var highlighted = ""
        var repeats = 0
        for line in s.lines {
            switch line.event {
            case .highlight(let id, let kind, let label):
                highlighted = (kind == .groupExit ? "escape stop of " : "") + Words.name(id, label)
            case let e where e.stopsScanning:
                highlighted = ""
            case .filter(let f):
                if case .rejected(.autorepeat) = f.decision { repeats += 1; continue }
                let decision: String
                var rejected = false
                switch f.decision {
                case .accepted(let a): decision = "accepted → \(a.rawValue)"
                case .longPress(let a): decision = "long press → \(a.rawValue)"
                case .rejected(let r): decision = "rejected: \(Words.reason(r))"; rejected = true
                }
                m.open("tr", rejected ? [("class", "rejected")] : [])
                m.element("td", [("class", "num")], text: seconds(line.t))
                m.element("td", text: f.switchName)
                m.element("td", text: decision)
                m.element("td", text: highlighted)
                m.close("tr")
                m.newline()
            default:
                continue
            }
        }
        m.close("tbody")
        m.close("table")
        if !s.lines.contains(where: { if case .filter = $0.event { return true }; return false }) { m.element("p", text: "No switch was pressed.") }
        if repeats > 0 { m.element("p", text: "\(repeats) key autorepeat events while a switch was held were ignored (not listed).") }
        m.close("section")
        m.newline()
    }

    static func touchesSection(_ m: inout Markup, _ s: Session) {
        let touches = s.lines.compactMap { line -> (Instant, TouchDecision)? in
            if case .touch(let d) = line.event { return (line.t, d) }
            return nil
        }
        guard !touches.isEmpty else { return }
        m.open("section", [("id", "touches")])
        m.element("h2", text: "Touches")
        detailNote(&m, s)
        m.open("table")
        m.open("tr")
        for h in ["Time (s)", "Contact", "Decision"] { m.element("th", [("scope", "col")], text: h) }
        m.close("tr")
        for (t, d) in touches {
            m.open("tr")
            m.element("td", [("class", "num")], text: seconds(t))
            m.element("td", [("class", "num")], text: "\(d.contact)")
            m.element("td", text: Words.touch(d))
            m.close("tr")
            m.newline()
        }
        m.close("table")
        m.close("section")
        m.newline()
    }

    /// Where the lists and the chart cover only the first part of a long session, says so.
    static func detailNote(_ m: inout Markup, _ s: Session) {
        guard let d = s.detail else { return }
        m.element("p", [("class", "detail-note")],
                  text: "This session had \(d.highlights) highlights in \(seconds(s.end)) s: this part shows it up to \(seconds(d.endsAt)) s (the first \(d.kept) highlights). The figures above count the whole session.")
    }

    static func definitionsSection(_ m: inout Markup) {
        m.open("section", [("id", "definitions")])
        m.element("h2", text: "How the figures are counted")
        m.open("ul")
        for text in [
            "A press is one physical press of a switch as its filters decided it: accepted (its action fired; a long press counts here) or rejected (released before the hold duration, inside the ignore-repeat time, or a bounce). A held key's autorepeat events are not presses.",
            "A selection is something performed other than an escape: an activation (by a switch or a touch), a custom action, an increment or a decrement.",
            "Time to a selection runs from the previous perform, or from the start of scanning (or its restart after it stopped), to the selection.",
            "A miss is a selection whose next perform is an escape or undoes it immediately: an increment followed by a decrement of the same element or the reverse, a custom action named “Undo”, or a second activation of the same on/off element. Immediately means nothing else was performed in between.",
            "Selections per minute: selections divided by the session's length.",
        ] { m.element("li", text: text) }
        m.close("ul")
        m.close("section")
        m.newline()
    }
}
