/// `tree stats`: the size of a tree and what reaching an item costs with each scanning method.
///
/// Counts: `elements` is every node of the tree (containers too); `accessibilityElements` the
/// nodes assistive technology sees as elements (`ScanModel.accessibilityElements`); `scanItems`
/// the stops of item scanning; `groups` the groups of group scanning; `depth` the number of
/// levels (a root alone is 1).
///
/// Time to reach an item: `ScanCostModel` (T = `autoScanningTime`, P = `pauseOnFirstItem`,
/// H = the switches' `holdDuration`): selecting the stop at index j of a level costs
/// P + (j + 1)·T + H (the person has the whole dwell of that stop to press), and an item's time
/// is the sum over the levels on its way down; its presses are the number of levels.
///
///     level  stop 0     stop 1   stop 2
///            |--T+P----|---T----|---T----|
///     press            ^ P+T     ^ P+2T   ^ P+3T      (+H each)
///
/// Methods, side by side (`Grouping`, `LevelShaper`):
/// - `linear`: every scan item in one level;
/// - `grouped`: the app's containers (group scanning);
/// - `rowColumn`: containers, and rows of three or more stops as groups;
/// - `auto`: the cheapest of declared, rows, row-column and balanced chunks, per level;
/// - `groupSelection`: k = 2 … 6 switches, each press picks one of k colour groups
///   (`ColorGroups`), T + H per press.
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
    public var holdDuration: Interval
    /// Nil when there is no scan item.
    public var linear: ScanCost?
    public var grouped: ScanCost?
    public var rowColumn: ScanCost?
    public var auto: ScanCost?
    /// k = 2 … 6 switches, in that order (empty when there is no scan item).
    public var groupSelection: [ScanCost] = []

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

    public init(tree: ElementTree, model: ScanModel? = nil, scanning: ScanningSettings, holdDuration: Interval = .zero) {
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
        self.holdDuration = holdDuration
        guard !model.items.isEmpty else { return }
        let costModel = ScanCostModel(scanning, holdDuration: holdDuration)
        func cost(_ grouping: Grouping) -> ScanCost {
            let (times, presses) = ScanLevels(model: model, grouping: grouping, cost: costModel).reach()
            return ScanCost(reach: times, presses: presses)
        }
        linear = cost(.none)
        grouped = cost(.containers)
        rowColumn = cost(.rowColumn)
        auto = cost(.auto)
        groupSelection = ColorGroups.switchRange.map { k in
            var split = ColorGroups(weights: Array(repeating: 1, count: model.items.count), switches: k)
            let presses = split.presses(0..<model.items.count)
            return ScanCost(reach: presses.map { costModel.groupPress * $0 }, presses: presses)
        }
    }

    /// `{"elements": …, "scanning": {…}, "linear": {"averageSeconds", "worstSeconds", "averagePresses", "worstPresses"} | null,
    /// "grouped": …, "rowColumn": …, "auto": …, "groupSelection": [{"switches": 2, …}, …]}`
    public var json: JSONOut {
        func fields(_ c: ScanCost) -> [(String, JSONOut)] {
            [
                ("averageSeconds", .raw(formatMilliseconds(c.averageTime.microseconds))),
                ("worstSeconds", .raw(formatMilliseconds(c.worstTime.microseconds))),
                ("averagePresses", .raw(TreeStats.twoDecimals(c.averagePresses))),
                ("worstPresses", .number(Double(c.worstPresses))),
            ]
        }
        func cost(_ c: ScanCost?) -> JSONOut { c.map { .object(fields($0)) } ?? .null }
        let selection = zip(ColorGroups.switchRange, groupSelection).map { k, c in
            JSONOut.object([("switches", .number(Double(k)))] + fields(c))
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
                ("holdDuration", .raw(formatMilliseconds(holdDuration.microseconds))),
            ])),
            ("linear", cost(linear)),
            ("grouped", cost(grouped)),
            ("rowColumn", cost(rowColumn)),
            ("auto", cost(auto)),
            ("groupSelection", .array(selection)),
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
        var scanningLine = "\(formatMilliseconds(autoScanningTime.microseconds)) s per stop, pause on first stop \(formatMilliseconds(pauseOnFirstItem.microseconds)) s"
        if !holdDuration.isZero { scanningLine += ", hold \(formatMilliseconds(holdDuration.microseconds)) s" }
        var rows: [(String, String)] = [
            ("elements", String(elements)),
            ("accessibility elements", String(accessibilityElements)),
            ("scan items", String(scanItems)),
            ("groups", String(groups)),
            ("depth", String(depth)),
            ("scanning", scanningLine),
            ("linear", cost(linear)),
            ("group scanning", cost(grouped)),
            ("row-column", cost(rowColumn)),
            ("auto grouping", cost(auto)),
        ]
        for (k, c) in zip(ColorGroups.switchRange, groupSelection) { rows.append(("\(k) switches", cost(c))) }
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
