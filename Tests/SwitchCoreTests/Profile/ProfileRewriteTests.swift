import SwitchCore
import Testing

/// A setting changed from the menu written into the profile's text (ProfileRewrite.swift's table):
/// only that value changes, and what is written reads back as the same profile but that setting.
@Suite struct ProfileRewriteTests {
    static let slower = SettingChange("autoScanningTime", from: .seconds(.seconds(1.2)), to: .seconds(.seconds(1.3)))

    func rewrite(_ text: String?, _ change: SettingChange = slower) throws -> String {
        String(decoding: try ProfileRewrite.apply(change, to: text.map { Array($0.utf8) }, file: "p.json"), as: UTF8.self)
    }

    func decode(_ text: String) throws -> Profile { try ProfileDecoder.decode(Array(text.utf8), file: "p.json") }

    @Test func theValueIsReplacedInPlace() throws {
        let file = """
        {
          "name": "Tremor",
          "scanning": { "style": "auto", "autoScanningTime": 1.2, "pauseOnFirstItem": 0.5 },
          "switches": [ { "key": "KEY_SPACE", "action": "select" } ]
        }

        """
        #expect(try rewrite(file) == file.replacingOccurrences(of: "1.2", with: "1.3"))
    }

    @Test func aMissingKeyGoesFirstInScanningIndentedLikeItsMembers() throws {
        let file = "{\n  \"scanning\": {\n    \"style\": \"auto\"\n  }\n}\n"
        #expect(try rewrite(file) == "{\n  \"scanning\": {\n    \"autoScanningTime\": 1.3,\n    \"style\": \"auto\"\n  }\n}\n")
        #expect(try rewrite("{\"scanning\": {}}") == "{\"scanning\": { \"autoScanningTime\": 1.3 }}")
    }

    @Test func noScanningSectionGetsOne() throws {
        #expect(try rewrite("{ \"name\": \"Mine\" }") == "{ \"scanning\": { \"autoScanningTime\": 1.3 }, \"name\": \"Mine\" }")
        #expect(try rewrite("{}") == "{ \"scanning\": { \"autoScanningTime\": 1.3 } }")
    }

    @Test func noFileIsTheSettingAlone() throws {
        let text = try rewrite(nil)
        #expect(text == "{\n  \"scanning\": { \"autoScanningTime\": 1.3 }\n}\n")
        var expected = Profile()
        expected.scanning.autoScanningTime = .seconds(1.3)
        #expect(try decode(text) == expected)
    }

    @Test func booleansAndTextAndStringsWithEscapes() throws {
        let speech = SettingChange("speech", from: .bool(false), to: .bool(true))
        #expect(try rewrite(#"{"scanning": {"speech": false, "speechVoice": "a\"b"}}"#, speech) == #"{"scanning": {"speech": true, "speechVoice": "a\"b"}}"#)
        let style = SettingChange("style", from: .text("auto"), to: .text("manual"))
        #expect(try rewrite(#"{"scanning": {"style": "auto"}, "switches": [{"key": "KEY_SPACE", "action": "select"}, {"key": "KEY_ENTER", "action": "next"}]}"#, style)
                == #"{"scanning": {"style": "manual"}, "switches": [{"key": "KEY_SPACE", "action": "select"}, {"key": "KEY_ENTER", "action": "next"}]}"#)
    }

    /// `profiles show` of the rewritten file differs from the original's in that setting alone.
    @Test func everyOtherSettingIsKept() throws {
        let file = """
        {"name": "Full", "scanning": {"style": "auto", "grouping": "auto", "autoScanningTime": 1.2, "loops": 2, "speech": true,
          "point": {"bandSpeed": 80}}, "switchStabilization": {"holdDuration": 0.2}, "menu": {"top": ["menu:rightClick"]}}
        """
        var before = try decode(file)
        let after = try decode(try rewrite(file))
        #expect(after.scanning.autoScanningTime == .seconds(1.3))
        before.scanning.autoScanningTime = .seconds(1.3)
        #expect(after == before)
        let shown = ProfileEncoder.encode(after).rendered(indent: 2).split(separator: "\n")
        let original = ProfileEncoder.encode(try decode(file)).rendered(indent: 2).split(separator: "\n")
        #expect(zip(shown, original).filter { $0 != $1 }.map { "\($0.0) / \($0.1)" } == [#"    "autoScanningTime": 1.3, /     "autoScanningTime": 1.2,"#])
    }
}
