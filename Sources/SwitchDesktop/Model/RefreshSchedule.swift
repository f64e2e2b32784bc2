import SwitchCore

/// When the live desktop's tree is read again: a pure state machine (docs/desktop.md).
///
/// Accessibility events come in bursts (a click adds a row: children-changed, state-changed
/// showing and visible, bounds-changed of the parents, a focus move). Reading the tree once per
/// event would read it ten times for one change; reading after a fixed delay would be slow.
/// Android's UiChangeStabilizer waits until the UI has been quiet for a while, and forces a
/// refresh when changes keep coming; this does the same with delays fit for a desktop: a re-read
/// once no event came for `quiet`, at the latest `maxDelay` after the burst's first event.
/// After a bounds-changed event the quiet is shorter (`layoutQuiet`): a toolkit sends a change's
/// structure at once (GTK3: children-changed, showing, defunct while the handler runs) and its
/// bounds when it lays the next frame out, one batch per frame (measured in BENCHMARKS.md "Live
/// desktop": structure at +0–1 ms, bounds at +1–19 ms, each frame's batch within 1 ms); once the
/// layout has been told, the change is done, and waiting the full `quiet` again only delays the
/// read. A structural event after it sets the full `quiet` again; a layout told before the real
/// one (another widget's animation) costs at most a second read (its bounds then move). A
/// change confined to known nodes (a name, a value, checked, sensitive) re-reads only those nodes,
/// a node's bounds-changed only its extents (a real move then re-reads it all); a change of the
/// shape below a known node (its children added or removed, shown or hidden) re-reads the nodes
/// below it and splices them into the tree kept (a new child saying it shows must then be among
/// them, else everything is read); any other structural change (a window, a focus move: GTK3
/// misses some children-changed events, so windows and focus always re-read everything, and
/// modal) re-reads it all.
///
/// An application that does not answer a read within the D-Bus timeout ends its tree; it is then
/// pinged every `probeInterval` without blocking, and read again as soon as it answers.
///
/// A tree whose shape changes without a pause (a page changing every 10 ms, which Chromium tells
/// in bursts every 150 ms or so) would be read several times a second for as long as it goes on.
/// Once `busyReads` reads of its shape (everything, or subtrees: not a name, value or bounds alone,
/// so typing into a field never counts) came within `busyWindow`, the schedule says so
/// (`busy(true)`: the shell writes a `tree busy` line) and reads it at most once every
/// `busyInterval`; a read after fewer than `settleBursts` bursts of changes (the reads there would
/// have been) ends it (`busy(false)`, `tree settled`).
///
/// States and events (every pair handled in `handle`):
///
///                   change(c)                 deadline             readFinished(o)          probe answered / failed
///   idle            → settling, deadline      stale: nothing       notAnswering → waiting   ignored
///                     now + quiet                                  else stay
///   settling        last = now, scope ∪ c,    → read(scope), idle  notAnswering → waiting   ignored
///                   deadline min(now+q(c),                         else stay
///                   first+maxDelay)
///   (q(c): layoutQuiet for bounds(_), quiet for the rest; the same for idle's and waiting's deadline;
///   while busy, no settling deadline before the last read + busyInterval. A read of the shape that
///   makes busyReads within busyWindow → busy(true); a read while busy after fewer than
///   settleBursts bursts (the reads there would have been) → busy(false))
///   waiting         → settling (it may        → probe, probing     done → idle; gone →      answered → read(full),
///   (not answering)   answer: a read tells)                        idle; notAnswering stay   idle; failed → next probe
///
/// Timelines (each a test in Tests/SwitchDesktopTests/RefreshScheduleTests, named after it):
///
///   quiet_period          ^c ----quiet---- read(full)
///   burst_coalesced       ^c ^c  ^c ----quiet---- read(full)            (one read for the burst)
///   max_delay             ^c ^c ^c ^c … (each < quiet apart) until first + maxDelay: read
///   layout_settles_sooner ^c ^c --(next frame)-- ^b(a) ^b(b) --layoutQuiet-- read(full)
///                         ^c ^b(a) ^c ----quiet---- read(full)       (structure after it: quiet)
///   node_patch            ^n(a) ^n(b) ---quiet--- read(nodes a, b)
///   bounds_check          ^b(a) ^n(c) ---quiet--- read(nodes c, bounds a)   (extents of a only)
///   patch_absorbed        ^n(a) ^c ---quiet--- read(full)
///   subtree_read          ^s(p) ^u(x) ^s(q) ^b(a) ^n(c) --- read(subtrees p, q; unlisted x; bounds a; nodes c)
///                         ^s(p) ^c --- read(full)                     (structure absorbs it)
///   stale_deadline        (idle) deadline: nothing
///   not_answering_probe   read → notAnswering: waiting, probe at +probeInterval … failed: again …
///                         answered: read(full)
///   change_while_waiting  (waiting) ^c ---quiet--- read(full)           (the read decides)
///   busy_throttles        ^c every 10 ms: a read every maxDelay; the busyReads-th: busy(true); then
///                         a read every busyInterval
///   busy_not_for_values   ^n every 10 ms (a value, a name): read every maxDelay, never busy
///   busy_settles          (busy) ^c … one burst in a second: read, busy(false)
public struct RefreshSchedule: Sendable {
    public struct Settings: Sendable, Equatable {
        /// A burst is over when no event came for this long.
        public var quiet: Interval
        /// A burst is over when no event came for this long after a bounds-changed event (the
        /// toolkit has laid the change out).
        public var layoutQuiet: Interval
        /// At the latest this long after a burst's first event, the tree is read anyway.
        public var maxDelay: Interval
        /// How often an application that does not answer is pinged.
        public var probeInterval: Interval

