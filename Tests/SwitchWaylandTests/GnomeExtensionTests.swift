import Foundation
import SwitchCore
import SwitchDisplay
@testable import SwitchDisplayServers
import Testing

/// The GNOME backend's pure parts: the extension's window list read, the window picked for an
/// AT-SPI top-level and its origin (the measured windows of scripts/wayland-tests/README.md),
/// what the Shell says of the extension, and the notes `run` gives for each case.
struct GnomeExtensionTests {
    /// GNOME Shell 43.9's answer (trimmed to three windows: GTK 3 with client-side decorations,
    /// Qt 5 drawing its own title bar, GTK 4).
    static let measured = """
        [{"id": 3141, "pid": 10, "title": "Wayland test", "wmClass": "wlapp.py", "focused": false, "type": "normal", "monitor": 0,
          "buffer": {"x": 133, "y": 52, "w": 532, "h": 689}, "frame": {"x": 159, "y": 75, "w": 480, "h": 637}, "client": {"w": 532, "h": 689}},
         {"id": 3142, "pid": 11, "title": "Qt5 test", "wmClass": "qt5app.py", "focused": true, "type": "normal", "monitor": 0,
          "buffer": {"x": 639, "y": 75, "w": 406, "h": 333}, "frame": {"x": 639, "y": 75, "w": 406, "h": 333}, "client": {"w": 406, "h": 333}},
         {"id": 3143, "pid": 12, "title": "GTK 4", "wmClass": "gtk4app.py", "focused": false, "type": "normal", "monitor": 0,
          "buffer": {"x": 625, "y": 396, "w": 428, "h": 329}, "frame": {"x": 639, "y": 408, "w": 400, "h": 300}, "client": {"w": 400, "h": 300}},
         {"id": 3144, "pid": 11, "title": "", "wmClass": "qt5app.py", "focused": false, "type": "popup_menu", "monitor": 0,
          "buffer": {"x": 700, "y": 200, "w": 120, "h": 80}, "frame": {"x": 700, "y": 200, "w": 120, "h": 80}, "client": {"w": 120, "h": 80}}]
        """

