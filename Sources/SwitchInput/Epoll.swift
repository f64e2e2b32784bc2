internal import CEvdev
import Glibc

/// The live loop's wait: one epoll set holding the signal pipe, the timerfd, the node watch and
/// every open device. Registered once (devices come and go with `add`/`remove`), so a wakeup costs
/// the same whatever the number of fds; `poll(2)` re-registers each fd on every call, which is
/// most of a wakeup's kernel time on a 1 kHz touchscreen (measured in the VM benchmark).
public final class Epoll {
    /// What a ready fd is: each registered fd carries one.
    public enum Token: Equatable, Sendable {
        case signals, timer, nodeWatch
        case device(Int)
        /// A descriptor of one of the loop's adapters (`LoopAdapters` numbers them).
        case adapter(Int)

        var raw: UInt64 {
            switch self {
            case .signals: 0
            case .timer: 1
            case .nodeWatch: 2
            case .device(let k): 16 + UInt64(k)
            case .adapter(let k): Token.adapterBase + UInt64(k)
            }
        }

        private static let adapterBase: UInt64 = 1 << 32

        init(raw: UInt64) {
            switch raw {
            case 0: self = .signals
            case 1: self = .timer
            case 2: self = .nodeWatch
            case Token.adapterBase...: self = .adapter(Int(raw - Token.adapterBase))
            default: self = .device(Int(raw - 16))
            }
        }
    }

    public struct Ready: Equatable, Sendable {
        public var token: Token
        /// Readable (data, or the error/end a read will report).
        public var readable: Bool
        /// EPOLLHUP or EPOLLERR: the device is gone.
        public var hangup: Bool
        /// Every event bit (poll(2) values), for adapters that hand them on (GLib).
        public var events: UInt32

        public init(token: Token, readable: Bool, hangup: Bool, events: UInt32 = 0) {
            self.token = token
            self.readable = readable
            self.hangup = hangup
            self.events = events
        }
    }

    public let fileDescriptor: Int32
    /// Reused between waits, so waiting allocates nothing.
    private var tokens = [UInt64](repeating: 0, count: 16)
    private var events = [UInt32](repeating: 0, count: 16)

    public init() throws(DeviceError) {
        let fd = switchscan_epoll_create()
        if fd < 0 { throw DeviceError(node: "epoll", operation: .open, errno: errno) }
        fileDescriptor = fd
    }

    deinit { close(fileDescriptor) }

    public func add(_ fd: Int32, _ token: Token) throws(DeviceError) {
        if switchscan_epoll_add(fileDescriptor, fd, token.raw) != 0 {
            throw DeviceError(node: "epoll", operation: .open, errno: errno)
        }
    }

    /// Watches `fd` for `events` (poll(2) bits), or changes what it is watched for.
    public func watch(_ fd: Int32, events: UInt32, _ token: Token, change: Bool) throws(DeviceError) {
        if switchscan_epoll_watch(fileDescriptor, fd, events, token.raw, change ? 1 : 0) != 0 {
            throw DeviceError(node: "epoll", operation: .open, errno: errno)
        }
    }

    /// Before the fd is closed (closing would also remove it, but only once no other copy of the
    /// fd is open).
    public func remove(_ fd: Int32) { _ = switchscan_epoll_remove(fileDescriptor, fd) }

    /// Sleeps until at least one fd is ready (or a signal interrupts: 0) and returns how many are;
    /// `ready(k)` then says which, until the next wait. A timeout of 0 only looks.
    public func wait(timeoutMilliseconds: Int32 = -1) throws(DeviceError) -> Int {
        let n = tokens.withUnsafeMutableBufferPointer { t in
            events.withUnsafeMutableBufferPointer { e in
                switchscan_epoll_wait(fileDescriptor, t.baseAddress, e.baseAddress, Int32(t.count), timeoutMilliseconds)
            }
        }
        if n < 0 { throw DeviceError(node: "epoll", operation: .open, errno: errno) }
        return Int(n)
    }

    public func ready(_ k: Int) -> Ready {
        Ready(token: Token(raw: tokens[k]), readable: events[k] & switchscan_epoll_in() != 0,
              hangup: events[k] & switchscan_epoll_hangup() != 0, events: events[k])
    }
}
