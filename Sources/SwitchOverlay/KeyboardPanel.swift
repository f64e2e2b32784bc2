import SwitchCore
import SwitchDisplay

/// The scanning keyboard on screen (issue 18, docs/typing.md): while the keyboard is open, its
/// panel is drawn where the engine's keyboard tree put it (`KeyboardTree.panel`: the bottom of the
/// screen, the top when the field is in the lower half, never over the field), with, from the
/// top, the text being written (with its caret), the row of predicted words, and the page's keys.
/// The highlight is the overlay's usual ring (a key solid, a row dashed, group selection's
/// colours), drawn over the panel; every key is drawn inset by the ring's thickness, so the ring
/// of one key sits in the gap and never hides its neighbour.
///
///     ┌──────────────────────────── panel (the keyboard tree's scope frame) ───────────────┐
///     │ ┌────────────────────────────────────────────────────────────────────────────────┐ │
///     │ │ Hello wor|                                                   the text line      │ │
///     │ └────────────────────────────────────────────────────────────────────────────────┘ │
///     │ ┌ world ┐ ┌ work ┐ ┌ worth ┐ …                                 the words (white)   │
///     │ ┌ q ┐ ┌ w ┐ ┌ e ┐ …                                             letters (light)    │
///     │ ┌ shift ┐ ┌ z ┐ … ┌ delete ┐                                    other keys (grey);  │
///     └────────────────────────────────────────────────────────────────  shift on: dark ───┘
///
/// What it shows is a pure value (`KeyboardPicture`, from the model and the text line, tested
/// without a display server); the panel is laid out and drawn again only when that value changes
/// (a key typed, new words, a page), never for a highlight, so the latency from a key's selection to the new words on
/// screen is one render (BENCHMARKS.md "Typing").
public struct KeyboardPicture: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// A key that types itself (a letter, a digit, a mark).
        case character
        /// Any other key (space, delete, shift, page, hide keyboard …).
        case function
        /// A predicted word.
        case word
    }

    public struct Cell: Equatable, Sendable {
        /// Where it is drawn, relative to the panel (inset from the key's frame).
        public var frame: PixelRect
        public var label: String
        public var kind: Kind
        /// Shift once or locked, caps lock on: drawn dark.
        public var on: Bool
    }

    /// The panel, in screen pixels.
    public var panel: PixelRect
    /// The text line, relative to the panel.
    public var textLine: PixelRect
    public var text: KeyboardTextLine
    public var cells: [Cell]
    /// The height of a line (a key's), for the font.
    public var lineHeight: Int

    /// The picture of the keyboard model `model` (nil when it is not the keyboard's, or has no
    /// frame), keys inset by `inset` (the ring's thickness).
    public init?(model: ScanModel, text: KeyboardTextLine, inset: Int) {
        guard model.scopeID == KeyboardTree.rootID, let frame = model.scopeFrame else { return nil }
        let panel = PixelRect(frame)
        guard !panel.isEmpty else { return nil }
        self.panel = panel
        self.text = text
        let line = model.items.lazy.compactMap { $0.element.frame.map { PixelRect($0).height } }.first ?? panel.height
        lineHeight = max(1, line)
        let gap = max(2, inset)
        textLine = PixelRect(x: gap, y: gap, width: panel.width - 2 * gap, height: max(1, lineHeight - 2 * gap))
        cells = model.items.compactMap { item in
            guard let f = item.element.frame else { return nil }
            let r = PixelRect(f)
            let inner = PixelRect(x: r.x - panel.x + gap, y: r.y - panel.y + gap, width: r.width - 2 * gap, height: r.height - 2 * gap)
            guard !inner.isEmpty else { return nil }
            let id = item.id
            let kind: Kind = id.hasPrefix(KeyboardTree.wordPrefix) ? .word
                : (KeyboardPicture.isCharacterKey(id) ? .character : .function)
            let e = item.element
            return Cell(frame: inner, label: e.label ?? "", kind: kind, on: e.value == "on" || e.value == "locked")
        }
    }

    /// `key:q`, `key:1`, `key:.`: a key that types one character (its id is that character).
    static func isCharacterKey(_ id: String) -> Bool {
        guard id.hasPrefix("key:") else { return false }
        return id.dropFirst(4).count == 1
    }
}

/// What the panel's text line shows: the field's text around the caret, as the transcript tells
/// it (`type` lines' edits, `result` lines' text read back; a password's in •). Pure.
public struct KeyboardTextLine: Equatable, Sendable {
    public private(set) var before: String
    public private(set) var after: String

    public init(before: String = "", after: String = "") {
        self.before = before
        self.after = after
    }

    /// A `type` line's edit (its text as the transcript shows it).
    public mutating func apply(_ typed: TypedText) {
        let drop = min(typed.edit.delete, before.count)
        before.removeLast(drop)
        before += typed.shownText
        var move = typed.edit.move
        while move < 0, let c = before.popLast() { after.insert(c, at: after.startIndex); move += 1 }
        while move > 0, let c = after.first { after.removeFirst(); before.append(c); move -= 1 }
    }

    /// The field's whole text, read back: kept as it is when it agrees, else taken whole, the
    /// caret at its end (the read-back line does not say where the caret is).
    public mutating func read(_ text: String) {
        guard before + after != text else { return }
        before = text
        after = ""
    }

