import Foundation
import Testing

@Suite("switchscan tree")
struct TreeCommandTests {
    @Test func showPrintsTheScanOrder() throws {
        let r = try CLI.run(["tree", "show", CLI.demoTree])
        #expect(r.status == 0)
        #expect(r.lines.first == "16 scan items, 4 groups, screen 390×844")
        #expect(r.lines[2] == " 2  add          \"Add, button, Adds a city.\"  [338, 55, 36, 36]  group navBar")
        #expect(r.lines.count == 17)
    }

    @Test func showJSONHasTheDocumentedShape() throws {
        let r = try CLI.run(["tree", "show", "--format", "json", CLI.demoTree])
        #expect(r.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let screen = try #require(json["screen"] as? [String: Any])
        #expect(screen["width"] as? Int == 390 && screen["height"] as? Int == 844)
        let items = try #require(json["items"] as? [[String: Any]])
        #expect(items.count == 16)
        #expect(items[1]["index"] as? Int == 2)
        #expect(items[1]["id"] as? String == "add")
        #expect(items[1]["description"] as? String == "Add, button, Adds a city.")
        #expect(items[1]["frame"] as? [Int] == [338, 55, 36, 36])
        #expect(items[1]["groupPath"] as? [String] == ["navBar"])
        let groups = try #require(json["groups"] as? [[String: Any]])
        #expect(groups.map { $0["id"] as? String } == ["navBar", "cityList", "units", "tabBar"])
        #expect(groups[0]["items"] as? [String] == ["edit", "add"])
    }

    @Test func auditExitsZeroWhenClean() throws {
        let r = try CLI.run(["tree", "audit", CLI.demoTree])
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
    }

    @Test func auditExitsOneAndPrintsOneLinePerFinding() throws {
        let path = try CLI.tempFile("audit.json", """
        {"screen": {"width": 100, "height": 100}, "root": {"children": [
          {"id": "a", "label": "Add button.", "traits": ["button"], "frame": [0, 0, 10, 10]},
          {"id": "b", "traits": ["button"], "frame": [0, 20, 10, 10]}
        ]}}
        """)
        let r = try CLI.run(["tree", "audit", path])
        #expect(r.status == 1)
        #expect(r.lines == [
            "a: label \"Add button.\" names its control type (\"button\"); the button trait already says it",
            "a: label \"Add button.\" ends with a period",
            "b: scan item has no label",
        ])
    }

    @Test func aMalformedTreeIsOneClearLineAndStatusTwo() throws {
        let path = try CLI.tempFile("bad.json", "{\"root\": {\"frame\": [0, 0, 10, 10], \"childs\": []}}")
        for command in [["tree", "show"], ["tree", "audit"]] {
            let r = try CLI.run(command + [path])
            #expect(r.status == 2)
            #expect(r.stdout.isEmpty)
            #expect(r.stderr.hasPrefix("switchscan: error: \(path):1:46: root.childs: unknown key \"childs\""))
            #expect(r.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test func aMissingFileIsStatusTwo() throws {
        let r = try CLI.run(["tree", "show", "/nonexistent/tree.json"])
        #expect(r.status == 2)
        #expect(r.stderr == "switchscan: error: /nonexistent/tree.json: no such file\n")
    }
}
