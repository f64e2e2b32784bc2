internal import CX11
import SwitchCore
import SwitchDisplay

/// One X connection for the overlay, with the error handling a long-running presenter needs: an
/// X error on a request (a bug) is ignored instead of ending the process (Xlib's default), and a
/// lost connection (the X server ended) marks the connection dead instead of exiting: scanning
/// goes on without the picture.
final class OverlayDisplay {
    let display: OpaquePointer
    let screen: Int32
    let root: Window
    let visual: UnsafeMutablePointer<Visual>
    let colormap: Colormap
    let depth: Int32
    /// The screen in root-window pixels.
    let bounds: PixelRect
    let name: String
    private(set) var isDead = false

    init(name: String?) throws(OverlayError) {
        let wanted = name ?? Self.environmentDisplay()
        guard let wanted, !wanted.isEmpty else { throw OverlayError.noDisplaySet }
        guard let d = cx11_open_display(wanted) else { throw OverlayError.cannotOpen(display: wanted) }
        cx11_xft_free_closed_fonts_at_once(d)
        var event: Int32 = 0, error: Int32 = 0
        guard XShapeQueryExtension(d, &event, &error) != 0 else {
            XCloseDisplay(d)
            throw OverlayError.noShape(display: wanted)
        }
        display = d
        self.name = wanted
        screen = cx11_default_screen(d)
        root = cx11_root_window(d, screen)
        visual = cx11_default_visual(d, screen)
        colormap = cx11_default_colormap(d, screen)
        depth = cx11_default_depth(d, screen)
        bounds = PixelRect(x: 0, y: 0, width: Int(cx11_display_width(d, screen)), height: Int(cx11_display_height(d, screen)))
        XSetErrorHandler { _, _ in 0 }
        XSetIOErrorHandler { _ in 0 }
        XSetIOErrorExitHandler(d, { _, me in
            guard let me else { return }
            Unmanaged<OverlayDisplay>.fromOpaque(me).takeUnretainedValue().isDead = true
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        guard !isDead else { return }  // a lost connection stays locked by Xlib: never touched again
        XSetIOErrorExitHandler(display, { _, _ in }, nil)  // nothing may reach self from here on
        XCloseDisplay(display)
    }

    private static func environmentDisplay() -> String? {
        guard let v = getenv("DISPLAY") else { return nil }
        return String(cString: v)
    }

    /// The connection's socket: readable when the server wrote (or hung up).
    var fileDescriptor: Int32 { cx11_connection_number(display) }

    /// Takes whatever the server sent (we select no events; errors and a hang-up arrive here).
    func drain() {
        guard !isDead else { return }
        var event = XEvent()
        while !isDead && XPending(display) > 0 { XNextEvent(display, &event) }
    }

    func flush() {
        if !isDead { XFlush(display) }
    }

    /// Waits until the server has carried out every request (tests, screenshots).
    func sync() {
        if !isDead { XSync(display, 0) }
    }

    /// The pixel value of a colour (allocated once: XAllocColor waits for the server).
    func pixel(_ c: CursorColor) -> UInt {
        if let known = pixels[c.rgb] { return known }
        let p = allocate(c)
        pixels[c.rgb] = p
        return p
    }
    private var pixels: [UInt32: UInt] = [:]

    private func allocate(_ c: CursorColor) -> UInt {
        var color = XColor()
        color.red = UInt16(c.red) * 257
        color.green = UInt16(c.green) * 257
        color.blue = UInt16(c.blue) * 257
        color.flags = CChar(DoRed | DoGreen | DoBlue)
        if XAllocColor(display, colormap, &color) == 0 { return XBlackPixel(display, screen) }
        return color.pixel
    }
}

/// An override-redirect window (no window manager frame, never focused, placed where we say),
/// always raised when shown, with an empty input shape: every click goes to what is below.
/// Its look is the server's: a background pixel or pixmap, and for the ring a bounding shape, so
/// it needs no Expose handling (and costs nothing while nothing changes).
final class OverlayWindow {
    let connection: OverlayDisplay
    let window: Window
    private(set) var frame = PixelRect(x: 0, y: 0, width: 1, height: 1)
    private(set) var isShown = false
    private var shapeKey: [PixelRect]?
    /// The background pixel set last (nil: a pixmap, or the one it was made with).
    private var backgroundPixel: UInt?

    init(_ connection: OverlayDisplay, name: String, background: UInt) {
        self.connection = connection
        backgroundPixel = background
        var a = XSetWindowAttributes()
        a.override_redirect = 1
        a.background_pixel = background
        a.border_pixel = 0
        let d = connection.display
        window = XCreateWindow(d, connection.root, 0, 0, 1, 1, 0, connection.depth, UInt32(InputOutput), connection.visual,
                               UInt(CWOverrideRedirect | CWBackPixel | CWBorderPixel), &a)
        XStoreName(d, window, name)
        var hint = XClassHint()
        "switchscan".withCString { cls in
            name.withCString { n in
                hint.res_name = UnsafeMutablePointer(mutating: n)
                hint.res_class = UnsafeMutablePointer(mutating: cls)
                XSetClassHint(d, window, &hint)
            }
        }
        XShapeCombineRectangles(d, window, ShapeInput, 0, 0, nil, 0, ShapeSet, Unsorted)  // click-through
    }

    func destroy() {
        guard !connection.isDead else { return }
        XDestroyWindow(connection.display, window)
    }

    /// Moves and resizes; with `shape`, the visible pieces (window-relative), set only when they
    /// change.
    func place(_ f: PixelRect, shape: [PixelRect]? = nil) {
        guard !connection.isDead else { return }
        let d = connection.display
        if f != frame {
            XMoveResizeWindow(d, window, Int32(f.x), Int32(f.y), UInt32(max(1, f.width)), UInt32(max(1, f.height)))
            frame = f
        }
        if let shape, shape != shapeKey {
            var rects = shape.map { XRectangle(x: Int16(clamping: $0.x), y: Int16(clamping: $0.y),
                                               width: UInt16(clamping: $0.width), height: UInt16(clamping: $0.height)) }
            XShapeCombineRectangles(d, window, ShapeBounding, 0, 0, &rects, Int32(rects.count), ShapeSet, Unsorted)
            shapeKey = shape
        }
    }

    /// Whether a bounding shape was set (a part drawn whole has none).
    var hasShape: Bool { shapeKey != nil }

    func setBackground(pixel: UInt) {
        guard !connection.isDead, pixel != backgroundPixel else { return }
        backgroundPixel = pixel
        XSetWindowBackground(connection.display, window, pixel)
        XClearWindow(connection.display, window)
    }

    func setBackground(pixmap: Pixmap) {
        guard !connection.isDead else { return }
        backgroundPixel = nil
        XSetWindowBackgroundPixmap(connection.display, window, pixmap)
        XClearWindow(connection.display, window)
    }

    /// Maps it on top of everything (or raises it when shown already: another override-redirect
    /// window may have been mapped over it).
    func show() {
        guard !connection.isDead else { return }
        if isShown {
            XRaiseWindow(connection.display, window)
        } else {
            XMapRaised(connection.display, window)
            isShown = true
        }
    }

    func hide() {
        guard isShown, !connection.isDead else { return }
        XUnmapWindow(connection.display, window)
        isShown = false
    }
}

/// Why the X11 overlay cannot start.
extension OverlayError {
    static let noDisplaySet = OverlayError(
        "--show needs an X server, and DISPLAY is not set (run it in an X session: Xorg, or Xwayland for X11 applications)")

    static func cannotOpen(display name: String) -> OverlayError {
        OverlayError("--show needs an X server: cannot open display \"\(name)\" (is an X session running there, and may this user connect to it?)")
    }

    static func noShape(display name: String) -> OverlayError {
        OverlayError("--show: the X server \"\(name)\" has no SHAPE extension, so the highlight cannot let clicks through")
    }
}
