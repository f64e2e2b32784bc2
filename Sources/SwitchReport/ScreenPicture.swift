import SwitchCore

/// A clinician's picture of a screen (`tree show --format svg`, and the screens of a session
/// report): every element's frame, the scan items numbered in scan order on their frames, the
/// groups outlined (dashed, as iOS draws a group's cursor), and a legend beside it that lists the
/// items in scan order with their descriptions, group by group.
///
/// Trees without geometry (Chrome DevTools and Chromium dumps have no frames) cannot be drawn as
/// a screen: the legend alone is the picture, and a note says why. Items without a frame in a
/// tree that has frames are listed in the legend and marked "no frame".
///
/// Everything is in screen points (the canvas is the screen plus margins), so the picture of a
/// 390 × 844 phone is 390 points wide where the screen is; badges and text scale with the
/// screen's size so that they stay readable on a 1920 × 1080 dump.
public enum ScreenPicture {
    /// Where everything goes, in canvas coordinates (what `svg` draws; tests check it).
    public struct Layout: Sendable {
        public var canvas: Size
        /// Added to a screen point to get its canvas point.
        public var offset: Point
        /// The screen's rectangle on the canvas; nil when nothing has a frame.
        public var screen: Rect?
        /// The area the screen is drawn in: the screen and every scan item's frame (with a margin
        /// for badges and tabs); frames reaching further are cut at its edge.
        public var drawing: Rect
        public var badgeRadius: Double
        /// Scan items with a frame, in scan order.
        public var badges: [Badge]
        /// Groups with a frame (or items with frames), outermost first.
        public var groups: [GroupOutline]
        /// Every other frame: containers and elements that are not scan items.
        public var boxes: [Box]
        public var legend: [LegendRow]
        /// Things the picture cannot show (no frames, hidden subtrees, off-screen items).
        public var notes: [String]
        /// The notes as drawn, wrapped to the picture's width.
        public var noteLines: [String]
    }

    public struct Badge: Sendable {
        /// 1-based scan order, as `tree show` numbers items.
        public var number: Int
        public var id: String
        public var description: String
        public var frame: Rect
        public var center: Point
    }

    public struct GroupOutline: Sendable {
        public var id: String
        public var label: String
        public var frame: Rect
    }

    public struct Box: Sendable {
        public enum Kind: Sendable { case container, element }
        public var id: String
        public var kind: Kind
        public var frame: Rect
        /// Outside the open modal view: scanning cannot reach it (drawn faded).
        public var reachable: Bool
    }

    public struct LegendRow: Sendable {
        public enum Kind: Sendable {
            case item(number: Int, hasFrame: Bool)
            case group
        }
        public var kind: Kind
        public var id: String
        public var text: String
        /// Nesting inside groups (0 at the top level).
        public var depth: Int
        /// Top of the row on the canvas.
        public var y: Double
        /// For a group: the bottom of its last row (the dashed box around its rows).
        public var groupBottom: Double?
    }

    // MARK: Colours (the render tests look for them in the PNG)

    public static let itemColour = "#1565c0"
    public static let badgeText = "#ffffff"
    public static let groupColour = "#e65100"
    static let itemFill = "#e3f2fd"
    static let elementStroke = "#9e9e9e"
    static let elementFill = "#f5f5f5"
    static let containerStroke = "#b0bec5"
    static let ink = "#212121"
    static let muted = "#757575"

    // MARK: Layout

    /// Frames this far outside the screen (in screens) are not drawn; a note says how many.
    static let drawLimit = 1.0

    public static func layout(_ tree: ElementTree) -> Layout {
        layout(tree, ScanModel(tree: tree))
    }

