import Synchronization

/// Group selection with k switches (Android Switch Access's "Group selection",
/// `TalkBackOrderNDegreeTreeBuilder`; AsTeRICS Grid's Huffman input), as a pure tree-shape
/// function: a level's candidates are cut into at most k contiguous runs, shown at once in k
/// colours; the switch of a colour picks its run, which becomes the next level, until one
/// candidate is left.
///
/// A level is a contiguous range of the base list (the scan items, or a menu's entries); below the
/// first level it also holds a **back** candidate, always last (Android's escape leaf "always the
/// last option on every path"): picking a run that is back alone returns to the level before. No
/// run may hold every item of its level, so every press narrows the choice.
///
/// Weighted (scanning-anchors §3.5, §7.7): a candidate weighs 1 + the times it was chosen before
/// (likely items get fewer presses), back weighs 0.5. The cut minimises the expected number of
/// presses, Σ weight × presses, exactly (dynamic programming over intervals) for levels of up to
/// `exactLimit` candidates, by weight quantiles above; ties go to the cut with the shorter first
/// runs, so items near the start of the scan order (where the eye starts) need fewer presses.
///
///     k = 3, items a … g, first level (no back):
///       blue a b   red c d e   green f g
///     green pressed → f g + back, three candidates ≤ k: each its own colour
///       blue f   red g   green back
public struct ColorGroups: Sendable {
    /// The colours of switches 1 … 6: Android's group colours 1–5 (blue, red, green, white,
    /// orange), then purple.
    public static let colorNames = ["blue", "red", "green", "white", "orange", "purple"]
    public static let switchRange = 2...6
    static let exactLimit = 24
    static let backWeight = 0.5

    /// One run of a level: a contiguous range of base candidates, and whether back is in it.
    public struct Run: Equatable, Sendable {
        public var items: Range<Int>
        public var back: Bool
        public var isBackOnly: Bool { back && items.isEmpty }
    }

    public let k: Int
    let weights: [Double]
    private let prefix: [Double]
    /// `best` per interval, keyed lower × (n + 1) + upper. Up to `flatLimit` candidates in a flat
    /// array (NaN: not yet known): the exact cut asks it hundreds of thousands of times for a
    /// keyboard's 40 keys, where hashing was half the time; a dictionary beyond (a large tree
    /// visits few of its n² intervals).
    private var memo: [Int: Double] = [:]
    private var flatMemo: [Double] = []
    static let flatLimit = 256
    /// Every candidate weighs the same (`tree stats`, a user who chose nothing yet): a level's
    /// cut and cost then depend only on its size and whether back is in it, so they are kept by
    /// size (`exactBySize`, `memo` keyed by the count) and a million items cost a few hundred exact
    /// cuts instead of one per 24-item block (issue 22). The sums are the same exact integers
    /// either way, so the cuts are the same.
    private let uniform: Bool
    /// Uniform weights: the exact cut of a level of n base candidates (+ back), as offsets from
    /// its first candidate, and its cost.
    private var exactBySize: [Int: (runs: [(Range<Int>, Bool)], cost: Double)] = [:]
    /// Whole-number weights (1 + times chosen): a level's cost then depends only on its weights
    /// in order, wherever it starts (their sums are exact integers), so a scanner keeps the costs
    /// it computed by weight sequence (`costs`) from one level and one press to the next. A
    /// keyboard's weights change by one key a press: most of its levels are seen again.
    private let whole: Bool
    /// Level + back costs and cuts by their candidates' weights, in order (whole-number weights
    /// only): kept by the scanner from one `ColorGroups` to the next (`Scanner.colorCosts`).
    public var costs = CostsBySequence(enabled: false)

    /// `weights`: one per base candidate (1 + times chosen).
    public init(weights: [Double], switches k: Int) {
        self.k = max(2, k)
        self.weights = weights
        var p = [0.0]
        p.reserveCapacity(weights.count + 1)
        for w in weights { p.append(p.last! + w) }
        prefix = p
        // Whole numbers (as weights are: 1 + times chosen) sum exactly, wherever a range starts.
        let w = weights.first ?? 1
        uniform = w == w.rounded() && weights.allSatisfy { $0 == w } && (p.last ?? 0) < 9e15
        whole = !uniform && weights.allSatisfy { $0 == $0.rounded() && $0 >= 0 } && (p.last ?? 0) < 9e15
    }

