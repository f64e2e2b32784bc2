internal import CEvdev
import Glibc

/// One CLOCK_MONOTONIC timerfd armed at an absolute time (libinput's `src/timer.c`): the loop
/// arms it at the engine's next deadline, so it sleeps in `epoll_wait` (the recorder: `poll`) until input or a timer is due.
public final class TimerFD {
    public let fileDescriptor: Int32

    public init() throws(DeviceError) {
        let fd = switchscan_timerfd_create()
        if fd < 0 { throw DeviceError(node: "timerfd", operation: .open, errno: errno) }
        fileDescriptor = fd
    }

    deinit { close(fileDescriptor) }

    /// Arms at `monotonicMicroseconds` (a past time fires at once); nil disarms.
    public func arm(at monotonicMicroseconds: Int64?) {
        guard let at = monotonicMicroseconds else {
            _ = switchscan_timerfd_arm(fileDescriptor, 0)
            return
        }
        _ = switchscan_timerfd_arm(fileDescriptor, max(1, at))
    }

    /// Clears an expiry so epoll (or poll) stops reporting it.
    public func acknowledge() {
        var expirations: UInt64 = 0
        _ = read(fileDescriptor, &expirations, 8)
    }
}
