import SwitchCore

/// The figures of one session, read from its transcript (docs/clinicians.md "Pictures for clinicians"):
///
/// - a **press** is one physical press of a switch as its filters decided it: accepted (its
///   action fired; a long press counts here too) or rejected (hold duration, ignore repeat,
///   debounce). A key's autorepeat events are not presses; they are counted apart.
/// - a **selection** is a perform that is not an escape: an activation (by a switch or a touch),
///   a custom action, an increment or a decrement, a gesture (right, double or middle click, hold,
///   drag, scroll) or a key from the scanner menu, Lock screen. **Escapes** are counted apart; a
///   setting changed from the menu is not a selection.
/// - **time to a selection**: from the previous perform (or from the start of scanning, or a
///   restart after it stopped) to the selection.
/// - a **miss** is a selection whose next perform is an escape or undoes it: an increment
///   followed by a decrement of the same element (or the reverse), a custom action named "Undo",
///   or a second activation of the same on/off element (its value is on, off, checked, not
///   checked, mixed, 0 or 1). "Immediate": nothing else was performed in between, however long
///   it took.
/// - **selections per minute**: selections over the session's length (t = 0 to its end).
public struct SessionFigures: Sendable {
    public struct Selection: Sendable, Equatable {
        public var t: Instant
        public var perform: Perform
        /// From the previous perform, or the (re)start of scanning.
        public var timeToSelect: Interval
        public var miss: Miss?
    }

    public enum Miss: Sendable, Equatable {
        case escaped(at: Instant)
        case undone(by: Perform, at: Instant)
    }

    public struct SwitchCount: Sendable, Equatable {
        public var name: String
        public var accepted = 0
        public var rejected = 0
    }

    public var duration: Interval
    public var presses = 0
    public var accepted = 0
    public var rejected = 0
    public var longPresses = 0
    /// Rejections by reason, in the order of `FilterDecision.RejectReason`'s cases that occurred.
    public var rejectedBy: [FilterDecision.RejectReason: Int] = [:]
    /// Key autorepeat events while a switch was held (not presses).
    public var keyRepeats = 0
    /// Per switch, in order of first appearance.
    public var switches: [SwitchCount] = []
    public var touchTaps = 0
    public var touchSwipes = 0
    public var touchHolds = 0
    /// Contacts passed live to the virtual touchscreen (touch passthrough).
    public var touchGestures = 0
    public var touchRejected = 0
    /// The selections, each with its time and miss, while they are kept (`keepsSelections`):
    /// a report lists those of its first 10,000 highlights; the counts below cover them all.
    public var selections: [Selection] = []
    /// Every selection of the session, and the misses and time to select among them.
    public var selectionCount = 0
    public private(set) var missCount = 0
    private var totalTimeToSelect: Int64 = 0
    public var escapes = 0
    /// Menus that closed without performing anything (Close, escape, the menu switch, loops).
    public var menusClosedWithoutAction = 0
    /// Selections are added to `selections` (a report stops keeping them past its detailed part,
    /// so the figures' memory does not grow with the recording).
    public var keepsSelections = true

    // The reading's state between lines.
    private let isToggle: @Sendable (String) -> Bool
    private var attemptStart = Instant.zero
    /// The selection the next perform decides about, and its index in `selections` when kept.
    private var pending: (selection: Selection, index: Int?)?
    private var menuOpen = false
    private var menuPerformed = false

    public var misses: Int { missCount }

    public var selectionsPerMinute: Double? {
        duration.microseconds > 0 ? Double(selectionCount) * 60_000_000 / Double(duration.microseconds) : nil
    }

    public var averageTimeToSelect: Interval? {
        guard selectionCount > 0 else { return nil }
        return Interval(microseconds: (totalTimeToSelect + Int64(selectionCount) / 2) / Int64(selectionCount))
    }

    /// - Parameters:
    ///   - end: when the session ended (its length is `end` − 0).
    ///   - isToggle: whether the element with this id is an on/off element (a second activation
    ///     of it undoes the first).
    public init(_ lines: [TranscriptLine], end: Instant, isToggle: @escaping @Sendable (String) -> Bool = { _ in false }) {
        self.init(isToggle: isToggle)
        for line in lines { observe(line) }
        finish(end: end)
    }

