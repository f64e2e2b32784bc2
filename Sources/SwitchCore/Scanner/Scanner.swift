/// The scanner: iOS Switch Control's item scanning over a `ScanModel`, as a pure state machine.
/// It takes accepted switch actions, fired timers and layout changes at given instants and
/// returns transcript lines and timer requests; the engine owns the clock and the timer queue.
///
/// States (cases carry their data):
///   notStarted        before `start`
///   stopped(why)      no items, loops ran out, or the stopScanning switch; no timer pending
///   scanning(cursor)  the highlight rests on a stop of a level; `cursor.dwell` is the pending
///                     dwell timer, if any
///   autoTapWindow     Auto Tap: the item was selected and taps when the window ends unless a
///                     second select opens the menu
///   menu(menu)        the scanner menu is open on an item or a point; its entries are scanned
///                     like stops
///   colorGroups(c)    group selection: the candidates shown in k colours (Scanner+GroupSelection)
///   point(p)          point scanning: a band or line sweeping (Scanner+PointMode)
///
/// Every (state, event) pair has a case in the state's handler:
///
///                  start     action                          timer                    layout               speechFinished
///   notStarted     begin     ignored                         ignored                  keep the model       ignored
///   stopped        ignored   select, resumeScanning restart  ignored (stale)          no items → restart   ignored
///   scanning       ignored   select/next/previous/menu/      dwell: advance (auto),   relocate             the awaited phrase:
///                            escape/stopScanning             select (step)                                 dwell ends then
///   autoTapWindow  ignored   select: menu; others cancel     autoTap: tap, resume     relocate or cancel   ignored (no dwell)
///                            the window and act
///   menu           ignored   select: choose; menu, escape:   dwell: advance (auto),   close or re-open     the awaited phrase:
///                            close                           choose (step)                                 dwell ends then
///   colorGroups    ignored   groupN: narrow / choose /       ignored (none set)       restart or keep      ignored
///                            back; escape: back
///   point          ignored   select: stop the sweep;         sweep: turn at the       restart on a new     ignored
///                            escape: one step back           edge / give up           screen size
///
/// Group actions (group1 … group6) do nothing outside group selection; in group selection,
/// select, next and previous do nothing (the colours are the switches).
///
/// Timelines (each is a test in Tests/SwitchCoreTests/Scanner, named after it). `|` is a highlight
/// line, `^` a switch action, d the dwell (`autoScanningTime`), p `pauseOnFirstItem`, w the Auto
/// Tap window.
///
///   auto_advance                 |A------d------|B------d------|C------d------|A …
///   auto_pause_on_first_item     |A------d+p-----------|B------d------|C …  (first of every level)
///   auto_loops_stop              … |C------d------ scan stopped          (after `loops` passes)
///   auto_loops_leave_group       … |exit---d------|G (group, in parent)
///   auto_loops_close_menu        … |menu:close--d-- menu closed |A (item)
///   auto_next_restarts_dwell     |A----d---^next|B------d------|C         (wraps are not passes)
///   manual_next_previous_wrap    |A   ^next|B   ^next|C   ^next|A   ^previous|C    (no timers)
///   step_no_dwell_after_start    |A ……… (nothing: waiting selects nothing)
///   step_press_moves_dwell_selects  |A ^select|B------d------ menu opened |menu:tap--d-- perform
///   select_enters_group          |G ^select|X (first stop of G, new pass) … |exit ^select|G
///   menu_contents_*              |A ^select menu opened (tap, actions, increment, decrement,
///                                escape, close) |menu:tap
///   auto_tap_expires             |A ^select----w---- perform activate A, resume
///   auto_tap_second_select       |A ^select--^select menu opened |menu:tap
///   auto_tap_other_action        |A ^select--^next|B    (window cancelled, normal action)
///   always_tap                   |A ^select perform activate A, resume
///   menu_entry_*                 |menu:x ^select perform x, menu closed, |resume stop
///   menu_close                   |menu:close ^select menu closed, |A
///   escape_action_*              menu: like Close · group: leave it · top: perform escape scope, resume
///   stop_and_resume              ^stopScanning [menu closed,] scan stopped … ^select scan started, |first
///   layout_*                     same id stays (no line) · gone: the stop in its place · empty: stopped
///   layout_new_page_*            |L ^select perform activate L (a link, or in a page) … the first
///                                layout without L that shows page items that were not there then
///                                |P1 (the first of them), within 10 s of the activation
///   layout_modal_*               |B  (dialog opens: new scope M) |M1 …  (dialog closes) |B
///                                a scope's last highlight is remembered when the scope changes and
///                                restored when scanning comes back to it; a new scope starts first
///   target_*                     a press-time snapshot is used while it applies, else ignored
///   timer_*                      a stale or early timer changes nothing
///   speech_paced_*               (pauseForSpeech) |A "A, button"~~~~~~spoken|B …  the dwell ends at
///                                max(highlight + d, the phrase's end), at most highlight + d + cap;
///                                a finish for an older phrase, or after the cap, changes nothing
///
///   menu_mode_switch_*           |menu:pointMode ^select menu closed, mode point, sweep … (and back)
///
/// Resume (after an activation or a menu action) follows `focusedItemAfterTap` and always emits a
/// highlight line, even for the stop already highlighted, so a user hears where scanning goes on;
/// in point mode a new sweep starts, in group selection the first level's colours are shown again.
public struct Scanner: Sendable {
    public enum Event: Sendable {
        /// Scanning begins (t = 0).
        case start
        /// An accepted switch action, with the highlight snapshot taken at the physical press.
        case action(SwitchAction, target: ScanTarget?)
        /// A timer this scanner set has fired.
        case timer(TimerID)
        /// A new tree (layout change).
        case layout(ScanModel)
        /// Speech finished (spoken to its end, or cancelled) the `utterance`-th `speak` line this
        /// scanner emitted, counted from 0 (speech-paced scanning).
        case speechFinished(utterance: Int)
    }

