import Foundation
import Testing

/// switchscan tells the session an assistive technology is present (`org.a11y.Status.IsEnabled`
/// on the bus launcher, what Orca turns on), so that applications that publish their tree only
/// for one do; it puts the switch back when it ends. Read back from the real bus launcher.
@Suite(.serialized)
struct AccessibilityStatusTests {
    static let launcher = ["/usr/bin/dbus-send", "--session", "--print-reply", "--dest=org.a11y.Bus", "/org/a11y/bus"]

    func setEnabled(_ s: DesktopSession, _ on: Bool) {
        let r = s.run(Self.launcher + ["org.freedesktop.DBus.Properties.Set", "string:org.a11y.Status", "string:IsEnabled", "variant:boolean:\(on)"])
        #expect(r.status == 0, "\(r.stderr)")
    }

    func isEnabled(_ s: DesktopSession) -> Bool? {
        let r = s.run(Self.launcher + ["org.freedesktop.DBus.Properties.Get", "string:org.a11y.Status", "string:IsEnabled"])
        return r.stdout.contains("boolean true") ? true : r.stdout.contains("boolean false") ? false : nil
    }

    /// Off before the run, on while `run --desktop` scans, off again after it (read every 50 ms
    /// by a watcher beside it).
    @Test func runTurnsItOnWhileItRunsAndBackOff() throws {
        let s = try DesktopSession()
        defer { s.close() }
        try s.startTestApp()
        setEnabled(s, false)
        let log = NSTemporaryDirectory() + "switchscan-isenabled-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let get = (Self.launcher + ["org.freedesktop.DBus.Properties.Get", "string:org.a11y.Status", "string:IsEnabled"]).joined(separator: " ")
        try s.start(["/bin/sh", "-c", "while :; do \(get) | grep -o 'boolean [a-z]*' >> \(log); sleep 0.05; done"])
        usleep(200_000)
        let r = s.live(scenario: "wait running\nsleep 800\nsignal INT\n",
                       ["run", "--desktop", "--app", "testapp.py", "--no-show", "--profile", DesktopSession.twoSwitchProfile])
        #expect(r.status == 0, "\(r.stderr)")
        usleep(300_000)
        let seen = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { $0 == "boolean true" }
        // Off, then on (the run), then off: exactly one stretch of "on".
        let changes = zip(seen, seen.dropFirst()).filter { $0 != $1 }.count
        #expect(seen.first == false && seen.last == false && seen.contains(true) && changes == 2, "\(seen)")
    }

    /// Already on (another assistive technology turned it on): it stays on after switchscan.
    @Test func leftOnWhenItWasOn() throws {
        let s = try DesktopSession()
        defer { s.close() }
        try s.startTestApp()
        setEnabled(s, true)
        #expect(s.switchscan(["tree", "show", "--desktop", "--app", "testapp.py"]).status == 0)
        #expect(isEnabled(s) == true)
    }
}
