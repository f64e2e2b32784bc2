import SwitchCore
import Testing
@testable import SwitchFormats

/// Issue 12, part 3: every tree reader counts elements against `ReaderLimits.treeElements` while
/// it builds, and refuses the element past the limit with its place and how to lift the limit.
@Suite("Reader limits")
struct ReaderLimitsTests {
    static func limits(elements: Int) -> ReaderLimits {
        var l = ReaderLimits.standard
        l.treeElements = elements
        return l
    }

    static let lift = "more than 2 elements, the most a tree file may have; SWITCHSCAN_MAX_ELEMENTS=N raises the limit"

    /// Three elements in each format: read with a limit of 3, refused with 2 at the third.
    static let threeElements: [(String, String, String)] = [
        ("native", #"{"screen": {"width": 100, "height": 100}, "root": {"children": [{"label": "a"}, {"label": "b"}]}}"#,
         "t:1:81: root.children[1]: " + lift),
        ("uiautomator", #"<hierarchy rotation="0"><node class="a" bounds="[0,0][9,9]"/><node class="b" bounds="[0,0][9,9]"/></hierarchy>"#,
         "t:1:62: " + lift),
        ("xcuitest", #"<XCUIElementTypeApplication name="A"><XCUIElementTypeButton name="a"/><XCUIElementTypeButton name="b"/></XCUIElementTypeApplication>"#,
         "t:1:71: " + lift),
        ("chromeAXTree", #"{"nodes": [{"nodeId": "1", "role": {"value": "RootWebArea"}, "childIds": ["2", "3"]}, {"nodeId": "2"}, {"nodeId": "3"}]}"#,
         "t:1:104: nodes[2]: " + lift),
        ("chromiumMacDump", "AXWebArea\n++AXButton AXTitle='a'\n++AXButton AXTitle='b'\n",
         "t:3:1: " + lift),
    ]

    @Test(arguments: threeElements)
    func elementsPastTheLimitAreRefusedWhereTheyPassIt(_ format: String, _ text: String, _ message: String) throws {
        let bytes = Array(text.utf8)
        let imported = try TreeFile.importTree(bytes, file: "t", limits: Self.limits(elements: 3))
        #expect(imported.format.rawValue == format)
        let e = inputError { () throws(InputError) in _ = try TreeFile.importTree(bytes, file: "t", limits: Self.limits(elements: 2)) }
        #expect(e?.description == message)
    }

    @Test func standardLimitsHoldTheLargestBenchmarkTrees() {
        // BENCHMARKS.md: a 1,000,000-node tree and a 126 MB, 300,000-node Android dump.
        #expect(ReaderLimits.standard.treeElements >= 1_000_000)
        #expect(ReaderLimits.standard.treeBytes >= 126_000_000)
    }

    @Test func environmentSetsEveryFileSizeAndTheElementCount() throws {
        let l = try ReaderLimits.standard.overridden(by: ["SWITCHSCAN_MAX_FILE_MB": "2", "SWITCHSCAN_MAX_ELEMENTS": "10"])
        #expect(l.treeBytes == 2 << 20 && l.profileBytes == 2 << 20 && l.recordingBytes == 2 << 20)
        #expect(l.treeElements == 10)
        #expect(try ReaderLimits.standard.overridden(by: ["SWITCHSCAN_MAX_FILE_MB": ""]) == .standard)
    }

    @Test(arguments: ["0", "-3", "12MB", "1e3"])
    func badEnvironmentValueIsNamed(_ value: String) {
        let e = inputError { () throws(InputError) in _ = try ReaderLimits.standard.overridden(by: ["SWITCHSCAN_MAX_FILE_MB": value]) }
        #expect(e?.description == "environment: SWITCHSCAN_MAX_FILE_MB=\(value): expected a whole number from 1 to 1048576")
    }

    @Test func fileTooLargeNamesFileSizeLimitAndTheVariable() {
        #expect(ReaderLimits.fileTooLarge("big.json", size: 300_000_000, limit: 256 << 20, .tree).description
            == "big.json: 300000000 bytes, larger than the 256 MiB (268435456 bytes) a tree file may have; SWITCHSCAN_MAX_FILE_MB=N raises the limit to N MiB")
        #expect(ReaderLimits.fileTooLarge("<stdin>", size: nil, limit: 1 << 20, .profile).description
            == "<stdin>: larger than the 1 MiB (1048576 bytes) a profile may have (reading stopped there); SWITCHSCAN_MAX_FILE_MB=N raises the limit to N MiB")
    }
}
