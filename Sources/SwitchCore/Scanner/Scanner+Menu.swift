/// The scanner menu as a level like any other (issue 23): the scanner's `menu` state. A menu
/// level (the top level, or one page: Gestures, Device, Shortcuts, Settings) is its entries made
/// into scan levels with the profile's grouping (`ScanLevels` over a model of the entries), so
/// every method works on it as on items: auto, manual and single-switch step scanning, the
/// groups of `auto` grouping with their escape stops, group selection's colours (the entries are
/// the candidates), and the point menu. Each level opens with a `menu` line (`"submenu"` for a
/// page) and a page ends with Back and Close.
///
///                  select (auto/manual)          next/previous  menu    escape                   dwell timer
///   top level      group: enter it · exit: leave  move          close   in a group: leave it;   auto: advance (after `loops`
///                  it · entry: choose it                                else close              passes: close) · step: select
///   page           same                           move          close   in a group: leave it;   same
///                                                                       else Back
///   layout: the item gone → close; its entries (of this page) changed → the level again; else
///   stay. stopScanning stops (menu closed first). In step style select moves and the dwell
///   selects.
///
/// Choosing an entry:
///   a perform (Tap, actions, gestures, keys, Lock screen)   perform, menu closed, resume
///   a page                                                  its menu line, its first entry
///   Back                                                    the top level's menu line, its entry
///                                                           for the page highlighted
///   Faster, Slower                                          setting line; the page stays, the
///                                                           highlight on the same entry
///   Auto scanning, Speech, Sounds                           setting line, menu closed, resume
///   Pause                                                   menu closed; the engine pauses
///   Drag                                                    menu closed, drag line (choosing),
///                                                           resume: the next item or point chosen
///                                                           is the drop target (perform drag)
///   Close; Refine; Point/Item mode                          as before (close; refine; switch)
///
/// Timelines (tests in Tests/SwitchCoreTests/Scanner/ScannerMenuPageTests.swift):
///
///   submenu_opens_page         |menu:gestures ^select menu open menu:gestures on a: … |menu:rightClick
///   submenu_back               |menu:back ^select menu open on a: … |menu:gestures
///   submenu_close              |menu:close ^select menu closed |a
///   submenu_escape_is_back     ^escape in a page: the top level (in a group of it: leave the group)
///   submenu_loops_close        … after `loops` passes of a page: menu closed
///   menu_gesture_*             |menu:rightClick ^select perform rightClick a at (x, y), menu closed, |a
///   menu_key_*                 |menu:shortcut:copy ^select perform key Ctrl+C, menu closed
///   menu_setting_faster        |menu:faster ^select setting autoScanningTime 1.0 → 0.9 |menu:faster
///   menu_setting_toggle_*      |menu:speech ^select setting speech false → true, menu closed, |a
///   menu_pause                 |menu:pause ^select menu closed, (engine) pause, scan stopped
///   menu_drag_*                |menu:drag ^select menu closed, drag choosing, |a … ^select b:
///                              perform drag a from (…) to (…), |resume; escape: drag cancelled
///   menu_grouped_auto          grouping auto: |menu#part1 ^select |menu:tap …
///   menu_group_selection_page  groups blue:menu:tap … ^groupN (page) groups of the page's entries
extension Scanner {
    struct MenuState: Sendable {
        var subject: MenuSubject
        /// The page shown; nil for the top level.
        var page: MenuPage?
        var entries: [MenuEntry]
        /// The entries as scan levels: item k of `levels.model` is `entries[k]`.
        var levels: ScanLevels
        /// Where the highlight is in `levels`, the passes made and the pending dwell.
        var cursor: Cursor
        /// Where the item was highlighted when the menu opened: Close resumes there.
        var origin: StopLocation
        /// The item a menu is on (nil for a point menu).
        var item: Int? { if case .item(let i) = subject { return i } else { return nil } }

        /// A highlight line's id and kind for a stop of the menu: an entry's id (`menuItem`), or
        /// a group of entries (`menu#part1`) and its escape stop.
        func highlight(_ stop: LevelStop) -> (id: String, kind: HighlightKind) {
            if case .item(let k) = stop { return (entries[k].id, .menuItem) }
            return levels.highlight(stop)
        }

        func label(_ stop: LevelStop) -> String {
            if case .item(let k) = stop { return entries[k].spoken }
            return levels.label(stop)
        }

        func spoken(_ stop: LevelStop) -> String {
            if case .item(let k) = stop { return entries[k].spoken }
            return levels.spoken(stop)
        }
    }

    /// The menu's context now: the profile's, with the scanner's current mode and settings.
    var menuContext: MenuContext {
        var c = menuBase
        c.mode = mode
        c.style = style
        c.speech = speech
        c.sounds = sounds
        return c
    }

