internal import CX11
import SwitchCore
import SwitchDisplay

/// The overlay's surface on X11: one override-redirect window per part (`OverlayWindow`: never
/// focused, an empty input shape, so every click goes to what is below), made unmapped when the
/// surface opens (a colour group's when first shown). Its look is the server's, so nothing
/// redraws while nothing changes:
///
///     pieces   the part's colour as the window's background, the pieces as its bounding shape
///     arc      the same, the arc's pixels as the shape (`ArcPixels`)
///     panel    the shapes rendered once into a pixmap (Xft text) that becomes the background;
///              rendered again only when they change, or the part was hidden in between
///
/// Showing a part maps it on top of everything, or raises it when it shows already (another
/// override-redirect window may have been mapped over it).
public final class X11OverlaySurface: OverlaySurface {
    let connection: OverlayDisplay
    private var windows: [OverlayPart: OverlayWindow] = [:]
    /// A panel's pixmap and the shapes and size it was rendered from (forgotten when hidden).
    private var panels: [OverlayPart: (shapes: [OverlayScene.Shape], width: Int, height: Int)] = [:]
    private var pixmaps: [OverlayPart: Pixmap] = [:]
    /// An arc part's last arc and its pixels (the track is the same circle every frame).
    private var arcs: [OverlayPart: (arc: OverlayArc, pixels: [PixelRect])] = [:]
    /// DejaVu Sans by pixel size (nil: fontconfig has none).
    private var fonts: [Int: UnsafeMutablePointer<XftFont>?] = [:]
    private var closed = false

    /// Opens the display (`DISPLAY` unless `display` names one) and makes the parts' windows.
    public init(display: String? = nil) throws(OverlayError) {
        connection = try OverlayDisplay(name: display)
        let black = connection.pixel(.black)
        for part in OverlayPart.fixed { windows[part] = OverlayWindow(connection, name: "switchscan \(part)", background: black) }
    }

    deinit {
        guard !connection.isDead else { return }  // a lost connection is never touched again
        for p in pixmaps.values { XFreePixmap(connection.display, p) }
        for case let f? in fonts.values { XftFontClose(connection.display, f) }
    }

    public var name: String { "X display \(connection.name)" }
    public var server: String { "the X server \(connection.name)" }
    public var bounds: PixelRect { connection.bounds }
    public var isConnected: Bool { !connection.isDead }
    public var fileDescriptor: Int32? { connection.fileDescriptor }
    public func drain() { connection.drain() }
    public func flush() { connection.flush() }
    public func sync() { connection.sync() }

    /// The X window of `part` (tests read its shapes back).
    func window(_ part: OverlayPart) -> Window? { windows[part]?.window }

    // MARK: Text

    private func font(_ size: Int) -> UnsafeMutablePointer<XftFont>? {
        if let known = fonts[size] { return known }
        let f = connection.isDead ? nil : XftFontOpenName(connection.display, connection.screen, "DejaVu Sans:pixelsize=\(size)")
        fonts[size] = f
        return f
    }

    public func fontMetrics(pixelSize: Int) -> FontMetrics? {
        font(pixelSize).map { FontMetrics(ascent: Int($0.pointee.ascent), descent: Int($0.pointee.descent)) }
    }

    public func textWidth(_ text: String, pixelSize: Int) -> Int {
        guard let f = font(pixelSize), !connection.isDead else { return 0 }
        var info = XGlyphInfo()
        var bytes = Array(text.utf8)
        XftTextExtentsUtf8(connection.display, f, &bytes, Int32(bytes.count), &info)
        return Int(info.xOff)
    }

    // MARK: Parts