    public enum Output: Sendable, Equatable {
        case emit(TranscriptEvent)
        case setTimer(TimerID, at: Instant)
        case cancelTimer(TimerID)
        /// Pause, chosen in the menu: the engine pauses (its pause line, then scanning stops).
        case pauseRequested
        /// Keyboard, chosen in the menu on the item `id`: the engine opens the keyboard on it.
        case keyboardRequested(id: String)
    }

    public enum TimerID: Hashable, Sendable {
        /// Auto scanning's advance, or the single-switch-step dwell that selects.
        case dwell
        /// The end of an Auto Tap window.
        case autoTap
        /// Point scanning: the sweep reaches an edge (after its pause there).
        case sweep
    }

    /// An opaque snapshot of what is highlighted. It stays valid while the scanner stays in the
    /// same context (same model, same level, menu neither opened nor closed, no resume).
    public struct ScanTarget: Sendable, Equatable {
        let context: Int
        let index: Int
        let id: String
        let kind: HighlightKind
        /// When it was taken (point scanning reads the sweep's position then).
        var at: Instant? = nil
    }

    enum StopReason: Sendable {
        /// The model has no scan items; a layout with items restarts scanning.
        case noItems
        /// `loops` passes went by at the top level without a selection.
        case loops
        /// The stopScanning switch action.
        case switchAction
    }

    struct Cursor: Sendable {
        var location: StopLocation
        /// Completed passes (auto style) since the last selection, (re)start or level change.
        var passes: Int
        /// The dwell timer's deadline while it is pending.
        var dwell: Instant?
    }

    /// What a menu is on.
    enum MenuSubject: Sendable, Equatable {
        /// `model.items[i]`.
        case item(Int)
        case point(PointChoice)
    }

    /// A point chosen by point scanning, the scan item under it, and how often it was refined.
    struct PointChoice: Sendable, Equatable {
        var point: Point
        var hit: Int?
        var refine: Int
    }

    /// Speech pacing: the phrase the pending dwell waits for, and when the dwell would end
    /// without it.
    struct SpeechWait: Sendable {
        var utterance: Int
        var earliest: Instant
    }

    /// How much longer than the dwell a stop may wait for its phrase (`pauseForSpeech`): speech
    /// that never reports its end (speech-dispatcher gone, a lost event) delays scanning by at
    /// most this much.
    public static let speechPauseCap = Interval.seconds(10)

    enum State: Sendable {
        case notStarted
        case stopped(StopReason)
        case scanning(Cursor)
        case autoTapWindow(Cursor, ends: Instant)
        case menu(MenuState)
        case colorGroups(ColorState)
        case point(PointState)
    }

    /// Why a stop became highlighted; decides whether the dwell runs.
    enum HighlightCause {
        /// Start, restart, resume, entering or leaving a group, a layout change, a cancelled window.
        case begin
        /// next / previous (and select in step style).
        case pressMove
        /// Auto scanning's timer.
        case autoAdvance
        /// The menu opened (step style: waiting on Tap taps).
        case menuOpened
    }

