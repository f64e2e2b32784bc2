import Foundation
import Testing

/// The Scroll page on a GTK 3 list (issue 19: "a list, a text view"), through the real `switchscan
/// run --desktop` under umockdev (Fixtures/listapp.py: 100 rows in a scrolled tree view, twelve in
/// view): the pane is paged through its scroll bar's Value, what the list shows is read back through
/// pyatspi, and scanning goes on at the first row now in view. (The web page's Scroll page is in
/// WebLiveTests.)
@Suite(.serialized)
struct ScrollLiveTests {
    static let app = DesktopSession.fixtures + "/listapp.py"
    static let args = ["run", "--desktop", "--app", "listapp.py", "--profile", DesktopSession.fixtures + "/profile-two-switch.json",
                       "--format", "jsonl", "--no-show"]

    /// The rows with a frame (in view), from `tree show`.
    static func rowsInView(_ s: DesktopSession) -> [String] {
        let r = s.switchscan(["tree", "show", "--desktop", "--app", "listapp.py", "--format", "json"])
        guard let items = WebItems(json: r.stdout) else { return [] }
        return items.items.filter { $0.frame != nil && $0.label.hasPrefix("Row ") }.map(\.label)
    }

    @Test func theScrollPagePagesAGtkListAndScanningGoesOnInIt() throws {
        let s = try DesktopSession(watchdog: 180)
        defer { s.close() }
        try s.start([Self.app])
        try s.waitFor("listapp.py")
        #expect(Self.rowsInView(s).first == "Row 1", "\(Self.rowsInView(s))")
        #expect(s.state("listapp.py")["Rows scroll bar"]?["value"] as? Double == 0)

        // The first row's menu has Scroll (its list is in a scroll pane); which entry it is.
        let probe = s.live(scenario: Keys.started + Keys.next(1) + Keys.menu + Keys.settled, Self.args)
        let top = try #require(probe.lines("menu").first?["items"] as? [String], "\(probe.stdout)")
        let scroll = try #require(top.firstIndex(of: "menu:scroll"), "\(top)")

        // Menu, Scroll, Down: the pane pages down, and the highlight goes on at a row now in view.
        // Until the highlight is on a row other than the first, after the page (6 s at most).
        let paged = s.live(scenario: Keys.started + Keys.next(1) + Keys.menu + Keys.next(scroll) + Keys.select
                           + "mark\n" + Keys.select + #"expect "type":"highlight","id":"[^"]*","label":"Row (?!1,)"# + "\n" + Keys.settled, Self.args)
        #expect(paged.lines("menu").contains { $0["submenu"] as? String == "menu:scroll" }, "\(paged.stdout)")
        #expect(paged.results.count == 1 && paged.results[0].hasPrefix("scroll done"), "\(paged.stdout)")
        let value = s.state("listapp.py")["Rows scroll bar"]?["value"] as? Double ?? 0
        #expect(value > 0, "the scroll bar did not move")
        let inView = Self.rowsInView(s)
        #expect(!inView.contains("Row 1") && inView.contains("Row 14"), "\(inView)")
        let now = paged.lines("highlight").last.flatMap { $0["label"] as? String } ?? ""
        #expect(inView.contains(String(now.split(separator: ",")[0])) && now != "Row 1", "\(paged.stdout)")
    }
}
