/// `tree stats`: the size of a tree and what auto scanning costs on it.
///
/// Counts: `elements` is every node of the tree (containers too); `accessibilityElements` the
/// nodes assistive technology sees as elements (`ScanModel.accessibilityElements`); `scanItems`
/// the stops of item scanning; `groups` the groups of group scanning; `depth` the number of
/// levels (a root alone is 1).
///
/// Time to reach an item, with T = `autoScanningTime` and P = `pauseOnFirstItem`: scanning a
/// level starts with its first stop highlighted at time 0; that stop stays for T + P, every later
/// one for T. So the stop at index k (0-based) of a level is highlighted after
///
///     reach(k) = 0                 for k = 0
///     reach(k) = P + k·T           for k > 0
///
/// and the user selects it at that moment (no reaction time; the selection itself takes none).
///
///     level  stop 0     stop 1   stop 2   stop 3
///            |--T+P----|---T----|---T----|
///     t      0          P+T      P+2T     P+3T
///
/// - Linear: one level, every scan item in scan order; one selection per item.
/// - Group scanning: the top-level stops (groups and ungrouped items), then, once a group is
///   selected, its stops, recursively; each level starts over (the pause again on its first
///   stop). An item's time is the sum of `reach` over its path, its presses the length of the path
///   (one selection per group entered plus one for the item).
///
/// Averages are over the scan items, each equally likely; "worst" is the largest. The escape
/// stop at the end of a group comes after every item and changes nothing here; loops do not
/// either (the item is reached in the first pass).
public struct TreeStats: Sendable, Equatable {
    public var elements: Int
    public var accessibilityElements: Int
    public var scanItems: Int
    public var groups: Int
    public var depth: Int
    public var autoScanningTime: Interval
    public var pauseOnFirstItem: Interval
    /// Nil when there is no scan item.
    public var linear: ScanCost?
    public var grouped: ScanCost?

    /// Time and presses to reach the items of one scanning method.
    public struct ScanCost: Sendable, Equatable {
        /// Per scan item, in scan order.
        public var reach: [Interval]
        public var presses: [Int]

        public var averageTime: Interval {
            guard !reach.isEmpty else { return .zero }
            let total = reach.reduce(Int64(0)) { $0 + $1.microseconds }
            let n = Int64(reach.count)
            return Interval(microseconds: (total + n / 2) / n)
        }
        public var worstTime: Interval { reach.max() ?? .zero }
        public var averagePresses: Double { presses.isEmpty ? 0 : Double(presses.reduce(0, +)) / Double(presses.count) }
        public var worstPresses: Int { presses.max() ?? 0 }
    }

    public init(tree: ElementTree, model: ScanModel? = nil, scanning: ScanningSettings) {
        let model = model ?? ScanModel(tree: tree)
        var count = 0
        var deepest = 0
        tree.forEachNode { _, d in
            count += 1
            deepest = max(deepest, d + 1)
        }
        elements = count
        depth = deepest
        accessibilityElements = model.accessibilityElements.count
        scanItems = model.items.count
        groups = model.groups.count
        autoScanningTime = scanning.autoScanningTime
        pauseOnFirstItem = scanning.pauseOnFirstItem
        if model.items.isEmpty {
            linear = nil
            grouped = nil
        } else {
            linear = TreeStats.linearCost(model, scanning)
            grouped = TreeStats.groupedCost(model, scanning)
        }
    }

    /// The time until the stop at `index` of a level is highlighted (see the header).
    public static func reach(_ index: Int, _ s: ScanningSettings) -> Interval {
        index == 0 ? .zero : s.pauseOnFirstItem + s.autoScanningTime * index
    }

    static func linearCost(_ model: ScanModel, _ s: ScanningSettings) -> ScanCost {
        ScanCost(reach: model.items.indices.map { reach($0, s) }, presses: Array(repeating: 1, count: model.items.count))
    }

    static func groupedCost(_ model: ScanModel, _ s: ScanningSettings) -> ScanCost {
        var times = Array(repeating: Interval.zero, count: model.items.count)
        var presses = Array(repeating: 0, count: model.items.count)
        func visit(_ stops: [ScanStop], before: Interval, pressesBefore: Int) {
            for (k, stop) in stops.enumerated() {
                let t = before + reach(k, s)
                switch stop {
                case .item(let i):
                    times[i] = t
                    presses[i] = pressesBefore + 1
                case .group(let g):
                    visit(model.groups[g].stops, before: t, pressesBefore: pressesBefore + 1)
                }
            }
        }
        visit(model.topStops, before: .zero, pressesBefore: 0)
        return ScanCost(reach: times, presses: presses)
    }

    /// `{"elements": …, "scanning": {…}, "linear": {"averageSeconds", "worstSeconds", "averagePresses", "worstPresses"} | null, "grouped": …}`
    public var json: JSONOut {
        func cost(_ c: ScanCost?) -> JSONOut {
            guard let c else { return .null }
            return .object([
                ("averageSeconds", .raw(formatMilliseconds(c.averageTime.microseconds))),
                ("worstSeconds", .raw(formatMilliseconds(c.worstTime.microseconds))),
                ("averagePresses", .raw(TreeStats.twoDecimals(c.averagePresses))),
                ("worstPresses", .number(Double(c.worstPresses))),
            ])
        }
        return .object([
            ("elements", .number(Double(elements))),
            ("accessibilityElements", .number(Double(accessibilityElements))),
            ("scanItems", .number(Double(scanItems))),
            ("groups", .number(Double(groups))),
            ("depth", .number(Double(depth))),
            ("scanning", .object([
                ("autoScanningTime", .raw(formatMilliseconds(autoScanningTime.microseconds))),
                ("pauseOnFirstItem", .raw(formatMilliseconds(pauseOnFirstItem.microseconds))),
            ])),
            ("linear", cost(linear)),
            ("grouped", cost(grouped)),
        ])
    }

    /// Aligned lines for people.
    public var text: [String] {
        func cost(_ c: ScanCost?) -> String {
            guard let c else { return "no scan items" }
            let presses = c.worstPresses == 1 && c.averagePresses == 1
                ? "1 press"
                : "presses average \(TreeStats.twoDecimals(c.averagePresses)), worst \(c.worstPresses)"
            return "average \(formatMilliseconds(c.averageTime.microseconds)) s, worst \(formatMilliseconds(c.worstTime.microseconds)) s, \(presses)"
        }
        let rows: [(String, String)] = [
            ("elements", String(elements)),
            ("accessibility elements", String(accessibilityElements)),
            ("scan items", String(scanItems)),
            ("groups", String(groups)),
            ("depth", String(depth)),
            ("scanning", "\(formatMilliseconds(autoScanningTime.microseconds)) s per stop, pause on first stop \(formatMilliseconds(pauseOnFirstItem.microseconds)) s"),
            ("linear", cost(linear)),
            ("group scanning", cost(grouped)),
        ]
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1 }
    }

    /// "1.50", "2.33": presses averaged, two decimals, half away from zero.
    static func twoDecimals(_ d: Double) -> String {
        let hundredths = Int64((d * 100).rounded())
        let whole = hundredths / 100
        let frac = hundredths % 100
        return "\(whole)." + (frac < 10 ? "0" : "") + String(frac)
    }
}
