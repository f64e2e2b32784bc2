import SwitchDisplay
import Testing

/// The scene's JSON form: what goes to the GNOME extension and what tests compare.
struct OverlaySceneTests {
    static let example = OverlayScene(shapes: [
        .rect(.init(x: 10, y: 20, w: 100, h: 40, stroke: SceneColor(hex: "#0072B2"), lineWidth: 4, dash: [8, 4])),
        .rect(.init(x: 0, y: 0, w: 50, h: 20, fill: SceneColor(hex: "#FFFFFFE0"))),
        .text(.init(x: 12, y: 22, text: "Exit group", size: 15, color: SceneColor(hex: "#000000")!)),
        .pie(.init(cx: 300, cy: 200, r: 30, fraction: 0.25, fill: SceneColor(hex: "#0072B2")!, stroke: SceneColor(hex: "#FFFFFF"), lineWidth: 2)),
    ])

    /// The display seam's example, key for key.
    @Test func jsonIsTheDocumentedForm() {
        #expect(OverlaySceneTests.example.json == """
            {"shapes": [{"kind": "rect", "x": 10, "y": 20, "w": 100, "h": 40, "stroke": "#0072B2", "lineWidth": 4, "dash": [8, 4]}, \
            {"kind": "rect", "x": 0, "y": 0, "w": 50, "h": 20, "fill": "#FFFFFFE0"}, \
            {"kind": "text", "x": 12, "y": 22, "text": "Exit group", "size": 15, "color": "#000000", "font": "DejaVu Sans"}, \
            {"kind": "pie", "cx": 300, "cy": 200, "r": 30, "fraction": 0.25, "fill": "#0072B2", "stroke": "#FFFFFF", "lineWidth": 2}]}
            """)
        #expect(OverlayScene.empty.json == "{\"shapes\": []}")
    }

    @Test func jsonReadsBackTheSameScene() throws {
        #expect(try OverlayScene(json: OverlaySceneTests.example.json) == OverlaySceneTests.example)
        let odd = OverlayScene(shapes: [.text(.init(x: 0.5, y: -3, text: "quote \" back\\slash\nnew line é €", size: 12.25,
                                                   color: SceneColor(red: 1, green: 2, blue: 3, alpha: 4), font: "DejaVu Serif"))])
        #expect(try OverlayScene(json: odd.json) == odd)
        #expect(odd.json.contains("\"x\": 0.5, \"y\": -3,"))
    }

    @Test func coloursParseAndPrint() {
        #expect(SceneColor(hex: "#0072b2") == SceneColor(red: 0, green: 0x72, blue: 0xB2))
        #expect(SceneColor(hex: "#0072B280")?.description == "#0072B280")
        #expect(SceneColor(hex: "#0072B2FF")?.description == "#0072B2")
        for bad in ["0072B2", "#0072B", "#0072B2F", "#GG0000", "", "#"] { #expect(SceneColor(hex: bad) == nil, "\(bad)") }
    }

    /// Bad input names the path and what was expected.
    @Test func badScenesSayWhereAndWhat() {
        let cases: [(String, String)] = [
            ("[]", "expected an object {\"shapes\": [...]}"),
            ("{\"shapes\": [", "not JSON (expected {\"shapes\": [...]})"),
            ("{\"shapes\": [{\"kind\": \"circle\"}]}", "shapes[0].kind: expected \"rect\", \"text\" or \"pie\""),
            ("{\"shapes\": [{\"kind\": \"rect\", \"x\": 1, \"y\": 2, \"w\": 3}]}", "shapes[0].h: missing (expected a number)"),
            ("{\"shapes\": [{\"kind\": \"rect\", \"x\": 1, \"y\": 2, \"w\": -3, \"h\": 4}]}", "shapes[0].w: -3 is negative (expected ≥ 0)"),
            ("{\"shapes\": [{\"kind\": \"rect\", \"x\": 1, \"y\": 2, \"w\": 3, \"h\": 4, \"stroke\": \"red\", \"lineWidth\": 2}]}",
             "shapes[0].stroke: \"red\" is not a colour (expected \"#RRGGBB\" or \"#RRGGBBAA\")"),
            ("{\"shapes\": [{\"kind\": \"rect\", \"x\": 1, \"y\": 2, \"w\": 3, \"h\": 4, \"stroke\": \"#FF0000\"}]}",
             "shapes[0].lineWidth: missing (expected a number)"),
            ("{\"shapes\": [{\"kind\": \"rect\", \"x\": 1, \"y\": 2, \"w\": 3, \"h\": 4, \"stroke\": \"#FF0000\", \"lineWidth\": 2, \"dash\": [1]}]}",
             "shapes[0].dash: expected [on, off], two positive lengths"),
            ("{\"shapes\": [{\"kind\": \"text\", \"x\": 1, \"y\": 2, \"size\": 3, \"color\": \"#000000\"}]}", "shapes[0].text: expected a string"),
            ("{\"shapes\": [{\"kind\": \"text\", \"x\": 1, \"y\": 2, \"text\": \"a\", \"size\": 0, \"color\": \"#000000\"}]}",
             "shapes[0].size: 0 is not positive (expected > 0)"),
            ("{\"shapes\": [{\"kind\": \"pie\", \"cx\": 1, \"cy\": 2, \"r\": 3, \"fraction\": 1.5, \"fill\": \"#000000\"}]}",
             "shapes[0].fraction: 1.5 is more than 1 (expected 0 … 1)"),
            ("{\"shapes\": [{\"kind\": \"pie\", \"cx\": \"1\", \"cy\": 2, \"r\": 3, \"fraction\": 1, \"fill\": \"#000000\"}]}",
             "shapes[0].cx: expected a number"),
        ]
        for (json, message) in cases {
            #expect(throws: OverlaySceneError.self, "\(json)") { try OverlayScene(json: json) }
            do {
                _ = try OverlayScene(json: json)
            } catch {
                #expect(error.description == message, "\(json)")
            }
        }
    }
}