    var levels: ScanLevels
    /// Style, scan time and speech can be changed by the person from the menu's Settings.
    var style: ScanningSettings.Style
    let tapBehavior: ScanningSettings.TapBehavior
    let focusAfterTap: ScanningSettings.FocusAfterTap
    var speech: Bool
    var dwell: Interval
    let pauseOnFirst: Interval
    let loops: Int
    let autoTapTime: Interval
    /// Item or point now (the menu switches between them); group selection stays.
    var mode: ScanningSettings.Mode
    let modeSwitch: Bool
    let pointSettings: PointScanning
    /// k for group selection.
    let groupSwitches: Int
    /// How often each item was chosen (group selection weighs likely items by it).
    var uses: [String: Int] = [:]
    /// The profile's `pauseForSpeech` (it applies while speech is on).
    let pauseForSpeechSetting: Bool
    var pauseForSpeech: Bool { speech && pauseForSpeechSetting }
    /// The profile's menu settings and what else decides the menu's entries (`menuContext` adds
    /// the scanner's own mode, style, speech and sounds).
    var menuBase: MenuContext
    /// After a Scroll page entry (issue 19): the container paged, and when; the first layout in
    /// which an item of it on screen moved or came into view moves the highlight to the first such
    /// item (scanning continues in the new content), for at most `scrollFollowTime`.
    var scrolled: (container: String, at: Instant)?
    /// A 5,000-link page is read whole again after a scroll: 1–3 s, more on a loaded machine.
    public static let scrollFollowTime = Interval.seconds(6)
    /// After a link or an item inside a scrollable container (a web page) was activated (a link
    /// followed): when, the item, and the ids of every item then. The first layout within
    /// `pageFollowTime` in which that item is gone and a page item (a link, or an item inside a
    /// scrollable container) that was not there shows moves the highlight to the first such item:
    /// the new page's first, as a screen reader moves to a new document (the highlight would
    /// otherwise stay wherever the old page's end left it: the browser's last toolbar button).
    var followed: (at: Instant, item: String, before: Set<String>)?
    static let pageFollowTime = Interval.seconds(10)
    var sounds: Bool
    /// Drag: what is dragged while the drop target is chosen by scanning.
    var dragging: DragChange?

    var state: State = .notStarted
    /// Bumped whenever a ScanTarget taken before must stop applying.
    var context = 0
    /// Per modal scope left (a dialog opened over it): the id of the stop highlighted in it then,
    /// most recent last. Coming back to that scope (the dialog closed), the highlight returns there.
    private var scopeMemory: [(scope: String, stop: String)] = []
    private static let scopeMemoryLimit = 8
    /// Levels shaped for models with a `shapeKey` (`shaped`).
    var shapedLevels: [String: ScanLevels] = [:]
    /// Levels shaped for models with a `structureKey`: a model of the same structure (other ids
    /// and labels in the same places) has the same levels over its own items (`ScanLevels.over`).
    var shapedStructures: [String: ScanLevels] = [:]
    /// Group selection: the costs of the levels cut so far, by their weights (`ColorGroups`).
    var colorCosts = ColorGroups.CostsBySequence()
    /// Group selection: the last level's cut, kept while the weights stay the same.
    var lastColorSplit: ColorGroups?
    /// Group selection: the items' ids and labels for a model with a `shapeKey`.
    var itemNames: (key: String, names: [MenuEntryName])?
    /// `speak` lines emitted so far (the next one's utterance number).
    private var utterances = 0
    private var speechWait: SpeechWait?
    /// What the engine has pending (as far as this scanner asked), to emit only real changes.
    private var pendingDwell: Instant?
    private var pendingAutoTap: Instant?
    private var pendingSweep: Instant?

    /// Settings outside the profile's validated ranges are clamped so scanning cannot spin at one
    /// instant: the dwell and the Auto Tap window last at least 1 ms, loops is at least 1.
    /// `groupSwitches`: k for group selection (`Profile.groupSwitchCount`, clamped to 2…6);
    /// `holdDuration`: what a press costs `"grouping": "auto"`.
    /// `menu`: what decides the menu's entries besides the scanning settings (the profile's menu
    /// section and switches: `MenuContext(profile:)`).
    public init(model: ScanModel, settings: ScanningSettings, groupSwitches: Int = 0, holdDuration: Interval = .zero,
                menu: MenuContext = MenuContext()) {
        levels = ScanLevels(model: model, grouping: settings.grouping, cost: ScanCostModel(settings, holdDuration: holdDuration))
        style = settings.style
        tapBehavior = settings.tapBehavior
        focusAfterTap = settings.focusedItemAfterTap
        speech = settings.speech
        pauseForSpeechSetting = settings.pauseForSpeech
        let minimum = Interval.milliseconds(1)
        dwell = max(settings.autoScanningTime, minimum)
        pauseOnFirst = max(settings.pauseOnFirstItem, .zero)
        loops = max(settings.loops, 1)
        autoTapTime = max(settings.autoTapTime, minimum)
        mode = settings.mode
        modeSwitch = settings.modeSwitch
        pointSettings = settings.point
        self.groupSwitches = min(max(groupSwitches, ColorGroups.switchRange.lowerBound), ColorGroups.switchRange.upperBound)
        menuBase = menu
        menuBase.modeSwitch = settings.modeSwitch
        sounds = settings.soundEffects
    }

    /// The model scanned now (the latest layout).
    public var model: ScanModel { levels.model }

    /// When the pending dwell ends (nil: none runs): a simulated person presses just before it.
    public var dwellDeadline: Instant? { pendingDwell }

    /// Whether scanning is running (highlight shown, Auto Tap window, or menu open).
    public var isScanning: Bool {
        switch state {
        case .notStarted, .stopped: return false
        case .scanning, .autoTapWindow, .menu, .colorGroups, .point: return true
        }
    }

    /// The scanner menu is open (scanned, or shown in colours).
    public var isMenuOpen: Bool {
        switch state {
        case .menu: return true
        case .colorGroups(let c): if case .menu = c.subject { return true } else { return false }
        default: return false
        }
    }

