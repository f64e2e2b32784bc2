import SwitchCore
import Testing
@testable import SwitchFormats

/// One row per source type or role: what a single node of it becomes.
@Suite("Role mapping")
struct RoleMappingTests {
    /// A lone XCUITest element of `type` inside an application.
    private func ios(_ type: String, _ attributes: String = "") throws -> Element {
        let xml = """
        <AppiumAUT><XCUIElementTypeApplication x="0" y="0" width="100" height="100">\
        <XCUIElementType\(type) name="it" label="Thing" x="10" y="10" width="20" height="20" \(attributes)/>\
        </XCUIElementTypeApplication></AppiumAUT>
        """
        let tree = try TreeFile.decode(Array(xml.utf8), file: "t.xml")
        return try #require(tree.node(id: "it"))
    }

    @Test(arguments: [
        ("Button", Traits.button), ("Link", .link), ("SearchField", .searchField), ("Key", .keyboardKey),
        ("Slider", .adjustable), ("Stepper", .adjustable), ("PickerWheel", .adjustable), ("PageIndicator", .adjustable),
        ("StaticText", .staticText), ("Image", .image), ("Icon", .image), ("Switch", .button), ("Tab", .button),
        ("Cell", .button), ("CheckBox", .button), ("MenuItem", .button), ("ProgressIndicator", .updatesFrequently),
    ])
    func xcuiElementTypes(_ type: String, _ traits: Traits) throws {
        let e = try ios(type)
        #expect(e.traits == traits)
        #expect(e.isElement)
    }

    @Test(arguments: ["TextField", "SecureTextField", "TextView", "ComboBox"])
    func textInputsAreStopsWithoutATrait(_ type: String) throws {
        let e = try ios(type)
        #expect(e.traits.isEmpty)
        #expect(e.isScanItem)
    }

    @Test(arguments: ["Other", "Window", "Table", "NavigationBar", "ScrollView", "SomethingNew"])
    func genericAndContainerTypesAreNoStops(_ type: String) throws {
        let e = try ios(type)
        #expect(!e.isScanItem)
    }

    @Test func enabledFalseIsNotEnabledAndVisibleFalseIsHidden() throws {
        #expect(try ios("Button", #"enabled="false""#).traits == [.button, .notEnabled])
        #expect(try ios("Button", #"visible="false""#).elementsHidden)
        #expect(try ios("Button", #"enabled="""#).traits == [.button])
    }

    @Test func accessibleOverridesTheTypeExceptForCells() throws {
        #expect(try ios("Other", #"accessible="true""#).isElement)
        #expect(try !ios("Button", #"accessible="false""#).isElement)
        #expect(try ios("Cell", #"accessible="false""#).isElement)
        #expect(try !ios("StaticText", #"accessible="false""#).isElement)
    }

    @Test func switchValueReadsOnOff() throws {
        #expect(try ios("Switch", #"value="1""#).value == "on")
        #expect(try ios("Switch", #"value="0""#).value == "off")
        #expect(try ios("Slider", #"value="40%""#).value == "40%")
    }

    /// A lone raw-dump node with `attributes` (class given) inside a hierarchy.
    private func android(_ attributes: String) throws -> Element {
        let xml = "<hierarchy rotation=\"0\"><node resource-id=\"it\" bounds=\"[0,0][100,100]\" \(attributes)/></hierarchy>"
        let tree = try TreeFile.decode(Array(xml.utf8), file: "d.xml")
        return try #require(tree.node(id: "it"))
    }

