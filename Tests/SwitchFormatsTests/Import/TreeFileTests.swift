import Foundation
import SwitchCore
import Testing
@testable import SwitchFormats

@Suite("Tree file detection")
struct TreeFileTests {
    @Test(arguments: [
        ("realdata/ios/appium-universal-xml-plugin_ios.xml", TreeFile.Format.xcuitest),
        ("realdata/ios/shirates_ios_AccessibilityScreen.xml", .xcuitest),
        ("realdata/android/appium-universal-xml-plugin_android.xml", .appiumUiAutomator2),
        ("handmade/uiautomation-settings.xml", .uiautomation),
        ("handmade/uiautomator-rotated.xml", .uiautomator),
        ("handmade/appium-single-line-rotated.xml", .appiumUiAutomator2),
        ("handmade/entities-cjk.xml", .xcuitest),
        ("handmade/cdp-wrapped.json", .chromeAXTree),
        ("handmade/cdp-bare.json", .chromeAXTree),
    ])
    func formatIsChosenByContent(_ file: String, _ format: TreeFile.Format) throws {
        let bytes = try ImportFixture.bytes(file)
        #expect(TreeFile.detect(bytes) == format)
        // The file name plays no part: a misleading one changes nothing.
        #expect(try TreeFile.importTree(bytes, file: "screen.json").format == format)
    }

    /// Campaign 2 (fuzz-import, Fuzz/seeds/import/crash-d49c2afe-campaign2.xml): an XCUITest
    /// page source with a UIA… element further down was detected as XCUITest and imported as
    /// UIAutomation. The first elements decide, for both.
    @Test func uiaElementFurtherDownDoesNotChangeTheFormat() throws {
        let xml = #"<AppiumAUT><XCUIElementTypeApplication name="A" x="0" y="0" width="10" height="10"><UIAButton name="b"/></XCUIElementTypeApplication></AppiumAUT>"#
        #expect(TreeFile.detect(Array(xml.utf8)) == .xcuitest)
        #expect(try TreeFile.importTree(Array(xml.utf8), file: "t.xml").format == .xcuitest)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let seed = try [UInt8](Data(contentsOf: root.appendingPathComponent("Fuzz/seeds/import/crash-d49c2afe-campaign2.xml")))
        #expect(TreeFile.detect(seed) == .xcuitest)
        #expect(try TreeFile.importTree(seed, file: "seed.xml").format == .xcuitest)
    }

    @Test func nativeTreeStillLoads() throws {
        let json = #"{"screen": {"width": 100, "height": 100}, "root": {"children": [{"id": "ok", "label": "OK", "traits": ["button"], "frame": [0, 0, 50, 50]}]}}"#
        let imported = try TreeFile.importTree(Array(json.utf8), file: "t.xml")
        #expect(imported.format == .native)
        #expect(ScanModel(tree: imported.tree).items.map(\.id) == ["ok"])
        #expect(TreeFile.detect(Array(json.utf8)) == .native)
    }

    private func error(_ text: String) -> InputError? {
        inputError { () throws(InputError) in _ = try TreeFile.decode(Array(text.utf8), file: "x") }
    }

    @Test func malformedXMLFixtureGivesLineAndColumn() throws {
        let bytes = try ImportFixture.bytes("handmade/malformed.xml")
        let e = inputError { () throws(InputError) in _ = try TreeFile.decode(bytes, file: "malformed.xml") }
        #expect(e?.description == "malformed.xml:6:1: invalid XML: expected </node> (opened at line 3, column 3), found </hierarchy>")
    }

    @Test func malformedJSONFixtureGivesLineAndColumn() throws {
        let bytes = try ImportFixture.bytes("handmade/malformed.json")
        let e = inputError { () throws(InputError) in _ = try TreeFile.decode(bytes, file: "malformed.json") }
        #expect(e?.description == "malformed.json:4:5: invalid JSON: expected ',' or ']', found '{'")
    }

    @Test func unknownXMLRootIsNamed() {
        let e = error("<?xml version=\"1.0\"?>\n<html><body/></html>")
        #expect(e?.line == 2)
        #expect(e?.column == 1)
        #expect(e?.message.hasPrefix("XML, but not a dump switchscan imports: the root element is <html>") == true)
    }

    @Test func malformedXMLWithUnknownRootReportsTheSyntaxFirst() {
        let e = error("<html><body></html>")
        #expect(e?.message == "invalid XML: expected </body> (opened at line 1, column 7), found </html>")
    }

    @Test func jsonThatIsNoTree() {
        let e = error(#"{"name": "a profile?"}"#)
        #expect(e?.message.hasPrefix("JSON, but not a tree switchscan reads") == true)
        #expect(TreeFile.detect(Array(#"{"name": 1}"#.utf8)) == nil)
    }

    @Test func emptyAndBinaryFiles() {
        #expect(error("")?.message.hasPrefix("empty file") == true)
        #expect(error("  \n\t")?.message.hasPrefix("empty file") == true)
        #expect(error("PK\u{03}\u{04}")?.message.hasPrefix("not a tree file switchscan reads") == true)
        #expect(TreeFile.detect([]) == nil)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let xml = "\u{FEFF}<hierarchy><node class=\"android.widget.Button\" text=\"OK\" clickable=\"true\" bounds=\"[0,0][10,10]\"/></hierarchy>"
        #expect(TreeFile.detect(Array(xml.utf8)) == .uiautomator)
        #expect(try TreeFile.decode(Array(xml.utf8), file: "b.xml").screen == Size(width: 10, height: 10))
    }

    @Test func sniffingStepsOverQuotedGreaterThanAndComments() {
        let xml = "<!-- <AppiumAUT> --><hierarchy note=\"a > b\"><android.widget.Button/></hierarchy>"
        #expect(XMLSniffer.firstElementNames(Array(xml.utf8), limit: 2) == ["hierarchy", "android.widget.Button"])
        #expect(TreeFile.detect(Array(xml.utf8)) == .appiumUiAutomator2)
    }

    /// `tidy` leaves out what the defaults infer but changes no decision: every combination of
    /// the fields the decisions read.
    @Test func tidyKeepsEveryDecision() {
        let leaf = Element(id: "c", label: "child")
        var checked = 0
        for explicitElement in [nil, true, false] as [Bool?] {
            for responds in [nil, true, false] as [Bool?] {
                for label in [nil, "L"] as [String?] {
                    for traits in [[], [.button], [.staticText], [.button, .notEnabled]] as [Traits] {
                        for actions in [[], ["A"]] as [[String]] {
                            for children in [[], [leaf]] as [[Element]] {
                                let e = Element(id: "e", isAccessibilityElement: explicitElement, label: label, traits: traits,
                                                customActions: actions, respondsToUserInteraction: responds,
                                                order: .declared, children: children)
                                var t = e
                                ImportSupport.tidy(&t)
                                #expect(t.isElement == e.isElement)
                                #expect(t.isScanItem == e.isScanItem)
                                if !children.isEmpty { #expect(t.order == .declared) }
                                var again = t
                                ImportSupport.tidy(&again)
                                #expect(again == t)
                                checked += 1
                            }
                        }
                    }
                }
            }
        }
        #expect(checked == 288)
    }
}
