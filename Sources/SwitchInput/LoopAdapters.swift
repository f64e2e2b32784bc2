import Glibc
import SwitchCore

/// The live loop's adapters and the descriptors they have in its epoll set. Each wakeup:
/// `prepare` asks every adapter what to watch and registers only the differences; the wait's
/// adapter tokens go to `noteReady`; `dispatch` runs the adapters that have ready descriptors or
/// a deadline that passed.
final class LoopAdapters {
    let adapters: [LoopAdapter]
    /// Per adapter: its registered descriptors → (events, token).
    private var registered: [[Int32: (events: UInt32, token: Int)]]
    /// Token → (adapter, descriptor).
    private var owners: [Int: (adapter: Int, fd: Int32)] = [:]
    private var nextToken = 0
    private var deadlines: [Int64?]
    private var ready: [[LoopFD]]
    private let log: (String) -> Void

    init(_ adapters: [LoopAdapter], log: @escaping (String) -> Void) {
        self.adapters = adapters
        self.log = log
        registered = adapters.map { _ in [:] }
        deadlines = adapters.map { _ in nil }
        ready = adapters.map { _ in [] }
    }

    var isEmpty: Bool { adapters.isEmpty }

    /// Asks every adapter what to watch, brings the epoll set up to date, and returns the
    /// earliest adapter deadline (CLOCK_MONOTONIC µs).
    func prepare(_ epoll: Epoll, nowMonotonic: Int64) -> Int64? {
        var earliest: Int64?
        for (a, adapter) in adapters.enumerated() {
            let interest = adapter.prepare(nowMonotonic: nowMonotonic)
            deadlines[a] = interest.deadline
            if let d = interest.deadline { earliest = min(earliest ?? d, d) }
            // Nothing watched before or now (most adapters, most wakeups): nothing to compare.
            if interest.fds.isEmpty && registered[a].isEmpty { continue }
            var wanted: [Int32: UInt32] = [:]
            for fd in interest.fds { wanted[fd.fd, default: 0] |= fd.events }
            for (fd, old) in registered[a] where wanted[fd] == nil {
                epoll.remove(fd)  // EBADF when the adapter already closed it: nothing to undo.
                owners[old.token] = nil
                registered[a][fd] = nil
            }
            for (fd, events) in wanted {
                if let old = registered[a][fd] {
                    if old.events == events { continue }
                    do {
                        try epoll.watch(fd, events: events, .adapter(old.token), change: true)
                    } catch {
                        // Closed and reopened under the same number since the last wait: add it anew.
                        try? epoll.watch(fd, events: events, .adapter(old.token), change: false)
                    }
                    registered[a][fd] = (events, old.token)
                } else {
                    let token = nextToken
                    nextToken += 1
                    do {
                        try epoll.watch(fd, events: events, .adapter(token), change: false)
                    } catch {
                        // Registered under an old number whose close epoll has not seen yet.
                        do {
                            try epoll.watch(fd, events: events, .adapter(token), change: true)
                        } catch {
                            log("\(adapter.name): cannot watch descriptor \(fd): \(error)")
                            continue
                        }
                    }
                    registered[a][fd] = (events, token)
                    owners[token] = (a, fd)
                }
            }
        }
        return earliest
    }

    /// An adapter token the wait reported.
    func noteReady(_ token: Int, events: UInt32) {
        guard let (a, fd) = owners[token] else { return }
        if let k = ready[a].firstIndex(where: { $0.fd == fd }) {
            ready[a][k].events |= events
        } else {
            ready[a].append(LoopFD(fd: fd, events: events))
        }
    }

    /// Whether an adapter has something to do now (ready descriptors or a passed deadline).
    func isDue(nowMonotonic: Int64) -> Bool {
        for a in adapters.indices where !ready[a].isEmpty || (deadlines[a].map { $0 <= nowMonotonic } ?? false) {
            return true
        }
        return false
    }

    /// Dispatches every adapter that is due; their inputs in adapter order.
    func dispatch(nowMonotonic: Int64) -> [ShellInput] {
        var inputs: [ShellInput] = []
        for (a, adapter) in adapters.enumerated() {
            let due = deadlines[a].map { $0 <= nowMonotonic } ?? false
            guard !ready[a].isEmpty || due else { continue }
            let fds = ready[a]
            ready[a].removeAll(keepingCapacity: true)
            if due { deadlines[a] = nil }
            inputs += adapter.dispatch(ready: fds, nowMonotonic: nowMonotonic)
        }
        return inputs
    }

    func observe(_ line: TranscriptLine, model: ScanModel) -> [ShellInput] {
        var inputs: [ShellInput] = []
        for adapter in adapters { inputs += adapter.observe(line, model: model) }
        return inputs
    }

    func observeTouch(_ output: TouchOutput) {
        for adapter in adapters { adapter.observeTouch(output) }
    }

    func engineStarted(atMonotonic start: Int64) {
        for adapter in adapters { adapter.engineStarted(atMonotonic: start) }
    }

    func layoutChanged(model: ScanModel) {
        for adapter in adapters { adapter.layoutChanged(model: model) }
    }

    /// Unregisters everything and lets every adapter release what it holds.
    func finish(_ epoll: Epoll?) {
        for a in adapters.indices {
            for fd in registered[a].keys { epoll?.remove(fd) }
            registered[a] = [:]
        }
        owners = [:]
        for adapter in adapters { adapter.finish() }
    }
}
