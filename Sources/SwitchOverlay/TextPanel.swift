import SwitchCore
import SwitchDisplay

/// A box of text lines (the menu panel, the tabs), laid out here with the surface's font
/// ("DejaVu Sans": the packages `fontconfig` and `fonts-dejavu-core` give it on a bare Debian)
/// and handed to the surface as one panel of shapes, drawn again only when they change.
///
///     ┌────────────────┐  border: the cursor colour
///     │  Tap           │
///     │▌ Delete       ▐│  the marked line: the cursor colour behind black or white text
///     │  Escape        │
///     │  Close menu    │
///     └────────────────┘
final class TextPanel {
    struct Style {
        var accent: CursorColor
        var pixelSize: Int
        var border: Int
    }

    let window: SurfacePart
    private let surface: OverlaySurface
    private let metrics: FontMetrics
    private let style: Style
    private(set) var lines: [String] = []
    private(set) var marked: Int?
    /// Rows in colours of their own (group selection's menu), and the border's colour.
    private(set) var rowColors: [Int: CursorColor] = [:]
    private(set) var accent: CursorColor

    init(_ surface: OverlaySurface, _ part: OverlayPart, style: Style) throws(OverlayError) {
        self.surface = surface
        self.style = style
        accent = style.accent
        guard let m = surface.fontMetrics(pixelSize: style.pixelSize) else {
            throw OverlayError.noFont("DejaVu Sans:pixelsize=\(style.pixelSize)")
        }
        metrics = m
        window = SurfacePart(part, on: surface)
    }

    var rowHeight: Int { metrics.ascent + metrics.descent + style.pixelSize / 2 }
    var padding: Int { style.pixelSize / 2 + style.border }

    /// The panel's size for these lines.
    func size(for lines: [String]) -> (width: Int, height: Int) {
        var widest = 0
        for line in lines { widest = max(widest, surface.textWidth(line, pixelSize: style.pixelSize)) }
        return (widest + 2 * padding + style.pixelSize, lines.count * rowHeight + 2 * style.border + style.pixelSize / 2)
    }

    /// The row of line k, relative to the panel (the marked row's band).
    func rowRect(_ k: Int, panelWidth: Int) -> PixelRect {
        PixelRect(x: style.border, y: style.border + style.pixelSize / 4 + k * rowHeight, width: panelWidth - 2 * style.border, height: rowHeight)
    }

    /// Shows `lines` at `origin` with line `marked` highlighted. `rowColors`: rows marked in
    /// colours of their own (over `marked`); `accent`: the border's and the marked row's colour
    /// instead of the style's.
    func show(_ lines: [String], marked: Int?, rowColors: [Int: CursorColor] = [:], accent: CursorColor? = nil,
              at origin: (x: Int, y: Int)) {
        guard surface.isConnected else { return }
        let (w, h) = size(for: lines)
        self.lines = lines
        self.marked = marked
        self.rowColors = rowColors
        self.accent = accent ?? style.accent
        window.show(.panel(frame: PixelRect(x: origin.x, y: origin.y, width: w, height: h), shapes: shapes(width: w, height: h)))
    }

    func hide() {
        window.hide()
        lines = []
        marked = nil
        rowColors = [:]
    }

    /// The panel drawn: the border, the white inside, each marked row's band (a white band gets
    /// a black edge, to show on the white panel), each line's text on its row's middle.
    private func shapes(width w: Int, height h: Int) -> [OverlayScene.Shape] {
        let white = SceneColor(.white), black = SceneColor(.black)
        var shapes: [OverlayScene.Shape] = [
            .rect(.init(PixelRect(x: 0, y: 0, width: w, height: h), fill: SceneColor(accent))),
            .rect(.init(PixelRect(x: style.border, y: style.border, width: w - 2 * style.border, height: h - 2 * style.border), fill: white)),
        ]
        for (k, line) in lines.enumerated() {
            let row = rowRect(k, panelWidth: w)
            var ink = black
            if let mark = rowColors[k] ?? (k == marked ? accent : nil) {
                shapes.append(.rect(.init(row, fill: SceneColor(mark))))
                if !mark.contrastingIsBlack { ink = white }
                if mark == .white {
                    shapes.append(.rect(.init(x: Double(row.x), y: Double(row.y), w: Double(row.width), h: Double(row.height), stroke: black, lineWidth: 1)))
                }
            }
            let baseline = row.y + (row.height + metrics.ascent - metrics.descent) / 2
            shapes.append(.text(.init(x: Double(padding + style.pixelSize / 2), y: Double(baseline - metrics.ascent), text: line,
                                      size: Double(style.pixelSize), color: ink)))
        }
        return shapes
    }
}
