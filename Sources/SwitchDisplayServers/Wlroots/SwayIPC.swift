import Foundation
import Glibc
import SwitchInput

/// sway's IPC (i3's protocol) over the unix socket SWAYSOCK names: a message is the magic
/// "i3-ipc", the payload's length and the message type (both 32-bit, native byte order), then
/// the payload (JSON, or a command's text). Replies carry the request's type; events carry the
/// event type with the high bit set.
///
/// `SwayIPC` asks and waits for the answer (each wait bounded: a compositor that stops answering
/// is a clear error, never a hang): the tree, the outputs, commands (`[con_id=N] focus`, `kill`).
/// `SwayEvents` is a second connection subscribed to events, whose socket the live loop watches.
public final class SwayIPC {
    public enum MessageType: UInt32, Sendable {
        case runCommand = 0, getWorkspaces = 1, subscribe = 2, getOutputs = 3, getTree = 4, getVersion = 7, getSeats = 101
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// SWAYSOCK is not set.
        case noSocket
        case cannotConnect(path: String, errno: Int32)
        /// sway closed the socket, or a read or write failed.
        case lost(String)
        case timedOut(String)
        /// A reply that is not what the protocol says.
        case badReply(String)
        /// sway refused a command (its own message).
        case commandFailed(command: String, error: String)

        public var description: String {
            switch self {
            case .noSocket: return "SWAYSOCK is not set: not a sway session"
            case .cannotConnect(let path, let e): return "cannot connect to sway's IPC socket \(path): \(String(cString: strerror(e)))"
            case .lost(let why): return "sway's IPC connection was lost: \(why)"
            case .timedOut(let what): return "sway did not answer in time (\(what))"
            case .badReply(let why): return "sway's IPC reply is malformed: \(why)"
            case .commandFailed(let c, let e): return "sway refused \"\(c)\": \(e)"
            }
        }
    }

    public let socketPath: String
    let socket: SwaySocket

    /// Connects to SWAYSOCK.
    public convenience init(environment: [String: String]) throws(Failure) {
        guard let path = environment["SWAYSOCK"], !path.isEmpty else { throw .noSocket }
        try self.init(socketPath: path)
    }

    public init(socketPath: String) throws(Failure) {
        self.socketPath = socketPath
        socket = try SwaySocket(path: socketPath)
    }

    /// Sends a message and waits (at most `timeout` s) for its reply's payload.
    public func request(_ type: MessageType, _ payload: String = "", timeout: Double = 5) throws(Failure) -> Data {
        try socket.send(type.rawValue, Data(payload.utf8), timeout: timeout)
        let deadline = SwaySocket.now() + timeout
        while true {
            for frame in try socket.receive(until: deadline, what: "\(type) reply") where frame.type == type.rawValue {
                return frame.payload
            }
        }
    }

    /// Every window, from `get_tree`.
    public func windows(timeout: Double = 5) throws -> [SwayWindow] {
        try SwayTree.windows(fromJSON: request(.getTree, timeout: timeout))
    }

    public func outputs(timeout: Double = 5) throws -> [SwayOutput] {
        try SwayOutput.list(fromJSON: request(.getOutputs, timeout: timeout))
    }

    /// Runs a command (`[con_id=5] focus`); throws with sway's message when it refuses.
    public func command(_ text: String, timeout: Double = 5) throws(Failure) {
        let reply = try request(.runCommand, text, timeout: timeout)
        guard let results = try? JSONSerialization.jsonObject(with: reply) as? [[String: Any]] else {
            throw .badReply("run_command answered \(String(decoding: reply.prefix(200), as: UTF8.self))")
        }
        for r in results where r["success"] as? Bool != true {
            throw .commandFailed(command: text, error: r["error"] as? String ?? "no reason given")
        }
    }

    /// Focuses (activates, raising to its workspace) the window with container id `id`.
    public func focus(windowID id: Int) throws(Failure) { try command("[con_id=\(id)] focus") }

    /// Asks the window to close (sway's `kill`: xdg_toplevel.close, as the close button does).
    public func close(windowID id: Int) throws(Failure) { try command("[con_id=\(id)] kill") }
}

/// A connection subscribed to sway's events (`window` by default): the loop watches
/// `fileDescriptor`; `read` takes what came without blocking.
public final class SwayEvents {
    public struct Event: Equatable, Sendable {
        /// The event type without the high bit (i3's numbers: 0 workspace, 1 output, 2 mode,
        /// 3 window, 4 barconfig_update, 5 binding, 6 shutdown, 7 tick).
        public var type: UInt32
        /// "new", "close", "focus", "title", "move", "floating" … for window events.
        public var change: String
        /// The container the event is about (window events).
        public var containerID: Int?
    }

    public static let windowEvent: UInt32 = 3

    let socket: SwaySocket

    public init(socketPath: String, events: [String] = ["window"], timeout: Double = 5) throws(SwayIPC.Failure) {
        socket = try SwaySocket(path: socketPath)
        let list = "[" + events.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        try socket.send(SwayIPC.MessageType.subscribe.rawValue, Data(list.utf8), timeout: timeout)
        let deadline = SwaySocket.now() + timeout
        var answered = false
        while !answered {
            for frame in try socket.receive(until: deadline, what: "the subscription's answer")
            where frame.type == SwayIPC.MessageType.subscribe.rawValue {
                let ok = (try? JSONSerialization.jsonObject(with: frame.payload) as? [String: Any])?["success"] as? Bool
                guard ok == true else { throw .badReply("subscribe \(list) was refused") }
                answered = true
            }
        }
    }

