import SwitchCore
import Testing
@testable import SwitchFormats

/// Issue 32, point 7: two rows of earlier rounds that still were not right.
@Suite("Importers: old rows, round four")
struct OldRowsRoundFourTests {
    static func error(_ text: String, file: String) -> String {
        do {
            _ = try TreeFile.decode(Array(text.utf8), file: file)
            return "no error"
        } catch {
            return error.description
        }
    }

    /// `<hierarchy width="-5">` was ignored silently (the screen taken from the bounds): a size
    /// of 0 or less is refused, naming the attribute.
    @Test(arguments: [("width", "-5"), ("height", "0"), ("width", "-0.5")])
    func androidHierarchyWithANonPositiveSizeIsRefused(_ attribute: String, _ value: String) {
        let other = attribute == "width" ? "height=\"800\"" : "width=\"400\""
        let xml = """
            <?xml version="1.0"?>
            <hierarchy rotation="0" \(attribute)="\(value)" \(other)><node class="android.widget.Button" text="OK" clickable="true" bounds="[0,0][100,100]"/></hierarchy>
            """
        let e = Self.error(xml, file: "a.xml")
        #expect(e.hasPrefix("a.xml:2:"), "\(e)")
        #expect(e.hasSuffix("\(attribute)=\"…\" on <hierarchy>: expected the screen's \(attribute) in pixels (more than 0), found \(formatNumber(Double(value)!))"), "\(e)")
    }

    @Test func androidHierarchyWithAPositiveSizeIsTheScreen() throws {
        let xml = """
            <hierarchy rotation="0" width="400" height="800"><node class="android.widget.Button" text="OK" clickable="true" bounds="[0,0][100,100]"/></hierarchy>
            """
        let tree = try TreeFile.decode(Array(xml.utf8), file: "a.xml")
        #expect(tree.screen == Size(width: 400, height: 800))
    }

    static func chromeButton(disabled value: String) throws -> Element {
        let json = """
            {"nodes": [{"nodeId": "1", "role": {"value": "RootWebArea"}, "childIds": ["2"]},
                       {"nodeId": "2", "role": {"value": "button"}, "name": {"value": "OK"},
                        "properties": [{"name": "disabled", "value": {"value": \(value)}}]}]}
            """
        let tree = try TreeFile.decode(Array(json.utf8), file: "c.json")
        return try #require(tree.node(id: "2"))
    }

    /// CDP `disabled: {"value": "yes"}` counted as enabled: the value is read by its truthiness,
    /// as CDP (JavaScript) has it.
    @Test(arguments: [("\"yes\"", true), ("true", true), ("1", true), ("\"true\"", true), ("{}", true), ("[]", true),
                      ("false", false), ("0", false), ("\"\"", false), ("\"false\"", false), ("null", false), ("\"undefined\"", false)])
    func chromeDisabledIsReadByTruthiness(_ value: String, _ disabled: Bool) throws {
        let e = try Self.chromeButton(disabled: value)
        #expect(e.traits.contains(.notEnabled) == disabled, "\(value)")
        #expect(e.isScanItem == !disabled, "\(value)")
    }
}
