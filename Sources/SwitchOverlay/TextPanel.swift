internal import CX11
import SwitchCore

/// A box of text lines drawn with Xft (anti-aliased TrueType through fontconfig: the packages
/// `fontconfig` and `fonts-dejavu-core` give it "DejaVu Sans" on a bare Debian, where X's core
/// fonts would need xfonts-base), rendered once into a pixmap that becomes the window's
/// background: the server repaints it by itself, so nothing redraws while nothing changes.
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

    let window: OverlayWindow
    private let connection: OverlayDisplay
    private let font: UnsafeMutablePointer<XftFont>
    private let style: Style
    private var pixmap: Pixmap = 0
    private(set) var lines: [String] = []
    private(set) var marked: Int?
    /// Rows in colours of their own (group selection's menu), and the border's colour.
    private(set) var rowColors: [Int: CursorColor] = [:]
    private(set) var accent: CursorColor

    init(_ connection: OverlayDisplay, name: String, style: Style) throws(OverlayError) {
        self.connection = connection
        self.style = style
        accent = style.accent
        let pattern = "DejaVu Sans:pixelsize=\(style.pixelSize)"
        guard let f = XftFontOpenName(connection.display, connection.screen, pattern) else {
            throw OverlayError.noFont(pattern)
        }
        font = f
        window = OverlayWindow(connection, name: name, background: connection.pixel(.white))
    }

    deinit {
        if !connection.isDead {
            if pixmap != 0 { XFreePixmap(connection.display, pixmap) }
            XftFontClose(connection.display, font)
        }
    }

    var rowHeight: Int { Int(font.pointee.ascent + font.pointee.descent) + style.pixelSize / 2 }
    var padding: Int { style.pixelSize / 2 + style.border }

    /// The panel's size for these lines.
    func size(for lines: [String]) -> (width: Int, height: Int) {
        var widest = 0
        for line in lines { widest = max(widest, textWidth(line)) }
        return (widest + 2 * padding + style.pixelSize, lines.count * rowHeight + 2 * style.border + style.pixelSize / 2)
    }

    /// The row of line k, relative to the panel (the marked row's band).
    func rowRect(_ k: Int, panelWidth: Int) -> PixelRect {
        PixelRect(x: style.border, y: style.border + style.pixelSize / 4 + k * rowHeight, width: panelWidth - 2 * style.border, height: rowHeight)
    }

    private func textWidth(_ s: String) -> Int {
        var info = XGlyphInfo()
        var bytes = Array(s.utf8)
        XftTextExtentsUtf8(connection.display, font, &bytes, Int32(bytes.count), &info)
        return Int(info.xOff)
    }

    /// Shows `lines` at `origin` with line `marked` highlighted; redraws only what changed.
    /// `rowColors`: rows marked in colours of their own (over `marked`); `accent`: the border's
    /// and the marked row's colour instead of the style's.
    func show(_ lines: [String], marked: Int?, rowColors: [Int: CursorColor] = [:], accent: CursorColor? = nil,
              at origin: (x: Int, y: Int)) {
        guard !connection.isDead else { return }
        let (w, h) = size(for: lines)
        let accent = accent ?? style.accent
        if lines != self.lines || marked != self.marked || rowColors != self.rowColors || accent != self.accent
            || window.frame.width != w || window.frame.height != h {
            self.lines = lines
            self.marked = marked
            self.rowColors = rowColors
            self.accent = accent
            render(width: w, height: h)
        }
        window.place(PixelRect(x: origin.x, y: origin.y, width: w, height: h))
        window.show()
    }

    func hide() {
        window.hide()
        lines = []
        marked = nil
        rowColors = [:]
    }

    private func render(width w: Int, height h: Int) {
        let d = connection.display
        let fresh = XCreatePixmap(d, connection.root, UInt32(w), UInt32(h), UInt32(connection.depth))
        let gc = XCreateGC(d, fresh, 0, nil)
        defer { XFreeGC(d, gc) }
        XSetForeground(d, gc, connection.pixel(accent))
        XFillRectangle(d, fresh, gc, 0, 0, UInt32(w), UInt32(h))
        XSetForeground(d, gc, connection.pixel(.white))
        XFillRectangle(d, fresh, gc, Int32(style.border), Int32(style.border), UInt32(w - 2 * style.border), UInt32(h - 2 * style.border))
        guard let draw = XftDrawCreate(d, fresh, connection.visual, connection.colormap) else { return }
        defer { XftDrawDestroy(draw) }
        var black = connection.xftColor(.black), white = connection.xftColor(.white)
        defer { connection.freeXftColor(&black); connection.freeXftColor(&white) }
        for (k, line) in lines.enumerated() {
            let row = rowRect(k, panelWidth: w)
            var ink = black
            if let mark = rowColors[k] ?? (k == marked ? accent : nil) {
                XSetForeground(d, gc, connection.pixel(mark))
                XFillRectangle(d, fresh, gc, Int32(row.x), Int32(row.y), UInt32(row.width), UInt32(row.height))
                if !mark.contrastingIsBlack { ink = white }
                if mark == .white {  // white on the white panel: a black edge shows the band
                    XSetForeground(d, gc, connection.pixel(.black))
                    XDrawRectangle(d, fresh, gc, Int32(row.x), Int32(row.y), UInt32(row.width - 1), UInt32(row.height - 1))
                }
            }
            var bytes = Array(line.utf8)
            let baseline = row.y + (row.height + Int(font.pointee.ascent) - Int(font.pointee.descent)) / 2
            XftDrawStringUtf8(draw, &ink, font, Int32(padding + style.pixelSize / 2), Int32(baseline), &bytes, Int32(bytes.count))
        }
        window.setBackground(pixmap: fresh)
        if pixmap != 0 { XFreePixmap(d, pixmap) }
        pixmap = fresh
    }
}
