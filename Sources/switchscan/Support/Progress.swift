import Foundation

/// How far a long command is, on standard error, for a person waiting at a terminal
/// (`tree show`, `tree stats`, `tree import`, `simulate`, `calibrate`): nothing during the first
/// 2 s (most runs are over by then), then one line rewritten in place (`\r`) at most once a
/// second; a line break ends it once the work is done. Nothing at all when standard error is not a
/// terminal: a log or a pipe gets no carriage returns.
///
///     0 s ─────────── 2 s ──── 3 s ──── 4 s ── done
///     (quiet)         \r… 10%   \r… 40%  \r… 70%  \n
final class Progress {
    let command: String
    private let shows: Bool
    private let started = ContinuousClock.now
    private var lastShown: ContinuousClock.Instant?
    /// Characters of the last line, blanked by a shorter one.
    private var lastLength = 0

    /// Quiet for this long after the start: 2 s (`SWITCHSCAN_PROGRESS_DELAY` seconds, for the
    /// tests, which cannot wait on a slow run to pass it).
    static let delay: Duration = {
        if let s = ProcessInfo.processInfo.environment["SWITCHSCAN_PROGRESS_DELAY"], let d = Double(s), d >= 0, d <= 60 {
            return .milliseconds(Int64(d * 1000))
        }
        return .seconds(2)
    }()
    /// At most one line per interval.
    static let interval: Duration = .seconds(1)

    /// - Parameter command: how the line starts: "tree stats", "calibrate".
    init(_ command: String, terminal: Bool = isatty(2) == 1) {
        self.command = command
        self.shows = terminal
    }

    /// Says `what` ("12,000 of 1,089 settings replayed") when it is time to; `what` is only
    /// evaluated then, so a caller may report often.
    func update(_ what: @autoclosure () -> String) {
        guard shows else { return }
        let now = ContinuousClock.now
        guard now - started >= Progress.delay else { return }
        if let lastShown, now - lastShown < Progress.interval { return }
        lastShown = now
        show(what())
    }

    private func show(_ what: String) {
        let line = "switchscan \(command): " + what
        Output.rawError("\r" + line + String(repeating: " ", count: max(0, lastLength - line.count)))
        lastLength = line.count
    }

    /// The work is done: a line that was shown is ended (with `what`, the final count, if given).
    func finish(_ what: String? = nil) {
        guard shows, lastShown != nil else { return }
        if let what { show(what) }
        Output.rawError("\n")
        lastShown = nil
    }
}
