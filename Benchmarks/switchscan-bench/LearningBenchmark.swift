import Foundation
import SwitchCore

/// Issue 32: the person's learned words at their bound (`UserWords.maximumWords`, 50,000). The
/// file is read once per session, then every sentence learned changes the words (a new word takes
/// the least useful one's place) and the file's text is made again to be written whole. This
/// measures that work per sentence with the bound reached, in CPU time (the machine is shared) (the disk's write and fsync are
/// measured end to end by `scripts/typing/bench-learning.sh`), and the memory of the words.
///
/// Input: 50,000 words with Zipf counts (the bundled English list's 40,000, then 10,000 made-up
/// ones), written as a file and read back; the sentences are the 500 MacKenzie–Soukhoreff phrases,
/// each with one word no one wrote before, so every sentence makes room for a word.
///
///     swift run -c release switchscan-bench learn [sentences]
enum LearningBenchmark {
    static func run(_ args: [String]) {
        let sentences = Int(args.first ?? "") ?? 2_000
        let child = runChild(["learn-child", String(sentences)])
        print(child, terminator: "")
    }

    /// The file at the bound: the list's words, then made-up ones, Zipf counts, sentence numbers
    /// spread over 5,000 sentences.
    static func fileAtTheBound() -> String {
        let list = (try? String(contentsOfFile: "Keyboards/words/en.txt", encoding: .utf8)) ?? ""
        var words = list.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }.filter { !$0.hasPrefix("#") }
        var k = 0
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        while words.count < UserWords.maximumWords {
            var n = k, w = "qx"
            for _ in 0..<5 { w.append(letters[n % 26]); n /= 26 }
            words.append(w)
            k += 1
        }
        var text = ""
        for (rank, w) in words.prefix(UserWords.maximumWords).enumerated() {
            text += "\(w.lowercased()) \(max(1, 100_000 / (rank + 1))) \((rank * 7919) % 5_000)\n"
        }
        return text
    }

    static func child(_ args: [String]) {
        let sentences = Int(args.first ?? "") ?? 2_000
        let phrases = ((try? String(contentsOfFile: "Benchmarks/phrases/mackenzie-soukoreff-500.txt", encoding: .utf8)) ?? "hello there")
            .split(separator: "\n").map(String.init)
        let file = fileAtTheBound()
        let rssBefore = peakMemoryMB()
        var t = cpuSeconds()
        var words = try! UserWords(text: file, file: "words-en.txt")
        let readSeconds = cpuSeconds() - t
        precondition(words.count == UserWords.maximumWords)
        var learnSeconds: [Double] = [], textSeconds: [Double] = []
        var bytes = 0
        for k in 0..<sentences {
            t = cpuSeconds()
            words.learn(phrases[k % phrases.count] + " zzq\(k)")
            learnSeconds.append(cpuSeconds() - t)
            t = cpuSeconds()
            bytes = words.fileBytes.count
            textSeconds.append(cpuSeconds() - t)
        }
        precondition(words.count == UserWords.maximumWords && words.forgotten >= sentences)
        func ms(_ xs: [Double], _ q: Double) -> String {
            let s = xs.sorted()
            return String(format: "%.2f", s[min(s.count - 1, Int(Double(s.count) * q))] * 1000)
        }
        let total = zip(learnSeconds, textSeconds).map { $0 + $1 }
        print("words file at the bound: \(UserWords.maximumWords) words, \(file.utf8.count) bytes; read in \(String(format: "%.3f", readSeconds)) s CPU")
        print("\(sentences) sentences, each with a new word (\(words.forgotten) words made room), CPU time:")
        print("  learn: median \(ms(learnSeconds, 0.5)) ms, p99 \(ms(learnSeconds, 0.99)) ms")
        print("  the file's text (\(bytes) bytes): median \(ms(textSeconds, 0.5)) ms, p99 \(ms(textSeconds, 0.99)) ms")
        print("  both: median \(ms(total, 0.5)) ms, p99 \(ms(total, 0.99)) ms, max \(ms(total, 1.0)) ms")
        print(String(format: "peak memory: %.1f MB (%.1f MB before the words were read)", peakMemoryMB(), rssBefore))
    }
}
