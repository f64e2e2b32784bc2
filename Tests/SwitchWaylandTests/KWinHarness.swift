import Foundation
import Testing

/// A headless KWin 5.27 session for one test (`scripts/wayland-tests/run-kwin.sh`: a private
/// session bus, the a11y bus and registry, KWin `--virtual` 1280×800 from a copy named
/// kwin_wayland, `.desktop` grants read by KWin from its KService cache; the process, the
/// watchdog and the teardown are `HeadlessSession`'s). The switchscan binary next to the test
/// bundle is granted fake input (`grant`: false leaves it out, as an installation without the
/// .desktop file would). Everything runs as this user with the session's environment; screenshots
/// are KWin's ScreenShot2, through the copy of python3 run-kwin.sh grants it to
/// (tools/screenshot.py). Tests skip with a message where KWin cannot start.
final class KWinTestSession: HeadlessSession {
    static let runKWin = repoRoot + "/scripts/wayland-tests/run-kwin.sh"
    static let tools = repoRoot + "/scripts/wayland-tests/tools"
    static let wlapp = repoRoot + "/Tests/SwitchWaylandTests/Fixtures/wlapp.py"

    /// Whether KWin, at-spi2-core, umockdev and Debian's python3 with GTK 3, pyatspi, dbus and PIL
    /// are here (scripts/apt/test-wayland-kwin.list), and the switchscan binary.
    static let usable: Bool = {
        let fm = FileManager.default
        for tool in ["/usr/bin/kwin_wayland", "/usr/bin/kbuildsycoca5", "/usr/bin/wayland-scanner", "/usr/bin/dbus-daemon",
                     "/usr/libexec/at-spi-bus-launcher", "/usr/bin/python3", "/usr/bin/cc"] where !fm.isExecutableFile(atPath: tool) { return false }
        let probe = run(["/usr/bin/python3", "-c", """
            import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk; import pyatspi, dbus, PIL
            """], env: nil, timeout: 30)
        return probe.status == 0 && switchscanUsable
    }()
    static let skipMessage = "needs kwin-wayland, kbuildsycoca5, at-spi2-core, python3-gi with GTK 3, python3-pyatspi, python3-dbus, "
        + "python3-pil (scripts/apt/test-wayland-kwin.list), " + switchscanSkipMessage

    /// KWin with the test applications `apps` (run-kwin.sh's --app: gtk3 is testapp.py, qt5,
    /// gtk4) already on the accessibility bus; `grant`: switchscan may use fake input.
    /// `outputs`: 1, or 2 side by side (1280x800 each).
    init(apps: [String] = [], grant: Bool = true, outputs: Int = 1, watchdog: Double = 180) throws {
        let real = URL(fileURLWithPath: HeadlessSession.binary).resolvingSymlinksInPath().path
        try super.init(runner: KWinTestSession.runKWin,
                       arguments: apps.flatMap { ["--app", $0] } + (grant ? ["--grant", real] : []) + ["--outputs", "\(outputs)"],
                       marker: "SESSION_DIR", what: "KWin session", watchdog: watchdog)
    }

    /// KWin's process (to end it mid-run).
    var kwinPid: Int32? { environment["SWITCHSCAN_KWIN_PID"].flatMap { Int32($0) } }

    /// The whole desktop by KWin's ScreenShot2, as PPM.
    override func screenshot() throws -> Image {
        let file = NSTemporaryDirectory() + "switchscan-kwin-shot-\(UUID().uuidString).ppm"
        defer { try? FileManager.default.removeItem(atPath: file) }
        guard let python = environment["SWITCHSCAN_KWIN_PYTHON"] else { throw SessionError("run-kwin.sh gave no SWITCHSCAN_KWIN_PYTHON") }
        let r = run([python, KWinTestSession.tools + "/screenshot.py", "kwin", file], timeout: 30)
        guard r.status == 0, let data = FileManager.default.contents(atPath: file), let image = Image(ppm: data) else {
            throw SessionError("KWin's screenshot failed: \(r.stderr)")
        }
        return image
    }

    /// Starts `argv` (an application) and waits until `name` is on the accessibility bus.
    @discardableResult
    func startApp(_ argv: [String], name: String) throws -> Process {
        let p = try start(argv)
        let r = run(["/usr/bin/python3", HeadlessSession.checker, "wait", name, "30"], timeout: 40)
        if r.status != 0 { throw SessionError("\(name) did not appear on the accessibility bus: \(r.stderr)") }
        return p
    }

    /// The Wayland tests' application (Fixtures/wlapp.py, GTK 3 unless `gtk` says 4).
    @discardableResult
    func startWlapp(title: String = "Wayland test", name: String = "wlapp.py", gtk: Int = 3, extra: [String] = []) throws -> Process {
        try startApp(["/usr/bin/python3", KWinTestSession.wlapp, "--gtk", "\(gtk)", "--title", title, "--name", name] + extra, name: name)
    }

    /// One of the X11 desktop tests' GTK 3 applications (menuapp.py, typingapp.py, …).
    @discardableResult
    func startDesktopApp(_ name: String) throws -> Process {
        try startApp(["/usr/bin/python3", HeadlessSession.desktopFixtures + "/" + name], name: name)
    }

    /// Moves the pointer to (x, y) (kwin-fake-input): KWin places a new window on the output the
    /// pointer is on.
    func movePointer(to x: Int, _ y: Int) throws {
        guard let tool = environment["SWITCHSCAN_KWIN_FAKE_INPUT"] else { throw SessionError("run-kwin.sh gave no SWITCHSCAN_KWIN_FAKE_INPUT") }
        let r = run([tool, "move", "\(x)", "\(y)"], timeout: 30)
        if r.status != 0 { throw SessionError("kwin-fake-input failed (\(r.status)): \(r.stderr)") }
    }

    /// Moves the window under (x, y) by (dx, dy) as a person does on KWin: Meta held, dragged with
    /// the left button (kwin-fake-input, the tests' own fake-input client), in ten steps.
    func drag(from x: Int, _ y: Int, by dx: Int, _ dy: Int) throws {
        guard let tool = environment["SWITCHSCAN_KWIN_FAKE_INPUT"] else { throw SessionError("run-kwin.sh gave no SWITCHSCAN_KWIN_FAKE_INPUT") }
        let steps = (1...10).flatMap { i in ["move", "\(x + dx * i / 10)", "\(y + dy * i / 10)"] }
        let r = run([tool, "move", "\(x)", "\(y)", "keydown", "125", "down", "272"] + steps + ["up", "272", "keyup", "125"], timeout: 30)
        if r.status != 0 { throw SessionError("kwin-fake-input failed (\(r.status)): \(r.stderr)") }
    }

    /// Calls a method of KWin's scripting (`gdbus`), e.g. unloadScript("switchscan").
    func scripting(_ method: String, _ args: [String]) -> Result {
        run(["/usr/bin/gdbus", "call", "--session", "--dest", "org.kde.KWin", "--object-path", "/Scripting",
             "--method", "org.kde.kwin.Scripting." + method] + args, timeout: 30)
    }
}
