import Foundation
import SwitchCore
import Testing
@testable import SwitchFormats

/// Fixtures under `Fixtures/import/` and small helpers to look into imported trees.
enum ImportFixture {
    static let realIOS = [
        "appium-universal-xml-plugin_ios.xml", "appium-universal-xml-plugin_ios-edge.xml",
        "shirates_ios_AccessibilityScreen.xml", "shirates_ios_DateAndTime_ja.xml",
    ]
    static let realAndroid = [
        "appium-universal-xml-plugin_android.xml", "shirates_android_NetworkAndInternetScreen.xml",
        "shirates_android_SecurityScreen.xml",
    ]
    static let realWeb = ["chromium-dumpaxtree_commandfor-api-popover-menus-expected-mac.txt"]
    static let realDumps = realIOS.map { "realdata/ios/" + $0 } + realAndroid.map { "realdata/android/" + $0 }
        + realWeb.map { "realdata/web/" + $0 }

    static func url(_ relative: String) throws -> URL {
        let base = try #require(Bundle.module.resourceURL)
        return base.appendingPathComponent("Fixtures/import/" + relative)
    }

    static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(relative)))
    }

    static func text(_ relative: String) throws -> String {
        String(decoding: try bytes(relative), as: UTF8.self)
    }

    static func imported(_ relative: String) throws -> ImportedTree {
        try TreeFile.importTree(bytes(relative), file: relative)
    }

    static func tree(_ relative: String) throws -> ElementTree {
        try imported(relative).tree
    }
}

extension ElementTree {
    /// Every node in document order.
    var allNodes: [Element] {
        var out: [Element] = []
        forEachNode { e, _ in out.append(e) }
        return out
    }

    func node(id: String) -> Element? { allNodes.first { $0.id == id } }

    func nodes(label: String) -> [Element] { allNodes.filter { $0.label == label } }
}

extension ScanModel {
    func item(label: String) -> ScanItem? { items.first { $0.element.label == label } }

    var labels: [String] { items.map { $0.element.label ?? "" } }
}

/// The error an expression throws, for `#expect` on its fields.
func inputError(_ body: () throws(InputError) -> Void) -> InputError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}
