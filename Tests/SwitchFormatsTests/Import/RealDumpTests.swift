import SwitchCore
import Testing
@testable import SwitchFormats

/// Every real dump (`Fixtures/import/realdata`, see its PROVENANCE.md) imports, shows and audits,
/// and its scan order matches the golden file, which was checked by reading the dump.
@Suite("Real dumps")
struct RealDumpTests {
    @Test(arguments: ImportFixture.realDumps)
    func scanOrderMatchesTheGoldenFile(_ file: String) throws {
        let base = file.split(separator: "/").last ?? ""
        let name = base.split(separator: ".").dropLast().joined(separator: ".")
        let golden = try ImportFixture.text("golden/\(name).txt")
        let model = ScanModel(tree: try ImportFixture.tree(file))
        #expect(TreeReport.text(model).joined(separator: "\n") + "\n" == golden)
    }

    @Test(arguments: ImportFixture.realDumps)
    func importsShowsAndAuditsWithoutError(_ file: String) throws {
        let imported = try ImportFixture.imported(file)
        if file.hasPrefix("realdata/web/") {
            #expect(imported.format == .chromiumMacDump)
            #expect(imported.notes.count == 1, "no geometry")
        } else {
            #expect(imported.format == (file.hasPrefix("realdata/ios/") ? .xcuitest : .appiumUiAutomator2))
            #expect(imported.notes.isEmpty)
        }
        let model = ScanModel(tree: imported.tree)
        #expect(!model.items.isEmpty)
        _ = TreeReport.json(model).rendered(indent: 2)
        let findings = TreeAudit.findings(imported.tree, model: model)
        #expect(!findings.contains { $0.rule == .duplicateID }, "the importer keeps only unique source ids")
    }

    /// `tree import` output reads back as the same tree.
    @Test(arguments: ImportFixture.realDumps)
    func nativeOutputReadsBackUnchanged(_ file: String) throws {
        let tree = try ImportFixture.tree(file)
        let json = TreeEncoder.encode(tree).rendered(indent: 2)
        let again = try TreeFile.decode(Array(json.utf8), file: "out.json")
        #expect(again == tree)
    }

    /// Ids are unique and every source id that names one node survives.
    @Test(arguments: ImportFixture.realDumps)
    func idsAreUnique(_ file: String) throws {
        let ids = try ImportFixture.tree(file).allNodes.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(!ids.contains(""))
    }

    @Test func auditFindingsPerFile() throws {
        var found: [String: [String]] = [:]
        for file in ImportFixture.realDumps {
            let tree = try ImportFixture.tree(file)
            found[file] = TreeAudit.findings(tree).map(\.description)
        }
        #expect(found["realdata/ios/appium-universal-xml-plugin_ios.xml"] == [
            "fakeTab: scan item has no label", "fakeKey: scan item has no label",
        ])
        #expect(found["realdata/ios/appium-universal-xml-plugin_ios-edge.xml"] == [
            "/0/1: scan item has no label", "/0/2: scan item has no label",
            "/0/3: scan item has no label", "/0/4: scan item has no label",
        ])
        #expect(found["realdata/ios/shirates_ios_AccessibilityScreen.xml"] == [
            "/0/0/0/0/0/1/0/0/0/0/0/0/0/0: label \"Accessibility features help you customize your iPhone for your individual needs.\" ends with a period",
        ])
        #expect(found["realdata/ios/shirates_ios_DateAndTime_ja.xml"] == [])
        #expect(found["realdata/android/appium-universal-xml-plugin_android.xml"] == ["/0/0/0/0/0/1/0/0/0/0: scan item has no label"])
        #expect(found["realdata/android/shirates_android_NetworkAndInternetScreen.xml"] == [])
        #expect(found["realdata/android/shirates_android_SecurityScreen.xml"] == [])
        #expect(found["realdata/web/chromium-dumpaxtree_commandfor-api-popover-menus-expected-mac.txt"] == [
            "/0/0: scan item has no label", "/0/2: scan item has no label",
        ])
    }
}