    /// What is highlighted now (nil when stopped/empty). The engine takes this snapshot at a
    /// switch's physical press and passes it back with the accepted `select`; a snapshot that no
    /// longer applies is ignored and the current highlight is used.
    public var currentTarget: ScanTarget? {
        switch state {
        case .notStarted, .stopped, .colorGroups, .point:
            return nil
        case .scanning(let c), .autoTapWindow(let c, _):
            let (id, kind) = levels.highlight(levels.stop(c.location))
            return ScanTarget(context: context, index: c.location.index, id: id, kind: kind)
        case .menu(let m):
            let (id, kind) = m.highlight(m.levels.stop(m.cursor.location))
            return ScanTarget(context: context, index: m.cursor.location.index, id: id, kind: kind)
        }
    }

    /// The snapshot at a physical press at `now`: `currentTarget`, or for a point sweep, the
    /// instant (a select stops the band or line where it was when the switch went down).
    public func target(at now: Instant) -> ScanTarget? {
        if case .point = state { return ScanTarget(context: context, index: 0, id: "sweep", kind: .item, at: now) }
        return currentTarget
    }

    /// Lines come in the order they happen at `now`; timer requests follow them. A timer event
    /// the scanner no longer waits for (or one that fires before its deadline) changes nothing.
    public mutating func handle(_ event: Event, at now: Instant) -> [Output] {
        var out: [Output] = []
        if case .timer(let id) = event {
            // Whatever it was, the engine no longer has it pending.
            switch id {
            case .dwell: pendingDwell = nil
            case .autoTap: pendingAutoTap = nil
            case .sweep: pendingSweep = nil
            }
        }
        switch state {
        case .notStarted: onNotStarted(event, now, &out)
        case .stopped(let why): onStopped(why, event, now, &out)
        case .scanning(let c): onScanning(c, event, now, &out)
        case .autoTapWindow(let c, let ends): onAutoTapWindow(c, ends, event, now, &out)
        case .menu(let m): onMenu(m, event, now, &out)
        case .colorGroups(let c): onColorGroups(c, event, now, &out)
        case .point(let p): onPoint(p, event, now, &out)
        }
        syncTimers(&out)
        return out
    }

    /// Scanning comes back to this scanner with the highlight on the item `id` (the field a
    /// keyboard typed into, when the keyboard closes: docs/typing.md), or the first stop when it
    /// is gone; point scanning starts a new sweep, group selection shows its first colours.
    /// Whatever was pending (a menu, an Auto Tap window) is over.
    public mutating func returnTo(itemID id: String?, at now: Instant) -> [Output] {
        var out: [Output] = []
        context += 1
        if !canScan {
            if isScanning { stop(.noItems, &out) }
        } else {
            switch mode {
            case .item:
                let i = id.flatMap { levels.model.itemIndex(id: $0) }
                highlight(i.map { levels.location(ofItem: $0) } ?? .first, passes: 0, cause: .begin, now, &out)
            case .point: startSweeps(now, &out)
            case .groupSelection: showColors(.items, now, &out)
            }
        }
        syncTimers(&out)
        return out
    }

    // MARK: - One handler per state, each with a complete switch over events and actions.

    private mutating func onNotStarted(_ event: Event, _ now: Instant, _ out: inout [Output]) {
        switch event {
        case .start:
            out.append(.emit(.scan(started: true)))
            if canScan {
                beginScanning(now, &out)
            } else {
                out.append(.emit(.scanStopped(.noItems)))
                enterStopped(.noItems)
            }
        case .action:
            break  // Nothing to act on before scanning begins.
        case .timer:
            break  // None was set.
        case .layout(let model):
            levels = shaped(model)
        case .speechFinished:
            break  // Nothing was spoken.
        }
    }

    private mutating func onStopped(_ why: StopReason, _ event: Event, _ now: Instant, _ out: inout [Output]) {
        switch event {
        case .start:
            break  // Already started once; resumeScanning or select restarts.
        case .action(let action, _):
            switch action {
            case .select, .resumeScanning:
                restart(now, &out)
            case .group1, .group2, .group3, .group4, .group5, .group6:
                // A group selection user may have no select switch: any colour restarts.
                if mode == .groupSelection { restart(now, &out) }
            case .next, .previous, .menu, .escape, .stopScanning:
                break
            }
        case .timer:
            break  // Nothing is pending while stopped; a late fire is stale.
        case .layout(let model):
            levels = shaped(model)
            context += 1
            // Only an empty screen stopped scanning by itself; a user's stop or loops stay stopped.
            if case .noItems = why { restart(now, &out) }
        case .speechFinished:
            break  // No dwell runs while stopped.
        }
    }

