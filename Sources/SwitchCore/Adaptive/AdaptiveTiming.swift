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
///   how far into its stop's dwell the press came   how much of the dwell the person needs
///
/// A window is `windowSize` selections; it is judged when the selection after it comes (so its
/// last one's fate is known), then a new window starts:
///
///   undone > 10 % of the window, or misses > 10 %           slower by one step
///   median press within the first 65 % of the dwell,        faster by one step
///   undone + misses < 5 %
///   otherwise                                               the same
///
/// The steps are NomonWeb's row-column ladder, 2·e^(−i/14) s for whole i (7.4 % apart; the
/// issue's research, anchors §1), extended beyond its 0.47–2 s both ways and kept within the
/// profile's `minimum`…`maximum`. A scan time between two steps (1.0 s) moves to the next step
/// in the direction of the change.
///
/// Timelines (tests in Tests/SwitchCoreTests/Adaptive/AdaptiveTimingTests.swift):
///
///   adaptive_slower_after_undone        20 selections, 3 undone … 21st: slower 1.0 → 1.05
///   adaptive_slower_after_misses        20 selections, 3 after a full pass … slower
///   adaptive_faster_when_early          20 selections, median at 40 %, none undone … faster 1.0 → 0.98
///   adaptive_same_in_between            20 selections, 1 undone, median at 70 % … no change
///   adaptive_one_change_a_window        a change, then the next window starts empty
///   adaptive_bounds                     at `maximum` (or `minimum`) no further step, no line
///   adaptive_proxies_*                  escape after entering · delete after a key · Close after opening
public struct AdaptiveTiming: Sendable {
    public static let windowSize = 20
    /// Undone (late or wrong) above this share of a window: slower.
    public static let undoneLimit = 0.10
    /// Misses above this share: slower.
    public static let missLimit = 0.10
    /// Errors (undone and misses) below this share, and presses early enough: faster.
    public static let fasterErrorLimit = 0.05
    /// The share of the dwell the presses must be within for faster (the .65 rule)…
    public static let fasterFraction = 0.65
    /// …and which of them: the median (the .65 rule's own statement, RT ≈ 0.65·T; the issue's
    /// "all presses" asks the slowest of 20, about mean + 2 SD, to be that early).
    public static let fasterQuantile = 0.5

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
        /// How far into the stop's dwell the press came (0 … 1).
        public var fraction: Double

        public init(kind: Kind, id: String, passes: Int, fraction: Double) {
            self.kind = kind
            self.id = id
            self.passes = passes
            self.fraction = fraction
        }
    }

    public let minimum: Interval
    public let maximum: Interval
    public private(set) var scanTime: Interval
    private var window: [(undone: Bool, missed: Bool, fraction: Double)] = []
    /// The last selection, and the index in `window` of the last item selection (a key).
    private var last: Selection?
    private var lastItem: Int?

    public init(settings: AdaptiveTimingSettings, scanTime: Interval) {
        minimum = settings.minimum
        maximum = max(settings.maximum, settings.minimum)
        self.scanTime = scanTime
    }

    /// The person set the scan time themselves (the menu's Faster, Slower): the steps go on
    /// from there, and the window starts again.
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
            change = judge()
            window.removeAll(keepingCapacity: true)
            lastItem = nil
        }
        window.append((false, s.passes > 0, min(max(s.fraction, 0), 1)))
        if s.kind == .item { lastItem = window.count - 1 }
        last = s
        return change
    }

    /// Marks what `s` shows to have been a mistake.
    private mutating func classify(_ s: Selection) {
        guard let last, !window.isEmpty else { return }
        let previous = window.count - 1
        switch s.kind {
        case .exit where last.kind == .group:
            window[previous].undone = true
        case .menuEntry where s.id == "menu:close" && last.kind == .item:
            window[previous].undone = true
        case .item where AdaptiveTiming.deleteKeys.contains(s.id):
            if let k = lastItem, !AdaptiveTiming.deleteKeys.contains(last.id) { window[k].undone = true }
        default:
            break
        }
    }

    static let deleteKeys: Set<String> = ["key:backspace", "key:deleteWord"]

    private mutating func judge() -> AdaptiveTimingChange? {
        let n = window.count
        let undone = window.filter(\.undone).count
        let missed = window.filter(\.missed).count
        let fractions = window.map(\.fraction).sorted()
        let median = fractions[n / 2]
        let quantile = fractions[min(n - 1, Int((Double(n) * AdaptiveTiming.fasterQuantile).rounded(.down)))]
        let stats = AdaptiveTimingChange.Window(selections: n, undone: undone, missed: missed, medianFraction: median)
        let wanted: Interval
        let reason: AdaptiveTimingChange.Reason
        if Double(undone) > AdaptiveTiming.undoneLimit * Double(n) || Double(missed) > AdaptiveTiming.missLimit * Double(n) {
            wanted = AdaptiveTiming.step(from: scanTime, slower: true)
            reason = .slower
        } else if Double(undone + missed) < AdaptiveTiming.fasterErrorLimit * Double(n), quantile <= AdaptiveTiming.fasterFraction {
            wanted = AdaptiveTiming.step(from: scanTime, slower: false)
            reason = .faster
        } else {
            return nil
        }
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
