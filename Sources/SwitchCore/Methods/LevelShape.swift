/// How item scanning groups a level's stops (profile `"grouping"`, docs/scanning.md "Scanning methods").
public enum Grouping: String, Sendable, Equatable, CaseIterable {
    /// One level: every scan item in scan order (`groupItems: false`).
    case none
    /// The app's containers, by ChromeOS's group rule (`groupItems: true`).
    case containers
    /// Containers, and inside every level the rows of at least three stops as groups (Android's
    /// row-column scanning, `RowColumnTreeBuilder`, MIN_NODES_PER_ROW = 3).
    case rowColumn
    /// Per level, whichever of declared, rows, row-column and balanced chunks reaches an item
    /// soonest under the profile's timings (`ScanCostModel`).
    case auto
}

/// One stop of a level and, for a group, the stops inside it: the shape item scanning walks.
/// Every group holds a contiguous run of `ScanModel.items`, so scan order never changes: a
/// grouping only decides where the highlight may skip ahead.
indirect enum LevelShape: Sendable {
    case item(Int)
    /// `model.groups[g]` with the stops of its own level.
    case container(Int, [LevelShape])
    /// A row of stops that share a line on screen.
    case row([LevelShape])
    /// A run of stops cut from a longer level (balanced chunks).
    case part([LevelShape])
}
