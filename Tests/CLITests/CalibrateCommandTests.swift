import Foundation
import Testing

/// `switchscan calibrate` on a small recording whose counts were worked out by hand.
///
/// The recording (KEY_SPACE only; t in seconds):
///     #1  press 0.100  release 0.400     300 ms, clean
///     #2  press 1.000  release 1.050      50 ms, short
///     #3  press 2.000  release 2.010  press 2.015  release 2.300
///                                          chatter: 5 ms gap; one 300 ms press under a 25 ms
///                                          debounce (the second press swallowed), two presses
///                                          (10 ms and 285 ms) without
///     #4  press 2.500  release 2.800     300 ms, 0.5 s after #3's press (0.485 s after its
///                                          second physical press)
///     #5  press 4.000  autorepeat 4.250, 4.283  release 4.400   400 ms
/// Six physical presses, two autorepeat events.
///
/// Grid hold {0, 0.1} × ignore {0, 0.6} × debounce {0, 0.025}, by hand:
///     0    0    0       all six accepted
///     0    0    0.025   #3's second press swallowed: 5, debounce 1
///     0    0.6  0       anchors 0.1, 1.0, 2.0; 2.015 and 2.5 too soon: 4, ignoreRepeat 2
///     0    0.6  0.025   2.015 swallowed by debounce; 2.5 too soon: 4, debounce 1, ignoreRepeat 1
///     0.1  0    0       #2 (50 ms) and #3's 10 ms press too short: 4, holdDuration 2
///     0.1  0    0.025   #3 is one 300 ms press; #2 too short: 4, debounce 1, holdDuration 1
///     0.1  0.6  0       as two rows up, then 2.5 is 0.485 s after 2.015: 3, holdDuration 2, ignoreRepeat 1
///     0.1  0.6  0.025   #2 short, 2.5 is 0.5 s after 2.0: 3, debounce 1, holdDuration 1, ignoreRepeat 1
/// Autorepeat 2 in every row. The last setting of the default grid (hold 0.5, ignore 1, debounce
/// 0.1) accepts nothing: every press is at most 400 ms; #3's chatter is one press (debounce 1),
/// the five presses left are all too short (holdDuration 5).
@Suite("switchscan calibrate")
struct CalibrateCommandTests {
    static let recording: String = {
        let events: [(Double, Int)] = [(0.1, 1), (0.4, 0), (1.0, 1), (1.05, 0), (2.0, 1), (2.01, 0), (2.015, 1), (2.3, 0),
                                       (2.5, 1), (2.8, 0), (4.0, 1), (4.25, 2), (4.283, 2), (4.4, 0)]
        return events.map { t, v in
            let time = String(format: "%.6f", t)
            return "E: \(time) 0001 0039 000\(v)\nE: \(time) 0000 0000 0000\n"
        }.joined()
    }()

    static let profileJSON = """
    {"name": "calibration test", "switches": [{"key": "KEY_SPACE", "action": "select"}]}
    """

    static func files() throws -> (events: String, profile: String) {
        (try CLI.tempFile("calibrate-presses.events", recording), try CLI.tempFile("calibrate-profile.json", profileJSON))
    }

    static let smallGrid = ["--hold", "0,0.1", "--ignore", "0,0.6", "--debounce", "0,0.025"]

    static func calibrate(_ extra: [String]) throws -> CLIResult {
        let (events, profile) = try files()
        return try CLI.run(["calibrate", "--events", events, "--tree", CLI.demoTree, "--profile", profile] + extra)
    }

    static let table = [
        "holdDuration  ignoreRepeat  debounce  accepted  rejected(debounce)  rejected(holdDuration)  rejected(ignoreRepeat)  autorepeat",
        "           0             0         0         6                   0                       0                       0           2",
        "           0             0     0.025         5                   1                       0                       0           2",
        "           0           0.6         0         4                   0                       0                       2           2",
        "           0           0.6     0.025         4                   1                       0                       1           2",
        "         0.1             0         0         4                   0                       2                       0           2",
        "         0.1             0     0.025         4                   1                       1                       0           2",
        "         0.1           0.6         0         3                   0                       2                       1           2",
        "         0.1           0.6     0.025         3                   1                       1                       1           2",
    ]

