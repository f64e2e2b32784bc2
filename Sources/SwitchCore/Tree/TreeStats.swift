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
///
/// The profile's style decides what is counted (issue 22): auto scanning gives times and
/// selections as above; `manual` scanning has no time of its own (the person moves it), so its
/// cost is presses: a next per stop passed and a select per level, Σ (j + 1); `singleSwitchStep`
/// costs a press per stop passed, Σ j, and the dwell T that selects at each level; a profile
/// without switches (touch only) does not scan at all, and says so.
public struct TreeStats: Sendable, Equatable {
    public var elements: Int
    public var accessibilityElements: Int
    public var scanItems: Int
    public var groups: Int
    public var depth: Int
    public var autoScanningTime: Interval
    public var pauseOnFirstItem: Interval
    public var holdDuration: Interval
    /// What drives scanning in the profile: its style, or nothing (a touch-only profile).
    public var driving: Driving
    /// The profile the figures are for, as the command names it ("tremor (Profiles/tremor.json)").
    public var profileName: String?

    public enum Driving: String, Sendable, Equatable {
        case auto, manual, singleSwitchStep
        /// No switch and no touchscreen as a switch: nothing is scanned.
        case none
    }
    /// Nil when there is no scan item.
    public var linear: ScanCost?
    public var grouped: ScanCost?
    public var rowColumn: ScanCost?
    public var auto: ScanCost?
    /// k = 2 … 6 switches, in that order (empty when there is no scan item).
    public var groupSelection: [ScanCost] = []

    /// Time and presses to reach the items of one scanning method.
    public struct ScanCost: Sendable, Equatable {
        /// Per scan item, in scan order (empty where the person sets the pace: manual and step).
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

    /// The figures for `profile`, named `profileName` in the report.
    /// `progress` is told the method about to be worked out ("auto grouping"), for the shell's
    /// progress line.
    public init(tree: ElementTree, model: ScanModel? = nil, profile: Profile, profileName: String? = nil,
                progress: (String) -> Void = { _ in }) {
        self.init(tree: tree, model: model, scanning: profile.scanning, holdDuration: profile.switchStabilization.holdDuration,
                  scans: profile.scans, progress: progress)
        self.profileName = profileName
    }

    public init(tree: ElementTree, model: ScanModel? = nil, scanning: ScanningSettings, holdDuration: Interval = .zero, scans: Bool = true,
                progress: (String) -> Void = { _ in }) {
        progress("scan order")
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
        switch scanning.style {
        case _ where !scans: driving = .none
        case .auto: driving = .auto
        case .manual: driving = .manual
        case .singleSwitchStep: driving = .singleSwitchStep
        }
        guard !model.items.isEmpty, driving != .none else { return }
        let costModel = ScanCostModel(scanning, holdDuration: holdDuration)
        let driving = driving
        func cost(_ grouping: Grouping) -> ScanCost {
            let (times, selections, moves) = ScanLevels(model: model, grouping: grouping, cost: costModel).reach()
            switch driving {
            case .auto, .none: return ScanCost(reach: times, presses: selections)
            case .manual: return ScanCost(reach: [], presses: zip(moves, selections).map { $0 + $1 })
            case .singleSwitchStep: return ScanCost(reach: [], presses: moves)
            }
        }
        progress("linear")
        linear = cost(.none)
        progress("group scanning")
        grouped = cost(.containers)
        progress("row-column")
        rowColumn = cost(.rowColumn)
        progress("auto grouping")
        auto = cost(.auto)
        groupSelection = ColorGroups.switchRange.map { k in
            progress("group selection, \(k) switches")
            var split = ColorGroups(weights: Array(repeating: 1, count: model.items.count), switches: k)
            let presses = split.presses(0..<model.items.count)
            return ScanCost(reach: presses.map { costModel.groupPress * $0 }, presses: presses)
        }
    }

    /// `{"elements": …, "scanning": {…}, "linear": {"averageSeconds", "worstSeconds", "averagePresses", "worstPresses"} | null,
    /// "grouped": …, "rowColumn": …, "auto": …, "groupSelection": [{"switches": 2, …}, …]}`
    public var json: JSONOut {
        func fields(_ c: ScanCost, timed: Bool) -> [(String, JSONOut)] {
            (timed ? [
                ("averageSeconds", .raw(formatMilliseconds(c.averageTime.microseconds))),
                ("worstSeconds", .raw(formatMilliseconds(c.worstTime.microseconds))),
            ] : []) + [
                ("averagePresses", .raw(TreeStats.twoDecimals(c.averagePresses))),
                ("worstPresses", .number(Double(c.worstPresses))),
            ]
        }
        func cost(_ c: ScanCost?) -> JSONOut { c.map { .object(fields($0, timed: driving == .auto)) } ?? .null }
        let selection = zip(ColorGroups.switchRange, groupSelection).map { k, c in
            JSONOut.object([("switches", .number(Double(k)))] + fields(c, timed: true))
        }
        return .object([
            ("elements", .number(Double(elements))),
            ("accessibilityElements", .number(Double(accessibilityElements))),
            ("scanItems", .number(Double(scanItems))),
            ("groups", .number(Double(groups))),
            ("depth", .number(Double(depth))),
            ("profile", profileName.map { .string($0) } ?? .null),
            ("scanning", .object([
                ("style", .string(driving.rawValue)),
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
        func presses(_ c: ScanCost) -> String {
            c.worstPresses == 1 && c.averagePresses == 1
                ? "1 press"
                : "presses average \(TreeStats.twoDecimals(c.averagePresses)), worst \(c.worstPresses)"
        }
        func cost(_ c: ScanCost?, timed: Bool) -> String {
            guard let c else { return "no scan items" }
            guard timed else { return presses(c) }
            return "average \(formatMilliseconds(c.averageTime.microseconds)) s, worst \(formatMilliseconds(c.worstTime.microseconds)) s, \(presses(c))"
        }
        let T = formatMilliseconds(autoScanningTime.microseconds)
        var scanningLine: String
        switch driving {
        case .auto:
            scanningLine = "auto, \(T) s per stop, pause on first stop \(formatMilliseconds(pauseOnFirstItem.microseconds)) s"
        case .manual:
            scanningLine = "manual: a next press per stop passed and a select per level (the person sets the pace: presses, no times)"
        case .singleSwitchStep:
            scanningLine = "single switch step: a press per stop passed, then a \(T) s dwell selects (presses, no times)"
        case .none:
            scanningLine = "none: the profile binds no switch and does not make the touchscreen one (touch only), so nothing is scanned"
        }
        if !holdDuration.isZero && driving != .none { scanningLine += ", hold \(formatMilliseconds(holdDuration.microseconds)) s" }
        var rows: [(String, String)] = [
            ("elements", String(elements)),
            ("accessibility elements", String(accessibilityElements)),
            ("scan items", String(scanItems)),
            ("groups", String(groups)),
            ("depth", String(depth)),
        ]
        if let profileName { rows.append(("profile", TerminalText.line(profileName))) }
        rows.append(("scanning", scanningLine))
        if driving != .none {
            let timed = driving == .auto
            rows += [
                ("linear", cost(linear, timed: timed)),
                ("group scanning", cost(grouped, timed: timed)),
                ("row-column", cost(rowColumn, timed: timed)),
                ("auto grouping", cost(auto, timed: timed)),
            ]
            for (k, c) in zip(ColorGroups.switchRange, groupSelection) { rows.append(("\(k) switches", cost(c, timed: true))) }
        }
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
