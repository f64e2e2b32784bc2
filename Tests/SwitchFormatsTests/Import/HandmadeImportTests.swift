import SwitchCore
import Testing
@testable import SwitchFormats

@Suite("iOS importer")
struct IOSImporterTests {
    static let uia = "handmade/uiautomation-settings.xml"
    static let edge = "handmade/entities-cjk.xml"

    @Test func uiAutomationSourceIsRecognisedAndScanned() throws {
        let imported = try ImportFixture.imported(Self.uia)
        #expect(imported.format == .uiautomation)
        let model = ScanModel(tree: imported.tree)
        // The application's frame is y 20 + 548: the screen is its bottom-right corner.
        #expect(model.screen == Size(width: 320, height: 568))
        #expect(model.items.map(\.description) == [
            "Settings, button, Returns to the previous screen.", "Wi-Fi, on, button", "HomeNet, button",
            "Brightness, 50%, adjustable", "Search, search field",
        ])
    }

    @Test func uiAutomationFractionalFramesAndHints() throws {
        let tree = try ImportFixture.tree(Self.uia)
        let back = try #require(tree.nodes(label: "Settings").first { $0.traits.contains(.button) })
        #expect(back.frame == Rect(x: 5.5, y: 27, width: 80.5, height: 30))
        #expect(back.hint == "Returns to the previous screen.")
        #expect(tree.node(id: "Brightness")?.frame == Rect(x: 15, y: 300.25, width: 290, height: 34))
    }

    @Test func cellWithSwitchTakesTheSwitchStateAndAccessoryButtonBecomesAnAction() throws {
        let tree = try ImportFixture.tree(Self.uia)
        let wifi = try #require(tree.nodes(label: "Wi-Fi").first { $0.traits == [.button] })
        #expect(wifi.value == "on")
        #expect(wifi.children.isEmpty)
        let home = try #require(tree.node(id: "HomeNet"))
        #expect(home.label == "HomeNet")
        #expect(home.customActions == ["More Info"])
    }

    @Test func disabledCellIsNoStopAndHiddenWindowIsHidden() throws {
        let tree = try ImportFixture.tree(Self.uia)
        let ask = try #require(tree.node(id: "Ask to Join Networks"))
        #expect(ask.traits == [.button, .notEnabled])
        #expect(!ask.isScanItem)
        #expect(tree.node(id: "Hidden")?.elementsHidden == true)
        #expect(!ScanModel(tree: tree).accessibilityElements.contains { $0.id == "Hidden" })
    }

    @Test func genericElementWithLabelIsAnElementButNoStop() throws {
        let model = ScanModel(tree: try ImportFixture.tree(Self.uia))
        let footer = try #require(model.accessibilityElements.first { $0.id == "Footer" })
        #expect(footer.label == "Choose a network…")
        #expect(!footer.isScanItem)
    }

    @Test func entitiesNewlinesAndCJKSurviveTheImport() throws {
        let tree = try ImportFixture.tree(Self.edge)
        #expect(tree.node(id: "save")?.label == "Save & close")
        #expect(tree.node(id: "title")?.label == "Line one\nLine two")
        #expect(tree.node(id: "title")?.value == nil, "a text's value equal to its label is dropped")
        #expect(tree.node(id: "wrapped")?.label == "wrapped across lines")
        #expect(tree.node(id: "emoji")?.label == "Smile 😀 😀")
        #expect(tree.root.label == "メモ")
    }

    @Test func cellLabelJoinsItsVisibleTextsEvenWhenNotAccessible() throws {
        let tree = try ImportFixture.tree(Self.edge)
        let cell = try #require(tree.node(id: "cell"))
        #expect(cell.label == "東京都, 晴れ <25°C>")
        #expect(cell.isScanItem)
        #expect(tree.node(id: "t3") == nil)
    }

    @Test func keyboardKeysAreAGroup() throws {
        let model = ScanModel(tree: try ImportFixture.tree(Self.edge))
        #expect(model.groups.count == 1)
        #expect(model.groups[0].items.map { model.items[$0].description } == ["あ, key", "か, key", "さ, key"])
    }

    @Test func alertIsModal() throws {
        let xml = """
        <AppiumAUT><XCUIElementTypeApplication name="A" label="A" x="0" y="0" width="100" height="200">
        <XCUIElementTypeButton name="behind" label="Behind" x="0" y="0" width="50" height="20"/>
        <XCUIElementTypeAlert name="alert" label="Delete?" x="10" y="50" width="80" height="100">
        <XCUIElementTypeButton name="cancel" label="Cancel" x="10" y="120" width="40" height="30"/>
        <XCUIElementTypeButton name="ok" label="Delete" x="50" y="120" width="40" height="30"/>
        </XCUIElementTypeAlert></XCUIElementTypeApplication></AppiumAUT>
        """
        let tree = try TreeFile.decode(Array(xml.utf8), file: "alert.xml")
        #expect(tree.node(id: "alert")?.viewIsModal == true)
        #expect(ScanModel(tree: tree).items.map(\.id) == ["cancel", "ok"])
    }

    @Test func partialFrameIsAnError() {
        let xml = #"<AppiumAUT><XCUIElementTypeButton label="B" x="1" y="2"/></AppiumAUT>"#
        let e = inputError { () throws(InputError) in _ = try TreeFile.decode(Array(xml.utf8), file: "f.xml") }
        #expect(e?.line == 1)
        #expect(e?.column == 12)
        #expect(e?.message == "<XCUIElementTypeButton> has only some of x, y, width, height (a frame needs all four, or none)")
    }

    @Test func badNumberAndBadFlagNameTheAttribute() {
        let number = #"<AppiumAUT><XCUIElementTypeButton x="one" y="2" width="3" height="4"/></AppiumAUT>"#
        let e1 = inputError { () throws(InputError) in _ = try TreeFile.decode(Array(number.utf8), file: "f.xml") }
        #expect(e1?.column == 35)
        #expect(e1?.message == "x=\"…\" on <XCUIElementTypeButton>: expected a number, found \"one\"")
        let flag = #"<AppiumAUT><XCUIElementTypeButton enabled="yes"/></AppiumAUT>"#
        let e2 = inputError { () throws(InputError) in _ = try TreeFile.decode(Array(flag.utf8), file: "f.xml") }
        #expect(e2?.message == "enabled=\"…\" on <XCUIElementTypeButton>: expected true or false, found \"yes\"")
        let negative = #"<AppiumAUT><XCUIElementTypeButton x="0" y="0" width="-3" height="4"/></AppiumAUT>"#
        let e3 = inputError { () throws(InputError) in _ = try TreeFile.decode(Array(negative.utf8), file: "f.xml") }
        #expect(e3?.message == "width=\"…\" on <XCUIElementTypeButton>: expected a width of 0 or more, found -3")
    }

    @Test func noFrameAnywhereGivesTheDefaultScreenAndANote() throws {
        let xml = #"<AppiumAUT><XCUIElementTypeApplication name="A"><XCUIElementTypeButton label="B"/></XCUIElementTypeApplication></AppiumAUT>"#
        let imported = try TreeFile.importTree(Array(xml.utf8), file: "f.xml")
        #expect(imported.tree.screen == Size(width: 390, height: 844))
        #expect(imported.notes == ["no application or window frame: screen set to 390×844"])
        #expect(ScanModel(tree: imported.tree).items.map(\.description) == ["B, button"])
    }

    @Test func onlyUnknownTagsIsAnError() {
        let xml = "<AppiumAUT><Foo/></AppiumAUT>"
        let e = inputError { () throws(InputError) in _ = try TreeFile.decode(Array(xml.utf8), file: "f.xml") }
        #expect(e?.message == "no XCUIElementType… or UIA… element in this XML file")
    }
}

