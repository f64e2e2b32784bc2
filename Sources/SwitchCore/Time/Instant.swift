/// Time in the pure core: integer microseconds, so a simulation replays to the same transcript on
/// every machine (no floating-point drift) and evdev timestamps (sec + usec) convert exactly.
/// The core never reads a clock: the live loop and the simulator pass instants in.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Microseconds since the engine started (t = 0).
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }

    public static let zero = Instant(microseconds: 0)

    /// Seconds, rounded to the nearest microsecond; saturates at ±Int64.max µs (and NaN is 0)
    /// instead of trapping. Times from outside are checked against `TimeLimit` before this.
    public static func seconds(_ s: Double) -> Instant { Instant(microseconds: saturatingMicroseconds(s)) }

    public var seconds: Double { Double(microseconds) / 1_000_000 }

    public static func < (a: Instant, b: Instant) -> Bool { a.microseconds < b.microseconds }
    public static func + (a: Instant, d: Interval) -> Instant { Instant(microseconds: a.microseconds + d.microseconds) }
    public static func - (a: Instant, d: Interval) -> Instant { Instant(microseconds: a.microseconds - d.microseconds) }
    public static func - (a: Instant, b: Instant) -> Interval { Interval(microseconds: a.microseconds - b.microseconds) }

    /// Seconds with exactly three decimals, rounded half away from zero ("1.000", "12.346"):
    /// the transcript's time format.
    public var transcriptString: String { formatMilliseconds(microseconds) }

    public var description: String { transcriptString }
}

/// A length of time, in integer microseconds. Zero means "off" for every filter setting.
public struct Interval: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }

    public static let zero = Interval(microseconds: 0)

    public static func seconds(_ s: Double) -> Interval { Interval(microseconds: saturatingMicroseconds(s)) }
    public static func milliseconds(_ ms: Int64) -> Interval { Interval(microseconds: ms * 1000) }

    public var seconds: Double { Double(microseconds) / 1_000_000 }
    public var isZero: Bool { microseconds == 0 }

    public static func < (a: Interval, b: Interval) -> Bool { a.microseconds < b.microseconds }
    public static func + (a: Interval, b: Interval) -> Interval { Interval(microseconds: a.microseconds + b.microseconds) }
    public static func * (a: Interval, n: Int) -> Interval { Interval(microseconds: a.microseconds * Int64(n)) }

    public var description: String { formatMilliseconds(microseconds) + "s" }
}

/// Seconds to whole microseconds, clamped to what an `Int64` holds.
func saturatingMicroseconds(_ s: Double) -> Int64 {
    let us = (s * 1_000_000).rounded()
    if us.isNaN { return 0 }
    if us >= 9.2e18 { return Int64.max }
    if us <= -9.2e18 { return Int64.min }
    return Int64(us)
}

/// "1.234" from 1_234_400 µs: three decimals, half away from zero.
func formatMilliseconds(_ us: Int64) -> String {
    let negative = us < 0
    let magnitude = negative ? -us : us
    let ms = (magnitude + 500) / 1000
    let whole = ms / 1000
    let frac = ms % 1000
    var s = negative && ms != 0 ? "-" : ""
    s += String(whole)
    s += "."
    if frac < 100 { s += "0" }
    if frac < 10 { s += "0" }
    s += String(frac)
    return s
}
