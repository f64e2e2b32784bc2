import Dispatch
import Foundation
import SwitchCore

/// `calibrate`'s replays on every core: the settings of each hold duration are an independent
/// piece of work over the same presses (`Calibration.run`, pure), so the holds are dealt out to
/// one worker per core and the outcomes put back in grid order. The same outcomes as one worker;
/// on an idle 2-core machine the default grid over a long recording takes about half the time.
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
        // The grid's settings come hold duration by hold duration; `Calibration.run` shares work
        // between settings of the same hold (and debounce), so a hold's settings stay together:
        // worker w takes holds w, w + workers, … .
        var holds: [[Int]] = []
        for k in settings.indices {
            if k == 0 || settings[k].holdDuration != settings[k - 1].holdDuration { holds.append([]) }
            holds[holds.count - 1].append(k)
        }
        let blocks = holds
        let workers = min(count, blocks.count)
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            let mine = stride(from: w, to: blocks.count, by: workers).flatMap { blocks[$0] }
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
