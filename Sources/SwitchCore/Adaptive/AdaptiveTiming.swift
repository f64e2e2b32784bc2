#if canImport(Glibc)
import Glibc  // exp, log: the C library's math, nothing else
#elseif canImport(Darwin)
import Darwin
#endif

/// Adaptive scan timing (issue 31, docs/profiles.md "adaptiveTiming"): the scan time follows the
/// person, one step at a time, from what the engine can see of their selections. A pure state
/// machine: the engine hands it every selection made by auto scanning (`Selection`), and it
/// answers, at most once a window, with a new scan time.
///
/// The engine cannot know which selections the person meant. What it sees instead (the proxies):
///
///   what it sees                                   what it stands for
///   a group's escape stop chosen right after       the group was entered by mistake (a late
///   entering that group                            or wrong selection)
///   a delete key typed right after a key           the key was wrong (late or wrong)
///   (groups on the way to the delete key between)
///   Close chosen in a menu right after it opened   the menu was opened on the wrong item
///   a selection after a full pass with no press    a miss: the person let the stop go by
///   (the level had wrapped round)
///   how long into its stop's dwell the press came  the person's reaction time (a selection not
///                                                  undone); for one undone, the dwell more (a
///                                                  press one stop late: the reaction it was)
///
/// Errors alone cannot say whether a slower scan would help. A late press is cured by it; an
/// accidental press or a lapse of attention is not, and a slower scan even makes each selection
/// longer, so more accidental presses fall in it: a rule on errors alone ratchets such a person
/// to the maximum. So every step is checked against the person's own reaction times: the last
/// `memory` timed presses (seconds, so they hold across scan times) give a lognormal (its median,
/// its spread from the 16th and 84th percentiles: robust to the odd accidental press), and from
/// it the setup's rule gives the scan time that costs least per correct selection
/// (`ScanTimeCost.recommended`): the person's best. An undone press in the first half of its
/// stop's dwell (`lateFraction`) is taken as one stop late, its reaction the dwell before and its
/// seconds; one later in the dwell is not a reaction (one stop late lands early, an accidental
/// press anywhere), and stands for an accidental press in the first half too, whose late reaction
/// is then not counted (`Timed`).
///
/// A window is `windowSize` selections; it is judged when the selection after it comes (so its
/// last one's fate is known), then a new window starts:
///
///   undone > 10 % or misses > 10 % (the rule),    slower by one step
///   and the person's best is slower than now (or
///   unknown: fewer than 10 reactions timed)
///   median press within the first 65 % of the dwell       faster by one step
///   (the .65 rule), and the person's best at or below
///   the next step down
///   otherwise                                             the same
///
/// Presses far too late to time need no rule of their own: an undone press early in its stop
/// counts as the dwell and more, so when many are late the median reaction is past the scan time
/// and the best is slower. The faster step does not ask for the issue's < 5 % errors: errors a
/// slower scan cannot mend (a tremor's accidental presses, a lapse) would hold such a person at
/// any scan time they were once pushed to; the reaction times say whether faster is safe.
///
/// States and events (every pair):
///
///                       filling (window < 20)             full (20 selections)
///   selection           classify it, add it               judge (rows above), history += window,
///                                                         the window starts again with it
///   person sets time    the window starts again           the window starts again
///                       (the history stays: it is seconds, not shares of a dwell)
///
/// The steps are NomonWeb's row-column ladder, 2·e^(−i/14) s for whole i (7.4 % apart; the
/// issue's research, anchors §1), extended beyond its 0.47–2 s both ways and kept within the
/// profile's `minimum`…`maximum`. A scan time between two steps (1.0 s) moves to the next step
/// in the direction of the change.
///
/// Timelines (tests in Tests/SwitchCoreTests/Adaptive/AdaptiveTimingTests.swift):
///
///   adaptive_slower_after_undone        20 selections, 3 undone, slow presses … 21st: 1.0 → 1.052
///   adaptive_slower_after_misses        20 selections, 3 after a full pass, slow presses … slower
///   adaptive_errors_the_person_is_quick_for  undone or misses 15 %, presses early: faster, not slower
///   adaptive_undone_early_is_a_late_reaction  undone in the first half of its stop: dwell + seconds;
///                                       later in it: not timed
///   adaptive_faster_when_early          median press ≤ 65 % and the best below: faster 1.0 → 0.979
///   adaptive_not_faster_past_the_best   presses early, but the best not below the next step: same
///   adaptive_history_spans_scan_times   reaction times measured at one scan time hold at the next
///   adaptive_one_change_a_window        a change, then the next window starts empty
///   adaptive_bounds                     at `maximum` (or `minimum`) no further step, no line
///   adaptive_press_outside_a_dwell      not undone, not timed
///   adaptive_person_sets_time           the window restarts, the history stays
///   adaptive_proxies_*                  escape after entering · delete after a key · Close after opening
public struct AdaptiveTiming: Sendable {
    public static let windowSize = 20
    /// Undone (late or wrong) above this share of a window: slower, if the person's best is.
    public static let undoneLimit = 0.10
    /// Misses above this share: slower, if the person's best is.
    public static let missLimit = 0.10
    /// The share of the dwell the window's median press must be within for a faster step (the .65 rule).
    public static let fasterFraction = 0.65
    /// An undone press before this share of its dwell was late by one stop; after it, too far in
    /// to tell (an accidental press falls anywhere, and is not a reaction).
    public static let lateFraction = 0.5
    /// Timed presses the person's reaction time is taken over.
    public static let memory = 200

