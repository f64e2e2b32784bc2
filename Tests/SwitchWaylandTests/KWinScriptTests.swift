import SwitchCore
import SwitchDisplay
@testable import SwitchDisplayServers
import Testing

/// The KWin backend's pure parts: the script's window report read (and refused with the place
/// that is wrong), the window table (ids, the pager's list, origins by process), the request
/// queue's long poll (its timelines, named as in KWinRequestQueue.swift's header), and the choice
/// of the script's object by KWin's version (KWin 6's path cannot be run here: Debian 12 has 5.27).
struct KWinScriptTests {
    /// A report as KWin 5.27.5 sent it under run-kwin.sh --app gtk3 (SWITCHSCAN_DESKTOP_TRACE), while
    /// `run --desktop` showed its overlay: KWin reports the overlay's layer surface as a normal
    /// window of switchscan's process without a caption. No decorations in the bare headless KWin:
    /// buffer = frame.
    static let captured = """
        [{"id":"{4e6599a6-82b9-465a-a390-a5117da102a9}","pid":26377,"caption":"GTK3 test","resourceClass":"testapp.py","active":true,\
        "type":"normal","buffer":{"x":400,"y":100,"w":480,"h":600},"frame":{"x":400,"y":100,"w":480,"h":600},"client":null},\
        {"id":"{f03035b1-aa4e-497c-8638-c33bf190e743}","pid":26404,"caption":"","resourceClass":"switchscan","active":false,\
        "type":"normal","buffer":{"x":0,"y":0,"w":1280,"h":800},"frame":{"x":0,"y":0,"w":1280,"h":800},"client":null}]
        """

    /// Made by hand on the captured report's shape: decorations (frame above the buffer), a
    /// client area, a popup of the first process.
    static let report = """
        [{"id":"{a1}","pid":4242,"caption":"testapp.py","resourceClass":"testapp.py","active":false,"type":"normal",\
        "buffer":{"x":100,"y":80,"w":532,"h":400},"frame":{"x":100,"y":50,"w":532,"h":430},"client":{"x":100,"y":80,"w":532,"h":400}},\
        {"id":"{b2}","pid":4243,"caption":"Qt 5 test","resourceClass":"python3","active":true,"type":"normal",\
        "buffer":{"x":700,"y":130,"w":400,"h":300},"frame":{"x":700,"y":100,"w":400,"h":330},"client":null},\
        {"id":"{c3}","pid":4242,"caption":"","resourceClass":"testapp.py","active":false,"type":"popup",\
        "buffer":{"x":140,"y":200,"w":120,"h":90},"frame":{"x":140,"y":200,"w":120,"h":90},"client":null}]
        """

    @Test func capturedReportWithoutSwitchscansOwnOverlay() throws {
        let windows = try KWinWindowReport.parse(Self.captured).get()
        #expect(windows.count == 2 && windows[1].resourceClass == "switchscan")
        var table = KWinWindowTable(ownPid: 26404)
        table.update(windows)
        #expect(table.list.map(\.title) == ["GTK3 test"])
        #expect(table.list.map(\.frame) == [Self.rect(400, 100, 480, 600)])
        #expect(table.active == table.list.first?.id)
        #expect(table.origin(pid: 26377, title: "GTK3 test", size: Size(width: 480, height: 600)) == Point(x: 400, y: 100))
        #expect(table.origin(pid: 26404, title: "", size: nil) == nil)
    }

    static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect { Rect(x: x, y: y, width: w, height: h) }

