/// What the engine reports: the transcript a clinician reads and the tests compare. The live loop
/// and the simulator print the same lines (docs/transcript.md).
public struct TranscriptLine: Equatable, Sendable, CustomStringConvertible {
    public var t: Instant
    public var event: TranscriptEvent

    public init(t: Instant, _ event: TranscriptEvent) {
        self.t = t
        self.event = event
    }

    public var description: String { TranscriptFormat.text(self, ids: true) }
}

public enum TranscriptEvent: Equatable, Sendable {
    /// Scanning started (t = 0, or a restart after it stopped) or stopped.
    case scan(started: Bool)
    /// A stop is highlighted. `label` names it for people (docs/transcript.md): an item's
    /// description, a group's (also for its escape stop), a menu entry's name.
    case highlight(id: String, kind: HighlightKind, label: String)
    /// The scanner menu opened on an item (`label`: its description), with its entries;
    /// `submenu`: the page's id (`menu:gestures`) when a submenu opened, nil for the top level.
    case menuOpened(id: String, label: String, items: [MenuEntryName], submenu: String? = nil)
    case menuClosed
    case perform(Perform)
    case speak(String)
    /// A switch-filter decision (docs/profiles.md "Filters").
    case filter(FilterDecision)
    /// A touch-filter decision.
    case touch(TouchDecision)
    /// A device went away or came back (live engine only).
    case device(DeviceChange)
    /// What a perform did on the live desktop: the performer's answer to a `perform` line, at the
    /// same instant (live desktop only).
    case result(PerformResult)
    /// The live desktop's tree changed source: another window, the application quit, or it stopped
    /// answering (live desktop only).
    case tree(TreeSourceChange)
    /// The safety exit paused or resumed the engine (docs/live.md "Safety exit").
    case pause(PauseChange)
    /// Group selection: what each colour holds now (docs/scanning.md "Scanning methods").
    case colorGroups([ColorGroupLine])
    /// Point scanning: a band or line starts moving, or stops.
    case sweep(Sweep)
    /// Point scanning chose a point; `id`, `label`: the scan item under it, if any.
    case point(Point, id: String?, label: String?)
    /// The scanner menu opened on a point (`id`, `label`: the scan item under it, whose actions
    /// it offers), with its entries; `submenu` as for `menuOpened`.
    case pointMenuOpened(point: Point, id: String?, label: String?, items: [MenuEntryName], submenu: String? = nil)
    /// Item or point mode (or group selection) began, from the scanner menu.
    case mode(ScanningSettings.Mode)
    // Issue 23: the person's own controls.
    /// The person changed a setting from the scanner menu's Settings; it took effect at once.
    case setting(SettingChange)
    /// Drag: the scanner waits for the drop target (chosen by scanning), or gave it up.
    case drag(DragChange)

    // Issue 22 (bad input, round three): nothing a run does goes unsaid.
    /// Scanning stopped by itself, and why (`{"type":"scan","state":"stopped","reason":"noItems"}`):
    /// the tree, or a layout, has nothing to scan. A user's stop and the end of `loops` stay
    /// `scan(started: false)`.
    case scanStopped(ScanStopReason)
    /// A layout change loaded the tree of `file` (`{"type":"tree","change":"layout","file":"B.json"}`):
    /// `simulate --layout SECONDS:FILE`, `run`'s re-read on SIGHUP.
    case layoutLoaded(file: String)

    // Issue 18, the scanning keyboard (docs/typing.md):
    /// A piece typed into the field (a key or a chosen word): `{"type":"type","text":"hello "}`.
    case typed(TypedText)
    /// The keyboard opened, closed, changed page or shift, or has new predictions.
    case keyboard(KeyboardChange)
    /// What the field holds after a `type` line, read back from the application (live desktop):
    /// `{"type":"result","action":"type",…,"text":"hello "}`.
    case typeResult(TypeResult)

    // Issue 31, the person's own timing:
    /// Adaptive timing changed the scan time (`{"type":"timing","name":"autoScanningTime",
    /// "from":1.0,"to":1.05,"reason":"slower",…}`), and the window of selections that decided it.
    case adaptiveTiming(AdaptiveTimingChange)
}

extension TranscriptEvent {
    /// Whether scanning stops with this line (a highlight it showed is gone).
    public var stopsScanning: Bool {
        switch self {
        case .scan(started: false), .scanStopped: return true
        default: return false
        }
    }
}

