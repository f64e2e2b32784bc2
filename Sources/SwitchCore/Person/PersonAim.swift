/// What a person who wants the item `goal` does about the stop highlighted now: press (and with
/// which switch action), or wait for the highlight to come round. The person sees what the
/// transcript shows (the highlight, the menu, the colours) and knows the screen, so the answer
/// reads the active scanner's state:
///
///   highlight on            the goal is there                 the goal is elsewhere
///   the goal item           press                             —
///   a group                 press when it holds the goal      wait
///   a group's escape stop   —                                 press (a correction) when the
///                                                             group does not hold the goal
///   a menu entry            press the goal's activation       press Close (a correction) on
///                           (Tap) when the menu is on it      another item's menu or a page
///   colours                 press the colour holding it       press back's colour (a correction)
///   nothing (stopped)       press (any press restarts)
///   Auto Tap's window, point scanning: wait
public enum PersonAim: Equatable, Sendable {
    case press(SwitchAction, correction: Bool)
    case wait
}

extension Engine {
    /// The person's aim for `goal` (an item id of the model scanned now).
    public func aim(at goal: String) -> PersonAim {
        guard let s = activeScanner else { return .wait }
        switch s.state {
        case .notStarted, .autoTapWindow, .point:
            return .wait
        case .stopped:
            return s.mode == .groupSelection ? .press(.group1, correction: false) : .press(.select, correction: false)
        case .scanning(let c):
            guard let i = s.levels.model.itemIndex(id: goal) else { return .wait }
            return Engine.aim(at: i, levels: s.levels, location: c.location)
        case .menu(let m):
            guard let k = Engine.wantedEntry(m, goal: goal, model: s.levels.model) else { return .wait }
            let aim = Engine.aim(at: k.index, levels: m.levels, location: m.cursor.location)
            if case .press(let a, _) = aim, k.correction { return .press(a, correction: true) }
            return aim
        case .colorGroups(let c):
            let index: Int?
            var correction = false
            switch c.subject {
            case .items: index = s.levels.model.itemIndex(id: goal)
            case .menu(let m):
                let k = Engine.wantedEntry(m, goal: goal, model: s.levels.model)
                index = k?.index
                correction = k?.correction ?? false
            }
            guard let i = index else { return .wait }
            if let run = c.runs.firstIndex(where: { $0.items.contains(i) }), let action = SwitchAction.groups.dropFirst(run).first {
                return .press(action, correction: correction)
            }
            if let back = c.runs.firstIndex(where: \.back), let action = SwitchAction.groups.dropFirst(back).first {
                return .press(action, correction: true)
            }
            return .wait
        }
    }

    /// The stop at `location` of `levels`, for the item at `i`.
    static func aim(at i: Int, levels: ScanLevels, location: StopLocation) -> PersonAim {
        let stop = levels.stop(location)
        if case .group(let g) = location.level, !levels.groups[g].items.contains(i) {
            // Inside a group that does not hold it: out by the escape stop.
            if case .exit(let e) = stop, e == g { return .press(.select, correction: true) }
            return .wait
        }
        switch stop {
        case .item(let j): return j == i ? .press(.select, correction: false) : .wait
        case .group(let g): return levels.groups[g].items.contains(i) ? .press(.select, correction: false) : .wait
        case .exit: return .wait
        }
    }

    /// The menu entry a person who wants `goal` goes for: the goal's activation (Tap, else the
    /// first entry) on the goal's own top-level menu, else Close.
    static func wantedEntry(_ m: Scanner.MenuState, goal: String, model: ScanModel) -> (index: Int, correction: Bool)? {
        let onGoal = m.item.map { model.items[$0].id == goal } ?? false
        if onGoal && m.page == nil {
            if let k = m.entries.firstIndex(where: { $0.id == "menu:tap" }) { return (k, false) }
            return m.entries.isEmpty ? nil : (0, false)
        }
        return m.entries.firstIndex(where: { $0.id == "menu:close" }).map { ($0, true) }
    }
}
