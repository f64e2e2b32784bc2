/// The keyboard as an element tree the scanner already scans (docs/typing.md): a modal panel at
/// the bottom of the screen (at the top when the field is in the lower half, never over the
/// field) holding, from the top, a line left for the text being written (the overlay draws the
/// field's text there, from the `result` lines; it is no element, so the tree depends only on
/// the page, the shift state and the words, and repeats), the row of predicted words, then the
/// page's rows. Every row is a container that groups its keys, so group scanning scans
/// rows then keys (iOS's keyboard), row-column and `auto` shape them like any other screen, and
/// linear scanning goes key by key in reading order.
///
/// Ids: `keyboard` (the panel, the modal scope), `kbd:predictions`, a predicted word
/// `kbd:word:<word>`, a row `kbd:<page>:row<n>`, a key `key:<text>` / `key:<kind>` (the same key
/// keeps its id whatever shift shows, so the highlight stays on it).
public enum KeyboardTree {
    public static let rootID = "keyboard"
    public static let predictionsID = "kbd:predictions"
    public static let wordPrefix = "kbd:word:"

    /// What the panel shows now.
    public struct Content: Sendable, Equatable {
        /// Everything the tree depends on, as one string (the engine keeps the trees it built).
        var key: String {
            ([page.name, text.capitals ? "A" : "a", text.shift.rawValue, password ? "p" : "", String(slots)] + predictions).joined(separator: "\u{1}")
        }

        /// What the tree's shape depends on: the key without the words, only how many
        /// (`KeyboardModelCache`: a word's place and frame depend on its slot alone).
        var structureKey: String {
            [page.name, text.capitals ? "A" : "a", text.shift.rawValue, password ? "p" : "", String(slots),
             String(min(predictions.count, slots)) + " words"].joined(separator: "\u{1}")
        }

        public var page: KeyboardLayout.Page
        public var text: KeyboardText
        /// The words of the prediction row, already cased (at most `slots`).
        public var predictions: [String]
        /// Places in the prediction row (0: no row).
        public var slots: Int
        public var password: Bool

        public init(page: KeyboardLayout.Page, text: KeyboardText, predictions: [String], slots: Int, password: Bool) {
            self.page = page
            self.text = text
            self.predictions = predictions
            self.slots = slots
            self.password = password
        }
    }

    /// Where the panel goes on a screen with the field at `field`: full width, at most half the
    /// screen high; at the bottom unless the field's middle is in the lower half or the field
    /// would be covered there and not at the top.
    public static func panel(screen: Size, field: Rect?, lines: Int) -> Rect {
        let rowHeight = min(72, (screen.height * 0.5 / Double(max(lines, 1))).rounded(.down))
        let height = rowHeight * Double(lines)
        let bottom = Rect(x: 0, y: screen.height - height, width: screen.width, height: height)
        let top = Rect(x: 0, y: 0, width: screen.width, height: height)
        guard let field else { return bottom }
        func covers(_ r: Rect) -> Bool { r.intersects(field) }
        let preferTop = field.center.y > screen.height / 2
        let first = preferTop ? top : bottom, second = preferTop ? bottom : top
        return covers(first) && !covers(second) ? second : first
    }

    /// Lines the panel needs: the text, the prediction row when there is one, the page's rows.
    public static func lines(rows: Int, slots: Int) -> Int { 1 + (slots > 0 ? 1 : 0) + rows }

    /// The tree for `content` in `panel` on a screen of `screen`.
    public static func tree(_ content: Content, panel: Rect, screen: Size) -> ElementTree {
        let rows = content.page.rows
        let lineCount = lines(rows: rows.count, slots: content.slots)
        let h = panel.height / Double(lineCount)
        var children: [Element] = []
        var y = panel.y

        y += h  // the text line

        if content.slots > 0 {
            let w = panel.width / Double(content.slots)
            var words: [Element] = []
            for (k, word) in content.predictions.prefix(content.slots).enumerated() {
                words.append(wordElement(word, frame: Rect(x: panel.x + Double(k) * w, y: y, width: w, height: h)))
            }
            children.append(Element(id: predictionsID, label: "Predictions", frame: Rect(x: panel.x, y: y, width: panel.width, height: h),
                                    shouldGroupChildren: true, children: words))
            y += h
        }

        let widest = rows.map { $0.reduce(0) { $0 + $1.width } }.max() ?? 1
        let unit = panel.width / max(widest, 1)
        for (n, row) in rows.enumerated() {
            let total = row.reduce(0) { $0 + $1.width } * unit
            var x = panel.x + (panel.width - total) / 2
            var keys: [Element] = []
            for key in row {
                let w = key.width * unit
                keys.append(element(key, content.text, frame: Rect(x: x, y: y, width: w, height: h)))
                x += w
            }
            let first = keys.first?.label ?? "", last = keys.last?.label ?? ""
            children.append(Element(id: "kbd:\(content.page.name):row\(n + 1)", label: keys.count == 1 ? first : "\(first) to \(last)",
                                    frame: Rect(x: panel.x, y: y, width: panel.width, height: h),
                                    shouldGroupChildren: true, children: keys))
            y += h
        }
        let root = Element(id: rootID, label: "Keyboard", frame: panel, viewIsModal: true, children: children)
        return ElementTree(screen: screen, root: Element(id: "keyboard:screen", frame: Rect(x: 0, y: 0, width: screen.width, height: screen.height),
                                                         children: [root]))
    }

    /// A predicted word as an element.
    static func wordElement(_ word: String, frame: Rect?) -> Element {
        Element(id: wordPrefix + word.lowercased(), label: word, frame: frame, respondsToUserInteraction: true)
    }

    /// A key as an element: its label (letters in capitals while shift or a sentence start says
    /// so), a value for shift and caps lock, and no trait word (speech says "q", not "q, key").
    static func element(_ key: KeyboardLayout.Key, _ text: KeyboardText, frame: Rect) -> Element {
        var label = key.label ?? key.defaultLabel
        var value: String?
        switch key.kind {
        case .text(let t) where key.label == nil:
            label = text.capitals ? t.uppercased() : t
        case .shift:
            value = text.shift == .off ? nil : (text.shift == .once ? "on" : "locked")
        case .capsLock:
            value = text.shift == .locked ? "on" : nil
        default:
            break
        }
        return Element(id: key.id, label: label, value: value, frame: frame, respondsToUserInteraction: true)
    }
}
