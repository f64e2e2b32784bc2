import SwitchCore
@testable import SwitchDesktop
import Testing

/// The refresh schedule's timelines (named as in RefreshSchedule.swift's header), with quiet 15 ms,
/// layoutQuiet 5 ms, maxDelay 150 ms, probes every second.
@Suite struct RefreshScheduleTests {
    var s = RefreshSchedule()

    static func ms(_ v: Int64) -> Instant { Instant(microseconds: v * 1000) }

    mutating func at(_ t: Int64, _ e: RefreshSchedule.Event) -> [RefreshSchedule.Output] { s.handle(e, at: Self.ms(t)) }

    @Test mutating func quiet_period() {
        #expect(at(0, .change(.structure)) == [.setDeadline(Self.ms(15))])
        #expect(at(14, .deadline) == [])  // early wakeup: nothing
        #expect(at(15, .deadline) == [.read(.full)])
        #expect(s.deadline == nil)
        #expect(at(16, .readFinished(.done)) == [])
    }

    @Test mutating func burst_coalesced() {
        _ = at(0, .change(.structure))
        #expect(at(5, .change(.node("a"))) == [.setDeadline(Self.ms(20))])
        #expect(at(12, .change(.structure)) == [.setDeadline(Self.ms(27))])
        #expect(at(27, .deadline) == [.read(.full)])
        #expect(at(40, .deadline) == [])  // one read for the burst
    }

    /// Changes every `every` ms until `until` (each deadline handled when it comes, each read
    /// finishing at once): the reads' times and the busy outputs'.
    mutating func stream(_ change: RefreshSchedule.Change, every: Int64, from: Int64 = 0, until: Int64) -> (reads: [Int64], busy: [(Int64, Bool)]) {
        var reads: [Int64] = [], busy: [(Int64, Bool)] = []
        var t = from
        func handle(_ outs: [RefreshSchedule.Output], _ at: Int64) {
            for o in outs {
                if case .read = o { reads.append(at) }
                if case .busy(let b) = o { busy.append((at, b)) }
            }
        }
        while t <= until {
            handle(at(t, .change(change)), t)
            while let d = s.deadline, d < Self.ms(t + every) {
                let dt = d.microseconds / 1000
                handle(at(dt, .deadline), dt)
                _ = at(dt, .readFinished(.done))
            }
            t += every
        }
        return (reads, busy)
    }

    /// A change of the shape every 10 ms: a read every maxDelay; the tenth within 2 s makes the
    /// tree busy, then it is read once a second while the changes go on.
    @Test mutating func busy_throttles() {
        let (reads, busy) = stream(.structure, every: 10, until: 4000)
        #expect(Array(reads.prefix(10)) == [150, 310, 470, 630, 790, 950, 1110, 1270, 1430, 1590], "\(reads)")
        #expect(busy.map(\.0) == [1590] && busy.map(\.1) == [true], "\(busy)")
        #expect(Array(reads.dropFirst(10)) == [2590, 3590], "\(reads)")
        #expect(s.isBusy)
    }

    /// Values or names changing every 10 ms (a progress bar, a counter's text) are cheap patches:
    /// read every maxDelay, never busy.
    @Test mutating func busy_not_for_values() {
        let (reads, busy) = stream(.node("a"), every: 10, until: 3000)
        #expect(reads.count > 15 && busy.isEmpty, "\(reads) \(busy)")
    }

    /// Busy, then one burst a second: the next read settles it, and reads follow changes again.
    @Test mutating func busy_settles() {
        _ = stream(.structure, every: 10, until: 2000)
        #expect(s.isBusy)
        let (reads, busy) = stream(.structure, every: 1000, from: 3000, until: 5000)
        #expect(busy.map(\.1) == [false], "\(busy)")
        #expect(!s.isBusy)
        #expect(reads.last == 5015, "\(reads)")
    }

    @Test mutating func max_delay() {
        _ = at(0, .change(.structure))
        for t in stride(from: Int64(10), through: 130, by: 10) { _ = at(t, .change(.structure)) }
        #expect(at(140, .change(.structure)) == [.setDeadline(Self.ms(150))])
        #expect(at(149, .change(.structure)) == [])  // still first + maxDelay
        #expect(at(150, .deadline) == [.read(.full)])
    }

