import Glibc
import SwitchCore
import SwitchInput
import Testing

/// `OutputQueue` on a real pipe whose reader stops reading (docs/live.md "Faults in the live loop"):
/// appending never waits, lines wait in memory in order up to the bound, what is beyond it is
/// dropped and said where it was. The VM suite checks the same through `run`.
@Suite("Output queue")
struct OutputQueueTests {
    /// A pipe of one page (4 KiB), its write end non-blocking-reopened by the queue.
    final class Pipe {
        var read: Int32 = -1, write: Int32 = -1
        init() {
            var fds: [Int32] = [0, 0]
            precondition(pipe(&fds) == 0)
            read = fds[0]
            write = fds[1]
            _ = fcntl(write, 1031, 4096)  // F_SETPIPE_SZ (not exported by Glibc)
            _ = fcntl(read, F_SETFL, fcntl(read, F_GETFL) | O_NONBLOCK)
        }
        deinit { close(read); close(write) }

        /// Everything the pipe holds now.
        func drain() -> String {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = Glibc.read(read, &chunk, chunk.count)
                if n <= 0 { break }
                bytes += chunk[0..<n]
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    func line(_ k: Int) -> String { "line \(k) " + String(repeating: "x", count: 90) + "\n" }  // 100 bytes or so

    final class Notes { var lines: [String] = [] }

    func queue(_ pipe: Pipe, limit: Int, notes: Notes = Notes()) -> OutputQueue {
        OutputQueue(name: "stdout", fd: pipe.write, limit: limit, gapLine: { count, from, until in
            "dropped \(count) from \(from?.transcriptString ?? "-") until \(until?.transcriptString ?? "-")\n"
        }, log: { notes.lines.append($0) })
    }

    func ms(_ k: Int) -> Instant { Instant(microseconds: Int64(k) * 1000) }

    @Test func aStalledReaderNeverBlocksAndLosesNothingWithinTheBound() {
        let pipe = Pipe()
        let q = queue(pipe, limit: 1 << 20)
        for k in 0..<200 {  // 20 KB: five times what the pipe holds
            q.append(line(k), t: ms(k))
            q.flush()
        }
        #expect(q.pendingBytes > 0)
        #expect(q.prepare(nowMonotonic: 0).fds.count == 1)  // the loop watches for room
        var out = ""
        while q.pendingBytes > 0 {
            out += pipe.drain()
            _ = q.dispatch(ready: [], nowMonotonic: 0)
        }
        out += pipe.drain()
        #expect(out == (0..<200).map(line).joined())
        #expect(q.prepare(nowMonotonic: 0).fds.isEmpty)
    }

    @Test func beyondTheBoundLinesAreDroppedAndADroppedLineStandsWhereTheyWere() {
        let pipe = Pipe()
        let notes = Notes()
        let q = queue(pipe, limit: 1000, notes: notes)
        for k in 0..<100 {
            // Every other line short: one that would still fit after a long one was dropped
            // must not split the gap.
            q.append(k % 2 == 0 ? line(k) : "\(k)\n", t: ms(k * 100))
            q.flush()
        }
        #expect(q.pendingBytes <= 1000)
        var out = pipe.drain()
        while q.pendingBytes > 0 {
            _ = q.dispatch(ready: [], nowMonotonic: 0)
            out += pipe.drain()
        }
        q.append(line(100), t: ms(10_000))
        q.flush()
        out += pipe.drain()
        let lines = out.split(separator: "\n").map(String.init)
        let gap = lines.firstIndex { $0.hasPrefix("dropped ") }
        #expect(gap != nil)
        guard let gap else { return }
        // Every line before the gap is in order from 0; the gap counts the rest up to 99; then 100.
        #expect(lines[..<gap].map { $0 + "\n" } == (0..<gap).map { $0 % 2 == 0 ? line($0) : "\($0)\n" })
        let count = Int(lines[gap].split(separator: " ")[1]) ?? -1
        #expect(gap + count == 100)
        #expect(lines[gap] == "dropped \(count) from \(ms(gap * 100).transcriptString) until 9.900")
        #expect(Array(lines[(gap + 1)...]) == [String(line(100).dropLast())])
        #expect(notes.lines.first == "stdout is not being read: lines beyond 1000 waiting bytes are dropped (a \"dropped\" line will say how many)")
        #expect(notes.lines.last == "stdout: \(count) lines dropped while it was not being read")
    }
}