    /// Whether a subject has a point the gestures can act at.
    func hasPoint(_ subject: MenuSubject) -> Bool {
        switch subject {
        case .item(let i): return model.items[i].element.effectiveActivationPoint != nil
        case .point: return true
        }
    }

    /// The entries of a menu level on `subject`.
    func menuEntries(_ subject: MenuSubject, page: MenuPage?) -> [MenuEntry] {
        var context = menuContext
        // The Scroll page pages the container around the item (or the item under the point).
        switch subject {
        case .item(let i): context.scroll = model.items[i].scrollContainer
        case .point(let choice): context.scroll = choice.hit.map { model.items[$0].scrollContainer } ?? nil
        }
        if let page { return MenuEntry.entries(page: page, context, hasPoint: hasPoint(subject)) }
        switch subject {
        case .item(let i): return MenuEntry.entries(for: model.items[i], context)
        case .point(let choice): return MenuEntry.entries(atPointOn: choice.hit.map { model.items[$0] }, context)
        }
    }

    /// A menu level: its entries as scan levels, the cursor on the first stop.
    func makeMenu(_ subject: MenuSubject, page: MenuPage?, origin: StopLocation) -> MenuState {
        let entries = menuEntries(subject, page: page)
        let children = entries.enumerated().map { k, e in Element(id: String(k), label: e.spoken, traits: [.button]) }
        let tree = ElementTree(screen: Size(width: 0, height: 0), root: Element(id: page?.id ?? "menu", order: .declared, children: children))
        let cost = ScanCostModel(scanTime: dwell, firstItemPause: pauseOnFirst, holdDuration: levels.cost.holdDuration)
        let menuLevels = ScanLevels(model: ScanModel(tree: tree), grouping: levels.grouping, cost: cost)
        return MenuState(subject: subject, page: page, entries: entries, levels: menuLevels,
                         cursor: Cursor(location: .first, passes: 0, dwell: nil), origin: origin)
    }

    mutating func openMenu(item: Int, origin: StopLocation, _ now: Instant, _ out: inout [Output]) {
        cancelDrag(&out)
        showMenu(makeMenu(.item(item), page: nil, origin: origin), now, &out)
    }

    /// A menu level's `menu` line, then its highlight at `location` (or its colours).
    mutating func showMenu(_ m: MenuState, at location: StopLocation = .first, _ now: Instant, _ out: inout [Output]) {
        context += 1
        let names = MenuEntry.names(m.entries)
        switch m.subject {
        case .item(let i):
            out.append(.emit(.menuOpened(id: model.items[i].id, label: model.items[i].description, items: names, submenu: m.page?.id)))
        case .point(let choice):
            let item = choice.hit.map { model.items[$0] }
            out.append(.emit(.pointMenuOpened(point: choice.point, id: item?.id, label: item?.description, items: names, submenu: m.page?.id)))
        }
        if mode == .groupSelection {
            showColors(.menu(m), now, &out)
        } else {
            highlightInMenu(m, location, passes: 0, cause: .menuOpened, now, &out)
        }
    }

    /// Highlights a stop of the menu with a fresh dwell per style and `cause`.
    mutating func highlightInMenu(_ m: MenuState, _ location: StopLocation, passes: Int, cause: HighlightCause,
                                  _ now: Instant, _ out: inout [Output]) {
        var m = m
        let stop = m.levels.stop(location)
        let (id, kind) = m.highlight(stop)
        out.append(.emit(.highlight(id: id, kind: kind, label: m.label(stop))))
        if speech { say(m.spoken(stop), &out) }
        m.cursor = Cursor(location: location, passes: passes, dwell: paced(dwellDeadline(index: location.index, cause: cause, now)))
        state = .menu(m)
    }

    mutating func onMenu(_ m: MenuState, _ event: Event, _ now: Instant, _ out: inout [Output]) {
        switch event {
        case .start:
            break
        case .action(let action, let target):
            switch action {
            case .select:
                if style == .singleSwitchStep {
                    moveInMenu(m, by: 1, now, &out)
                } else {
                    selectInMenu(resolve(target, m), now, &out)
                }
            case .next:
                moveInMenu(m, by: 1, now, &out)
            case .previous:
                moveInMenu(m, by: -1, now, &out)
            case .menu:
                closeMenu(m, now, &out)
            case .escape:
                escapeInMenu(m, now, &out)
            case .stopScanning:
                stop(.switchAction, &out)
            case .resumeScanning, .group1, .group2, .group3, .group4, .group5, .group6:
                break
            }
        case .timer(let id):
            guard id == .dwell, let due = m.cursor.dwell, now >= due else { return }
            var m = m
            m.cursor.dwell = nil
            switch style {
            case .auto: advanceInMenu(m, now, &out)
            case .singleSwitchStep: selectInMenu(m, now, &out)
            case .manual: state = .menu(m)
            }
        case .layout(let model):
            relayout(menu: m, model, now, &out)
        case .speechFinished(let n):
            guard let due = spokenDwellEnd(utterance: n, pending: m.cursor.dwell, now) else { return }
            var m = m
            m.cursor.dwell = due
            state = .menu(m)
        }
    }