@Suite("Real iOS dumps")
struct RealIOSDumpTests {
    static let settings = "realdata/ios/shirates_ios_AccessibilityScreen.xml"
    static let calendar = "realdata/ios/shirates_ios_DateAndTime_ja.xml"
    static let theApp = "realdata/ios/appium-universal-xml-plugin_ios.xml"
    static let edge = "realdata/ios/appium-universal-xml-plugin_ios-edge.xml"

    @Test func settingsCellIsOneScanItemLabelledFromItsContent() throws {
        let tree = try ImportFixture.tree(Self.settings)
        let cell = try #require(tree.node(id: "Display & Text Size"))
        #expect(cell.label == "Display & Text Size")
        #expect(cell.traits == [.button])
        #expect(cell.children.isEmpty, "the cell absorbs its image, text, separators and chevron")
        #expect(cell.isScanItem)
        #expect(tree.nodes(label: "chevron").isEmpty)
        #expect(tree.node(id: "DISPLAY_AND_TEXT") == nil)
    }

    /// The navigation bar's back button comes first, as on the screen: the full-screen table view
    /// it sits on is placed by its content (the cells start at y = 183), not by its frame (y = 0).
    @Test func settingsScanOrderIsTheBackButtonThenTheCells() throws {
        let model = ScanModel(tree: try ImportFixture.tree(Self.settings))
        #expect(model.labels == ["Settings", "Display & Text Size", "Motion", "Spoken Content", "Touch", "Keyboards",
                                 "Subtitles & Captioning"])
        #expect(model.screen == Size(width: 375, height: 667))
    }

    @Test func settingsSectionHeadersAreElementsButNotScanItems() throws {
        let model = ScanModel(tree: try ImportFixture.tree(Self.settings))
        let vision = try #require(model.accessibilityElements.first { $0.label == "VISION" })
        #expect(!vision.isScanItem)
        #expect(model.item(label: "VISION") == nil)
    }

    @Test func invisibleWindowIsHidden() throws {
        let tree = try ImportFixture.tree(Self.settings)
        #expect(tree.root.children.count == 2)
        #expect(tree.root.children[1].elementsHidden)
        #expect(!tree.root.children[0].elementsHidden)
    }

    @Test func japaneseLabelsStayIntact() throws {
        let model = ScanModel(tree: try ImportFixture.tree(Self.calendar))
        // Navigation bar, then the week strip, then the toolbar: top to bottom as on the screen.
        #expect(model.labels == ["12月", "リスト", "検索", "追加", "12月10日 日曜日", "12月11日 月曜日", "12月12日 火曜日",
                                 "12月13日 水曜日", "12月14日 木曜日", "12月16日 土曜日", "今日", "カレンダー", "出席依頼"])
        #expect(model.item(label: "検索")?.description == "検索, button")
    }

    @Test func invisibleHourSlotsAreHiddenAndVisibleOnesAreElementsButNotStops() throws {
        let tree = try ImportFixture.tree(Self.calendar)
        let model = ScanModel(tree: tree)
        #expect(tree.node(id: "0:00")?.elementsHidden == true)
        #expect(tree.node(id: "11:00")?.elementsHidden == true)
        #expect(!model.accessibilityElements.contains { $0.id == "0:00" })
        let noon = try #require(model.accessibilityElements.first { $0.id == "12:00" })
        #expect(!noon.isScanItem, "an Other with accessible=\"true\" has no trait that makes it a stop")
        #expect(model.accessibilityElements.contains { $0.label == "14:00, 進行中" })
    }

    @Test func buttonAbsorbsItsTitleAndAccessibleFalseContainersStayContainers() throws {
        let tree = try ImportFixture.tree(Self.calendar)
        let today = try #require(tree.node(id: "今日"))
        #expect(today.children.isEmpty)
        #expect(today.isScanItem)
        // The scroll bar indicators are accessible="false" leaves: not elements.
        let model = ScanModel(tree: tree)
        #expect(!model.accessibilityElements.contains { $0.label == "垂直スクロールバー, 3ページ" })
    }

    @Test func repeatedNamesLoseTheirIdUniqueOnesKeepIt() throws {
        let tree = try ImportFixture.tree(Self.calendar)
        #expect(tree.node(id: "scroll-view3") != nil)
        #expect(tree.node(id: "DayViewContainerView") != nil)
        // "カレンダー" names the application and a toolbar button.
        #expect(tree.node(id: "カレンダー") == nil)
        #expect(tree.nodes(label: "カレンダー").count == 2)
    }

    @Test func appiumNestedDuplicatesCollapse() throws {
        let tree = try ImportFixture.tree(Self.theApp)
        // The dump has four nodes with this label: three with one frame, one smaller.
        #expect(tree.nodes(label: "Login username password loginBtn").map(\.frame) == [
            Rect(x: 0, y: 92, width: 414, height: 804), Rect(x: 0, y: 92, width: 414, height: 273),
        ])
        // username: Other, Other (same frame) → one; Other at y 185 holds the field and the fakes.
        #expect(tree.nodes(label: "username").map(\.frame) == [
            Rect(x: 50, y: 183, width: 314, height: 40), Rect(x: 50, y: 185, width: 314, height: 51),
            Rect(x: 50, y: 185, width: 314, height: 51),
        ])
        // password: the Other at y 225 and its secure field are one view: the field remains.
        let password = tree.nodes(label: "password")
        #expect(password.count == 2)
        #expect(password.last?.value == "•••••••••")
        #expect(password.last?.respondsToUserInteraction == true)
    }

    @Test func theAppScanItems() throws {
        let model = ScanModel(tree: try ImportFixture.tree(Self.theApp))
        #expect(model.items.map(\.description) == ["The App, button", "username, alice", "button", "key", "password, •••••••••"])
        #expect(model.item(label: "The App")?.id == "The App")
        #expect(model.item(label: "loginBtn") == nil, "an Other without traits is no stop")
    }

    @Test func edgeFixtureSkipsUnknownTagsAndReadsEmptyAttributesAsNotGiven() throws {
        let tree = try ImportFixture.tree(Self.edge)
        // <AppiumAUT> and the two <SomeRandoElement>s are skipped: the application holds the Other.
        #expect(tree.root.label == "TheApp")
        #expect(tree.root.children.count == 1)
        let container = tree.root.children[0]
        #expect(container.label == "username")
        #expect(container.children.count == 5)
        // enabled="" is not "false": the tabs and keys are enabled stops.
        let model = ScanModel(tree: tree)
        #expect(model.items.map(\.description) == ["username, alice", "button", "button", "key", "key"])
        #expect(!container.children.contains { $0.traits.contains(.notEnabled) })
        // The first key absorbs its child.
        #expect(container.children[3].traits == [.keyboardKey])
        #expect(container.children[3].children.isEmpty)
        #expect(tree.node(id: "fakeOther") == nil)
    }
}

