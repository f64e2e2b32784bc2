import SwitchCore
import Testing
@testable import SwitchFormats

/// Three rows: group A (three buttons), button B, group C (button C1 and group D of two buttons).
///
///     A  [A1][A2][A3]      y 0
///     B  [B ]              y 60
///     C  [C1] D[D1][D2]    y 80
private let nestedTree = """
{"screen": {"width": 100, "height": 100}, "root": {"id": "root", "children": [
  {"id": "A", "frame": [0, 0, 100, 50], "children": [
    {"id": "A1", "label": "A1", "traits": ["button"], "frame": [0, 0, 30, 20]},
    {"id": "A2", "label": "A2", "traits": ["button"], "frame": [30, 0, 30, 20]},
    {"id": "A3", "label": "A3", "traits": ["button"], "frame": [60, 0, 30, 20]}]},
  {"id": "B", "label": "B", "traits": ["button"], "frame": [0, 60, 50, 20]},
  {"id": "C", "frame": [0, 80, 100, 20], "children": [
    {"id": "C1", "label": "C1", "traits": ["button"], "frame": [0, 80, 30, 20]},
    {"id": "D", "frame": [40, 80, 60, 20], "children": [
      {"id": "D1", "label": "D1", "traits": ["button"], "frame": [40, 80, 30, 20]},
      {"id": "D2", "label": "D2", "traits": ["button"], "frame": [70, 80, 30, 20]}]}]}]}}
"""

private func scanning(_ t: Double, pause: Double) -> ScanningSettings {
    var s = ScanningSettings()
    s.autoScanningTime = .seconds(t)
    s.pauseOnFirstItem = .seconds(pause)
    return s
}

private func seconds(_ c: TreeStats.ScanCost?) -> [Double] { c?.reach.map(\.seconds) ?? [] }

@Suite("Tree stats")
struct TreeStatsTests {
    let tree: ElementTree

    init() throws {
        tree = try TreeFile.decode(Array(nestedTree.utf8), file: "nested.json")
    }

    @Test func counts() {
        let stats = TreeStats(tree: tree, scanning: ScanningSettings())
        #expect(stats.elements == 11)
        #expect(stats.accessibilityElements == 7)
        #expect(stats.scanItems == 7)
        #expect(stats.groups == 3)
        #expect(stats.depth == 4)
    }

    @Test func selectingStopJCostsPausePlusJPlusOneScanTimesPlusHold() {
        let c = ScanCostModel(scanning(1, pause: 0.5), holdDuration: .seconds(0.2))
        #expect(c.select(at: 0) == .seconds(1.7))
        #expect(c.select(at: 1) == .seconds(2.7))
        #expect(c.select(at: 4) == .seconds(5.7))
        #expect(c.groupPress == .seconds(1.2))
    }

    @Test func linearVisitsEveryItemInScanOrder() {
        let stats = TreeStats(tree: tree, scanning: scanning(1, pause: 0.5))
        #expect(seconds(stats.linear) == [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5])
        #expect(stats.linear?.averageTime == .seconds(4.5))
        #expect(stats.linear?.worstTime == .seconds(7.5))
        #expect(stats.linear?.presses == [1, 1, 1, 1, 1, 1, 1])
    }

    @Test func groupScanningSumsEachLevelAndCountsTheSelections() {
        let stats = TreeStats(tree: tree, scanning: scanning(1, pause: 0.5))
        // Every level: stop j selected after 0.5 + (j+1)·1. Top: A 1.5, B 2.5, C 3.5. Inside A:
        // +1.5, +2.5, +3.5. Inside C: C1 +1.5, D +2.5; inside D: +1.5, +2.5.
        #expect(seconds(stats.grouped) == [3, 4, 5, 2.5, 5, 7.5, 8.5])
        #expect(stats.grouped?.presses == [2, 2, 2, 1, 2, 3, 3])
        #expect(stats.grouped?.averageTime == .seconds(35.5 / 7))
        #expect(stats.grouped?.worstTime == .seconds(8.5))
        #expect(stats.grouped?.worstPresses == 3)
        #expect(abs((stats.grouped?.averagePresses ?? 0) - 15.0 / 7) < 1e-12)
    }

    @Test func withoutPauseTheTimesAreMultiplesOfT() {
        let stats = TreeStats(tree: tree, scanning: scanning(0.75, pause: 0))
        #expect(seconds(stats.linear) == [0.75, 1.5, 2.25, 3, 3.75, 4.5, 5.25])
        #expect(seconds(stats.grouped) == [1.5, 2.25, 3, 1.5, 3, 4.5, 5.25])
    }

