/// Levels and stops: the lists the scanner's highlight moves through, read from a `ScanModel`
/// shaped by a `Grouping` (`LevelShaper`).
///
/// Without grouping there is one level, every scan item in scan order. Otherwise the top level
/// holds the top stops and each group is a level of its own: its stops followed by the group's
/// escape stop (the dashed "back out" stop of iOS, ChromeOS's Back button), so a user who entered
/// the wrong group always has a way out. A group is one of the app's containers, a row, or a part
/// of a longer run; rows and parts get ids made from their owner's (docs/scanning.md "Scanning methods"):
/// `keyboard#row2` is the second row inside `keyboard`, `root#part1#part3` the third part inside
/// the first part of the top level (whose owner is the scope).

/// A list of stops scanned together.
enum ScanLevel: Hashable, Sendable {
    case top
    /// Inside `ScanLevels.groups[g]`.
    case group(Int)
}

/// One place the highlight can rest on.
enum LevelStop: Hashable, Sendable {
    /// `model.items[i]`.
    case item(Int)
    /// `ScanLevels.groups[g]`, seen from its parent level.
    case group(Int)
    /// The escape stop at the end of group g's level.
    case exit(Int)
}

/// A stop's place: its level and its index in that level.
struct StopLocation: Hashable, Sendable {
    var level: ScanLevel
    var index: Int

    static let first = StopLocation(level: .top, index: 0)
}

/// A group of stops scanned together.
public struct LevelGroup: Sendable {
    public enum Kind: String, Sendable { case container, row, part }

    public var id: String
    public var kind: Kind
    /// The container's label (containers only).
    public var label: String?
    /// The items the group holds (all of them, at any depth): a contiguous run of
    /// `ScanModel.items`.
    public var items: Range<Int>
    var parent: ScanLevel
    var indexInParent: Int
    /// Without the escape stop (the scanner adds it at the end).
    var stops: [LevelStop]
}

/// A model's levels for one grouping. Indices passed in come from the scanner's own state, which
/// is always kept inside the current model (layout changes relocate it).
struct ScanLevels: Sendable {
    private(set) var model: ScanModel
    let grouping: Grouping
    let cost: ScanCostModel
    private(set) var top: [LevelStop] = []
    private(set) var groups: [LevelGroup] = []
    private var itemLocations: [StopLocation]
    private var groupByID: [String: Int] = [:]

    init(model: ScanModel, grouping: Grouping, cost: ScanCostModel) {
        self.model = model
        self.grouping = grouping
        self.cost = cost
        itemLocations = Array(repeating: .first, count: model.items.count)
        let shapes = LevelShaper(model: model, cost: cost).shape(grouping)
        top = register(shapes, in: .top, owner: model.scopeID)
        for g in groups.indices where groupByID[groups[g].id] == nil { groupByID[groups[g].id] = g }
    }

    /// The same grouping and cost model over a new model (a layout change).
    func rebuilt(_ model: ScanModel) -> ScanLevels {
        ScanLevels(model: model, grouping: grouping, cost: cost)
    }

    /// These levels over `model`, a model of the same structure (`ScanModel.structureKey`: the
    /// same frames, containers and order, other ids and labels for some items): what `rebuilt`
    /// would shape, since shaping reads frames and containers only.
    func over(_ model: ScanModel) -> ScanLevels {
        var copy = self
        copy.model = model
        return copy
    }

    /// Numbers the groups depth-first in scan order and notes every item's place.
    private mutating func register(_ shapes: [LevelShape], in level: ScanLevel, owner: String) -> [LevelStop] {
        var stops: [LevelStop] = []
        stops.reserveCapacity(shapes.count)
        var rows = 0, parts = 0
        for (j, shape) in shapes.enumerated() {
            switch shape {
            case .item(let i):
                itemLocations[i] = StopLocation(level: level, index: j)
                stops.append(.item(i))
            case .container(let g, let inner):
                let container = model.groups[g]
                stops.append(.group(addGroup(id: container.id, kind: .container, label: container.label, inner, level, j)))
            case .row(let inner):
                rows += 1
                stops.append(.group(addGroup(id: owner + "#row" + String(rows), kind: .row, label: nil, inner, level, j)))
            case .part(let inner):
                parts += 1
                stops.append(.group(addGroup(id: owner + "#part" + String(parts), kind: .part, label: nil, inner, level, j)))
            }
        }
        return stops
    }

    private mutating func addGroup(id: String, kind: LevelGroup.Kind, label: String?, _ inner: [LevelShape],
                                   _ parent: ScanLevel, _ index: Int) -> Int {
        let g = groups.count
        groups.append(LevelGroup(id: id, kind: kind, label: label, items: 0..<0, parent: parent, indexInParent: index, stops: []))
        let stops = register(inner, in: .group(g), owner: id)
        groups[g].stops = stops
        groups[g].items = itemRange(stops)
        return g
    }

    private func itemRange(_ stops: [LevelStop]) -> Range<Int> {
        func first(_ s: LevelStop) -> Int {
            switch s {
            case .item(let i): return i
            case .group(let g), .exit(let g): return groups[g].items.lowerBound
            }
        }
        func last(_ s: LevelStop) -> Int {
            switch s {
            case .item(let i): return i + 1
            case .group(let g), .exit(let g): return groups[g].items.upperBound
            }
        }
        guard let a = stops.first, let b = stops.last else { return 0..<0 }
        return first(a)..<last(b)
    }

