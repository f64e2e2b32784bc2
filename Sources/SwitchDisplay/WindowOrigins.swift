import SwitchCore

/// Where an application's window sits on the screen. AT-SPI's "screen" extents are relative to
/// the window on every Wayland compositor (and GTK 4 gives window-relative extents on X11 too),
/// so a tree's frames need the window's origin, which only the display server knows. A window is
/// found by the process that owns it (AT-SPI's `GetProcessId` is the server's pid for it), then
/// by its title when the process has several.
public protocol WindowOrigins: AnyObject {
    /// The screen point where the window's accessible extents start: the window of process
    /// `pid` (nil: any process) titled `title` (or its only window), whose accessible frame is
    /// `size` (nil: not known). nil when no such window is found.
    func origin(pid: Int32?, title: String, size: Size?) -> Point?
}
