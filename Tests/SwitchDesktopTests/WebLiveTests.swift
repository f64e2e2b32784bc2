import Foundation
import SwitchCore
import Testing

/// Web content in Debian's Chromium and Firefox ESR on the headless desktop (issue 19), on the
/// project's pages (Fixtures/web: a form with landmarks, a dialog, a long list that needs
/// scrolling). One desktop and one browser per test (a browser takes seconds to start); each step
/// is a separate `switchscan run` under umockdev that moves to an item from the first and selects
/// it, and what the page did is read back through pyatspi (Fixtures/atspi-check.py), not from
/// the transcript.
@Suite(.serialized)
struct WebLiveTests {
    /// The form page's scan items, in document order: every link, field, check box, radio button,
    /// select, slider, button, summary and tab once (no link text, label or bullet of its own).
    static let formItems = ["Home", "News", "Contact", "Name", "Gift wrap", "Post", "Courier", "Size", "Volume", "Note", "Send",
                            "Shipping details", "List view", "Grid view", "Open dialog", "About"]

    @Test(arguments: WebBrowser.allCases)
    func pagesAreMappedAndOperated(_ browser: WebBrowser) throws {
        let s = try DesktopSession(watchdog: 300, needs: browser.needs)
        defer { s.close() }
        try browser.start(s, page: "form.html")

        // 1. The form's items exactly once, each with a frame inside the viewport.
        // Firefox works out a new page's bounds a moment after it shows it (until then its nodes are
        // VISIBLE without SHOWING, and (-1, -1, -1, -1)): wait for the frames, then check them all.
        let form = try browser.waitForItems(s, containing: "About", framed: Self.formItems)
        let slice = try #require(form.webSlice(from: "Home", to: "About"), "\(form.labels)")
        #expect(slice.map(\.label) == Self.formItems, "\(form.labels)")
        let viewport = try #require(browser.viewport(s, title: "Switch test form"), "no document group with a frame")
        for item in slice {
            let f = try #require(item.frame, "\(item.label) has no frame")
            #expect(f.x >= viewport.x && f.y >= viewport.y && f.maxX <= viewport.maxX && f.maxY <= viewport.maxY,
                    "\(item.label) \(f) outside the viewport \(viewport)")
        }
        #expect(Set(form.items.map(\.id)).count == form.items.count, "an item twice")

