import SwitchCore
import Testing

@Suite("Groups")
struct GroupTests {
    @Test func aContainerWithTwoScanItemsAndItsOwnFrameIsAGroup() throws {
        let json = screenTree([
            "{\"id\": \"toolbar\", \"frame\": [0, 0, 400, 50], \"children\": [\(button("a", [0, 0, 50, 40])), \(button("b", [60, 0, 50, 40]))]}",
            button("c", [0, 100, 50, 40]),
        ])
        let model = ScanModel(tree: try loadTree(json))
        #expect(model.groups.map(\.id) == ["toolbar"])
        #expect(model.topStops == [.group(0), .item(2)])
        #expect(model.groups[0].stops == [.item(0), .item(1)])
        #expect(model.items.map(\.groupPath) == [[0], [0], []])
    }

    @Test func aContainerWithTheSameFrameAsItsParentGroupIsNotAGroup() throws {
        let json = screenTree([
            "{\"id\": \"wrapper\", \"frame\": [0, 0, 400, 800], \"children\": [\(button("a", [0, 0, 50, 40])), \(button("b", [60, 0, 50, 40]))]}",
        ])
        let model = ScanModel(tree: try loadTree(json))
        #expect(model.groups.isEmpty)
        #expect(model.topStops == [.item(0), .item(1)])
    }

    @Test func aContainerWithOneScanItemIsNotAGroupUnlessItAsks() throws {
        let one = screenTree(["{\"id\": \"box\", \"frame\": [0, 0, 100, 50], \"children\": [\(button("a", [0, 0, 50, 40]))]}"])
        #expect(ScanModel(tree: try loadTree(one)).groups.isEmpty)
        let asks = screenTree(["{\"id\": \"box\", \"shouldGroupChildren\": true, \"frame\": [0, 0, 100, 50], \"children\": [\(button("a", [0, 0, 50, 40]))]}"])
        #expect(ScanModel(tree: try loadTree(asks)).groups.map(\.id) == ["box"])
        let empty = screenTree(["{\"id\": \"box\", \"shouldGroupChildren\": true, \"frame\": [0, 0, 100, 50], \"children\": [{\"label\": \"text\"}]}"])
        #expect(ScanModel(tree: try loadTree(empty)).groups.isEmpty)
    }

    @Test func shouldGroupChildrenMakesAGroupEvenWithTheParentsFrame() throws {
        let json = screenTree([
            "{\"id\": \"same\", \"shouldGroupChildren\": true, \"frame\": [0, 0, 400, 800], \"children\": [\(button("a", [0, 0, 50, 40])), \(button("b", [60, 0, 50, 40]))]}",
        ])
        #expect(ScanModel(tree: try loadTree(json)).groups.map(\.id) == ["same"])
    }

    @Test func nestedGroupsHaveAPathAndOwnStops() throws {
        let json = screenTree([
            """
            {"id": "outer", "frame": [0, 0, 400, 300], "children": [
              {"id": "inner", "frame": [0, 0, 400, 100], "children": [\(button("a", [0, 0, 50, 40])), \(button("b", [60, 0, 50, 40]))]},
              \(button("c", [0, 200, 50, 40]))
            ]}
            """,
            button("d", [0, 400, 50, 40]),
        ])
        let model = ScanModel(tree: try loadTree(json))
        #expect(model.groups.map(\.id) == ["outer", "inner"])
        #expect(model.groups[0].stops == [.group(1), .item(2)])
        #expect(model.groups[1].parent == 0)
        #expect(model.groups[0].items == 0..<3)
        #expect(model.items.map(\.groupPath) == [[0, 1], [0, 1], [0], []])
        #expect(model.topStops == [.group(0), .item(3)])
    }

    @Test func aGroupInsideAGroupWithTheSameFrameIsNotAGroup() throws {
        let json = screenTree([
            """
            {"id": "outer", "frame": [0, 0, 400, 100], "children": [
              {"id": "same", "frame": [0, 0, 400, 100], "children": [\(button("a", [0, 0, 50, 40])), \(button("b", [60, 0, 50, 40]))]}
            ]}
            """,
            button("c", [0, 200, 50, 40]),
        ])
        #expect(ScanModel(tree: try loadTree(json)).groups.map(\.id) == ["outer"])
    }

    @Test func aGroupThatWouldBeItsLevelsOnlyStopIsDissolved() throws {
        // The top level would be just "list": highlighting it narrows nothing, so its items are
        // the top level. Inside "outer", "inner" would be the only stop: it is dissolved too.
        let lone = screenTree([
            "{\"id\": \"list\", \"frame\": [0, 100, 400, 300], \"children\": [\(button("a", [0, 100, 50, 40])), \(button("b", [0, 200, 50, 40]))]}",
        ])
        let model = ScanModel(tree: try loadTree(lone))
        #expect(model.groups.isEmpty)
        #expect(model.topStops == [.item(0), .item(1)])
        let nested = screenTree([
            """
            {"id": "outer", "frame": [0, 0, 400, 300], "children": [
              {"id": "inner", "frame": [0, 0, 400, 100], "children": [\(button("a", [0, 0, 50, 40])), \(button("b", [60, 0, 50, 40]))]}
            ]}
            """,
            button("c", [0, 400, 50, 40]),
        ])
        let m2 = ScanModel(tree: try loadTree(nested))
        #expect(m2.groups.map(\.id) == ["outer"])
        #expect(m2.groups[0].stops == [.item(0), .item(1)])
        #expect(m2.items.map(\.groupPath) == [[0], [0], []])
        // An explicit shouldGroupChildren is kept even when it is alone.
        let asked = screenTree([
            "{\"id\": \"list\", \"shouldGroupChildren\": true, \"frame\": [0, 100, 400, 300], \"children\": [\(button("a", [0, 100, 50, 40])), \(button("b", [0, 200, 50, 40]))]}",
        ])
        #expect(ScanModel(tree: try loadTree(asked)).groups.map(\.id) == ["list"])
    }

    @Test func aContainerIsPlacedByItsContentNotItsFrame() throws {
        // A full-screen content view starting at y = 0 and a navigation bar at y = 20 on top of
        // it: the bar's button is read first, because the content's items start at y = 100.
        let json = screenTree([
            "{\"id\": \"content\", \"frame\": [0, 0, 400, 800], \"children\": [\(button("row1", [0, 100, 400, 44])), \(button("row2", [0, 144, 400, 44]))]}",
            "{\"id\": \"navBar\", \"frame\": [0, 20, 400, 44], \"children\": [\(button("back", [0, 20, 80, 44]))]}",
        ])
        #expect(try scanIDs(json) == ["back", "row1", "row2"])
    }

    @Test func theDemoTreeHasItsGroups() throws {
        let model = ScanModel(tree: try demoTree())
        #expect(model.groups.map(\.id) == ["navBar", "cityList", "units", "tabBar"])
        #expect(model.items.count == 16)
        #expect(model.topStops.count == 7)
    }
}
