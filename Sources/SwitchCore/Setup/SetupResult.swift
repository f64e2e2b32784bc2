/// What `switchscan setup` ends with (docs/clinicians.md "Guided setup"): the measurements, the
/// recommendation with its reasons, the confirmation's rounds, the complete profile, and the
/// person's time spent. `--format json` writes
///
///     {"measured": {"prompts", "answered", "unanswered", "reactionTime": {"mean", "sd", "cv",
///      "min", "max"}, "anticipations", "pressDuration": {…}, "bounces": {"count", "longestGap"},
///      "unprompted": {"count", "longestPress"}},
///      "recommended": {"autoScanningTime": "reason", …}, "confirmation": [{"autoScanningTime",
///      "correct", "errors"}], "profile": {every setting}, "seconds"}
public struct SetupResult: Sendable {
    public struct Round: Sendable, Equatable {
        public var scanTime: Interval
        public var correct: Int
        public var errors: Int

        public init(scanTime: Interval, correct: Int, errors: Int) {
            self.scanTime = scanTime
            self.correct = correct
            self.errors = errors
        }

        public var errorRate: Double { correct + errors > 0 ? Double(errors) / Double(correct + errors) : 0 }
    }

    public var measurement: SetupMeasurement
    public var recommendation: SetupRecommendation
    public var rounds: [Round]
    public var profile: Profile
    public var seconds: Double

    public var json: JSONOut {
        .object([
            ("measured", measurement.json),
            ("recommended", .object(recommendation.reasons.map { ($0.setting, .string($0.reason)) })),
            ("confirmation", .array(rounds.map { r in
                .object([("autoScanningTime", .raw(formatFixed(r.scanTime.seconds, 3))), ("correct", .number(Double(r.correct))),
                         ("errors", .number(Double(r.errors))), ("errorRate", .raw(formatFixed(r.errorRate, 3)))])
            })),
            ("profile", ProfileEncoder.encode(profile)),
            ("seconds", .raw(formatFixed(seconds, 3))),
        ])
    }

    /// For the clinician, after the session.
    public var text: [String] {
        let m = measurement
        var out: [String] = []
        func s(_ x: Double, _ d: Int = 2) -> String { formatFixed(x, d) }
        if let rt = m.reactionTime {
            out.append("reaction time    \(s(rt.mean)) s ± \(s(rt.sd)) s (CV \(s(rt.cv))), \(m.reactionTimes.count) of \(m.prompts) prompts answered, range \(s(rt.minimum))–\(s(rt.maximum)) s")
        }
        out.append("anticipations    \(m.anticipations) (a press within 0.15 s of the prompt)")
        if let d = m.pressDuration { out.append("press duration   \(s(d.mean)) s ± \(s(d.sd)) s, range \(s(d.minimum))–\(s(d.maximum)) s") }
        out.append("bounces          \(m.bounces)" + (m.bounceGaps.max().map { ", the longest \(s($0, 3)) s after the release" } ?? "") + " (a second closure within 0.15 s)")
        out.append("unprompted       \(m.unprompted)" + (m.unpromptedDurations.max().map { ", the longest held \(s($0, 3)) s" } ?? "") + " (a press with no prompt)")
        out.append("")
        out.append("recommended:")
        for r in recommendation.reasons { out.append("  \(r.setting): \(r.reason)") }
        out.append("")
        for (k, r) in rounds.enumerated() {
            out.append("confirmation \(k + 1): scan time \(s(r.scanTime.seconds, 3)) s, item 3 of 4 selected \(r.correct) times, \(r.errors) error\(r.errors == 1 ? "" : "s") (\(Int((r.errorRate * 100).rounded())) %)"
                       + (r.errorRate > 0.25 ? (k + 1 < rounds.count ? ": more than 25 %, one step slower" : ": more than 25 %; check the switch and its position") : ""))
        }
        out.append("")
        out.append("profile: autoScanningTime \(s(profile.scanning.autoScanningTime.seconds, 3)) s, pauseOnFirstItem \(s(profile.scanning.pauseOnFirstItem.seconds)) s, debounce \(s(profile.switchStabilization.debounce.seconds, 3)) s, holdDuration \(s(profile.switchStabilization.holdDuration.seconds)) s")
        out.append("time spent: \(s(seconds, 1)) s")
        return out
    }
}