        // 2. A check box is checked.
        let check = s.select(try #require(form.index(of: "Gift wrap"), "\(form.labels)"), of: form.items.count, app: browser.appName)
        #expect(check.results == ["activate done action \"check\""], "\(check.stdout)")
        #expect(browser.states(s, "Gift wrap").contains("checked"), "\(s.state(browser.appName))")

        // 3. A select changes its value: opened by one run, its option chosen by the next.
        let opened = s.select(try #require(form.index(of: "Size"), "\(form.labels)"), of: form.items.count, app: browser.appName)
        #expect(opened.results.count == 1 && opened.results[0].hasPrefix("activate done"), "\(opened.stdout)")
        let open = try browser.waitForItems(s, containing: "Medium")
        let chose = s.select(try #require(open.index(of: "Medium"), "\(open.labels)"), of: open.items.count, app: browser.appName)
        #expect(chose.results.count == 1 && chose.results[0].hasPrefix("activate done"), "\(chose.stdout)")
        #expect(browser.selectedOption(s) == "Medium", "\(s.state(browser.appName))")

        // 4. A link is followed, and the new page is read back.
        let home = try browser.waitForItems(s, containing: "Home")
        let follow = s.select(try #require(home.index(of: "Home"), "\(home.labels)"), of: home.items.count, app: browser.appName)
        #expect(follow.results == ["activate done action \"jump\""], "\(follow.stdout)")
        let second = try browser.waitForItems(s, containing: "A long page")
        #expect(second.labels.contains("Back to the form"))
        #expect(s.state(browser.appName)["Second page"] != nil, "the new page is not on the bus")

        // 5. A link out of view on a long page is scrolled into view and followed. The long page
        //    is reached by a link too (no typing in the address bar, whose focus a test can only guess).
        let toLong = s.select(try #require(second.index(of: "A long page"), "\(second.labels)"), of: second.items.count, app: browser.appName)
        #expect(toLong.results == ["activate done action \"jump\""], "\(toLong.stdout)")
        let long = try browser.waitForItems(s, containing: "The end")
        // 6. The Scroll page pages the document down: what shows now is further down the page,
        //    and scanning goes on at the first item now in view. The run ends once a highlight on
        //    another item than the first has come after Scroll down (the highlight follows a
        //    scroll for 6 s: the page's read after it takes longer on a loaded machine), or 30 s.
        let first = try #require(long.index(of: "Item 1.1"), "\(long.labels)")
        let top = ["menu:tap", "menu:gestures", "menu:device", "menu:shortcuts", "menu:settings", "menu:scroll", "menu:escape", "menu:close"]
        let followed = #"expect "type":"highlight","id":"[^"]*","label":"Item (?!1\.1,)"#
        let paged = s.live(scenario: Keys.pageRead + Keys.next(first) + Keys.menu + Keys.next(top.firstIndex(of: "menu:scroll")!)
                           + Keys.select + "mark\n" + Keys.select + followed + "\n" + Keys.settled,
                           ["run", "--desktop", "--app", browser.appName, "--profile", DesktopSession.webProfile, "--format", "jsonl", "--no-show"],
                           timeout: 120, env: Keys.trace)
        #expect(paged.lines("menu").first?["items"] as? [String] == top, "\(paged.stdout)")
        #expect(paged.results == ["scroll done scrolled a page down"], "\(paged.stdout)")
        let now = paged.lines("highlight").last.flatMap { $0["label"] as? String } ?? ""
        #expect(now.hasPrefix("Item ") && !now.hasPrefix("Item 1.1,"), "\(paged.stdout)")
        let shown = s.state(browser.appName)
        #expect(shown["Item 1.1"] == nil && shown[String(now.split(separator: ",")[0])] != nil, "not paged down: \(shown.keys.sorted())")
        let far = try #require(long.items.first { $0.label == "Item 12.15" }, "\(long.labels)")
        #expect(long.items.first { $0.label == "Item 1.1" }?.frame != nil, "Item 1.1 should be on screen")
        #expect(far.frame == nil, "Item 12.15 should be out of view")
        #expect(long.items.filter { $0.label.hasPrefix("Item ") }.count == 180, "the whole page: 12 sections of 15")
        let scrolled = s.select(try #require(long.index(of: "Item 12.15"), "\(long.labels)"), of: long.items.count, app: browser.appName)
        #expect(scrolled.results == ["activate done scrolled into view + action \"jump\""], "\(scrolled.stdout)")
        _ = try browser.waitForItems(s, containing: "Back to the form")
        #expect(s.state(browser.appName)["Second page"] != nil)
    }
}

/// A browser on the headless desktop.
enum WebBrowser: String, CaseIterable, CustomTestStringConvertible {
    case chromium, firefox

    var testDescription: String { rawValue }

    /// What a web test needs besides the desktop (scripts/apt/test-desktop-apps.list).
    var needs: [String] { [self == .chromium ? "/usr/bin/chromium" : "/usr/bin/firefox-esr"] }

    static let pages = DesktopSession.fixtures + "/web"

    /// Its application's name on the accessibility bus.
    var appName: String { self == .chromium ? "Chromium" : "Firefox" }

    /// Starts the browser on `page` and waits until it is on the bus; its process (/usr/bin/chromium
    /// execs the browser's main process, which answers on the bus).
    @discardableResult
    func start(_ s: DesktopSession, page: String) throws -> Process {
        let profile = NSTemporaryDirectory() + "switchscan-\(rawValue)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        let url = "file://" + WebBrowser.pages + "/" + page
        let p: Process
        switch self {
        case .chromium:
            p = try s.start(["/usr/bin/chromium", "--no-sandbox", "--force-renderer-accessibility", "--no-first-run", "--disable-gpu",
                             "--user-data-dir=" + profile, "--window-size=1600,900", url])
        case .firefox:
            p = try s.start(["/usr/bin/firefox-esr", "--no-remote", "--profile", profile, "--width", "1600", "--height", "900", url])
        }
        try s.waitFor(appName)
        return p
    }

    /// The scan items once `label` is among them (the browser is loading: up to 30 s), and the
    /// items labelled `framed` have frames.
    func waitForItems(_ s: DesktopSession, containing label: String, framed: [String] = []) throws -> WebItems {
        var last = WebItems(items: [])
        for _ in 0..<60 {
            let r = s.switchscan(["tree", "show", "--desktop", "--app", appName, "--format", "json"])
            if r.status == 0, let items = WebItems(json: r.stdout) {
                last = items
                if items.labels.contains(label), framed.allSatisfy({ f in items.items.contains { $0.label == f && $0.frame != nil } }) {
                    return items
                }
            }
            usleep(500_000)
        }
        return last
    }

    /// The frame of the page's group (the document: its viewport), from `tree dump`.
    func viewport(_ s: DesktopSession, title: String) -> Rect? {
        let r = s.switchscan(["tree", "dump", "--desktop", "--app", appName])
        guard let obj = try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any],
              let root = obj["root"] as? [String: Any] else { return nil }
        var stack = [root]
        while let e = stack.popLast() {
            if (e["label"] as? String) == title, e["shouldGroupChildren"] as? Bool == true, let f = e["frame"] as? [Double], f.count == 4 {
                return Rect(x: f[0], y: f[1], width: f[2], height: f[3])
            }
            stack += e["children"] as? [[String: Any]] ?? []
        }
        return nil
    }

    /// A named node's states, through pyatspi.
    func states(_ s: DesktopSession, _ name: String) -> [String] {
        s.state(appName)[name]?["states"] as? [String] ?? []
    }

    /// The select's chosen option (its option with SELECTED, through pyatspi).
    func selectedOption(_ s: DesktopSession) -> String? {
        for line in s.run([DesktopSession.checker, "state", appName], timeout: 30).stdoutLines {
            guard let obj = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  obj["role"] as? String == "combo box", obj["name"] as? String == "Size" else { continue }
            return obj["selected"] as? String
        }
        return nil
    }
}

/// `tree show --format json`'s items, read for the web tests.
struct WebItems {
    struct Item {
        var id: String
        var label: String
        var frame: Rect?
    }

    var items: [Item]

    init(items: [Item]) {
        self.items = items
    }

    init?(json: String) {
        guard let obj = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return nil }
        func rect(_ a: Any?) -> Rect? {
            guard let f = a as? [Double], f.count == 4 else { return nil }
            return Rect(x: f[0], y: f[1], width: f[2], height: f[3])
        }
        items = (obj["items"] as? [[String: Any]] ?? []).map { i in
            Item(id: i["id"] as? String ?? "", label: (i["description"] as? String ?? "").components(separatedBy: ", ")[0], frame: rect(i["frame"]))
        }
    }

    var labels: [String] { items.map(\.label) }

    /// Index in scan order (from 0) of the item labelled `label`.
    func index(of label: String) -> Int? { items.firstIndex { $0.label == label } }

    func webSlice(from first: String, to last: String) -> ArraySlice<Item>? {
        guard let a = index(of: first), let b = items.lastIndex(where: { $0.label == last }), a <= b else { return nil }
        return items[a...b]
    }

}

extension DesktopSession {
    static let webProfile = fixtures + "/profile-web.json"

    /// One `switchscan run --desktop` that selects item `index` of `count`: Next from the first
    /// item, or Previous round the end when that is shorter (profile-web.json), once the page is
    /// read whole (a page's whole read arrives after what shows of it).
    func select(_ index: Int, of count: Int, app: String) -> Result {
        live(scenario: Keys.pageRead + Keys.to(index, of: count) + Keys.select + Keys.settled,
             ["run", "--desktop", "--app", app, "--profile", DesktopSession.webProfile, "--format", "jsonl", "--no-show"],
             timeout: 120, env: Keys.trace)
    }
}

extension DesktopSession.Result {
    /// "action outcome how-or-why" of each result line.
    var results: [String] {
        lines("result").map { "\($0["action"] ?? "") \($0["result"] ?? "") \($0["how"] ?? $0["reason"] ?? "")" }
    }
}