    @Test func androidAttributes() throws {
        let button = try android(#"class="android.widget.Button" text="Send" clickable="true""#)
        #expect(button.traits == [.button])
        #expect(button.label == "Send")
        #expect(button.isScanItem)

        let described = try android(#"class="android.widget.ImageButton" text="x" content-desc="Close" clickable="true""#)
        #expect(described.label == "Close")

        let long = try android(#"class="android.view.View" content-desc="Photo" long-clickable="true""#)
        #expect(long.customActions == ["Long press"])
        #expect(long.traits.isEmpty)
        #expect(long.isScanItem)

        let scroll = try android(#"class="android.widget.ScrollView" content-desc="Text" scrollable="true""#)
        #expect(scroll.customActions == ["Scroll forward", "Scroll backward"])

        let check = try android(#"class="android.widget.CheckBox" text="Remember me" checkable="true" checked="false" clickable="true""#)
        #expect(check.label == "Remember me")
        #expect(check.value == "not checked")

        let seek = try android(#"class="android.widget.SeekBar" content-desc="Brightness" focusable="true""#)
        #expect(seek.traits == [.adjustable])
        #expect(seek.isScanItem)

        let field = try android(#"class="android.widget.EditText" text="hello" content-desc="Message" clickable="true""#)
        #expect(field.label == "Message")
        #expect(field.value == "hello")
        #expect(field.traits.isEmpty)
        #expect(field.isScanItem)

        let text = try android(#"class="android.widget.TextView" text="Hello""#)
        #expect(text.traits == [.staticText])
        #expect(!text.isScanItem)

        let image = try android(#"class="android.widget.ImageView" content-desc="Logo""#)
        #expect(image.traits == [.image])

        let disabled = try android(#"class="android.widget.Button" text="Pay" clickable="true" enabled="false""#)
        #expect(disabled.traits == [.button, .notEnabled])
        #expect(!disabled.isScanItem)

        let selected = try android(#"class="android.widget.TextView" text="Tab" clickable="true" selected="true""#)
        #expect(selected.traits == [.button, .selected])

        let unlabelledIcon = try android(#"class="android.widget.ImageView""#)
        #expect(!unlabelledIcon.isElement)
    }

    /// A RootWebArea holding one node of `role` with `properties`.
    private func chrome(_ role: String, name: String = "Thing", properties: String = "[]") throws -> Element {
        let json = """
        {"nodes": [{"nodeId": "1", "role": {"value": "RootWebArea"}, "childIds": ["2"]},
                   {"nodeId": "2", "role": {"type": "role", "value": "\(role)"}, "name": {"value": "\(name)"}, "properties": \(properties), "childIds": []}]}
        """
        let tree = try TreeFile.decode(Array(json.utf8), file: "c.json")
        return try #require(tree.node(id: "2"))
    }

    @Test(arguments: [
        ("button", Traits.button), ("link", .link), ("searchbox", .searchField), ("slider", .adjustable),
        ("spinbutton", .adjustable), ("checkbox", .button), ("radio", .button), ("switch", .button), ("tab", .button),
        ("menuitem", .button), ("option", .button), ("heading", .header), ("img", .image), ("image", .image),
        ("StaticText", .staticText), ("progressbar", .updatesFrequently),
    ])
    func chromeRoles(_ role: String, _ traits: Traits) throws {
        let e = try chrome(role)
        #expect(e.traits == traits)
        #expect(e.isElement)
        #expect(e.frame == nil)
    }

    @Test(arguments: ["textbox", "combobox"])
    func chromeTextInputsAreStops(_ role: String) throws {
        let e = try chrome(role)
        #expect(e.traits.isEmpty)
        #expect(e.isScanItem)
    }

    @Test(arguments: ["generic", "paragraph", "listitem", "navigation", "main"])
    func chromeContainersWithANameAreTextLeaves(_ role: String) throws {
        let e = try chrome(role)
        #expect(e.isElement, "a named leaf is an element by the default rule")
        #expect(!e.isScanItem)
    }

    @Test(arguments: ["InlineTextBox", "LineBreak", "ListMarker"])
    func chromeTextFragmentsAreDropped(_ role: String) throws {
        let json = """
        {"nodes": [{"nodeId": "1", "role": {"value": "RootWebArea"}, "childIds": ["2"]},
                   {"nodeId": "2", "role": {"value": "\(role)"}, "name": {"value": "x"}}]}
        """
        let tree = try TreeFile.decode(Array(json.utf8), file: "c.json")
        #expect(tree.node(id: "2") == nil)
    }

    @Test func chromeProperties() throws {
        let b = #"{"type": "booleanOrUndefined", "value": true}"#
        #expect(try chrome("button", properties: #"[{"name": "disabled", "value": \#(b)}]"#).traits == [.button, .notEnabled])
        #expect(try chrome("button", properties: #"[{"name": "pressed", "value": {"value": "true"}}]"#).traits == [.button, .selected])
        #expect(try chrome("button", properties: #"[{"name": "expanded", "value": \#(b)}]"#).value == "expanded")
        #expect(try chrome("button", properties: #"[{"name": "hidden", "value": \#(b)}]"#).elementsHidden)
        #expect(try chrome("dialog", properties: #"[{"name": "modal", "value": \#(b)}]"#).viewIsModal)
        #expect(try chrome("checkbox", properties: #"[{"name": "checked", "value": {"value": "mixed"}}]"#).value == "mixed")
    }
}
