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

    @Test func reachIsZeroForTheFirstStopAndPausePlusKTimesTAfter() {
        let s = scanning(1, pause: 0.5)
        #expect(TreeStats.reach(0, s) == .zero)
        #expect(TreeStats.reach(1, s) == .seconds(1.5))
        #expect(TreeStats.reach(4, s) == .seconds(4.5))
    }

    @Test func linearVisitsEveryItemInScanOrder() {
        let stats = TreeStats(tree: tree, scanning: scanning(1, pause: 0.5))
        #expect(seconds(stats.linear) == [0, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5])
        #expect(stats.linear?.averageTime == .seconds(24.0 / 7))
        #expect(stats.linear?.worstTime == .seconds(6.5))
        #expect(stats.linear?.presses == [1, 1, 1, 1, 1, 1, 1])
    }

    @Test func groupScanningSumsEachLevelAndCountsTheSelections() {
        let stats = TreeStats(tree: tree, scanning: scanning(1, pause: 0.5))
        // Top: A at 0, B at 1.5, C at 2.5. Inside A: 0, 1.5, 2.5. Inside C: C1 at 0, D at 1.5;
        // inside D: 0, 1.5.
        #expect(seconds(stats.grouped) == [0, 1.5, 2.5, 1.5, 2.5, 4, 5.5])
        #expect(stats.grouped?.presses == [2, 2, 2, 1, 2, 3, 3])
        #expect(stats.grouped?.averageTime == .seconds(2.5))
        #expect(stats.grouped?.worstTime == .seconds(5.5))
        #expect(stats.grouped?.worstPresses == 3)
        #expect(abs((stats.grouped?.averagePresses ?? 0) - 15.0 / 7) < 1e-12)
    }

    @Test func withoutPauseTheTimesAreMultiplesOfT() {
        let stats = TreeStats(tree: tree, scanning: scanning(0.75, pause: 0))
        #expect(seconds(stats.linear) == [0, 0.75, 1.5, 2.25, 3, 3.75, 4.5])
        #expect(seconds(stats.grouped) == [0, 0.75, 1.5, 0.75, 1.5, 2.25, 3])
    }

    @Test func textReport() {
        let stats = TreeStats(tree: tree, scanning: scanning(1, pause: 0.5))
        #expect(stats.text == [
            "elements                11",
            "accessibility elements  7",
            "scan items              7",
            "groups                  3",
            "depth                   4",
            "scanning                1.000 s per stop, pause on first stop 0.500 s",
            "linear                  average 3.429 s, worst 6.500 s, 1 press",
            "group scanning          average 2.500 s, worst 5.500 s, presses average 2.14, worst 3",
        ])
    }

    @Test func jsonReport() {
        let stats = TreeStats(tree: tree, scanning: scanning(1, pause: 0.5))
        #expect(stats.json.rendered() == #"{"elements":11,"accessibilityElements":7,"scanItems":7,"groups":3,"depth":4,"scanning":{"autoScanningTime":1.000,"pauseOnFirstItem":0.500},"linear":{"averageSeconds":3.429,"worstSeconds":6.500,"averagePresses":1.00,"worstPresses":1},"grouped":{"averageSeconds":2.500,"worstSeconds":5.500,"averagePresses":2.14,"worstPresses":3}}"#)
    }

    @Test func treeWithoutScanItems() throws {
        let json = #"{"screen": {"width": 10, "height": 10}, "root": {"children": [{"label": "Just text", "traits": ["staticText"]}]}}"#
        let stats = TreeStats(tree: try TreeFile.decode(Array(json.utf8), file: "t.json"), scanning: ScanningSettings())
        #expect(stats.scanItems == 0)
        #expect(stats.accessibilityElements == 1)
        #expect(stats.linear == nil)
        #expect(stats.grouped == nil)
        #expect(stats.text.last == "group scanning          no scan items")
        #expect(stats.json.rendered().hasSuffix(#""linear":null,"grouped":null}"#))
    }

    @Test func realSettingsScreenWithTheDefaultProfile() throws {
        let tree = try ImportFixture.tree("realdata/android/shirates_android_NetworkAndInternetScreen.xml")
        let stats = TreeStats(tree: tree, scanning: ScanningSettings())
        #expect(stats.scanItems == 9)
        // Nine items, one a second: 0 … 8 s.
        #expect(stats.linear?.averageTime == .seconds(4))
        #expect(stats.linear?.worstTime == .seconds(8))
        // android:id/content would be the top level's only stop, so it is no group: the top level
        // is the action bar (2 items) and the content frame (the Wi-Fi row group of 2, then 5 rows).
        #expect(seconds(stats.grouped) == [0, 1, 1, 2, 2, 3, 4, 5, 6])
        #expect(stats.grouped?.presses == [2, 2, 3, 3, 2, 2, 2, 2, 2])
    }
}
