/// One sweep of point scanning as pure arithmetic on the virtual clock: a band or a line moving
/// back and forth along an axis between `lo` and `hi` (positions of the band's leading edge, or
/// of the line), at `speed` points per second, resting `edgePause` at every edge before it turns
/// (ChromeOS's linger). A leg runs from one edge to the other; `legs` counts the finished ones.
///
///     position  lo ──────────────▶ hi ·· pause ·· hi ◀────────────── lo ·· pause ·· …
///     time      start             arrival        turnAt
struct SweepMotion: Sendable, Equatable {
    let kind: Sweep.Kind
    let axis: Sweep.Axis
    /// The band's thickness (0 for a line).
    let width: Double
    let lo: Double
    let hi: Double
    let speed: Double
    let edgePause: Interval
    private(set) var from: Double
    private(set) var to: Double
    private(set) var start: Instant
    private(set) var legs = 0

    /// The first leg starts at `lo` at `start`. `lo ≤ hi`; `speed > 0`.
    init(_ kind: Sweep.Kind, _ axis: Sweep.Axis, width: Double, lo: Double, hi: Double, speed: Double, edgePause: Interval, start: Instant) {
        self.kind = kind
        self.axis = axis
        self.width = width
        self.lo = lo
        self.hi = max(lo, hi)
        self.speed = max(speed, 0.001)
        self.edgePause = edgePause
        from = lo
        to = max(lo, hi)
        self.start = start
    }

    /// How long the current leg moves.
    var duration: Interval { .seconds(abs(to - from) / speed) }

    /// When the current leg's pause at its far edge ends: the next leg starts. The pause is at
    /// least 1 ms, so with `edgePause` 0 a press at the very instant of arrival still stops the
    /// band on the far edge (the timer would otherwise win the tie), and a zero-length sweep lets
    /// time pass.
    var turnAt: Instant { start + duration + max(edgePause, .milliseconds(1)) }

    /// Where the band or line is at `t` (clamped to the current leg).
    func position(at t: Instant) -> Double {
        let d = duration.microseconds
        guard d > 0 else { return to }
        let elapsed = min(max(t.microseconds - start.microseconds, 0), d)
        return from + (to - from) * Double(elapsed) / Double(d)
    }

    /// The transcript line of the current leg.
    var line: Sweep { Sweep(kind, axis, width: width, .moving(from: from, to: to, duration: duration)) }

    /// The next leg, from the edge reached back to the other, starting at `t`.
    mutating func turn(at t: Instant) {
        legs += 1
        (from, to) = (to, to == hi ? lo : hi)
        start = t
    }
}
