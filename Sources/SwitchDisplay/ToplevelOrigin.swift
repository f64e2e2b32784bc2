import SwitchCore

/// Where a toolkit's window-relative AT-SPI coordinates start, from the two rectangles a
/// compositor keeps of a window (pure; KWin's script and GNOME's extension both report them):
///
///     buffer   the client's whole surface (client-side shadows included)
///     frame    the window as the compositor frames it (its decorations included, no shadows)
///     size     the AT-SPI top-level's extents' size (nil: not known)
///
///     size = buffer's size                 → the buffer's corner (GTK 3 everywhere; GTK 3 and Qt 5
///                                            on KWin, whose decorations are outside the buffer)
///     size = frame's size                  → the frame's corner (GTK 4 on GNOME: it counts from
///                                            its window geometry, not its buffer)
///     else (a client drawing its own title bar inside the buffer, Qt 5 on GNOME)
///                                          → buffer + ((bw − w) / 2, bh − h − (bw − w) / 2):
///                                            equal side margins, the title bar above
///     size unknown                         → the buffer's corner
///
/// Measured to the pixel by screenshot on GNOME Shell 43 and KWin 5.27 with GTK 3, GTK 4 and Qt 5
/// (scripts/wayland-tests/README.md, "Where a widget is").
public enum ToplevelOrigin {
    public static func origin(buffer: Rect, frame: Rect, size: Size?) -> Point {
        guard let size else { return Point(x: buffer.x, y: buffer.y) }
        if size.width == buffer.width && size.height == buffer.height { return Point(x: buffer.x, y: buffer.y) }
        if size.width == frame.width && size.height == frame.height { return Point(x: frame.x, y: frame.y) }
        let side = ((buffer.width - size.width) / 2).rounded(.down)
        guard side >= 0, buffer.height - size.height - side >= 0 else { return Point(x: buffer.x, y: buffer.y) }
        return Point(x: buffer.x + side, y: buffer.y + buffer.height - size.height - side)
    }
}

/// A compositor's window as the origin rule needs it (KWin's script and GNOME's extension report
/// the same things under their own names).
public protocol Toplevel {
    var toplevelPid: Int32 { get }
    var toplevelTitle: String { get }
    var toplevelBuffer: Rect { get }
    var toplevelFrame: Rect { get }
    var toplevelFocused: Bool { get }
}

extension ToplevelOrigin {
    /// Where the AT-SPI coordinates of process `pid`'s window titled `title` start (nil: any
    /// process), its accessible top-level being `size`: among the process's windows the one with
    /// that title, else the one whose buffer or frame is `size`, else the only one, else the
    /// focused one, else the top one (`windows` bottom first).
    public static func origin<W: Toplevel>(in windows: [W], pid: Int32?, title: String, size: Size?) -> Point? {
        let own = windows.filter { w in pid.map { w.toplevelPid == $0 } ?? true }
        func fits(_ w: W) -> Bool {
            guard let size else { return false }
            return [w.toplevelBuffer, w.toplevelFrame].contains { $0.width == size.width && $0.height == size.height }
        }
        let titled = own.filter { !title.isEmpty && $0.toplevelTitle == title }
        let pick = (titled.count == 1 ? titled.first : nil) ?? titled.last(where: fits) ?? titled.last
            ?? own.last(where: fits) ?? (own.count == 1 ? own.first : nil) ?? own.last(where: \.toplevelFocused) ?? own.last
        return pick.map { origin(buffer: $0.toplevelBuffer, frame: $0.toplevelFrame, size: size) }
    }
}