    private mutating func onScanning(_ c: Cursor, _ event: Event, _ now: Instant, _ out: inout [Output]) {
        switch event {
        case .start:
            break
        case .action(let action, let target):
            switch action {
            case .select:
                if style == .singleSwitchStep {
                    move(c, by: 1, now, &out)
                } else {
                    let chosen = resolve(target, c)
                    select(chosen, moved: chosen.location != c.location, now, &out)
                }
            case .next:
                move(c, by: 1, now, &out)
            case .previous:
                move(c, by: -1, now, &out)
            case .menu:
                let chosen = resolve(target, c)
                if case .item(let i) = levels.stop(chosen.location) {
                    openMenu(item: i, origin: chosen.location, now, &out)
                }
            case .escape:
                escape(from: c, now, &out)
            case .stopScanning:
                stop(.switchAction, &out)
            case .resumeScanning:
                break  // Already scanning.
            case .group1, .group2, .group3, .group4, .group5, .group6:
                break  // Group selection only.
            }
        case .timer(let id):
            guard id == .dwell, let due = c.dwell, now >= due else { return }  // Stale or early.
            switch style {
            case .auto: advance(c, now, &out)
            case .singleSwitchStep: select(Cursor(location: c.location, passes: c.passes, dwell: nil), moved: false, now, &out)
            case .manual: state = .scanning(Cursor(location: c.location, passes: c.passes, dwell: nil))
            }
        case .layout(let model):
            relayout(scanning: c, model, now, &out)
        case .speechFinished(let n):
            guard let due = spokenDwellEnd(utterance: n, pending: c.dwell, now) else { return }
            state = .scanning(Cursor(location: c.location, passes: c.passes, dwell: due))
        }
    }

    private mutating func onAutoTapWindow(_ c: Cursor, _ ends: Instant, _ event: Event, _ now: Instant, _ out: inout [Output]) {
        // Outside the window the highlight is on the same stop with no timer running.
        let idle = Cursor(location: c.location, passes: 0, dwell: nil)
        switch event {
        case .start:
            break
        case .action(let action, _):
            switch action {
            case .select, .menu:
                // The second press of Auto Tap (or the menu switch): the menu instead of the tap
                // (in step style too, where select otherwise moves: this is how a one-switch user
                // reaches the menu).
                if case .item(let i) = levels.stop(c.location) { openMenu(item: i, origin: c.location, now, &out) }
            case .next:
                if mode == .groupSelection { break }
                move(idle, by: 1, now, &out)
            case .previous:
                if mode == .groupSelection { break }
                move(idle, by: -1, now, &out)
            case .escape:
                if mode == .groupSelection { resume(from: c.location, now, &out); break }
                escape(from: idle, now, &out)
            case .stopScanning:
                stop(.switchAction, &out)
            case .resumeScanning:
                // Cancels the window; scanning goes on from the item (no line: it is highlighted),
                // or in group selection from the first level.
                if mode == .groupSelection {
                    resume(from: c.location, now, &out)
                } else {
                    state = .scanning(Cursor(location: c.location, passes: 0, dwell: dwellDeadline(index: c.location.index, cause: .begin, now)))
                }
            case .group1, .group2, .group3, .group4, .group5, .group6:
                // Group selection's second press: the menu instead of the tap.
                if mode == .groupSelection, case .item(let i) = levels.stop(c.location) { openMenu(item: i, origin: c.location, now, &out) }
            }
        case .timer(let id):
            guard id == .autoTap, now >= ends else { return }  // Stale, or early (re-armed by syncTimers).
            if case .item(let i) = levels.stop(c.location) {
                out.append(.emit(.perform(activation(of: i))))
                noteActivation(of: i, now)
            }
            resume(from: c.location, now, &out)
        case .layout(let model):
            relayout(autoTap: c, ends: ends, model, now, &out)
        case .speechFinished:
            break  // The window's length is Auto Tap's, not the phrase's.
        }
    }

    // MARK: - Transitions

    /// Highlights `location` in scanning state with a fresh dwell per style and `cause`.
    mutating func highlight(_ location: StopLocation, passes: Int, cause: HighlightCause, _ now: Instant, _ out: inout [Output]) {
        emitHighlight(levels.stop(location), &out)
        state = .scanning(Cursor(location: location, passes: passes, dwell: paced(dwellDeadline(index: location.index, cause: cause, now))))
    }

    /// The highlight line of a stop, and what speech says of it.
    mutating func emitHighlight(_ stop: LevelStop, _ out: inout [Output]) {
        let (id, kind) = levels.highlight(stop)
        out.append(.emit(.highlight(id: id, kind: kind, label: levels.label(stop))))
        if speech { say(levels.spoken(stop), &out) }
    }

    /// A `speak` line; a phrase waited for before is no longer awaited.
    mutating func say(_ text: String, _ out: inout [Output]) {
        out.append(.emit(.speak(text)))
        utterances += 1
        speechWait = nil
    }

    /// With `pauseForSpeech`, a dwell right after a phrase waits for that phrase: the timer is set
    /// at the cap, and the phrase's end brings it forward (`spokenDwellEnd`).
    mutating func paced(_ deadline: Instant?) -> Instant? {
        guard pauseForSpeech, let deadline, utterances > 0 else { return deadline }
        speechWait = SpeechWait(utterance: utterances - 1, earliest: deadline)
        return deadline + Scanner.speechPauseCap
    }

