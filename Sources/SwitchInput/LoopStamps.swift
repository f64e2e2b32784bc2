internal import CEvdev
import Glibc

/// A profiling aid for the live loop (`SWITCHSCAN_LOOP_STAMPS=1`): CLOCK_MONOTONIC stamps at fixed
/// points of each wakeup, kept in memory and summarised on stderr when the loop ends (median and
/// p90 of each point after the wakeup, over the wakeups that delivered a frame; `source` is the
/// first event's kernel stamp, so its delta is how long the wakeup took). Off, a point costs one
/// load and a branch. It says where a touch frame's time goes between the kernel and the write to
/// the virtual touchscreen (BENCHMARKS.md, touch passthrough), which `perf` in the benchmark VM
/// does not: there it spreads the time over forty functions.
enum LoopStamps {
    enum Point: Int, CaseIterable {
        case source, woke, readStart, firstEvent, frameRead, admitted, encoded, frameAssembled, engineDone, beforeWrite, afterWrite, drained, iterationEnd, beforeWait
    }

    nonisolated(unsafe) static let enabled = getenv("SWITCHSCAN_LOOP_STAMPS").map { String(cString: $0) == "1" } ?? false
    nonisolated(unsafe) private static var rows: UnsafeMutablePointer<Int64> = {
        let p = UnsafeMutablePointer<Int64>.allocate(capacity: capacity * width)
        p.initialize(repeating: 0, count: capacity * width)
        return p
    }()
    nonisolated(unsafe) private static var row = 0
    private static let capacity = 100_000
    private static let width = Point.allCases.count

    @inline(__always)
    static func mark(_ p: Point) {
        guard enabled else { return }
        markSlow(p)
    }

    private static func markSlow(_ p: Point) {
        guard row < capacity else { return }
        if p == .firstEvent, rows[row * width + p.rawValue] != 0 { return }
        if p == .woke, rows[row * width + p.rawValue] != 0 { row += 1; if row >= capacity { return } }
        rows[row * width + p.rawValue] = Int64(switchscan_monotonic_ns())
    }

    /// The kernel's stamp (µs) of the first event read in this wakeup.
    @inline(__always)
    static func source(_ kernelMicroseconds: Int64) {
        guard enabled else { return }
        sourceSlow(kernelMicroseconds)
    }

    private static func sourceSlow(_ kernelMicroseconds: Int64) {
        guard row < capacity, rows[row * width] == 0 else { return }
        rows[row * width] = kernelMicroseconds * 1000
    }

    static func report() {
        guard enabled else { return }
        let n = min(row + 1, capacity)
        var deltas: [[Int64]] = Array(repeating: [], count: width)
        var used = 0
        for r in 0..<n {
            let base = rows[r * width + Point.woke.rawValue]
            guard base != 0, rows[r * width + Point.frameAssembled.rawValue] != 0 else { continue }
            used += 1
            for p in 0..<width where rows[r * width + p] != 0 { deltas[p].append(rows[r * width + p] - base) }
            // The wait's preparation is stamped before the wait of the next row.
        }
        var text = "loop stamps: \(used) wakeups with a frame (ns after the wakeup: median / p90)\n"
        for p in Point.allCases where p != .woke {
            let xs = deltas[p.rawValue].sorted()
            guard !xs.isEmpty else { continue }
            text += "  \(p): \(xs[xs.count / 2]) / \(xs[min(xs.count - 1, xs.count * 9 / 10)]) (\(xs.count))\n"
        }
        _ = text.withCString { Glibc.write(2, $0, strlen($0)) }
    }
}