    /// The socket: readable when events came (or sway hung up).
    public var fileDescriptor: Int32 { socket.fd }

    /// The loop's interest: the socket, readable.
    public var interest: LoopFD { LoopFD(fd: socket.fd, events: LoopFD.readable) }

    /// The events that came (none when nothing is there). Throws when sway closed the socket.
    public func read() throws(SwayIPC.Failure) -> [Event] {
        try socket.receiveAvailable().compactMap { frame in
            guard frame.type & 0x8000_0000 != 0 else { return nil }
            let object = try? JSONSerialization.jsonObject(with: frame.payload) as? [String: Any]
            let container = object?["container"] as? [String: Any]
            return Event(type: frame.type & 0x7fff_ffff, change: object?["change"] as? String ?? "",
                         containerID: container?["id"] as? Int)
        }
    }
}

/// i3-ipc frames cut from a byte stream (pure: bytes in, frames out; partial frames wait for the
/// rest).
struct SwayFrameReader {
    struct Frame: Equatable {
        var type: UInt32
        var payload: Data
    }

    static let magic = Data("i3-ipc".utf8)
    static let headerSize = 14
    /// A reply larger than this is taken for a broken stream (a real tree is well under 1 MB per
    /// 100 windows).
    static let maxPayload = 64 << 20
    private var buffer = Data()

    static func encode(type: UInt32, payload: Data) -> Data {
        var d = magic
        withUnsafeBytes(of: UInt32(payload.count)) { d.append(contentsOf: $0) }
        withUnsafeBytes(of: type) { d.append(contentsOf: $0) }
        d.append(payload)
        return d
    }

    /// Adds bytes; returns the frames now complete, in order.
    mutating func take(_ bytes: Data) throws(SwayIPC.Failure) -> [Frame] {
        buffer.append(bytes)
        var frames: [Frame] = []
        while buffer.count >= Self.headerSize {
            let start = buffer.startIndex
            guard buffer[start..<start + 6] == Self.magic else {
                throw .badReply("a message does not start with \"i3-ipc\"")
            }
            let length = Int(Self.uint32(buffer, at: start + 6))
            let type = Self.uint32(buffer, at: start + 10)
            guard length <= Self.maxPayload else { throw .badReply("a message announces \(length) bytes") }
            guard buffer.count >= Self.headerSize + length else { break }
            frames.append(Frame(type: type, payload: Data(buffer[start + Self.headerSize..<start + Self.headerSize + length])))
            buffer = Data(buffer[(start + Self.headerSize + length)...])
        }
        return frames
    }

    private static func uint32(_ d: Data, at i: Data.Index) -> UInt32 {
        var v: UInt32 = 0
        withUnsafeMutableBytes(of: &v) { raw in
            for k in 0..<4 { raw[k] = d[i + k] }
        }
        return v
    }
}

/// The non-blocking unix socket under both connections, with deadline-bounded sends and reads.
final class SwaySocket {
    let fd: Int32
    private var reader = SwayFrameReader()

    init(path: String) throws(SwayIPC.Failure) {
        let s = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { throw .cannotConnect(path: path, errno: errno) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else {
            close(s)
            throw .cannotConnect(path: path, errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (k, b) in bytes.enumerated() { raw[k] = b }
        }
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard ok == 0 else {
            let e = errno
            close(s)
            throw .cannotConnect(path: path, errno: e)
        }
        _ = fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_NONBLOCK)
        fd = s
    }

    deinit { close(fd) }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    func send(_ type: UInt32, _ payload: Data, timeout: Double) throws(SwayIPC.Failure) {
        let bytes = [UInt8](SwayFrameReader.encode(type: type, payload: payload))
        let deadline = SwaySocket.now() + timeout
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if n > 0 { sent += n; continue }
            if n < 0 && errno == EINTR { continue }
            guard n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) else { throw .lost(String(cString: strerror(errno))) }
            try waitFor(Int16(POLLOUT), until: deadline, what: "sending a request")
        }
    }

    /// At least one complete frame, waiting until `deadline`.
    func receive(until deadline: Double, what: String) throws(SwayIPC.Failure) -> [SwayFrameReader.Frame] {
        while true {
            let frames = try receiveAvailable()
            if !frames.isEmpty { return frames }
            try waitFor(Int16(POLLIN), until: deadline, what: what)
        }
    }

    /// The complete frames readable now, without waiting.
    func receiveAvailable() throws(SwayIPC.Failure) -> [SwayFrameReader.Frame] {
        var chunk = [UInt8](repeating: 0, count: 65536)
        var frames: [SwayFrameReader.Frame] = []
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                frames += try reader.take(Data(chunk[0..<n]))
                continue
            }
            if n == 0 { throw .lost("sway closed the socket") }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return frames }
            throw .lost(String(cString: strerror(errno)))
        }
    }

    private func waitFor(_ events: Int16, until deadline: Double, what: String) throws(SwayIPC.Failure) {
        let left = deadline - SwaySocket.now()
        guard left > 0 else { throw .timedOut(what) }
        var p = pollfd(fd: fd, events: events, revents: 0)
        _ = poll(&p, 1, Int32(min(left * 1000 + 1, 60_000)))
    }
}
