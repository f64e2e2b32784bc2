/// What the switch test of `switchscan setup` measured (issue 31, docs/clinicians.md "Guided
/// setup"), from the switch's raw edges (before any filter):
///
///   reaction time   prompt lit → switch closed, for the answered prompts (anticipations left out)
///   anticipation    a closure within `anticipation` (150 ms) of the prompt: too soon to be a
///                   reaction to it (the person pressed before they saw it)
///   unprompted      a closure while no prompt is lit (not a bounce): an accidental press
///   bounce          a closure within `bounceWindow` (150 ms) of a release: the switch bouncing,
///                   or a tremor's second press
///   press duration  closed → open, of the answers (and of the unprompted presses, apart)
public struct SetupMeasurement: Sendable, Equatable {
    public static let anticipation = Interval.milliseconds(150)
    public static let bounceWindow = Interval.milliseconds(150)

    public var prompts = 0
    /// Reaction times of the answered prompts (seconds).
    public var reactionTimes: [Double] = []
    /// Prompts with no press before they went out.
    public var unanswered = 0
    public var anticipations = 0
    /// Durations of the answers' presses (seconds).
    public var pressDurations: [Double] = []
    /// Durations of the unprompted presses (seconds).
    public var unpromptedDurations: [Double] = []
    /// Release → second closure, of each bounce (seconds).
    public var bounceGaps: [Double] = []

    public init() {}

    public var unprompted: Int { unpromptedDurations.count }
    public var bounces: Int { bounceGaps.count }

    public struct Summary: Sendable, Equatable {
        public var mean: Double
        public var sd: Double
        public var minimum: Double
        public var maximum: Double
        public var cv: Double { mean > 0 ? sd / mean : 0 }

        /// Sample SD (n − 1); one value has SD 0.
        public init?(_ xs: [Double]) {
            guard !xs.isEmpty else { return nil }
            mean = xs.reduce(0, +) / Double(xs.count)
            let m = mean
            sd = xs.count > 1 ? (xs.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(xs.count - 1)).squareRoot() : 0
            minimum = xs.min()!
            maximum = xs.max()!
        }
    }

    public var reactionTime: Summary? { Summary(reactionTimes) }
    public var pressDuration: Summary? { Summary(pressDurations) }

    var json: JSONOut {
        func summary(_ s: Summary?, cv: Bool = false) -> JSONOut {
            guard let s else { return .null }
            var members: [(String, JSONOut)] = [("mean", .raw(formatFixed(s.mean, 3))), ("sd", .raw(formatFixed(s.sd, 3)))]
            if cv { members.append(("cv", .raw(formatFixed(s.cv, 3)))) }
            members += [("min", .raw(formatFixed(s.minimum, 3))), ("max", .raw(formatFixed(s.maximum, 3)))]
            return .object(members)
        }
        return .object([
            ("prompts", .number(Double(prompts))),
            ("answered", .number(Double(reactionTimes.count))),
            ("unanswered", .number(Double(unanswered))),
            ("reactionTime", summary(reactionTime, cv: true)),
            ("anticipations", .number(Double(anticipations))),
            ("pressDuration", summary(pressDuration)),
            ("bounces", .object([("count", .number(Double(bounces))),
                                 ("longestGap", bounceGaps.max().map { .raw(formatFixed($0, 3)) } ?? .null)])),
            ("unprompted", .object([("count", .number(Double(unprompted))),
                                    ("longestPress", unpromptedDurations.max().map { .raw(formatFixed($0, 3)) } ?? .null)])),
        ])
    }
}

/// What `setup` recommends from a `SetupMeasurement` (docs/clinicians.md "Guided setup"; sources in
/// the research anchors §1 and §5), each with the reason shown to the clinician:
///
///   autoScanningTime  the scan time with the least expected time per correct selection
///                     (`ScanTimeCost`) under the measured reaction time (a lognormal of its mean
///                     and SD), never below the rules' floor max(mean ÷ 0.65, mean + 2·SD)
///                     (Simpson, Koester & LoPresti 2006/2007: a usable scan delay is about the
///                     reaction time ÷ 0.65, for many people the mean + 2 SD), up to the next 0.05 s
///   debounce          bounces seen: 1.5 × the longest release → bounce gap, up to the next 5 ms
///                     (the window restarts at the release, so a second closure inside it is
///                     swallowed), at least libinput's 25 ms, at most 250 ms; none seen: the profile's
///   holdDuration      unprompted presses seen, all shorter than the shortest answer: halfway
///                     between the longest of them and the shortest answer (it removes them and
///                     keeps every meant press); else off (it could not tell them apart)
///   pauseOnFirstItem  the first stop of a pass is lit at the selection, while the switch is
///                     still down: the person can press it only once they let go, so its dwell
///                     and pause must hold a long press (mean + 2 SD) and 0.1 s: the pause is
///                     what that needs beyond the dwell (usually 0: presses are short)
public struct SetupRecommendation: Sendable, Equatable {
    public var autoScanningTime: Interval
    public var debounce: Interval
    public var holdDuration: Interval
    public var pauseOnFirstItem: Interval
    /// One sentence per setting: the rule and the numbers it took.
    public var reasons: [(setting: String, reason: String)]

