/// The scanner menu on one item (iOS Switch Control's item menu, reduced to what the element model
/// offers): Tap, one entry per custom action (the item's, then those of the containers around it,
/// such as a list's scroll actions), Increment and Decrement for adjustable items, Escape, and
/// Close. Entries are scanned like items, with the same style, timing and loops.
enum MenuEntry: Hashable, Sendable {
    case tap
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
    static func entries(for item: ScanItem) -> [MenuEntry] {
        var entries: [MenuEntry] = [.tap]
        entries += item.element.customActions.map { .action($0) }
        entries += item.containerActions.map { .containerAction($0) }
        if item.isAdjustable { entries += [.increment, .decrement] }
        entries += [.escape, .close]
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
        case .close: return nil
        }
    }
}
