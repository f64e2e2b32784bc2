/// The scanner menu (iOS Switch Control's, reduced to what the element model and a Linux desktop
/// offer), built from a `MenuContext`.
///
/// On an item, the top level: Tap, one entry per custom action (the item's, then those of the
/// containers around it, such as a list's scroll actions), Increment and Decrement for adjustable
/// items; the entries the profile promotes (`menu.top`); one entry per page (Gestures, Device,
/// Shortcuts, Settings) that has anything to show; Point Mode (with `modeSwitch`), Escape, Close.
///
/// On a point (point scanning): Tap (at the point itself), then, when the point lies inside a
/// scan item, that item's entries: Snap (activate the item, at its activation point) and its
/// actions; the promoted entries and the pages; then Refine, Item Mode (with `modeSwitch`),
/// Escape, Close.
///
/// The pages (each ends with Back and Close):
///   Gestures   Right click, Double click, Middle click, Hold, Drag, Scroll up/down/left/right
///              (only where there is a point: the item's activation point, or the point chosen)
///   Device     Volume up, Volume down, Mute, Lock screen (only when the profile shows it)
///   Shortcuts  the profile's shortcuts, then Copy, Paste, Cut, Undo, Redo, Select all, Save, Find,
///              Close tab, Switch window, Escape key, Enter, Tab, the arrows
///   Settings   Faster, Slower (not for manual scanning or group selection), Auto scanning (only
///              with a next or previous switch), Speech, Sounds, Pause (only with a pause hold)
///
/// Entries are scanned like items, with the same style, timing, loops and grouping.
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
    // Issue 23: pages, gestures, device keys, shortcuts, settings.
    case submenu(MenuPage)
    /// Back to the top level from a page.
    case back
    case rightClick
    case doubleClick
    case middleClick
    case hold
    /// Drag from here; the drop target is chosen by scanning.
    case drag
    /// Five wheel clicks at the point (`menu:scrollUp` …).
    case wheel(ScrollDirection)
    case volumeUp
    case volumeDown
    case mute
    case lockScreen
    case shortcut(Shortcut)
    case faster
    case slower
    /// The state now (the entry turns it the other way).
    case autoScanning(on: Bool)
    case speech(on: Bool)
    case sounds(on: Bool)
    case pause
    // Issue 19: the Scroll and Windows pages.
    /// Page the container by a page (down, up, left, right) or to its top or bottom.
    case pageScroll(ScrollDirection, ScrollContainer)
    /// The n-th window of the Windows page (from 1).
    case window(Int, WindowEntry)
    case closeWindow(WindowEntry)
    // Issue 18: the scanning keyboard.
    /// Opens the keyboard on the item (a text field), or for whatever has the keyboard focus, as
    /// ChromeOS's Keyboard action does.
    case keyboard

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
        case .submenu(let page): return page.id
        case .back: return "menu:back"
        case .rightClick: return "menu:rightClick"
        case .doubleClick: return "menu:doubleClick"
        case .middleClick: return "menu:middleClick"
        case .hold: return "menu:hold"
        case .drag: return "menu:drag"
        case .wheel(let d): return "menu:scroll" + d.rawValue.prefix(1).uppercased() + d.rawValue.dropFirst()
        case .volumeUp: return "menu:volumeUp"
        case .volumeDown: return "menu:volumeDown"
        case .mute: return "menu:mute"
        case .lockScreen: return "menu:lockScreen"
        case .shortcut(let s): return s.id
        case .faster: return "menu:faster"
        case .slower: return "menu:slower"
        case .autoScanning: return "menu:autoScanning"
        case .speech: return "menu:speech"
        case .sounds: return "menu:sounds"
        case .pause: return "menu:pause"
        case .pageScroll(let d, _): return "menu:scroll:" + d.rawValue
        case .window(let n, _): return "menu:window:\(n)"
        case .closeWindow: return "menu:closeWindow"
        case .keyboard: return "menu:keyboard"
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
        case .submenu(let page): return page.label
        case .back: return "Back"
        case .rightClick: return "Right click"
        case .doubleClick: return "Double click"
        case .middleClick: return "Middle click"
        case .hold: return "Hold"
        case .drag: return "Drag"
        case .wheel(let d): return "Scroll " + d.rawValue
        case .volumeUp: return "Volume up"
        case .volumeDown: return "Volume down"
        case .mute: return "Mute"
        case .lockScreen: return "Lock screen"
        case .shortcut(let s): return s.label
        case .faster: return "Faster"
        case .slower: return "Slower"
        case .autoScanning(let on): return on ? "Turn auto scanning off" : "Turn auto scanning on"
        case .speech(let on): return on ? "Turn speech off" : "Turn speech on"
        case .sounds(let on): return on ? "Turn sounds off" : "Turn sounds on"
        case .pause: return "Pause scanning"
        case .pageScroll(let d, _):
            switch d {
            case .top: return "Scroll to top"
            case .bottom: return "Scroll to bottom"
            default: return "Scroll " + d.rawValue
            }
        case .window(_, let w): return w.label
        case .closeWindow: return "Close window"
        case .keyboard: return "Keyboard"
        }
    }

    /// How the transcript names the entries (the `menuOpened` event).
    static func names(_ entries: [MenuEntry]) -> [MenuEntryName] {
        entries.map { MenuEntryName(id: $0.id, label: $0.spoken) }
    }

    // MARK: - What a menu shows

    /// The entries for an item, in menu order. Always at least Escape and Close.
    static func entries(for item: ScanItem, _ context: MenuContext) -> [MenuEntry] {
        let hasPoint = item.element.effectiveActivationPoint != nil
        var entries: [MenuEntry] = [.tap]
        entries += actions(of: item)
        entries += promoted(context, hasPoint: hasPoint)
        entries += pages(context, hasPoint: hasPoint)
        // After Settings, before Scroll and Windows (SHAPE.md's order): on a text field, or on
        // any item while something has the keyboard focus, when a keyboard layout is there.
        if context.keyboard && (item.element.textEntry != nil || context.keyboardFocus) {
            let at = entries.firstIndex { $0 == .submenu(.scroll) || $0 == .submenu(.windows) } ?? entries.count
            entries.insert(.keyboard, at: at)
        }
        if context.modeSwitch && context.mode == .item { entries.append(.pointMode) }
        return visible(entries, context) + [.escape, .close]
    }

    /// The entries for a point, with the scan item under it if any.
    static func entries(atPointOn hit: ScanItem?, _ context: MenuContext) -> [MenuEntry] {
        var entries: [MenuEntry] = [.tap]
        if let hit { entries += [.snap] + actions(of: hit) }
        entries += promoted(context, hasPoint: true)
        entries += pages(context, hasPoint: true)
        entries.append(.refine)
        if context.modeSwitch { entries.append(.itemMode) }
        return visible(entries, context) + [.escape, .close]
    }

    /// A page's entries: what it holds and may show here, less what the profile hides or
    /// promoted to the top level, then Back and Close.
    static func entries(page: MenuPage, _ context: MenuContext, hasPoint: Bool) -> [MenuEntry] {
        let top = Set(context.settings.top)
        return leaves(page, context, hasPoint: hasPoint).filter { !top.contains($0.id) } + [.back, .close]
    }

    /// The entries a page may show in this context, hidden ones left out.
    static func leaves(_ page: MenuPage, _ context: MenuContext, hasPoint: Bool) -> [MenuEntry] {
        let shown = catalog(page, context).filter { entry in
            switch entry {
            case .rightClick, .doubleClick, .middleClick, .hold, .drag, .wheel: return hasPoint
            case .faster, .slower: return context.style != .manual && context.mode != .groupSelection
            case .autoScanning: return context.canMoveWithoutTimer && context.style != .singleSwitchStep && context.mode != .groupSelection
            case .pause: return context.canResumeFromPause
            case .pageScroll: return context.scroll != nil
            default: return true
            }
        }
        return visible(shown, context)
    }

    /// Everything a page can hold, in order, whatever the context (the profile's checks use it).
    static func catalog(_ page: MenuPage, _ context: MenuContext) -> [MenuEntry] {
        switch page {
        case .gestures:
            return [.rightClick, .doubleClick, .middleClick, .hold, .drag] + [.up, .down, .left, .right].map { .wheel($0) }
        case .device:
            return [.volumeUp, .volumeDown, .mute, .lockScreen]
        case .shortcuts:
            return context.settings.shortcuts.compactMap(Shortcut.init).map { .shortcut($0) } + Shortcut.builtIn.map { .shortcut($0) }
        case .settings:
            return [.faster, .slower, .autoScanning(on: context.style != .manual), .speech(on: context.speech),
                    .sounds(on: context.sounds), .pause]
        case .scroll:
            let container = context.scroll ?? ScrollContainer(id: "", label: "")
            return [ScrollDirection.down, .up, .left, .right, .top, .bottom].map { .pageScroll($0, container) }
        case .windows:
            let windows: [MenuEntry] = context.windows.enumerated().map { .window($0.offset + 1, $0.element) }
            return windows + (context.currentWindow.map { [MenuEntry.closeWindow($0)] } ?? [])
        }
    }

    /// Entries hidden unless the profile shows them (or promotes them).
    static let hiddenByDefault: Set<String> = ["menu:lockScreen"]

    /// The entries the profile hides (or that are hidden by default) left out.
    private static func visible(_ entries: [MenuEntry], _ context: MenuContext) -> [MenuEntry] {
        let hidden = Set(context.settings.hide)
        let shown = Set(context.settings.show).union(context.settings.top)
        return entries.filter { !hidden.contains($0.id) && (!hiddenByDefault.contains($0.id) || shown.contains($0.id)) }
    }

    /// The pages with anything to show, as top-level entries.
    private static func pages(_ context: MenuContext, hasPoint: Bool) -> [MenuEntry] {
        MenuPage.allCases.filter { entries(page: $0, context, hasPoint: hasPoint).count > 2 }.map { .submenu($0) }
    }

    /// The entries the profile moved to the top level, in its order, where they may show.
    private static func promoted(_ context: MenuContext, hasPoint: Bool) -> [MenuEntry] {
        let available = MenuPage.allCases.flatMap { leaves($0, context, hasPoint: hasPoint) }
        return context.settings.top.compactMap { id in available.first { $0.id == id } }
    }

    private static func actions(of item: ScanItem) -> [MenuEntry] {
        var entries: [MenuEntry] = item.element.customActions.map { .action($0) }
        entries += item.containerActions.map { .containerAction($0) }
        if item.isAdjustable { entries += [.increment, .decrement] }
        return entries
    }

    // MARK: - What choosing an entry performs

    /// Tap: an activation at the item's activation point (also what Auto Tap and Always Tap do).
    static func activation(of item: ScanItem) -> Perform {
        Perform(.activate, id: item.id, label: item.description, point: item.element.effectiveActivationPoint)
    }

    /// The gesture or key an entry sends, at `point` (gestures) on the element `id`; nil for
    /// entries that are not a gesture or a key.
    func gesture(id: String, label: String, at point: Point?) -> Perform? {
        switch self {
        case .rightClick: return Perform(.rightClick, id: id, label: label, point: point)
        case .doubleClick: return Perform(.doubleClick, id: id, label: label, point: point)
        case .middleClick: return Perform(.middleClick, id: id, label: label, point: point)
        case .hold: return Perform(.hold, id: id, label: label, point: point)
        case .wheel(let d): return Perform(.scroll(d), id: id, label: label, point: point)
        case .volumeUp: return Perform(.key("XF86AudioRaiseVolume"), id: id, label: label)
        case .volumeDown: return Perform(.key("XF86AudioLowerVolume"), id: id, label: label)
        case .mute: return Perform(.key("XF86AudioMute"), id: id, label: label)
        case .shortcut(let s): return Perform(.key(s.keys.description), id: id, label: label)
        case .lockScreen: return Perform(.lockScreen, id: id, label: label)
        case .pageScroll(let d, let c): return Perform(.scroll(d), id: c.id, label: c.label)
        case .window(_, let w): return Perform(.activateWindow, id: w.id, label: w.label)
        case .closeWindow(let w): return Perform(.closeWindow, id: w.id, label: w.label)
        default: return nil
        }
    }

    /// What choosing the entry performs on the item; nil for entries that only change the menu or
    /// the scanner (Close, the pages, Back, Drag, the settings, the modes).
    func perform(on item: ScanItem) -> Perform? {
        switch self {
        case .tap: return MenuEntry.activation(of: item)
        case .action(let name): return Perform(.custom(name), id: item.id, label: item.description)
        case .containerAction(let a): return Perform(.custom(a.name), id: a.ownerID, label: a.ownerLabel)
        case .increment: return Perform(.increment, id: item.id, label: item.description)
        case .decrement: return Perform(.decrement, id: item.id, label: item.description)
        case .escape: return Perform(.escape, id: item.id, label: item.description)
        case .snap: return MenuEntry.activation(of: item)
        default: return gesture(id: item.id, label: item.description, at: item.element.effectiveActivationPoint)
        }
    }

    /// What choosing the entry performs on a point: Tap and the gestures act at the point itself
    /// (on the item under it, or the scope when there is none); the item's entries act on the item.
    func perform(at point: Point, on hit: ScanItem?, scopeID: String, scopeLabel: String) -> Perform? {
        let id = hit?.id ?? scopeID, label = hit?.description ?? scopeLabel
        switch self {
        case .tap: return Perform(.tap, id: id, label: label, point: point)
        case .escape: return Perform(.escape, id: id, label: label)
        case .action, .containerAction, .increment, .decrement, .snap: return hit.flatMap { perform(on: $0) }
        default: return gesture(id: id, label: label, at: point)
        }
    }
}

extension MenuEntry {
    /// Every id a profile may name in `menu.hide`, `show` and `top`, with the page that holds it
    /// (nil: the top level). The profile's own shortcuts come from `shortcuts`.
    static func knownIDs(shortcuts: [ProfileShortcut]) -> [(id: String, page: MenuPage?)] {
        var context = MenuContext()
        context.settings.shortcuts = shortcuts
        var ids: [(String, MenuPage?)] = ["menu:tap", "menu:snap", "menu:refine", "menu:pointMode", "menu:itemMode",
                                          "menu:increment", "menu:decrement", "menu:escape", "menu:close", "menu:back"].map { ($0, nil) }
        for page in MenuPage.allCases {
            ids.append((page.id, nil))
            ids += catalog(page, context).map { ($0.id, page) }
        }
        return ids
    }

    /// Ids that can never be hidden: how a person leaves the menu.
    static let unhideable: Set<String> = ["menu:escape", "menu:close", "menu:back"]
}
