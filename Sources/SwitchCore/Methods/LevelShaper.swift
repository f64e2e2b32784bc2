/// The groupings of item scanning as pure tree-shape functions: a `ScanModel` and a cost model in,
/// the top level's `LevelShape`s out. Every shape keeps scan order (a group is a contiguous run
/// of items), so the person can always predict where the highlight goes next.
///
/// - `none`: every item in one level.
/// - `containers`: the model's groups (ChromeOS's rule, `ScanModel`).
/// - `rowColumn`: containers, and in every level the runs of at least three consecutive stops
///   that share a row on screen (Android's row-column builder: rows of fewer than three stay
///   inline). A row is built like AsTeRICS Grid's: a stop joins the row of the row's first stop
///   when their vertical extents overlap by at least half the smaller height.
/// - `auto`: bottom-up, every container's level and then the top level takes the cheapest of
///     1. declared: its stops as they are;
///     2. flat: every item below it in one level (containers dissolved);
///     3. chunks: the stops of 1 or of 2 cut into a hierarchy of contiguous parts, when they lie
///        in one row or in a column (one stop per row);
///     4. rows / row-column: otherwise (a grid), the rows of 1 or of 2 as groups (rows of at
///        least two, or of at least three with shorter rows inline), each row's inside cut into
///        parts when that helps and the rows themselves cut into runs of whole rows: a cut never
///        crosses a row, so every group is a piece of a row or a block of whole rows.
///   Cheapest by `ScanCostModel` (expected time to reach an item, items equally likely); ties go
///   to the earlier candidate (the app's own structure first). A container's inside does not
///   depend on where the container sits (entering a group starts its level over), so choosing
///   bottom-up is optimal over these candidates. Declared is always a candidate and flat chunks
///   include one flat level, so `auto` is never slower than `containers` or `none`.
///
/// Cutting a run of stops into parts ("chunks"): exactly, by dynamic programming over intervals,
/// for up to `exactLimit` stops; a run of plain items (equal weight) by a DP over sizes (exact up
/// to `uniformExactLimit` items, balanced k-way cuts, k ≤ 16, beyond); a longer run of mixed stops
/// by weight-balanced k-way cuts with k chosen on the equal-weight estimate.
struct LevelShaper {
    let model: ScanModel
    let cost: ScanCostModel

    static let minimumRow = 3
    static let exactLimit = 16
    static let uniformExactLimit = 64
    static let maximumFanOut = 16

    /// A stop being placed: its shape, how many items it holds, what reaching them costs once it
    /// is selected (µs, summed over its items), and where it is on screen.
    struct Unit {
        var shape: LevelShape
        var weight: Int
        var cost: Double
        var frame: Rect?
        /// A plain item (for the equal-weight fast path).
        var isItem: Bool
    }

    func shape(_ grouping: Grouping) -> [LevelShape] {
        switch grouping {
        case .none:
            return model.items.indices.map { .item($0) }
        case .containers:
            return declared(model.topStops)
        case .rowColumn:
            return rowColumn(model.topStops)
        case .auto:
            var sizes = UniformPlans(cost: cost)
            return auto(model.topStops, items: 0..<model.items.count, &sizes).map(\.shape)
        }
    }

    // MARK: - containers

    private func declared(_ stops: [ScanStop]) -> [LevelShape] {
        stops.map { stop in
            switch stop {
            case .item(let i): return .item(i)
            case .group(let g): return .container(g, declared(model.groups[g].stops))
            }
        }
    }

    // MARK: - rowColumn

    private func rowColumn(_ stops: [ScanStop]) -> [LevelShape] {
        let units = stops.map { stop -> Unit in
            switch stop {
            case .item(let i): return itemUnit(i)
            case .group(let g):
                let inner = rowColumn(model.groups[g].stops)
                return Unit(shape: .container(g, inner), weight: model.groups[g].items.count, cost: 0,
                            frame: extent(model.groups[g].items), isItem: false)
            }
        }
        let rows = LevelShaper.rows(units)
        // A level that is one row is a row already.
        guard rows.count > 1 else { return units.map(\.shape) }
        var out: [LevelShape] = []
        for row in rows {
            if row.count >= LevelShaper.minimumRow {
                out.append(.row(row.map(\.shape)))
            } else {
                out += row.map(\.shape)
            }
        }
        return out
    }