    /// Costs and cuts of levels by their weight sequences, for `k` switches: a memo of a pure
    /// function, shared by the copies of the scanner that holds it (a value a scanner hands to
    /// the next would be copied whole whenever two copies of it were alive at a change).
    public final class CostsBySequence: Sendable {
        /// Off: every level is cut afresh (the tests compare both ways).
        public let enabled: Bool
        struct Known {
            var k = 0
            /// A level + back's expected presses, by its candidates' weights.
            var costs: [[Double]: Double] = [:]
            /// Exact cuts by weights + [1 with back, else 0], as offsets, and their cost.
            var cuts: [[Double]: (runs: [(Range<Int>, Bool)], cost: Double)] = [:]
        }
        private let known = Mutex(Known())
        static let limit = 200_000

        public init(enabled: Bool = true) { self.enabled = enabled }

        func cost(_ k: Int, _ seq: [Double]) -> Double? {
            known.withLock { $0.k == k ? $0.costs[seq] : nil }
        }

        func setCost(_ k: Int, _ seq: [Double], _ value: Double) {
            known.withLock {
                if $0.k != k { $0 = Known(); $0.k = k }
                if $0.costs.count >= CostsBySequence.limit { $0.costs.removeAll(keepingCapacity: true) }
                $0.costs[seq] = value
            }
        }

        func cut(_ k: Int, _ seq: [Double]) -> (runs: [(Range<Int>, Bool)], cost: Double)? {
            known.withLock { $0.k == k ? $0.cuts[seq] : nil }
        }

        func setCut(_ k: Int, _ seq: [Double], _ value: (runs: [(Range<Int>, Bool)], cost: Double)) {
            known.withLock {
                if $0.k != k { $0 = Known(); $0.k = k }
                if $0.cuts.count >= CostsBySequence.limit { $0.cuts.removeAll(keepingCapacity: true) }
                $0.cuts[seq] = value
            }
        }
    }

    /// The runs of the level holding base candidates `items` (and back when `back`), one per
    /// colour in colour order. A level of at most k candidates gives each its own colour.
    public mutating func runs(_ items: Range<Int>, back: Bool) -> [Run] {
        let m = items.count + (back ? 1 : 0)
        if m <= k {
            var out = items.map { Run(items: $0..<($0 + 1), back: false) }
            if back { out.append(Run(items: items.upperBound..<items.upperBound, back: true)) }
            return out
        }
        if m <= ColorGroups.exactLimit { return exactRuns(items, back: back).runs }
        return quantileRuns(items, back: back)
    }

    /// Presses to reach each base candidate of `items` from that level (top level: back false).
    public mutating func presses(_ items: Range<Int>, back: Bool = false) -> [Int] {
        var out = Array(repeating: 0, count: items.count)
        func visit(_ range: Range<Int>, back: Bool, depth: Int) {
            for run in runs(range, back: back) where !run.isBackOnly {
                if run.items.count == 1 && !run.back {
                    out[run.items.lowerBound - items.lowerBound] = depth + 1
                } else {
                    visit(run.items, back: true, depth: depth + 1)
                }
            }
        }
        visit(items, back: back, depth: 0)
        return out
    }

    // MARK: - Cutting

    private func weight(_ r: Range<Int>) -> Double { prefix[r.upperBound] - prefix[r.lowerBound] }

    /// The expected presses (Σ weight × presses) of the level `items` + back.
    private mutating func best(_ items: Range<Int>) -> Double {
        // Uniform weights: by size, in the dictionary (few sizes); else by interval, flat while
        // the candidates are few (a keyboard's weighted keys).
        let side = weights.count + 1
        let flat = !uniform && weights.count <= ColorGroups.flatLimit
        if flat && flatMemo.isEmpty { flatMemo = [Double](repeating: .nan, count: side * side) }
        let key = uniform ? items.count : items.lowerBound &* side &+ items.upperBound
        if flat {
            if !flatMemo[key].isNaN { return flatMemo[key] }
        } else if let known = memo[key] {
            return known
        }
        let value: Double
        var sequence: [Double]?
        if whole && costs.enabled && items.count + 1 > k {
            let seq = Array(weights[items])
            if let v = costs.cost(k, seq) {
                if flat { flatMemo[key] = v } else { memo[key] = v }
                return v
            }
            sequence = seq
        }
        if items.count + 1 <= k {
            value = weight(items) + ColorGroups.backWeight
        } else if items.count + 1 <= ColorGroups.exactLimit {
            value = exactRuns(items, back: true).cost
        } else {
            value = quantileRuns(items, back: true).reduce(0) { $0 + runCost($1) }
        }
        if flat { flatMemo[key] = value } else { memo[key] = value }
        if let sequence { costs.setCost(k, sequence, value) }
        return value
    }

