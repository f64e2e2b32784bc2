import Foundation
@testable import SwitchCore

/// Small trees for scanner tests. Containers keep their children in the order written
/// (`declared`), so a test reads in scan order whatever the frames are.
enum Fixture {
    /// A button with label = id uppercased ("a" → "A", spoken "A, button").
    static func button(_ id: String, actions: [String] = [], adjustable: Bool = false, frame: Rect? = nil) -> Element {
        Element(id: id, label: id.uppercased(), traits: adjustable ? [.button, .adjustable] : [.button],
                frame: frame, customActions: actions)
    }

    /// A container that always forms a group (`shouldGroupChildren`).
    static func group(_ id: String, label: String? = nil, _ children: [Element]) -> Element {
        Element(id: id, label: label, shouldGroupChildren: true, order: .declared, children: children)
    }

    static func tree(_ children: [Element], rootID: String = "root") -> ElementTree {
        ElementTree(screen: Size(width: 400, height: 800),
                    root: Element(id: rootID, frame: Rect(x: 0, y: 0, width: 400, height: 800), order: .declared, children: children))
    }

    static func model(_ children: [Element], rootID: String = "root") -> ScanModel {
        ScanModel(tree: tree(children, rootID: rootID))
    }

    /// a, b, c.
    static let abc = model([button("a"), button("b"), button("c")])

    /// Top level: group g (x, y), then c.
    static let groupThenC = model([group("g", label: "Tools", [button("x"), button("y")]), button("c")])

    /// The menu without its pages (as a profile hiding them has it; before issue 23, the whole
    /// menu): the default of `ScannerHarness`, so the tests of the menu's mechanics (loops, the
    /// step dwell, speech, targets, layouts) read short. ScannerMenuPageTests and the property
    /// tests scan the whole menu.
    static let plainMenu: MenuContext = {
        var c = MenuContext()
        c.settings.hide = MenuPage.allCases.map(\.id)
        return c
    }()

    /// The whole menu, every page (Pause only where the engine is there to pause).
    static func fullMenu(canPause: Bool = false) -> MenuContext {
        var c = MenuContext()
        c.canMoveWithoutTimer = true
        c.canResumeFromPause = canPause
        return c
    }

    static func settings(_ style: ScanningSettings.Style = .auto, _ change: (inout ScanningSettings) -> Void = { _ in }) -> ScanningSettings {
        var s = ScanningSettings()
        s.style = style
        change(&s)
        return s
    }

    /// The demo tree shipped with the tool (`Sources/switchscan/Demo/demo-tree.json`).
    static func demoModel(filePath: String = #filePath) throws -> ScanModel {
        var root = filePath
        for _ in 0..<4 { root = String(root[..<(root.lastIndex(of: "/") ?? root.startIndex)]) }
        let path = root + "/Sources/switchscan/Demo/demo-tree.json"
        guard let bytes = readFile(path) else { throw FixtureError.unreadable(path) }
        return ScanModel(tree: try TreeDecoder.decode(bytes, file: path))
    }

    enum FixtureError: Error { case unreadable(String) }

    private static func readFile(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }
}

