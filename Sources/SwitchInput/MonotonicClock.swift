internal import CEvdev
import Glibc
import SwitchCore

/// CLOCK_MONOTONIC in microseconds: the one clock of the live loop. Event timestamps (once
/// `libevdev_set_clock_id` succeeded), the timerfd and read-time stamps all use it, so they can be
/// compared.
public enum MonotonicClock {
    public static func nowMicroseconds() -> Int64 { Int64(switchscan_monotonic_us()) }
}

/// How a device's events get their engine time (`Instant`, µs since the engine started).
///
/// - The device's timestamps are CLOCK_MONOTONIC (`libevdev_set_clock_id` succeeded): the kernel's
///   stamp minus the engine's start, so the time is when the hardware reported, not when we read.
/// - Otherwise (umockdev answers EVIOCSCLOCKID with ENOENT; the kernel default is CLOCK_REALTIME,
///   which jumps): the event's CLOCK_REALTIME stamp, carried over to CLOCK_MONOTONIC by its age at
///   the read (the read's monotonic time minus how long before the read, on the wall clock, the
///   event was stamped). A batch read late (the loop was busy, the process was descheduled) keeps
///   the events' own spacing: three taps 100 ms apart read at once are still 100 ms apart, and
///   debounce does not take them for one chattering press. A stamp that cannot be an age (from
///   the future, older than `realtimeTrust`, or no wall clock at all: a replayed file's times)
///   says nothing about the engine's clock: the time of the read.
///
/// Events queued before the engine started (t < 0) are kept, in order, at t = 0: a press that
/// arrived while the engine was starting is still a press.
public struct EventStamper: Sendable, Equatable {
    /// CLOCK_MONOTONIC (µs) at which the engine's t = 0 is.
    public var engineStart: Int64
    /// The oldest a wall-clock stamp may be at its read to be believed (older: a clock jump).
    public static let realtimeTrust: Int64 = 10_000_000

    public init(engineStart: Int64) { self.engineStart = engineStart }

    /// `realtimeReadMicroseconds`: CLOCK_REALTIME at the read (nil: not known, the read time).
    public func instant(kernelMicroseconds: Int64, readMicroseconds: Int64, monotonicTimestamps: Bool,
                        realtimeReadMicroseconds: Int64? = nil) -> Instant {
        var absolute = monotonicTimestamps ? kernelMicroseconds : readMicroseconds
        if !monotonicTimestamps, let wall = realtimeReadMicroseconds {
            let age = wall - kernelMicroseconds
            if age >= 0 && age <= EventStamper.realtimeTrust { absolute = readMicroseconds - age }
        }
        return Instant(microseconds: max(0, absolute - engineStart))
    }

    /// Absolute CLOCK_MONOTONIC µs of an engine instant (for arming the timerfd).
    public func monotonic(_ t: Instant) -> Int64 { engineStart + t.microseconds }
}

extension MonotonicClock {
    /// CLOCK_REALTIME in microseconds: only to carry a device's wall-clock stamps over (`EventStamper`).
    public static func realtimeMicroseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }
}
