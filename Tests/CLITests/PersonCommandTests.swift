import Foundation
import Testing

/// `--person` on `text stats`, `tree stats` and `simulate` (issue 31): the real binary with a
/// simulated person file; the counts the issue names, the same output twice, bad person files.
@Suite("--person")
struct PersonCommandTests {
    static let typical = #"{"name": "typical", "reactionTime": {"mean": 0.8, "sd": 0.2}, "pressDuration": {"mean": 0.15, "sd": 0.05}, "bounce": {"probability": 0.05, "gap": 0.03}, "missProbability": 0.01, "falsePressesPerMinute": 0.2, "seed": 1}"#
    static let tree = CLI.packageRoot.appendingPathComponent("Sources/switchscan/Demo/demo-tree.json").path

    @Test func textStatsGivesThePersonsCountsPerConfiguration() throws {
        let person = try CLI.tempFile("typical.json", Self.typical)
        let phrases = try CLI.tempFile("person-json.txt", "see you soon\nhow are you\n")
        let args = ["text", "stats", phrases, "--keyboard", "frequency", "--predictions", "0,5", "--predictor", "words", "--methods", "auto,groupSelection3",
                    "--person", person, "--format", "json"]
        let r = try CLI.run(args)
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["person"] as? String == "typical")
        let configs = try #require(json["configurations"] as? [[String: Any]])
        #expect(configs.count == 8)  // frequency and the qwerty baseline × 2 methods × 2 counts
        for c in configs {
            for key in ["selections", "late", "missed", "extraPresses", "corrections", "lastHalfWordsPerMinute", "autoScanningTime"] {
                #expect(c[key] != nil, "\(key)")
            }
            let selections = try #require(c["selections"] as? Int)
            #expect(selections > 0 && (c["late"] as? Int ?? -1) <= selections)
            let t = try #require(c["autoScanningTime"] as? [String: Any])
            #expect(t["start"] as? Double == 1 && t["end"] as? Double == 1)  // adaptive timing is off
        }
        // Group selection has no dwell to be late for.
        let colours = try #require(configs.first { $0["method"] as? String == "groupSelection" })
        #expect(colours["late"] as? Int == 0)
        // The same person and seed: the same figures.
        let again = try CLI.run(args)
        func figures(_ s: String) -> String { s.split(separator: "\n").filter { !$0.contains("\"seconds\"") && !$0.contains("cpuSeconds") }.joined(separator: "\n") }
        #expect(figures(again.stdout) == figures(r.stdout))
    }

    @Test func textStatsTextTableHasThePersonsColumns() throws {
        let person = try CLI.tempFile("typical.json", Self.typical)
        let phrases = try CLI.tempFile("person-table.txt", "see you soon\n")
        let r = try CLI.run(["text", "stats", phrases, "--keyboard", "qwerty", "--predictions", "0", "--predictor", "none", "--methods", "grouped", "--person", person])
        #expect(r.status == 0)
        #expect(r.lines[1] == "profile built-in defaults")
        #expect(r.lines[2].hasSuffix("selections  late  missed  extra  corrections  scan time (s)  last-half wpm"))
        #expect(r.lines[3].hasPrefix("qwerty grouped 0p 1sw"))
    }

    @Test func simulateActivatesEachTargetInTurn() throws {
        let person = try CLI.tempFile("typical.json", Self.typical)
        let args = ["simulate", "--tree", Self.tree, "--profile", "group-scanning", "--person", person, "--targets", "london,celsius,add", "--format", "jsonl"]
        let r = try CLI.run(args)
        #expect(r.status == 0, "\(r.stderr)")
        let activated = r.lines.filter { $0.contains("\"type\":\"perform\"") && $0.contains("\"action\":\"activate\"") }
            .compactMap { line in ["london", "celsius", "add"].first { line.contains("\"id\":\"\($0)\"") } }
        #expect(Array(activated.suffix(3)) == ["london", "celsius", "add"])
        #expect(r.stderr.contains("switchscan: typical: 3 of 3 targets in "))
        #expect(try CLI.run(args).stdout == r.stdout)
    }

    @Test func treeStatsAddsThePersonsSecondsPerMethod() throws {
        let person = try CLI.tempFile("typical.json", Self.typical)
        let r = try CLI.run(["tree", "stats", Self.tree, "--person", person, "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let p = try #require(json["person"] as? [String: Any])
        let methods = try #require(p["methods"] as? [[String: Any]])
        #expect(methods.map { $0["method"] as? String ?? "" } == ["linear", "group scanning", "row-column", "auto grouping",
                                                                  "2 switches", "3 switches", "4 switches", "5 switches", "6 switches"])
        for m in methods { #expect((m["averageSeconds"] as? Double ?? 0) > 0 && m["unreached"] as? Int == 0) }
    }

    @Test func setupWithAPersonPrintsTheMeasuredTheProfileAndTheSecondsAndWritesNothing() throws {
        let person = try CLI.tempFile("typical.json", Self.typical)
        let home = NSTemporaryDirectory() + "switchscan-setup-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let r = try CLI.run(["setup", "--person", person, "--format", "json"], environment: ["XDG_CONFIG_HOME": home])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let measured = try #require(json["measured"] as? [String: Any])
        let rt = try #require(measured["reactionTime"] as? [String: Any])
        let mean = try #require(rt["mean"] as? Double), sd = try #require(rt["sd"] as? Double)
        #expect(abs(mean - 0.8) < 0.15 && sd > 0.05 && sd < 0.4)
        let profile = try #require(json["profile"] as? [String: Any])
        #expect(Set(profile.keys).isSuperset(of: ["name", "scanning", "switches", "switchStabilization", "keyboard", "adaptiveTiming"]))
        let scanning = try #require(profile["scanning"] as? [String: Any])
        #expect((scanning["autoScanningTime"] as? Double ?? 0) >= max(mean / 0.65, mean + 2 * sd) - 0.001)
        let seconds = try #require(json["seconds"] as? Double)
        #expect(seconds > 20 && seconds < 180)
        #expect(!FileManager.default.fileExists(atPath: home))
        // The same person: the same setup.
        #expect(try CLI.run(["setup", "--person", person, "--format", "json"], environment: ["XDG_CONFIG_HOME": home]).stdout == r.stdout)
    }

    @Test func badPersonFilesAndOptionsAreOneLineAndStatusTwo() throws {
        let negative = try CLI.tempFile("bad.json", #"{"reactionTime": {"mean": -1, "sd": 0.2}}"#)
        let phrases = try CLI.tempFile("person-bad.txt", "hi\n")
        let r = try CLI.run(["text", "stats", phrases, "--person", negative])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("switchscan: error: "))
        #expect(r.stderr.hasSuffix("bad.json:1:27: reactionTime.mean: -1 is out of range (expected 0.05…10)\n"))
        let typo = try CLI.tempFile("typo.json", #"{"reactionTime": {"mean": 1}, "mis": 0.1}"#)
        let t = try CLI.run(["simulate", "--tree", Self.tree, "--person", typo, "--targets", "add"])
        #expect(t.status == 2)
        #expect(t.stderr.contains("mis: unknown key \"mis\""))
        let methods = try CLI.run(["text", "stats", phrases, "--methods", "diagonal"])
        #expect(methods.status == 2)
        #expect(methods.stderr.contains("--methods: expected names from linear, grouped, rowColumn, auto, groupSelection2"))
        let both = try CLI.run(["simulate", "--tree", Self.tree, "--person", typo, "--targets", "add", "--events", "x.evemu"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("--events and --person are two inputs"))
        let nan = try CLI.tempFile("nan.json", #"{"reactionTime": {"mean": NaN}}"#)
        let n = try CLI.run(["setup", "--person", nan])
        #expect(n.status == 2)
        #expect(n.stderr.hasSuffix("nan.json:1:27: invalid JSON: expected a value, found 'N'\n"))
        let large = try CLI.tempFile("large.json", String(repeating: " ", count: 1 << 20) + #"{"reactionTime": {"mean": 1}}"#)
        let l = try CLI.run(["setup", "--person", large])
        #expect(l.status == 2)
        #expect(l.stderr.contains("large.json: 1048605 bytes, larger than the 1 MiB (1048576 bytes) a person file may have"))
        #expect(l.stdout.isEmpty)
        let good = try CLI.tempFile("typical.json", Self.typical)
        let target = try CLI.run(["simulate", "--tree", Self.tree, "--person", good, "--targets", "add,atlantis"])
        #expect(target.status == 2)
        #expect(target.stderr.contains("--targets: \"atlantis\" is not a scan item"))
    }
}