    /// At most `limit` characters ending a little after the caret: what fits on the line.
    public func visible(limit: Int) -> (before: String, after: String) {
        let keepAfter = min(after.count, max(0, limit / 4))
        let keepBefore = min(before.count, max(0, limit - keepAfter))
        var b = String(before.suffix(keepBefore))
        if keepBefore < before.count, !b.isEmpty { b = "…" + b.dropFirst() }
        return (b, String(after.prefix(keepAfter)))
    }
}

/// The panel's part and its shapes, laid out with the surface's font (like `TextPanel`): made
/// again only when the picture changes (a key typed, new words, a page), never for a highlight.
final class KeyboardPanel {
    let window: SurfacePart
    private let surface: OverlaySurface
    /// What is drawn now (nil: hidden), and its shapes.
    private(set) var picture: KeyboardPicture?
    private var shapes: [OverlayScene.Shape] = []
    /// How many times it was laid out (the benchmark counts them).
    private(set) var renders = 0

    static let background = CursorColor(red: 0x2B, green: 0x2B, blue: 0x2E)
    static let characterKey = CursorColor(red: 0xF4, green: 0xF4, blue: 0xF4)
    static let functionKey = CursorColor(red: 0xB8, green: 0xBB, blue: 0xC2)
    static let wordCell = CursorColor(red: 0xFF, green: 0xFF, blue: 0xFF)
    static let onKey = CursorColor(red: 0x10, green: 0x10, blue: 0x10)
    static let caret = CursorColor(red: 0x00, green: 0x00, blue: 0x00)

    init(_ surface: OverlaySurface) {
        self.surface = surface
        window = SurfacePart(.keyboard, on: surface)
    }

    /// Shows `picture` (laid out again only when it changed).
    func show(_ picture: KeyboardPicture) {
        guard surface.isConnected else { return }
        if picture != self.picture || !window.isShown {
            renders += 1
            shapes = layout(picture)
            self.picture = picture
        }
        window.show(.panel(frame: picture.panel, shapes: shapes))
    }

    func hide() {
        window.hide()
        picture = nil
    }

    /// `s`, shortened with "…" until it is at most `width` wide at `size`.
    private func fitted(_ s: String, size: Int, width: Int) -> String {
        guard surface.textWidth(s, pixelSize: size) > width else { return s }
        var t = s
        while !t.isEmpty && surface.textWidth(t + "…", pixelSize: size) > width { t.removeLast() }
        return t + "…"
    }

    /// The panel's shapes, relative to it: the ground, the text line with its caret, every key
    /// and word with its label (centred; one too long for its key in a smaller size, then
    /// shortened).
    private func layout(_ p: KeyboardPicture) -> [OverlayScene.Shape] {
        func fill(_ r: PixelRect, _ c: CursorColor) -> OverlayScene.Shape {
            .rect(.init(PixelRect(x: r.x, y: r.y, width: max(0, r.width), height: max(0, r.height)), fill: SceneColor(c)))
        }
        var shapes = [fill(PixelRect(x: 0, y: 0, width: max(1, p.panel.width), height: max(1, p.panel.height)), KeyboardPanel.background)]
        let size = max(10, min(34, p.lineHeight * 2 / 5))
        guard let keyFont = surface.fontMetrics(pixelSize: size) else { return shapes }
        let smallSize = max(9, size * 7 / 10)
        let small = surface.fontMetrics(pixelSize: smallSize).map { (smallSize, $0) } ?? (size, keyFont)
        func label(_ s: String, in r: PixelRect, ink: CursorColor, centred: Bool = true) {
            let room = max(0, r.width - 8)
            let (fontSize, m) = centred && surface.textWidth(s, pixelSize: size) > room ? small : (size, keyFont)
            let shown = fitted(s, size: fontSize, width: room)
            let tw = surface.textWidth(shown, pixelSize: fontSize)
            let x = centred ? r.x + (r.width - tw) / 2 : r.x + 8
            let baseline = r.y + (r.height + m.ascent - m.descent) / 2
            shapes.append(.text(.init(x: Double(x), y: Double(baseline - m.ascent), text: shown, size: Double(fontSize), color: SceneColor(ink))))
        }
        // The text line: the field's text, the caret after `before`.
        shapes.append(fill(p.textLine, .white))
        let average = max(1, surface.textWidth("abcdefghijklmnopqrstuvwxyz", pixelSize: size) / 26)
        let (before, after) = p.text.visible(limit: max(4, (p.textLine.width - 20) / average))
        let caretX = p.textLine.x + 8 + surface.textWidth(before, pixelSize: size)
        label(before + after, in: p.textLine, ink: .black, centred: false)
        shapes.append(fill(PixelRect(x: min(caretX, p.textLine.maxX - 3), y: p.textLine.y + p.textLine.height / 6, width: 2,
                                     height: p.textLine.height * 2 / 3), KeyboardPanel.caret))
        for cell in p.cells {
            let color: CursorColor
            switch cell.kind {
            case _ where cell.on: color = KeyboardPanel.onKey
            case .character: color = KeyboardPanel.characterKey
            case .function: color = KeyboardPanel.functionKey
            case .word: color = KeyboardPanel.wordCell
            }
            shapes.append(fill(cell.frame, color))
            label(cell.label, in: cell.frame, ink: cell.on ? .white : .black)
        }
        return shapes
    }
}
