import Foundation
import SwitchCore
import SwitchDisplayServers
import Testing

/// A headless GNOME Shell 43 session for one test (`scripts/wayland-tests/run-gnome.sh`: a private
/// mount namespace with its own system bus, a private session bus, the a11y bus and registry,
/// switchscan's extension built for this Shell and enabled or not, the test applications asked
/// for), torn down at `close`. Everything runs as root with the session's environment (the
/// namespace's tmpfs covers /run/systemd and /run/dbus only: the session's sockets are reachable
/// from outside it). Screenshots by gnome-screenshot (GNOME 43 lets org.gnome.Screenshot's owner
/// use the Shell's Screenshot API), converted by Pillow; the extension driven directly through
/// switchscan's own session-bus client (`shell`) where a test moves a window or turns it off.
final class GnomeSession: HeadlessSession {
    static let runGnome = repoRoot + "/scripts/wayland-tests/run-gnome.sh"
    static let wlapp = repoRoot + "/Tests/SwitchWaylandTests/Fixtures/wlapp.py"
    static let qt5app = repoRoot + "/scripts/wayland-tests/apps/qt5app.py"

    /// Whether GNOME Shell, gnome-screenshot, root (the namespace), Pillow and the desktop tests'
    /// tools are here.
    static let usable: Bool = {
        let fm = FileManager.default
        guard getuid() == 0, switchscanUsable else { return false }
        for tool in ["/usr/bin/gnome-shell", "/usr/bin/gnome-screenshot", "/usr/bin/unshare", "/usr/bin/dbus-daemon", "/usr/bin/gsettings",
                     "/usr/libexec/at-spi-bus-launcher"] where !fm.isExecutableFile(atPath: tool) { return false }
        return run(["/usr/bin/python3", "-c", "import gi, pyatspi, PIL; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk"],
                   env: nil, timeout: 30).status == 0
    }()
    static let skipMessage = "needs root, GNOME Shell 43, gnome-screenshot, at-spi2-core, python3-gi, python3-pyatspi, python3-pil "
        + "(scripts/apt/test-wayland-gnome.list), " + switchscanSkipMessage

    /// The screen's scale (run-gnome.sh --scale 2: screenshots are in device pixels, twice the logical).
    let scale: Int

    /// Starts GNOME Shell: `apps` started by the runner (gtk3, qt5, gtk4: run-gnome.sh's own),
    /// the extension `enabled`, `disabled` or `none`, `monitors` side by side, `scale` 1 or 2.
    init(apps: [String] = [], extension state: String = "enabled", monitors: Int = 1, scale: Int = 1, watchdog: Double = 240) throws {
        self.scale = scale
        try super.init(runner: GnomeSession.runGnome,
                       arguments: apps.flatMap { ["--app", $0] } + ["--extension", state, "--monitors", "\(monitors)", "--scale", "\(scale)"],
                       marker: "SESSION_DIR", what: "GNOME Shell session", watchdog: watchdog)
    }

    /// The whole screen as gnome-screenshot takes it (device pixels).
    override func screenshot() throws -> Image {
        let script = """
            import os, subprocess, sys, tempfile
            from PIL import Image
            d = tempfile.mkdtemp(); f = os.path.join(d, 's.png')
            r = subprocess.run(['gnome-screenshot', '-f', f], capture_output=True, text=True, timeout=30)
            if r.returncode != 0 or not os.path.exists(f): sys.exit('gnome-screenshot failed: ' + r.stderr[-300:])
            img = Image.open(f).convert('RGB'); os.remove(f); os.rmdir(d)
            sys.stdout.buffer.write(b'P6\\n%d %d\\n255\\n' % img.size + img.tobytes())
            """
        let r = run(["/usr/bin/python3", "-c", script], timeout: 40)
        guard r.status == 0, let image = Image(ppm: r.stdout) else { throw SessionError("the screenshot failed: \(r.stderr)") }
        return image
    }

