import SwitchCore
import Testing

/// Adaptive timing's rule, one timeline of `AdaptiveTiming`'s header each, then on the engine.
@Suite("Adaptive timing")
struct AdaptiveTimingTests {
    typealias Selection = AdaptiveTiming.Selection

    static func rule(_ t: Double = 1.0, minimum: Double = 0.4, maximum: Double = 5) -> AdaptiveTiming {
        var s = AdaptiveTimingSettings()
        s.enabled = true
        s.minimum = .seconds(minimum)
        s.maximum = .seconds(maximum)
        return AdaptiveTiming(settings: s, scanTime: .seconds(t))
    }

    static func item(_ id: String = "key:a", at fraction: Double = 0.7, passes: Int = 0) -> Selection {
        Selection(kind: .item, id: id, passes: passes, fraction: fraction)
    }

    /// Feeds `selections`; the changes that came.
    static func feed(_ rule: inout AdaptiveTiming, _ selections: [Selection]) -> [AdaptiveTimingChange] {
        selections.compactMap { rule.selected($0) }
    }

    @Test func the_ladder_is_nomonwebs_extended_both_ways() {
        #expect(AdaptiveTiming.step(from: .seconds(2), slower: false) == .milliseconds(1862))
        #expect(AdaptiveTiming.step(from: .seconds(2), slower: true) == .milliseconds(2148))
        // Between two steps (1.0 s): the next one in the direction of the change.
        #expect(AdaptiveTiming.step(from: .seconds(1), slower: true) == .milliseconds(1052))
        #expect(AdaptiveTiming.step(from: .seconds(1), slower: false) == .milliseconds(979))
        // On a step (1.052 s, to the millisecond): a whole step.
        #expect(AdaptiveTiming.step(from: .milliseconds(1052), slower: true) == .milliseconds(1129))
        #expect(AdaptiveTiming.step(from: .milliseconds(1052), slower: false) == .milliseconds(979))
        #expect(AdaptiveTiming.step(from: .milliseconds(470), slower: false) == .milliseconds(446))
        // Down and back up come to the same step.
        var t = Interval.seconds(3)
        for _ in 0..<10 { t = AdaptiveTiming.step(from: t, slower: false) }
        for _ in 0..<10 { t = AdaptiveTiming.step(from: t, slower: true) }
        #expect(abs(t.seconds - 3) < 0.1)
    }

