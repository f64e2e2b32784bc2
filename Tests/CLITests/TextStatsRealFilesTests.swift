import Foundation
import SwitchCore
import Testing

/// Issue 32, point 3: `text stats` on phrase files as clinicians have them. Each test is a row
/// of the issue with its input; bad input is one clear line naming the file, line and column
/// and exit status 2; a phrase that cannot be typed is left out with its reason, never the run.
@Suite("text stats on real phrase files")
struct TextStatsRealFilesTests {
    static func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-textstats-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    static func file(_ name: String, _ text: String) throws -> String { try file(name, Array(text.utf8)) }

    /// No default profile of the machine's user: the built-in defaults.
    static let clean: [String: String] = ["XDG_CONFIG_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-no-config").path]

    static func json(_ r: CLIResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout) \(r.stderr)")
    }

    static func stats(_ arguments: [String], environment: [String: String] = clean) throws -> CLIResult {
        try CLI.run(["text", "stats"] + arguments, environment: environment)
    }

    /// A layout for another script: Greek letters, a space, no Latin letter.
    static let greekLayout = """
        {"name": "greek", "language": "el", "pages": [{"name": "letters", "rows": [
          ["ε", "ρ", "τ", "υ", "θ", "ι", "ο", "π"], ["α", "σ", "δ", "φ", "γ", "η", "ξ", "κ", "λ"],
          ["ζ", "χ", "ψ", "ω", "β", "ν", "μ", "ς", {"key": "backspace"}], [{"key": "space"}, {"key": "close"}]]}]}
        """

    // MARK: Lines and encodings

    @Test func crlfLinesEndAtCRLF() throws {
        let phrases = try Self.file("crlf.txt", "hello there\r\nsee you soon\r\n")
        let r = try Self.stats([phrases, "--keyboard", "qwerty", "--predictions", "0", "--predictor", "none", "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try Self.json(r)
        #expect(json["phrases"] as? Int == 2)
        #expect(json["characters"] as? Int == 23)
        #expect((json["leftOut"] as? [Any])?.isEmpty == true)
        #expect(!r.stderr.contains("left out"))
    }

    @Test func latin1IsNotUTF8WithItsLineAndColumn() throws {
        let phrases = try Self.file("latin1.txt", Array("hello\ncaf".utf8) + [0xE9, 0x0A])
        let r = try Self.stats([phrases, "--keyboard", "qwerty", "--predictions", "0", "--predictor", "none"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "switchscan: error: \(phrases):2:4: not UTF-8 (byte 0xE9): a phrase file is UTF-8 text; save it as UTF-8 (from Latin-1: iconv -f latin1 -t utf-8)\n")
    }

    @Test func randomBytesAreRefused() throws {
        // The same 4,096 bytes every run (a linear congruential generator).
        var x: UInt32 = 32
        let phrases = try Self.file("random.bin", (0..<4096).map { _ in
            x = x &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: x >> 24)
        })
        let r = try Self.stats([phrases, "--keyboard", "qwerty", "--predictions", "0", "--predictor", "none"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("switchscan: error: \(phrases):1:"), "\(r.stderr)")
        #expect(r.stderr.contains("not UTF-8") || r.stderr.contains("a NUL byte"), "\(r.stderr)")
        let binary = try Self.file("binary.txt", Array("hi there".utf8) + [0, 1, 2])
        let b = try Self.stats([binary, "--keyboard", "qwerty", "--predictions", "0", "--predictor", "none"])
        #expect(b.status == 2)
        #expect(b.stderr == "switchscan: error: \(binary):1:9: a NUL byte: this is a binary file, not text (a phrase file is UTF-8 text, one phrase a line)\n")
    }

    // MARK: Typing what is written

    /// "hello . world" aborted all 108 configurations: a chosen word's space was taken by the
    /// mark. Now every configuration types it as written, predictions or not.
    @Test func spaceBeforePunctuationIsTypedAsWritten() throws {
        let phrases = try Self.file("marks.txt", "hello . world\ne.g. this\nhi\n")
        let r = try Self.stats([phrases, "--keyboard", "qwerty", "--predictions", "0,3", "--predictor", "words", "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try Self.json(r)
        #expect(json["phrases"] as? Int == 3)
        #expect((json["leftOut"] as? [Any])?.isEmpty == true)
        let configs = try #require(json["configurations"] as? [[String: Any]])
        #expect(configs.count == 18)
        #expect(configs.allSatisfy { $0["phrases"] as? Int == 3 && $0["characters"] as? Int == 24 })
        // The predicted words are taken where they fit: fewer presses with 3 words than without.
        let with = try #require(configs.first { $0["name"] as? String == "qwerty grouped 3p 1sw" })
        #expect((with["keystrokeSavings"] as? Double ?? 0) > 0)
    }

    /// A phrase one configuration cannot type is left out of its layout, with the reason; the
    /// others are measured. (A key "ab" covers both letters, so the character check passes, but
    /// no key types "b" alone.)
    @Test func aLineThatCannotBeTypedIsLeftOutWithItsReason() throws {
        let layout = try Self.file("ab.json", """
            {"name": "ab", "pages": [{"name": "letters", "rows": [["ab", {"key": "space"}, {"key": "close"}]]}]}
            """)
        let phrases = try Self.file("ab.txt", "ab ab\nba\n")
        let r = try Self.stats([phrases, "--keyboard", layout, "--predictions", "0", "--predictor", "none", "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("\(phrases):2: left out of layout ab: linear 0p 1sw could not type it: no key types \"b\""), "\(r.stderr)")
        let json = try Self.json(r)
        let left = try #require(json["leftOut"] as? [[String: Any]])
        #expect(left.contains { $0["line"] as? Int == 2 && $0["layout"] as? String == "ab" })
        let configs = try #require(json["configurations"] as? [[String: Any]])
        #expect(configs.filter { $0["keyboard"] as? String == "ab" }.allSatisfy { $0["phrases"] as? Int == 1 })
        #expect(configs.filter { $0["keyboard"] as? String == "qwerty" }.allSatisfy { $0["phrases"] as? Int == 2 })
    }

    /// A layout for another script is measured on its own text; the qwerty baseline on the phrases
    /// it can type, and the output says how many.
    @Test func anotherScriptIsMeasuredAndTheBaselineSaysOnHowManyPhrases() throws {
        let layout = try Self.file("greek.json", Self.greekLayout)
        let mixed = try Self.file("mixed.txt", "γεια σου\nhello\nτι κανεις\n")
        let r = try Self.stats([mixed, "--keyboard", layout, "--predictions", "0", "--predictor", "none"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.first == "3 phrases, 22 characters; baseline qwerty grouped 0p 1sw, on 1 of 3 phrases")
        #expect(r.lines.contains("measured on fewer phrases: qwerty 1 of 3, greek 2 of 3"))
        #expect(r.stderr.contains("\(mixed):1: left out of layout qwerty: no key for \"γ\""))
        #expect(r.stderr.contains("\(mixed):2: left out of layout greek: no key for \"h\""))
        let greekOnly = try Self.file("greek.txt", "γεια σου\n")
        let g = try Self.stats([greekOnly, "--keyboard", layout, "--predictions", "0", "--predictor", "none", "--format", "json"])
        #expect(g.status == 0, "\(g.stderr)")
        let json = try Self.json(g)
        #expect(json["baseline"] is NSNull)
        #expect(json["phrases"] as? Int == 1)
        let t = try Self.stats([greekOnly, "--keyboard", layout, "--predictions", "0", "--predictor", "none"])
        #expect(t.lines.first == "1 phrases, 8 characters; baseline none (qwerty can type none of the phrases)")
    }

    @Test func noPhraseAnyLayoutCanTypeIsAnError() throws {
        let phrases = try Self.file("greek-only.txt", "γεια σου\n")
        let r = try Self.stats([phrases, "--keyboard", "qwerty", "--predictions", "0", "--predictor", "none"])
        #expect(r.status == 2)
        #expect(r.stderr.hasSuffix("switchscan: error: \(phrases): no phrase can be typed on any layout\n"), "\(r.stderr)")
    }

    // MARK: Escapes, the profile, progress, limits

    @Test func layoutAndFileNamesAreEscaped() throws {
        let layout = try Self.file("esc\u{1B}[31m.json", """
            {"name": "evil\\u001b]0;pwned\\u0007\\u202e\\n", "pages": [{"name": "letters", "rows": [["h", "i", {"key": "space"}, {"key": "close"}]]}]}
            """)
        let phrases = try Self.file("phr\u{1B}[31mases\u{202E}.txt", "hi\nhi hi\nno\n")
        let r = try Self.stats([phrases, "--keyboard", layout, "--predictions", "0", "--predictor", "none"])
        #expect(r.status == 0, "\(r.stderr)")
        for s in [r.stdout, r.stderr] {
            #expect(!s.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" || $0 == "\u{202E}" }, "\(s)")
        }
        #expect(r.stdout.contains("evil\\u{1B}]0;pwned\\u{7}\\u{202E}\\n linear 0p 1sw"))
        #expect(r.stderr.contains("phr\\u{1B}[31mases\\u{202E}.txt:3: left out of layout"))
    }

    @Test func theProfileUsedIsNamed() throws {
        let phrases = try Self.file("profile.txt", "hi\n")
        let builtIn = try Self.stats([phrases, "--keyboard", "qwerty", "--predictions", "0", "--predictor", "none"])
        #expect(builtIn.lines.dropFirst().first == "profile built-in defaults")
        let given = try Self.stats([phrases, "--keyboard", "qwerty", "--predictions", "0", "--predictor", "none", "--profile", "Profiles/tremor.json"])
        #expect(given.lines.dropFirst().first == "profile Profiles/tremor.json (\"Tremor: hold to count, ignore repeats\")", "\(given.stdout)")
        let json = try Self.json(try Self.stats([phrases, "--keyboard", "qwerty", "--predictions", "0", "--predictor", "none", "--format", "json",
                                                  "--profile", "Profiles/tremor.json"]))
        let profile = try #require(json["profile"] as? [String: Any])
        #expect(profile["file"] as? String == "Profiles/tremor.json")
    }

    @Test func sizeLimitsNameTheKindOfFile() throws {
        let big = String(repeating: "hello there\n", count: 100_000)  // 1.2 MB
        let phrases = try Self.file("big.txt", big)
        let r = try Self.stats([phrases, "--keyboard", "qwerty"], environment: Self.clean.merging(["SWITCHSCAN_MAX_FILE_MB": "1"]) { $1 })
        #expect(r.status == 2)
        #expect(r.stderr == "switchscan: error: \(phrases): 1200000 bytes, larger than the 1 MiB (1048576 bytes) a phrase file may have; SWITCHSCAN_MAX_FILE_MB=N raises the limit to N MiB\n")
        let layout = try Self.file("big-layout.json", "{\"name\": \"x\", \"description\": \"" + String(repeating: "x", count: 1_100_000) + "\", \"pages\": []}")
        let small = try Self.file("small.txt", "hi\n")
        let l = try Self.stats([small, "--keyboard", layout], environment: Self.clean.merging(["SWITCHSCAN_MAX_FILE_MB": "1"]) { $1 })
        #expect(l.status == 2)
        #expect(l.stderr == "switchscan: error: \(layout): 1100045 bytes, larger than the 1 MiB (1048576 bytes) a keyboard layout may have; SWITCHSCAN_MAX_FILE_MB=N raises the limit to N MiB\n")
    }

    /// As `calibrate`: on a terminal, a run over 2 s says how far it is (the delay is 0 here).
    @Test func aLongRunShowsProgressOnATerminal() throws {
        let phrases = try Self.file("progress.txt", String(repeating: "the quick brown fox jumps over the lazy dog\n", count: 4))
        let r = try ProgressTests.onTerminal(["text", "stats", phrases, "--keyboard", "qwerty", "--predictions", "0", "--predictor", "none"],
                                             delay: "0", environment: Self.clean)
        #expect(r.code == 0)
        #expect(r.stdout > 0)
        // 9 configurations × 4 phrases × 43 characters.
        #expect(r.terminal.contains("\rswitchscan text stats: ") && r.terminal.hasSuffix("1548 of 1548 characters typed\r\n"), "\(r.terminal)")
    }
}
