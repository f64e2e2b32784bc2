/// Group selection (profile `"mode": "groupSelection"`, switches `group1` … `groupk`, k = 2…6):
/// the scanner's `colorGroups` state. The candidates of a level (the scan items, or the entries of
/// an item's menu) are cut into at most k colour runs by `ColorGroups`; the switch of a colour
/// narrows to its run, until one candidate is left. Below the first level the last colour holds
/// **back**: alone, it returns to the level before; with items, its level's back keeps meaning
/// the same, so following back's colour always leads out (Android's escape leaf, last on every
/// path). The escape switch goes back exactly one level. No timer runs: nothing moves until a
/// press.
///
///                   groupN                      escape                 menu        layout
///   items, level 0  narrow / choose the item    perform escape on      ignored     same ids: keep,
///                   (its menu, Auto Tap or tap)  the scope, colours                else colours again
///   items, level n  narrow / choose / back      back                   ignored     as above
///   menu, level 0   narrow / choose the entry   close the menu         close       item gone: close
///   menu, level n   narrow / choose / back      back                   close       entries changed:
///                                                                                  reopen
///   A press on a colour that shows nothing, select, next, previous, resumeScanning: ignored;
///   stopScanning stops (the menu closes first). Stopped: any group switch restarts.
///
/// Timelines (tests in Tests/SwitchCoreTests/Scanner/ScannerGroupSelectionTests.swift):
///
///   groups_narrow_then_choose   groups blue:a b | red:c d | green:e f  ^group2  groups blue:c |
///                               red:d | green:(back)  ^group1  highlight item c, menu opened …
///   groups_back_returns         … ^group3 (back alone)  groups (the level before the run that
///                               first held back)
///   groups_escape_action        ^escape: back one level; at the first level: perform escape
///   groups_menu_in_colors       menu open on c: … groups blue:menu:tap … ^groupN perform, closed,
///                               groups (first level again)
///   groups_likely_items         an item chosen before weighs more: it lands in a smaller run
///   groups_ignore_*             an empty colour, select/next/previous: nothing
///   groups_layout_*             same ids: no line · changed: first level again · menu item gone:
///                               menu closed
extension Scanner {
    struct ColorState: Sendable {
        enum Subject: Sendable {
            case items
            case menu(MenuState)
        }

        /// A level entered: its candidates, and how many levels its back keeps.
        struct Level: Sendable, Equatable {
            var items: Range<Int>
            var backTo: Int
        }

        var subject: Subject
        /// The levels entered, outermost first; empty at the first level (the whole base).
        var stack: [Level]
        var runs: [ColorGroups.Run]
    }

    /// The first level of `subject`, its colours emitted.
    mutating func showColors(_ subject: ColorState.Subject, _ now: Instant, _ out: inout [Output]) {
        showLevel(ColorState(subject: subject, stack: [], runs: []), &out)
    }

    /// The base candidates' ids and labels.
    private mutating func colorNames(_ subject: ColorState.Subject) -> [MenuEntryName] {
        switch subject {
        case .items:
            if let key = model.shapeKey, let known = itemNames, known.key == key { return known.names }
            let names = model.items.map { MenuEntryName(id: $0.id, label: $0.description) }
            if let key = model.shapeKey { itemNames = (key, names) }
            return names
        case .menu(let m): return MenuEntry.names(m.entries)
        }
    }

    /// Shows the level on top of `c.stack` (the whole base when empty).
    private mutating func showLevel(_ c: ColorState, _ out: inout [Output]) {
        var c = c
        let names = colorNames(c.subject)
        let ids = names.map(\.id)
        let weights: [Double]
        switch c.subject {
        case .items: weights = ids.map { 1 + Double(uses[$0] ?? 0) }
        case .menu: weights = Array(repeating: 1, count: ids.count)
        }
        // The cut of the last level shown, while the weights are the same (the levels of one
        // choice, a keyboard shown again after a key): what it computed for its intervals holds.
        var split: ColorGroups
        if let last = lastColorSplit, last.k == max(2, groupSwitches), last.weights == weights {
            split = last
            lastColorSplit = nil  // not shared while it grows
        } else {
            split = ColorGroups(weights: weights, switches: groupSwitches)
            split.costs = colorCosts
        }
        c.runs = split.runs(c.stack.last?.items ?? 0..<ids.count, back: !c.stack.isEmpty)
        lastColorSplit = split
        context += 1
        out.append(.emit(.colorGroups(c.runs.enumerated().map { n, run in
            ColorGroupLine(color: ColorGroups.colorNames[n], ids: Array(ids[run.items]),
                           labels: names[run.items].map(\.label), back: run.back)
        })))
        state = .colorGroups(c)
    }