    @Test func textReportCountsEachSetting() throws {
        let (events, _) = try Self.files()
        let r = try Self.calibrate(Self.smallGrid)
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        #expect(r.lines == [
            "\(events): 6 presses of KEY_SPACE, 2 autorepeat events",
            "2 holdDuration × 2 ignoreRepeat × 2 debounce = 8 settings (seconds)",
            "",
        ] + Self.table)
    }

    static let order = "best first (the fewest neighbours in the grid that count otherwise, then the shortest hold, the shortest ignore repeat, the debounce nearest 25 ms)"

    /// Issue 32: with --expect the settings are ranked, best first, and the table is left out
    /// (--all keeps it). Expect 4, by hand: each of the four settings has three neighbours in the
    /// 2 × 2 × 2 grid and one of them counts 4 too (0/0.6/0 and 0/0.6/0.025 are each other's,
    /// 0.1/0/0 and 0.1/0/0.025 too); then the shorter hold, then the debounce nearer 25 ms.
    @Test func expectRanksTheSettingsThatYieldExactlyN() throws {
        let (events, _) = try Self.files()
        let r = try Self.calibrate(Self.smallGrid + ["--expect", "4"])
        #expect(r.status == 0)
        #expect(r.lines == [
            "\(events): 6 presses of KEY_SPACE, 2 autorepeat events",
            "2 holdDuration × 2 ignoreRepeat × 2 debounce = 8 settings (seconds)",
            "",
            "expect 4: 4 settings accept exactly 4 presses, \(Self.order):",
            "  1. holdDuration 0    ignoreRepeat 0.6  debounce 0.025  → 4 accepted; 1 of 3 neighbours too",
            "  2. holdDuration 0    ignoreRepeat 0.6  debounce 0      → 4 accepted; 1 of 3 neighbours too",
            "  3. holdDuration 0.1  ignoreRepeat 0    debounce 0.025  → 4 accepted; 1 of 3 neighbours too",
            "  4. holdDuration 0.1  ignoreRepeat 0    debounce 0      → 4 accepted; 1 of 3 neighbours too",
        ])
        let all = try Self.calibrate(Self.smallGrid + ["--expect", "4", "--all"])
        #expect(Array(all.lines.dropFirst(3).prefix(9)) == Self.table)
        #expect(all.lines.count == 3 + 9 + 1 + 5)

        // 5: only 0/0/0.025, whose three neighbours count 4, 4 and 6.
        let five = try Self.calibrate(Self.smallGrid + ["--expect", "5"])
        #expect(Array(five.lines.suffix(2)) == [
            "expect 5: 1 setting accepts exactly 5 presses, \(Self.order):",
            "  1. holdDuration 0  ignoreRepeat 0  debounce 0.025  → 5 accepted; 0 of 3 neighbours too",
        ])
    }

    @Test func expectWithNoExactMatchSaysSoAndRanksTheNearest() throws {
        let seven = try Self.calibrate(Self.smallGrid + ["--expect", "7"])
        #expect(seven.status == 0)
        #expect(Array(seven.lines.suffix(2)) == [
            "expect 7: no setting accepts exactly 7 presses; nearest, 1 setting, \(Self.order):",
            "  1. holdDuration 0  ignoreRepeat 0  debounce 0  → 6 accepted; 0 of 3 neighbours too",
        ])
        let two = try Self.calibrate(Self.smallGrid + ["--expect", "2"])
        #expect(Array(two.lines.suffix(3)) == [
            "expect 2: no setting accepts exactly 2 presses; nearest, 2 settings, \(Self.order):",
            "  1. holdDuration 0.1  ignoreRepeat 0.6  debounce 0.025  → 3 accepted; 1 of 3 neighbours too",
            "  2. holdDuration 0.1  ignoreRepeat 0.6  debounce 0      → 3 accepted; 1 of 3 neighbours too",
        ])
    }

    /// `calibrate --expect 7` on the demo's recording printed 1,303 lines in grid order: now the
    /// best 10 of the 208 that count 7, and how to see them all.
    @Test func manyMatchesShowTheBestTenUnlessAll() throws {
        let args = ["calibrate", "--events", "Sources/switchscan/Demo/demo-session.evemu", "--tree", CLI.demoTree,
                    "--profile", "single-switch-auto", "--expect", "7"]
        let r = try CLI.run(args)
        #expect(r.status == 0)
        #expect(r.lines.count == 15)
        #expect(r.lines[3].hasPrefix("expect 7: 208 settings accept exactly 7 presses, best first"))
        #expect(r.lines[4] == "  1.  holdDuration 0  ignoreRepeat 0    debounce 0.025  → 7 accepted; 4 of 4 neighbours too")
        #expect(r.lines.last == "  (the best 10 of 208; --all lists them all, with the table of every setting)")
        let all = try CLI.run(args + ["--all"])
        #expect(all.lines.count == 3 + 1090 + 1 + 1 + 208)
    }

    @Test func jsonReport() throws {
        let r = try Self.calibrate(Self.smallGrid + ["--expect", "4", "--format", "json"])
        #expect(r.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["switches"] as? [String] == ["KEY_SPACE"])
        #expect(json["presses"] as? Int == 6)
        #expect(json["autorepeat"] as? Int == 2)
        let grid = try #require(json["grid"] as? [String: [Double]])
        #expect(grid["holdDuration"] == [0, 0.1] && grid["ignoreRepeat"] == [0, 0.6] && grid["debounce"] == [0, 0.025])
        let settings = try #require(json["settings"] as? [[String: Any]])
        #expect(settings.map { $0["accepted"] as? Int } == [6, 5, 4, 4, 4, 4, 3, 3])
        let rejected = settings.compactMap { $0["rejected"] as? [String: Int] }
        #expect(rejected.map { $0["debounce"] } == [0, 1, 0, 1, 0, 1, 0, 1])
        #expect(rejected.map { $0["holdDuration"] } == [0, 0, 0, 0, 2, 1, 2, 1])
        #expect(rejected.map { $0["ignoreRepeat"] } == [0, 0, 2, 1, 0, 0, 1, 1])
        #expect(settings.allSatisfy { $0["autorepeat"] as? Int == 2 })
        #expect(settings[5]["holdDuration"] as? Double == 0.1 && settings[5]["debounce"] as? Double == 0.025)
        let expect = try #require(json["expect"] as? [String: Any])
        #expect(expect["presses"] as? Int == 4)
        #expect(expect["exact"] as? Bool == true)
        #expect((expect["settings"] as? [[String: Any]])?.map { $0["ignoreRepeat"] as? Double } == [0.6, 0.6, 0, 0])
    }

    @Test func defaultGridIsElevenByElevenByNine() throws {
        let r = try Self.calibrate([])
        #expect(r.status == 0)
        #expect(r.lines[1] == "11 holdDuration × 11 ignoreRepeat × 9 debounce = 1089 settings (seconds)")
        #expect(r.lines.count == 3 + 1 + 1089)
        #expect(r.lines[4] == Self.table[1])
        #expect(r.lines.last == "         0.5             1       0.1         0                   1                       5                       0           2")
    }

    @Test func rangesAndRepeatsInLists() throws {
        // START:STOP:STEP includes STOP; values are sorted and repeats dropped.
        let r = try Self.calibrate(["--hold", "0:0.3:0.1", "--ignore", "0.6, 0, 0.6", "--debounce", "0"])
        #expect(r.status == 0)
        #expect(r.lines[1] == "4 holdDuration × 2 ignoreRepeat × 1 debounce = 8 settings (seconds)")
        #expect(r.lines.dropFirst(4).map { $0.split(separator: " ").prefix(4).joined(separator: " ") } == [
            "0 0 0 6", "0 0.6 0 4", "0.1 0 0 4", "0.1 0.6 0 3", "0.2 0 0 4", "0.2 0.6 0 3", "0.3 0 0 3", "0.3 0.6 0 3",
        ])
    }

    /// Bad lists and numbers: one line on stderr, nothing on stdout, status 2.
    static let badOptions: [([String], String)] = [
        (["--hold", "0,,1"], "--hold: an empty value in \"0,,1\" (LIST is 0,0.1,0.2 or START:STOP:STEP)"),
        (["--ignore", "abc"], "--ignore: expected a value in seconds, found \"abc\" (LIST is 0,0.1,0.2 or START:STOP:STEP)"),
        (["--hold", "0:1"], "--hold: expected START:STOP:STEP, found \"0:1\""),
        (["--hold", "0:1:0"], "--hold: the step must be above 0 (at least 0.000001 s), found \"0\""),
        (["--ignore", "1:0:0.1"], "--ignore: the stop (0) is below the start (1)"),
        (["--hold", "0:20:1"], "--hold: 20 s is outside holdDuration's range 0…10 s"),
        (["--debounce", "0,2"], "--debounce: 2 s is outside debounce's range 0…1 s"),
        (["--hold=-1"], "--hold: -1 s is outside holdDuration's range 0…10 s"),
        (["--hold", "nan"], "--hold: expected a value in seconds, found \"nan\" (LIST is 0,0.1,0.2 or START:STOP:STEP)"),
        (["--hold", "0:10:0.001"], "--hold: 0:10:0.001 gives 10001 values; at most 1000"),
        (["--hold", "0:1:0.002", "--ignore", "0:1:0.002", "--debounce", "0"], "--hold/--ignore/--debounce: 501 × 501 × 1 = 251001 settings; at most 100000"),
        (["--expect", "x"], "--expect: expected a number of presses (0 or more), found \"x\""),
        (["--expect=-3"], "--expect: expected a number of presses (0 or more), found \"-3\""),
    ]

    @Test(arguments: CalibrateCommandTests.badOptions)
    func badListsAreOneLineAndStatusTwo(arguments: [String], message: String) throws {
        let r = try Self.calibrate(arguments)
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "switchscan: error: \(message)\n")
    }

    @Test func badFilesAreOneLineAndStatusTwo() throws {
        let (events, profile) = try Self.files()
        let notATree = try CLI.tempFile("calibrate-not-a-tree.json", "{\"root\": {\"frame\": [0, 0, 10, 10], \"childs\": []}}")
        let touchOnly = try CLI.tempFile("calibrate-touch.json", "{\"switches\": [], \"touchAccommodations\": {\"holdDuration\": 0.1}}")
        let otherKey = try CLI.tempFile("calibrate-enter.json", "{\"switches\": [{\"key\": \"KEY_ENTER\", \"action\": \"select\"}]}")
        let missing = "/nonexistent/calibrate.events"
        let cases: [([String], String)] = [
            (["--events", missing, "--tree", CLI.demoTree, "--profile", profile], "\(missing): no such file"),
            (["--events", events, "--tree", notATree, "--profile", profile], "\(notATree):1:46: root.childs: unknown key \"childs\""),
            (["--events", events, "--tree", CLI.demoTree, "--profile", "/nonexistent/profile.json"], "/nonexistent/profile.json: no such profile file"),
            (["--events", events, "--tree", CLI.demoTree, "--profile", touchOnly],
             "\(touchOnly): switches: the profile binds no switch keys; calibrate counts switch presses"),
            (["--events", events, "--tree", CLI.demoTree, "--profile", otherKey],
             "\(events): no presses of the profile's switches (KEY_ENTER); its keys pressed: KEY_SPACE"),
            (["--events", profile, "--tree", CLI.demoTree, "--profile", profile], "\(profile):1:1:"),
        ]
        for (arguments, message) in cases {
            let r = try CLI.run(["calibrate"] + arguments)
            #expect(r.status == 2, "\(arguments)")
            #expect(r.stdout.isEmpty)
            #expect(r.stderr.hasPrefix("switchscan: error: \(message)"), "\(r.stderr)")
            #expect(r.stderr.filter { $0 == "\n" }.count == 1)
        }
    }

    @Test func theCommandIsListedInHelp() throws {
        let r = try CLI.run(["--help"])
        #expect(r.stdout.contains("calibrate"))
        let help = try CLI.run(["calibrate", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--expect"))
        #expect(help.stdout.contains("START:STOP:STEP"))
    }
}
