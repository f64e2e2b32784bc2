import Foundation
import Testing

/// Text transcripts name things by their words for native and imported trees alike; `--ids` adds
/// the ids; a hostile label reaches the terminal escaped.
@Suite("readable transcripts")
struct ReadableTranscriptTests {
    static let android = "Tests/SwitchFormatsTests/Fixtures/import/realdata/android/shirates_android_NetworkAndInternetScreen.xml"

    static func simulate(_ tree: String, _ extra: [String]) throws -> CLIResult {
        try CLI.run(["simulate", "--tree", tree, "--profile", "single-switch-auto",
                     "--events", "Sources/switchscan/Demo/demo-session.evemu", "--until", "2.7"] + extra)
    }

    @Test func anImportedTreeIsNamedByDescriptionsAndIdsComeWithIds() throws {
        let r = try Self.simulate(Self.android, [])
        #expect(r.status == 0)
        #expect(r.lines == [
            "   0.000  scan       started",
            "   0.000  highlight  item      \"Navigate up, button\"",
            "   1.000  highlight  item      \"Search settings, button\"",
            "   2.000  highlight  item      \"Wi‑Fi, AndroidWifi / No internet, button\"",
            "   2.700  filter     KEY_SPACE accepted → select",
            "   2.700  menu       open on \"Wi‑Fi, AndroidWifi / No internet, button\": \"Tap\", \"Gestures\", \"Device\", \"Shortcuts\", \"Settings\", \"Escape\", \"Close menu\"",
            "   2.700  highlight  menuItem  \"Tap\"",
        ])
        let ids = try Self.simulate(Self.android, ["--ids"])
        #expect(ids.lines[3] == "   2.000  highlight  item      \"Wi‑Fi, AndroidWifi / No internet, button\" [/0/0/0/1/0/0/0/0/0/0/0]")
        #expect(ids.lines[5].hasSuffix(": \"Tap\" [menu:tap], \"Gestures\" [menu:gestures], \"Device\" [menu:device], \"Shortcuts\" [menu:shortcuts], \"Settings\" [menu:settings], \"Escape\" [menu:escape], \"Close menu\" [menu:close]"))
        // JSONL is the same with or without --ids.
        #expect(try Self.simulate(Self.android, ["--format", "jsonl"]).stdout == (try Self.simulate(Self.android, ["--format", "jsonl", "--ids"])).stdout)
    }

    @Test func aHostileLabelIsEscaped() throws {
        let tree = try CLI.tempFile("hostile.json", #"""
        {"root": {"frame": [0, 0, 400, 800], "children": [
          {"id": "evil\u001b]0;x\u0007", "label": "Clear\u001b[2J\nscreen \u202egnp", "traits": ["button"], "frame": [0, 0, 100, 40]}
        ]}}
        """#)
        let r = try Self.simulate(tree, ["--ids", "--until", "0"])
        #expect(r.lines.last == #"   0.000  highlight  item      "Clear\u{1B}[2J\nscreen \u{202E}gnp, button" [evil\u{1B}]0;x\u{7}]"#)
        #expect(!r.stdout.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x202E })
    }
}
