import SwitchCore
import SwitchDisplay
import Testing

/// The overlay scene's JSON (what the GNOME extension receives and the tests compare): written in
/// a fixed key order without absent members, read back strictly, and the same scene again.
@Suite struct OverlaySceneTests {
    static let blue = OverlayScene.Color(red: 0x00, green: 0x72, blue: 0xB2)

    static let example = OverlayScene([
        .rect(.init(x: 10, y: 20, w: 100, h: 40, stroke: blue, lineWidth: 4, dash: [8, 4])),
        .rect(.init(x: 0, y: 0, w: 50, h: 20, fill: OverlayScene.Color(red: 255, green: 255, blue: 255, alpha: 0xE0))),
        .text(.init(x: 12, y: 22, text: "Exit group", size: 15, color: OverlayScene.Color(.black))),
        .pie(.init(cx: 300, cy: 200, r: 30, fraction: 0.25, fill: blue, stroke: OverlayScene.Color(.white), lineWidth: 2)),
    ])

    @Test func json_isTheDocumentedForm() {
        #expect(Self.example.json == ##"{"shapes":["##
            + ##"{"kind":"rect","x":10,"y":20,"w":100,"h":40,"stroke":"#0072B2","lineWidth":4,"dash":[8,4]},"##
            + ##"{"kind":"rect","x":0,"y":0,"w":50,"h":20,"fill":"#FFFFFFE0"},"##
            + ##"{"kind":"text","x":12,"y":22,"text":"Exit group","size":15,"color":"#000000","font":"DejaVu Sans"},"##
            + ##"{"kind":"pie","cx":300,"cy":200,"r":30,"fraction":0.25,"fill":"#0072B2","stroke":"#FFFFFF","lineWidth":2}]}"##)
        #expect(OverlayScene().json == ##"{"shapes":[]}"##)
    }

    @Test func json_readsBackTheSameScene() throws {
        #expect(try OverlayScene(json: Self.example.json) == Self.example)
        // An arc (the countdown), a quote and a new line in a text, lower-case colours.
        let arc = OverlayScene([.pie(.init(cx: 5, cy: 6, r: 32, inner: 25, fraction: 0.5, fill: Self.blue)),
                                .text(.init(x: 0, y: 0, text: "say \"hi\"\nnow", size: 20, color: Self.blue, font: "DejaVu Sans Mono"))])
        #expect(arc.json.contains(##""r":32,"inner":25,"fraction":0.5"##))
        #expect(try OverlayScene(json: arc.json) == arc)
        #expect(try OverlayScene(json: ##"{"shapes":[{"kind":"rect","x":1,"y":2,"w":3,"h":4,"fill":"#0072b2"}]}"##)
                == OverlayScene([.rect(.init(x: 1, y: 2, w: 3, h: 4, fill: Self.blue))]))
    }

    @Test func json_badInputNamesWhereAndWhat() {
        func error(_ json: String) -> String? {
            do { _ = try OverlayScene(json: json, file: "scene.json"); return nil } catch { return error.description }
        }
        #expect(error(##"{"shapes":[{"kind":"circle"}]}"##)?.hasPrefix("scene.json:1:20: shapes[0].kind:") == true)
        #expect(error(##"{"shapes":[{"kind":"rect","x":1,"y":2,"w":3,"h":4,"fill":"blue"}]}"##)
                == "scene.json:1:58: shapes[0].fill: \"blue\" is not a colour (expected #RRGGBB or #RRGGBBAA)")
        #expect(error(##"{"shapes":[{"kind":"rect","x":1,"y":2,"w":-3,"h":4}]}"##)?.contains("shapes[0].w: -3 is not a whole number in 0…16777216") == true)
        #expect(error(##"{"shapes":[{"kind":"text","x":1,"y":2,"text":"a","size":9,"color":"#000000","colour":"#000000"}]}"##)?
                    .contains("unknown key \"colour\"") == true)
        #expect(error(##"{"shapes":[{"kind":"rect","x":1,"y":2,"w":3,"h":4,"stroke":"#000000"}]}"##)?.contains("a stroke needs \"lineWidth\"") == true)
        #expect(error(##"{"shapes":[{"kind":"rect","x":1,"y":2,"w":3,"h":4,"dash":[1]}]}"##)?.contains("expected [on, off], found 1 numbers") == true)
        #expect(error(##"{"shapes":[{"kind":"pie","cx":1,"cy":2,"r":3,"fraction":1.5}]}"##)?.contains("shapes[0].fraction: 1.5 is out of range") == true)
        #expect(error(##"{"shapes":[{"kind":"pie","cx":1,"cy":2,"r":3,"inner":4,"fraction":1}]}"##)?.contains("shapes[0].inner: 4 is not a whole number in 0…3") == true)
        #expect(error(##"{"shape":[]}"##)?.contains("unknown key \"shape\"") == true)
        #expect(error("{") != nil)
    }

    @Test func colors_parseAndPrint() {
        #expect(OverlayScene.Color(parsing: "#0072B2") == Self.blue)
        #expect(OverlayScene.Color(parsing: "#ffffffe0")?.description == "#FFFFFFE0")
        #expect(OverlayScene.Color(CursorColor.blue).description == "#007AFF")
        for bad in ["0072B2", "#0072B", "#0072B2F", "#GG72B2", ""] { #expect(OverlayScene.Color(parsing: bad) == nil, "\(bad)") }
    }
}
