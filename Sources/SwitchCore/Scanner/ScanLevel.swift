/// Levels and stops: the lists the scanner's highlight moves through, read from a `ScanModel`.
///
/// Without `groupItems` there is one level, every scan item in scan order. With it, the top level
/// is `model.topStops` and each group is a level of its own: `groups[g].stops` followed by the
/// group's escape stop (the dashed "back out" stop of iOS, ChromeOS's Back button), so a user who
/// entered the wrong group always has a way out.

/// A list of stops scanned together.
enum ScanLevel: Hashable, Sendable {
    case top
    /// Inside `model.groups[g]`.
    case group(Int)
}

/// One place the highlight can rest on.
enum LevelStop: Hashable, Sendable {
    /// `model.items[i]`.
    case item(Int)
    /// `model.groups[g]`, seen from its parent level.
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

/// Read-only view of a model's levels, for one grouping setting. Indices passed in come from the
/// scanner's own state, which is always kept inside the current model (layout changes relocate it).
struct ScanLevels {
    let model: ScanModel
    let grouped: Bool

    var isEmpty: Bool { model.items.isEmpty }

    func count(_ level: ScanLevel) -> Int {
        switch level {
        case .top:
            return grouped ? model.topStops.count : model.items.count
        case .group(let g):
            return model.groups[g].stops.count + 1
        }
    }

    func stop(_ location: StopLocation) -> LevelStop {
        switch location.level {
        case .top:
            if !grouped { return .item(location.index) }
            return LevelStop(model.topStops[location.index])
        case .group(let g):
            let stops = model.groups[g].stops
            return location.index < stops.count ? LevelStop(stops[location.index]) : .exit(g)
        }
    }

    /// What a highlight line says about a stop.
    func highlight(_ stop: LevelStop) -> (id: String, kind: HighlightKind) {
        switch stop {
        case .item(let i): return (model.items[i].id, .item)
        case .group(let g): return (model.groups[g].id, .group)
        case .exit(let g): return (model.groups[g].id, .groupExit)
        }
    }

    /// How the transcript names a stop: an item's or a group's description; an escape stop is
    /// named by its group (the kind says it is the way out).
    func label(_ stop: LevelStop) -> String {
        switch stop {
        case .item(let i): return model.items[i].description
        case .group(let g), .exit(let g): return model.groups[g].description
        }
    }

    func spoken(_ stop: LevelStop) -> String {
        switch stop {
        case .item(let i): return model.items[i].description
        case .group(let g): return model.groups[g].description
        case .exit: return "Exit group"
        }
    }

    /// Where item i is highlighted: its innermost group's level when grouping, else the top level.
    func location(ofItem i: Int) -> StopLocation {
        guard grouped else { return StopLocation(level: .top, index: i) }
        let level: ScanLevel = model.items[i].groupPath.last.map { .group($0) } ?? .top
        return StopLocation(level: level, index: index(of: .item(i), in: level))
    }

    /// Where group g is highlighted: in its parent's level.
    func location(ofGroup g: Int) -> StopLocation {
        let level: ScanLevel = model.groups[g].parent.map { .group($0) } ?? .top
        return StopLocation(level: level, index: index(of: .group(g), in: level))
    }

    private func index(of stop: ScanStop, in level: ScanLevel) -> Int {
        let stops: [ScanStop]
        switch level {
        case .top: stops = model.topStops
        case .group(let g): stops = model.groups[g].stops
        }
        // The model lists every item and group in exactly one level, so the search succeeds; 0 keeps
        // a malformed model from crashing the scanner.
        return stops.firstIndex(of: stop) ?? 0
    }

    func groupIndex(id: String) -> Int? { model.groups.firstIndex { $0.id == id } }

    /// Where the highlight goes in this model when `old` was highlighted at `location` in the old
    /// model (REFERENCE: stable focus under churn): the same item or group by id (an escape stop
    /// stays while its group does), else the stop
    /// that took its place in order (same index, clamped), in the same level or, when that level
    /// vanished, the top level. Only for a non-empty model.
    func relocate(_ location: StopLocation, from old: ScanLevels) -> StopLocation {
        switch old.stop(location) {
        case .item(let i):
            if let j = model.itemIndex(id: old.model.items[i].id) { return self.location(ofItem: j) }
        case .group(let g):
            if grouped, let h = groupIndex(id: old.model.groups[g].id) { return self.location(ofGroup: h) }
        case .exit(let g):
            // The escape stop is its group's: it stays while the group does.
            if grouped, let h = groupIndex(id: old.model.groups[g].id) {
                return StopLocation(level: .group(h), index: count(.group(h)) - 1)
            }
        }
        var level = ScanLevel.top
        if case .group(let g) = location.level, grouped, let h = groupIndex(id: old.model.groups[g].id) {
            level = .group(h)
        }
        return StopLocation(level: level, index: min(location.index, count(level) - 1))
    }
}

extension LevelStop {
    init(_ stop: ScanStop) {
        switch stop {
        case .item(let i): self = .item(i)
        case .group(let g): self = .group(g)
        }
    }
}
