import SwitchCore

/// When to stop listening to bounds-changed events for a while (pure; docs/desktop.md).
///
/// GTK 3 sends `object:bounds-changed` for every new allocation, also unchanged ones: while a
/// spinner turns (gtk3-widget-factory has four), its neighbours report new bounds on every frame,
/// about a hundred events a second that move nothing. Each is checked (the node's extents are read
/// again, `RefreshSchedule.Change.bounds`); when such checks keep finding nothing moved, listening
/// to bounds-changed stops for `pause` (the application then stops sending them: AT-SPI
/// applications emit only what some client listens to), so an idle desktop costs nothing. Window,
/// focus, children and state events, and every perform, still re-read the tree meanwhile.
/// A check within `tail` after a read of the tree's shape (all of it, or subtrees) is not noted:
/// a loaded application tells one layout's bounds in pieces, and the pieces that come after the
/// read find nothing moved because the read saw the layout already; they are that change's tail,
/// not a flood.
///
/// States and events (every pair handled in `handle`):
///
///                 checked(moved: false)                  checked(moved: true)   shapeRead        deadline
///   listening     within `tail` after a shapeRead:       forget the notes       forget the       stale: nothing
///                 nothing; else note it; `limit` notes                          notes, remember
///                 within `window` → pause, paused,                              when
///                 deadline
///   paused        ignored (a late event)                 ignored                remember when    at `until`: resume,
///                                                                                                listening
///
/// Timelines (tests in BoundsFloodGuardTests, named after them):
///
///   flood_pauses       ^still ^still ^still (within 2 s) → pause … +30 s → resume
///   slow_checks_stay   ^still ……3 s…… ^still ……3 s…… ^still        (never 3 within 2 s)
///   real_move_resets   ^still ^still ^moved ^still                   (the count starts again)
///   layout_tail_ignored ^shape ^still ^shape ^still ^shape ^still (each within `tail`): listening;
///                      ^still ^still ^still after `tail`: pause
public struct BoundsFloodGuard: Sendable {
    public struct Settings: Sendable, Equatable {
        public var limit: Int
        public var window: Interval
        public var pause: Interval
        /// How long after a read of the shape a check is that change's late layout.
        public var tail: Interval
        public init(limit: Int = 3, window: Interval = .seconds(2), pause: Interval = .seconds(30),
                    tail: Interval = .milliseconds(200)) {
            self.limit = limit
            self.window = window
            self.pause = pause
            self.tail = tail
        }
    }

    public enum Event: Equatable, Sendable {
        /// A bounds check found the nodes moved, or not.
        case checked(moved: Bool)
        /// The tree's shape was read (all of it, or subtrees).
        case shapeRead
        case deadline
    }

    public enum Output: Equatable, Sendable {
        /// Stop listening to bounds-changed.
        case pause
        /// Listen to bounds-changed again.
        case resume
        case setDeadline(Instant)
    }

    enum State: Equatable, Sendable {
        case listening(still: [Instant])
        case paused(until: Instant)
    }

    public let settings: Settings
    private(set) var state: State = .listening(still: [])
    /// The last read of the shape.
    private(set) var lastShapeRead: Instant?

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    public var isPaused: Bool {
        if case .paused = state { return true }
        return false
    }

    public mutating func handle(_ event: Event, at now: Instant) -> [Output] {
        switch (state, event) {
        case (.listening(var still), .checked(let moved)):
            if moved {
                state = .listening(still: [])
                return []
            }
            if let r = lastShapeRead, now - r < settings.tail { return [] }
            still = still.filter { now - $0 < settings.window } + [now]
            if still.count >= settings.limit {
                state = .paused(until: now + settings.pause)
                return [.pause, .setDeadline(now + settings.pause)]
            }
            state = .listening(still: still)
            return []
        case (.listening, .shapeRead):
            state = .listening(still: [])
            lastShapeRead = now
            return []
        case (.paused, .shapeRead):
            lastShapeRead = now
            return []
        case (.listening, .deadline), (.paused, .checked):
            return []
        case (.paused(let until), .deadline):
            guard now >= until else { return [] }
            state = .listening(still: [])
            return [.resume]
        }
    }

    /// The deadline to wake for, while paused.
    public var deadline: Instant? {
        if case .paused(let until) = state { return until }
        return nil
    }
}
