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
        var current: [InputEvent] = []
        var lastTime = Instant.zero
        for e in events {
            lastTime = e.time
            if e.event.isSynReport {
                if !current.isEmpty { frames.append(InputFrame(time: e.time, events: current)) }
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(e.event)
            }
        }
        if !current.isEmpty { frames.append(InputFrame(time: lastTime, events: current)) }
        return frames
    }
}