        /// Reads of the shape within `busyWindow` that make the tree busy.
        public var busyReads: Int
        public var busyWindow: Interval
        /// While busy, the tree is read at most this often.
        public var busyInterval: Interval
        /// Bursts of changes between two reads below which a busy tree has settled.
        public var settleBursts: Int

        public init(quiet: Interval = .milliseconds(15), layoutQuiet: Interval = .milliseconds(5),
                    maxDelay: Interval = .milliseconds(150), probeInterval: Interval = .seconds(1),
                    busyReads: Int = 10, busyWindow: Interval = .seconds(2), busyInterval: Interval = .seconds(1),
                    settleBursts: Int = 3) {
            self.quiet = quiet
            self.layoutQuiet = layoutQuiet
            self.maxDelay = maxDelay
            self.probeInterval = probeInterval
            self.busyReads = busyReads
            self.busyWindow = busyWindow
            self.busyInterval = busyInterval
            self.settleBursts = settleBursts
        }
    }

    public enum Change: Hashable, Sendable {
        /// Anything that may change the tree's shape.
        case structure
        /// The shape below this node may have changed (its children added or removed, one of
        /// them shown or hidden): read the nodes below it afresh.
        case subtree(String)
        /// An event about a node the tree does not hold that may show it (a new child saying it
        /// shows): the subtrees read must bring it, else everything is read.
        case unlisted(String)
        /// Only this node's own properties (its id).
        case node(String)
        /// This node says its bounds changed: read its extents; only a real move reads it all
        /// (GTK3 reports a new allocation on every frame of an animation, unchanged or not).
        case bounds(String)
    }

    /// What to read: everything, or the subtrees below some nodes, the own values of others and
    /// the extents of others still (the shell reads the subtrees first: what they hold is fresh).
    public struct Scope: Equatable, Sendable {
        public var isFull: Bool
        public var nodes: Set<String>
        public var bounds: Set<String>
        public var subtrees: Set<String>
        /// Nodes the tree did not hold that the subtrees must bring (`Change.unlisted`).
        public var unlisted: Set<String>

        public init(isFull: Bool, nodes: Set<String> = [], bounds: Set<String> = [], subtrees: Set<String> = [],
                    unlisted: Set<String> = []) {
            self.isFull = isFull
            self.nodes = nodes
            self.bounds = bounds
            self.subtrees = subtrees
            self.unlisted = unlisted
        }

        public static let full = Scope(isFull: true)
        public static func nodes(_ ids: Set<String>) -> Scope { Scope(isFull: false, nodes: ids) }
        public static func bounds(_ ids: Set<String>) -> Scope { Scope(isFull: false, bounds: ids) }
        public static func subtrees(_ ids: Set<String>) -> Scope { Scope(isFull: false, subtrees: ids) }

        func merged(_ c: Change) -> Scope {
            if isFull { return .full }
            var s = self
            switch c {
            case .structure: return .full
            case .subtree(let id): s.subtrees.insert(id)
            case .unlisted(let id): s.unlisted.insert(id)
            case .node(let id): s.nodes.insert(id)
            case .bounds(let id): s.bounds.insert(id)
            }
            return s
        }
    }

    public enum ReadOutcome: Equatable, Sendable {
        case done
        /// A call went unanswered within the timeout.
        case notAnswering
        /// The application or its windows are gone.
        case gone
    }

    public enum Event: Equatable, Sendable {
        case change(Change)
        /// The deadline this schedule asked for has come.
        case deadline
        case readFinished(ReadOutcome)
        case probeAnswered
        case probeFailed
    }

    public enum Output: Equatable, Sendable {
        /// Read now (the shell reads synchronously, then reports `readFinished`).
        case read(Scope)
        /// Ping the application that does not answer (without blocking).
        case probe
        case setDeadline(Instant)
        case cancelDeadline
        /// The tree became busy (true) or settled again (false).
        case busy(Bool)
    }

