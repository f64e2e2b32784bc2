import SwitchCore
import Testing

@Suite("Native tree format")
struct TreeDecoderTests {
    @Test func everyKeyIsRead() throws {
        let tree = try loadTree("""
        {"screen": {"width": 390, "height": 844}, "layoutDirection": "rightToLeft",
         "root": {"id": "root", "isAccessibilityElement": false, "order": "declared", "children": [
           {"id": "s", "label": "Volume", "value": "50%", "hint": "Adjusts the volume.", "traits": ["adjustable", "none"],
            "frame": [10, 20, 300, 44], "activationPoint": [15, 30], "customActions": [{"name": "Mute"}],
            "elementsHidden": false, "viewIsModal": false, "shouldGroupChildren": true, "respondsToUserInteraction": true}
         ]}}
        """)
        #expect(tree.screen == Size(width: 390, height: 844))
        #expect(tree.layoutDirection == .rightToLeft)
        #expect(tree.root.order == .declared)
        let s = tree.root.children[0]
        #expect(s.label == "Volume" && s.value == "50%" && s.hint == "Adjusts the volume.")
        #expect(s.traits == .adjustable)
        #expect(s.frame == Rect(x: 10, y: 20, width: 300, height: 44))
        #expect(s.activationPoint == Point(x: 15, y: 30))
        #expect(s.customActions == ["Mute"])
        #expect(s.shouldGroupChildren && s.respondsToUserInteraction == true)
    }

    @Test func screenDefaultsToTheRootFrameAndActivationPointToTheFrameCentre() throws {
        let tree = try loadTree("{\"root\": {\"frame\": [0, 0, 320, 480], \"children\": [\(button("a", [10, 10, 20, 40]))]}}")
        #expect(tree.screen == Size(width: 320, height: 480))
        #expect(tree.root.children[0].effectiveActivationPoint == Point(x: 20, y: 30))
    }

    @Test func missingIdsGetStablePathBasedIds() throws {
        let json = "{\"root\": {\"frame\": [0, 0, 100, 100], \"children\": [{\"label\": \"A\"}, {\"children\": [{\"label\": \"B\"}]}]}}"
        let a = try loadTree(json)
        let b = try loadTree(json)
        #expect(a.root.id == "/")
        #expect(a.root.children.map(\.id) == ["/0", "/1"])
        #expect(a.root.children[1].children[0].id == "/1/0")
        #expect(a == b)
    }

    @Test func duplicateIdsLoadTheFirstKeepsItAndLaterOnesAreRenamed() throws {
        let tree = try loadTree("{\"root\": {\"frame\": [0, 0, 100, 100], \"children\": [\(button("x", [0, 0, 10, 10])), \(button("x", [0, 20, 10, 10]))]}}")
        #expect(tree.root.children.map(\.id) == ["x", "/1"])
        #expect(tree.duplicateIds == [ElementTree.DuplicateID(declared: "x", assigned: "/1")])
    }

    @Test func aGeneratedIdNeverCollidesWithADeclaredOne() throws {
        let tree = try loadTree("{\"root\": {\"frame\": [0, 0, 100, 100], \"children\": [{\"label\": \"A\"}, {\"id\": \"/0\", \"label\": \"B\"}]}}")
        #expect(tree.root.children.map(\.id) == ["/0~2", "/0"])
    }

    // Malformed files: one clear line with the file, line, column and JSON path.

    @Test func badJSONSaysLineAndColumn() {
        #expect(treeError("{\n  \"root\": {\"label\": \"A\",}\n}") == "bad.json:2:25: invalid JSON: expected a string key, found '}'")
        #expect(treeError("") == "bad.json:1:1: invalid JSON: expected a value, found end of file")
        #expect(treeError("{\"root\": {}} x") == "bad.json:1:14: invalid JSON: unexpected 'x' after the end of the JSON value")
    }

    @Test func wrongTypesNameThePath() {
        #expect(treeError("{\"root\": {\"frame\": [0, 0, \"10\", 10]}}") == "bad.json:1:27: root.frame[2]: expected a number, found a string")
        #expect(treeError("{\"root\": {\"children\": {}}}") == "bad.json:1:23: root.children: expected an array, found an object")
        #expect(treeError("{\"root\": {\"traits\": \"button\"}}") == "bad.json:1:21: root.traits: expected an array, found a string")
        #expect(treeError("{\"root\": {\"elementsHidden\": 1}}") == "bad.json:1:29: root.elementsHidden: expected true or false, found a number")
        #expect(treeError("{\"root\": {\"frame\": [0, 0, 10, 10], \"children\": [{\"frame\": [1, 2, 3]}]}}") == "bad.json:1:59: root.children[0].frame: expected [x, y, width, height], found an array of 3")
    }

    @Test func unknownKeysAreErrorsThatNameTheKey() throws {
        let message = try #require(treeError("{\"root\": {\"frame\": [0, 0, 10, 10], \"children\": [{\"lable\": \"Add\"}]}}"))
        #expect(message.hasPrefix("bad.json:1:59: root.children[0].lable: unknown key \"lable\" (expected one of: "))
        #expect(treeError("{\"screen\": {\"width\": 1, \"height\": 1, \"depth\": 3}, \"root\": {}}")?.contains("screen.depth: unknown key \"depth\"") == true)
        #expect(treeError("{\"root\": {}, \"extra\": 1}")?.contains("extra: unknown key \"extra\"") == true)
    }

    @Test func negativeSizesAndBadValuesAreErrors() {
        #expect(treeError("{\"root\": {\"frame\": [0, 0, -1, 10]}}") == "bad.json:1:27: root.frame[2]: expected a width from 0 to 1000000 points, found -1")
        #expect(treeError("{\"root\": {\"frame\": [0, 0, 1, -10]}}") == "bad.json:1:30: root.frame[3]: expected a height from 0 to 1000000 points, found -10")
        #expect(treeError("{\"screen\": {\"width\": 0, \"height\": 10}, \"root\": {}}") == "bad.json:1:22: screen.width: expected a positive width of at most 1000000 points, found 0")
        #expect(treeError("{\"root\": {\"traits\": [\"buton\"]}}")?.hasPrefix("bad.json:1:22: root.traits[0]: unknown trait \"buton\"") == true)
        #expect(treeError("{\"root\": {\"order\": \"random\"}}") == "bad.json:1:20: root.order: \"random\" is not one of \"reading\", \"declared\"")
        #expect(treeError("{\"layoutDirection\": \"up\", \"root\": {}}") == "bad.json:1:21: layoutDirection: \"up\" is not one of \"leftToRight\", \"rightToLeft\"")
        #expect(treeError("{\"root\": {\"customActions\": [{}]}}") == "bad.json:1:29: root.customActions[0]: missing key \"name\"")
        #expect(treeError("{\"root\": {\"id\": \"\"}}") == "bad.json:1:17: root.id: expected a non-empty id (leave the key out to get a path-based id)")
    }

    @Test func missingRootOrScreenIsAnError() {
        #expect(treeError("{}") == "bad.json:1:1: missing key \"root\" (the root element)")
        #expect(treeError("{\"root\": {\"label\": \"A\"}}") == "bad.json:1:1: no \"screen\" and the root has no frame to take the screen size from")
        #expect(treeError("[1]") == "bad.json:1:1: expected an object, found an array")
    }

    @Test func encodingThenDecodingGivesTheSameTree() throws {
        let tree = try demoTree()
        let text = TreeEncoder.encode(tree).rendered(indent: 2)
        let again = try loadTree(text)
        #expect(again == tree)
    }
}