    public static func == (a: SetupRecommendation, b: SetupRecommendation) -> Bool {
        a.autoScanningTime == b.autoScanningTime && a.debounce == b.debounce && a.holdDuration == b.holdDuration
            && a.pauseOnFirstItem == b.pauseOnFirstItem && a.reasons.map(\.reason) == b.reasons.map(\.reason)
    }

    public static let minimumScanTime = 0.3
    public static let maximumScanTime = 10.0

    public init(_ m: SetupMeasurement, base: Profile) {
        reasons = []
        let rt = m.reactionTime ?? SetupMeasurement.Summary([1.0])!
        let (byRatio, bySpread) = ScanTimeCost.rules(mean: rt.mean, sd: rt.sd)
        let floor = ScanTimeCost.floor(mean: rt.mean, sd: rt.sd)
        let cost = ScanTimeCost(mean: rt.mean, sd: rt.sd, samples: m.reactionTimes.count)
        let best = ScanTimeCost.recommended(mean: rt.mean, sd: rt.sd, samples: m.reactionTimes.count, maximum: Self.maximumScanTime)
        let t = min(max(Self.up(best, 0.05), Self.minimumScanTime), Self.maximumScanTime)
        autoScanningTime = .seconds(t)
        let late = formatFixed(100 * cost.late(t), 1)
        let why = best > floor + 1e-9
            ? "the least expected time per correct selection (\(late) % of presses late, each costing \(formatNumber(ScanTimeCost.correction)) selections to put right)"
            : "the rules' floor (faster would cost less per correct selection, but the rules keep a margin)"
        reasons.append(("autoScanningTime", "\(formatFixed(t, 2)) s: \(why); the floor is the larger of the reaction time's mean ÷ 0.65 (\(formatFixed(byRatio, 2)) s) and its mean + 2 SD (\(formatFixed(bySpread, 2)) s)"))

        if let gap = m.bounceGaps.max() {
            let w = min(max(Self.up(gap * 1.5, 0.005), 0.025), 0.25)
            debounce = .seconds(w)
            reasons.append(("debounce", "\(formatFixed(w, 3)) s: \(m.bounces) bounce\(m.bounces == 1 ? "" : "s"), the longest \(formatFixed(gap, 3)) s after the release; 1.5 × that"))
        } else {
            debounce = base.switchStabilization.debounce
            reasons.append(("debounce", "\(formatFixed(debounce.seconds, 3)) s: no bounce seen, the profile's"))
        }

        if let longest = m.unpromptedDurations.max(), let shortest = m.pressDurations.min(), longest < shortest {
            let h = Self.up((longest + shortest) / 2, 0.01)
            holdDuration = .seconds(h)
            reasons.append(("holdDuration", "\(formatFixed(h, 2)) s: \(m.unprompted) unprompted press\(m.unprompted == 1 ? "" : "es"), the longest \(formatFixed(longest, 3)) s, shorter than every answer (the shortest \(formatFixed(shortest, 3)) s): halfway between"))
        } else if let longest = m.unpromptedDurations.max() {
            holdDuration = .zero
            reasons.append(("holdDuration", "off: \(m.unprompted) unprompted press\(m.unprompted == 1 ? "" : "es") as long as the answers (up to \(formatFixed(longest, 3)) s): a hold duration would not tell them apart"))
        } else {
            holdDuration = .zero
            reasons.append(("holdDuration", "off: no unprompted press seen"))
        }

        // The press on a first stop comes at the later of the reaction and the release + 0.1 s;
        // the dwell covers the reaction, so the pause covers what the release needs beyond it.
        let press = m.pressDuration.map { $0.mean + 2 * $0.sd } ?? 0.15
        let p = max(0, Self.up(press + 0.1 - t, 0.05))
        pauseOnFirstItem = .seconds(p)
        reasons.append(("pauseOnFirstItem", p == 0
            ? "off: a long press (\(formatFixed(press, 2)) s) and 0.1 s to let go fit in the dwell"
            : "\(formatFixed(p, 2)) s: a long press (\(formatFixed(press, 2)) s) and 0.1 s to let go, beyond what the dwell leaves"))
    }

    /// `x` up to the next multiple of `step` (within a microsecond).
    static func up(_ x: Double, _ step: Double) -> Double {
        let n = (x / step - 1e-6).rounded(.up)
        return (n * step * 1000).rounded() / 1000
    }

    /// `base` with the recommendation in it.
    public func apply(to base: Profile) -> Profile {
        var p = base
        p.scanning.autoScanningTime = autoScanningTime
        p.scanning.pauseOnFirstItem = pauseOnFirstItem
        p.switchStabilization.debounce = debounce
        p.switchStabilization.holdDuration = holdDuration
        return p
    }
}