@Suite("Android importer")
struct AndroidImporterTests {
    static let rotated = "handmade/uiautomator-rotated.xml"
    static let singleLine = "handmade/appium-single-line-rotated.xml"

    @Test func rawDumpWithRotationTakesTheScreenFromTheBounds() throws {
        let imported = try ImportFixture.imported(Self.rotated)
        #expect(imported.format == .uiautomator)
        #expect(imported.tree.screen == Size(width: 1920, height: 1080))
        #expect(imported.notes.isEmpty)
    }

    @Test func rawDumpScanOrder() throws {
        let model = ScanModel(tree: try ImportFixture.tree(Self.rotated))
        #expect(model.items.map(\.description) == [
            "Navigate up, button", "Add alarm, button", "7:00 AM, Mon, Tue, button", "checked, button",
            "Tom & Jerry\nwake-up, not checked, button", "Vibrate, checked, button", "Alarm volume, adjustable",
        ])
    }

    @Test func sameBoundsChildGivesTheLabelOfItsClickableParent() throws {
        let tree = try ImportFixture.tree(Self.rotated)
        let add = try #require(tree.node(id: "com.example.clock:id/add"))
        #expect(add.label == "Add alarm")
        #expect(add.children.isEmpty)
        #expect(tree.node(id: "com.example.clock:id/add_icon") == nil)
    }

    @Test func longClickableAndScrollableBecomeCustomActions() throws {
        let tree = try ImportFixture.tree(Self.rotated)
        #expect(tree.node(id: "com.example.clock:id/alarms")?.customActions == ["Scroll forward", "Scroll backward"])
        let model = ScanModel(tree: tree)
        #expect(model.items[2].element.customActions == ["Long press"])
        #expect(model.items[4].element.customActions == ["Long press"])
    }

    @Test func checkableSeekBarDisabledAndMissingBounds() throws {
        let tree = try ImportFixture.tree(Self.rotated)
        #expect(tree.node(id: "com.example.clock:id/vibrate")?.value == "checked")
        let volume = try #require(tree.node(id: "com.example.clock:id/volume"))
        #expect(volume.traits == [.adjustable])
        #expect(volume.isScanItem, "a SeekBar is adjustable though not clickable")
        let delete = try #require(tree.node(id: "com.example.clock:id/delete"))
        #expect(delete.traits == [.button, .notEnabled])
        #expect(!delete.isScanItem)
        let noBounds = try #require(tree.node(id: "com.example.clock:id/nobounds"))
        #expect(noBounds.frame == nil)
        #expect(noBounds.label == "No bounds")
    }

    @Test func entitiesAndCJKInAttributes() throws {
        let tree = try ImportFixture.tree(Self.rotated)
        #expect(tree.nodes(label: "目覚まし時計 ⏰").count == 1)
        #expect(tree.nodes(label: "Tom & Jerry\nwake-up").count == 1)
    }

    @Test func repeatedResourceIDsAreDropped() throws {
        let tree = try ImportFixture.tree(Self.rotated)
        #expect(tree.node(id: "com.example.clock:id/row") == nil)
        #expect(tree.node(id: "com.example.clock:id/time") == nil)
        // Two switches share an id, but the second is absorbed into its row: one is left.
        #expect(tree.node(id: "com.example.clock:id/onoff")?.value == "checked")
    }

    @Test func singleLineAppiumDumpWithPortraitSizeAndLandscapeBounds() throws {
        let imported = try ImportFixture.imported(Self.singleLine)
        #expect(imported.format == .appiumUiAutomator2)
        #expect(imported.tree.screen == Size(width: 2340, height: 1080))
    }

    @Test func hintLabelsAnEmptyFieldAndNestedDuplicatesCollapse() throws {
        let tree = try ImportFixture.tree(Self.singleLine)
        let search = try #require(tree.node(id: "com.example.notes:id/search"))
        #expect(search.label == "Search notes")
        #expect(search.value == nil)
        #expect(search.customActions == ["Long press"])
        let titles = tree.nodes(label: "買い物リスト")
        #expect(titles.count == 1)
        #expect(titles.first?.traits == [.button, .selected, .header])
        #expect(titles.first?.customActions == ["Long press"], "the inner duplicate's long-click is kept")
    }

    @Test func displayedFalseIsHiddenAndFocusableContainerReadsItsTexts() throws {
        let tree = try ImportFixture.tree(Self.singleLine)
        let model = ScanModel(tree: tree)
        #expect(tree.nodes(label: "Hidden").first?.elementsHidden == true)
        #expect(model.items.map(\.element.label) == ["Search notes", "買い物リスト"])
        let status = try #require(model.accessibilityElements.first { $0.label == "3 notes, synced" })
        #expect(!status.isScanItem)
    }

    @Test func badBoundsNameTheAttributeAndPlace() {
        let xml = "<hierarchy>\n  <node class=\"a\" bounds=\"[0,0][10]\"/>\n</hierarchy>"
        let e = inputError { () throws(InputError) in _ = try TreeFile.decode(Array(xml.utf8), file: "d.xml") }
        #expect(e?.line == 2)
        #expect(e?.column == 19)
        #expect(e?.message == "bounds=\"…\" on <node>: expected bounds like [0,0][1080,1920], found \"[0,0][10]\"")
        let inverted = "<hierarchy><node class=\"a\" bounds=\"[10,10][0,0]\"/></hierarchy>"
        let e2 = inputError { () throws(InputError) in _ = try TreeFile.decode(Array(inverted.utf8), file: "d.xml") }
        #expect(e2?.message == "bounds=\"…\" on <node>: the second corner of [10,10][0,0] is above or left of the first")
    }

    @Test func attributesInAnyOrderMeanTheSameFromNodeToNode() throws {
        // The builder reuses the previous node's attribute keys by place: nodes that reorder,
        // add or drop attributes must still be read by name.
        let xml = """
        <hierarchy rotation="0" width="100" height="100">
          <node class="android.widget.Button" text="One" clickable="true" bounds="[0,0][10,10]"/>
          <node text="Two" class="android.widget.Button" bounds="[0,10][10,20]" clickable="true"/>
          <node class="android.widget.Button" content-desc="Three" text="3" clickable="true" bounds="[0,20][10,30]"/>
          <node class="android.widget.TextView" clickable="false" text="Four" bounds="[0,30][10,40]"/>
          <node bounds="[0,40][10,50]" clickable="true" class="android.widget.Button" text="Five"/>
        </hierarchy>
        """
        let model = ScanModel(tree: try TreeFile.decode(Array(xml.utf8), file: "order.xml"))
        #expect(model.items.map(\.element.label) == ["One", "Two", "Three", "Five"])
        #expect(model.items.map { $0.element.frame?.y } == [0, 10, 20, 40])
        #expect(model.accessibilityElements.contains { $0.label == "Four" && !$0.isScanItem })
    }

    @Test func badRotation() {
        let xml = "<hierarchy rotation=\"5\"><node class=\"a\"/></hierarchy>"
        let e = inputError { () throws(InputError) in _ = try TreeFile.decode(Array(xml.utf8), file: "d.xml") }
        #expect(e?.message == "rotation=\"…\" on <hierarchy>: expected a rotation of 0, 1, 2 or 3, found 5")
    }

    @Test func noBoundsAnywhereGivesTheDefaultScreenAndANote() throws {
        let xml = "<hierarchy><node class=\"android.widget.Button\" text=\"OK\" clickable=\"true\"/></hierarchy>"
        let imported = try TreeFile.importTree(Array(xml.utf8), file: "d.xml")
        #expect(imported.tree.screen == Size(width: 1080, height: 1920))
        #expect(imported.notes.count == 1)
        #expect(ScanModel(tree: imported.tree).items.map(\.description) == ["OK, button"])
    }

    @Test func emptyHierarchyImportsAsAnEmptyTree() throws {
        let imported = try TreeFile.importTree(Array("<hierarchy rotation=\"0\"/>".utf8), file: "d.xml")
        #expect(ScanModel(tree: imported.tree).items.isEmpty)
    }

    @Test func deepNestingIsRefused() {
        let depth = 600
        let xml = "<hierarchy>" + String(repeating: "<node class=\"a\">", count: depth) + String(repeating: "</node>", count: depth) + "</hierarchy>"
        let e = inputError { () throws(InputError) in _ = try TreeFile.decode(Array(xml.utf8), file: "d.xml") }
        #expect(e?.message == "elements nested deeper than 512 levels")
    }
}

