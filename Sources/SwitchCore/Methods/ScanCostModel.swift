/// What reaching an item costs a person, in the profile's own timings: the one model `tree stats`
/// reports with and `"grouping": "auto"` minimises (scanning-anchors §3.8).
///
/// With T = `autoScanningTime`, P = `pauseOnFirstItem` and H = the switch's `holdDuration`: a
/// level's first stop is highlighted at once and stays T + P, every later stop T. A person gets
/// the whole dwell of the stop they want to press (the press falls at the end of it: the cost
/// model of the anchors, linear ≈ T·(n+1)/2, row-column ≈ T·((r+1)/2 + (c+1)/2) + 2 pauses), and a
/// held press is accepted H after it starts. So selecting the stop at index j (from 0) of a level
/// costs
///
///     select(j) = P + (j + 1)·T + H
///
///     level  stop 0     stop 1   stop 2
///            |--T+P----|---T----|---T----|
///     press            ^ select(0) = P+T (+H)
///                               ^ select(1) = P+2T (+H)
///
/// and an item's time is the sum over the levels on its way down (every group entered starts its
/// level over, with the pause again). The escape stop at the end of a group comes after every
/// item and costs nothing on the way to one; it costs a stop on every pass a person misses, which
/// this first-pass model leaves out for every method alike.
///
/// Group selection (k switches, no scanning): every press costs one scan time plus the hold,
/// T + H: the time the profile gives a person to find their colour and press.
public struct ScanCostModel: Sendable, Equatable {
    public var scanTime: Interval
    public var firstItemPause: Interval
    public var holdDuration: Interval

    public init(scanTime: Interval, firstItemPause: Interval, holdDuration: Interval = .zero) {
        self.scanTime = scanTime
        self.firstItemPause = firstItemPause
        self.holdDuration = holdDuration
    }

    public init(_ scanning: ScanningSettings, holdDuration: Interval = .zero) {
        self.init(scanTime: scanning.autoScanningTime, firstItemPause: scanning.pauseOnFirstItem, holdDuration: holdDuration)
    }

    /// Selecting the stop at `index` of a level (see the header).
    public func select(at index: Int) -> Interval {
        firstItemPause + scanTime * (index + 1) + holdDuration
    }

    /// One press of group selection.
    public var groupPress: Interval { scanTime + holdDuration }

    /// `select(at:)` in microseconds as a Double, for the optimiser's sums (a linear level of a
    /// million items would overflow Int64 microseconds summed over its items).
    func cost(at index: Int) -> Double {
        Double(firstItemPause.microseconds + holdDuration.microseconds) + Double(scanTime.microseconds) * Double(index + 1)
    }

    /// The sum of `cost(at:)` for indices `from ..< from + count` (closed form).
    func costs(from: Int, count: Int) -> Double {
        guard count > 0 else { return 0 }
        let fixed = Double(firstItemPause.microseconds + holdDuration.microseconds) * Double(count)
        // Σ (j + 1) for j in from ..< from + count.
        let positions = Double(count) * Double(2 * from + count + 1) / 2
        return fixed + Double(scanTime.microseconds) * positions
    }
}