/// Why scanning stopped by itself.
public enum ScanStopReason: String, Sendable {
    /// Nothing to scan: no scan items (every element disabled, only static text, an empty modal
    /// view), or no screen for point scanning. A layout with items starts scanning again.
    case noItems
}

/// A setting changed from the scanner menu (`{"type":"setting","name":"autoScanningTime",
/// "from":1.0,"to":1.1}`). `name` is the setting's key in the profile's `scanning` section.
/// Faster or Slower at the end of the range changes nothing and says so: `to` is `from`, and
/// `limit` says which end (`{"type":"setting","name":"autoScanningTime","from":0.1,"to":0.1,
/// "limit":"fastest"}`).
public struct SettingChange: Equatable, Sendable {
    public enum Value: Equatable, Sendable {
        case seconds(Interval)
        case bool(Bool)
        case text(String)
    }

    /// The end of the range a setting is already at.
    public enum Limit: String, Sendable {
        case fastest, slowest
    }

    public var name: String
    public var from: Value
    public var to: Value
    public var limit: Limit?

    public init(_ name: String, from: Value, to: Value, limit: Limit? = nil) {
        self.name = name
        self.from = from
        self.to = to
        self.limit = limit
    }
}

/// Drag from the scanner menu: after Drag is chosen on an item or a point, the next item or point
/// chosen by scanning is where it drops (no button is held meanwhile: the whole drag is one
/// perform at the end); escape or the end of scanning gives it up.
public struct DragChange: Equatable, Sendable {
    public enum State: String, Sendable {
        /// Waiting for the drop target.
        case choosing
        /// Given up (escape, scanning stopped); nothing was dragged.
        case cancelled
    }

    public var state: State
    /// What is dragged: its id, description and the point the drag starts from.
    public var id: String
    public var label: String
    public var from: Point

    public init(_ state: State, id: String, label: String, from: Point) {
        self.state = state
        self.id = id
        self.label = label
        self.from = from
    }
}

/// Where a scroll goes: a wheel gesture at a point (up, down, left, right) or, for a scroll
/// container, a page at a time or to either end (top, bottom). JSON: `"direction":"down"`.
public enum ScrollDirection: String, Sendable, CaseIterable {
    case up, down, left, right, top, bottom
}

/// One edit of the field by the keyboard. A password's text is kept here (the live shell types
/// it) and written as one • per character by every renderer.
public struct TypedText: Equatable, Sendable {
    public var edit: KeyboardText.Edit
    /// The key (`key:q`) or predicted word (`kbd:word:hello`) that made it.
    public var key: String
    /// A password field: never shown.
    public var secure: Bool

    public init(_ edit: KeyboardText.Edit, key: String, secure: Bool = false) {
        self.edit = edit
        self.key = key
        self.secure = secure
    }

    /// The text as the transcript may show it.
    public var shownText: String { shown(edit.text, secure: secure) }
}

/// `text` as a transcript may show it: a password's as one • per character.
private func shown(_ text: String, secure: Bool) -> String {
    secure ? String(repeating: "•", count: text.count) : text
}

public enum KeyboardChange: Equatable, Sendable {
    /// Opened on a field (`id`, `label`; nil when no field is known), on `page` of `layout`.
    case opened(layout: String, page: String, id: String?, label: String?, password: Bool)
    /// Closed; scanning goes back to the field.
    case closed
    case page(String)
    case shift(KeyboardText.Shift)
    /// The words the prediction row shows now.
    case predictions([String])
    /// Prediction failed (the library died, a timeout): the keyboard goes on without it.
    case predictionsFailed(String)
    /// Learning could not do all it should (said once a session; typing goes on).
    case learning(LearningNotice)
}

/// What learning says once a session (docs/typing.md "Learning"), in the transcript and on
/// stderr: `failed` (the person's words or model cannot be read or written: the reason, and
/// what goes on without them) or `full` (their words reached `UserWords.maximumWords`, and the
/// least useful make room for new ones).
public struct LearningNotice: Equatable, Sendable {
    public enum State: String, Sendable { case failed, full }

    public var state: State
    public var reason: String

    public init(_ state: State, _ reason: String) {
        self.state = state
        self.reason = reason
    }

    /// The line for stderr (`warning: learning failed: …`, `note: learning full: …`).
    public var note: String { (state == .failed ? "warning" : "note") + ": learning \(state.rawValue): " + reason }
}

/// The field read back after typing (live desktop only).
public struct TypeResult: Equatable, Sendable {
    public var id: String
    public var label: String
    /// The field's whole text (nil: it cannot be read).
    public var text: String?
    public var secure: Bool
    public var outcome: PerformResult.Outcome