    private mutating func runCost(_ run: Run) -> Double {
        let w = weight(run.items) + (run.back ? ColorGroups.backWeight : 0)
        let size = run.items.count + (run.back ? 1 : 0)
        return size == 1 ? w : w + best(run.items)
    }

    /// Partition DP: f(s, r) = the cheapest cut of candidates s..<m into at most r runs.
    private mutating func exactRuns(_ items: Range<Int>, back: Bool) -> (runs: [Run], cost: Double) {
        if whole && costs.enabled {
            // By weight sequence, as offsets from the level's first candidate (`costs`).
            let seq = Array(weights[items]) + [back ? 1 : 0]
            let base = items.lowerBound
            if let known = costs.cut(k, seq) {
                return (known.runs.map { Run(items: ($0.0.lowerBound + base)..<($0.0.upperBound + base), back: $0.1) }, known.cost)
            }
            let computed = exactRunsComputed(items, back: back)
            costs.setCut(k, seq, (computed.runs.map { (($0.items.lowerBound - base)..<($0.items.upperBound - base), $0.back) }, computed.cost))
            return computed
        }
        guard uniform else { return exactRunsComputed(items, back: back) }
        let key = items.count &* 2 &+ (back ? 1 : 0)
        if let known = exactBySize[key] {
            let base = items.lowerBound
            return (known.runs.map { Run(items: ($0.0.lowerBound + base)..<($0.0.upperBound + base), back: $0.1) }, known.cost)
        }
        let computed = exactRunsComputed(items, back: back)
        let base = items.lowerBound
        exactBySize[key] = (computed.runs.map { (($0.items.lowerBound - base)..<($0.items.upperBound - base), $0.back) }, computed.cost)
        return computed
    }

    private mutating func exactRunsComputed(_ items: Range<Int>, back: Bool) -> (runs: [Run], cost: Double) {
        let n = items.count, m = n + (back ? 1 : 0)
        func run(_ s: Int, _ e: Int) -> Run {
            Run(items: (items.lowerBound + s)..<(items.lowerBound + min(e, n)), back: back && e == m)
        }
        // f(s, r) at s × (k + 1) + r, flat: a keyboard's levels run this hundreds of times a second.
        let width = k + 1
        var f = [Double](repeating: .infinity, count: (m + 1) * width)
        var cut = [Int](repeating: m, count: (m + 1) * width)
        for r in 0...k { f[m * width + r] = 0 }
        for s in stride(from: m - 1, through: 0, by: -1) {
            for e in (s + 1)...m {
                if s == 0 && e >= n { continue }   // no run holds every item of the level
                let own = runCost(run(s, e))       // the same for every r: asked once
                for r in 1...k {
                    let rest = f[e * width + r - 1]
                    if rest == .infinity { continue }
                    let c = own + rest
                    // Ties keep the shorter first run (the smaller e, met first).
                    if c < f[s * width + r] { f[s * width + r] = c; cut[s * width + r] = e }
                }
            }
        }
        var runs: [Run] = []
        var s = 0, r = k
        while s < m {
            let e = cut[s * width + r]
            runs.append(run(s, e))
            s = e
            r -= 1
        }
        return (runs, f[k])
    }

    /// k runs of about equal weight (every run non-empty, none holding every item).
    private func quantileRuns(_ items: Range<Int>, back: Bool) -> [Run] {
        let n = items.count, m = n + (back ? 1 : 0)
        let total = weight(items) + (back ? ColorGroups.backWeight : 0)
        func cumulative(_ e: Int) -> Double { weight(items.lowerBound..<(items.lowerBound + min(e, n))) + (back && e == m ? ColorGroups.backWeight : 0) }
        var cuts = [0]
        for p in 1..<k {
            let target = total * Double(p) / Double(k)
            var e = cuts.last! + 1
            // Leave a candidate for every later run; the first run never takes every item.
            let upper = p == 1 ? min(m - (k - p), n - 1) : m - (k - p)
            while e < upper && cumulative(e) < target { e += 1 }
            cuts.append(e)
        }
        cuts.append(m)
        return (0..<k).map { p in
            let s = cuts[p], e = cuts[p + 1]
            return Run(items: (items.lowerBound + s)..<(items.lowerBound + min(e, n)), back: back && e == m)
        }
    }
}