    public func show(_ part: OverlayPart, _ content: OverlayContent) {
        guard !connection.isDead, !closed else { return }
        let window = windows[part] ?? {
            let w = OverlayWindow(connection, name: "switchscan \(part)", background: connection.pixel(.black))
            windows[part] = w
            return w
        }()
        switch content {
        case .pieces(let frame, let pieces, let color):
            window.setBackground(pixel: connection.pixel(color))
            window.place(frame, shape: pieces ?? (window.hasShape ? [PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)] : nil))
        case .arc(let arc):
            let pixels: [PixelRect]
            if let last = arcs[part], last.arc.radius == arc.radius, last.arc.thickness == arc.thickness, last.arc.sweepDegrees == arc.sweepDegrees {
                pixels = last.pixels
            } else {
                pixels = ArcPixels.ring(radius: arc.radius, thickness: arc.thickness, sweepDegrees: arc.sweepDegrees)
            }
            arcs[part] = (arc, pixels)
            window.setBackground(pixel: connection.pixel(arc.color))
            window.place(arc.frame, shape: pixels)
        case .panel(let frame, let shapes):
            let w = max(1, frame.width), h = max(1, frame.height)
            if let last = panels[part], last.shapes == shapes, last.width == w, last.height == h {
                // Drawn already: the server repaints it.
            } else {
                let fresh = render(shapes, width: w, height: h)
                window.setBackground(pixmap: fresh)
                if let old = pixmaps[part] { XFreePixmap(connection.display, old) }
                pixmaps[part] = fresh
                panels[part] = (shapes, w, h)
            }
            window.place(frame)
        }
        window.show()
    }

    public func hide(_ part: OverlayPart) {
        windows[part]?.hide()
        panels[part] = nil
    }

    public func close() {
        guard !closed else { return }
        closed = true
        for w in windows.values { w.destroy() }
        connection.sync()
    }

    // MARK: Panels

    /// `shapes` drawn in order into a new pixmap of `width` × `height`: rectangles filled with
    /// XFillRectangle (a stroke inside the rect: XDrawRectangle for one pixel, else four strips),
    /// text with Xft at its baseline (the layout box's top + the font's ascent).
    private func render(_ shapes: [OverlayScene.Shape], width w: Int, height h: Int) -> Pixmap {
        let d = connection.display
        let pixmap = XCreatePixmap(d, connection.root, UInt32(w), UInt32(h), UInt32(connection.depth))
        let gc = XCreateGC(d, pixmap, 0, nil)
        defer { XFreeGC(d, gc) }
        let draw = XftDrawCreate(d, pixmap, connection.visual, connection.colormap)
        defer { if let draw { XftDrawDestroy(draw) } }
        var inks: [SceneColor: XftColor] = [:]
        defer { for var c in inks.values { connection.freeXftColor(&c) } }
        func fill(_ x: Int, _ y: Int, _ w: Int, _ h: Int, _ c: SceneColor) {
            XSetForeground(d, gc, connection.pixel(c.cursorColor))
            XFillRectangle(d, pixmap, gc, Int32(x), Int32(y), UInt32(max(0, w)), UInt32(max(0, h)))
        }
        for shape in shapes {
            switch shape {
            case .rect(let r):
                // Whole pixels: the panels are laid out in them.
                let (x, y, w, h) = (Int(r.x.rounded()), Int(r.y.rounded()), Int(r.w.rounded()), Int(r.h.rounded()))
                if let c = r.fill { fill(x, y, w, h, c) }
                let lineWidth = Int(r.lineWidth.rounded())
                if let c = r.stroke, lineWidth > 0, w > 0, h > 0 {
                    if lineWidth == 1 {
                        XSetForeground(d, gc, connection.pixel(c.cursorColor))
                        XDrawRectangle(d, pixmap, gc, Int32(x), Int32(y), UInt32(w - 1), UInt32(h - 1))
                    } else {
                        let t = min(lineWidth, w, h)
                        fill(x, y, w, t, c)
                        fill(x, y + h - t, w, t, c)
                        fill(x, y + t, t, h - 2 * t, c)
                        fill(x + w - t, y + t, t, h - 2 * t, c)
                    }
                }
            case .text(let t):
                guard let draw, let f = font(Int(t.size.rounded())) else { continue }
                if inks[t.color] == nil { inks[t.color] = connection.xftColor(t.color.cursorColor) }
                var ink = inks[t.color]!
                var bytes = Array(t.text.utf8)
                XftDrawStringUtf8(draw, &ink, f, Int32(t.x.rounded()), Int32(Int(t.y.rounded()) + Int(f.pointee.ascent)), &bytes, Int32(bytes.count))
            case .pie:
                continue  // no panel has one
            }
        }
        return pixmap
    }
}
