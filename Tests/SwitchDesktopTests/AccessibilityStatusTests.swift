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

    /// Until `condition` holds, at most `seconds` (then a failure that says so).
    static func until(_ seconds: Double, _ condition: () -> Bool) throws {
        let end = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > end { throw DesktopSession.SessionError("not within \(seconds) s") }
            usleep(20_000)
        }
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
        // The watcher saw it off, then on while the run runs, then off again after it.
        func logged() -> [Bool] { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map { $0 == "boolean true" } }
        try Self.until(10) { logged().first == false }
        let r = s.live(scenario: "wait running\nwaitfile \(log) boolean true\nsignal INT\n",
                       ["run", "--desktop", "--app", "testapp.py", "--no-show", "--profile", DesktopSession.twoSwitchProfile])
        #expect(r.status == 0, "\(r.stderr)")
        try Self.until(10) { logged().contains(true) && logged().last == false }
        let seen = logged()
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