    @Test func theWindowListIsRead() throws {
        let windows = try GnomeExtension.windows(Self.measured).get()
        #expect(windows.map(\.id) == [3141, 3142, 3143, 3144])
        #expect(windows[0] == GnomeExtension.Window(id: 3141, pid: 10, title: "Wayland test", wmClass: "wlapp.py", focused: false, type: "normal",
                                                      buffer: Rect(x: 133, y: 52, width: 532, height: 689),
                                                      frame: Rect(x: 159, y: 75, width: 480, height: 637)))
        #expect(windows.map(\.isListed) == [true, true, true, false])
    }

    @Test func aBadWindowListSaysWhatIsWrong() {
        guard case .failure(let why) = GnomeExtension.windows(#"[{"id": 1, "pid": 2, "buffer": {"x": 0}}]"#) else {
            Issue.record("a list without frames was read")
            return
        }
        #expect(why.description.hasPrefix("the extension's window list cannot be read ("), "\(why)")
        #expect(GnomeExtension.windows("not json").failure != nil)
        #expect(GnomeExtension.windows(String(repeating: " ", count: GnomeExtension.maxWindowsBytes + 1)).failure?.description
                == "the extension's window list is \(GnomeExtension.maxWindowsBytes + 1) bytes, more than \(GnomeExtension.maxWindowsBytes)")
    }

    /// Each measured toolkit's origin: GTK 3 the buffer's corner (its AT-SPI top-level is the
    /// buffer's size), Qt 5 the buffer plus (3, 30) (its own title bar), GTK 4 the frame's corner.
    @Test func originsOfTheMeasuredWindows() throws {
        let windows = try GnomeExtension.windows(Self.measured).get()
        #expect(ToplevelOrigin.origin(in: windows, pid: 10, title: "Wayland test", size: Size(width: 532, height: 689)) == Point(x: 133, y: 52))
        #expect(ToplevelOrigin.origin(in: windows, pid: 11, title: "Qt5 test", size: Size(width: 400, height: 300)) == Point(x: 642, y: 105))
        #expect(ToplevelOrigin.origin(in: windows, pid: 12, title: "GTK 4", size: Size(width: 400, height: 300)) == Point(x: 639, y: 408))
        // Qt 5's AT-SPI top-level has no title; its popup has none either: the size picks the window.
        #expect(ToplevelOrigin.origin(in: windows, pid: 11, title: "", size: Size(width: 400, height: 300)) == Point(x: 642, y: 105))
        #expect(ToplevelOrigin.origin(in: windows, pid: 99, title: "Wayland test", size: nil) == nil)
    }

    @Test func whatTheShellSaysOfTheExtension() {
        #expect(GnomeExtension.ShellState(info: ["state": .double(1), "path": .string("/p")]) == .enabled(path: "/p"))
        #expect(GnomeExtension.ShellState(info: ["state": .double(2), "path": .string("/p")]) == .disabled(path: "/p"))
        #expect(GnomeExtension.ShellState(info: ["state": .double(6), "path": .string("/p")]) == .disabled(path: "/p"))
        #expect(GnomeExtension.ShellState(info: ["state": .double(3), "path": .string("/p"), "error": .string("SyntaxError")])
                == .failed(path: "/p", error: "SyntaxError"))
        #expect(GnomeExtension.ShellState(info: ["state": .double(4), "path": .string("/p")]) == .outOfDate(path: "/p"))
        #expect(GnomeExtension.ShellState(info: ["state": .double(99)]) == .unknown)
        #expect(GnomeExtension.ShellState(info: [:]) == .unknown)
    }

    /// Every case says what is missing, that scanning goes on with AT-SPI actions, and what to do.
    @Test func theNoteForEachCase() {
        let without = "no highlight, and clicks, keys and the Windows page only where AT-SPI has an action; scanning goes on with AT-SPI actions"
        let place = "/usr/share/gnome-shell/extensions/switchscan@switchscan.org"
        #expect(GnomeExtension.missingNote(.disabled(path: place), installed: place, shellVersion: "43.9")
                == "the GNOME Shell extension switchscan@switchscan.org (\(place)) is not enabled: \(without). "
                + "To turn it on: gnome-extensions enable switchscan@switchscan.org")
        #expect(GnomeExtension.missingNote(.unknown, installed: place, shellVersion: "43.9")
                == "the GNOME Shell extension switchscan@switchscan.org (installed in \(place)) is not loaded by this GNOME Shell (it looks "
                + "for extensions when you log in): \(without). Log out and in again, then: gnome-extensions enable switchscan@switchscan.org")
        #expect(GnomeExtension.missingNote(.unknown, installed: nil, shellVersion: nil)
                == "the GNOME Shell extension switchscan@switchscan.org is not installed: \(without). scripts/install.sh and the .deb put it in "
                + "PREFIX/share/gnome-shell/extensions/switchscan@switchscan.org; then log out and in, and: gnome-extensions enable switchscan@switchscan.org")
        #expect(GnomeExtension.missingNote(.outOfDate(path: place), installed: place, shellVersion: "48.1").contains("another GNOME Shell than this one (48.1)"))
        #expect(GnomeExtension.missingNote(.failed(path: place, error: "TypeError: x is undefined"), installed: place, shellVersion: nil)
                .contains("failed in GNOME Shell: TypeError: x is undefined: \(without). What the Shell said: journalctl --user -b /usr/bin/gnome-shell"))
        #expect(GnomeExtension.missingNote(.enabled(path: place), installed: place, shellVersion: nil)
                .hasSuffix("Turn it off and on again: gnome-extensions disable switchscan@switchscan.org && gnome-extensions enable switchscan@switchscan.org"))
    }

    @Test func theInstalledCopyIsBesideTheBinary() {
        let exists = { (p: String) in p == "/opt/s/share/gnome-shell/extensions/switchscan@switchscan.org/metadata.json" }
        #expect(GnomeExtension.installedPlace(executable: "/opt/s/bin/switchscan", exists: exists) == "/opt/s/share/gnome-shell/extensions/switchscan@switchscan.org")
        #expect(GnomeExtension.installedPlace(executable: "/usr/bin/switchscan", exists: exists) == nil)
        #expect(GnomeExtension.installedPlace(executable: nil, exists: exists) == nil)
    }
}
