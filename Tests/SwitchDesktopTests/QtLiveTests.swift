import Foundation
import Testing

/// Qt 5 applications nobody here wrote (Debian's qtbase5-examples), on the same headless desktop as
/// DesktopLiveTests. Qt's AT-SPI bridge differs from GTK's in two ways the reader must survive:
/// it crashes on `Properties.GetAll` (it reads a second argument GetAll does not have), and it
/// lists the Action interface on every object, labels and panes included, most with no action.
@Suite(.serialized)
struct QtLiveTests {
    /// A Qt example, once it is on the bus (the headless desktop's environment turns Qt's bridge
    /// on: run-desktop.sh).
    func startQt(_ s: DesktopSession, _ example: String) throws -> Process {
        let name = (example as NSString).lastPathComponent
        let p = try s.start([QtExamples.directory + "/" + example])
        try s.waitFor(name)
        return p
    }

    /// The calculator is read whole, keeps running, and a switch press on "7" reaches it: its
    /// display, read back through pyatspi, says 7.
    @Test func calculatorIsReadAndOperatedWithoutCrashingIt() throws {
        let s = try DesktopSession(needs: QtExamples.needs)
        defer { s.close() }
        let app = try startQt(s, "calculator/calculator")
        let shown = s.switchscan(["tree", "show", "--desktop", "--app", "calculator"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(app.isRunning, "the calculator quit while it was read")
        let labels = shown.stdoutLines.dropFirst().map { line in
            line.split(separator: "\"", omittingEmptySubsequences: false).dropFirst().first.map(String.init) ?? line
        }
        #expect(shown.stdoutLines.first == "28 scan items, 0 groups, screen 1600×900")
        #expect(labels == ["0", "Backspace, button", "Clear, button", "Clear All, button",
                           "MC, button", "7, button", "8, button", "9, button", "÷, button", "Sqrt, button",
                           "MR, button", "4, button", "5, button", "6, button", "×, button", "x², button",
                           "MS, button", "1, button", "2, button", "3, button", "-, button", "1/x, button",
                           "M+, button", "0, button", "., button", "±, button", "+, button", "=, button"])
        // Item 6 is "7": five presses of Next, then Select (the default action, Qt's "Press").
        let r = s.live(scenario: Keys.started + Keys.next(5) + Keys.select + Keys.settled,
                       ["run", "--desktop", "--app", "calculator", "--profile", DesktopSession.twoSwitchProfile, "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        let results = r.lines("result").map { "\($0["result"] ?? "") \($0["how"] ?? $0["reason"] ?? "")" }
        #expect(results == ["done action \"Press\""], "\(r.stdout)")
        #expect(app.isRunning)
        let display = s.state("calculator").values.first { ($0["role"] as? String) == "text" }
        #expect(display?["text"] as? String == "7", "\(s.state("calculator"))")
    }

    /// Labels and panes with the Action interface but no action are not buttons: only the
    /// spin boxes, check boxes, the combo box and the three slider-like widgets are scanned.
    @Test func qtLabelsWithoutActionsAreNotButtons() throws {
        let s = try DesktopSession(needs: QtExamples.needs)
        defer { s.close() }
        let app = try startQt(s, "sliders/sliders")
        let shown = s.switchscan(["tree", "show", "--desktop", "--app", "sliders"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(app.isRunning)
        #expect(DesktopLiveTests.normalized(shown.stdout) == """
            9 scan items, 2 groups, screen 1600×900
            1  #  "Controls, 0, adjustable"  [137, 49, 59, 26]  group #
            2  #  "Inverted appearance, not checked, button"  [202, 51, 158, 21]  group #
            3  #  "Controls, 20, adjustable"  [137, 87, 59, 26]  group #
            4  #  "Inverted key bindings, not checked, button"  [202, 89, 163, 21]  group #
            5  #  "Controls, 5, adjustable"  [137, 125, 59, 26]  group #
            6  #  "Horizontal slider-like widgets, button"  [23, 163, 345, 25]  group #
            7  #  "Horizontal, 5, adjustable"  [398, 43, 151, 25]  group #
            8  #  "Horizontal, 5, adjustable"  [398, 74, 151, 14]  group #
            9  #  "Horizontal, 5, adjustable"  [398, 94, 151, 100]  group #

            """)
    }
}

/// Where Debian's qtbase5-examples puts the widget examples.
enum QtExamples {
    static let directory = "/usr/lib/x86_64-linux-gnu/qt5/examples/widgets/widgets"
    /// What a Qt test needs besides the desktop (qtbase5-examples, scripts/apt/test-qt.list).
    static let needs = [directory]
}