    /// One selection, as the engine saw it.
    public struct Selection: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// An item (a key on the keyboard, a button).
            case item
            /// A group entered.
            case group
            /// A group's escape stop.
            case exit
            /// A menu entry.
            case menuEntry
        }
        public var kind: Kind
        /// The stop's id (`key:backspace`, `menu:close`, a group's id).
        public var id: String
        /// Full passes of the level before this selection.
        public var passes: Int
        /// How far into the stop's dwell the press came (0 … 1); nil when no dwell was running.
        public var fraction: Double?
        /// The stop's dwell in seconds (the scan time, or more on a first stop with a pause);
        /// nil: the scan time.
        public var dwell: Double?

        public init(kind: Kind, id: String, passes: Int, fraction: Double?, dwell: Double? = nil) {
            self.kind = kind
            self.id = id
            self.passes = passes
            self.fraction = fraction
            self.dwell = dwell
        }
    }

    /// One selection of the window: its fate and its timing.
    struct Entry {
        var undone = false
        var missed: Bool
        var fraction: Double?
        /// The stop's dwell (seconds).
        var dwell: Double
        /// Seconds from the stop's highlight to the press.
        var seconds: Double? { fraction.map { $0 * dwell } }
    }

    public let minimum: Interval
    public let maximum: Interval
    public private(set) var scanTime: Interval
    private var window: [Entry] = []
    /// The last `memory` timed presses, oldest first.
    public private(set) var history: [Timed] = []
    /// The last selection, and the index in `window` of the last item selection (a key).
    private var last: Selection?
    private var lastItem: Int?

    public init(settings: AdaptiveTimingSettings, scanTime: Interval) {
        minimum = settings.minimum
        maximum = max(settings.maximum, settings.minimum)
        self.scanTime = scanTime
    }

    /// The person set the scan time themselves (the menu's Faster, Slower): the steps go on
    /// from there and the window starts again; their reaction times stay known.
    public mutating func scanTimeSet(_ t: Interval) {
        scanTime = t
        window.removeAll()
        last = nil
        lastItem = nil
    }

    /// A selection; the change it brings (the window before it was judged), if any.
    public mutating func selected(_ s: Selection) -> AdaptiveTimingChange? {
        var change: AdaptiveTimingChange?
        classify(s)
        if window.count >= AdaptiveTiming.windowSize {
            remember(window)
            change = judge()
            window.removeAll(keepingCapacity: true)
            lastItem = nil
        }
        let fraction = s.fraction.map { min(max($0, 0), 1) }
        window.append(Entry(missed: s.passes > 0, fraction: fraction, dwell: s.dwell ?? scanTime.seconds))
        if s.kind == .item { lastItem = window.count - 1 }
        last = s
        return change
    }

    /// Marks what `s` shows to have been a mistake (never a press outside any dwell).
    private mutating func classify(_ s: Selection) {
        guard let last, !window.isEmpty else { return }
        let previous = window.count - 1
        switch s.kind {
        case .exit where last.kind == .group:
            if window[previous].fraction != nil { window[previous].undone = true }
        case .menuEntry where s.id == "menu:close" && last.kind == .item:
            if window[previous].fraction != nil { window[previous].undone = true }
        case .item where AdaptiveTiming.deleteKeys.contains(s.id):
            if let k = lastItem, !AdaptiveTiming.deleteKeys.contains(last.id), window[k].fraction != nil { window[k].undone = true }
        default:
            break
        }
    }

    static let deleteKeys: Set<String> = ["key:backspace", "key:deleteWord"]

    /// One timed press of the history.
    public enum Timed: Sendable, Equatable {
        /// Not undone: the reaction, in seconds.
        case reaction(Double)
        /// Undone in the first half of its stop's dwell: taken as one stop late, the reaction
        /// was the dwell before and these seconds (`reaction`); `fraction` of its dwell.
        case late(reaction: Double, fraction: Double)
        /// Undone in the second half: no reaction lands there but one two stops late, while an
        /// accidental press falls anywhere. It stands for one accidental press in the first
        /// half too, which is then not taken as a reaction.
        case accidental
    }

    /// The window's timed presses join the history (a press outside any dwell is not timed).
    private mutating func remember(_ entries: [Entry]) {
        for e in entries {
            guard let seconds = e.seconds, let f = e.fraction else { continue }
            if !e.undone {
                history.append(.reaction(seconds))
            } else if f < AdaptiveTiming.lateFraction {
                history.append(.late(reaction: e.dwell + seconds, fraction: f))
            } else {
                history.append(.accidental)
            }
        }
        if history.count > AdaptiveTiming.memory { history.removeFirst(history.count - AdaptiveTiming.memory) }
    }

    /// The person's reaction times (seconds) in the history: every press not undone, and the
    /// late ones less as many as the accidental presses seen in the second half (those latest
    /// in their dwell, the likeliest accidental).
    public var reactionTimes: [Double] {
        var times: [Double] = [], late: [(reaction: Double, fraction: Double)] = [], accidental = 0
        for t in history {
            switch t {
            case .reaction(let r): times.append(r)
            case .late(let r, let f): late.append((r, f))
            case .accidental: accidental += 1
            }
        }
        late.sort { $0.fraction < $1.fraction }
        return times + late.dropLast(min(accidental, late.count)).map(\.reaction)
    }

    /// The person's best scan time from the history (nil before half a window's reactions).
    public var personsBest: Double? {
        let times = reactionTimes
        guard times.count >= AdaptiveTiming.windowSize / 2 else { return nil }
        let sorted = times.sorted()
        let n = Double(sorted.count)
        let median = sorted[sorted.count / 2], low = sorted[Int(n * 0.16)], high = sorted[min(Int(n * 0.84), sorted.count - 1)]
        guard median > 0 else { return nil }
        // A lognormal through the median, its spread from the 16th and 84th percentiles (z = ∓0.994).
        let sigma = max(log(high / max(low, 0.001)) / (2 * 0.994), 0.01)
        let mean = median * exp(sigma * sigma / 2)
        let sd = mean * (exp(sigma * sigma) - 1).squareRoot()
        return ScanTimeCost.recommended(mean: mean, sd: sd, samples: times.count, maximum: maximum.seconds)
    }

    private mutating func judge() -> AdaptiveTimingChange? {
        let n = window.count
        let undone = window.filter(\.undone).count
        let missed = window.filter(\.missed).count
        let fractions = window.compactMap(\.fraction).sorted()
        let median = fractions.isEmpty ? 1 : fractions[fractions.count / 2]
        let stats = AdaptiveTimingChange.Window(selections: n, undone: undone, missed: missed, medianFraction: median)
        let best = personsBest

        let trouble = Double(undone) > AdaptiveTiming.undoneLimit * Double(n) || Double(missed) > AdaptiveTiming.missLimit * Double(n)
        if trouble, (best ?? .infinity) > scanTime.seconds + 0.0005 {
            return change(to: AdaptiveTiming.step(from: scanTime, slower: true), .slower, stats)
        }
        let faster = AdaptiveTiming.step(from: scanTime, slower: false)
        if median <= AdaptiveTiming.fasterFraction, let best, best <= faster.seconds + 0.0005 {
            return change(to: faster, .faster, stats)
        }
        return nil
    }

    /// `wanted` within the bounds: the change, or nil when that is no change.
    private mutating func change(to wanted: Interval, _ reason: AdaptiveTimingChange.Reason, _ stats: AdaptiveTimingChange.Window) -> AdaptiveTimingChange? {
        let new = min(max(wanted, minimum), maximum)
        guard new != scanTime else { return nil }
        defer { scanTime = new }
        return AdaptiveTimingChange(from: scanTime, to: new, reason: reason, window: stats)
    }

    /// The next rung of the ladder 2·e^(−i/14) s above (slower) or below `t`, to the millisecond.
    public static func step(from t: Interval, slower: Bool) -> Interval {
        let s = max(t.seconds, 0.001)
        let i = -14 * log(s / 2)  // t's (fractional) rung
        // The rung just past t: a scan time on a rung (to the millisecond) moves a whole rung.
        var rung = slower ? (i - 1e-6).rounded(.down) : (i + 1e-6).rounded(.up)
        var next = rungSeconds(rung)
        while slower ? next <= s + 0.0005 : next >= s - 0.0005 {
            rung += slower ? -1 : 1
            next = rungSeconds(rung)
        }
        return .milliseconds(Int64((next * 1000).rounded()))
    }

    static func rungSeconds(_ i: Double) -> Double { 2 * exp(-i / 14) }
}

