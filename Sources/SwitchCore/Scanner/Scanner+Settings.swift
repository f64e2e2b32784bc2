/// What the person changes from the menu's Settings page, and Drag's second choice (issue 23).
///
/// Settings take effect at once and are a `setting` line named by the profile's key
/// (`scanning.<name>`): Faster and Slower move `autoScanningTime` by `menu.speedStep` within
/// 0.1–60 s (at a bound: a line that says so, `limit`); Auto scanning switches the style between auto and manual;
/// Speech and Sounds switch `speech` and `soundEffects`. The engine keeps its profile in step and
/// the live shell saves it.
///
/// Drag (timeline `menu_drag_*` in Scanner+Menu.swift): the menu closes, a `drag` line says what
/// is dragged and from where, and scanning resumes; the next item selected (item scanning, group
/// selection) or point chosen (point scanning) is where it drops: one `perform drag` from the
/// first point to the second (the drop needs no menu, Auto Tap or Always Tap). No button is held
/// while the person scans. Escape at the top level (or the first step of point scanning, or the
/// first colours), opening a menu, or scanning stopping gives the drag up (`drag cancelled`).
extension Scanner {
    /// The bounds of `autoScanningTime` (the profile's range).
    static let scanTimeRange = Interval.seconds(0.1)...Interval.seconds(60)

    /// Faster or Slower: the scan time one `speedStep` shorter or longer, kept within range. At
    /// the end of the range nothing changes, and the person is told (a `setting` line with its
    /// limit, and in speech "Fastest already"), as every other setting answers its entry.
    mutating func changeScanTime(faster: Bool, _ out: inout [Output]) {
        let step = menuBase.settings.speedStep
        let wanted = faster ? Interval(microseconds: dwell.microseconds - step.microseconds) : dwell + step
        let new = min(max(wanted, Scanner.scanTimeRange.lowerBound), Scanner.scanTimeRange.upperBound)
        guard new != dwell else {
            let limit: SettingChange.Limit = faster ? .fastest : .slowest
            out.append(.emit(.setting(SettingChange("autoScanningTime", from: .seconds(dwell), to: .seconds(dwell), limit: limit))))
            if speech { say(faster ? "Fastest already" : "Slowest already", &out) }
            return
        }
        out.append(.emit(.setting(SettingChange("autoScanningTime", from: .seconds(dwell), to: .seconds(new)))))
        dwell = new
    }

    /// Auto scanning, Speech, Sounds: the setting turned the other way.
    mutating func toggle(_ entry: MenuEntry, _ out: inout [Output]) {
        switch entry {
        case .autoScanning:
            let new: ScanningSettings.Style = style == .manual ? .auto : .manual
            out.append(.emit(.setting(SettingChange("style", from: .text(style.rawValue), to: .text(new.rawValue)))))
            style = new
        case .speech:
            out.append(.emit(.setting(SettingChange("speech", from: .bool(speech), to: .bool(!speech)))))
            speech.toggle()
        case .sounds:
            out.append(.emit(.setting(SettingChange("soundEffects", from: .bool(sounds), to: .bool(!sounds)))))
            sounds.toggle()
        default:
            break
        }
    }

    // MARK: - Drag

    /// Drag chosen in menu `m`: its subject is what is dragged.
    mutating func startDrag(_ m: MenuState, _ now: Instant, _ out: inout [Output]) {
        let from: DragChange?
        switch m.subject {
        case .item(let i):
            let item = model.items[i]
            from = item.element.effectiveActivationPoint.map { DragChange(.choosing, id: item.id, label: item.description, from: $0) }
        case .point(let choice):
            let item = choice.hit.map { model.items[$0] }
            from = DragChange(.choosing, id: item?.id ?? model.scopeID, label: item?.description ?? model.scopeLabel, from: choice.point)
        }
        out.append(.emit(.menuClosed))
        if let from {
            dragging = from
            out.append(.emit(.drag(from)))
            if speech { say("Choose where to drop", &out) }
        }
        resume(from: m.origin, now, &out)
    }

    /// Gives the pending drag up, with its line.
    mutating func cancelDrag(_ out: inout [Output]) {
        guard var d = dragging else { return }
        dragging = nil
        d.state = .cancelled
        out.append(.emit(.drag(d)))
    }

    /// The drop: one perform from the drag's point to `to`; nil when no drag is pending.
    mutating func drop(at to: Point) -> Perform? {
        guard let d = dragging else { return nil }
        dragging = nil
        return Perform(.drag(from: d.from, to: to), id: d.id, label: d.label)
    }
}