    public init(id: String, label: String, text: String?, secure: Bool, _ outcome: PerformResult.Outcome) {
        self.id = id
        self.label = label
        self.text = text
        self.secure = secure
        self.outcome = outcome
    }

    public var shownText: String? { text.map { shown($0, secure: secure) } }
}

/// One colour of group selection: the ids and labels of the items (or menu entries) it holds,
/// and whether it holds the back candidate.
public struct ColorGroupLine: Equatable, Sendable {
    public var color: String
    public var ids: [String]
    /// Parallel to `ids`.
    public var labels: [String]
    public var back: Bool

    public init(color: String, ids: [String], labels: [String], back: Bool) {
        self.color = color
        self.ids = ids
        self.labels = labels
        self.back = back
    }
}

/// A sweep of point scanning. Along `axis` (x: a vertical band or line moving across, y: a
/// horizontal one moving down and up), positions are the band's leading edge (its left or top;
/// it covers `position … position + width`) or the line's coordinate (width 0). Moving: from
/// `from` to `to` in `seconds`, linearly, then resting at `to` until the next sweep line.
public struct Sweep: Equatable, Sendable {
    public enum Kind: String, Sendable { case band, line }
    public enum Axis: String, Sendable { case x, y }
    public enum Motion: Equatable, Sendable {
        case moving(from: Double, to: Double, duration: Interval)
        case stopped(at: Double)
    }

    public var kind: Kind
    public var axis: Axis
    public var width: Double
    public var motion: Motion

    public init(_ kind: Kind, _ axis: Axis, width: Double, _ motion: Motion) {
        self.kind = kind
        self.axis = axis
        self.width = width
        self.motion = motion
    }
}

public enum HighlightKind: String, Sendable {
    case item, group, groupExit, menuItem
}

/// A scanner menu entry as the transcript names it: `menu:action:Delete`, "Delete".
public struct MenuEntryName: Equatable, Sendable {
    public var id: String
    public var label: String

    public init(id: String, label: String) {
        self.id = id
        self.label = label
    }
}

public struct Perform: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        /// A tap at `point` itself (point scanning), not the element's activation point.
        case tap
        case activate
        case custom(String)
        case increment
        case decrement
        case escape
        // Issue 23: gestures and keys from the scanner menu.
        case rightClick
        case doubleClick
        case middleClick
        /// Press, wait the profile's `menu.holdTime`, release.
        case hold
        /// Press at `from`, move in steps to `to`, release (the perform's `point` is nil).
        case drag(from: Point, to: Point)
        /// Wheel clicks at the perform's point, or a scroll container paged (no point).
        case scroll(ScrollDirection)
        /// A key combination, by keysym through the current layout: `"Ctrl+C"`,
        /// `"XF86AudioRaiseVolume"` (`KeyCombo`'s canonical text).
        case key(String)
        case lockScreen
        // Issue 19: the Windows page (id: the window's, "x11:0x400004").
        /// Bring the window to the front with the keyboard focus; scanning moves there.
        case activateWindow
        /// Ask the window to close (the application may ask to save first).
        case closeWindow

        public var name: String {
            switch self {
            case .tap: return "tap"
            case .activate: return "activate"
            case .custom: return "custom"
            case .increment: return "increment"
            case .decrement: return "decrement"
            case .escape: return "escape"
            case .rightClick: return "rightClick"
            case .doubleClick: return "doubleClick"
            case .middleClick: return "middleClick"
            case .hold: return "hold"
            case .drag: return "drag"
            case .scroll: return "scroll"
            case .key: return "key"
            case .lockScreen: return "lockScreen"
            case .activateWindow: return "activateWindow"
            case .closeWindow: return "closeWindow"
            }
        }
    }

    public enum Source: String, Sendable { case `switch`, touch }

    public var action: Action
    /// The element acted on.
    public var id: String
    /// Its description at that instant (empty when it has no words).
    public var label: String
    /// Where an activation taps (the activation point); nil for other actions or frameless elements.
    public var point: Point?
    public var source: Source

    public init(_ action: Action, id: String, label: String, point: Point? = nil, source: Source = .switch) {
        self.action = action
        self.id = id
        self.label = label
        self.point = point
        self.source = source
    }
}

public struct FilterDecision: Equatable, Sendable {
    public enum Decision: Equatable, Sendable {
        /// A press that counts, with the action it triggers.
        case accepted(SwitchAction)
        case rejected(RejectReason)
        /// Held for the long-press time: the long-press action fires.
        case longPress(SwitchAction)
    }