/// The profile's `adaptiveTiming` section: `{"enabled": false, "minimum": 0.4, "maximum": 5}`.
public struct AdaptiveTimingSettings: Sendable, Equatable {
    public var enabled = false
    /// The shortest scan time it may reach (seconds).
    public var minimum = Interval.seconds(0.4)
    /// The longest.
    public var maximum = Interval.seconds(5)

    public init() {}
}

/// A change adaptive timing made (`{"type":"timing","name":"autoScanningTime","from":1.0,
/// "to":1.05,"reason":"slower",…}`): the scan time, and the window that decided it.
public struct AdaptiveTimingChange: Sendable, Equatable {
    public enum Reason: String, Sendable { case slower, faster }

    public struct Window: Sendable, Equatable {
        public var selections: Int
        public var undone: Int
        public var missed: Int
        public var medianFraction: Double

        public init(selections: Int, undone: Int, missed: Int, medianFraction: Double) {
            self.selections = selections
            self.undone = undone
            self.missed = missed
            self.medianFraction = medianFraction
        }
    }

    public var from: Interval
    public var to: Interval
    public var reason: Reason
    public var window: Window

    public init(from: Interval, to: Interval, reason: Reason, window: Window) {
        self.from = from
        self.to = to
        self.reason = reason
        self.window = window
    }
}

