import Foundation
import Testing

/// Issue 32: learning that fails is said once (a transcript line and stderr) and the session goes
/// on; the person's words file is bounded, written atomically, and never replaced by something
/// else (a link stays a link, a file that cannot be read is left as it is). Through `simulate
/// --learn`, which learns as `run` does (`LiveTyping`, `PredictionSources`), on the real binary
/// with presage's real child.
///
///     recording: the field (the keyboard opens), then h, i, return, h, i, return, close:
///     three texts learned ("hi\n" twice at each return, the rest at close)
@Suite("learning: failures said once, the words file bounded (issue 32)", .serialized)
struct LearningFailureTests {
    typealias Setup = KeyboardSimulateTests.Setup

    static func setup(predictions: Int = 0) throws -> Setup {
        let s = try Setup()
        try KeyboardSimulateTests.recording(["h", "i", "return", "h", "i", "return", "close"], skip: predictions).write(toFile: s.events, atomically: true, encoding: .utf8)
        if predictions > 0 {
            try """
            {"scanning": {"style": "manual", "tapBehavior": "alwaysTap", "focusedItemAfterTap": "current"},
             "switches": [{"key": "KEY_SPACE", "action": "next"}, {"key": "KEY_ENTER", "action": "select"}],
             "keyboard": {"layout": "qwerty", "predictions": \(predictions), "grouping": "none", "learning": true}}
            """.write(toFile: s.profile, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: s.data + "/switchscan", withIntermediateDirectories: true)
        return s
    }

    static func wordsFile(_ s: Setup) -> String { s.data + "/switchscan/words-en.txt" }

    /// The transcript's learning lines as (state, reason).
    static func learningLines(_ r: CLIResult) -> [(state: String, reason: String)] {
        r.lines.compactMap { line in
            guard line.contains(#""type":"keyboard","learning":"#),
                  let json = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let state = json["learning"] as? String, let reason = json["reason"] as? String else { return nil }
            return (state, reason)
        }
    }

    /// What was typed reached the transcript (nothing of the session was lost).
    static func typedEverything(_ r: CLIResult) -> Bool {
        let typed = r.lines.compactMap { line -> String? in
            guard line.contains(#""type":"type""#), let m = line.firstMatch(of: /"text":"([^"]*)"/) else { return nil }
            return String(m.1)
        }
        return typed == ["H", "i", "\\n", "H", "i", "\\n"]
    }

    /// `simulate --learn` as a person who cannot write where root can (root: as nobody, through
    /// setpriv; anyone else: as themselves), the setup readable by them.
    static func simulateAsPerson(_ s: Setup, environment: [String: String] = [:]) throws -> CLIResult {
        var wrapper: [String] = []
        if getuid() == 0 {
            let chmod = try Process.run(URL(fileURLWithPath: "/bin/chmod"), arguments: ["-R", "a+rX", s.dir])
            chmod.waitUntilExit()
            wrapper = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        }
        var env = ["XDG_DATA_HOME": s.data, "XDG_CONFIG_HOME": s.dir + "/config", "HOME": s.dir]
        for (k, v) in environment { env[k] = v }
        return try CLI.run(["simulate", "--tree", s.tree, "--profile", s.profile, "--events", s.events, "--format", "jsonl", "--learn"],
                           environment: env, wrapper: wrapper)
    }

    // MARK: crashes

    /// One count of 9223372036854775807, then the word typed: `UserWords.learn` trapped (and
    /// `run` learns by default, so the session ended at the next sentence).
    @Test func aCountAtIntMaxThenTheWordTypedDoesNotEndTheSession() throws {
        let s = try Self.setup()
        defer { s.remove() }
        try "hi 9223372036854775807\n".write(toFile: Self.wordsFile(s), atomically: true, encoding: .utf8)
        let r = try s.simulate(["--learn"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.typedEverything(r))
        #expect(Self.learningLines(r).isEmpty)
        let words = try String(contentsOfFile: Self.wordsFile(s), encoding: .utf8)
        #expect(words.split(separator: "\n").dropFirst(2) == ["hi 9223372036854775807 2"], "\(words)")
    }

    /// Two lines of one word whose counts sum past `Int.max`: `UserWords.init` trapped.
    @Test func twoLinesSummingPastIntMaxDoNotEndTheSession() throws {
        let s = try Self.setup()
        defer { s.remove() }
        try "hi 9223372036854775807\nhi 9223372036854775807\nyo 4\n".write(toFile: Self.wordsFile(s), atomically: true, encoding: .utf8)
        let r = try s.simulate(["--learn"])
        #expect(r.status == 0, "\(r.stderr)")
        let words = try String(contentsOfFile: Self.wordsFile(s), encoding: .utf8)
        #expect(words.split(separator: "\n").dropFirst(2) == ["hi 9223372036854775807 2", "yo 4 0"], "\(words)")
    }

    // MARK: silent loss

    /// A words file that is a folder: said once (three texts were learned), the session goes on,
    /// the folder is left as it is.
    @Test func aWordsFileThatIsAFolderIsSaidOnceAndTheSessionGoesOn() throws {
        let s = try Self.setup()
        defer { s.remove() }
        try FileManager.default.createDirectory(atPath: Self.wordsFile(s) + "/inside", withIntermediateDirectories: true)
        let r = try s.simulate(["--learn"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.typedEverything(r))
        let said = Self.learningLines(r)
        let reason = "\(Self.wordsFile(s)): is a folder, expected the file of your learned words; your words in it are not used, and what you write is not kept, until it is fixed or removed (it is left as it is)"
        #expect(said.map(\.state) == ["failed"] && said.map(\.reason) == [reason], "\(r.stdout)")
        #expect(r.stderr.components(separatedBy: "switchscan: warning: learning failed: " + reason + "\n").count == 2, "\(r.stderr)")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: Self.wordsFile(s) + "/inside", isDirectory: &isFolder) && isFolder.boolValue)
    }

    /// A folder the person cannot write in: their words file is kept as it was, said once, and
    /// presage goes on without the model it cannot make there.
    @Test func aReadOnlyFolderIsSaidOnceAndTheOldWordsStay() throws {
        let s = try Self.setup()
        defer { chmod(s.data + "/switchscan", 0o755); s.remove() }
        try "hi 3 7\n".write(toFile: Self.wordsFile(s), atomically: true, encoding: .utf8)
        chmod(Self.wordsFile(s), 0o644)
        chmod(s.data + "/switchscan", 0o555)
        let r = try Self.simulateAsPerson(s)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.typedEverything(r))
        let said = Self.learningLines(r)
        let folder = s.data + "/switchscan"
        #expect(said.map(\.reason) == [
            "\(folder)/user-en.db: presage cannot use it: cannot be opened; presage goes on without your model, and nothing is learned into it until it is fixed or removed (it is left as it is)",
            "your words are not kept: cannot write in \(folder): Permission denied; this session's words are offered until it ends",
        ], "\(r.stdout)\n\(r.stderr)")
        #expect(r.stderr.contains("switchscan: warning: learning failed: your words are not kept: cannot write in \(folder): Permission denied"))
        #expect(try String(contentsOfFile: Self.wordsFile(s), encoding: .utf8) == "hi 3 7\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["words-en.txt"])
    }

    /// `XDG_DATA_HOME` that cannot be written: its folder cannot be made; said once each.
    @Test func anUnwritableDataHomeIsSaidOnceAndTheSessionGoesOn() throws {
        let s = try Self.setup()
        let home = s.dir + "/readonly"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        chmod(home, 0o555)
        defer { chmod(home, 0o755); s.remove() }
        let r = try Self.simulateAsPerson(s, environment: ["XDG_DATA_HOME": home])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.typedEverything(r))
        #expect(Self.learningLines(r).map(\.reason) == [
            "\(home)/switchscan/user-en.db: its folder \(home)/switchscan is not there; presage goes on without your model, and nothing is learned into it until it is fixed or removed (it is left as it is)",
            "your words are not kept: cannot make the folder \(home)/switchscan: Permission denied; this session's words are offered until it ends",
        ], "\(r.stdout)\n\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home).isEmpty)
    }

