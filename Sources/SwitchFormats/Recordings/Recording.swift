import SwitchCore

/// Input recorded from one or more devices, on one time base: what `simulate` replays and
/// `record` writes.
public struct Recording: Sendable, Equatable {
    public struct Device: Sendable, Equatable {
        /// Nil for an events-only evemu file (no `N:`/`I:`/`B:` lines).
        public var description: DeviceDescription?
        /// Time-ordered events, times as written in the file.
        public var events: [TimedEvent]
        /// The file ends inside this line (no line break after it, and it does not read): the
        /// recording was cut short there; the line is left out (a warning, `RecordingCheck`).
        public var cutAtLine: Int?

        public init(description: DeviceDescription?, events: [TimedEvent], cutAtLine: Int? = nil) {
            self.description = description
            self.events = events
            self.cutAtLine = cutAtLine
        }
    }

    public var devices: [Device]

    public init(devices: [Device]) { self.devices = devices }

    public var eventCount: Int { devices.reduce(0) { $0 + $1.events.count } }

    /// The earliest event time over all devices.
    public var firstEventTime: Instant? { devices.compactMap { $0.events.first?.time }.min() }

    /// A first timestamp above this (100000 s, in µs) is absolute: the recording is shifted to 0.
    public static let absoluteTimeThreshold: Int64 = 100_000 * 1_000_000

    /// The simulator's time base: timestamps are seconds since scanning started, except that a
    /// recording whose first timestamp is above 100000 s (absolute, as older evemu files carry) is
    /// shifted so its first event is at t = 0. All devices shift together.
    public func rebasedForSimulation() -> Recording {
        guard let first = firstEventTime, first.microseconds > Recording.absoluteTimeThreshold else { return self }
        var copy = self
        for d in copy.devices.indices {
            for e in copy.devices[d].events.indices {
                copy.devices[d].events[e].time = Instant(microseconds: copy.devices[d].events[e].time.microseconds - first.microseconds)
            }
        }
        return copy
    }

    /// Every device's frames merged into one time-ordered stream; frames at the same instant keep
    /// device order, so a replay is deterministic.
    public func mergedFrames() -> [(device: Int, frame: InputFrame)] {
        var all: [(device: Int, frame: InputFrame)] = []
        for (k, d) in devices.enumerated() {
            for f in InputFrame.frames(from: d.events) { all.append((k, f)) }
        }
        // Stable sort by time (sort is not stable: break ties by device then original order).
        let indexed = all.enumerated().map { ($0.offset, $0.element) }
        return indexed.sorted { a, b in
            if a.1.frame.time != b.1.frame.time { return a.1.frame.time < b.1.frame.time }
            if a.1.device != b.1.device { return a.1.device < b.1.device }
            return a.0 < b.0
        }.map(\.1)
    }
}