    private mutating func moveInMenu(_ m: MenuState, by delta: Int, _ now: Instant, _ out: inout [Output]) {
        let level = m.cursor.location.level
        let n = m.levels.count(level)
        let index = ((m.cursor.location.index + delta) % n + n) % n
        highlightInMenu(m, StopLocation(level: level, index: index), passes: m.cursor.passes, cause: .pressMove, now, &out)
    }

    /// Auto scanning's step in the menu: the next stop; at the end of a pass wrap, or after
    /// `loops` passes close the menu (top of a level) or leave the group.
    private mutating func advanceInMenu(_ m: MenuState, _ now: Instant, _ out: inout [Output]) {
        let c = m.cursor
        let n = m.levels.count(c.location.level)
        guard c.location.index + 1 >= n else {
            return highlightInMenu(m, StopLocation(level: c.location.level, index: c.location.index + 1), passes: c.passes,
                                   cause: .autoAdvance, now, &out)
        }
        let passes = c.passes + 1
        if passes < loops {
            return highlightInMenu(m, StopLocation(level: c.location.level, index: 0), passes: passes, cause: .autoAdvance, now, &out)
        }
        switch c.location.level {
        case .top: closeMenu(m, now, &out)
        case .group(let g): leaveMenuGroup(m, g, now, &out)
        }
    }

    /// The stop under the cursor: enter a group, leave one by its escape stop, choose an entry.
    private mutating func selectInMenu(_ m: MenuState, _ now: Instant, _ out: inout [Output]) {
        switch m.levels.stop(m.cursor.location) {
        case .group(let g):
            context += 1
            highlightInMenu(m, StopLocation(level: .group(g), index: 0), passes: 0, cause: .begin, now, &out)
        case .exit(let g):
            leaveMenuGroup(m, g, now, &out)
        case .item(let k):
            choose(m, k, now, &out)
        }
    }

    private mutating func leaveMenuGroup(_ m: MenuState, _ g: Int, _ now: Instant, _ out: inout [Output]) {
        context += 1
        highlightInMenu(m, m.levels.location(ofGroup: g), passes: 0, cause: .begin, now, &out)
    }

    /// The escape switch in the menu: out of a group of entries, else Back from a page, else close.
    private mutating func escapeInMenu(_ m: MenuState, _ now: Instant, _ out: inout [Output]) {
        if case .group(let g) = m.cursor.location.level { return leaveMenuGroup(m, g, now, &out) }
        if m.page != nil { return back(m, now, &out) }
        closeMenu(m, now, &out)
    }

    /// From a page to the top level, with the page's entry highlighted.
    private mutating func back(_ m: MenuState, _ now: Instant, _ out: inout [Output]) {
        let top = makeMenu(m.subject, page: nil, origin: m.origin)
        let k = m.page.flatMap { top.entries.firstIndex(of: .submenu($0)) }
        showMenu(top, at: k.map { top.levels.location(ofItem: $0) } ?? .first, now, &out)
    }

    /// Close, the menu switch in the menu, escape in the menu, loops in the menu: back to the item
    /// (item scanning), to a new sweep (point), to the first colours (group selection).
    mutating func closeMenu(_ m: MenuState, _ now: Instant, _ out: inout [Output]) {
        out.append(.emit(.menuClosed))
        context += 1
        switch (mode, m.subject) {
        case (.item, .item): highlight(m.origin, passes: 0, cause: .begin, now, &out)
        default: resume(from: m.origin, now, &out)
        }
    }

