import Foundation
import Testing

/// An unknown Wayland compositor (issue 30's "elsewhere": Weston's environment, the X11 test
/// desktop's accessibility bus): `run --desktop` says no highlight can be drawn, turns speech on
/// instead of the overlay it would show by default, and a switch press still activates the
/// button through AT-SPI (DoAction needs no display). The uinput fallback for the pointer and keys
/// needs a writable /dev/uinput (the VM suite's); here the note says it is not.
@Suite(.serialized)
struct ElsewhereLiveTests {
    static let weston = ["WAYLAND_DISPLAY": "wayland-elsewhere", "XDG_CURRENT_DESKTOP": "weston", "SWAYSOCK": ""]

    @Test func anUnknownCompositorSpeaksInsteadOfDrawingAndActionsStillWork() throws {
        let s = try DesktopSession()
        defer { s.close() }
        try s.startTestApp()
        let r = s.live(scenario: "wait running\nexpect \"type\":\"highlight\"\nsleep 60\nmark\n" + Keys.tap("ENTER", thenWait: 0)
                       + "expect \"type\":\"result\"\nsettle\nsignal INT\n",
                       ["run", "--desktop", "--app", "testapp.py", "--profile", DesktopSession.twoSwitchProfile, "--format", "jsonl"],
                       env: Self.weston)
        #expect(r.status == 0, "\(r.stderr)")
        let notes = r.stderr.split(separator: "\n").map(String.init)
        #expect(notes.contains { $0.hasPrefix("switchscan: display: none (a Wayland session whose compositor switchscan has no backend for: XDG_CURRENT_DESKTOP=weston") },
                "\(r.stderr)")
        #expect(notes.contains { $0.hasPrefix("switchscan: display: no highlight can be drawn on this compositor") })
        #expect(notes.contains("switchscan: speech is on: nothing can be drawn on this display"), "\(r.stderr)")
        #expect(notes.contains { $0.hasPrefix("switchscan: speaking through speech-dispatcher") || $0.contains("scanning goes on without speech and without a highlight") })
        #expect(!r.stderr.contains("showing the highlight"))
        let results = r.lines("result").map { "\($0["action"] ?? "") \($0["result"] ?? "") \($0["how"] ?? $0["reason"] ?? "")" }
        #expect(results == ["activate done action \"Click\""], "\(r.stdout)")
        #expect(s.state()["Clicked 1 times"] != nil)
        // --show asks for the highlight: refused, with the reason.
        let shown = s.run([DesktopSession.binary, "run", "--desktop", "--show", "--profile", DesktopSession.twoSwitchProfile, "--until", "1"], env: Self.weston)
        #expect(shown.status == 2)
        #expect(shown.stderr.hasSuffix("switchscan: error: --show: no highlight can be drawn on this Wayland compositor (a Wayland session whose compositor switchscan has no backend for: XDG_CURRENT_DESKTOP=weston, WAYLAND_DISPLAY=wayland-elsewhere; DISPLAY=\(s.environment["DISPLAY"] ?? "") is Xwayland's, for X11 applications only); --no-show scans with speech\n"),
                "\(shown.stderr)")
    }
}