    /// Starts the Wayland tests' application (`wlapp.py`, GTK `gtk`) or one of the desktop tests'
    /// (`fixture`: menuapp.py, listapp.py, typingapp.py) and waits until it is on the bus.
    @discardableResult
    func startApp(gtk: Int = 3, title: String = "Wayland test", name: String = "wlapp.py", extra: [String] = [], log: String? = nil) throws -> Process {
        let p = try start(["/usr/bin/python3", GnomeSession.wlapp, "--gtk", "\(gtk)", "--title", title, "--name", name] + extra, log: log)
        try awaitApp(name)
        return p
    }

    @discardableResult
    func startFixture(_ name: String) throws -> Process {
        let p = try start(["/usr/bin/python3", HeadlessSession.desktopFixtures + "/" + name])
        try awaitApp(name)
        return p
    }

    func awaitApp(_ name: String) throws {
        let r = run(["/usr/bin/python3", HeadlessSession.checker, "wait", name, "30"], timeout: 40)
        if r.status != 0 { throw SessionError("\(name) did not appear on the accessibility bus: \(r.stderr)") }
    }

    /// switchscan's own client of the extension, on the session's bus (a connection of the test's).
    func shell() throws -> GnomeShellClient {
        try GnomeShellClient(address: environment["DBUS_SESSION_BUS_ADDRESS"] ?? "")
    }

    /// gnome-extensions, in the session.
    func extensions(_ args: [String]) -> Result {
        run(["/usr/bin/gnome-extensions"] + args, timeout: 30)
    }
}

/// The extension's API for the tests, on a connection of their own.
final class GnomeShellClient {
    let bus: SessionBus

    init(address: String) throws {
        bus = try SessionBus(address: address)
    }

    func call(_ member: String, _ args: [BusValue] = []) throws -> [BusValue] {
        try bus.callAndWait("org.switchscan.Shell", "/org/switchscan/Shell", "org.switchscan.Shell1", member, args, timeoutMilliseconds: 5000).get()
    }

    struct Window {
        var id: UInt32, pid: Int32, title: String, focused: Bool
        var buffer: Rect, frame: Rect
    }

    func windows() throws -> [Window] {
        let json = try call("GetWindows").first?.string ?? "[]"
        let items = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
        func rect(_ o: Any?) -> Rect {
            let d = o as? [String: Double] ?? [:]
            return Rect(x: d["x"] ?? 0, y: d["y"] ?? 0, width: d["w"] ?? 0, height: d["h"] ?? 0)
        }
        return items.map {
            Window(id: ($0["id"] as? NSNumber)?.uint32Value ?? 0, pid: ($0["pid"] as? NSNumber)?.int32Value ?? 0, title: $0["title"] as? String ?? "",
                   focused: $0["focused"] as? Bool ?? false, buffer: rect($0["buffer"]), frame: rect($0["frame"]))
        }
    }

    /// Drags the window titled `title` by (dx, dy) by its title bar, as a hand would (super-drag
    /// is the compositor's, a title-bar drag any window's).
    func move(title: String, by dx: Double, _ dy: Double, in s: HeadlessSession) throws {
        let w = try #require(try windows().first { $0.title == title })
        // A point on the title bar, away from its buttons: 12 px below the frame's top, a third in.
        let (x, y) = (w.frame.x + w.frame.width / 3, w.frame.y + 12)
        let steps = 10
        _ = try call("PointerMove", [.double(x), .double(y)])
        _ = try call("PointerButton", [.uint32(1), .bool(true)])
        for k in 1...steps {
            _ = try call("PointerMove", [.double(x + dx * Double(k) / Double(steps)), .double(y + dy * Double(k) / Double(steps))])
            _ = try call("Sync")  // a frame between steps, as a hand's drag has: mutter follows each
        }
        _ = try call("PointerButton", [.uint32(1), .bool(false)])
        _ = try s.waitFor("\(title) moved by (\(dx), \(dy))") {
            try windows().first { $0.title == title && $0.frame.x == w.frame.x + dx && $0.frame.y == w.frame.y + dy }
        }
    }
}
