import SwitchCore

/// When to stop listening to bounds-changed events for a while (pure; README "The live desktop").
///
/// GTK 3 sends `object:bounds-changed` for every new allocation, also unchanged ones: while a
/// spinner turns (gtk3-widget-factory has four), its neighbours report new bounds on every frame,
/// about a hundred events a second that move nothing. Each is checked (the node's extents are read
/// again, `RefreshSchedule.Change.bounds`); when such checks keep finding nothing moved, listening
/// to bounds-changed stops for `pause` (the application then stops sending them: AT-SPI
/// applications emit only what some client listens to), so an idle desktop costs nothing. Window,
/// focus, children and state events, and every perform, still re-read the tree meanwhile.
///
/// States and events (every pair handled in `handle`):
///
///                 checked(moved: false)                  checked(moved: true)   deadline
///   listening     note it; `limit` notes within          forget the notes       stale: nothing
///                 `window` → pause, paused, deadline
///   paused        ignored (a late event)                 ignored                at `until`: resume,
///                                                                               listening
///
/// Timelines (tests in BoundsFloodGuardTests, named after them):
///
///   flood_pauses       ^still ^still ^still (within 2 s) → pause … +30 s → resume
///   slow_checks_stay   ^still ……3 s…… ^still ……3 s…… ^still        (never 3 within 2 s)
///   real_move_resets   ^still ^still ^moved ^still                   (the count starts again)
public struct BoundsFloodGuard: Sendable {
    public struct Settings: Sendable, Equatable {
        public var limit: Int
        public var window: Interval
        public var pause: Interval
        public init(limit: Int = 3, window: Interval = .seconds(2), pause: Interval = .seconds(30)) {
            self.limit = limit
            self.window = window
            self.pause = pause
        }
    }

    public enum Event: Equatable, Sendable {
        /// A bounds check found the nodes moved, or not.
        case checked(moved: Bool)
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
            still = still.filter { now - $0 < settings.window } + [now]
            if still.count >= settings.limit {
                state = .paused(until: now + settings.pause)
                return [.pause, .setDeadline(now + settings.pause)]
            }
            state = .listening(still: still)
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