    /// Consecutive runs of units that share a row with the run's first unit; a unit without a
    /// frame is a row of its own.
    static func rows(_ units: [Unit]) -> [[Unit]] {
        var rows: [[Unit]] = []
        var current: [Unit] = []
        var head: Rect?
        for u in units {
            if let f = u.frame, let h = head, sameRow(h, f) {
                current.append(u)
                continue
            }
            if !current.isEmpty { rows.append(current) }
            current = [u]
            head = u.frame
        }
        if !current.isEmpty { rows.append(current) }
        return rows
    }

    /// Vertical extents overlapping by at least half the smaller height (a zero-height frame:
    /// lying within the other's extent).
    static func sameRow(_ a: Rect, _ b: Rect) -> Bool {
        let smaller = min(a.height, b.height)
        if smaller <= 0 {
            let (flat, other) = a.height <= 0 ? (a, b) : (b, a)
            return flat.minY >= other.minY && flat.minY <= other.maxY
        }
        let overlap = min(a.maxY, b.maxY) - max(a.minY, b.minY)
        return overlap > 0 && overlap >= smaller / 2
    }

    // MARK: - auto

    /// The cheapest stops for a level whose declared stops are `stops` and whose items are `items`.
    private func auto(_ stops: [ScanStop], items: Range<Int>, _ sizes: inout UniformPlans) -> [Unit] {
        let declaredUnits = stops.map { stop -> Unit in
            switch stop {
            case .item(let i):
                return itemUnit(i)
            case .group(let g):
                let group = model.groups[g]
                let inner = auto(group.stops, items: group.items, &sizes)
                return Unit(shape: .container(g, inner.map(\.shape)), weight: group.items.count, cost: levelCost(inner),
                            frame: extent(group.items), isItem: false)
            }
        }
        if declaredUnits.count <= 1 && items.count <= 1 { return declaredUnits }
        var best = declaredUnits
        var bestCost = levelCost(declaredUnits)
        func consider(_ candidate: [Unit]) {
            let c = levelCost(candidate)
            if c < bestCost {
                best = candidate
                bestCost = c
            }
        }
        var bases = [declaredUnits]
        if declaredUnits.contains(where: { !$0.isItem }) {
            let flat = items.map { itemUnit($0) }
            consider(flat)
            bases.append(flat)
        }
        for base in bases {
            let rows = LevelShaper.rows(base)
            if rows.count == 1 || rows.count == base.count {
                // One row, or a column of single stops: any contiguous cut is spatially whole.
                consider(arrange(base, &sizes))
            } else {
                // A grid: cuts fall between rows or inside one row, never across.
                consider(arrange(rowUnits(rows, minimum: 2, &sizes), &sizes))
                consider(arrange(rowUnits(rows, minimum: LevelShaper.minimumRow, &sizes), &sizes))
            }
        }
        return best
    }

    /// Rows of at least `minimum` stops as one unit each (the row's inside arranged); shorter rows
    /// stay inline.
    private func rowUnits(_ rows: [[Unit]], minimum: Int, _ sizes: inout UniformPlans) -> [Unit] {
        rows.flatMap { row -> [Unit] in
            guard row.count >= minimum else { return row }
            return [group(LevelShape.row, arrange(row, &sizes))]
        }
    }

    // MARK: - Cutting a run into parts

    /// The cheapest hierarchy of contiguous parts over `units` as one level (at least two stops
    /// when there are two or more units).
    func arrange(_ units: [Unit], _ sizes: inout UniformPlans) -> [Unit] {
        let n = units.count
        if n <= 2 { return units }
        if n <= LevelShaper.exactLimit { return exact(units) }
        if units.allSatisfy(\.isItem) { return uniform(units[...], sizes.levelPlan(n), &sizes) }
        return balanced(units, &sizes)
    }

    /// What a level of these stops costs: every item of stop j pays `select(at: j)`, plus what it
    /// costs below.
    func levelCost(_ stops: [Unit]) -> Double {
        var total = 0.0
        for (j, s) in stops.enumerated() { total += Double(s.weight) * cost.cost(at: j) + s.cost }
        return total
    }