    @Test func adaptive_slower_after_undone() {
        // Three keys deleted right after they were typed (3 of 20 > 10 %), presses at 70 % of a
        // 1 s dwell (0.7 s: the best is 0.7 ÷ 0.65 = 1.077 s): slower when the 21st comes.
        var r = Self.rule()
        var s: [Selection] = []
        for _ in 0..<3 { s += [Self.item("key:e"), Self.item("key:backspace")] }
        s += Array(repeating: Self.item(), count: 14)
        #expect(Self.feed(&r, s).isEmpty)
        let change = r.selected(Self.item())
        #expect(change == AdaptiveTimingChange(from: .seconds(1), to: .milliseconds(1052), reason: .slower,
                                               window: .init(selections: 20, undone: 3, missed: 0, medianFraction: 0.7)))
        #expect(r.scanTime == .milliseconds(1052))
    }

    @Test func adaptive_slower_after_misses() {
        var r = Self.rule()
        let s = Array(repeating: Self.item(passes: 1), count: 3) + Array(repeating: Self.item(), count: 17) + [Self.item()]
        #expect(Self.feed(&r, s).map(\.reason) == [.slower])
    }

    @Test func adaptive_errors_the_person_is_quick_for() {
        // 3 keys undone (pressed at 80 % of their stop: not timed) and 3 misses, the other presses
        // at 30 % (0.3 s, the best 0.46 s): the errors are not the scan's speed. Faster, not slower.
        var r = Self.rule()
        var s: [Selection] = []
        for _ in 0..<3 { s += [Self.item("key:e", at: 0.8), Self.item("key:backspace", at: 0.3)] }
        s += Array(repeating: Self.item(at: 0.3, passes: 1), count: 3) + Array(repeating: Self.item(at: 0.3), count: 11)
        let changes = Self.feed(&r, s + [Self.item(at: 0.3)])
        #expect(changes.map(\.reason) == [.faster])
        #expect(changes.first?.window == .init(selections: 20, undone: 3, missed: 3, medianFraction: 0.3))
        #expect(r.history.filter { $0 == .accidental }.count == 3)
        #expect(r.reactionTimes == Array(repeating: 0.3, count: 17))
        #expect(abs(r.personsBest! - 0.3 / 0.65) < 0.01)
    }

    @Test func adaptive_undone_early_is_a_late_reaction() {
        // Keys undone at 10 % and 40 % of their 1 s stop were reactions of 1.1 and 1.4 s (one stop
        // late); one undone at 70 % is no reaction, and stands for an accidental press in the
        // first half too: the latest there (40 %) is not counted. A press outside any dwell is
        // not timed.
        var r = Self.rule()
        let s = [Self.item("key:e", at: 0.1), Self.item("key:backspace", at: 0.5), Self.item("key:e", at: 0.4), Self.item("key:backspace", at: 0.5),
                 Self.item("key:e", at: 0.7), Self.item("key:backspace", at: 0.5),
                 Selection(kind: .item, id: "key:e", passes: 0, fraction: nil), Self.item("key:backspace", at: 0.5)]
            + Array(repeating: Self.item(at: 0.5), count: 12) + [Self.item()]
        _ = Self.feed(&r, s)
        let late = AdaptiveTiming.Timed.late
        #expect(r.history == [late(1.1, 0.1), .reaction(0.5), late(1.4, 0.4), .reaction(0.5), .accidental]
                    + Array(repeating: .reaction(0.5), count: 14))
        #expect(r.reactionTimes == Array(repeating: 0.5, count: 16) + [1.1])
        // A first stop with a pause: its dwell (given) is what the fraction is of.
        var p = Self.rule()
        _ = Self.feed(&p, [Selection(kind: .item, id: "key:a", passes: 0, fraction: 0.5, dwell: 1.5)] + Array(repeating: Self.item(at: 0.5), count: 20))
        #expect(p.history.first == .reaction(0.75))
    }

    @Test func adaptive_faster_when_early() {
        // 20 presses at 40 % (0.4 s; the best 0.615 s): faster at the 21st, 1.0 → 0.979.
        var r = Self.rule()
        let changes = Self.feed(&r, Array(repeating: Self.item(at: 0.4), count: 21))
        #expect(changes == [AdaptiveTimingChange(from: .seconds(1), to: .milliseconds(979), reason: .faster,
                                                 window: .init(selections: 20, undone: 0, missed: 0, medianFraction: 0.4))])
    }

    @Test func adaptive_not_faster_past_the_best() {
        // Presses at 64 % (within the 65 %), but 0.64 s ÷ 0.65 = 0.985 s is above the next step
        // down (0.979 s): the same. At 70 % neither faster nor (no errors) slower.
        var r = Self.rule()
        #expect(Self.feed(&r, Array(repeating: Self.item(at: 0.64), count: 41)).isEmpty)
        #expect(abs(r.personsBest! - 0.64 / 0.65) < 0.001)
        var late = Self.rule()
        #expect(Self.feed(&late, Array(repeating: Self.item(at: 0.7), count: 41)).isEmpty)
    }

    @Test func adaptive_history_spans_scan_times() {
        // Reaction times of 0.8 s at 1.0 s (the best 1.23 s); the person sets 2.0 s: the presses
        // now come at 40 % of the dwell, and the history (seconds) says faster is safe at once:
        // 2.0 → 1.862 at the first window, and on down a step a window to the best.
        var r = Self.rule()
        _ = Self.feed(&r, Array(repeating: Self.item(at: 0.8), count: 40))
        r.scanTimeSet(.seconds(2))
        var changes: [AdaptiveTimingChange] = []
        for _ in 0..<200 {
            let fraction = 0.8 / r.scanTime.seconds
            if let c = r.selected(Self.item(at: fraction)) { changes.append(c) }
        }
        #expect(changes.first == AdaptiveTimingChange(from: .seconds(2), to: .milliseconds(1862), reason: .faster,
                                                      window: .init(selections: 20, undone: 0, missed: 0, medianFraction: 0.4)))
        #expect(changes.allSatisfy { $0.reason == .faster })
        #expect(r.scanTime == .milliseconds(1303))   // the first step at or above the best (1.23 s)
    }

    @Test func adaptive_press_outside_a_dwell() {
        // Keys pressed outside any dwell, then deleted: not undone, not timed; the window's
        // median is of the timed presses (30 %): faster.
        var r = Self.rule()
        var w: [Selection] = []
        for _ in 0..<3 { w += [Selection(kind: .item, id: "key:e", passes: 0, fraction: nil), Self.item("key:backspace", at: 0.3)] }
        w += Array(repeating: Self.item(at: 0.3), count: 14)
        let changes = Self.feed(&r, w + [Self.item(at: 0.3)])
        #expect(changes.map(\.reason) == [.faster])
        #expect(changes.first?.window.undone == 0 && changes.first?.window.medianFraction == 0.3)
        #expect(r.history.count == 17)
    }

    @Test func adaptive_one_change_a_window() {
        // 81 early selections: faster at the 21st, 41st, 61st and 81st, none between.
        var r = Self.rule()
        var at: [Int] = []
        for k in 1...81 { if r.selected(Self.item(at: 0.3)) != nil { at.append(k) } }
        #expect(at == [21, 41, 61, 81])
        #expect(r.scanTime == .milliseconds(790))
    }

    @Test func adaptive_bounds() {
        // Within 1.0…1.05 s: early presses cannot go below 1.0, misses with late presses go to
        // 1.05 once and no further (no line at a bound).
        var r = Self.rule(1.0, minimum: 1.0, maximum: 1.05)
        #expect(Self.feed(&r, Array(repeating: Self.item(at: 0.2), count: 41)).isEmpty)
        let late = Array(repeating: Selection(kind: .item, id: "key:a", passes: 2, fraction: 0.95), count: 100)
        #expect(Self.feed(&r, late).map(\.to) == [.milliseconds(1050)])
    }

    @Test func adaptive_proxies_escape_after_entering() {
        var r = Self.rule()
        var s: [Selection] = []
        for _ in 0..<3 { s += [Selection(kind: .group, id: "kbd#row1", passes: 0, fraction: 0.5), Selection(kind: .exit, id: "kbd#row1", passes: 0, fraction: 0.5)] }
        s += Array(repeating: Self.item(), count: 15)
        #expect(Self.feed(&r, s).map(\.window.undone) == [3])
    }

    @Test func adaptive_proxies_delete_after_a_key_through_groups() {
        // key, group (on the way to delete), delete: the key is undone, not the group.
        var r = Self.rule()
        var s: [Selection] = []
        for _ in 0..<3 { s += [Self.item("key:t"), Selection(kind: .group, id: "kbd#row3", passes: 0, fraction: 0.5), Self.item("key:backspace")] }
        // Deleting twice in a row undoes one key only (the second delete follows a delete).
        s += [Self.item("key:backspace")]
        s += Array(repeating: Self.item(), count: 11)
        #expect(Self.feed(&r, s).map(\.window.undone) == [3])
    }

    @Test func adaptive_proxies_close_after_opening() {
        var r = Self.rule()
        var s: [Selection] = []
        for _ in 0..<3 { s += [Self.item("b1"), Selection(kind: .menuEntry, id: "menu:close", passes: 0, fraction: 0.5)] }
        s += Array(repeating: Self.item(), count: 15)
        #expect(Self.feed(&r, s).map(\.window.undone) == [3])
    }

    @Test func adaptive_person_sets_time() {
        // Half a window of misses, then the person sets 1.5 s: the window restarts (the half
        // window counts for nothing); a full window of misses (presses at 70 %, 1.05 s: the best
        // 1.6 s) slows from 1.5 s.
        var r = Self.rule()
        _ = Self.feed(&r, Array(repeating: Self.item(passes: 1), count: 15))
        r.scanTimeSet(.seconds(1.5))
        #expect(r.scanTime == .seconds(1.5))
        #expect(Self.feed(&r, Array(repeating: Self.item(passes: 1), count: 3) + Array(repeating: Self.item(), count: 17)).isEmpty)
        let change = r.selected(Self.item())
        #expect(change?.from == .seconds(1.5) && change?.reason == .slower)
        #expect(r.history.count == 20)
    }
}
