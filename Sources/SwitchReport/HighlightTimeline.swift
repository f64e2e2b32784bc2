import SwitchCore

/// The path of the highlight over time, as an SVG chart: one lane per stop (the scan items in
/// scan order, each group just above its first item, the scanner menu on top), time from left to
/// right. Each highlight is a bar on its stop's lane from the moment it was highlighted until the
/// next highlight (or until scanning stopped); a step line joins the bars in order, so the eye
/// follows the highlight down the screen, into groups and menus, and back. Below the lanes: every
/// switch press (▲ accepted, ✕ rejected, ◆ long press) and touch, and a vertical line at every
/// perform (red for a miss).
public enum HighlightTimeline {
    /// What `svg` draws, in chart coordinates (tests check it).
    public struct Layout: Sendable {
        public var size: Size
        public var lanes: [Lane]
        public var bars: [Bar]
        /// x of time t.
        public var originX: Double
        public var pixelsPerSecond: Double
        /// The lane of presses and touches: its top and height.
        public var pressLaneY: Double
        public var laneHeight: Double

        public func x(_ t: Instant) -> Double { originX + t.seconds * pixelsPerSecond }
    }

    public struct Lane: Sendable {
        public var key: String
        public var title: String
        public var y: Double
    }

    public struct Bar: Sendable {
        public var lane: Int
        public var kind: HighlightKind
        public var label: String
        public var start: Instant
        public var end: Instant
    }

    public static let itemColour = "#90caf9"
    public static let groupColour = "#ffcc80"
    public static let exitColour = "#ffab91"
    public static let menuColour = "#ce93d8"
    public static let acceptedColour = "#2e7d32"
    public static let rejectedColour = "#c62828"
    public static let performColour = "#37474f"
    public static let touchColour = "#6a1b9a"
    static let pathColour = "#0d47a1"

    static let laneHeight = 18.0
    static let labelWidth = 250.0

    public static func layout(_ lines: [TranscriptLine], model: ScanModel, end: Instant) -> Layout {
        // Lanes: the menu, then groups and items by their place in scan order; stops only seen
        // after a layout change follow, in order of appearance.
        var position: [String: (Double, String)] = ["menu": (-1, "Scanner menu")]
        for (k, item) in model.items.enumerated() {
            position["item:" + item.id] = (Double(k + 1), "\(k + 1). " + item.description)
        }
        for g in model.groups {
            let depth = Double(groupDepth(g, model))
            let items = g.items.count == 1 ? "item \(g.items.lowerBound + 1)" : "items \(g.items.lowerBound + 1)–\(g.items.upperBound)"
            position["group:" + g.id] = (Double(g.items.lowerBound + 1) - 0.5 + depth * 0.01,
                                         "▭ " + (g.label?.trimmed.isEmpty == false ? g.label!.trimmed + " " : "group ") + "(\(items))")
        }
        var used: [String] = []
        var usedSet = Set<String>()
        var bars: [(key: String, bar: Bar)] = []
        var late = 1_000_000.0
        func key(_ id: String, _ kind: HighlightKind, _ label: String) -> String {
            let k: String
            switch kind {
            case .menuItem: k = "menu"
            case .item: k = "item:" + id
            case .group, .groupExit: k = "group:" + id
            }
            if position[k] == nil {
                late += 1
                position[k] = (late, kind == .item ? label : "▭ " + label)
            }
            if usedSet.insert(k).inserted { used.append(k) }
            return k
        }
        var open: (key: String, kind: HighlightKind, label: String, start: Instant)?
        func closeBar(at t: Instant) {
            if let o = open { bars.append((o.key, Bar(lane: 0, kind: o.kind, label: o.label, start: o.start, end: max(t, o.start)))) }
            open = nil
        }
        for line in lines {
            switch line.event {
            case .highlight(let id, let kind, let label):
                closeBar(at: line.t)
                open = (key(id, kind, label), kind, label, line.t)
            case let e where e.stopsScanning:
                closeBar(at: line.t)
            default:
                break
            }
        }
        closeBar(at: end)

        let keys = used.sorted { position[$0]!.0 < position[$1]!.0 }
        let index = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        let top = 28.0
        let lanes = keys.enumerated().map { k, key in Lane(key: key, title: position[key]!.1, y: top + Double(k) * laneHeight) }
        let duration = max(end.seconds, 1)
        let pps = max(900 / duration, min(40, 16_000 / duration))
        let pressLaneY = top + Double(lanes.count) * laneHeight + 6
        let height = pressLaneY + laneHeight * 1.5 + 34
        let width = labelWidth + 10 + duration * pps + 20
        return Layout(size: Size(width: width, height: height), lanes: lanes,
                      bars: bars.map { var b = $0.bar; b.lane = index[$0.key]!; return b },
                      originX: labelWidth + 10, pixelsPerSecond: pps, pressLaneY: pressLaneY, laneHeight: laneHeight)
    }