    /// The dwell's new end when the awaited phrase finished at `now`: not before the dwell's own
    /// length; nil when this is not the awaited phrase or no dwell is pending.
    mutating func spokenDwellEnd(utterance n: Int, pending: Instant?, _ now: Instant) -> Instant? {
        guard let wait = speechWait, wait.utterance == n, pending != nil else { return nil }
        speechWait = nil
        return max(wait.earliest, now)
    }

    /// When the dwell after a highlight ends: auto always (plus the pause on a level's first
    /// stop); single-switch step only after a press-driven move or the menu opening; manual never.
    func dwellDeadline(index: Int, cause: HighlightCause, _ now: Instant) -> Instant? {
        switch style {
        case .auto:
            return now + (index == 0 ? dwell + pauseOnFirst : dwell)
        case .manual:
            return nil
        case .singleSwitchStep:
            switch cause {
            case .pressMove, .menuOpened: return now + dwell
            case .begin, .autoAdvance: return nil
            }
        }
    }

    private mutating func beginAtFirstStop(_ now: Instant, _ out: inout [Output]) {
        context += 1
        highlight(.first, passes: 0, cause: .begin, now, &out)
    }

    /// Whether there is something to scan: items, or for point scanning a screen.
    var canScan: Bool {
        mode == .point ? model.screen.width > 0 && model.screen.height > 0 : !levels.isEmpty
    }

    /// The first highlight of the current mode: the first stop, a fresh sweep, or the colours.
    mutating func beginScanning(_ now: Instant, _ out: inout [Output]) {
        switch mode {
        case .item: beginAtFirstStop(now, &out)
        case .point: startSweeps(now, &out)
        case .groupSelection: showColors(.items, now, &out)
        }
    }

    mutating func restart(_ now: Instant, _ out: inout [Output]) {
        guard canScan else { return }  // Nothing to scan; a layout with items restarts.
        out.append(.emit(.scan(started: true)))
        beginScanning(now, &out)
    }

    mutating func enterStopped(_ why: StopReason) {
        context += 1
        state = .stopped(why)
    }

    /// Closes the menu if open, then stops; `syncTimers` cancels whatever was pending.
    mutating func stop(_ why: StopReason, _ out: inout [Output]) {
        if isMenuOpen { out.append(.emit(.menuClosed)) }
        cancelDrag(&out)
        // Stopped by itself for want of items: the line says why (a user's stop and loops do not
        // need to: the press or the passes before it say it).
        if case .noItems = why { out.append(.emit(.scanStopped(.noItems))) } else { out.append(.emit(.scan(started: false))) }
        enterStopped(why)
    }

    private mutating func move(_ c: Cursor, by delta: Int, _ now: Instant, _ out: inout [Output]) {
        let n = levels.count(c.location.level)
        let index = ((c.location.index + delta) % n + n) % n
        highlight(StopLocation(level: c.location.level, index: index), passes: c.passes, cause: .pressMove, now, &out)
    }

    /// Auto scanning's step: the next stop, or at the end of a pass either wrap or, after `loops`
    /// passes, stop (top level) / return to the parent (group).
    private mutating func advance(_ c: Cursor, _ now: Instant, _ out: inout [Output]) {
        let n = levels.count(c.location.level)
        guard c.location.index + 1 >= n else {
            highlight(StopLocation(level: c.location.level, index: c.location.index + 1), passes: c.passes, cause: .autoAdvance, now, &out)
            return
        }
        let passes = c.passes + 1
        if passes < loops {
            highlight(StopLocation(level: c.location.level, index: 0), passes: passes, cause: .autoAdvance, now, &out)
            return
        }
        switch c.location.level {
        case .top: stop(.loops, &out)
        case .group(let g): leaveGroup(g, now, &out)
        }
    }

    /// Selects the stop under `c` (select in auto/manual style, or the step dwell). `moved`: the
    /// press's snapshot named another stop than the highlighted one.
    private mutating func select(_ c: Cursor, moved: Bool, _ now: Instant, _ out: inout [Output]) {
        switch levels.stop(c.location) {
        case .group(let g):
            context += 1
            highlight(StopLocation(level: .group(g), index: 0), passes: 0, cause: .begin, now, &out)
        case .exit(let g):
            leaveGroup(g, now, &out)
        case .item(let i):
            selectItem(i, at: c.location, moved: moved, now, &out)
        }
    }

