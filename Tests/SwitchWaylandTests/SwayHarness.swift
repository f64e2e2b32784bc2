import Dispatch
import Foundation
import SwitchDisplayServers
import TestPrograms
import Testing

/// A headless sway session for one test (`scripts/wayland-tests/run-sway.sh`: a private session
/// bus, the a11y bus and registry, sway with fixed outputs, run as the unprivileged user
/// `switchscan-wl` when the tests run as root; the process, the watchdog and the teardown are
/// `HeadlessSession`'s). Tests skip with a message where sway cannot start (`scripts/setup.sh
/// --tests` installs scripts/apt/test-wayland.list).
///
/// The components under test connect from this process, with the session's environment
/// (`environment`: WAYLAND_DISPLAY, XDG_RUNTIME_DIR, SWAYSOCK): root may open the session user's
/// sockets. Everything that checks them runs inside the session as its user (`run`, `start`):
/// the applications, pyatspi (an application's accessibility socket admits its own user only),
/// grim.
final class SwaySession: HeadlessSession {
    static let runSway = repoRoot + "/scripts/wayland-tests/run-sway.sh"
    static let fixtures = repoRoot + "/Tests/SwitchWaylandTests/Fixtures"
    static let app = fixtures + "/wlapp.py"
    static let extents = fixtures + "/atspi-extents.py"

    /// What a sway test needs (scripts/apt/test-wayland.list): sway, grim, at-spi2-core and Debian's
    /// python3 with GTK 3 and pyatspi; a test fails with "missing: …" without one (`.needs`).
    static let needs = ["/usr/bin/sway", "/usr/bin/grim", "/usr/bin/swaymsg", "/usr/bin/dbus-daemon", "/usr/libexec/at-spi-bus-launcher",
                        "/usr/bin/python3", "/usr/bin/setpriv"]
    static let python: [(code: String, package: String)] = [
        ("import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk", "gir1.2-gtk-3.0"),
        ("import pyatspi", "python3-pyatspi"),
    ]

    /// Starts sway with `outputs` (run-sway.sh's --output: "1280x800", "1280x800@2").
    init(outputs: [String] = ["1280x800"], watchdog: Double = 180) throws {
        try super.init(runner: SwaySession.runSway, arguments: outputs.flatMap { ["--output", $0] }, marker: "RUN_SWAY_DIR",
                       what: "sway session", watchdog: watchdog)
    }

    /// Runs a program inside the session, as its user, to its end (killed after `timeout` s: 124).
    override func run(_ argv: [String], timeout: Double = 60) -> Result {
        SwaySession.run([SwaySession.runSway, "--join", directory] + argv, env: nil, timeout: timeout)
    }

    /// Starts a program inside the session in the background; its output goes to `log` (a file
    /// in a temporary folder) when given. The process is the program itself (run-sway.sh execs).
    @discardableResult
    override func start(_ argv: [String], log: String? = nil) throws -> Process {
        try launch(executable: SwaySession.runSway, arguments: ["--join", directory] + argv, environment: nil, log: log)
    }

    /// Starts the test application (Fixtures/wlapp.py) and waits until sway shows its window and
    /// its tree is on the accessibility bus. Returns its window.
    @discardableResult
    func startApp(gtk: Int = 3, title: String = "Wayland test", name: String = "wlapp.py", size: String = "400x300",
                  headerBar: Bool = false, fixed: Bool = false, ipc: SwayIPC) throws -> SwayWindow {
        let p = try start(["/usr/bin/python3", SwaySession.app, "--gtk", "\(gtk)", "--title", title, "--name", name, "--size", size]
                          + (headerBar ? ["--headerbar"] : []) + (fixed ? ["--fixed"] : []))
        let window = try waitFor("\(name)'s window in sway's tree") {
            try ipc.windows().first { $0.pid == p.processIdentifier && $0.title == title }
        }
        let r = run(["/usr/bin/python3", SwaySession.checker, "wait", name, "30"], timeout: 40)
        if r.status != 0 { throw SessionError("\(name) did not appear on the accessibility bus: \(r.stderr)") }
        return window
    }

    struct Extents: CustomStringConvertible {
        var x: Int, y: Int, width: Int, height: Int
        var window: String
        /// The first child's top-left (a GTK 3 window's title bar).
        var first: (x: Int, y: Int)?
        var description: String { "\(width)x\(height)+\(x)+\(y)" + (first.map { " (first child at \($0.x), \($0.y))" } ?? "") }
    }

