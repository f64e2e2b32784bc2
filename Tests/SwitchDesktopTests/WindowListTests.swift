import SwitchCore
@testable import SwitchDesktop
import SwitchDisplay
import Testing

/// The Windows page's list (`WindowList`): the display's windows (here X11's, ids "x11:0x…")
/// matched to applications on the bus by process, then by title, most recently used first.
@Suite struct WindowListTests {
    static func x(_ id: UInt64, pid: Int32?, _ title: String) -> DisplayWindow {
        DisplayWindow(id: DisplayWindowID(backend: "x11", number: id), pid: pid, title: title, frame: Rect(x: 0, y: 0, width: 100, height: 100))
    }

    @Test func matchedByProcessThenTitleByApplicationAndTitle() {
        let apps = [
            WindowList.Application(name: "gnome-calculator", pid: 10, windows: [.init(bus: ":1.4", path: "/calc/1", title: "Calculator")]),
            WindowList.Application(name: "Firefox", pid: 20, windows: [
                .init(bus: ":1.5", path: "/ff/1", title: "Switch test form — Mozilla Firefox"),
                .init(bus: ":1.5", path: "/ff/2", title: "Second page — Mozilla Firefox"),
            ]),
        ]
        // Stacking order from the bottom: the calculator is on top.
        let list = WindowList.windows([
            Self.x(0x600001, pid: 20, "Second page — Mozilla Firefox"),
            Self.x(0x600002, pid: 20, "Switch test form — Mozilla Firefox"),
            Self.x(0x700001, pid: nil, "xterm"),
            Self.x(0x400004, pid: 10, "Calculator"),
        ], apps: apps)
        #expect(list.map(\.label) == ["Firefox — Second page — Mozilla Firefox", "Firefox — Switch test form — Mozilla Firefox",
                                      "gnome-calculator — Calculator", "xterm"])
        #expect(list.map { $0.accessible?.path } == ["/ff/2", "/ff/1", "/calc/1", nil])
        #expect(list.map(\.id) == ["x11:0x600001", "x11:0x600002", "x11:0x400004", "x11:0x700001"])
        #expect(DisplayWindowID(parsing: "x11:0x400004")?.number == 0x400004)
        #expect(DisplayWindowID(parsing: "desktop") == nil)
    }

    /// An application with one window whose title the X window does not repeat gets it; windows
    /// titles do not tell apart (two panels) are matched by place; a helper window off the screen
    /// is left out; the same words twice are numbered.
    @Test func placeWhenTitlesSayNothing() {
        let apps = [WindowList.Application(name: "xfce4-panel", pid: 30, windows: [
            .init(bus: ":1.7", path: "/p/1", title: "", frame: Rect(x: 0, y: 0, width: 1600, height: 27)),
            .init(bus: ":1.7", path: "/p/2", title: "", frame: Rect(x: 647, y: 851, width: 306, height: 49)),
        ])]
        var bottom = Self.x(0x800012, pid: 30, "xfce4-panel")
        bottom.frame = Rect(x: 647, y: 851, width: 306, height: 49)
        var top = Self.x(0x800003, pid: 30, "xfce4-panel")
        top.frame = Rect(x: 0, y: 0, width: 1600, height: 27)
        var hidden = Self.x(0x80000e, pid: 30, "xfce4-panel")
        hidden.frame = Rect(x: -9999, y: -9999, width: 3, height: 3)
        let list = WindowList.windows([top, hidden, bottom], apps: apps, screen: Rect(x: 0, y: 0, width: 1600, height: 900))
        #expect(list.map(\.label) == ["xfce4-panel", "xfce4-panel (2)"])
        #expect(list.map { $0.accessible?.path } == ["/p/1", "/p/2"])
        let one = WindowList.windows([Self.x(0x900001, pid: 40, "Scratch")],
                                     apps: [.init(name: "gedit", pid: 40, windows: [.init(bus: ":1.9", path: "/g/1", title: "")])])
        #expect(one.first?.accessible?.path == "/g/1")
    }
}
