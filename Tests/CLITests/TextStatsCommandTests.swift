import Foundation
import SwitchCore
import Testing

/// `switchscan text stats`: the real binary on small phrase files; the JSON names the issue fixed,
/// the baseline's time as the cost model counts it, and bad input.
@Suite("text stats")
struct TextStatsCommandTests {
    static func file(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("phrases-\(UUID().uuidString).txt")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func theJSONKeepsTheIssuesNamesAndTheBaselineCostsWhatTreeStatsCounts() throws {
        let phrases = try Self.file("hi\n\n  hi   hi \n")
        defer { try? FileManager.default.removeItem(at: phrases) }
        let r = try CLI.run(["text", "stats", phrases.path, "--keyboard", "qwerty", "--predictions", "0,3", "--predictor", "words", "--format", "json"])
        #expect(r.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["phrases"] as? Int == 2)
        #expect(json["characters"] as? Int == 7)
        #expect(json["baseline"] as? String == "qwerty grouped 0p 1sw")
        let configs = try #require(json["configurations"] as? [[String: Any]])
        #expect(configs.count == 18)  // 9 methods × 2 prediction counts, one layout
        for c in configs {
            #expect(Set(c.keys) == ["name", "keyboard", "method", "predictions", "switches", "secondsPerCharacter", "pressesPerCharacter",
                                    "wordsPerMinute", "keystrokeSavings", "worstPhrase", "phrases", "characters"])
        }
        let base = try #require(configs.first { $0["name"] as? String == "qwerty grouped 0p 1sw" })
        // "hi": h is row 2 (2 s) + the 6th key (6 s), i row 1 (1 s) + the 8th key (8 s); "hi hi" adds
        // space (row 4 + key 2: 6 s) and the same again: (17 + 17 + 6 + 17) s over 7 characters = 8.143 s.
        #expect(base["secondsPerCharacter"] as? Double == 8.143)
        #expect(base["pressesPerCharacter"] as? Double == 2)
        #expect(base["method"] as? String == "grouped" && base["switches"] as? Int == 1 && base["predictions"] as? Int == 0)
        let two = try #require(configs.first { $0["method"] as? String == "groupSelection" && $0["switches"] as? Int == 2 })
        #expect(two["keystrokeSavings"] as? Double == 0)
        let worst = try #require(base["worstPhrase"] as? [String: Any])
        #expect(worst["line"] as? Int == 1)
    }

    @Test func aPhraseNoLayoutCanTypeIsLeftOutAndSaid() throws {
        let phrases = try Self.file("caf\u{E9}\nhi\n")
        defer { try? FileManager.default.removeItem(at: phrases) }
        let r = try CLI.run(["text", "stats", phrases.path, "--keyboard", "qwerty", "--predictions", "0", "--predictor", "none"])
        #expect(r.status == 0)
        #expect(r.stderr.contains(":1: left out of layout qwerty: no key for \"\u{E9}\""))
        #expect(r.lines.first == "1 phrases, 2 characters; baseline qwerty grouped 0p 1sw")
    }

    @Test func badInputIsOneLineAndStatusTwo() throws {
        let empty = try Self.file("\n \n")
        defer { try? FileManager.default.removeItem(at: empty) }
        let r = try CLI.run(["text", "stats", empty.path])
        #expect(r.status == 2)
        #expect(r.stderr.hasSuffix(": no phrases (every line is blank)\n"))
        let missing = try CLI.run(["text", "stats", "/nonexistent/phrases.txt"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "switchscan: error: /nonexistent/phrases.txt: no such file\n")
        let layout = try CLI.run(["text", "stats", "/dev/null", "--keyboard", "dvorak"])
        #expect(layout.status == 2)
        let counts = try CLI.run(["text", "stats", "/dev/null", "--predictions", "0,9"])
        #expect(counts.status == 2)
        #expect(counts.stderr.contains("--predictions: expected counts 0…8"))
    }
}