@Suite("Real Android dumps")
struct RealAndroidDumpTests {
    static let theApp = "realdata/android/appium-universal-xml-plugin_android.xml"
    static let network = "realdata/android/shirates_android_NetworkAndInternetScreen.xml"
    static let security = "realdata/android/shirates_android_SecurityScreen.xml"

    @Test func contentDescIsTheLabelAndAFieldsTextItsValue() throws {
        let model = ScanModel(tree: try ImportFixture.tree(Self.theApp))
        let username = try #require(model.item(label: "username"))
        #expect(username.element.value == "alice")
        #expect(username.element.customActions == ["Long press"])
        #expect(username.element.traits.isEmpty, "a text field is no button")
        #expect(model.items.count == 3)
        #expect(model.screen == Size(width: 1080, height: 1920))
    }

    @Test func unlabelledImageButtonIsAStopWithoutLabel() throws {
        let model = ScanModel(tree: try ImportFixture.tree(Self.theApp))
        #expect(model.items[0].element.label == nil)
        #expect(model.items[0].element.traits == [.button])
        #expect(model.items[0].element.frame == Rect(x: 0, y: 72, width: 168, height: 168))
    }

    @Test func focusableViewWithoutActionIsAnElementNotAStop() throws {
        let tree = try ImportFixture.tree(Self.theApp)
        let model = ScanModel(tree: tree)
        let login = try #require(model.accessibilityElements.first { $0.label == "loginBtn" })
        #expect(!login.isScanItem)
        #expect(login.children.isEmpty, "its same-bounds text is absorbed")
        #expect(model.accessibilityElements.filter { $0.label == "Login" }.map(\.traits) == [[.staticText]])
    }