    @Test mutating func layout_settles_sooner() {
        // A row added: its structure at once, the next frame's layout 7 ms later.
        _ = at(0, .change(.structure))
        _ = at(1, .change(.structure))
        #expect(at(7, .change(.bounds("a"))) == [.setDeadline(Self.ms(12))])
        #expect(at(8, .change(.bounds("b"))) == [.setDeadline(Self.ms(13))])
        #expect(at(12, .deadline) == [])  // moved on by b
        #expect(at(13, .deadline) == [.read(.full)])
        // Structure after a layout: the full quiet again.
        _ = at(100, .change(.structure))
        _ = at(101, .change(.bounds("a")))
        #expect(at(102, .change(.structure)) == [.setDeadline(Self.ms(117))])
        #expect(at(106, .deadline) == [])
        #expect(at(117, .deadline) == [.read(.full)])
        // Bounds alone: the extents are checked after the short quiet, capped as ever.
        #expect(at(200, .change(.bounds("a"))) == [.setDeadline(Self.ms(205))])
        #expect(at(205, .deadline) == [.read(.bounds(["a"]))])
    }

    @Test mutating func node_patch() {
        _ = at(0, .change(.node("a")))
        _ = at(3, .change(.node("b")))
        #expect(at(18, .deadline) == [.read(.nodes(["a", "b"]))])
    }

    @Test mutating func bounds_check() {
        _ = at(0, .change(.bounds("a")))
        _ = at(3, .change(.node("c")))
        #expect(at(4, .change(.bounds("a"))) == [.setDeadline(Self.ms(9))])  // laid out: layoutQuiet
        #expect(at(9, .deadline) == [.read(RefreshSchedule.Scope(isFull: false, nodes: ["c"], bounds: ["a"]))])
        _ = at(30, .change(.bounds("b")))
        _ = at(31, .change(.structure))
        #expect(at(46, .deadline) == [.read(.full)])
    }

    @Test mutating func patch_absorbed() {
        _ = at(0, .change(.node("a")))
        _ = at(3, .change(.structure))
        _ = at(4, .change(.node("b")))
        #expect(at(19, .deadline) == [.read(.full)])
    }

    @Test mutating func subtree_read() {
        #expect(at(0, .change(.subtree("p"))) == [.setDeadline(Self.ms(15))])
        _ = at(1, .change(.unlisted("x")))
        _ = at(2, .change(.subtree("q")))
        _ = at(7, .change(.bounds("a")))
        #expect(at(8, .change(.node("c"))) == [.setDeadline(Self.ms(23))])
        #expect(at(23, .deadline) == [.read(RefreshSchedule.Scope(isFull: false, nodes: ["c"], bounds: ["a"],
                                                                  subtrees: ["p", "q"], unlisted: ["x"]))])
        _ = at(100, .change(.subtree("p")))
        _ = at(101, .change(.structure))
        _ = at(102, .change(.unlisted("x")))
        #expect(at(117, .deadline) == [.read(.full)])
    }

    @Test mutating func stale_deadline() {
        #expect(at(100, .deadline) == [])
        #expect(at(100, .probeAnswered) == [])
        #expect(at(100, .readFinished(.gone)) == [])
        #expect(!s.isWaitingForApplication)
    }

    @Test mutating func not_answering_probe() {
        #expect(at(0, .readFinished(.notAnswering)) == [.setDeadline(Self.ms(1000))])
        #expect(s.isWaitingForApplication)
        #expect(at(1000, .deadline) == [.probe])
        #expect(at(1100, .deadline) == [])  // a probe is out
        #expect(at(1300, .probeFailed) == [.setDeadline(Self.ms(2300))])
        #expect(at(2300, .deadline) == [.probe])
        #expect(at(2310, .probeAnswered) == [.read(.full)])
        #expect(!s.isWaitingForApplication)
    }

    @Test mutating func not_answering_while_settling() {
        _ = at(0, .change(.structure))
        #expect(at(5, .readFinished(.notAnswering)) == [.setDeadline(Self.ms(1005))])
        #expect(at(1005, .deadline) == [.probe])
    }

    @Test mutating func change_while_waiting() {
        _ = at(0, .readFinished(.notAnswering))
        #expect(at(300, .change(.node("a"))) == [.setDeadline(Self.ms(315))])
        #expect(at(315, .deadline) == [.read(.full)])  // the read decides
        #expect(at(320, .readFinished(.notAnswering)) == [.setDeadline(Self.ms(1320))])
    }

    @Test mutating func waiting_ends_when_a_read_succeeds_or_the_app_is_gone() {
        _ = at(0, .readFinished(.notAnswering))
        #expect(at(10, .readFinished(.gone)) == [.cancelDeadline])
        #expect(!s.isWaitingForApplication)
        #expect(at(1000, .deadline) == [])
        _ = at(2000, .readFinished(.notAnswering))
        #expect(at(2010, .probeAnswered) == [])  // no probe out yet
        #expect(at(2020, .readFinished(.done)) == [.cancelDeadline])
    }
}
