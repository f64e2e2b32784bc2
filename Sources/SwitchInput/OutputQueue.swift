internal import CEvdev
import Glibc
import SwitchCore

/// Standard output (or error) for the live loop, written without ever waiting for the reader:
/// a switch user's input must not stop because whoever reads the transcript stopped reading
/// (docs/live.md "Faults in the live loop").
///
/// Policy: lines that the pipe cannot take now wait in memory, up to `limit` bytes (1 MiB by
/// default: hours of a normal transcript), and go out, in order, as soon as the reader reads
/// again (the loop watches the descriptor for room). A line that would pass the limit is
/// dropped, never silently: when there is room again, `gapLine` (a `dropped` line saying how many
/// and from when to when) goes out where they were, before the next line. When the loop ends,
/// the reader has up to `exitGrace` to take what is left; what it does not take is reported on
/// stderr. Pipes, FIFOs and sockets are written this way; a file or a terminal is written
/// directly (they do not hold a writer back).
///
/// A loop adapter: it asks for its descriptor's writability only while something waits.
public final class OutputQueue: LoopAdapter {
    public let name: String
    /// Bytes that may wait for the reader.
    public let limit: Int
    public static let defaultLimit = 1 << 20
    /// How long the end of the run waits for a reader that is behind.
    public static let exitGrace: Int32 = 2000

    /// A line standing for `count` dropped lines, the first at `from`, the last at `until`
    /// (nil: lines without a time, such as notes).
    public typealias GapLine = (_ count: Int, _ from: Instant?, _ until: Instant?) -> String

    private let fd: Int32
    private let ownsDescriptor: Bool
    /// 0 written as it is (blocking); 1 our own non-blocking description of a pipe; 2 a socket.
    private let mode: Int32
    private var buffer: [UInt8] = []
    /// Where the unwritten bytes start in `buffer`.
    private var head = 0
    /// End offsets (in `buffer`) of the lines not completely written.
    private var lineEnds: [Int] = []
    private var lineEndsHead = 0
    private var dropped = 0
    private var droppedFrom: Instant?
    private var droppedUntil: Instant?
    private let gapLine: GapLine
    private let log: (String) -> Void
    /// Dropping started and was reported on stderr.
    private var droppingReported = false
    /// The errno of a write that failed for another reason than a reader that is behind or gone
    /// (a full disk, an I/O error): nothing more is written, the loop goes on, and the command
    /// ends with status 2 (docs/live.md "Faults in the live loop").
    public private(set) var failure: Int32?
    /// Told once, when `failure` is set.
    private let failed: (Int32) -> Void

    /// - Parameters:
    ///   - fd: 1 or 2.
    ///   - log: where to say that lines are being dropped (stderr; nil for stderr itself).
    ///   - failed: told the errno of the first write that failed (not EAGAIN, not EPIPE).
    public init(name: String, fd: Int32, limit: Int = OutputQueue.defaultLimit, gapLine: @escaping GapLine,
                log: ((String) -> Void)? = nil, failed: @escaping (Int32) -> Void = { _ in }) {
        self.failed = failed
        self.name = name
        self.limit = max(limit, 1)
        self.gapLine = gapLine
        self.log = log ?? { _ in }
        var m: Int32 = 0
        let own = switchscan_nonblocking_output(fd, &m)
        self.mode = m
        self.fd = own >= 0 ? own : fd
        self.ownsDescriptor = own >= 0 && own != fd
        buffer.reserveCapacity(4096)
    }

    deinit { if ownsDescriptor { Glibc.close(fd) } }

    /// Lines waiting for the reader.
    public var pendingLines: Int { lineEnds.count - lineEndsHead }
    public var pendingBytes: Int { buffer.count - head }

    /// Queues one line (with its newline); `t` is its transcript time, if it has one.
    public func append(_ line: String, t: Instant? = nil) {
        if failure != nil { return }  // No longer written (said once).
        let size = line.utf8.count
        // Once dropping, every line is dropped until what waits has gone out (`flush` then
        // writes the one gap line): a shorter line that would still fit must not split the gap.
        if mode != 0, dropped > 0 || pendingBytes + size > limit {
            if dropped == 0 {
                droppedFrom = t
                if !droppingReported {
                    log("\(name) is not being read: lines beyond \(limit) waiting bytes are dropped (a \"dropped\" line will say how many)")
                    droppingReported = true
                }
            }
            dropped += 1
            droppedUntil = t
            return
        }
        enqueue(line)
    }

    private func enqueue(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        lineEnds.append(buffer.count)
    }

    private func appendGap() {
        enqueue(gapLine(dropped, droppedFrom, droppedUntil))
        log("\(name): \(dropped) line\(dropped == 1 ? "" : "s") dropped while it was not being read")
        dropped = 0
        droppedFrom = nil
        droppedUntil = nil
    }

    /// Writes what the descriptor takes now (everything, for a file or a terminal).
    public func flush() {
        // Nothing waits (the loop flushes after every frame and before every wait).
        if buffer.isEmpty && dropped == 0 { return }
        while head < buffer.count {
            let n = buffer.withUnsafeBytes { raw in
                switchscan_write_nowait(fd, raw.baseAddress! + head, UInt(buffer.count - head), mode)
            }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { break }
                // The reader is gone (EPIPE without SIGPIPE's default) or another error: nothing
                // more can be written there. EPIPE is the reader's choice; any other error is
                // output lost, said once and counted in the exit status.
                let e = errno
                if e != EPIPE && failure == nil {
                    failure = e
                    failed(e)
                }
                head = buffer.count
                break
            }
            head += n
        }
        while lineEndsHead < lineEnds.count && lineEnds[lineEndsHead] <= head { lineEndsHead += 1 }
        if head == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            head = 0
            lineEnds.removeAll(keepingCapacity: true)
            lineEndsHead = 0
            if dropped > 0 {
                // Room again: the gap line goes out now, not only with the next line.
                appendGap()
                flush()
            }
        } else if head > 1 << 16 && head > buffer.count / 2 {
            buffer.removeFirst(head)
            for k in lineEndsHead..<lineEnds.count { lineEnds[k] -= head }
            lineEnds.removeFirst(lineEndsHead)
            lineEndsHead = 0
            head = 0
        }
    }

    // MARK: LoopAdapter

    public func prepare(nowMonotonic: Int64) -> LoopInterest {
        guard mode != 0, head < buffer.count || dropped > 0 else { return LoopInterest() }
        return LoopInterest(fds: [LoopFD(fd: fd, events: LoopFD.writable)])
    }

    public func dispatch(ready: [LoopFD], nowMonotonic: Int64) -> [ShellInput] {
        flush()
        return []
    }

    /// The loop ends: the reader gets `exitGrace` to take what waits; the rest is reported.
    public func finish() {
        flush()
        let deadline = MonotonicClock.nowMicroseconds() + Int64(OutputQueue.exitGrace) * 1000
        while mode != 0 && (head < buffer.count || dropped > 0) {
            let left = (deadline - MonotonicClock.nowMicroseconds()) / 1000
            if left <= 0 || switchscan_wait_writable(fd, Int32(min(left, 100))) < 0 { break }
            flush()
        }
        if head < buffer.count || dropped > 0 {
            log("\(name) was not being read: the last \(pendingLines + dropped) lines were not written")
        }
    }
}
