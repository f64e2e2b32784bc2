internal import CEvdev
import Glibc

/// The write end of the self-pipe. A compile-time constant initialiser makes it a plain static
/// global (no lazy initialisation), so the signal handler may read it.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// SIGINT, SIGTERM and SIGHUP as bytes on a pipe, so `poll` wakes for them like for any fd and
/// the loop handles them between frames (the self-pipe trick: works whichever thread the kernel
/// delivers the signal to, unlike signalfd, which needs the signal blocked in every thread).
public final class SignalPipe {
    public let readEnd: Int32
    private let writeEnd: Int32
    private let signals: [Int32]
    private var previous: [sigaction] = []

    public init(_ signals: [Int32]) throws(DeviceError) {
        var fds: [Int32] = [0, 0]
        guard switchscan_pipe(&fds) == 0 else {
            throw DeviceError(node: "pipe", operation: .open, errno: errno)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
        self.signals = signals
        signalPipeWriteEnd = writeEnd
        for sig in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: sig)
                _ = write(signalPipeWriteEnd, &byte, 1)
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            var old = sigaction()
            sigaction(sig, &action, &old)
            previous.append(old)
        }
        // A parent may have started us with these signals blocked (the mask is inherited across
        // exec; test runners and some process spawners block them): unblock them here.
        var set = sigset_t()
        sigemptyset(&set)
        for sig in signals { sigaddset(&set, sig) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    deinit {
        for (sig, old) in zip(signals, previous) {
            var old = old
            sigaction(sig, &old, nil)
        }
        signalPipeWriteEnd = -1
        close(readEnd)
        close(writeEnd)
    }

    /// The signals that arrived since the last call, in order.
    public func take() -> [Int32] {
        var out: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(readEnd, &buffer, buffer.count)
            if n <= 0 { break }
            out += buffer.prefix(n).map { Int32($0) }
        }
        return out
    }
}
