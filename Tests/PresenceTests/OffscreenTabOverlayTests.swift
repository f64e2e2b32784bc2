import SwitchCore
import SwitchDisplay
@testable import SwitchDisplayServers
@testable import SwitchOverlay
import Testing

/// The tab for a web page's part out of view (issue 19), drawn by the overlay under a real X
/// server and read back from it; part of `OverlayTests` (one X test at a time). The live desktop
/// gives such a part a frame of no height along the viewport's edge (`AtspiMapping.frame`); its
/// items have no frame.
extension OverlayTests {
    /// A page in a viewport from y 100 to 500: a section above it, two links on screen, a section below.
    static func pageWithPartsOutOfView() -> ElementTree {
        func link(_ id: String, _ frame: Rect?) -> Element {
            Element(id: id, label: id, traits: .link, frame: frame)
        }
        let above = Element(id: "s1", label: "Section 1", frame: Rect(x: 50, y: 100, width: 700, height: 0), shouldGroupChildren: true,
                            children: [link("Item 1.1", nil), link("Item 1.2", nil)])
        let below = Element(id: "s12", label: "Section 12", frame: Rect(x: 50, y: 500, width: 700, height: 0), shouldGroupChildren: true,
                            children: [link("Item 12.1", nil), link("Item 12.2", nil)])
        let shown = Element(id: "nav", label: "Navigation", frame: Rect(x: 50, y: 150, width: 700, height: 200), shouldGroupChildren: true,
                            children: [link("Home", Rect(x: 60, y: 160, width: 80, height: 30)), link("News", Rect(x: 60, y: 260, width: 80, height: 30))])
        return ElementTree(screen: Size(width: 800, height: 600),
                           root: Element(id: "page", frame: Rect(x: 50, y: 100, width: 700, height: 400), children: [above, shown, below]))
    }

    @Test func aPartOutOfViewShowsATabAtTheViewportsEdgeWithItsLabel() throws {
        let x = try XvfbServer()
        let overlay = try Overlay(settings: .init(), display: x.display)
        let model = ScanModel(tree: Self.pageWithPartsOutOfView())
        let tab = overlay.offscreenTab

        // The part below: "▼ Section 12" standing on the viewport's bottom edge, from its left end.
        var s = try Self.shot(x, overlay, [.scan(started: true), .highlight(id: "s12", kind: .group, label: "Section 12")], model: model)
        Self.keep(s, "offscreen-below")
        #expect(tab.window.isShown && tab.lines == ["▼ Section 12"], "\(tab.lines)")
        var f = tab.window.frame
        #expect(f.x == 58 && f.y + f.height == 500 && f.width > 40, "\(f)")
        // Drawn: the panel's pixels are not the root window's black, and below the edge nothing is.
        let inside = (f.x..<(f.x + f.width)).filter { s.rgb($0, f.y + f.height / 2) != 0 }.count
        #expect(inside > f.width / 2, "\(inside) of \(f.width) pixels drawn on the tab's middle row")
        #expect(s.rgb(f.x + f.width / 2, 540) == 0)

        // The part above: "▲ Section 1" hanging from the top edge.
        s = try Self.shot(x, overlay, [.highlight(id: "s1", kind: .group, label: "Section 1")], model: model)
        Self.keep(s, "offscreen-above")
        #expect(tab.window.isShown && tab.lines == ["▲ Section 1"], "\(tab.lines)")
        f = tab.window.frame
        #expect(f.x == 58 && f.y == 100, "\(f)")

        // A part on screen and an item on screen: no tab.
        _ = try Self.shot(x, overlay, [.highlight(id: "nav", kind: .group, label: "Navigation")], model: model)
        #expect(!tab.window.isShown)
        _ = try Self.shot(x, overlay, [.highlight(id: "Home", kind: .item, label: "Home")], model: model)
        #expect(!tab.window.isShown)
        // Stopped: gone.
        _ = try Self.shot(x, overlay, [.scan(started: false)], model: model)
        #expect(!tab.window.isShown)
    }
}
