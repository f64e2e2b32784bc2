import Glibc
import SwitchInput
import Testing

/// The live loop's wait set, on pipes: what it reports is what became ready, with its token.
@Suite struct EpollTests {
    final class Pipe {
        let read: Int32, write: Int32
        init() {
            var fds: [Int32] = [0, 0]
            _ = fds.withUnsafeMutableBufferPointer { Glibc.pipe($0.baseAddress) }
            read = fds[0]
            write = fds[1]
        }
        deinit {
            close(read)
            close(write)
        }
        func send() { var b: UInt8 = 1; _ = Glibc.write(write, &b, 1) }
    }

    func readyTokens(_ epoll: Epoll) throws -> [Epoll.Ready] {
        let n = try epoll.wait()
        return (0..<n).map { epoll.ready($0) }
    }

    @Test func aReadyFdComesBackWithItsToken() throws {
        let epoll = try Epoll()
        let a = Pipe(), b = Pipe()
        try epoll.add(a.read, .device(0))
        try epoll.add(b.read, .device(7))
        b.send()
        #expect(try readyTokens(epoll) == [Epoll.Ready(token: .device(7), readable: true, hangup: false, events: 0x001)])
    }

    @Test func everyKindOfTokenRoundTrips() throws {
        let epoll = try Epoll()
        let pipes = (0..<6).map { _ in Pipe() }
        let tokens: [Epoll.Token] = [.signals, .timer, .nodeWatch, .device(12), .adapter(0), .adapter(70_000)]
        for (p, t) in zip(pipes, tokens) {
            try epoll.add(p.read, t)
            p.send()
        }
        let ready = try readyTokens(epoll)
        #expect(Set(ready.map { "\($0.token)" }) == Set(tokens.map { "\($0)" }))
        #expect(ready.allSatisfy { $0.readable && !$0.hangup })
    }

    /// A closed writer is a hangup (what a vanished device looks like on its fd).
    @Test func aClosedPeerIsAHangup() throws {
        let epoll = try Epoll()
        var fds: [Int32] = [0, 0]
        _ = fds.withUnsafeMutableBufferPointer { pipe($0.baseAddress) }
        defer { close(fds[0]) }
        try epoll.add(fds[0], .device(1))
        close(fds[1])
        #expect(try readyTokens(epoll) == [Epoll.Ready(token: .device(1), readable: false, hangup: true, events: 0x010)])
    }

    /// A removed fd is no longer reported; adding one twice is an error, not a silent duplicate.
    @Test func removeAndDuplicateAdd() throws {
        let epoll = try Epoll()
        let a = Pipe(), b = Pipe()
        try epoll.add(a.read, .device(0))
        try epoll.add(b.read, .device(1))
        #expect(throws: DeviceError.self) { try epoll.add(a.read, .device(2)) }
        epoll.remove(a.read)
        a.send()
        b.send()
        #expect(try readyTokens(epoll).map(\.token) == [.device(1)])
    }
}
