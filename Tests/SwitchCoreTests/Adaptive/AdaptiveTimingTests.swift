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
        // Three keys deleted right after they were typed (3 of 20 > 10 %): slower when the 21st comes.
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

    @Test func adaptive_faster_after_two_good() {
        // One good window (median at 40 %, no errors): nothing yet; the second: faster.
        var r = Self.rule()
        #expect(Self.feed(&r, Array(repeating: Self.item(at: 0.4), count: 21)).isEmpty)
        #expect(r.state == .steady(good: 1))
        #expect(Self.feed(&r, Array(repeating: Self.item(at: 0.4), count: 20)).map(\.to) == [.milliseconds(979)])
        #expect(r.state == .steady(good: 0))
    }

    @Test func adaptive_good_streak_broken() {
        // Good, in between (presses at 70 %), good: no faster step.
        var r = Self.rule()
        let s = Array(repeating: Self.item(at: 0.4), count: 20) + Array(repeating: Self.item(at: 0.7), count: 20)
            + Array(repeating: Self.item(at: 0.4), count: 21)
        #expect(Self.feed(&r, s).isEmpty)
        #expect(r.state == .steady(good: 1))
    }

    /// `n` keys each deleted right after it was typed (2n selections), then plain keys to `count`.
    static func undone(_ n: Int, count: Int = 20) -> [Selection] {
        var s: [Selection] = []
        for _ in 0..<n { s += [item("key:e"), item("key:backspace")] }
        return s + Array(repeating: item(), count: count - s.count)
    }

    @Test func adaptive_slower_helped_goes_on() {
        // 4 undone: slower; the next window 3 (fewer, still over 10 %): slower again; then none.
        var r = Self.rule()
        let s = Self.undone(4) + [Self.item()] + Self.undone(3, count: 19) + [Self.item()] + Self.undone(0, count: 19) + [Self.item()]
        let changes = Self.feed(&r, s)
        #expect(changes.map(\.reason) == [.slower, .slower])
        #expect(changes.map(\.to) == [.milliseconds(1052), .milliseconds(1129)])
        #expect(r.state == .steady(good: 0) && r.held.isEmpty)
    }

    /// A window of 20 with `misses` selections after a full pass, presses at 70 %.
    static func misses(_ misses: Int) -> [Selection] {
        Array(repeating: item(passes: 1), count: misses) + Array(repeating: item(), count: 20 - misses)
    }

    @Test func adaptive_slower_not_helped_goes_back() {
        // Misses 3 of 20: slower, tried; the next window as many: back to 1.0 s, misses held;
        // two more windows of misses change nothing.
        var r = Self.rule()
        var changes = Self.feed(&r, Self.misses(3) + [Self.item(passes: 1)])
        #expect(r.state == .trying(.misses, before: 0.15, from: .seconds(1)))
        changes += Self.feed(&r, Self.misses(2) + [Self.item()])   // 3 of 20 again (the 21st was one)
        #expect(changes.map(\.reason) == [.slower, .back])
        #expect(changes.map(\.to) == [.milliseconds(1052), .seconds(1)])
        #expect(r.held == [.misses] && r.state == .steady(good: 0))
        #expect(Self.feed(&r, Self.misses(4) + Self.misses(3) + [Self.item()]).isEmpty)
        #expect(r.scanTime == .seconds(1))
    }

    @Test func adaptive_hold_lifted_within_limit() {
        // Held as above; a window with 1 miss (within 10 %) lifts the hold; then 3 misses: slower.
        var r = Self.rule()
        _ = Self.feed(&r, Self.misses(3) + Self.misses(3) + [Self.item()])
        #expect(r.held == [.misses])
        #expect(Self.feed(&r, Self.misses(1) + [Self.item()]).isEmpty)
        #expect(r.held.isEmpty)
        #expect(Self.feed(&r, Self.misses(3) + Self.misses(3)).first?.reason == .slower)
    }

    @Test func adaptive_press_outside_a_dwell() {
        // Keys pressed outside any dwell, then deleted: not undone; their (unknown) moment is not
        // in the median, so the windows are good and the second brings faster.
        var r = Self.rule()
        var w: [Selection] = []
        for _ in 0..<3 { w += [Selection(kind: .item, id: "key:e", passes: 0, fraction: nil), Self.item("key:backspace", at: 0.3)] }
        w += Array(repeating: Self.item(at: 0.3), count: 14)
        let changes = Self.feed(&r, w + w + [Self.item(at: 0.3)])
        #expect(changes.map(\.reason) == [.faster])
        #expect(changes.first?.window.undone == 0 && changes.first?.window.medianFraction == 0.3)
    }

    @Test func adaptive_same_in_between() {
        // One undone (5 %: not slower, not under 5 % either), presses at 70 %: no change.
        var r = Self.rule()
        let s = [Self.item("key:e"), Self.item("key:backspace")] + Array(repeating: Self.item(at: 0.7), count: 19)
        #expect(Self.feed(&r, s).isEmpty)
        var late = Self.rule()
        #expect(Self.feed(&late, Array(repeating: Self.item(at: 0.7), count: 21)).isEmpty)
    }

    @Test func adaptive_one_change_a_window() {
        // 81 early selections: faster at the 41st and the 81st (two good windows each), none between.
        var r = Self.rule()
        var at: [Int] = []
        for k in 1...81 { if r.selected(Self.item(at: 0.3)) != nil { at.append(k) } }
        #expect(at == [41, 81])
        #expect(r.scanTime == .milliseconds(912))
    }

    @Test func adaptive_bounds() {
        var r = Self.rule(1.0, minimum: 1.0, maximum: 1.05)
        #expect(Self.feed(&r, Array(repeating: Self.item(at: 0.2), count: 41)).isEmpty)
        var s: [Selection] = []
        for _ in 0..<10 { s += [Self.item(passes: 1)] }
        s += Array(repeating: Self.item(), count: 51)
        let changes = Self.feed(&r, s.map { $0 }) + Self.feed(&r, Array(repeating: Self.item(passes: 2), count: 40))
        #expect(changes.map(\.to) == [.milliseconds(1050)])
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
        // Misses held; the person sets 1.5 s: the window restarts, the hold is lifted (3 misses
        // slow again, from 1.5 s); a half window before the setting counts for nothing.
        var r = Self.rule()
        _ = Self.feed(&r, Self.misses(3) + Self.misses(3) + [Self.item()])
        #expect(r.held == [.misses])
        _ = Self.feed(&r, Array(repeating: Self.item(passes: 1), count: 15))
        r.scanTimeSet(.seconds(1.5))
        #expect(r.held.isEmpty && r.state == .steady(good: 0))
        #expect(Self.feed(&r, Self.misses(3)).isEmpty)
        #expect(r.selected(Self.item())?.from == .seconds(1.5))
    }
}