extension ProfileDecoder {
    static let adaptiveTimingKeys: Set<String> = ["enabled", "minimum", "maximum"]

    /// `"adaptiveTiming": {"enabled": true, "minimum": 0.5, "maximum": 3}`: the bounds within
    /// `autoScanningTime`'s range, the minimum not above the maximum.
    static func adaptiveTiming(_ node: JSONNode, _ r: JSONReader) throws(InputError) -> AdaptiveTimingSettings {
        let m = try r.object(node, "adaptiveTiming", allowed: adaptiveTimingKeys)
        var a = AdaptiveTimingSettings()
        if let v = m["enabled"] { a.enabled = try r.bool(v, "adaptiveTiming.enabled") }
        let range = ranges["autoScanningTime"]!
        if let v = m["minimum"] { a.minimum = .seconds(try r.number(v, "adaptiveTiming.minimum", in: range)) }
        if let v = m["maximum"] { a.maximum = .seconds(try r.number(v, "adaptiveTiming.maximum", in: range)) }
        if a.minimum > a.maximum {
            let v = m["maximum"] ?? m["minimum"]!
            throw r.error(v, m["maximum"] != nil ? "adaptiveTiming.maximum" : "adaptiveTiming.minimum",
                          "the minimum (\(formatNumber(a.minimum.seconds)) s) is above the maximum (\(formatNumber(a.maximum.seconds)) s); expected minimum ≤ maximum")
        }
        return a
    }
}