    enum State: Equatable, Sendable {
        case idle
        /// `quietUntil`: when the last change's quiet ends; `bursts`: the reads there would have
        /// been without the pace of a busy tree (a change after the last one's quiet, or `maxDelay`
        /// after `burst`, the first change of the last of them, starts another).
        case settling(first: Instant, scope: Scope, quietUntil: Instant, burst: Instant, bursts: Int)
        /// The application did not answer; `probing`: a ping is out.
        case waiting(probing: Bool)
    }

    public let settings: Settings
    private(set) var state: State = .idle
    /// The deadline asked for and not yet come or cancelled.
    public private(set) var deadline: Instant?
    /// The tree changes without a pause (`busy(true)` was said).
    public private(set) var isBusy = false
    /// When the last reads of the shape were (within `busyWindow`), and the last read.
    private var shapeReads: [Instant] = []
    private var lastRead: Instant?

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    public var isWaitingForApplication: Bool {
        if case .waiting = state { return true }
        return false
    }

    public mutating func handle(_ event: Event, at now: Instant) -> [Output] {
        var out: [Output] = []
        switch (state, event) {
        case (.idle, .change(let c)):
            state = .settling(first: now, scope: Scope.nodes([]).merged(c), quietUntil: now + quiet(after: c), burst: now, bursts: 1)
            setDeadline(paced(now + quiet(after: c)), &out)
        case (.idle, .deadline):
            break
        case (.idle, .readFinished(let o)), (.settling, .readFinished(let o)):
            if o == .notAnswering { wait(now, &out) }
        case (.idle, .probeAnswered), (.idle, .probeFailed), (.settling, .probeAnswered), (.settling, .probeFailed):
            break

        case (.settling(let first, let scope, let quietUntil, let burst, let bursts), .change(let c)):
            let another = now >= quietUntil || now >= burst + settings.maxDelay
            state = .settling(first: first, scope: scope.merged(c), quietUntil: now + quiet(after: c),
                              burst: another ? now : burst, bursts: bursts + (another ? 1 : 0))
            setDeadline(paced(min(now + quiet(after: c), first + settings.maxDelay)), &out)
        case (.settling(_, let scope, _, _, let bursts), .deadline):
            guard let d = deadline, d <= now else { break }  // an early wakeup
            deadline = nil
            state = .idle
            if isBusy, bursts < settings.settleBursts {
                isBusy = false
                shapeReads = []
                out.append(.busy(false))
            } else if !isBusy, scope.isFull || !scope.subtrees.isEmpty {
                shapeReads = shapeReads.filter { now - $0 < settings.busyWindow } + [now]
                if shapeReads.count >= settings.busyReads {
                    isBusy = true
                    out.append(.busy(true))
                }
            }
            lastRead = now
            out.append(.read(scope))

        case (.waiting, .change(let c)):
            state = .settling(first: now, scope: Scope.full.merged(c), quietUntil: now + quiet(after: c), burst: now, bursts: 1)
            setDeadline(now + quiet(after: c), &out)
        case (.waiting(let probing), .deadline):
            guard !probing, let d = deadline, d <= now else { break }
            deadline = nil
            state = .waiting(probing: true)
            out.append(.probe)
        case (.waiting, .readFinished(let o)):
            if o != .notAnswering {
                state = .idle
                cancelDeadline(&out)
            }
        case (.waiting(let probing), .probeAnswered):
            guard probing else { break }
            state = .idle
            cancelDeadline(&out)
            out.append(.read(.full))
        case (.waiting(let probing), .probeFailed):
            guard probing else { break }
            state = .waiting(probing: false)
            setDeadline(now + settings.probeInterval, &out)
        }
        return out
    }

    /// A settling deadline, not before the last read + `busyInterval` while busy.
    private func paced(_ d: Instant) -> Instant {
        guard isBusy, let last = lastRead else { return d }
        return max(d, last + settings.busyInterval)
    }

    /// How long the UI must stay quiet after `c` (a layout told: shorter).
    private func quiet(after c: Change) -> Interval {
        if case .bounds = c { return settings.layoutQuiet }
        return settings.quiet
    }

    private mutating func wait(_ now: Instant, _ out: inout [Output]) {
        state = .waiting(probing: false)
        setDeadline(now + settings.probeInterval, &out)
    }

    private mutating func setDeadline(_ at: Instant, _ out: inout [Output]) {
        if deadline != at { out.append(.setDeadline(at)) }
        deadline = at
    }

    private mutating func cancelDeadline(_ out: inout [Output]) {
        if deadline != nil { out.append(.cancelDeadline) }
        deadline = nil
    }
}