    /// Where AT-SPI says the node `name` of application `app` is (window-relative on Wayland).
    func extents(app: String = "wlapp.py", _ name: String) throws -> Extents {
        let r = run(["/usr/bin/python3", SwaySession.extents, app, name], timeout: 30)
        guard r.status == 0, let o = try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any],
              let x = o["x"] as? Int, let y = o["y"] as? Int, let w = o["width"] as? Int, let h = o["height"] as? Int else {
            throw SessionError("AT-SPI has no \"\(name)\" in \(app): \(r.stderr)")
        }
        let first = (o["first"] as? [String: Any]).flatMap { f in (f["x"] as? Int).flatMap { fx in (f["y"] as? Int).map { (fx, $0) } } }
        return Extents(x: x, y: y, width: w, height: h, window: o["window"] as? String ?? "", first: first)
    }

    /// The checker's view of an application (the test application's by default).
    override func state(app: String = "wlapp.py") -> [[String: Any]] { super.state(app: app) }

    /// A screenshot by grim (inside the session): of `output`, or of a region of the desktop.
    override func screenshot() throws -> Image { try screenshot(output: nil, region: nil, scale: nil) }

    func screenshot(output: String? = nil, region: (x: Int, y: Int, width: Int, height: Int)? = nil, scale: Int? = nil) throws -> Image {
        var argv = ["/usr/bin/grim", "-t", "ppm"]
        if let scale { argv += ["-s", "\(scale)"] }
        if let output { argv += ["-o", output] }
        if let r = region { argv += ["-g", "\(r.x),\(r.y) \(r.width)x\(r.height)"] }
        let r = run(argv + ["-"], timeout: 30)
        guard r.status == 0, let image = Image(ppm: r.stdout) else { throw SessionError("grim failed: \(r.stderr)") }
        return image
    }
}

/// An RGB picture (grim's PPM), for pixel checks.
struct Image {
    let width: Int, height: Int
    let rgb: [UInt8]

    init(width: Int, height: Int, rgb: [UInt8]) {
        (self.width, self.height, self.rgb) = (width, height, rgb)
    }

    /// Binary PPM (P6, maxval 255).
    init?(ppm data: Data) {
        let bytes = [UInt8](data)
        var fields: [Int] = [], i = 2
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "6") else { return nil }
        while fields.count < 3 && i < bytes.count {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0a || bytes[i] == 0x0d || bytes[i] == 0x09 { i += 1 }
            if i < bytes.count, bytes[i] == UInt8(ascii: "#") { while i < bytes.count, bytes[i] != 0x0a { i += 1 }; continue }
            var v = 0
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { v = v * 10 + Int(bytes[i] - 0x30); i += 1 }
            fields.append(v)
        }
        i += 1  // the single whitespace after maxval
        guard fields.count == 3, fields[2] == 255, bytes.count - i >= fields[0] * fields[1] * 3 else { return nil }
        width = fields[0]
        height = fields[1]
        rgb = Array(bytes[i..<i + width * height * 3])
    }

    /// As binary PPM (to look at a failure: SWITCHSCAN_TEST_KEEP names a folder to keep them in).
    var ppm: Data { Data("P6\n\(width) \(height)\n255\n".utf8) + Data(rgb) }

    /// Kept as `name`.ppm in SWITCHSCAN_TEST_KEEP's folder, when it is set.
    func keep(_ name: String) {
        guard let dir = ProcessInfo.processInfo.environment["SWITCHSCAN_TEST_KEEP"] else { return }
        try? ppm.write(to: URL(fileURLWithPath: dir + "/" + name + ".ppm"))
    }

    /// 0xRRGGBB of a pixel.
    func rgb(_ x: Int, _ y: Int) -> UInt32 {
        let k = (y * width + x) * 3
        return UInt32(rgb[k]) << 16 | UInt32(rgb[k + 1]) << 8 | UInt32(rgb[k + 2])
    }

    /// "#RRGGBB" of a pixel.
    func pixel(_ x: Int, _ y: Int) -> String {
        let v = rgb(x, y)
        let hex = String(v, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - hex.count) + hex
    }

    /// The bounding box of the pixels of exactly this colour (0xRRGGBB); nil when there are none.
    func box(of color: UInt32) -> (x: Int, y: Int, width: Int, height: Int)? {
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<height {
            for x in 0..<width where rgb(x, y) == color {
                x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
            }
        }
        return x1 < 0 ? nil : (x0, y0, x1 - x0 + 1, y1 - y0 + 1)
    }
}
