internal import CCairo
import Glibc
import SwitchDisplay

/// Draws an `OverlayScene` with cairo into ARGB32 pixels (a wl_shm buffer, or any memory), for
/// the part of the desktop one output shows, at the output's scale: the scene is in logical
/// pixels, so at scale 2 every logical pixel is 2×2 device pixels and a ring of 4 is 8 device
/// pixels wide, still on whole pixels (crisp). Text is laid out by Pango in the scene's font
/// (DejaVu Sans, as the X11 overlay's Xft draws), greyscale antialiased, with unhinted metrics so
/// a text measures the same at every scale (`textSize` is what panels are placed by).
///
///     rect stroke of width w inside (x, y, W, H): the path runs at (x + w/2, y + w/2, W − w, H − w)
///     pie: a sector from −90° clockwise over fraction·360°; outline inside the circle of radius r
///
/// A drawing returns where it put pixels (device boxes, with a pixel of margin for antialiasing);
/// the overlay clears exactly those before the buffer's next drawing and tells the compositor
/// they changed, so a moving ring costs its own pixels, not the output's.
public final class SceneRenderer {
    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    private let fontOptions: OpaquePointer
    /// Laying text out at scale 1 (measuring), and for drawing (updated to each cairo context).
    private let measureContext: OpaquePointer
    private let drawContext: OpaquePointer

