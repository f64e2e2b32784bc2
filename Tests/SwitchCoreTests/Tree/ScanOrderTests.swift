import SwitchCore
import Testing

@Suite("Scan order")
struct ScanOrderTests {
    @Test func readingOrderIsRowsTopToBottomThenLeadingToTrailing() throws {
        let json = screenTree([
            button("c", [200, 100, 50, 40]), button("a", [10, 10, 50, 40]),
            button("d", [10, 100, 50, 40]), button("b", [200, 12, 50, 40]),
        ])
        #expect(try scanIDs(json) == ["a", "b", "d", "c"])
    }

    @Test func rightToLeftMirrorsEachRow() throws {
        let json = screenTree([
            button("a", [10, 10, 50, 40]), button("b", [200, 12, 50, 40]),
            button("c", [10, 100, 50, 40]), button("d", [200, 100, 50, 40]),
        ], extra: ", \"layoutDirection\": \"rightToLeft\"")
        #expect(try scanIDs(json) == ["b", "a", "d", "c"])
    }

    @Test func rowOverlapOfExactlyHalfTheSmallerHeightJoinsTheRow() throws {
        // b overlaps a by 20 of its 40 points: same row, so b (leftmost) first.
        let json = screenTree([button("a", [100, 0, 50, 40]), button("b", [0, 20, 50, 40])])
        #expect(try scanIDs(json) == ["b", "a"])
    }

    @Test func rowOverlapJustUnderHalfStartsANewRow() throws {
        let json = screenTree([button("a", [100, 0, 50, 40]), button("b", [0, 20.5, 50, 40])])
        #expect(try scanIDs(json) == ["a", "b"])
    }

    @Test func aTallFrameDoesNotPullEverythingIntoItsRow() throws {
        // A sidebar spanning three rows: each row on the right is read after it, top to bottom.
        let json = screenTree([
            button("side", [0, 0, 80, 300]), button("r1", [100, 0, 50, 40]),
            button("r2", [100, 100, 50, 40]), button("r3", [100, 200, 50, 40]),
        ])
        #expect(try scanIDs(json) == ["side", "r1", "r2", "r3"])
    }

    @Test func declaredOrderKeepsChildrenAsListed() throws {
        let json = screenTree([
            button("c", [0, 300, 50, 40]), button("a", [0, 0, 50, 40]), button("b", [0, 100, 50, 40]),
        ], rootExtra: ", \"order\": \"declared\"")
        #expect(try scanIDs(json) == ["c", "a", "b"])
    }

    @Test func elementsWithoutAFrameFollowFramedSiblingsInDeclaredOrder() throws {
        let json = screenTree([button("n2"), button("b", [0, 100, 50, 40]), button("n1"), button("a", [0, 0, 50, 40])])
        #expect(try scanIDs(json) == ["a", "b", "n2", "n1"])
    }

    @Test func aContainersItemsStayTogether() throws {
        // The column container sits left of "x" but spans two rows; its items are not interleaved.
        let json = screenTree([
            """
            {"id": "column", "frame": [0, 0, 100, 200], "children": [\(button("c2", [0, 100, 100, 40])), \(button("c1", [0, 0, 100, 40]))]}
            """,
            button("x", [200, 10, 50, 40]),
        ])
        #expect(try scanIDs(json) == ["c1", "c2", "x"])
    }

    @Test func anElementHidesItsDescendants() throws {
        let json = screenTree([
            """
            {"id": "cell", "isAccessibilityElement": true, "label": "Cell", "traits": ["button"], "frame": [0, 0, 400, 60],
             "children": [\(button("inner", [300, 10, 40, 40]))]}
            """,
        ])
        #expect(try scanIDs(json) == ["cell"])
    }

    @Test func aContainerContributesItsChildren() throws {
        let json = screenTree([
            "{\"id\": \"box\", \"frame\": [0, 0, 400, 60], \"children\": [\(button("one", [0, 0, 50, 40])), \(button("two", [60, 0, 50, 40]))]}",
        ])
        let model = ScanModel(tree: try loadTree(json))
        #expect(model.items.map(\.id) == ["one", "two"])
        #expect(!model.accessibilityElements.contains { $0.id == "box" })
    }

    @Test func elementsHiddenRemovesASubtree() throws {
        let json = screenTree([
            button("shown", [0, 0, 50, 40]),
            "{\"id\": \"hid\", \"elementsHidden\": true, \"frame\": [0, 100, 400, 60], \"children\": [\(button("gone", [0, 100, 50, 40]))]}",
            "{\"id\": \"hiddenButton\", \"label\": \"X\", \"traits\": [\"button\"], \"elementsHidden\": true}",
        ])
        #expect(try scanIDs(json) == ["shown"])
    }

