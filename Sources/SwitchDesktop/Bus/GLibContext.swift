internal import CAtspi
import SwitchInput

/// GLib's default main context, iterated from the live loop's epoll wait instead of a thread of
/// its own: libatspi delivers events, and libdbus replies to pings, through it.
/// `prepare` is g_main_context_prepare + query (the descriptors to watch and GLib's next timeout),
/// `dispatch` is g_main_context_check + dispatch with what the wait reported.
final class GLibContext {
    private var fds: [GPollFD] = Array(repeating: GPollFD(), count: 16)
    private var count = 0
    private var priority: gint = 0
    private var prepared = false
    private let context: OpaquePointer

    init() {
        context = g_main_context_default()
        _ = g_main_context_acquire(context)
    }

    deinit {
        g_main_context_release(context)
    }

    /// The descriptors GLib wants watched and the CLOCK_MONOTONIC µs by which it wants to run.
    func prepare(nowMonotonic: Int64) -> LoopInterest {
        // The loop woke for something else since the last prepare: complete that iteration first
        // (GLib wants check after query), dispatching what is due (timeouts, idle sources).
        if prepared { dispatch(ready: []) }
        _ = g_main_context_prepare(context, &priority)
        var timeout: gint = -1
        var n = Int(g_main_context_query(context, priority, &timeout, &fds, gint(fds.count)))
        if n > fds.count {
            fds = Array(repeating: GPollFD(), count: n)
            n = Int(g_main_context_query(context, priority, &timeout, &fds, gint(fds.count)))
        }
        count = min(n, fds.count)
        prepared = true
        var interest = LoopInterest()
        for k in 0..<count where fds[k].fd >= 0 {
            interest.fds.append(LoopFD(fd: fds[k].fd, events: UInt32(fds[k].events)))
        }
        if timeout >= 0 { interest.deadline = nowMonotonic + Int64(timeout) * 1000 }
        return interest
    }

    /// Runs what is ready: `ready` are the descriptors the wait reported, with their poll bits.
    func dispatch(ready: [LoopFD]) {
        guard prepared else { return }
        prepared = false
        for k in 0..<count {
            let fd = fds[k].fd
            fds[k].revents = gushort(truncatingIfNeeded: ready.first(where: { $0.fd == fd }).map { $0.events & UInt32(fds[k].events | 0x18) } ?? 0)
        }
        if g_main_context_check(context, priority, &fds, gint(count)) != 0 {
            g_main_context_dispatch(context)
        }
    }
}
