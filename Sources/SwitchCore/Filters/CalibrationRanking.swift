/// `calibrate --expect N` ranks the settings, best first (issue 32: 1,089 settings and their
/// matches were printed in grid order, with nothing to say which to choose). A clinician wants a
/// setting that counts what the person meant, that keeps counting it when the next press is a
/// little shorter or bounces a little later, and that costs the person the least:
///
/// 1. the nearest count first: exactly N, then N ± 1, …;
/// 2. the fewest neighbours that count otherwise: the settings one grid step away along each axis
///    (hold, ignore repeat, debounce; up to six, fewer at the grid's edge). A setting inside the
///    region that counts N tolerates a press that is not quite like the recorded ones; one at
///    its edge does not;
/// 3. the shortest hold duration (every accepted press waits for it);
/// 4. the shortest ignore repeat (a quick intended second press still counts);
/// 5. the debounce nearest libinput's 25 ms (the default);
/// 6. grid order.
extension Calibration {
    public struct Ranked: Sendable, Equatable {
        public var outcome: Outcome
        /// Neighbours in the grid that accept as many presses, and how many neighbours there are.
        public var sameNeighbours: Int
        public var neighbours: Int
    }

    /// `outcomes` (in `grid.settings` order) ranked for `expect` presses, best first: all of them.
    public static func ranked(_ outcomes: [Outcome], expect n: Int, grid: Grid) -> [Ranked] {
        let (hs, rs, ds) = (grid.holdDurations.count, grid.ignoreRepeats.count, grid.debounces.count)
        guard outcomes.count == hs * rs * ds else { return outcomes.map { Ranked(outcome: $0, sameNeighbours: 0, neighbours: 0) } }
        func index(_ h: Int, _ r: Int, _ d: Int) -> Int { (h * rs + r) * ds + d }
        var ranked: [(Ranked, Int)] = []
        ranked.reserveCapacity(outcomes.count)
        for h in 0..<hs {
            for r in 0..<rs {
                for d in 0..<ds {
                    let k = index(h, r, d)
                    var same = 0, all = 0
                    for (dh, dr, dd) in [(-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1)] {
                        let (h2, r2, d2) = (h + dh, r + dr, d + dd)
                        guard (0..<hs).contains(h2), (0..<rs).contains(r2), (0..<ds).contains(d2) else { continue }
                        all += 1
                        if outcomes[index(h2, r2, d2)].accepted == outcomes[k].accepted { same += 1 }
                    }
                    ranked.append((Ranked(outcome: outcomes[k], sameNeighbours: same, neighbours: all), k))
                }
            }
        }
        let libinput = Interval.milliseconds(25).microseconds
        ranked.sort { a, b in
            let (x, y) = (a.0, b.0)
            let (dx, dy) = (abs(x.outcome.accepted - n), abs(y.outcome.accepted - n))
            if dx != dy { return dx < dy }
            let (ox, oy) = (x.neighbours - x.sameNeighbours, y.neighbours - y.sameNeighbours)
            if ox != oy { return ox < oy }
            let (sx, sy) = (x.outcome.setting, y.outcome.setting)
            if sx.holdDuration != sy.holdDuration { return sx.holdDuration < sy.holdDuration }
            if sx.ignoreRepeat != sy.ignoreRepeat { return sx.ignoreRepeat < sy.ignoreRepeat }
            let (ex, ey) = (abs(sx.debounce.microseconds - libinput), abs(sy.debounce.microseconds - libinput))
            if ex != ey { return ex < ey }
            return a.1 < b.1
        }
        return ranked.map(\.0)
    }
}
