import Glibc

/// "Something changed" for the live loop: a backend that learns of window changes on its own
/// connection (sway's events, KWin's script reports) writes a byte; the live desktop watches
/// `fileDescriptor` (`WindowChanges.descriptor`) and `take`s them. A non-blocking pipe: a full
/// pipe already says it.
final class ChangeSignal {
    /// What the loop watches (readable after `signal`).
    let fileDescriptor: Int32
    private let writeEnd: Int32

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        } else {
            fds = [-1, -1]
        }
        (fileDescriptor, writeEnd) = (fds[0], fds[1])
    }

    deinit {
        if fileDescriptor >= 0 { close(fileDescriptor) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    func signal() {
        var one: UInt8 = 1
        _ = write(writeEnd, &one, 1)
    }

    /// True when `signal` was called since the last `take`.
    func take() -> Bool {
        var bytes = [UInt8](repeating: 0, count: 64)
        var any = false
        while read(fileDescriptor, &bytes, bytes.count) > 0 { any = true }
        return any
    }
}