    static func groupDepth(_ g: ScanGroup, _ model: ScanModel) -> Int {
        var depth = 0
        var p = g.parent
        while let q = p { depth += 1; p = model.groups[q].parent }
        return depth
    }

    public static func svg(_ lines: [TranscriptLine], model: ScanModel, end: Instant, misses: Set<Instant> = [], id: String? = nil) -> String {
        let l = layout(lines, model: model, end: end)
        let h = l.laneHeight
        var m = Markup()
        var root: [(String, String)] = [
            ("xmlns", "http://www.w3.org/2000/svg"), ("version", "1.1"), ("width", svgNumber(l.size.width)),
            ("height", svgNumber(l.size.height)), ("viewBox", "0 0 \(svgNumber(l.size.width)) \(svgNumber(l.size.height))"),
            ("role", "img"), ("font-family", "DejaVu Sans, Verdana, sans-serif"), ("font-size", "11"),
        ]
        if let id { root.insert(("id", id), at: 0) }
        m.open("svg", root)
        m.element("title", text: "The path of the highlight over time: \(l.bars.count) highlights, \(l.lanes.count) stops")
        m.empty("rect", [("width", "100%"), ("height", "100%"), ("fill", "#ffffff")])
        m.newline()

        // Lanes and their names.
        for (k, lane) in l.lanes.enumerated() {
            if k % 2 == 0 {
                m.empty("rect", [("x", "0"), ("y", svgNumber(lane.y)), ("width", svgNumber(l.size.width)), ("height", svgNumber(h)), ("fill", "#f5f5f5")])
            }
            m.element("text", [("x", "4"), ("y", svgNumber(lane.y + h * 0.72)), ("fill", "#212121")], text: truncated(lane.title, 38))
            m.newline()
        }
        // Time axis.
        let duration = max(end.seconds, 1)
        let step = tickStep(pixelsPerSecond: l.pixelsPerSecond)
        let axisY = l.pressLaneY + h * 1.5 + 6
        m.empty("line", [("x1", svgNumber(l.originX)), ("y1", svgNumber(axisY)), ("x2", svgNumber(l.x(end))), ("y2", svgNumber(axisY)), ("stroke", "#212121")])
        var t = 0.0
        while t <= duration + 1e-9 {
            let x = l.originX + t * l.pixelsPerSecond
            m.empty("line", [("x1", svgNumber(x)), ("y1", "22"), ("x2", svgNumber(x)), ("y2", svgNumber(axisY + 4)), ("stroke", "#e0e0e0")])
            m.element("text", [("x", svgNumber(x)), ("y", svgNumber(axisY + 16)), ("text-anchor", "middle"), ("fill", "#616161")], text: formatNumber(t) + " s")
            t += step
        }
        m.element("text", [("x", "4"), ("y", svgNumber(l.pressLaneY + h * 0.85)), ("fill", "#212121")], text: "Presses and touches")
        m.newline()

        // Bars, then the path over them.
        for b in l.bars {
            let lane = l.lanes[b.lane]
            let x0 = l.x(b.start), x1 = max(l.x(b.end), x0 + 1)
            let fill: String
            switch b.kind {
            case .item: fill = itemColour
            case .group: fill = groupColour
            case .groupExit: fill = exitColour
            case .menuItem: fill = menuColour
            }
            m.open("rect", [("class", "bar"), ("data-kind", b.kind.rawValue), ("data-t", seconds(b.start)), ("x", svgNumber(x0)),
                            ("y", svgNumber(lane.y + 2)), ("width", svgNumber(x1 - x0)), ("height", svgNumber(h - 4)), ("fill", fill)])
            let what = b.kind == .groupExit ? "escape stop of " + b.label : b.label
            m.element("title", text: "\(seconds(b.start))–\(seconds(b.end)) s: \(what)")
            m.close("rect")
            m.newline()
        }
        if !l.bars.isEmpty {
            var points: [String] = []
            var previousEnd: Instant?
            for b in l.bars {
                let y = l.lanes[b.lane].y + h / 2
                if let e = previousEnd, e < b.start { points.append("") }  // a gap (scanning stopped) breaks the line
                points.append("\(svgNumber(l.x(b.start))),\(svgNumber(y)) \(svgNumber(l.x(b.end))),\(svgNumber(y))")
                previousEnd = b.end
            }
            for run in points.split(separator: "") {
                m.empty("polyline", [("class", "path"), ("points", run.joined(separator: " ")), ("fill", "none"), ("stroke", pathColour),
                                     ("stroke-width", "1.5"), ("stroke-linejoin", "round")])
            }
            m.newline()
        }

        // Performs, then the presses over them.
        for line in lines {
            guard case .perform(let p) = line.event else { continue }
            let x = l.x(line.t)
            do {
                let miss = misses.contains(line.t) && p.action != .escape
                m.open("line", [("class", miss ? "perform miss" : "perform"), ("data-t", seconds(line.t)), ("x1", svgNumber(x)), ("y1", "20"),
                                ("x2", svgNumber(x)), ("y2", svgNumber(l.pressLaneY + h * 1.5)),
                                ("stroke", miss ? rejectedColour : performColour), ("stroke-width", "2"), ("stroke-dasharray", "4 2")])
                m.element("title", text: "\(seconds(line.t)) s: " + Words.perform(p) + (miss ? " (a miss)" : ""))
                m.close("line")
            }
            m.newline()
        }
        for line in lines {
            let x = l.x(line.t)
            switch line.event {
            case .filter(let f):
                let y = l.pressLaneY + h * 0.75
                let title = "\(seconds(line.t)) s: " + Words.filter(f)
                switch f.decision {
                case .accepted:
                    marker(&m, "accepted", points: "\(svgNumber(x - 5)),\(svgNumber(y + 5)) \(svgNumber(x + 5)),\(svgNumber(y + 5)) \(svgNumber(x)),\(svgNumber(y - 6))",
                           colour: acceptedColour, t: line.t, title: title)
                case .longPress:
                    marker(&m, "longpress", points: "\(svgNumber(x - 6)),\(svgNumber(y)) \(svgNumber(x)),\(svgNumber(y - 6)) \(svgNumber(x + 6)),\(svgNumber(y)) \(svgNumber(x)),\(svgNumber(y + 6))",
                           colour: acceptedColour, t: line.t, title: title)
                case .rejected(.autorepeat):
                    continue
                case .rejected:
                    m.open("path", [("class", "marker rejected"), ("data-t", seconds(line.t)),
                                    ("d", "M\(svgNumber(x - 5)) \(svgNumber(y - 5))L\(svgNumber(x + 5)) \(svgNumber(y + 5))M\(svgNumber(x - 5)) \(svgNumber(y + 5))L\(svgNumber(x + 5)) \(svgNumber(y - 5))"),
                                    ("stroke", rejectedColour), ("stroke-width", "2.5")])
                    m.element("title", text: title)
                    m.close("path")
                }
            case .touch(let d):
                let y = l.pressLaneY + h * 0.75
                let rejected: Bool = { if case .rejected = d.decision { return true }; return false }()
                m.open("circle", [("class", rejected ? "marker touch rejected" : "marker touch"), ("data-t", seconds(line.t)), ("cx", svgNumber(x)), ("cy", svgNumber(y)), ("r", "5"),
                                  ("fill", rejected ? "none" : touchColour), ("stroke", rejected ? rejectedColour : touchColour), ("stroke-width", "2")])
                m.element("title", text: "\(seconds(line.t)) s: touch " + Words.touch(d))
                m.close("circle")
            default:
                continue
            }
            m.newline()
        }
        m.close("svg")
        m.newline()
        return m.out
    }

    static func marker(_ m: inout Markup, _ kind: String, points: String, colour: String, t: Instant, title: String) {
        m.open("polygon", [("class", "marker " + kind), ("data-t", seconds(t)), ("points", points), ("fill", colour)])
        m.element("title", text: title)
        m.close("polygon")
    }

    /// Seconds between time-axis ticks: about one every 60 pixels, on a 1-2-5 scale.
    static func tickStep(pixelsPerSecond: Double) -> Double {
        let want = 60 / max(pixelsPerSecond, 1e-6)
        for s in [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600] where s >= want { return s }
        return 7200
    }
}