@Suite("Chrome DevTools importer")
struct ChromeAXImporterTests {
    static let wrapped = "handmade/cdp-wrapped.json"
    static let bare = "handmade/cdp-bare.json"

    @Test func wrappedResultImportsWithNotes() throws {
        let imported = try ImportFixture.imported(Self.wrapped)
        #expect(imported.format == .chromeAXTree)
        #expect(imported.tree.screen == Size(width: 1280, height: 800))
        #expect(imported.notes == [
            "a Chrome DevTools dump has no geometry: no frames, dump order, activation by id, screen set to 1280×800",
            "1 childIds name nodes that are not in the dump (a depth-limited dump?); skipped",
        ])
    }

    @Test func ignoredNodesAreSkippedAndTheirChildrenLifted() throws {
        let tree = try ImportFixture.tree(Self.wrapped)
        #expect(tree.root.id == "1")
        #expect(tree.root.children.map(\.id) == ["3", "6", "20"])
        #expect(tree.node(id: "2") == nil)
    }

    @Test func modalDialogIsTheOnlyScope() throws {
        let tree = try ImportFixture.tree(Self.wrapped)
        #expect(tree.node(id: "20")?.viewIsModal == true)
        let model = ScanModel(tree: tree)
        #expect(model.scopeID == "20")
        #expect(model.items.map(\.description) == ["Accept, button", "Privacy policy, link"])
    }

    @Test func rolesAndPropertiesMapOntoTraitsAndValues() throws {
        var tree = try ImportFixture.tree(Self.wrapped)
        // Without the modal dialog, the page itself is scanned, in dump order.
        tree.root.children.removeLast()
        let model = ScanModel(tree: tree)
        #expect(model.items.map(\.description) == [
            "Home, link", "Email, ana@example.com", "Gift wrap, checked, button", "Quantity, 2, adjustable",
            "Shipping options, collapsed, button", "Search products, search field", "Pay now, button",
        ])
        #expect(tree.node(id: "7")?.traits == [.header])
        #expect(tree.node(id: "5")?.traits == [.image])
        let coupon = try #require(tree.node(id: "11"))
        #expect(coupon.traits == [.button, .notEnabled])
        #expect(coupon.hint == "Applies the code to your order.")
        #expect(tree.node(id: "4")?.children.isEmpty == true, "a link absorbs its text")
        #expect(tree.node(id: "42") == nil)
    }

    @Test func noFramesAndDeclaredOrderEverywhere() throws {
        let tree = try ImportFixture.tree(Self.wrapped)
        for node in tree.allNodes {
            #expect(node.frame == nil)
            #expect(node.activationPoint == nil)
            if !node.children.isEmpty { #expect(node.order == .declared) }
        }
    }

    @Test func bareNodesObjectWithTabsSwitchAndMixedState() throws {
        let imported = try ImportFixture.imported(Self.bare)
        #expect(imported.format == .chromeAXTree)
        let model = ScanModel(tree: imported.tree)
        #expect(model.items.map(\.description) == [
            "Overview, button, selected", "Specs, button", "Dark mode, not checked, button", "Notify me, mixed, button",
        ])
        #expect(imported.tree.node(id: "2")?.traits == [.tabBar])
        #expect(imported.tree.node(id: "9")?.label == "Café crème ☕ – 日本語")
    }

    @Test func bareArrayOfNodes() throws {
        let json = #"[{"nodeId": "1", "role": {"value": "RootWebArea"}, "childIds": ["2"]}, {"nodeId": "2", "role": {"value": "button"}, "name": {"value": "Go"}}]"#
        let tree = try TreeFile.decode(Array(json.utf8), file: "a.json")
        #expect(ScanModel(tree: tree).items.map(\.id) == ["2"])
    }

    private func error(_ json: String) -> InputError? {
        inputError { () throws(InputError) in _ = try TreeFile.decode(Array(json.utf8), file: "c.json") }
    }

    @Test func repeatedNodeIdIsAnError() {
        let e = error("{\"nodes\": [\n{\"nodeId\": \"1\", \"childIds\": [\"2\"]},\n{\"nodeId\": \"1\"}]}")
        #expect(e?.line == 3)
        #expect(e?.path == "nodes[1].nodeId")
        #expect(e?.message == "nodeId \"1\" appears twice (first at nodes[0]); children refer to nodes by id, so ids must be unique")
    }

    @Test func nodeUnderTwoParentsIsAnError() {
        let e = error(#"{"nodes": [{"nodeId": "1", "childIds": ["2", "3"]}, {"nodeId": "2", "childIds": ["3"]}, {"nodeId": "3"}]}"#)
        #expect(e?.path == "nodes[1].childIds[0]")
        #expect(e?.message == "node \"3\" is already the child of node \"1\" (nodes[0].childIds[1]); a node has one parent (a cycle in childIds?)")
    }

    @Test func cycleWithoutRootIsAnError() {
        let e = error(#"{"nodes": [{"nodeId": "1", "childIds": ["2"]}, {"nodeId": "2", "childIds": ["1"]}]}"#)
        #expect(e?.path == "nodes")
        #expect(e?.message == "every node is some node's child: the childIds form a cycle, there is no root")
    }

    @Test func wrongTypesNameTheirPath() {
        #expect(error(#"{"nodes": [{"role": {"value": "button"}}]}"#)?.message == "missing key \"nodeId\"")
        let role = error(#"{"nodes": [{"nodeId": "1", "role": "button"}]}"#)
        #expect(role?.path == "nodes[0].role")
        #expect(role?.message == "expected an AXValue object ({\"type\": …, \"value\": …}), found a string")
        let kids = error(#"{"nodes": [{"nodeId": "1", "childIds": [true]}]}"#)
        #expect(kids?.path == "nodes[0].childIds[0]")
        #expect(error(#"{"nodes": [{"nodeId": "1", "ignored": "no"}]}"#)?.path == "nodes[0].ignored")
        #expect(error(#"{"nodes": []}"#)?.message == "no nodes: the dump is empty")
        #expect(error(#"{"nodes": [3]}"#)?.message == "expected an AXNode object, found a number")
    }
}

@Suite("Chromium macOS dump importer")
struct ChromiumMacDumpImporterTests {
    private func tree(_ text: String) throws(InputError) -> ElementTree {
        try TreeFile.decode(Array(text.utf8), file: "dump.txt")
    }

    private func error(_ text: String) -> InputError? {
        inputError { () throws(InputError) in _ = try tree(text) }
    }

    @Test func rolesAndAttributes() throws {
        let t = try tree("""
        # comment
        AXWebArea AXTitle='Shop'

        ++AXHeading AXTitle='Basket'
        ++AXCheckBox AXTitle='Gift wrap' AXValue=1 AXDOMIdentifier='gift'
        ++AXTextField AXDescription='Email' AXValue='ana@example.com' AXSubrole=AXSearchField
        ++AXButton AXTitle='Pay' AXEnabled=0 AXHelp='Pays now.' AXSize={w: 10, h: 20}
        ++AXLink AXTitle='It's here' AXSelected=1
        ++AXStaticText AXValue='Total: 3'
        ++AXSlider AXDescription='Quantity' AXValue=2
        """)
        #expect(t.root.label == "Shop")
        let kids = t.root.children
        #expect(kids.map(\.traits) == [[.header], [.button], [.searchField], [.button, .notEnabled], [.link, .selected], [.staticText], [.adjustable]])
        #expect(kids[1].id == "gift")
        #expect(kids[1].value == "checked")
        #expect(kids[2].label == "Email")
        #expect(kids[2].value == "ana@example.com")
        #expect(kids[3].hint == "Pays now.")
        #expect(kids[4].label == "It's here")
        #expect(kids[5].label == "Total: 3")
        #expect(kids[6].value == "2")
    }

    @Test func elementsAbsorbTheirChildrenAndTakeTheirWords() throws {
        let t = try tree("AXWebArea\n++AXButton\n++++AXStaticText AXValue='Go'\n")
        #expect(t.root.children[0].label == "Go")
        #expect(t.root.children[0].children.isEmpty)
    }

    @Test func structureErrorsNameTheLine() {
        let jump = error("AXWebArea\n++++AXButton")
        #expect(jump?.line == 2)
        #expect(jump?.message.hasPrefix("depth 2") == true)
        let odd = error("AXWebArea\n+++AXButton")
        #expect(odd?.line == 2)
        #expect(odd?.message == "odd number of '+' (3): each level of depth is '++'")
        let role = error("AXWebArea\n++button")
        #expect(role?.column == 3)
        #expect(role?.message == "expected an AX role such as AXButton, found \"button\"")
        let quote = error("AXWebArea\n++AXButton AXTitle='open")
        #expect(quote?.column == 20)
        #expect(quote?.message == "unterminated quoted value for AXTitle")
    }

    @Test func textThatIsNoDumpIsRefused() {
        #expect(error("hello world")?.message.hasPrefix("not a tree file switchscan reads") == true)
        #expect(TreeFile.detect(Array("AXWebArea\n".utf8)) == .chromiumMacDump)
        #expect(TreeFile.detect(Array("AXE is a tool".utf8)) == nil)
    }
}