    var isEmpty: Bool { model.items.isEmpty }

    func count(_ level: ScanLevel) -> Int {
        switch level {
        case .top: return top.count
        case .group(let g): return groups[g].stops.count + 1
        }
    }

    func stop(_ location: StopLocation) -> LevelStop {
        switch location.level {
        case .top:
            return top[location.index]
        case .group(let g):
            let stops = groups[g].stops
            return location.index < stops.count ? stops[location.index] : .exit(g)
        }
    }

    /// What a highlight line says about a stop.
    func highlight(_ stop: LevelStop) -> (id: String, kind: HighlightKind) {
        switch stop {
        case .item(let i): return (model.items[i].id, .item)
        case .group(let g): return (groups[g].id, .group)
        case .exit(let g): return (groups[g].id, .groupExit)
        }
    }

    /// How the transcript names a stop: an item's or a group's description; an escape stop is
    /// named by its group (the kind says it is the way out).
    func label(_ stop: LevelStop) -> String {
        switch stop {
        case .item(let i): return model.items[i].description
        case .group(let g), .exit(let g): return description(ofGroup: g)
        }
    }

    func spoken(_ stop: LevelStop) -> String {
        switch stop {
        case .item(let i): return model.items[i].description
        case .group(let g): return description(ofGroup: g)
        case .exit: return "Exit group"
        }
    }

    /// "Toolbar, group, 4 items" for a container; "Q to P, row, 10 items" for a row; "Apple to
    /// Date, group, 4 items" for a part.
    func description(ofGroup g: Int) -> String {
        let group = groups[g]
        switch group.kind {
        case .container:
            return ScanGroup(id: group.id, label: group.label, frame: nil, parent: nil, items: group.items, stops: []).description
        case .row, .part:
            let first = name(group.items.lowerBound), last = name(group.items.upperBound - 1)
            let count = group.items.count == 1 ? "1 item" : "\(group.items.count) items"
            return "\(first) to \(last), \(group.kind == .row ? "row" : "group"), \(count)"
        }
    }

    private func name(_ i: Int) -> String {
        let label = model.items[i].element.label?.trimmed ?? ""
        return label.isEmpty ? model.items[i].id : label
    }

    /// Where item i is highlighted.
    func location(ofItem i: Int) -> StopLocation { itemLocations[i] }

    /// Where group g is highlighted: in its parent's level.
    func location(ofGroup g: Int) -> StopLocation {
        StopLocation(level: groups[g].parent, index: groups[g].indexInParent)
    }

    func groupIndex(id: String) -> Int? { groupByID[id] }

    /// Where a group is on screen: the union of its items' frames (what an overlay outlines).
    func frame(ofGroup g: Int) -> Rect? {
        var r: Rect?
        for i in groups[g].items {
            if let f = model.items[i].element.frame { r = r.map { $0.union(f) } ?? f }
        }
        return r
    }

    /// Where the highlight goes in this model when `old` was highlighted at `location` in the old
    /// model (REFERENCE: stable focus under churn): the same item or group by id (an escape stop
    /// stays while its group does), else the stop that took its place in order (same index,
    /// clamped), in the same level or, when that level vanished, the top level. Only for a
    /// non-empty model.
    func relocate(_ location: StopLocation, from old: ScanLevels) -> StopLocation {
        switch old.stop(location) {
        case .item(let i):
            if let j = model.itemIndex(id: old.model.items[i].id) { return self.location(ofItem: j) }
        case .group(let g):
            if let h = groupIndex(id: old.groups[g].id) { return self.location(ofGroup: h) }
        case .exit(let g):
            // The escape stop is its group's: it stays while the group does.
            if let h = groupIndex(id: old.groups[g].id) {
                return StopLocation(level: .group(h), index: count(.group(h)) - 1)
            }
        }
        var level = ScanLevel.top
        if case .group(let g) = location.level, let h = groupIndex(id: old.groups[g].id) {
            level = .group(h)
        }
        return StopLocation(level: level, index: min(location.index, count(level) - 1))
    }

    /// Per item, the time to reach it and the selections it takes under `cost` (`tree stats`),
    /// and the stops passed on the way (the sum over its levels of the chosen stop's index: the
    /// moves of manual and step scanning).
    func reach() -> (times: [Interval], presses: [Int], moves: [Int]) {
        var times = Array(repeating: Interval.zero, count: model.items.count)
        var presses = Array(repeating: 0, count: model.items.count)
        var moves = Array(repeating: 0, count: model.items.count)
        func visit(_ stops: [LevelStop], before: Interval, pressesBefore: Int, movesBefore: Int) {
            for (j, stop) in stops.enumerated() {
                let t = before + cost.select(at: j)
                switch stop {
                case .item(let i):
                    times[i] = t
                    presses[i] = pressesBefore + 1
                    moves[i] = movesBefore + j
                case .group(let g):
                    visit(groups[g].stops, before: t, pressesBefore: pressesBefore + 1, movesBefore: movesBefore + j)
                case .exit:
                    break
                }
            }
        }
        visit(top, before: .zero, pressesBefore: 0, movesBefore: 0)
        return (times, presses, moves)
    }
}