    @Test func whileAModalViewIsPresentOnlyItsSubtreeCounts() throws {
        let json = screenTree([
            button("behind", [0, 0, 50, 40]),
            "{\"id\": \"alert\", \"viewIsModal\": true, \"frame\": [50, 300, 300, 200], \"children\": [\(button("ok", [60, 400, 100, 40])), \(button("cancel", [200, 400, 100, 40]))]}",
        ])
        let model = ScanModel(tree: try loadTree(json))
        #expect(model.items.map(\.id) == ["ok", "cancel"])
        #expect(model.scopeID == "alert")
    }

    @Test func theLastModalInDocumentOrderWinsIncludingANestedOne() throws {
        let nested = screenTree([
            "{\"id\": \"sheet\", \"viewIsModal\": true, \"frame\": [0, 400, 400, 400], \"children\": [\(button("s1", [0, 400, 50, 40])), {\"id\": \"confirm\", \"viewIsModal\": true, \"frame\": [0, 600, 400, 100], \"children\": [\(button("yes", [0, 600, 50, 40]))]}]}",
            "{\"id\": \"earlier\", \"frame\": [0, 0, 400, 100], \"children\": [\(button("e1", [0, 0, 50, 40]))]}",
        ])
        #expect(try scanIDs(nested) == ["yes"])
        let siblings = screenTree([
            "{\"id\": \"m1\", \"viewIsModal\": true, \"frame\": [0, 0, 400, 100], \"children\": [\(button("a", [0, 0, 50, 40]))]}",
            "{\"id\": \"m2\", \"viewIsModal\": true, \"frame\": [0, 200, 400, 100], \"children\": [\(button("b", [0, 200, 50, 40]))]}",
        ])
        #expect(try scanIDs(siblings) == ["b"])
    }

    @Test func aModalInsideAHiddenSubtreeIsNotPresent() throws {
        let json = screenTree([
            button("a", [0, 0, 50, 40]),
            "{\"id\": \"gone\", \"elementsHidden\": true, \"children\": [{\"id\": \"m\", \"viewIsModal\": true, \"children\": [\(button("b", [0, 200, 50, 40]))]}]}",
        ])
        #expect(try scanIDs(json) == ["a"])
    }

    @Test func scanItemsAreElementsThatRespondToUserInteraction() throws {
        let json = screenTree([
            "{\"id\": \"text\", \"label\": \"Hello\", \"traits\": [\"staticText\"], \"frame\": [0, 0, 100, 20]}",
            "{\"id\": \"link\", \"label\": \"Docs\", \"traits\": [\"link\"], \"frame\": [0, 30, 100, 20]}",
            "{\"id\": \"search\", \"label\": \"Search\", \"traits\": [\"searchField\"], \"frame\": [0, 60, 100, 20]}",
            "{\"id\": \"key\", \"label\": \"Q\", \"traits\": [\"keyboardKey\"], \"frame\": [0, 90, 100, 20]}",
            "{\"id\": \"slider\", \"label\": \"Volume\", \"traits\": [\"adjustable\"], \"frame\": [0, 120, 100, 20]}",
            "{\"id\": \"tabs\", \"label\": \"Tabs\", \"traits\": [\"tabBar\"], \"frame\": [0, 150, 100, 20]}",
            "{\"id\": \"canvas\", \"label\": \"Canvas\", \"traits\": [\"allowsDirectInteraction\"], \"frame\": [0, 180, 100, 20]}",
            "{\"id\": \"actions\", \"label\": \"Mail\", \"customActions\": [{\"name\": \"Archive\"}], \"frame\": [0, 210, 100, 20]}",
            "{\"id\": \"forced\", \"label\": \"Photo\", \"traits\": [\"image\"], \"respondsToUserInteraction\": true, \"frame\": [0, 240, 100, 20]}",
            "{\"id\": \"suppressed\", \"label\": \"Go\", \"traits\": [\"button\"], \"respondsToUserInteraction\": false, \"frame\": [0, 270, 100, 20]}",
            "{\"id\": \"disabled\", \"label\": \"Send\", \"traits\": [\"button\", \"notEnabled\"], \"frame\": [0, 300, 100, 20]}",
            "{\"id\": \"disabledForced\", \"label\": \"Send\", \"traits\": [\"notEnabled\"], \"respondsToUserInteraction\": true, \"frame\": [0, 330, 100, 20]}",
        ])
        #expect(try scanIDs(json) == ["link", "search", "key", "slider", "tabs", "canvas", "actions", "forced"])
    }

    @Test func defaultIsAccessibilityElementRule() throws {
        // A leaf with a label or a trait is an element; a leaf with neither, or a node with
        // children, is a container.
        #expect(Element(label: "x").isElement)
        #expect(Element(traits: .image).isElement)
        #expect(!Element(label: "").isElement)
        #expect(!Element().isElement)
        #expect(!Element(label: "x", children: [Element(label: "y")]).isElement)
        #expect(Element(isAccessibilityElement: true, children: [Element(label: "y")]).isElement)
        #expect(!Element(isAccessibilityElement: false, label: "x").isElement)
    }
}
