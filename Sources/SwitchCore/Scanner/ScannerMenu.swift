/// The scanner menu on one item (iOS Switch Control's item menu, reduced to what the element model
/// offers): Tap, one entry per custom action (the item's, then those of the containers around it,
/// such as a list's scroll actions), Increment and Decrement for adjustable items, Point Mode
/// (with `modeSwitch`), Escape, and Close. Entries are scanned like items, with the same style,
/// timing and loops.
///
/// On a point (point scanning): Tap (at the point itself), then, when the point lies inside a
/// scan item, that item's entries: Snap (activate the item, at its activation point) and its
/// actions; then Refine, Item Mode (with `modeSwitch`), Escape, Close.
enum MenuEntry: Hashable, Sendable {
    case tap
    /// Point menu: activate the item under the point.
    case snap
    /// Point menu: sweep again, slower and narrower, around the point.
    case refine
    /// Switch to item mode / point mode.
    case itemMode
    case pointMode
    case action(String)
    /// A custom action of an enclosing container, performed on that container.
    case containerAction(ContainerAction)
    case increment
    case decrement
    case escape
    case close

    /// Ids shown in `menuOpened` and highlight lines ("menu:tap", "menu:action:Delete", …).
    var id: String {
        switch self {
        case .tap: return "menu:tap"
        case .snap: return "menu:snap"
        case .refine: return "menu:refine"
        case .itemMode: return "menu:itemMode"
        case .pointMode: return "menu:pointMode"
        case .action(let name): return "menu:action:" + name
        case .containerAction(let a): return "menu:action:" + a.name
        case .increment: return "menu:increment"
        case .decrement: return "menu:decrement"
        case .escape: return "menu:escape"
        case .close: return "menu:close"
        }
    }

    /// What speech says when the entry is highlighted.
    var spoken: String {
        switch self {
        case .tap: return "Tap"
        case .snap: return "Activate item"
        case .refine: return "Refine"
        case .itemMode: return "Item mode"
        case .pointMode: return "Point mode"
        case .action(let name): return name
        case .containerAction(let a): return a.name
        case .increment: return "Increment"
        case .decrement: return "Decrement"
        case .escape: return "Escape"
        case .close: return "Close menu"
        }
    }

    /// How the transcript names the entries (the `menuOpened` event).
    static func names(_ entries: [MenuEntry]) -> [MenuEntryName] {
        entries.map { MenuEntryName(id: $0.id, label: $0.spoken) }
    }

    /// The entries for an item, in menu order. Always at least Tap, Escape and Close.
    static func entries(for item: ScanItem, modeSwitch: Bool = false) -> [MenuEntry] {
        var entries: [MenuEntry] = [.tap]
        entries += actions(of: item)
        if modeSwitch { entries.append(.pointMode) }
        entries += [.escape, .close]
        return entries
    }

    /// The entries for a point, with the scan item under it if any.
    static func entries(atPointOn hit: ScanItem?, modeSwitch: Bool) -> [MenuEntry] {
        var entries: [MenuEntry] = [.tap]
        if let hit { entries += [.snap] + actions(of: hit) }
        entries.append(.refine)
        if modeSwitch { entries.append(.itemMode) }
        entries += [.escape, .close]
        return entries
    }

    private static func actions(of item: ScanItem) -> [MenuEntry] {
        var entries: [MenuEntry] = item.element.customActions.map { .action($0) }
        entries += item.containerActions.map { .containerAction($0) }
        if item.isAdjustable { entries += [.increment, .decrement] }
        return entries
    }

    /// Tap: an activation at the item's activation point (also what Auto Tap and Always Tap do).
    static func activation(of item: ScanItem) -> Perform {
        Perform(.activate, id: item.id, label: item.description, point: item.element.effectiveActivationPoint)
    }

    /// What choosing the entry performs on the item; nil for Close, which only closes the menu.
    func perform(on item: ScanItem) -> Perform? {
        switch self {
        case .tap: return MenuEntry.activation(of: item)
        case .action(let name): return Perform(.custom(name), id: item.id, label: item.description)
        case .containerAction(let a): return Perform(.custom(a.name), id: a.ownerID, label: a.ownerLabel)
        case .increment: return Perform(.increment, id: item.id, label: item.description)
        case .decrement: return Perform(.decrement, id: item.id, label: item.description)
        case .escape: return Perform(.escape, id: item.id, label: item.description)
        case .snap: return MenuEntry.activation(of: item)
        case .close, .refine, .itemMode, .pointMode: return nil
        }
    }

    /// What choosing the entry performs on a point: Tap taps the point itself (on the item under
    /// it, or the scope when there is none); the item's entries act on the item.
    func perform(at point: Point, on hit: ScanItem?, scopeID: String, scopeLabel: String) -> Perform? {
        switch self {
        case .tap: return Perform(.tap, id: hit?.id ?? scopeID, label: hit?.description ?? scopeLabel, point: point)
        case .escape: return Perform(.escape, id: hit?.id ?? scopeID, label: hit?.description ?? scopeLabel)
        default: return hit.flatMap { perform(on: $0) }
        }
    }
}