    private func group(_ kind: (([LevelShape]) -> LevelShape), _ inner: [Unit]) -> Unit {
        if inner.count == 1 { return inner[0] }
        var frame: Rect?
        var weight = 0
        for u in inner {
            weight += u.weight
            if let f = u.frame { frame = frame.map { $0.union(f) } ?? f }
        }
        return Unit(shape: kind(inner.map(\.shape)), weight: weight, cost: levelCost(inner), frame: frame, isItem: false)
    }

    /// Exact: interval DP. best(i, j): units i..<j as a level of ≥ 2 stops; g(i, j, t): units
    /// i..<j as stops from position t on.
    private func exact(_ u: [Unit]) -> [Unit] {
        let n = u.count
        var prefix = [0]
        for x in u { prefix.append(prefix.last! + x.weight) }
        func weight(_ i: Int, _ k: Int) -> Double { Double(prefix[k] - prefix[i]) }
        let side = n + 1
        var best = [Double](repeating: .infinity, count: side * side)
        var bestCut = [Int](repeating: 0, count: side * side)
        var g = [Double](repeating: .infinity, count: side * side * n)
        var gCut = [Int](repeating: 0, count: side * side * n)
        func inner(_ i: Int, _ k: Int) -> Double { k == i + 1 ? u[i].cost : best[i * side + k] }
        for length in 1...n {
            for i in 0...(n - length) {
                let j = i + length
                if length >= 2 {
                    var b = Double.infinity, cut = i + 1
                    for k in (i + 1)..<j {
                        let c = weight(i, k) * cost.cost(at: 0) + inner(i, k) + g[(k * side + j) * n + 1]
                        if c < b { b = c; cut = k }
                    }
                    best[i * side + j] = b
                    bestCut[i * side + j] = cut
                }
                for t in 0..<n {
                    var b = Double.infinity, cut = j
                    for k in (i + 1)...j {
                        var c = weight(i, k) * cost.cost(at: t) + inner(i, k)
                        if k < j {
                            guard t + 1 < n else { continue }
                            c += g[(k * side + j) * n + t + 1]
                        }
                        if c < b { b = c; cut = k }
                    }
                    g[(i * side + j) * n + t] = b
                    gCut[(i * side + j) * n + t] = cut
                }
            }
        }
        func part(_ i: Int, _ k: Int) -> Unit {
            k == i + 1 ? u[i] : group(LevelShape.part, level(i, k))
        }
        func level(_ i: Int, _ j: Int) -> [Unit] {
            let k = bestCut[i * side + j]
            return [part(i, k)] + chain(k, j, 1)
        }
        func chain(_ i: Int, _ j: Int, _ t: Int) -> [Unit] {
            var out: [Unit] = []
            var i = i, t = t
            while i < j {
                let k = gCut[(i * side + j) * n + t]
                out.append(part(i, k))
                i = k
                t += 1
            }
            return out
        }
        return level(0, n)
    }

    /// Plain items cut by the equal-weight plan (sizes only).
    private func uniform(_ units: ArraySlice<Unit>, _ plan: [Int], _ sizes: inout UniformPlans) -> [Unit] {
        var out: [Unit] = []
        var start = units.startIndex
        for size in plan {
            let slice = units[start..<(start + size)]
            if size == 1 {
                out.append(slice.first!)
            } else {
                out.append(group(LevelShape.part, uniform(slice, sizes.levelPlan(size), &sizes)))
            }
            start += size
        }
        return out
    }

    /// Mixed units, too many for the exact DP: cut into k runs of about equal weight, k chosen on
    /// the equal-weight estimate, each run arranged in turn.
    private func balanced(_ units: [Unit], _ sizes: inout UniformPlans) -> [Unit] {
        let n = units.count
        var prefix = [0]
        for x in units { prefix.append(prefix.last! + x.weight) }
        let total = prefix[n]
        var bestCuts: [Int] = []
        var bestEstimate = Double.infinity
        for k in 2...min(n, LevelShaper.maximumFanOut) {
            // Boundaries where the running weight passes total·p/k; every run non-empty.
            var cuts: [Int] = [0]
            var i = 0
            for p in 1..<k {
                let target = (total * p + k / 2) / k
                var c = max(cuts.last! + 1, i)
                while c < n - (k - p) && prefix[c] < target { c += 1 }
                cuts.append(c)
                i = c
            }
            cuts.append(n)
            var estimate = 0.0
            for p in 0..<k {
                let run = units[cuts[p]..<cuts[p + 1]]
                let w = prefix[cuts[p + 1]] - prefix[cuts[p]]
                estimate += Double(w) * cost.cost(at: p)
                if run.count == 1 {
                    estimate += run.first!.cost
                } else {
                    let perUnit = Double(w) / Double(run.count)
                    estimate += run.reduce(0) { $0 + $1.cost } + sizes.levelCost(run.count) * perUnit
                }
            }
            if estimate < bestEstimate {
                bestEstimate = estimate
                bestCuts = cuts
            }
        }
        var out: [Unit] = []
        for p in 0..<(bestCuts.count - 1) {
            let run = Array(units[bestCuts[p]..<bestCuts[p + 1]])
            out.append(run.count == 1 ? run[0] : group(LevelShape.part, arrange(run, &sizes)))
        }
        return out
    }

