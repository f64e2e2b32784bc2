/// Adaptive timing inside the engine (`AdaptiveTiming`, docs/profiles.md "adaptiveTiming"): at a
/// switch's physical press the engine notes how far into the highlighted stop's dwell it came;
/// when a select reaches the scanner it hands the rule what was selected; a change the rule
/// makes is a `timing` line (and, with speech on, "Slower" or "Faster" said), takes effect from
/// the next highlight in the application's scanner and the keyboard's (unless the keyboard has a
/// scan time of its own), and is kept in the engine's profile, which `run` saves at its end.
extension Engine {
    /// A filter rejected a press: its moment is forgotten (it selects nothing).
    mutating func adaptiveForgetPress() { adaptivePress = nil }

    /// A switch came down: how far into the stop's dwell (auto scanning only).
    mutating func adaptiveNotePress() {
        guard adaptive != nil else { return }
        adaptivePress = activeScanner?.dwellFraction(at: now)
    }

    /// What a select is about to choose (before the scanner acts on it).
    func adaptiveSelection() -> AdaptiveTiming.Selection? {
        guard adaptive != nil, let s = activeScanner, s.style == .auto, let view = s.selectionView else { return nil }
        return AdaptiveTiming.Selection(kind: view.kind, id: view.id, passes: view.passes, fraction: adaptivePress?.fraction, dwell: adaptivePress?.dwell)
    }

    /// The rule hears the selection; a change takes effect.
    mutating func adaptiveSelected(_ selection: AdaptiveTiming.Selection) {
        adaptivePress = nil
        guard let change = adaptive?.selected(selection) else { return }
        profile.scanning.autoScanningTime = change.to
        scanner?.dwell = change.to
        if keyboard != nil, profile.keyboard.autoScanningTime == nil { keyboard!.scanner.dwell = change.to }
        out.append(TranscriptLine(t: now, .adaptiveTiming(change)))
        if profile.scanning.speech {
            noteSpeech(.engine)
            out.append(TranscriptLine(t: now, .speak(change.reason == .slower ? "Slower" : "Faster")))
        }
    }

    /// The person set the scan time from the menu: the rule goes on from there.
    mutating func adaptiveScanTimeSet(_ change: SettingChange) {
        guard adaptive != nil, change.name == "autoScanningTime", case .seconds(let t) = change.to else { return }
        adaptive!.scanTimeSet(t)
    }

    /// The scan time adaptive timing has reached (nil when it is off).
    public var adaptiveScanTime: Interval? { adaptive?.scanTime }
}

extension Scanner {
    /// How far into the highlighted stop's dwell `now` is (0 at the highlight, 1 at its end),
    /// and that dwell's length in seconds; nil without a running dwell.
    func dwellFraction(at now: Instant) -> (fraction: Double, dwell: Double)? {
        let cursor: Cursor
        switch state {
        case .scanning(let c): cursor = c
        case .menu(let m): cursor = m.cursor
        default: return nil
        }
        guard let due = cursor.dwell else { return nil }
        let length = cursor.location.index == 0 ? dwell + pauseOnFirst : dwell
        guard length.microseconds > 0 else { return nil }
        let left = Double((due - now).microseconds) / Double(length.microseconds)
        return (min(max(1 - left, 0), 1), length.seconds)
    }

    /// The stop a select would choose now: its kind, id and the passes its level made.
    var selectionView: (kind: AdaptiveTiming.Selection.Kind, id: String, passes: Int)? {
        switch state {
        case .scanning(let c):
            let stop = levels.stop(c.location)
            let id = levels.highlight(stop).id
            switch stop {
            case .item: return (.item, id, c.passes)
            case .group: return (.group, id, c.passes)
            case .exit: return (.exit, id, c.passes)
            }
        case .menu(let m):
            let stop = m.levels.stop(m.cursor.location)
            let id = m.highlight(stop).id
            switch stop {
            case .item: return (.menuEntry, id, m.cursor.passes)
            case .group: return (.group, id, m.cursor.passes)
            case .exit: return (.exit, id, m.cursor.passes)
            }
        default:
            return nil
        }
    }
}
