import Foundation
import SwitchCore
import SwitchPredict
import Testing

/// presage through the real library and its real English model, in the child process switchscan
/// starts (`switchscan presage-server`), and the engine that asks it. presage 0.9.1 aborts on the
/// input of `../shared/research/presage-abort-repro.py` (its default configuration: online
/// learning into a user model); here that input goes through the keyboard's engine, the child
/// dies, the transcript says so, and the next prediction comes from a new child.
@Suite("presage in a child process", .serialized)
struct PresageChildTests {
    static let database = "/usr/share/presage/database_en.db"

    static func client(onlineLearning: Bool, home: URL) -> PresageClient {
        var o = PresageServer.Options(database: database, userDatabase: onlineLearning ? home.appendingPathComponent("lm.db").path : nil,
                                      home: home.path)
        o.onlineLearning = onlineLearning
        o.suggestions = 5
        return PresageClient(executable: CLI.executable, options: o)
    }

    static func home() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-presage-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func the_english_model_predicts_from_the_context() throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let c = Self.client(onlineLearning: false, home: home)
        defer { c.stop() }
        #expect(try c.predict("the qu") == ["queen", "question", "quay", "quiet", "qualities"])
        #expect(try c.predict("i would like to ") == ["be", "have", "know", "see", "think"])
        // Nothing was written to a real home: presage's files stay in switchscan's folder.
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent(".presage").path))
    }

    @Test func an_abort_in_presage_is_a_transcript_line_and_the_next_child_answers() throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let c = Self.client(onlineLearning: true, home: home)
        defer { c.stop() }
        let tree = try TreeDecoder.decode(Array("""
            {"screen": {"width": 800, "height": 600}, "root": {"id": "w", "frame": [0, 0, 800, 600], "children": [
              {"id": "f", "label": "Note", "textEntry": "multiLine", "frame": [0, 0, 800, 100]}]}}
            """.utf8), file: "t.json")
        var p = Profile()
        p.keyboard.predictions = 5
        var engine = Engine(tree: tree, profile: p, devices: [nil])
        engine.keyboardLayout = try KeyboardLayoutDecoder.decode(Array(Data(contentsOf: CLI.packageRoot.appendingPathComponent("Keyboards/qwerty.json"))),
                                                               file: "qwerty.json")
        var lines = engine.start(at: .zero) + engine.openKeyboard(fieldID: "f", at: .zero)
        var t = Instant.zero
        var shown: [String] = []
        var died: String?
        var failedLine: TranscriptLine?
        func serve() {
            while let request = engine.wantedPredictions {
                var got: [TranscriptLine]
                do {
                    got = engine.setPredictions(try c.predict(request.context), context: request.context, at: t)
                } catch {
                    got = engine.predictionsFailed(context: request.context, reason: "\(error)", at: t)
                }
                for line in got {
                    if case .keyboard(.predictions(let words)) = line.event { shown = words.map { $0.lowercased() } }
                    if case .keyboard(.predictionsFailed(let why)) = line.event, died == nil { died = why; failedLine = line }
                }
                lines += got
            }
        }
        serve()
        // The reproduction's keyboard: a word letter by letter until presage offers it, then the
        // word appended whole after the letters typed ("hel" + "hello ").
        let text = try String(contentsOfFile: "/usr/share/common-licenses/GPL-3", encoding: .utf8)
        let sentences = text.lowercased().split(separator: "\n").map { line in
            line.unicodeScalars.filter { ("a"..."z").contains($0) || $0 == " " }.map(String.init).joined().split(separator: " ").map(String.init)
        }.filter { $0.count >= 3 }
        for words in sentences where died == nil {
            var typed = ""  // each line a text of its own, as the reproduction types them
            for w in words where died == nil {
                var done = false
                for ch in w {
                    t = t + .milliseconds(10)
                    lines = engine.fieldText(before: typed, after: "", at: t)
                    serve()
                    if died != nil { break }
                    if shown.contains(w) {
                        typed += w + " "
                        done = true
                        break
                    }
                    typed.append(ch)
                }
                if !done { typed += " " }
            }
        }
        let reason = try #require(died, "presage did not abort on the reproduction's input (a fixed presage?)")
        #expect(reason.hasPrefix("presage ended: killed by SIGABRT"))
        #expect(reason.contains("numerator <= denominator"))
        let jsonl = TranscriptFormat.jsonl(try #require(failedLine))
        #expect(jsonl.contains("\"type\":\"keyboard\",\"predictions\":null,\"reason\":\"presage ended: killed by SIGABRT ("))
        // The engine goes on, and the next question starts a new child that answers.
        #expect(engine.isKeyboardOpen)
        let before = c.startCount
        t = t + .milliseconds(10)
        lines = engine.fieldText(before: "the qu", after: "", at: t)
        serve()
        #expect(c.startCount == before + 1)
        #expect(lines.contains { if case .keyboard(.predictions(let w)) = $0.event { return !w.isEmpty } else { return false } })
    }
}