    /// An item was chosen (item scanning or group selection): the menu, the Auto Tap window, or a
    /// tap, by `tapBehavior`.
    mutating func selectItem(_ i: Int, at location: StopLocation, moved: Bool, _ now: Instant, _ out: inout [Output]) {
        // A pending drag drops here (whatever the tap behaviour).
        if dragging != nil, let point = levels.model.items[i].element.effectiveActivationPoint, let perform = drop(at: point) {
            out.append(.emit(.perform(perform)))
            return resume(from: location, now, &out)
        }
        switch tapBehavior {
        case .default:
            openMenu(item: i, origin: location, now, &out)
        case .autoTap:
            // The highlight stays on the item during the window; say so if the snapshot moved it back.
            if moved { emitHighlight(.item(i), &out) }
            state = .autoTapWindow(Cursor(location: location, passes: 0, dwell: nil), ends: now + autoTapTime)
        case .alwaysTap:
            out.append(.emit(.perform(activation(of: i))))
            noteActivation(of: i, now)
            resume(from: location, now, &out)
        }
    }

    private mutating func leaveGroup(_ g: Int, _ now: Instant, _ out: inout [Output]) {
        context += 1
        highlight(levels.location(ofGroup: g), passes: 0, cause: .begin, now, &out)
    }

    /// The escape switch action outside the menu.
    private mutating func escape(from c: Cursor, _ now: Instant, _ out: inout [Output]) {
        switch c.location.level {
        case .group(let g):
            leaveGroup(g, now, &out)
        case .top:
            if dragging != nil {
                cancelDrag(&out)
            } else {
                out.append(.emit(.perform(Perform(.escape, id: levels.model.scopeID, label: levels.model.scopeLabel))))
            }
            resume(from: c.location, now, &out)
        }
    }

    /// After an action: the first top-level stop, or the stop acted on (focusedItemAfterTap).
    /// Always a highlight line, even when the highlight does not move. Point scanning starts a
    /// new sweep; group selection shows the first level's colours again.
    mutating func resume(from location: StopLocation, _ now: Instant, _ out: inout [Output]) {
        context += 1
        guard canScan else { return stop(.noItems, &out) }
        switch mode {
        case .item: highlight(focusAfterTap == .first ? .first : location, passes: 0, cause: .begin, now, &out)
        case .point: startSweeps(now, &out)
        case .groupSelection: showColors(.items, now, &out)
        }
    }

    /// A link, or an item inside a page, activated: the next new page gets the highlight
    /// (`followed`). (A page that fits its window is not a scrollable container: its links count
    /// as links.)
    mutating func noteActivation(of item: Int, _ now: Instant) {
        let it = levels.model.items[item]
        if Scanner.isPageItem(it) { followed = (now, it.id, Set(levels.model.items.map(\.id))) }
    }

    static func isPageItem(_ item: ScanItem) -> Bool {
        item.scrollContainer != nil || item.element.traits.contains(.link)
    }

    func activation(of item: Int) -> Perform {
        MenuEntry.activation(of: levels.model.items[item])
    }

    /// Item ↔ point mode from the menu: a mode line, then the new mode's first highlight.
    mutating func switchMode(to newMode: ScanningSettings.Mode, _ now: Instant, _ out: inout [Output]) {
        mode = newMode
        context += 1
        out.append(.emit(.mode(newMode)))
        guard canScan else { return stop(.noItems, &out) }
        beginScanning(now, &out)
    }

    // MARK: - Snapshots

    private func resolve(_ target: ScanTarget?, _ c: Cursor) -> Cursor {
        guard let t = target, t.context == context, t.index >= 0, t.index < levels.count(c.location.level) else { return c }
        let location = StopLocation(level: c.location.level, index: t.index)
        let (id, kind) = levels.highlight(levels.stop(location))
        guard id == t.id, kind == t.kind else { return c }
        return Cursor(location: location, passes: c.passes, dwell: c.dwell)
    }

    // MARK: - Layout changes

    mutating func replaceModel(_ model: ScanModel) -> ScanLevels {
        let old = levels
        levels = shaped(model)
        context += 1
        return old
    }

    /// The levels of `model`; those of a model seen before under the same `shapeKey` (the
    /// keyboard's trees) are kept rather than shaped again.
    mutating func shaped(_ model: ScanModel) -> ScanLevels {
        guard let key = model.shapeKey else { return levels.rebuilt(model) }
        if let known = shapedLevels[key] { return known }
        let new: ScanLevels
        if let structure = model.structureKey, let same = shapedStructures[structure] {
            new = same.over(model)
        } else {
            new = levels.rebuilt(model)
            if let structure = model.structureKey {
                if shapedStructures.count >= 256 { shapedStructures.removeAll(keepingCapacity: true) }
                shapedStructures[structure] = new
            }
        }
        if shapedLevels.count >= 256 { shapedLevels.removeAll(keepingCapacity: true) }
        shapedLevels[key] = new
        return new
    }

