import SwitchCore

/// Where an application's window sits on the screen. AT-SPI's "screen" extents are relative to
/// the window on every Wayland compositor (and GTK 4 gives window-relative extents on X11 too),
/// so a tree's frames need the window's origin, which only the display server knows. A window is
/// found by the process that owns it (AT-SPI's `GetProcessId` is the server's pid for it), then
/// by its title when the process has several.
public protocol WindowOrigins: AnyObject {
    /// True when every toolkit's extents are relative to its window (a Wayland session: the reader
    /// then asks the origin of every window, not only GTK 4's); false on X11, where only GTK 4's are.
    var windowRelativeExtents: Bool { get }

    /// The screen point where the window's accessible extents start: the window of process
    /// `pid` (nil: any process) titled `title` (or its only window), whose accessible frame is
    /// `size` (nil: not known). nil when no such window is found.
    func origin(pid: Int32?, title: String, size: Size?) -> Point?

    /// The same, for a server that cannot tell where a client's window starts inside what the
    /// client draws (sway: a GTK 3 window with a header bar draws its shadow around it, and sway's
    /// IPC says nothing of that margin): `firstChild` gives where the window's first child (GTK 3's
    /// title bar) starts in its accessible frame, asked only when needed (a D-Bus call).
    func origin(pid: Int32?, title: String, size: Size?, firstChild: () -> Point?) -> Point?
}

extension WindowOrigins {
    public var windowRelativeExtents: Bool { false }

    public func origin(pid: Int32?, title: String, size: Size?, firstChild: () -> Point?) -> Point? {
        origin(pid: pid, title: title, size: size)
    }
}
