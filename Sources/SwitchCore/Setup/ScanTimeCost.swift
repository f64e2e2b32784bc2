#if canImport(Glibc)
import Glibc  // exp, log: the C library's math, nothing else
#elseif canImport(Darwin)
import Darwin
#endif

/// What a scan time costs a person, per correct selection, when their reaction time is lognormal
/// with a measured mean and SD (`SetupRecommendation`'s `autoScanningTime`; docs/clinicians.md
/// "Guided setup"). Too short a scan time makes presses late, and a late press costs far more than
/// the time it saved: it lands on the next stop and has to be put right; too long a scan time
/// costs every stop passed on the way. The expected seconds per correct selection are
///
///     cost(T) = (m·T + mean) ÷ (1 − (1 + c)·P(RT > T))
///
///   m·T + mean    one selection: the m stops scanned before the wanted one, then the reaction
///   P(RT > T)     the chance a press is late (the highlight has moved on)
///   c             the selections a late press costs to put right, beyond its own: counted as the
///                 engine makes them. A late key: the row it was typed from is spent, and the
///                 delete key takes two more (its row, the key), 3; then the row and key again.
///                 A late row: its escape stop, reached after scanning the row (about the time of
///                 two more selections), 3. Then the selection again.
///   ÷ (1 − …)     progress per attempt: +1 when on time, −c when late (a random walk's drift);
///                 the corrections can be late too
///
/// m is the frequency keyboard's with `auto` grouping and 8 predictions (`text stats` at 1.0 s:
/// 2.908 s and 1.658 presses per character, 1.75 stops per selection, the selected one included).
/// The reaction time is the predictive one: its log-variance widened by (1 + 1/n) for the mean
/// measured from n prompts, so a short test does not promise more than it saw.
public struct ScanTimeCost: Sendable, Equatable {
    /// Stops scanned before the wanted one, per selection.
    public static let stopsBefore = 0.75
    /// Selections a late press costs to put right, beyond its own.
    public static let correction = 3.0

    /// The reaction time the cost is taken over (the predictive lognormal).
    public let reaction: PersonModel.Distribution

    /// A reaction time of `mean` ± `sd` seconds, measured from `samples` prompts.
    public init(mean: Double, sd: Double, samples: Int) {
        guard mean > 0, sd > 0 else {
            reaction = .init(mean: max(mean, 0.001), sd: 0)
            return
        }
        let variance = log(1 + (sd * sd) / (mean * mean)) * (1 + 1 / Double(max(samples, 1)))
        let mu = log(mean) - log(1 + (sd * sd) / (mean * mean)) / 2
        let m = exp(mu + variance / 2)
        reaction = .init(mean: m, sd: m * (exp(variance) - 1).squareRoot())
    }

    /// P(a press is late) at scan time `t`.
    public func late(_ t: Double) -> Double { reaction.probabilityAbove(t) }

    /// Expected seconds per correct selection at scan time `t` (infinite when the corrections
    /// never catch up).
    public func secondsPerSelection(_ t: Double) -> Double {
        let progress = 1 - (1 + ScanTimeCost.correction) * late(t)
        guard progress > 0 else { return .infinity }
        return (ScanTimeCost.stopsBefore * t + reaction.mean) / progress
    }

    /// The scan time within `low`…`high` with the least `secondsPerSelection` (5 ms steps).
    public func best(from low: Double, to high: Double) -> Double {
        var bestT = low, bestCost = secondsPerSelection(low)
        var t = low
        while t < high {
            t += 0.005
            let c = secondsPerSelection(t)
            if c < bestCost { bestT = t; bestCost = c }
        }
        return min(bestT, high)
    }

    /// The rules' two scan times (Simpson, Koester & LoPresti; docs/clinicians.md): the reaction
    /// time's mean ÷ 0.65, and its mean + 2 SD.
    public static func rules(mean: Double, sd: Double) -> (byRatio: Double, bySpread: Double) { (mean / 0.65, mean + 2 * sd) }

    /// The rules' floor: the larger of the two.
    public static func floor(mean: Double, sd: Double) -> Double {
        let r = rules(mean: mean, sd: sd)
        return max(r.byRatio, r.bySpread)
    }

    /// The setup's rule (and adaptive timing's): the least costly scan time, never below the
    /// rules' floor; at most `maximum`.
    public static func recommended(mean: Double, sd: Double, samples: Int, maximum: Double) -> Double {
        ScanTimeCost(mean: mean, sd: sd, samples: samples).best(from: min(floor(mean: mean, sd: sd), maximum), to: maximum)
    }
}
