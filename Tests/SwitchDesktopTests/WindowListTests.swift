import SwitchCore
@testable import SwitchDesktop
import Testing

/// The Windows page's list (`WindowList`): X windows matched to applications on the bus by
/// process, then by title, most recently used first.
@Suite struct WindowListTests {
    static func x(_ id: UInt, pid: Int32?, _ title: String) -> X11Window {
        X11Window(id: id, pid: pid, title: title, frame: Rect(x: 0, y: 0, width: 100, height: 100))
    }

    @Test func matchedByProcessThenTitleTopFirst() {
        let apps = [
            WindowList.Application(name: "gnome-calculator", pid: 10, windows: [.init(bus: ":1.4", path: "/calc/1", title: "Calculator")]),
            WindowList.Application(name: "Firefox", pid: 20, windows: [
                .init(bus: ":1.5", path: "/ff/1", title: "Switch test form — Mozilla Firefox"),
                .init(bus: ":1.5", path: "/ff/2", title: "Second page — Mozilla Firefox"),
            ]),
        ]
        // Stacking order from the bottom: the calculator is on top.
        let list = WindowList.windows(x11: [
            Self.x(0x600001, pid: 20, "Second page — Mozilla Firefox"),
            Self.x(0x600002, pid: 20, "Switch test form — Mozilla Firefox"),
            Self.x(0x700001, pid: nil, "xterm"),
            Self.x(0x400004, pid: 10, "Calculator"),
        ], apps: apps)
        #expect(list.map(\.label) == ["gnome-calculator — Calculator", "xterm", "Firefox — Switch test form — Mozilla Firefox",
                                      "Firefox — Second page — Mozilla Firefox"])
        #expect(list.map { $0.accessible?.path } == ["/calc/1", nil, "/ff/1", "/ff/2"])
        #expect(list.map(\.id) == ["x11:0x400004", "x11:0x700001", "x11:0x600002", "x11:0x600001"])
        #expect(WindowList.x11(fromID: "x11:0x400004") == 0x400004)
        #expect(WindowList.x11(fromID: "desktop") == nil)
    }

    /// An application with one window whose title the X window does not repeat (a panel) gets it.
    @Test func theOnlyWindowWhenTitlesSayNothing() {
        let apps = [WindowList.Application(name: "xfce4-panel", pid: 30, windows: [.init(bus: ":1.7", path: "/p/1", title: "")])]
        let list = WindowList.windows(x11: [Self.x(0x800001, pid: 30, "xfce4-panel")], apps: apps)
        #expect(list.map(\.label) == ["xfce4-panel"])
        #expect(list.first?.accessible?.path == "/p/1")
    }
}
