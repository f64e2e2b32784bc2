/// One evdev event (`struct input_event` without its timestamp; frames carry the time).
public struct InputEvent: Hashable, Sendable, CustomStringConvertible {
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(type: UInt16, code: UInt16, value: Int32) {
        self.type = type
        self.code = code
        self.value = value
    }

    public var isSynReport: Bool { type == EventCodes.EV_SYN && code == EventCodes.SYN_REPORT }

    public var description: String { "\(EventCodes.describe(type: type, code: code)) \(value)" }
}

/// An event with the time it happened, as read from a recording or a device.
public struct TimedEvent: Hashable, Sendable {
    public var time: Instant
    public var event: InputEvent

    public init(time: Instant, event: InputEvent) {
        self.time = time
        self.event = event
    }
}

/// The events of one hardware report, up to and excluding its `SYN_REPORT` (evdev's unit of
/// consistency: consumers act on whole frames), with the report's time.
public struct InputFrame: Hashable, Sendable {
    public var time: Instant
    public var events: [InputEvent]

    public init(time: Instant, events: [InputEvent]) {
        self.time = time
        self.events = events
    }

    /// Groups a time-ordered stream into frames at each `SYN_REPORT`; a trailing partial frame
    /// (a recording cut off mid-report) is kept as a frame of its own; empty reports are dropped.
    /// The frame's time is its `SYN_REPORT`'s (or its last event's).
    public static func frames(from events: [TimedEvent]) -> [InputFrame] {
        var frames: [InputFrame] = []
        var grouper = Grouper()
        for e in events {
            if let f = grouper.add(e) { frames.append(f) }
        }
        if let f = grouper.finish() { frames.append(f) }
        return frames
    }

    /// `frames(from:)` one event at a time, for recordings read in pieces.
    public struct Grouper: Sendable {
        private var current: [InputEvent] = []
        private var lastTime = Instant.zero

        public init() {}

        /// The frame `e` completes, if it is a `SYN_REPORT` after other events.
        public mutating func add(_ e: TimedEvent) -> InputFrame? {
            lastTime = e.time
            guard e.event.isSynReport else {
                current.append(e.event)
                return nil
            }
            guard !current.isEmpty else { return nil }
            defer { current.removeAll(keepingCapacity: true) }
            return InputFrame(time: e.time, events: current)
        }

        /// Events after the last `SYN_REPORT`, as a frame at the last event's time.
        public mutating func finish() -> InputFrame? {
            guard !current.isEmpty else { return nil }
            defer { current.removeAll() }
            return InputFrame(time: lastTime, events: current)
        }

        /// How many events wait for their `SYN_REPORT`.
        public var pending: Int { current.count }
    }
}