    @Test func reportReadsEveryWindowInStackingOrder() throws {
        let windows = try KWinWindowReport.parse(Self.report).get()
        #expect(windows.map(\.id) == ["{a1}", "{b2}", "{c3}"])
        #expect(windows[0] == KWinWindow(id: "{a1}", pid: 4242, caption: "testapp.py", resourceClass: "testapp.py", active: false, type: "normal",
                                         buffer: Self.rect(100, 80, 532, 400), frame: Self.rect(100, 50, 532, 430),
                                         client: Self.rect(100, 80, 532, 400)))
        #expect(windows[1].client == nil && windows[1].active)
        #expect(windows.map(\.isListed) == [true, true, false])
        #expect(try KWinWindowReport.parse("[]").get().isEmpty)
    }

    @Test func badReportsNameThePlace() {
        func error(_ text: String) -> String? {
            if case .failure(let f) = KWinWindowReport.parse(text) { return f.description }
            return nil
        }
        #expect(error("{") == "the KWin script's window report is not JSON: {")
        #expect(error(#"[{"id":"x","pid":1,"caption":"c"}]"#) == "the KWin script's window report: [0].buffer: missing")
        #expect(error(#"[{"id":"x","pid":"1","caption":"c","buffer":{"x":0,"y":0,"w":1,"h":1}}]"#)
                == "the KWin script's window report: [0].pid: expected Int32")
        #expect(error(#"[{"id":"x","pid":1,"caption":"c","buffer":{"x":0,"y":0,"w":null,"h":1}}]"#)
                == "the KWin script's window report: [0].buffer.w: expected Double, got null")
        #expect(error(String(repeating: " ", count: KWinWindowReport.maxBytes + 1)) != nil)
    }

    @Test func tableGivesIdsListAndActive() throws {
        var table = KWinWindowTable()
        let first = table.update(try KWinWindowReport.parse(Self.report).get())
        let same = table.update(try KWinWindowReport.parse(Self.report).get())
        #expect(first && !same)
        let list = table.list
        #expect(list.map(\.id.description) == ["kwin:0x1", "kwin:0x2"])
        #expect(list.map(\.title) == ["testapp.py", "Qt 5 test"])
        #expect(list[0].frame == Self.rect(100, 80, 532, 400) && list[1].frame == Self.rect(700, 130, 400, 300))
        #expect(table.active?.description == "kwin:0x2")
        #expect(table.uuid(of: list[1].id) == "{b2}")
        #expect(table.uuid(of: DisplayWindowID(backend: "x11", number: 2)) == nil)
        // A window gone and one new: the numbers already given stay.
        let later = try KWinWindowReport.parse(#"[{"id":"{d4}","pid":9,"caption":"new","type":"normal","buffer":{"x":0,"y":0,"w":10,"h":10}},"#
            + #"{"id":"{b2}","pid":4243,"caption":"Qt 5 test","type":"dialog","buffer":{"x":700,"y":130,"w":400,"h":300}}]"#).get()
        let changed = table.update(later)
        #expect(changed)
        #expect(table.list.map(\.id.description) == ["kwin:0x4", "kwin:0x2"])
        #expect(table.active == nil)
    }

    @Test func originsByProcessThenCaptionThenSize() throws {
        var table = KWinWindowTable()
        table.update(try KWinWindowReport.parse(Self.report).get())
        // GTK 3: AT-SPI's top-level is the buffer.
        #expect(table.origin(pid: 4242, title: "testapp.py", size: Size(width: 532, height: 400)) == Point(x: 100, y: 80))
        // Its popup (no caption) found by its size.
        #expect(table.origin(pid: 4242, title: "", size: Size(width: 120, height: 90)) == Point(x: 140, y: 200))
        // Qt 5: a filler without a title; the process's only window.
        #expect(table.origin(pid: 4243, title: "", size: Size(width: 400, height: 300)) == Point(x: 700, y: 130))
        #expect(table.origin(pid: 1, title: "testapp.py", size: nil) == nil)
    }

    // MARK: The request queue (timelines of KWinRequestQueue.swift)

    typealias Queue = KWinRequestQueue<String>

    @Test func idle_answer() {
        var q = Queue()
        let none = q.poll("call-1", at: 1_000)
        #expect(none.isEmpty)
        #expect(q.deadline == 1_000 + Queue.idleAnswer)
        let early = q.tick(at: 1_000 + Queue.idleAnswer - 1)
        #expect(early.isEmpty)
        let a = q.tick(at: 1_000 + Queue.idleAnswer)
        #expect(a.map(\.call) == ["call-1"] && a.map(\.text) == [""])
        #expect(q.deadline == nil && q.waiting == nil)
        let later = q.tick(at: 99_000_000)
        #expect(later.isEmpty)
    }

    @Test func request_waiting() {
        var q = Queue()
        _ = q.poll("call-1", at: 0)
        let (serial, answers) = q.ask(.activate, window: "{b2}", at: 5)
        #expect(serial == 1)
        #expect(answers.map(\.call) == ["call-1"])
        #expect(answers.map(\.text) == [#"{"id":"{b2}","op":"activate","serial":1}"#])
        #expect(q.deadline == nil && q.unpicked == nil)
        let done = q.result(serial: "1", found: true), again = q.result(serial: "1", found: true)
        #expect(done == Queue.Request(serial: 1, op: .activate, window: "{b2}"))
        #expect(again == nil)
    }

    @Test func request_queued() {
        var q = Queue()
        let (s1, none1) = q.ask(.close, window: "{a1}", at: 10)
        let (s2, none2) = q.ask(.activate, window: "{b\"2}", at: 20)
        #expect(none1.isEmpty && none2.isEmpty && (s1, s2) == (1, 2))
        #expect(q.unpicked == 10)
        let first = q.poll("call-1", at: 30)
        #expect(first.map(\.text) == [#"{"id":"{a1}","op":"close","serial":1}"#])
        #expect(q.unpicked == 20)
        let second = q.poll("call-2", at: 40)
        #expect(second.map(\.text) == [#"{"id":"{b\"2}","op":"activate","serial":2}"#])
        #expect(q.unpicked == nil && q.waiting == nil)
        let notANumber = q.result(serial: "x", found: true), second2 = q.result(serial: "2", found: false)
        #expect(notANumber == nil)
        #expect(second2?.op == .activate)
    }

    @Test func reloaded() {
        var q = Queue()
        _ = q.poll("old", at: 0)
        let a = q.poll("new", at: 50)
        #expect(a.map(\.call) == ["old"] && a.map(\.text) == [""])
        #expect(q.waiting?.call == "new" && q.deadline == 50 + Queue.idleAnswer)
    }

    @Test func unanswered() {
        var q = Queue()
        _ = q.ask(.activate, window: "{a1}", at: 7)
        #expect(q.unpicked == 7)
        let dropped = q.dropQueued()
        #expect(dropped.map(\.serial) == [1])
        #expect(q.unpicked == nil)
        let answers = q.poll("call", at: 9)
        #expect(answers.isEmpty)
    }

    // MARK: The script's object by KWin's version

    @Test func scriptObjectByKWinVersion() {
        let five = """
            KWin Support Information:
            The following information should be used when requesting support on e.g. https://forum.kde.org.

            Version
            =======
            KWin version: 5.27.5
            Qt Version: 5.15.8
            """
        let six = "Version\n=======\nKWin version: 6.0.3\nQt Version: 6.6.2\n"
        #expect(KWinScript.majorVersion(supportInformation: five[...]) == 5)
        #expect(KWinScript.majorVersion(supportInformation: six[...]) == 6)
        #expect(KWinScript.majorVersion(supportInformation: "nothing here") == nil)
        #expect(KWinScript.scriptObjects(id: 3, kwinMajor: 5) == ["/3"])
        #expect(KWinScript.scriptObjects(id: 3, kwinMajor: 6) == ["/Scripting/Script3"])
        #expect(KWinScript.scriptObjects(id: 0, kwinMajor: nil) == ["/Scripting/Script0", "/0"])
    }
}

extension KWinScriptTests {
    @Test func scriptFoundByEnvironmentInstallOrCheckout() {
        let files: Set<String> = ["/usr/share/switchscan/kwin/switchscan-windows.js", "/src/sw/packaging/kwin/switchscan-windows.js"]
        func find(_ env: [String: String] = [:], exe: String?) -> String? {
            KWinScript.locate(environment: env, executable: exe, exists: files.contains)
        }
        #expect(find(["SWITCHSCAN_KWIN_SCRIPT": "/tmp/x.js"], exe: "/usr/bin/switchscan") == "/tmp/x.js")
        #expect(find(exe: "/usr/bin/switchscan") == "/usr/share/switchscan/kwin/switchscan-windows.js")
        #expect(find(exe: "/src/sw/.build/x86_64-unknown-linux-gnu/debug/switchscan") == "/src/sw/packaging/kwin/switchscan-windows.js")
        #expect(find(exe: "/opt/elsewhere/bin/switchscan") == nil)
        #expect(find(exe: nil) == nil)
    }
}