    public init() {
        fontMap = UnsafeMutablePointer<PangoFontMap>(OpaquePointer(pango_cairo_font_map_new()))
        fontOptions = cairo_font_options_create()
        cairo_font_options_set_antialias(fontOptions, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_metrics(fontOptions, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(fontOptions, CAIRO_HINT_STYLE_NONE)
        measureContext = pango_font_map_create_context(fontMap)
        drawContext = pango_font_map_create_context(fontMap)
        pango_cairo_context_set_font_options(measureContext, fontOptions)
        pango_cairo_context_set_font_options(drawContext, fontOptions)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(drawContext))
        g_object_unref(UnsafeMutableRawPointer(measureContext))
        g_object_unref(UnsafeMutableRawPointer(fontMap))
        cairo_font_options_destroy(fontOptions)
    }

    /// The size (logical pixels, rounded up) of `text` in `font` at `size` pixels: Pango's logical
    /// box grown by any ink that overhangs it, so a `text` shape at (x, y) keeps its pixels inside
    /// (x, y, width, height) at any scale (what a panel is sized by).
    public func textSize(_ text: String, size: Double, font: String = OverlayScene.TextShape.defaultFont) -> (width: Int, height: Int) {
        let box = layoutBox(text, size: size, font: font)
        return (Int(box.width.rounded(.up)), Int(box.height.rounded(.up)))
    }

    /// The font's line at `size` pixels, as the overlay's panels are laid out by (the seam's
    /// `FontMetrics`): `ascent` is where Pango puts the first baseline below a text shape's top,
    /// `ascent + descent` the line's logical height, both rounded up to whole pixels.
    public func lineMetrics(size: Double, font: String = OverlayScene.TextShape.defaultFont) -> (ascent: Int, descent: Int) {
        guard let layout = makeLayout(measureContext, "Ag", size: size, font: font) else { return (0, 0) }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let k = Double(PANGO_SCALE)
        let baseline = Double(pango_layout_get_baseline(layout)) / k
        let ascent = Int(baseline.rounded(.up))
        return (ascent, max(0, Int((Double(logical.height) / k).rounded(.up)) - ascent))
    }

    /// Where `shape` puts pixels, in logical pixels (a stroked rect without fill: its four sides).
    public func footprint(of shape: OverlayScene.Shape) -> [(x: Double, y: Double, w: Double, h: Double)] {
        switch shape {
        case .rect(let r):
            if r.fill != nil || r.stroke == nil { return r.fill == nil ? [] : [(r.x, r.y, r.w, r.h)] }
            let t = min(r.lineWidth, r.w / 2, r.h / 2)
            return [(r.x, r.y, r.w, t), (r.x, r.y + r.h - t, r.w, t), (r.x, r.y + t, t, r.h - 2 * t), (r.x + r.w - t, r.y + t, t, r.h - 2 * t)]
        case .text(let t):
            let box = layoutBox(t.text, size: t.size, font: t.font)
            return [(t.x + box.x, t.y + box.y, box.width, box.height)]
        case .pie(let p):
            return [(p.cx - p.r, p.cy - p.r, 2 * p.r, 2 * p.r)]
        }
    }

    /// Draws `scene` into `pixels` (ARGB32 premultiplied, `stride` bytes a row) showing the
    /// desktop from (originX, originY) at `scale`. Clears `clear` first (device boxes a previous
    /// drawing returned). Returns where it drew, in device pixels, clipped to the buffer.
    func render(_ scene: OverlayScene, into pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
                originX: Int, originY: Int, scale: Int, clear: [DeviceBox]) -> [DeviceBox] {
        guard let surface = cairo_image_surface_create_for_data(pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                                Int32(width), Int32(height), Int32(stride)) else { return [] }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return [] }
        defer { cairo_destroy(cr) }
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        for b in clear { cairo_rectangle(cr, Double(b.x), Double(b.y), Double(b.width), Double(b.height)) }
        cairo_fill(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        let s = Double(scale)
        cairo_scale(cr, s, s)
        cairo_translate(cr, Double(-originX), Double(-originY))
        var drawn: [DeviceBox] = []
        for shape in scene.shapes {
            let boxes = footprint(of: shape).compactMap { f in
                deviceBox(f, originX: originX, originY: originY, scale: scale, width: width, height: height)
            }
            guard !boxes.isEmpty else { continue }  // nothing of it on this output
            draw(shape, cr)
            drawn += boxes
        }
        cairo_surface_flush(surface)
        return drawn
    }

    /// `pixels` as above, for tests and tools: a scene drawn into memory the caller owns.
    public func renderForTesting(_ scene: OverlayScene, into pixels: UnsafeMutableRawPointer, width: Int, height: Int,
                                 originX: Int = 0, originY: Int = 0, scale: Int = 1) {
        _ = render(scene, into: pixels, width: width, height: height, stride: width * 4, originX: originX, originY: originY,
                   scale: scale, clear: [])
    }

    // MARK: -

    private func draw(_ shape: OverlayScene.Shape, _ cr: OpaquePointer) {
        switch shape {
        case .rect(let r):
            if let fill = r.fill {
                setColor(cr, fill)
                cairo_rectangle(cr, r.x, r.y, r.w, r.h)
                cairo_fill(cr)
            }
            if let stroke = r.stroke {
                let t = min(r.lineWidth, r.w / 2, r.h / 2)
                guard t > 0 else { return }
                setColor(cr, stroke)
                cairo_set_line_width(cr, t)
                cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
                cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
                if let d = r.dash { cairo_set_dash(cr, d, Int32(d.count), 0) }
                cairo_rectangle(cr, r.x + t / 2, r.y + t / 2, r.w - t, r.h - t)
                cairo_stroke(cr)
                cairo_set_dash(cr, nil, 0, 0)
            }
        case .text(let t):
            pango_cairo_update_context(cr, drawContext)
            guard let layout = makeLayout(drawContext, t.text, size: t.size, font: t.font) else { return }
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            setColor(cr, t.color)
            cairo_move_to(cr, t.x, t.y)
            pango_cairo_show_layout(cr, layout)
            cairo_new_path(cr)
        case .pie(let p):
            let top = -Double.pi / 2
            if p.fraction > 0 {
                setColor(cr, p.fill)
                cairo_move_to(cr, p.cx, p.cy)
                cairo_arc(cr, p.cx, p.cy, p.r, top, top + 2 * Double.pi * min(1, p.fraction))
                cairo_close_path(cr)
                cairo_fill(cr)
            }
            if let stroke = p.stroke {
                let t = min(p.lineWidth, p.r)
                setColor(cr, stroke)
                cairo_set_line_width(cr, t)
                cairo_new_sub_path(cr)
                cairo_arc(cr, p.cx, p.cy, p.r - t / 2, 0, 2 * Double.pi)
                cairo_stroke(cr)
            }
        }
    }

    private func setColor(_ cr: OpaquePointer, _ c: SceneColor) {
        cairo_set_source_rgba(cr, Double(c.red) / 255, Double(c.green) / 255, Double(c.blue) / 255, Double(c.alpha) / 255)
    }

    private func makeLayout(_ context: OpaquePointer, _ text: String, size: Double, font: String) -> OpaquePointer? {
        guard let layout = pango_layout_new(context), let desc = pango_font_description_new() else { return nil }
        defer { pango_font_description_free(desc) }
        pango_font_description_set_family(desc, font)
        pango_font_description_set_absolute_size(desc, size * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, desc)
        pango_layout_set_text(layout, text, -1)
        return layout
    }

    /// The union of the ink and logical extents of `text`, relative to the layout's top-left
    /// (ink may overhang the logical box by a pixel or so).
    private func layoutBox(_ text: String, size: Double, font: String) -> (x: Double, y: Double, width: Double, height: Double) {
        guard let layout = makeLayout(measureContext, text, size: size, font: font) else { return (0, 0, 0, 0) }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let k = Double(PANGO_SCALE)
        let x0 = Double(min(ink.x, logical.x)) / k, y0 = Double(min(ink.y, logical.y)) / k
        let x1 = Double(max(ink.x + ink.width, logical.x + logical.width)) / k
        let y1 = Double(max(ink.y + ink.height, logical.y + logical.height)) / k
        return (x0, y0, x1 - x0, y1 - y0)
    }

    /// A logical box in a buffer's device pixels, one pixel of margin for antialiasing, clipped.
    private func deviceBox(_ f: (x: Double, y: Double, w: Double, h: Double), originX: Int, originY: Int, scale: Int,
                           width: Int, height: Int) -> DeviceBox? {
        let s = Double(scale)
        let x0 = max(0, Int(((f.x - Double(originX)) * s).rounded(.down)) - 1)
        let y0 = max(0, Int(((f.y - Double(originY)) * s).rounded(.down)) - 1)
        let x1 = min(width, Int(((f.x + f.w - Double(originX)) * s).rounded(.up)) + 1)
        let y1 = min(height, Int(((f.y + f.h - Double(originY)) * s).rounded(.up)) + 1)
        return x1 > x0 && y1 > y0 ? DeviceBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }
}
