internal import CEvdev
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
///   which jumps): the time of the read, on CLOCK_MONOTONIC.
///
/// Events queued before the engine started (t < 0) are kept, in order, at t = 0: a press that
/// arrived while the engine was starting is still a press.
public struct EventStamper: Sendable, Equatable {
    /// CLOCK_MONOTONIC (µs) at which the engine's t = 0 is.
    public var engineStart: Int64

    public init(engineStart: Int64) { self.engineStart = engineStart }

    public func instant(kernelMicroseconds: Int64, readMicroseconds: Int64, monotonicTimestamps: Bool) -> Instant {
        let absolute = monotonicTimestamps ? kernelMicroseconds : readMicroseconds
        return Instant(microseconds: max(0, absolute - engineStart))
    }

    /// Absolute CLOCK_MONOTONIC µs of an engine instant (for arming the timerfd).
    public func monotonic(_ t: Instant) -> Int64 { engineStart + t.microseconds }
}