    /// Where the highlight goes after a layout change: the same item or group by id; when the
    /// modal scope changed (a dialog opened or closed), the stop last highlighted in the new scope
    /// if it is there (the button that opened the dialog, once the dialog is gone), else the new
    /// scope's first stop; otherwise the stop in its place (`ScanLevels.relocate`).
    mutating func relocate(_ location: StopLocation, from old: ScanLevels) -> StopLocation {
        let relocated = levels.relocate(location, from: old)
        let oldScope = old.model.scopeID, newScope = levels.model.scopeID
        guard oldScope != newScope else { return relocated }
        let was = old.highlight(old.stop(location)).id
        scopeMemory.removeAll { $0.scope == oldScope }
        scopeMemory.append((oldScope, was))
        if scopeMemory.count > Scanner.scopeMemoryLimit { scopeMemory.removeFirst() }
        if levels.highlight(levels.stop(relocated)).id == was { return relocated }
        if let remembered = scopeMemory.last(where: { $0.scope == newScope })?.stop {
            if let i = levels.model.itemIndex(id: remembered) { return levels.location(ofItem: i) }
            if let g = levels.groupIndex(id: remembered) { return levels.location(ofGroup: g) }
        }
        // A scope seen for the first time (a dialog that just opened) starts at its first stop.
        return .first
    }

    private mutating func relayout(scanning c: Cursor, _ model: ScanModel, _ now: Instant, _ out: inout [Output]) {
        let old = replaceModel(model)
        if levels.isEmpty { return stop(.noItems, &out) }
        if let s = scrolled {
            if now - s.at > Scanner.scrollFollowTime {
                scrolled = nil
            } else if let i = firstMovedOnScreen(in: s.container, since: old.model) {
                // The page moved: the first item now in view of the container scrolled that moved
                // with it or came into view (a list's column header stays where it was).
                scrolled = nil
                return highlight(levels.location(ofItem: i), passes: 0, cause: .begin, now, &out)
            }
        }
        if let f = followed {
            if now - f.at > Scanner.pageFollowTime {
                followed = nil
            } else if levels.model.itemIndex(id: f.item) == nil, let i = firstOnNewPage(since: f.before) {
                followed = nil
                return highlight(levels.location(ofItem: i), passes: 0, cause: .begin, now, &out)
            }
        }
        let location = relocate(c.location, from: old)
        let passes = min(c.passes, loops - 1)
        if levels.highlight(levels.stop(location)) == old.highlight(old.stop(c.location)) {
            state = .scanning(Cursor(location: location, passes: passes, dwell: c.dwell))
        } else {
            // A running step dwell restarts on the new stop; one that was not running stays off.
            highlight(location, passes: passes, cause: c.dwell == nil ? .begin : .pressMove, now, &out)
        }
    }

    /// The first scan item inside scrollable container `id` that has a frame (is on screen) and
    /// had another one (or none, or was not there) in `old`.
    func firstMovedOnScreen(in id: String, since old: ScanModel) -> Int? {
        levels.model.items.indices.first { i in
            let item = levels.model.items[i]
            guard item.scrollContainer?.id == id, let frame = item.element.frame else { return false }
            return old.itemIndex(id: item.id).map { old.items[$0].element.frame != frame } ?? true
        }
    }

    /// The first page item on screen (`isPageItem`, with a frame) that `before` did not hold: the
    /// new page's first, after a link was followed.
    func firstOnNewPage(since before: Set<String>) -> Int? {
        levels.model.items.indices.first { i in
            let item = levels.model.items[i]
            return item.element.frame != nil && Scanner.isPageItem(item) && !before.contains(item.id)
        }
    }

    private mutating func relayout(autoTap c: Cursor, ends: Instant, _ model: ScanModel, _ now: Instant, _ out: inout [Output]) {
        let old = replaceModel(model)
        if levels.isEmpty { return stop(.noItems, &out) }
        let location = relocate(c.location, from: old)
        if case .item(let i) = old.stop(c.location), case .item(let j) = levels.stop(location),
           old.model.items[i].id == levels.model.items[j].id {
            state = .autoTapWindow(Cursor(location: location, passes: 0, dwell: nil), ends: ends)
        } else if mode == .groupSelection {
            resume(from: location, now, &out)
        } else {
            highlight(location, passes: 0, cause: .begin, now, &out)
        }
    }

    // MARK: - Timers

    /// Emits the timer requests that take the engine from what it has pending to what the new
    /// state needs: set a changed deadline, cancel one no longer needed.
    private mutating func syncTimers(_ out: inout [Output]) {
        var wantDwell: Instant?
        var wantAutoTap: Instant?
        var wantSweep: Instant?
        switch state {
        case .notStarted, .stopped, .colorGroups: break
        case .scanning(let c): wantDwell = c.dwell
        case .autoTapWindow(_, let ends): wantAutoTap = ends
        case .menu(let m): wantDwell = m.cursor.dwell
        case .point(let p): wantSweep = p.sweep.turnAt
        }
        sync(.dwell, from: &pendingDwell, to: wantDwell, &out)
        sync(.autoTap, from: &pendingAutoTap, to: wantAutoTap, &out)
        sync(.sweep, from: &pendingSweep, to: wantSweep, &out)
    }

    private func sync(_ id: TimerID, from pending: inout Instant?, to wanted: Instant?, _ out: inout [Output]) {
        if let wanted {
            if pending != wanted { out.append(.setTimer(id, at: wanted)) }
        } else if pending != nil {
            out.append(.cancelTimer(id))
        }
        pending = wanted
    }
}