    public enum RejectReason: String, Sendable {
        case holdDuration, ignoreRepeat, debounce, autorepeat
    }

    /// The switch's key name ("KEY_SPACE"), or "touchscreen" for the screen as a switch.
    public var switchName: String
    public var decision: Decision

    public init(switchName: String, _ decision: Decision) {
        self.switchName = switchName
        self.decision = decision
    }
}

public struct TouchDecision: Equatable, Sendable {
    public enum Decision: Equatable, Sendable {
        /// A tap at `point`, hitting the scan item `id` with description `label` (nil: no item there).
        case tap(point: Point, id: String?, label: String?)
        case swipe(from: Point, to: Point, direction: SwipeDirection)
        /// A still touch held past the tap-assistance gesture delay (touch and hold), at `point`.
        case hold(point: Point)
        case rejected(TouchRejectReason, point: Point)
        /// Touch passthrough: a tap written to the virtual touchscreen at `point` (the location
        /// tap assistance chose).
        case passedTap(point: Point)
        /// Touch passthrough: a contact written live to the virtual touchscreen, from where it
        /// went down there to where it lifted, for `duration` (a swipe, a drag, a long press).
        case gesture(from: Point, to: Point, duration: Interval)
    }

    public enum SwipeDirection: String, Sendable { case up, down, left, right }
    public enum TouchRejectReason: String, Sendable { case holdDuration, ignoreRepeat }

    /// The contact's tracking id (or a running number for single-touch devices).
    public var contact: Int
    public var decision: Decision

    public init(contact: Int, _ decision: Decision) {
        self.contact = contact
        self.decision = decision
    }
}

public struct DeviceChange: Equatable, Sendable {
    public enum Change: String, Sendable { case removed, added }
    public var change: Change
    public var name: String
    public var node: String

    public init(_ change: Change, name: String, node: String) {
        self.change = change
        self.name = name
        self.node = node
    }
}

/// The outcome of a perform carried out on the live desktop (`run --desktop`).
public struct PerformResult: Equatable, Sendable {
    public enum Outcome: Equatable, Sendable {
        /// Done, and how (`action "click"`, `focus + click at (12, 40)`, `value 40 → 45`).
        case done(String)
        /// Not done, and why (`no reply within 300 ms`, `the element is gone`).
        case failed(String)
    }

    public var action: Perform.Action
    public var id: String
    /// The perform's label (the element's description then).
    public var label: String
    public var outcome: Outcome

    public init(_ action: Perform.Action, id: String, label: String, _ outcome: Outcome) {
        self.action = action
        self.id = id
        self.label = label
        self.outcome = outcome
    }

    /// The result of `perform`.
    public init(_ perform: Perform, _ outcome: Outcome) {
        self.init(perform.action, id: perform.id, label: perform.label, outcome)
    }
}

/// Where the live desktop's tree comes from, when that changes.
public struct TreeSourceChange: Equatable, Sendable {
    public enum Change: String, Sendable {
        /// Scanning reads this window (or application) now.
        case window
        /// The tree is gone (the application quit, its windows closed): nothing to scan.
        case ended
        /// The application does not answer: its tree is ended until it answers again.
        case notAnswering
        /// The tree changes without a pause (a page changing every 10 ms): it is read at a slower,
        /// fixed pace until it settles (`detail` says how often).
        case busy
        /// A busy tree paused again: it is read as it changes again.
        case settled
    }

    public var change: Change
    /// The application's name on the accessibility bus.
    public var app: String
    /// The window's title (`window`), or why (`ended`, `notAnswering`, `busy`, `settled`).
    public var detail: String

    public init(_ change: Change, app: String, detail: String) {
        self.change = change
        self.app = app
        self.detail = detail
    }
}

/// The engine paused (scanning stopped, switches and touches do nothing, the live loop's grabs
/// released) or resumed, and what did it.
public struct PauseChange: Equatable, Sendable {
    public enum State: String, Sendable { case paused, resumed }
    public enum Cause: Equatable, Sendable {
        /// A switch held for `held` (the profile's pauseHold).
        case hold(switchName: String, held: Interval)
        /// The pause chord, as written (`Ctrl+Alt+Shift+S`).
        case chord(String)
        /// Pause, chosen in the scanner menu's Settings (resumed by the hold or the chord).
        case menu
    }

    public var state: State
    public var cause: Cause

    public init(_ state: State, _ cause: Cause) {
        self.state = state
        self.cause = cause
    }
}
