import Foundation
import SwitchCore
import Testing

/// GTK 4.8 (Debian 12) on the headless desktop (issue 19): gnome-calculator 43, which GTK 4's own
/// bridge publishes without SHOWING below its window, with type names, doubled names and extents
/// relative to the window. One desktop for the suite's one test (a GTK 4 application takes
/// seconds to start). GSK_RENDERER=cairo: GTK 4's GL renderer on Xvfb's software GL takes tens of
/// seconds to show a window on a loaded machine.
@Suite(.serialized)
struct Gtk4LiveTests {
    /// The calculator's window is moved away from (0, 0) (no window manager: xdotool moves it);
    /// its keys are scan items with their real names once, and with screen frames: a real click
    /// at the centre of "7"'s frame types 7. Then a umockdev switch computes 2 + 3 by presses
    /// alone (Space moves, Enter selects), and the display, read back through pyatspi, says 5.
    @Test func calculatorIsScannedAndComputesTwoPlusThree() throws {
        let s = try DesktopSession(needs: Gtk4Apps.needs)
        defer { s.close() }
        try s.start(["/usr/bin/gnome-calculator"], env: ["GSK_RENDERER": "cairo"])
        try s.waitFor("gnome-calculator")
        let moved = s.run(["/usr/bin/xdotool", "search", "--sync", "--name", "^Calculator$", "windowmove", "--sync", "300", "200"], timeout: 30)
        #expect(moved.status == 0, "\(moved.stderr)")
        let window = try #require(Gtk4Apps.windowRect(s, name: "Calculator"))
        #expect(window.x == 300 && window.y == 200, "\(window)")

        let shown = s.switchscan(["tree", "show", "--desktop", "--app", "gnome-calculator", "--format", "json"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        let items = try #require(json["items"] as? [[String: Any]])
        let labels = items.map { ($0["description"] as? String ?? "").components(separatedBy: ", ")[0] }
        // Every key once, by its name (not "2 2", not "GtkButton"); the display (unnamed) first.
        #expect(labels == ["Undo", "Basic", "Primary menu", "Minimize", "Maximize", "Close", "",
                           "Clear Display", "(", ")", "mod", "Pi", "7", "8", "9", "÷", "√", "4", "5", "6", "×", "Square",
                           "1", "2", "3", "−", "=", "0", ".", "%", "+"], "\(shown.stdout)")
        // Screen frames: inside the moved window.
        let frames = items.compactMap { $0["frame"] as? [Double] }
        #expect(frames.count == items.count)
        #expect(frames.allSatisfy { f in f[0] >= window.x && f[1] >= window.y && f[0] + f[2] <= window.maxX && f[1] + f[3] <= window.maxY }, "\(frames)")
        let seven = try #require(labels.firstIndex(of: "7"))
        let f = frames[seven]
        let click = s.run(["/usr/bin/xdotool", "mousemove", "--sync", String(Int(f[0] + f[2] / 2)), String(Int(f[1] + f[3] / 2)), "click", "1"], timeout: 30)
        #expect(click.status == 0, "\(click.stderr)")
        #expect(Gtk4Apps.display(s) == "7", "a click at the centre of 7's frame did not press 7")

        // 2 + 3 = by presses alone: Clear Display, 2, +, 3, = (each reached by Space from where the
        // highlight rests: on the item just tapped).
        let order = ["Clear Display", "2", "+", "3", "="].map { labels.firstIndex(of: $0)! }
        var scenario = Keys.started
        var at = 0
        for k in order {
            scenario += Keys.next((k - at + labels.count) % labels.count) + Keys.select
            at = k
        }
        scenario += Keys.settled
        let r = s.live(scenario: scenario, ["run", "--desktop", "--app", "gnome-calculator", "--profile", DesktopSession.twoSwitchProfile,
                                            "--format", "jsonl", "--no-show"], timeout: 120)
        #expect(r.status == 0, "\(r.stderr)")
        let results = r.lines("result").map { "\($0["label"] ?? "") \($0["result"] ?? "") \($0["how"] ?? $0["reason"] ?? "")" }
        #expect(results == ["Clear Display, button done action \"Click\"", "2, button done action \"Click\"", "+, button, Add [+] done action \"Click\"",
                            "3, button done action \"Click\"", "=, button, Calculate Result done action \"Click\""], "\(r.stdout)")
        #expect(Gtk4Apps.display(s) == "5", "\(s.state("gnome-calculator", visibleIsEnough: true))")
    }
}

enum Gtk4Apps {
    static let needs = ["/usr/bin/gnome-calculator", "/usr/bin/xdotool", "/usr/bin/xwininfo"]

    /// The calculator's display (its one editable text, which GTK 4.8 names "GtkSourceView"), through pyatspi.
    static func display(_ s: DesktopSession) -> String? {
        s.state("gnome-calculator", visibleIsEnough: true)["GtkSourceView"]?["text"] as? String
    }

    /// A top-level window's rectangle on the screen (xwininfo).
    static func windowRect(_ s: DesktopSession, name: String) -> Rect? {
        let r = s.run(["/usr/bin/xwininfo", "-name", name], timeout: 30)
        func field(_ key: String) -> Double? {
            r.stdoutLines.first { $0.contains(key) }.flatMap { Double($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
        }
        guard let x = field("Absolute upper-left X"), let y = field("Absolute upper-left Y"), let w = field("Width"), let h = field("Height") else { return nil }
        return Rect(x: x, y: y, width: w, height: h)
    }
}