    /// A garbage `user-en.db`: presage refused it and its child died of SIGSEGV; now said once,
    /// the file left as it is, presage predicts without it, and the words file is still written.
    @Test func aGarbageUserModelIsSaidOnceAndPredictionsGoOn() throws {
        let s = try Self.setup(predictions: 3)
        defer { s.remove() }
        let garbage = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        let model = s.data + "/switchscan/user-en.db"
        try garbage.write(to: URL(fileURLWithPath: model))
        let r = try s.simulate(["--learn"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.typedEverything(r))
        #expect(Self.learningLines(r).map(\.reason) == [
            "\(model): presage cannot use it: file is not a database; presage goes on without your model, and nothing is learned into it until it is fixed or removed (it is left as it is)",
        ], "\(r.stdout)")
        #expect(!r.stdout.contains(#""predictions":null"#), "\(r.stdout)")
        // presage still predicts: the row is the one a person without a model of their own gets
        // (before anything is learned).
        let fresh = try Self.setup(predictions: 3)
        defer { fresh.remove() }
        let plain = try fresh.simulate(["--learn"])
        func firstRows(_ r: CLIResult) -> [String] { Array(r.lines.filter { $0.contains(#""type":"keyboard","predictions":"#) }.prefix(2)) }
        #expect(firstRows(r).count == 2 && firstRows(r) == firstRows(plain), "\(plain.stdout)")
        #expect(!r.stderr.contains("SIGSEGV"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: model)) == garbage)
        let words = try String(contentsOfFile: Self.wordsFile(s), encoding: .utf8)
        #expect(words.split(separator: "\n").dropFirst(2) == ["hi 2 2"], "\(words)")
    }

    /// A words file that is a link (to a synced folder, say) stays a link; the file it points
    /// to gets the words. A link to a file not there yet makes it there.
    @Test func aLinkedWordsFileStaysALink() throws {
        for dangling in [false, true] {
            let s = try Self.setup()
            defer { s.remove() }
            let elsewhere = s.dir + "/synced"
            try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
            if !dangling { try "hi 1 1\nyo 2 1\n".write(toFile: elsewhere + "/mine.txt", atomically: true, encoding: .utf8) }
            try FileManager.default.createSymbolicLink(atPath: Self.wordsFile(s), withDestinationPath: "../../synced/mine.txt")
            let r = try s.simulate(["--learn"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(Self.learningLines(r).isEmpty, "\(r.stdout)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: Self.wordsFile(s)) == "../../synced/mine.txt")
            let words = try String(contentsOfFile: elsewhere + "/mine.txt", encoding: .utf8)
            #expect(words.split(separator: "\n").dropFirst(2) == (dangling ? ["hi 2 2"] : ["hi 3 3", "yo 2 1"]), "\(words)")
            // Written atomically: nothing else is left beside it.
            #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere) == ["mine.txt"])
        }
    }

    /// The file at its bound (50,000 words): the sentence's new word takes the least useful's
    /// place, said once ("full"), and the file keeps 50,000 words.
    @Test func theWordsFileAtItsBoundKeepsItsBoundAndSaysSoOnce() throws {
        let s = try Self.setup()
        defer { s.remove() }
        var text = ""
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        for k in 0..<50_000 {
            var n = k, word = "zq"
            for _ in 0..<4 { word.append(letters[n % 26]); n /= 26 }
            text += "\(word) 2 \(k % 100)\n"
        }
        try text.write(toFile: Self.wordsFile(s), atomically: true, encoding: .utf8)
        let r = try s.simulate(["--learn"])
        #expect(r.status == 0, "\(r.stderr)")
        let said = Self.learningLines(r)
        #expect(said.map(\.state) == ["full"], "\(r.stdout)")
        #expect(said.first?.reason == "\(Self.wordsFile(s)) holds 50000 words, the most it keeps: the least useful make room for new ones (the least often written, then the longest ago; never a word of the last 1000 sentences)")
        let lines = try String(contentsOfFile: Self.wordsFile(s), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 + 50_000)
        #expect(lines.contains("hi 2 101"))
    }

    /// A words file larger than the bound's file size: refused before it is read, said once,
    /// left as it is (never written over).
    @Test func aWordsFileTooLargeIsRefusedAtOnceAndLeftAsItIs() throws {
        let s = try Self.setup()
        defer { s.remove() }
        let file = Self.wordsFile(s)
        FileManager.default.createFile(atPath: file, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.truncate(atOffset: 17 << 20)
        try handle.close()
        let r = try s.simulate(["--learn"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.learningLines(r).map(\.reason) == [
            "\(file): 17825792 bytes, larger than the 16 MiB (16777216 bytes) a file of learned words (at most 50000 words) may have; SWITCHSCAN_MAX_FILE_MB=N raises the limit to N MiB; your words in it are not used, and what you write is not kept, until it is fixed or removed (it is left as it is)",
        ], "\(r.stdout)")
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int == 17 << 20)
    }

    /// A words file that is not UTF-8: the line named, the file left as it is.
    @Test func aWordsFileNotUTF8IsRefusedWithItsLine() throws {
        let s = try Self.setup()
        defer { s.remove() }
        let bytes = Data("# mine\nhello 1\n".utf8) + Data([0x68, 0xE9, 0x6C, 0x6C, 0x6F, 0x20, 0x32, 0x0A])
        try bytes.write(to: URL(fileURLWithPath: Self.wordsFile(s)))
        let r = try s.simulate(["--learn"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.learningLines(r).map(\.reason).first?.hasPrefix("\(Self.wordsFile(s)):3:1: not UTF-8 text; your words in it are not used") == true, "\(r.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: Self.wordsFile(s))) == bytes)
    }
}