    /// Chooses entry k (see the header's table), all at `now`.
    mutating func choose(_ m: MenuState, _ k: Int, _ now: Instant, _ out: inout [Output]) {
        var m = m
        m.cursor.location = m.levels.location(ofItem: k)
        let entry = m.entries[k]
        switch entry {
        case .refine:
            guard case .point(let choice) = m.subject else { return closeMenu(m, now, &out) }
            out.append(.emit(.menuClosed))
            context += 1
            startRefine(choice, now, &out)
        case .pointMode, .itemMode:
            out.append(.emit(.menuClosed))
            switchMode(to: entry == .pointMode ? .point : .item, now, &out)
        case .submenu(let page):
            showMenu(makeMenu(m.subject, page: page, origin: m.origin), now, &out)
        case .back:
            back(m, now, &out)
        case .close:
            closeMenu(m, now, &out)
        case .faster, .slower:
            changeScanTime(faster: entry == .faster, &out)
            // The page stays, on the same entry, so a second press changes it again; no dwell
            // runs in step style (waiting must not change it again).
            context += 1
            if mode == .groupSelection {
                showColors(.menu(m), now, &out)
            } else {
                highlightInMenu(m, m.cursor.location, passes: 0, cause: .begin, now, &out)
            }
        case .autoScanning, .speech, .sounds:
            toggle(entry, &out)
            out.append(.emit(.menuClosed))
            resume(from: m.origin, now, &out)
        case .pause:
            // The engine pauses now (its pause line, then stopScanning stops scanning); until
            // then the highlight rests where the menu was opened, without a timer.
            out.append(.emit(.menuClosed))
            context += 1
            state = .scanning(Cursor(location: m.origin, passes: 0, dwell: nil))
            out.append(.pauseRequested)
        case .keyboard:
            // The engine opens the keyboard over the application; the highlight rests where the
            // menu was opened, without a timer, until scanning comes back to the field.
            out.append(.emit(.menuClosed))
            context += 1
            state = .scanning(Cursor(location: m.origin, passes: 0, dwell: nil))
            if case .item(let i) = m.subject { out.append(.keyboardRequested(id: levels.model.items[i].id)) }
        case .drag:
            startDrag(m, now, &out)
        default:
            guard let perform = self.perform(entry, on: m.subject) else { return closeMenu(m, now, &out) }
            if case .pageScroll(_, let c) = entry {
                scrolled = (c.id, now)
            }
            if case .item(let i) = m.subject, perform.action == .activate || perform.action == .tap { noteActivation(of: i, now) }
            out.append(.emit(.perform(perform)))
            out.append(.emit(.menuClosed))
            resume(from: m.origin, now, &out)
        }
    }

    /// What a menu entry performs on its subject; nil for the entries that do not perform.
    func perform(_ entry: MenuEntry, on subject: MenuSubject) -> Perform? {
        switch subject {
        case .item(let i):
            return entry.perform(on: levels.model.items[i])
        case .point(let choice):
            return entry.perform(at: choice.point, on: choice.hit.map { levels.model.items[$0] }, scopeID: levels.model.scopeID, scopeLabel: levels.model.scopeLabel)
        }
    }

    private func resolve(_ target: ScanTarget?, _ m: MenuState) -> MenuState {
        let level = m.cursor.location.level
        guard let t = target, t.context == context, t.index >= 0, t.index < m.levels.count(level) else { return m }
        let location = StopLocation(level: level, index: t.index)
        guard m.highlight(m.levels.stop(location)) == (t.id, t.kind) else { return m }
        var m = m
        m.cursor.location = location
        return m
    }

    // MARK: - Layout changes

    mutating func relayout(menu m: MenuState, _ model: ScanModel, _ now: Instant, _ out: inout [Output]) {
        let old = replaceModel(model)
        guard case .item(let i) = m.subject else { return relayout(pointMenu: m, old, now, &out) }
        if levels.isEmpty { return stop(.noItems, &out) }
        let id = old.model.items[i].id
        guard let j = levels.model.itemIndex(id: id) else {
            out.append(.emit(.menuClosed))
            highlight(relocate(m.origin, from: old), passes: 0, cause: .begin, now, &out)
            return
        }
        let origin = levels.location(ofItem: j)
        if menuEntries(.item(j), page: m.page) == m.entries {
            var m = m
            m.subject = .item(j)
            m.origin = origin
            state = .menu(m)
        } else {
            showMenu(makeMenu(.item(j), page: m.page, origin: origin), now, &out)
        }
    }

    /// A layout while the point menu is open: the item under the point may have changed.
    mutating func relayout(pointMenu m: MenuState, _ old: ScanLevels, _ now: Instant, _ out: inout [Output]) {
        guard case .point(var choice) = m.subject else { return }
        choice.hit = model.hitTest(choice.point)
        let sameHit = choice.hit.map { model.items[$0].id } == (m.subject.pointHit.map { old.model.items[$0].id })
        if menuEntries(.point(choice), page: m.page) == m.entries && sameHit {
            var kept = m
            kept.subject = .point(choice)
            state = .menu(kept)
        } else {
            showMenu(makeMenu(.point(choice), page: m.page, origin: .first), now, &out)
        }
    }
}

extension Scanner.MenuSubject {
    var pointHit: Int? { if case .point(let c) = self { return c.hit } else { return nil } }
}