    static func layout(_ tree: ElementTree, _ model: ScanModel) -> Layout {
        let screenRect = Rect(x: 0, y: 0, width: max(tree.screen.width, 1), height: max(tree.screen.height, 1))
        let hasGeometry = hasFrames(tree.root)
        // Badges and text grow with the screen (a 1080-pixel-wide dump is drawn in its pixels);
        // a list without a screen is drawn at a phone's scale.
        let r = hasGeometry ? min(max(min(screenRect.width, screenRect.height) / 36, 8), 40) : 10
        let margin = r * 1.5
        let titleHeight = r * 3.4
        let rowHeight = r * 2.5
        let legendWidth = r * 34
        var notes: [String] = []

        let limit = Rect(x: -screenRect.width * drawLimit, y: -screenRect.height * drawLimit,
                         width: screenRect.width * (1 + 2 * drawLimit), height: screenRect.height * (1 + 2 * drawLimit))
        func drawable(_ f: Rect?) -> Rect? {
            guard let f, !f.isEmpty, f.x.isFinite, f.y.isFinite, f.width.isFinite, f.height.isFinite,
                  f.x >= limit.minX, f.y >= limit.minY, f.maxX <= limit.maxX, f.maxY <= limit.maxY else { return nil }
            return f
        }

        // Every node assistive technology can see, with its frame.
        var boxes: [Box] = []
        var hidden = 0
        var anyFrame = false
        let itemIDs = Set(model.items.map(\.id))
        func visit(_ e: Element, reachable: Bool, isRoot: Bool) {
            if e.elementsHidden { hidden += 1; return }
            let reachable = reachable || e.id == model.scopeID
            if let f = drawable(e.frame) {
                anyFrame = true
                if !isRoot, !itemIDs.contains(e.id) {
                    boxes.append(Box(id: e.id, kind: e.isElement ? .element : .container, frame: f, reachable: reachable))
                }
            }
            if e.isElement { return }
            for c in e.children { visit(c, reachable: reachable, isRoot: false) }
        }
        visit(tree.root, reachable: tree.root.id == model.scopeID, isRoot: true)

        let framed = model.items.indices.filter { drawable(model.items[$0].element.frame) != nil }
        let frameless = model.items.count - framed.count
        let outside = model.items.filter { $0.element.frame.map { !$0.isEmpty && drawable($0) == nil } ?? false }.count
        let showScreen = anyFrame || !framed.isEmpty

        // The drawing area: the screen and every framed item.
        var extent = screenRect
        for i in framed { extent = extent.union(model.items[i].element.frame!) }
        let top = margin + titleHeight
        let offset = showScreen ? Point(x: margin - extent.minX, y: top - extent.minY) : Point(x: margin, y: top)
        func place(_ f: Rect) -> Rect { Rect(x: f.x + offset.x, y: f.y + offset.y, width: f.width, height: f.height) }
        boxes = boxes.map { var b = $0; b.frame = place(b.frame); return b }

        var badges: [Badge] = []
        let inset = max(1, r * 0.25)
        for i in framed {
            let item = model.items[i]
            let f = place(item.element.frame!)
            let fits = f.width >= 2 * (r + inset) && f.height >= 2 * (r + inset)
            let center = fits ? Point(x: f.x + inset + r, y: f.y + inset + r) : f.center
            badges.append(Badge(number: i + 1, id: item.id, description: item.description, frame: f, center: center))
        }
        var groups: [GroupOutline] = []
        // A group inside another is drawn a little inside its frame, so two groups that share an
        // edge (a list and the row group in it) stay two dashed lines.
        let groupStroke = max(2, r * 0.28)
        for g in model.groups.indices {
            guard let f = drawable(model.frame(ofGroup: g)) else { continue }
            var depth = 0.0
            var p = model.groups[g].parent
            while let q = p { depth += 1; p = model.groups[q].parent }
            let d = min(depth * groupStroke * 1.5, min(f.width, f.height) / 4)
            let inset = Rect(x: f.x + d, y: f.y + d, width: f.width - 2 * d, height: f.height - 2 * d)
            groups.append(GroupOutline(id: model.groups[g].id, label: model.groups[g].label?.trimmed ?? "", frame: place(inset)))
        }

        // The legend: scan order, group by group.
        let legendX = showScreen ? margin + extent.width + margin : margin
        var legend: [LegendRow] = []
        var y = top
        func list(_ stops: [ScanStop], depth: Int) {
            for stop in stops {
                switch stop {
                case .item(let i):
                    let item = model.items[i]
                    legend.append(LegendRow(kind: .item(number: i + 1, hasFrame: !showScreen || drawable(item.element.frame) != nil),
                                            id: item.id, text: item.description, depth: depth, y: y))
                    y += rowHeight
                case .group(let g):
                    let row = legend.count
                    legend.append(LegendRow(kind: .group, id: model.groups[g].id, text: model.groups[g].description, depth: depth, y: y))
                    y += rowHeight
                    list(model.groups[g].stops, depth: depth + 1)
                    legend[row].groupBottom = y
                    y += rowHeight * 0.2
                }
            }
        }
        list(model.topStops, depth: 0)

        if !showScreen {
            notes.append("no element has a frame (a Chrome or Chromium dump has no geometry): the items are listed in scan order, not drawn where they are")
        } else if frameless > outside {
            notes.append("\(frameless - outside) scan item\(frameless - outside == 1 ? " has" : "s have") no frame: listed, not drawn")
        }
        if outside > 0 { notes.append("\(outside) scan item\(outside == 1 ? " lies" : "s lie") more than a screen away from the screen: listed, not drawn") }
        if hidden > 0 { notes.append("\(hidden) hidden subtree\(hidden == 1 ? "" : "s") (elementsHidden) not drawn") }
        if model.items.isEmpty { notes.append("the tree has no scan items") }

        let drawingBottom = showScreen ? top + extent.height : top
        let width = legendX + legendWidth + margin
        let noteLines = notes.flatMap { wrapped("Note: " + $0, Int(saturating: (width - 2 * margin) / (r * 1.1 * 0.9 * 0.6))) }
        let notesHeight = Double(noteLines.count) * rowHeight * 0.7
        let height = max(drawingBottom, y) + margin + notesHeight
        let drawing = Rect(x: margin / 2, y: top - r, width: extent.width + margin, height: extent.height + r + margin / 2)
        return Layout(canvas: Size(width: width, height: height), offset: offset,
                      screen: showScreen ? place(screenRect) : nil, drawing: drawing, badgeRadius: r, badges: badges,
                      groups: groups, boxes: boxes, legend: legend, notes: notes, noteLines: noteLines)
    }

