import Foundation
import SwitchPredict
import Testing

/// Issue 32: presage's child on databases it cannot use, and its scratch folder.
///
/// - A missing database, a folder as database and a garbage user database made the child die of
///   SIGSEGV after its "presage refused" answer (presage 0.9.1 deletes a predictor's database
///   connector before opening the new one and keeps the freed pointer when the new one throws;
///   `presage_free` deleted it again). Now the child answers `e <why> <path>` and exits 2.
/// - `text stats --presage-database` of random bytes went on (exit 0, one vague note, rows
///   printed as measured): now refused with presage's reason, status 2.
/// - The scratch folder `$TMPDIR/switchscan-presage-<pid>` had a predictable name (a planted link
///   was followed) and was left behind by runs that ended on a failed write, a crash or a kill.
///   Now the child makes it with mkdtemp, removes it once presage is ready, and removes the
///   folders of children that are gone.
@Suite("presage refusals and its scratch folder (issue 32)", .serialized)
struct PresageRefusalTests {
    static let english = "/usr/share/presage/database_en.db"

    /// A fresh folder for TMPDIR and the files of one test.
    static func folder() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-refusal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Bytes that are no SQLite file.
    static let garbage = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })

    /// The child's refusals: one answer line naming the file and presage's reason, status 2, no
    /// crash, no scratch folder left.
    @Test func theChildRefusesADatabaseItCannotUseAndExits2() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tmp = dir + "/tmp"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        try Self.garbage.write(to: URL(fileURLWithPath: dir + "/garbage.db"))
        let cases: [(arguments: [String], answer: String)] = [
            (["--database", dir + "/missing.db"], "e\t\(dir)/missing.db: no such file\t\(dir)/missing.db"),
            (["--database", tmp], "e\t\(tmp): is a folder, expected presage's n-gram database (an SQLite file)\t\(tmp)"),
            (["--database", dir + "/garbage.db"], "e\t\(dir)/garbage.db: presage cannot read it: file is not a database\t\(dir)/garbage.db"),
            (["--database", Self.english, "--user-database", dir + "/garbage.db"],
             "e\t\(dir)/garbage.db: presage cannot use it: file is not a database\t\(dir)/garbage.db"),
            (["--database", Self.english, "--user-database", dir + "/no-folder/user.db"],
             "e\t\(dir)/no-folder/user.db: its folder \(dir)/no-folder is not there\t\(dir)/no-folder/user.db"),
        ]
        for c in cases {
            let r = try CLI.run(["presage-server"] + c.arguments, environment: ["TMPDIR": tmp], stdin: Data("p\thello\n".utf8))
            #expect(r.status == 2, "\(c.arguments): \(r.stderr)")
            #expect(r.stdout == c.answer + "\n", "\(c.arguments)")
            #expect(!r.stderr.contains("crashed") && !r.stderr.contains("Signal"), "\(r.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty)
        }
        // The garbage is left as it was.
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/garbage.db")) == Self.garbage)
    }

    /// The client gets the refusal as a database failure naming the file (so the keyboard goes
    /// on without that file), and a good configuration still answers.
    @Test func theClientGetsTheRefusedFileAndItsReason() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let user = dir + "/user-en.db"
        try Self.garbage.write(to: URL(fileURLWithPath: user))
        let refused = PresageClient(executable: CLI.executable, options: PresageServer.Options(database: Self.english, userDatabase: user))
        defer { refused.stop() }
        #expect(throws: PresageClient.Failure.database(path: user, why: "\(user): presage cannot use it: file is not a database")) {
            try refused.start()
        }
        #expect(!refused.isRunning)
        var o = PresageServer.Options(database: Self.english, userDatabase: dir + "/fresh.db")
        o.suggestions = 3
        let good = PresageClient(executable: CLI.executable, options: o)
        defer { good.stop() }
        #expect(try good.predict("the qu") == ["queen", "question", "quay"])
    }

    /// `text stats --presage-database`: random bytes, a folder, a missing file: one line naming
    /// the file, status 2, nothing measured.
    @Test func textStatsRefusesAPresageDatabaseItCannotUse() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "hello there\n".write(toFile: dir + "/phrases.txt", atomically: true, encoding: .utf8)
        try Self.garbage.write(to: URL(fileURLWithPath: dir + "/random.db"))
        let cases = [
            (dir + "/random.db", "\(dir)/random.db: presage cannot read it: file is not a database"),
            (dir, "\(dir): is a folder, expected presage's n-gram database (an SQLite file)"),
            (dir + "/missing.db", "\(dir)/missing.db: no such file (--presage-database)"),
        ]
        for (database, why) in cases {
            let r = try CLI.run(["text", "stats", dir + "/phrases.txt", "--keyboard", "qwerty", "--predictions", "0,3", "--predictor", "presage",
                                 "--presage-database", database])
            #expect(r.status == 2)
            #expect(r.stderr == "switchscan: error: \(why)\n")
            #expect(r.stdout.isEmpty)
        }
    }

    /// A language presage has no model for: the keyboard predicts from the word list alone,
    /// with one note, and the session goes on.
    @Test func withoutPresagesModelTheWordListPredictsWithOneNote() throws {
        let s = try KeyboardSimulateTests.Setup()
        defer { s.remove() }
        let keyboards = s.dir + "/config/switchscan/keyboards"
        try FileManager.default.createDirectory(atPath: keyboards + "/words", withIntermediateDirectories: true)
        var layout = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: CLI.packageRoot.appendingPathComponent("Keyboards/qwerty.json"))) as? [String: Any])
        layout["name"] = "qwerty-fr"
        layout["language"] = "fr"
        try JSONSerialization.data(withJSONObject: layout).write(to: URL(fileURLWithPath: keyboards + "/qwerty-fr.json"))
        try "bonjour 90\nbonsoir 80\nmerci 70\nsalut 60\n".write(toFile: keyboards + "/words/fr.txt", atomically: true, encoding: .utf8)
        try """
        {"scanning": {"style": "manual", "tapBehavior": "alwaysTap", "focusedItemAfterTap": "current"},
         "switches": [{"key": "KEY_SPACE", "action": "next"}, {"key": "KEY_ENTER", "action": "select"}],
         "keyboard": {"layout": "qwerty-fr", "predictions": 3, "grouping": "none", "learning": false}}
        """.write(toFile: s.profile, atomically: true, encoding: .utf8)
        let r = try s.simulate()
        #expect(r.status == 0, "\(r.stderr)")
        let note = "switchscan: note: presage is off: /usr/share/presage/database_fr.db: no presage database for \"fr\" (Debian's libpresage-data has en, es and it; another is built with presage's text2ngram); the keyboard's words come from the word list\n"
        #expect(r.stderr == note)
        #expect(r.lines.contains(#"{"t":0.500,"type":"keyboard","predictions":["Bonjour","Bonsoir","Merci"]}"#), "\(r.stdout)")
        #expect(!r.stdout.contains(#""predictions":null"#))
    }

    // MARK: the scratch folder

    /// mkdtemp: never the predictable name, a folder of this user's with mode 0700; a link
    /// planted at the old name is not followed.
    @Test func theScratchFolderIsMadeByMkdtempNeverAtAPlantedName() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/target", withIntermediateDirectories: true)
        let planted = dir + "/switchscan-presage-\(getpid())"
        try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: dir + "/target")
        let made = try ScratchHome.make(in: dir)
        #expect(made.hasPrefix(planted + "-") && made.count == planted.count + 7)
        var st = stat()
        #expect(lstat(made, &st) == 0)
        #expect((st.st_mode & S_IFMT) == S_IFDIR && (st.st_mode & 0o777) == 0o700 && st.st_uid == geteuid())
        ScratchHome.remove(made)
        #expect(!FileManager.default.fileExists(atPath: made))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: planted) == dir + "/target")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/target").isEmpty)
    }

    /// A process id that is surely gone: a child that ended.
    static func gonePID() throws -> pid_t {
        let p = try Process.run(URL(fileURLWithPath: "/bin/true"), arguments: [])
        p.waitUntilExit()
        return p.processIdentifier
    }

    /// Stale folders: only ours (the name, a folder not a link, this user's) of processes that
    /// are gone are removed, and a link inside one is removed, not followed.
    @Test func staleFoldersOfGoneProcessesAreRemovedWithoutFollowingLinks() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fm = FileManager.default
        let gone = try Self.gonePID(), alive = getppid()
        let keep = dir + "/keep"
        try fm.createDirectory(atPath: keep, withIntermediateDirectories: true)
        try "mine".write(toFile: keep + "/keep.txt", atomically: true, encoding: .utf8)
        func folder(_ name: String) throws -> String {
            let path = dir + "/" + name
            try fm.createDirectory(atPath: path + "/.presage", withIntermediateDirectories: true)
            try "x".write(toFile: path + "/.presage/lm.db", atomically: true, encoding: .utf8)
            return path
        }
        let old = try folder("switchscan-presage-\(gone)")
        try fm.createSymbolicLink(atPath: old + "/outside", withDestinationPath: keep)
        try fm.createSymbolicLink(atPath: old + "/.presage/file", withDestinationPath: keep + "/keep.txt")
        _ = try folder("switchscan-presage-\(gone)-Ab12Cd")
        _ = try folder("switchscan-presage-\(alive)-Ab12Cd")
        _ = try folder("switchscan-presage-\(gone)-xyz")
        _ = try folder("switchscan-presage-test-\(UUID().uuidString)")
        try fm.createSymbolicLink(atPath: dir + "/switchscan-presage-\(gone)-Link00", withDestinationPath: keep)
        var expectedLeft = ["keep", "switchscan-presage-\(alive)-Ab12Cd", "switchscan-presage-\(gone)-xyz", "switchscan-presage-\(gone)-Link00"]
        if geteuid() == 0 {
            let other = try folder("switchscan-presage-\(gone)-Other1")
            #expect(chown(other, 65534, 65534) == 0)
            expectedLeft.append("switchscan-presage-\(gone)-Other1")
        }
        let removed = ScratchHome.removeStale(in: dir)
        #expect(Set(removed) == ["switchscan-presage-\(gone)", "switchscan-presage-\(gone)-Ab12Cd"])
        let left = try fm.contentsOfDirectory(atPath: dir).filter { !$0.hasPrefix("switchscan-presage-test-") }
        #expect(Set(left) == Set(expectedLeft))
        #expect(try String(contentsOfFile: keep + "/keep.txt", encoding: .utf8) == "mine")
    }

    /// Runs leave no scratch folder: one that ends well, one whose output cannot be written
    /// (status 2), and a child killed once presage is ready; a stale folder is cleaned up, a
    /// planted link left alone.
    @Test func noRunLeavesAScratchFolderBehind() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tmp = dir + "/tmp"
        try FileManager.default.createDirectory(atPath: tmp + "/switchscan-presage-\(try Self.gonePID())-Ab12Cd", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/target", withIntermediateDirectories: true)
        let planted = "switchscan-presage-\(getpid() + 1)"
        try FileManager.default.createSymbolicLink(atPath: tmp + "/" + planted, withDestinationPath: dir + "/target")
        try "hello there\n".write(toFile: dir + "/phrases.txt", atomically: true, encoding: .utf8)
        let stats = ["text", "stats", dir + "/phrases.txt", "--keyboard", "qwerty", "--predictions", "0,3", "--predictor", "presage"]
        let r = try CLI.run(stats, environment: ["TMPDIR": tmp])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp) == [planted])
        let full = try BadInputRoundThreeTests.redirected("> /dev/full", stats, environment: ["TMPDIR": tmp])
        #expect(full.status == 2, "\(full.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp) == [planted])
        // A child killed after its "r": its folder was already gone.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CLI.executable)
        child.arguments = ["presage-server", "--database", Self.english]
        var env = ProcessInfo.processInfo.environment
        env["TMPDIR"] = tmp
        child.environment = env
        let input = Pipe(), output = Pipe()
        child.standardInput = input
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()
        var answer = Data()
        while !answer.contains(10) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            answer += more
        }
        #expect(String(decoding: answer, as: UTF8.self) == "r\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp) == [planted])
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp) == [planted])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/target").isEmpty)
    }
}