    @Test func settingsRowWithItsOwnSwitchIsAGroupOfTwoStops() throws {
        let tree = try ImportFixture.tree(Self.network)
        let model = ScanModel(tree: tree)
        let row = try #require(model.item(label: "Wi‑Fi, AndroidWifi / No internet"))
        #expect(row.element.traits == [.button])
        #expect(row.element.frame == Rect(x: 0, y: 220, width: 1080, height: 200))
        let toggle = try #require(model.item(label: "Wi‑Fi"))
        #expect(toggle.id == "android:id/widget_frame")
        #expect(toggle.element.value == "checked", "the same-bounds Switch is absorbed into its frame")
        #expect(row.groupPath == toggle.groupPath)
        let group = model.groups[try #require(row.groupPath.last)]
        #expect(group.items.count == 2)
    }

    @Test func absorbedSwitchGivesTheValueNotItsOnOffText() throws {
        let model = ScanModel(tree: try ImportFixture.tree(Self.network))
        let airplane = try #require(model.item(label: "Airplane mode"))
        #expect(airplane.element.value == "not checked")
        #expect(airplane.description == "Airplane mode, not checked, button")
    }

    @Test func rowsAreLabelledFromTheirTexts() throws {
        let model = ScanModel(tree: try ImportFixture.tree(Self.network))
        #expect(model.labels == ["Navigate up", "Search settings", "Wi‑Fi, AndroidWifi / No internet", "Wi‑Fi",
                                 "Mobile network, T-Mobile", "Airplane mode", "Mobile plan", "Data Saver, Off",
                                 "Advanced, VPN, Private DNS"])
        #expect(model.screen == Size(width: 1080, height: 2088))
    }

    @Test func scrollableListCarriesTheScrollActions() throws {
        let tree = try ImportFixture.tree(Self.security)
        let list = try #require(tree.node(id: "com.android.settings:id/recycler_view"))
        #expect(list.customActions == ["Scroll forward", "Scroll backward"])
        #expect(!list.isElement)
        #expect(list.children.count == 11)
    }

    @Test func screenLockRowSplitsAroundItsSettingsButton() throws {
        let model = ScanModel(tree: try ImportFixture.tree(Self.security))
        let row = try #require(model.item(label: "Screen lock, Password"))
        let gear = try #require(model.item(label: "Settings"))
        #expect(gear.id == "com.android.settings:id/settings_button")
        #expect(model.itemIndex(id: gear.id) == model.itemIndex(id: row.id).map { $0 + 1 })
    }

    @Test func sectionTitlesAreTextNotStops() throws {
        let model = ScanModel(tree: try ImportFixture.tree(Self.security))
        let title = try #require(model.accessibilityElements.first { $0.label == "SECURITY STATUS" })
        #expect(title.traits == [.staticText])
        #expect(!title.isScanItem)
        #expect(model.items.count == 13)
    }
}

@Suite("Real Chromium dump")
struct RealChromiumDumpTests {
    static let menus = "realdata/web/chromium-dumpaxtree_commandfor-api-popover-menus-expected-mac.txt"

    @Test func menuItemsAreButtonsInDumpOrderAndExpandedIsTheValue() throws {
        let model = ScanModel(tree: try ImportFixture.tree(Self.menus))
        #expect(model.items.map(\.description) == [
            "collapsed, button", "First item, collapsed, button", "No command item, button", "Custom command item, button",
            "collapsed, button", "First item, collapsed, button", "First item, expanded, button", "Submenu1 first item, button",
            "Submenu1 second item, collapsed, button", "First item, collapsed, button",
        ])
    }

    @Test func structureFollowsThePlusSigns() throws {
        let tree = try ImportFixture.tree(Self.menus)
        #expect(tree.root.children.count == 1, "AXWebArea holds one AXGroup")
        #expect(tree.root.children[0].children.count == 6)
        #expect(tree.root.children[0].children[4].children.map(\.label) == ["First item", nil])
        #expect(tree.root.children[0].children[4].children[1].children.count == 2, "the AXMenu holds two items")
        #expect(tree.allNodes.allSatisfy { $0.frame == nil })
    }
}