    /// Whether any node of the tree has a frame.
    static func hasFrames(_ e: Element) -> Bool {
        e.frame != nil || e.children.contains { hasFrames($0) }
    }

    /// `s` in lines of at most `width` characters, broken at spaces.
    static func wrapped(_ s: String, _ width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in s.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > max(width, 10) {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    // MARK: Drawing

    /// The picture as a standalone SVG document (also valid inline in HTML).
    /// - Parameter id: an `id` for the root element (the session report names its pictures).
    public static func svg(_ tree: ElementTree, title: String, id: String? = nil) -> String {
        let model = ScanModel(tree: tree)
        let l = layout(tree, model)
        let r = l.badgeRadius
        let fontSize = r * 1.1
        let rowHeight = r * 2.5
        let margin = r * 1.5
        var m = Markup()
        var rootAttributes: [(String, String)] = [
            ("xmlns", "http://www.w3.org/2000/svg"), ("version", "1.1"),
            ("width", svgNumber(l.canvas.width)), ("height", svgNumber(l.canvas.height)),
            ("viewBox", "0 0 \(svgNumber(l.canvas.width)) \(svgNumber(l.canvas.height))"),
            ("role", "img"), ("font-family", "DejaVu Sans, Verdana, sans-serif"),
        ]
        if let id { rootAttributes.insert(("id", id), at: 0) }
        m.open("svg", rootAttributes)
        m.newline()
        let summary = "\(model.items.count) scan item\(model.items.count == 1 ? "" : "s"), \(model.groups.count) group\(model.groups.count == 1 ? "" : "s"), screen \(formatNumber(tree.screen.width)) × \(formatNumber(tree.screen.height))"
        m.element("title", text: "\(title): \(summary)")
        m.newline()
        m.empty("rect", [("width", "100%"), ("height", "100%"), ("fill", "#ffffff")])
        m.element("text", [("x", svgNumber(margin)), ("y", svgNumber(margin + fontSize * 1.2)), ("font-size", svgNumber(fontSize * 1.25)),
                           ("font-weight", "bold"), ("fill", ink)], text: truncated(title, Int(saturating: (l.canvas.width - 2 * margin) / (fontSize * 1.25 * 0.64))))
        m.element("text", [("x", svgNumber(margin)), ("y", svgNumber(margin + fontSize * 2.7)), ("font-size", svgNumber(fontSize)),
                           ("fill", muted)], text: summary)
        m.newline()

        if let screen = l.screen {
            // Frames reaching beyond the drawing area (a container wider than the screen) are cut
            // at its edge rather than drawn over the title or the legend.
            let clip = (id ?? "picture") + "-area"
            m.open("clipPath", [("id", clip)])
            m.empty("rect", rectAttributes(l.drawing))
            m.close("clipPath")
            m.open("g", [("clip-path", "url(#\(clip))")])
            m.empty("rect", [("class", "screen"), ("x", svgNumber(screen.x)), ("y", svgNumber(screen.y)),
                             ("width", svgNumber(screen.width)), ("height", svgNumber(screen.height)), ("fill", "#fafafa")])
            m.newline()
            for b in l.boxes {
                var a = rectAttributes(b.frame)
                switch b.kind {
                case .container:
                    a += [("fill", "none"), ("stroke", containerStroke), ("stroke-width", "1"), ("stroke-dasharray", "2 2")]
                case .element:
                    a += [("fill", elementFill), ("stroke", elementStroke), ("stroke-width", "1")]
                }
                if !b.reachable { a.append(("opacity", "0.35")) }
                m.open("rect", [("class", b.kind == .container ? "container" : "element"), ("data-id", b.id)] + a)
                m.element("title", text: b.id)
                m.close("rect")
                m.newline()
            }
            // The screen's edge under the items and groups, so a group along it stays visible.
            m.empty("rect", [("class", "screen-edge")] + rectAttributes(screen) + [("fill", "none"), ("stroke", ink), ("stroke-width", "2")])
            for b in l.badges {
                m.empty("rect", [("class", "item"), ("data-id", b.id)] + rectAttributes(b.frame)
                        + [("fill", itemFill), ("fill-opacity", "0.6"), ("stroke", itemColour), ("stroke-width", svgNumber(max(1.5, r * 0.18)))])
                m.newline()
            }
            let dash = "\(svgNumber(r * 0.8)) \(svgNumber(r * 0.5))"
            for g in l.groups {
                m.open("rect", [("class", "group"), ("data-id", g.id)] + rectAttributes(g.frame)
                       + [("fill", "none"), ("stroke", groupColour), ("stroke-width", svgNumber(max(2, r * 0.28))), ("stroke-dasharray", dash)])
                m.element("title", text: g.label.isEmpty ? "group \(g.id)" : "group \(g.label)")
                m.close("rect")
                m.newline()
            }
            for b in l.badges { badge(&m, number: b.number, id: b.id, center: b.center, r: r, title: "\(b.number). \(b.description)") }
            for g in l.groups where !g.label.isEmpty {
                // A tab on the group's top edge, at its right end (badges sit at the left).
                let fs = fontSize * 0.8
                let text = truncated(g.label, 24)
                let w = Double(text.count) * fs * 0.62 + fs
                let h = fs * 1.5
                let x = max(g.frame.x, g.frame.maxX - w - r)
                let y = g.frame.y - h / 2
                m.empty("rect", [("class", "group-tab"), ("x", svgNumber(x)), ("y", svgNumber(y)), ("width", svgNumber(w)), ("height", svgNumber(h)),
                                 ("rx", svgNumber(h / 4)), ("fill", groupColour)])
                m.element("text", [("x", svgNumber(x + fs / 2)), ("y", svgNumber(y + h / 2 + fs * 0.35)), ("font-size", svgNumber(fs)),
                                   ("fill", "#ffffff")], text: text)
                m.newline()
            }
            m.close("g")
            m.newline()
        }

        // Legend.
        let legendX = (l.screen.map { $0.maxX + margin } ?? margin)
        let indent = r * 1.2
        let chars = Int(saturating: (r * 34 - 3 * r) / (fontSize * 0.6))
        for row in l.legend {
            let x = legendX + Double(row.depth) * indent
            switch row.kind {
            case .group:
                if let bottom = row.groupBottom {
                    m.empty("rect", [("class", "legend-group"), ("data-id", row.id), ("x", svgNumber(x - r * 0.4)), ("y", svgNumber(row.y + r * 0.1)),
                                     ("width", svgNumber(r * 34 - Double(row.depth) * indent)), ("height", svgNumber(bottom - row.y - r * 0.1)),
                                     ("fill", "none"), ("stroke", groupColour), ("stroke-width", svgNumber(max(1.5, r * 0.15))),
                                     ("stroke-dasharray", "\(svgNumber(r * 0.6)) \(svgNumber(r * 0.4))")])
                }
                m.element("text", [("x", svgNumber(x)), ("y", svgNumber(row.y + rowHeight * 0.62)), ("font-size", svgNumber(fontSize)),
                                   ("font-weight", "bold"), ("fill", groupColour)], text: truncated(row.text, chars))
            case .item(let number, let hasFrame):
                badge(&m, number: number, id: row.id, center: Point(x: x + r, y: row.y + rowHeight / 2), r: r * 0.85,
                      title: "\(number). \(row.text)", legend: true)
                let text = hasFrame ? row.text : row.text + " (no frame)"
                m.element("text", [("x", svgNumber(x + r * 2.4)), ("y", svgNumber(row.y + rowHeight / 2 + fontSize * 0.35)),
                                   ("font-size", svgNumber(fontSize)), ("fill", hasFrame ? ink : muted)],
                          text: truncated(text, chars - Int(saturating: Double(row.depth) * indent / (fontSize * 0.6)) - 4))
            }
            m.newline()
        }
        var noteY = l.canvas.height - margin - Double(l.noteLines.count) * rowHeight * 0.7 + fontSize
        for line in l.noteLines {
            m.element("text", [("class", "note"), ("x", svgNumber(margin)), ("y", svgNumber(noteY)), ("font-size", svgNumber(fontSize * 0.9)),
                               ("fill", muted)], text: line)
            noteY += rowHeight * 0.7
            m.newline()
        }
        m.close("svg")
        m.newline()
        return m.out
    }

    static func rectAttributes(_ f: Rect) -> [(String, String)] {
        [("x", svgNumber(f.x)), ("y", svgNumber(f.y)), ("width", svgNumber(f.width)), ("height", svgNumber(f.height))]
    }

    /// A numbered disc: the item's place in scan order.
    static func badge(_ m: inout Markup, number: Int, id: String, center: Point, r: Double, title: String, legend: Bool = false) {
        let digits = String(number)
        let fs = r * [1.15, 1.15, 0.95, 0.78, 0.62][min(digits.count, 4)]
        m.open("g", [("class", legend ? "legend-badge" : "badge"), ("data-id", id), ("data-n", digits)])
        m.element("title", text: title)
        m.empty("circle", [("cx", svgNumber(center.x)), ("cy", svgNumber(center.y)), ("r", svgNumber(r)), ("fill", itemColour)])
        m.element("text", [("x", svgNumber(center.x)), ("y", svgNumber(center.y + fs * 0.36)), ("font-size", svgNumber(fs)),
                           ("font-weight", "bold"), ("text-anchor", "middle"), ("fill", badgeText)], text: digits)
        m.close("g")
        m.newline()
    }
}