    // MARK: - Units

    private func itemUnit(_ i: Int) -> Unit {
        Unit(shape: .item(i), weight: 1, cost: 0, frame: model.items[i].element.frame, isItem: true)
    }

    /// The union of the items' frames (nil when none has one).
    func extent(_ items: Range<Int>) -> Rect? {
        var r: Rect?
        for i in items {
            if let f = model.items[i].element.frame { r = r.map { $0.union(f) } ?? f }
        }
        return r
    }
}

/// The equal-weight plans: how m plain items are best cut into parts, by size only. F(m): m items
/// as a level of ≥ 2 stops; G(m, t): m items as stops from position t on. Exact over every
/// composition up to `uniformExactLimit` items; beyond, balanced cuts into k parts (k ≤ 16, the
/// larger parts first, where stops are cheaper) or one flat run.
struct UniformPlans {
    let cost: ScanCostModel
    private var levelMemo: [Int: (cost: Double, plan: [Int])] = [:]
    private var tailMemo: [Int: (cost: Double, first: Int)] = [:]   // key m * 4096 + t (m ≤ 64)

    init(cost: ScanCostModel) { self.cost = cost }

    /// F(m) in µs (0 for one item).
    mutating func levelCost(_ m: Int) -> Double {
        m <= 1 ? 0 : level(m).cost
    }

    /// The part sizes of F(m)'s level.
    mutating func levelPlan(_ m: Int) -> [Int] {
        m <= 1 ? [m] : level(m).plan
    }

    private mutating func level(_ m: Int) -> (cost: Double, plan: [Int]) {
        if let known = levelMemo[m] { return known }
        var result: (cost: Double, plan: [Int])
        if m <= LevelShaper.uniformExactLimit {
            // First part a < m, then the rest from position 1.
            var first = 1
            result = (.infinity, [])
            for a in 1..<m {
                let c = Double(a) * cost.cost(at: 0) + levelCost(a) + tail(m - a, 1).cost
                if c < result.cost { result.cost = c; first = a }
            }
            result.plan = [first] + tailPlan(m - first, 1)
        } else {
            // One flat level, or k balanced parts.
            result = (cost.costs(from: 0, count: m), Array(repeating: 1, count: m))
            for k in 2...min(m, LevelShaper.maximumFanOut) {
                let small = m / k, extra = m % k
                let plan = (0..<k).map { $0 < extra ? small + 1 : small }
                var c = 0.0
                for (p, size) in plan.enumerated() { c += Double(size) * cost.cost(at: p) + levelCost(size) }
                if c < result.cost { result = (c, plan) }
            }
        }
        levelMemo[m] = result
        return result
    }

    /// G(m, t) for m ≤ `uniformExactLimit`: one part of a items at position t, then the rest.
    private mutating func tail(_ m: Int, _ t: Int) -> (cost: Double, first: Int) {
        let key = m * 4096 + t
        if let known = tailMemo[key] { return known }
        var result: (cost: Double, first: Int) = (.infinity, m)
        for a in 1...m {
            var c = Double(a) * cost.cost(at: t) + levelCost(a)
            if a < m { c += tail(m - a, t + 1).cost }
            if c < result.cost { result = (c, a) }
        }
        tailMemo[key] = result
        return result
    }

    private mutating func tailPlan(_ m: Int, _ t: Int) -> [Int] {
        var plan: [Int] = []
        var m = m, t = t
        while m > 0 {
            let a = tail(m, t).first
            plan.append(a)
            m -= a
            t += 1
        }
        return plan
    }
}
