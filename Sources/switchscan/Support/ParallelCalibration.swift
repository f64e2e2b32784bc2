import Dispatch
import Foundation
import SwitchCore

/// `calibrate`'s replays on every core: each setting of the grid is an independent replay of the
/// same presses (`Calibration.run`, pure), so the settings are dealt out to one worker per core
/// and the outcomes put back in grid order. The same outcomes as one worker (each replay is the
/// pure function of its setting); on a 2-core machine the default grid over a long recording
/// takes about half the time (issue 22: 1,000,000 presses took minutes).
enum ParallelCalibration {
    /// `progress` is told the settings done and the total, from whichever worker finished one
    /// (one at a time).
    static func run(events: [TimedEvent], profile: Profile, grid: Calibration.Grid,
                    workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                    progress: @escaping (_ done: Int, _ total: Int) -> Void) -> [Calibration.Outcome] {
        let settings = grid.settings
        let count = max(1, min(workers, settings.count, 16))
        if count == 1 {
            return Calibration.run(events: events, profile: profile, grid: grid, progress: progress)
        }
        let shared = Shared(total: settings.count, progress: progress)
        // Worker w takes settings w, w + count, w + 2·count …: neighbours in the grid cost about
        // the same, so every worker gets an even share.
        DispatchQueue.concurrentPerform(iterations: count) { w in
            let mine = Array(stride(from: w, to: settings.count, by: count))
            let outcomes = Calibration.run(events: events, switches: profile.switches, stabilization: profile.switchStabilization,
                                           settings: mine.map { settings[$0] }) { _, _ in shared.oneDone() }
            shared.store(outcomes, at: mine)
        }
        return shared.outcomes.map { $0! }
    }

    /// What the workers share, behind one lock.
    private final class Shared: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var outcomes: [Calibration.Outcome?]
        private var done = 0
        private let total: Int
        private let progress: (_ done: Int, _ total: Int) -> Void

        init(total: Int, progress: @escaping (_ done: Int, _ total: Int) -> Void) {
            self.total = total
            self.progress = progress
            outcomes = Array(repeating: nil, count: total)
        }

        func oneDone() {
            lock.lock()
            defer { lock.unlock() }
            done += 1
            progress(done, total)
        }

        func store(_ results: [Calibration.Outcome], at indices: [Int]) {
            lock.lock()
            defer { lock.unlock() }
            for (k, i) in indices.enumerated() { outcomes[i] = results[k] }
        }
    }
}