    /// Figures read line by line (`observe`), for a session too long to hold: `finish` sets the
    /// length at the end.
    public init(isToggle: @escaping @Sendable (String) -> Bool = { _ in false }) {
        self.isToggle = isToggle
        duration = .zero
    }

    public mutating func finish(end: Instant) {
        duration = Interval(microseconds: max(0, end.microseconds))
    }

    public mutating func observe(_ line: TranscriptLine) {
        switch line.event {
        case .scan(let started):
            if started { attemptStart = line.t }
        case .filter(let f):
            var k = switches.firstIndex { $0.name == f.switchName }
            switch f.decision {
            case .rejected(.autorepeat):
                keyRepeats += 1
                return
            case .accepted, .longPress:
                presses += 1
                accepted += 1
                if case .longPress = f.decision { longPresses += 1 }
                if k == nil { switches.append(SwitchCount(name: f.switchName)); k = switches.count - 1 }
                switches[k!].accepted += 1
            case .rejected(let reason):
                presses += 1
                rejected += 1
                rejectedBy[reason, default: 0] += 1
                if k == nil { switches.append(SwitchCount(name: f.switchName)); k = switches.count - 1 }
                switches[k!].rejected += 1
            }
        case .touch(let d):
            switch d.decision {
            case .tap, .passedTap: touchTaps += 1
            case .gesture: touchGestures += 1
            case .swipe: touchSwipes += 1
            case .hold: touchHolds += 1
            case .rejected: touchRejected += 1
            }
        case .menuOpened, .pointMenuOpened:
            menuOpen = true
            menuPerformed = false
        case .menuClosed:
            if menuOpen && !menuPerformed { menusClosedWithoutAction += 1 }
            menuOpen = false
        case .perform(let p):
            if menuOpen { menuPerformed = true }
            if let (selection, index) = pending {
                var miss: Miss?
                if p.action == .escape {
                    miss = .escaped(at: line.t)
                } else if Self.undoes(p, selection.perform, isToggle: isToggle) {
                    miss = .undone(by: p, at: line.t)
                }
                if let miss {
                    missCount += 1
                    if let index { selections[index].miss = miss }
                }
            }
            if p.action == .escape {
                escapes += 1
                pending = nil
            } else {
                let selection = Selection(t: line.t, perform: p, timeToSelect: line.t - attemptStart, miss: nil)
                selectionCount += 1
                totalTimeToSelect += selection.timeToSelect.microseconds
                if keepsSelections {
                    selections.append(selection)
                    pending = (selection, selections.count - 1)
                } else {
                    pending = (selection, nil)
                }
            }
            attemptStart = line.t
        case .highlight, .speak, .device, .pause, .colorGroups, .sweep, .point, .mode, .result, .tree, .layoutLoaded, .typed, .keyboard, .typeResult, .adaptiveTiming:
            break
        case .scanStopped:
            break
        case .setting, .drag:
            break  // A setting is not a selection (issue 23); a drag counts at its perform.
        }
    }

    /// Whether `next` undoes `selection` (see the type's comment).
    static func undoes(_ next: Perform, _ selection: Perform, isToggle: (String) -> Bool) -> Bool {
        if case .custom(let name) = next.action, name.trimmed.lowercased() == "undo" { return true }
        guard next.id == selection.id else { return false }
        switch (selection.action, next.action) {
        case (.increment, .decrement), (.decrement, .increment): return true
        case (.activate, .activate): return isToggle(selection.id)
        default: return false
        }
    }

    /// Values of on/off elements (iOS switches, Android checkables, Chromium checkboxes).
    static let toggleValues: Set<String> = ["on", "off", "checked", "not checked", "mixed", "0", "1"]

    /// `isToggle` for the elements of these trees (any of them).
    public static func toggles(in trees: [ElementTree]) -> @Sendable (String) -> Bool {
        var ids = Set<String>()
        func visit(_ e: Element) {
            if let v = e.value?.trimmed.lowercased(), toggleValues.contains(v) { ids.insert(e.id) }
            for c in e.children { visit(c) }
        }
        for t in trees { visit(t.root) }
        let found = ids
        return { found.contains($0) }
    }
}
