/// The one bound on every time that comes from outside: command-line options (`--until`,
/// `--layout`), a recording's timestamps once rebased to t = 0, and the lists `calibrate` tries.
/// One year is far beyond any session, and far from overflowing microseconds in an `Int64`
/// (a time of 1e13 s used to trap in the conversion).
public enum TimeLimit {
    public static let maximumSeconds: Int64 = 365 * 86_400
    public static let maximum = Instant(microseconds: maximumSeconds * 1_000_000)

    /// `seconds` as an instant, or nil when it is not a number from 0 to one year.
    public static func instant(seconds: Double) -> Instant? {
        guard seconds.isFinite, seconds >= 0, seconds <= Double(maximumSeconds) else { return nil }
        return .seconds(seconds)
    }

    /// What the messages say the bound is.
    public static let expected = "a number of seconds from 0 to 31536000 (one year)"
}