    @Test func textReport() {
        let stats = TreeStats(tree: tree, scanning: scanning(1, pause: 0.5))
        #expect(stats.text == [
            "elements                11",
            "accessibility elements  7",
            "scan items              7",
            "groups                  3",
            "depth                   4",
            "scanning                auto, 1.000 s per stop, pause on first stop 0.500 s",
            "linear                  average 4.500 s, worst 7.500 s, 1 press",
            "group scanning          average 5.071 s, worst 8.500 s, presses average 2.14, worst 3",
            "row-column              average 5.071 s, worst 8.500 s, presses average 2.14, worst 3",
            "auto grouping           average 4.500 s, worst 7.500 s, 1 press",
            "2 switches              average 3.286 s, worst 5.000 s, presses average 3.29, worst 5",
            "3 switches              average 2.143 s, worst 3.000 s, presses average 2.14, worst 3",
            "4 switches              average 1.714 s, worst 3.000 s, presses average 1.71, worst 3",
            "5 switches              average 1.429 s, worst 2.000 s, presses average 1.43, worst 2",
            "6 switches              average 1.286 s, worst 2.000 s, presses average 1.29, worst 2",
        ])
        var held = scanning(1, pause: 0.5)
        held.pauseOnFirstItem = .zero
        #expect(TreeStats(tree: tree, scanning: held, holdDuration: .seconds(0.25)).text[5]
                == "scanning                auto, 1.000 s per stop, pause on first stop 0.000 s, hold 0.250 s")
    }

    @Test func jsonReport() {
        let stats = TreeStats(tree: tree, scanning: scanning(1, pause: 0.5))
        #expect(stats.json.rendered() == #"{"elements":11,"accessibilityElements":7,"scanItems":7,"groups":3,"depth":4,"profile":null,"scanning":{"style":"auto","autoScanningTime":1.000,"pauseOnFirstItem":0.500,"holdDuration":0.000},"linear":{"averageSeconds":4.500,"worstSeconds":7.500,"averagePresses":1.00,"worstPresses":1},"grouped":{"averageSeconds":5.071,"worstSeconds":8.500,"averagePresses":2.14,"worstPresses":3},"rowColumn":{"averageSeconds":5.071,"worstSeconds":8.500,"averagePresses":2.14,"worstPresses":3},"auto":{"averageSeconds":4.500,"worstSeconds":7.500,"averagePresses":1.00,"worstPresses":1},"groupSelection":[{"switches":2,"averageSeconds":3.286,"worstSeconds":5.000,"averagePresses":3.29,"worstPresses":5},{"switches":3,"averageSeconds":2.143,"worstSeconds":3.000,"averagePresses":2.14,"worstPresses":3},{"switches":4,"averageSeconds":1.714,"worstSeconds":3.000,"averagePresses":1.71,"worstPresses":3},{"switches":5,"averageSeconds":1.429,"worstSeconds":2.000,"averagePresses":1.43,"worstPresses":2},{"switches":6,"averageSeconds":1.286,"worstSeconds":2.000,"averagePresses":1.29,"worstPresses":2}]}"#)
    }

    /// Issue 22: the report names its profile, counts presses where the person sets the pace
    /// (manual: a next per stop passed and a select per level; step: a press per stop passed),
    /// and says there is no scanning for a touch-only profile.
    @Test func manualStepAndTouchOnlyProfilesAreReportedForWhatTheyDo() {
        var manual = Profile()
        manual.scanning = scanning(1, pause: 0.5)
        manual.scanning.style = .manual
        let m = TreeStats(tree: tree, profile: manual, profileName: "manual (m.json)")
        #expect(m.text[5] == "profile                 manual (m.json)")
        #expect(m.text[6] == "scanning                manual: a next press per stop passed and a select per level (the person sets the pace: presses, no times)")
        #expect(m.text[7] == "linear                  presses average 4.00, worst 7")   // 1 … 7
        #expect(m.linear?.presses == [1, 2, 3, 4, 5, 6, 7])
        #expect(m.json.rendered().contains(#""linear":{"averagePresses":4.00,"worstPresses":7}"#))
        var step = manual
        step.scanning.style = .singleSwitchStep
        let s = TreeStats(tree: tree, profile: step)
        #expect(s.linear?.presses == [0, 1, 2, 3, 4, 5, 6])
        #expect(s.text[5] == "scanning                single switch step: a press per stop passed, then a 1.000 s dwell selects (presses, no times)")
        var touch = Profile()
        touch.switches = []
        let t = TreeStats(tree: tree, profile: touch, profileName: "touch")
        #expect(t.linear == nil && t.groupSelection.isEmpty)
        #expect(t.text.suffix(2) == ["profile                 touch",
                                     "scanning                none: the profile binds no switch and does not make the touchscreen one (touch only), so nothing is scanned"])
        #expect(t.json.rendered().contains(#""scanning":{"style":"none""#))
    }

    @Test func treeWithoutScanItems() throws {
        let json = #"{"screen": {"width": 10, "height": 10}, "root": {"children": [{"label": "Just text", "traits": ["staticText"]}]}}"#
        let stats = TreeStats(tree: try TreeFile.decode(Array(json.utf8), file: "t.json"), scanning: ScanningSettings())
        #expect(stats.scanItems == 0)
        #expect(stats.accessibilityElements == 1)
        #expect(stats.linear == nil)
        #expect(stats.grouped == nil)
        #expect(stats.text.last == "auto grouping           no scan items")
        #expect(stats.json.rendered().hasSuffix(#""linear":null,"grouped":null,"rowColumn":null,"auto":null,"groupSelection":[]}"#))
    }

    @Test func realSettingsScreenWithTheDefaultProfile() throws {
        let tree = try ImportFixture.tree("realdata/android/shirates_android_NetworkAndInternetScreen.xml")
        let stats = TreeStats(tree: tree, scanning: ScanningSettings())
        #expect(stats.scanItems == 9)
        // Nine items, one a second, each pressed at the end of its dwell: 1 … 9 s.
        #expect(stats.linear?.averageTime == .seconds(5))
        #expect(stats.linear?.worstTime == .seconds(9))
        // android:id/content would be the top level's only stop, so it is no group: the top level
        // is the action bar (2 items) and the content frame (the Wi-Fi row group of 2, then 5 rows).
        #expect(seconds(stats.grouped) == [2, 3, 4, 5, 4, 5, 6, 7, 8])
        #expect(stats.grouped?.presses == [2, 2, 3, 3, 2, 2, 2, 2, 2])
    }

    static let everyScreen = ImportFixture.realDumps + [
        "handmade/appium-single-line-rotated.xml", "handmade/cdp-bare.json", "handmade/cdp-wrapped.json",
        "handmade/entities-cjk.xml", "handmade/uiautomation-settings.xml", "handmade/uiautomator-rotated.xml",
    ]

    /// Issue 11's acceptance, per screen and profile timing: auto grouping is never slower than
    /// linear or group scanning (on average and for the worst item it may trade, so only the
    /// average is bound), and never slower than row-column.
    @Test(arguments: everyScreen)
    func autoIsNeverSlowerThanLinearGroupedOrRowColumn(_ screen: String) throws {
        let tree = try ImportFixture.tree(screen)
        for (t, pause, hold) in [(1.0, 0.0, 0.0), (1.0, 0.5, 0.0), (0.6, 0.0, 0.3), (2.0, 1.5, 0.1)] {
            let stats = TreeStats(tree: tree, scanning: scanning(t, pause: pause), holdDuration: .seconds(hold))
            let auto = try #require(stats.auto).averageTime
            #expect(auto <= stats.linear!.averageTime, "\(screen) T=\(t) P=\(pause) H=\(hold)")
            #expect(auto <= stats.grouped!.averageTime, "\(screen) T=\(t) P=\(pause) H=\(hold)")
            #expect(auto <= stats.rowColumn!.averageTime, "\(screen) T=\(t) P=\(pause) H=\(hold)")
        }
    }

    /// The real screens (realdata: iOS, Android, web) with the default profile: auto grouping is on
    /// average at least 20 % faster than the better of group scanning and row-column.
    @Test func autoIsAFifthFasterOnTheRealScreens() throws {
        var gains: [Double] = []
        for screen in ImportFixture.realDumps {
            let stats = TreeStats(tree: try ImportFixture.tree(screen), scanning: ScanningSettings())
            let better = min(stats.grouped!.averageTime, stats.rowColumn!.averageTime).seconds
            gains.append(1 - stats.auto!.averageTime.seconds / better)
        }
        let mean = gains.reduce(0, +) / Double(gains.count)
        #expect(mean >= 0.20, "mean gain \(mean), per screen \(gains)")
    }
}