    mutating func onColorGroups(_ c: ColorState, _ event: Event, _ now: Instant, _ out: inout [Output]) {
        switch event {
        case .start:
            break
        case .action(let action, _):
            switch action {
            case .group1, .group2, .group3, .group4, .group5, .group6:
                pick(c, action.groupIndex!, now, &out)
            case .escape:
                back(c, now, &out)
            case .menu:
                if case .menu(let m) = c.subject { closeMenu(m, now, &out) }
            case .stopScanning:
                stop(.switchAction, &out)
            case .select, .next, .previous, .resumeScanning:
                break  // The colours are the switches.
            }
        case .timer:
            break  // None is set.
        case .layout(let model):
            relayout(colors: c, model, now, &out)
        case .speechFinished:
            break  // No dwell waits for speech here.
        }
    }

    private mutating func pick(_ c: ColorState, _ n: Int, _ now: Instant, _ out: inout [Output]) {
        guard n < c.runs.count else { return }  // That colour shows nothing.
        let run = c.runs[n]
        if run.isBackOnly {
            var out2 = c
            out2.stack.removeLast(c.stack.count - (c.stack.last?.backTo ?? 0))
            return showLevel(out2, &out)
        }
        if run.items.count == 1 && !run.back {
            return chosen(c, run.items.lowerBound, now, &out)
        }
        var next = c
        // Back in this run keeps its meaning; a run without it gets a back to this level.
        let backTo = run.back ? (c.stack.last?.backTo ?? 0) : c.stack.count
        next.stack.append(ColorState.Level(items: run.items, backTo: backTo))
        showLevel(next, &out)
    }

    /// One candidate left: the item is selected (by tap behaviour), the entry chosen.
    private mutating func chosen(_ c: ColorState, _ k: Int, _ now: Instant, _ out: inout [Output]) {
        switch c.subject {
        case .items:
            uses[model.items[k].id, default: 0] += 1
            context += 1
            emitHighlight(.item(k), &out)
            selectItem(k, at: levels.location(ofItem: k), moved: false, now, &out)
        case .menu(let m):
            out.append(.emit(.highlight(id: m.entries[k].id, kind: .menuItem, label: m.entries[k].spoken)))
            if speech { say(m.entries[k].spoken, &out) }
            choose(m, k, now, &out)
        }
    }

    /// The escape switch: back one level; at the first level, escape (items) or close (menu).
    private mutating func back(_ c: ColorState, _ now: Instant, _ out: inout [Output]) {
        if !c.stack.isEmpty {
            var previous = c
            previous.stack.removeLast()
            return showLevel(previous, &out)
        }
        switch c.subject {
        case .items:
            if dragging != nil {
                cancelDrag(&out)
            } else {
                out.append(.emit(.perform(Perform(.escape, id: model.scopeID, label: model.scopeLabel))))
            }
            resume(from: .first, now, &out)
        case .menu(let m):
            // In a page, back to the top level (as the escape switch in a scanned menu).
            if m.page != nil {
                showMenu(makeMenu(m.subject, page: nil, origin: m.origin), now, &out)
            } else {
                closeMenu(m, now, &out)
            }
        }
    }

    private mutating func relayout(colors c: ColorState, _ model: ScanModel, _ now: Instant, _ out: inout [Output]) {
        let old = replaceModel(model)
        if levels.isEmpty { return stop(.noItems, &out) }
        switch c.subject {
        case .items:
            if old.model.items.map(\.id) == model.items.map(\.id) {
                state = .colorGroups(c)
            } else {
                showColors(.items, now, &out)
            }
        case .menu(let m):
            guard let i = m.item, let j = model.itemIndex(id: old.model.items[i].id) else {
                out.append(.emit(.menuClosed))
                return showColors(.items, now, &out)
            }
            var moved = m
            moved.subject = .item(j)
            moved.origin = levels.location(ofItem: j)
            if menuEntries(.item(j), page: m.page) == m.entries {
                var same = c
                same.subject = .menu(moved)
                state = .colorGroups(same)
            } else {
                showMenu(makeMenu(.item(j), page: m.page, origin: moved.origin), now, &out)
            }
        }
    }
}
