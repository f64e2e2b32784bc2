internal import CDBus
import Glibc
import SwitchInput

/// A connection of its own to the session bus, for the display backends that live on it (the
/// GNOME Shell extension, KWin's scripting): method calls with a timeout, signals, owning a name,
/// objects others call, and the name owners it watches. Driven by the one loop, without a thread:
/// `fileDescriptor` is readable whenever there is something to do (the bus wrote, a call's
/// timeout passed, or something waits in the inbox), and `dispatch()` does it.
///
///     call(…, reply:)          sent at once; `reply` runs in a later `dispatch` with the answer,
///                              the peer's error, `.timeout` once the call's deadline passed, or
///                              `.disconnected`
///     callAndWait(…)           sent, then the answer waited for (at most the timeout): for the
///                              seam's synchronous questions (a window's origin, a click's end);
///                              whatever else arrives meanwhile waits in the inbox
///     subscribe / watchNameOwner   handlers run in `dispatch`, in the order the bus sent them
///     export(path, …)          method calls to `path` run their handler in `dispatch`; it answers
///                              now or later (`BusCall.reply`: KWin's long poll)
///     the bus daemon goes away `isConnected` false, every call out fails `.disconnected`,
///                              `onDisconnect` runs once
///
/// Everything arriving goes through one filter, which only files it (a reply waited for by
/// `callAndWait` is kept for it; anything else joins the inbox in arrival order, and the inbox's
/// eventfd wakes the loop): no handler ever runs inside a wait. libdbus's own timeouts are not
/// used (they need a main loop's timeout functions): each call's deadline is kept here and a
/// timerfd, in the same epoll set as the socket and the eventfd, wakes the loop for the earliest.
public final class SessionBus {
    /// How long a call waits for its answer unless told otherwise.
    public static let defaultTimeoutMilliseconds = 1000

    /// Where it is connected ("unix:path=/run/user/1000/bus").
    public let address: String
    /// Its unique name on the bus (":1.42").
    public let uniqueName: String
    /// False once the connection closed.
    public private(set) var isConnected = true
    /// Runs once, in `dispatch`, when the connection closed.
    public var onDisconnect: (() -> Void)?
    /// Readable when `dispatch` has something to do (an epoll set: the socket, the inbox's
    /// eventfd, the timeouts' timerfd).
    public var fileDescriptor: Int32 { wakeups.fileDescriptor }

    let connection: OpaquePointer
    private let wakeups: Epoll
    private let timer: TimerFD
    private let inboxEvent: Int32
    private var armedAt: Int64?

    /// A call out: its member (for the timeout's words), deadline, and who takes the answer.
    private struct Pending {
        var member: String
        var timeoutMilliseconds: Int
        var deadline: Int64
        /// nil: `callAndWait` takes it from `waited`.
        var handler: ((Result<[BusValue], SessionBusError>) -> Void)?
    }
    private var pending: [UInt32: Pending] = [:]
    /// Answers `callAndWait` is waiting for, by serial (a reference each).
    private var waited: [UInt32: OpaquePointer] = [:]
    /// What arrived, in order, each holding a reference to its message.
    private enum Arrival {
        case reply(UInt32, OpaquePointer)
        case signal(OpaquePointer)
        case methodCall(OpaquePointer)
        case disconnected
        /// A call that could not go out, answered as its reply would be.
        case unsent((Result<[BusValue], SessionBusError>) -> Void, SessionBusError)
    }
    private var inbox: [Arrival] = []

    struct Subscription {
        var sender: String?
        var path: String?
        var interface: String
        var member: String?
        var arg0: String?
        var rule: String
        var handler: (BusSignal) -> Void
    }
    var subscriptions: [Int: Subscription] = [:]
    private var nextToken = 1
    /// Exported objects by path (`SessionBus+Export.swift`).
    var exported: [String: ExportedObject] = [:]

    /// Connects to `address` (nil: the session bus, DBUS_SESSION_BUS_ADDRESS) on a private
    /// connection (never libdbus's shared one, which libatspi uses) and registers with the bus.
    public init(address: String? = nil) throws(SessionBusError) {
        var err = DBusError()
        dbus_error_init(&err)
        defer { dbus_error_free(&err) }
        let opened: OpaquePointer?
        if let address {
            opened = dbus_connection_open_private(address, &err)
            if let c = opened, dbus_bus_register(c, &err) == 0 {
                dbus_connection_close(c)
                dbus_connection_unref(c)
                throw .cannotConnect(SessionBus.message(err, or: "the bus at \(address) did not register this client"))
            }
        } else {
            opened = dbus_bus_get_private(DBUS_BUS_SESSION, &err)
        }
        guard let c = opened else {
            throw .cannotConnect(SessionBus.message(err, or: address.map { "no bus at \($0)" } ?? "DBUS_SESSION_BUS_ADDRESS is not set"))
        }
        dbus_connection_set_exit_on_disconnect(c, 0)
        connection = c
        uniqueName = dbus_bus_get_unique_name(c).map { String(cString: $0) } ?? ""
        self.address = address ?? (getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) } ?? "the session bus")
        do {
            wakeups = try Epoll()
            timer = try TimerFD()
        } catch {
            dbus_connection_close(c)
            dbus_connection_unref(c)
            throw .cannotConnect("\(error)")
        }
        inboxEvent = switchscan_bus_eventfd()
        let socket = switchscan_bus_socket(c)
        do {
            guard inboxEvent >= 0, socket >= 0 else { throw DeviceError(node: "eventfd", operation: .open, errno: errno) }
            try wakeups.add(socket, .adapter(0))
            try wakeups.add(inboxEvent, .adapter(1))
            try wakeups.add(timer.fileDescriptor, .adapter(2))
        } catch {
            if inboxEvent >= 0 { close(inboxEvent) }
            dbus_connection_close(c)
            dbus_connection_unref(c)
            throw .cannotConnect("\(error)")
        }
        _ = dbus_connection_add_filter(c, SessionBus.filter, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    deinit {
        dbus_connection_remove_filter(connection, SessionBus.filter, Unmanaged.passUnretained(self).toOpaque())
        for m in waited.values { dbus_message_unref(m) }
        for a in inbox {
            switch a {
            case .reply(_, let m), .signal(let m), .methodCall(let m): dbus_message_unref(m)
            case .disconnected, .unsent: break
            }
        }
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
        close(inboxEvent)
    }

    private static func message(_ err: DBusError, or fallback: String) -> String {
        guard dbus_error_is_set(withUnsafePointer(to: err) { $0 }) != 0, let m = err.message else { return fallback }
        return String(cString: m)
    }

    /// What the loop watches for this bus.
    public var interest: LoopInterest { LoopInterest(fds: [LoopFD(fd: fileDescriptor, events: LoopFD.readable)]) }

    // MARK: Calls

    /// Calls `member`; `reply` (nil: the answer does not matter) runs in a later `dispatch` with
    /// the reply's arguments or why there is none.
    public func call(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [BusValue] = [],
                     timeoutMilliseconds: Int = SessionBus.defaultTimeoutMilliseconds,
                     reply: ((Result<[BusValue], SessionBusError>) -> Void)? = nil) {
        switch send(destination, path, interface, member, arguments, timeoutMilliseconds: timeoutMilliseconds, handler: reply ?? { _ in }) {
        case .success: rearm()
        case .failure(let e):
            // Said in the next dispatch, as an answer would be.
            guard let reply else { return }
            if inbox.isEmpty { wake() }
            inbox.append(.unsent(reply, e))
        }
    }

    /// Calls `member` and waits for its answer (at most `timeoutMilliseconds`). Signals and calls
    /// that arrive meanwhile wait in the inbox for the next `dispatch`.
    public func callAndWait(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [BusValue] = [],
                            timeoutMilliseconds: Int = SessionBus.defaultTimeoutMilliseconds) -> Result<[BusValue], SessionBusError> {
        let serial: UInt32
        switch send(destination, path, interface, member, arguments, timeoutMilliseconds: timeoutMilliseconds, handler: nil) {
        case .success(let s): serial = s
        case .failure(let e): return .failure(e)
        }
        defer { pending[serial] = nil }
        let deadline = pending[serial]!.deadline
        while waited[serial] == nil && isConnected {
            let left = deadline - MonotonicClock.nowMicroseconds()
            if left <= 0 { break }
            // Reads what comes (at most until the deadline) and files it.
            if dbus_connection_read_write(connection, Int32(clamping: (left + 999) / 1000)) == 0 { break }
            drainConnection()
        }
        if !inbox.isEmpty { wake() }
        guard let message = waited.removeValue(forKey: serial) else {
            return .failure(isConnected ? .timeout(member: member, milliseconds: timeoutMilliseconds) : .disconnected)
        }
        defer { dbus_message_unref(message) }
        return SessionBus.result(of: message)
    }

    private func send(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [BusValue],
                      timeoutMilliseconds: Int, handler: ((Result<[BusValue], SessionBusError>) -> Void)?) -> Result<UInt32, SessionBusError> {
        guard isConnected else { return .failure(.disconnected) }
        guard dbus_validate_bus_name(destination, nil) != 0, dbus_validate_path(path, nil) != 0,
              dbus_validate_interface(interface, nil) != 0, dbus_validate_member(member, nil) != 0 else {
            return .failure(.cannotSend("\(destination) \(path) \(interface).\(member) is not a valid D-Bus address"))
        }
        guard let message = dbus_message_new_method_call(destination, path, interface, member) else { return .failure(.cannotSend("out of memory")) }
        defer { dbus_message_unref(message) }
        guard BusValue.append(arguments, to: message) else {
            return .failure(.cannotSend("\(member)(\(arguments.map(\.description).joined(separator: ", "))): a value D-Bus cannot carry"))
        }
        var serial: UInt32 = 0
        guard dbus_connection_send(connection, message, &serial) != 0 else { return .failure(.cannotSend("out of memory")) }
        dbus_connection_flush(connection)
        pending[serial] = Pending(member: member, timeoutMilliseconds: timeoutMilliseconds,
                                  deadline: MonotonicClock.nowMicroseconds() + Int64(timeoutMilliseconds) * 1000, handler: handler)
        return .success(serial)
    }

    /// A reply's arguments, or the error it carries.
    static func result(of message: OpaquePointer) -> Result<[BusValue], SessionBusError> {
        let args = BusValue.arguments(of: message)
        guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_ERROR else { return .success(args) }
        let name = dbus_message_get_error_name(message).map { String(cString: $0) } ?? "error"
        if name == "org.freedesktop.DBus.Error.Disconnected" { return .failure(.disconnected) }
        return .failure(.remote(name: name, message: args.first?.string ?? ""))
    }

    /// Sends a signal from `path`.
    @discardableResult
    public func emit(_ path: String, _ interface: String, _ member: String, _ arguments: [BusValue] = []) -> Bool {
        guard isConnected, dbus_validate_path(path, nil) != 0, dbus_validate_interface(interface, nil) != 0,
              dbus_validate_member(member, nil) != 0, let m = dbus_message_new_signal(path, interface, member) else { return false }
        defer { dbus_message_unref(m) }
        guard BusValue.append(arguments, to: m), dbus_connection_send(connection, m, nil) != 0 else { return false }
        dbus_connection_flush(connection)
        return true
    }

    // MARK: The loop

    /// Does what came: reads the socket without waiting, runs replies' handlers, signal
    /// handlers, exported methods and the timeouts that passed, in arrival order.
    public func dispatch() {
        var count: UInt64 = 0
        _ = read(inboxEvent, &count, 8)
        timer.acknowledge()
        armedAt = nil
        if isConnected {
            _ = dbus_connection_read_write(connection, 0)
            drainConnection()
        }
        while !inbox.isEmpty {
            let batch = inbox
            inbox.removeAll()
            for a in batch { handle(a) }
        }
        let now = MonotonicClock.nowMicroseconds()
        for (serial, p) in pending where p.deadline <= now {
            guard let handler = p.handler else { continue }
            pending[serial] = nil
            handler(.failure(.timeout(member: p.member, milliseconds: p.timeoutMilliseconds)))
        }
        rearm()
    }

    private func handle(_ a: Arrival) {
        switch a {
        case .unsent(let handler, let e):
            handler(.failure(e))
        case .reply(let serial, let m):
            defer { dbus_message_unref(m) }
            guard let p = pending.removeValue(forKey: serial) else { return }
            p.handler?(SessionBus.result(of: m))
        case .signal(let m):
            defer { dbus_message_unref(m) }
            let signal = BusSignal(message: m)
            for (_, s) in subscriptions.sorted(by: { $0.key < $1.key }) where s.matches(signal) { s.handler(signal) }
        case .methodCall(let m):
            defer { dbus_message_unref(m) }
            answer(m)
        case .disconnected:
            let waiting = pending.filter { $0.value.handler != nil }
            for serial in waiting.keys.sorted() { pending.removeValue(forKey: serial)?.handler?(.failure(.disconnected)) }
            let h = onDisconnect
            onDisconnect = nil
            h?()
        }
    }

    /// libdbus's messages read so far, through the filter.
    private func drainConnection() {
        while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
    }

    /// The timerfd at the earliest deadline of a call with a handler.
    private func rearm() {
        let next = pending.values.lazy.filter { $0.handler != nil }.map(\.deadline).min()
        guard next != armedAt else { return }
        armedAt = next
        timer.arm(at: next)
    }

    private func wake() {
        var one: UInt64 = 1
        _ = write(inboxEvent, &one, 8)
    }

    /// The one filter: files every message (it must not call back into the bus, nor run handlers).
    private static let filter: DBusHandleMessageFunction = { _, message, data in
        guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        return Unmanaged<SessionBus>.fromOpaque(data).takeUnretainedValue().file(message)
    }

    private func file(_ m: OpaquePointer) -> DBusHandlerResult {
        let wasEmpty = inbox.isEmpty
        defer { if wasEmpty && !inbox.isEmpty { wake() } }
        switch dbus_message_get_type(m) {
        case DBUS_MESSAGE_TYPE_METHOD_RETURN, DBUS_MESSAGE_TYPE_ERROR:
            let serial = dbus_message_get_reply_serial(m)
            guard let p = pending[serial] else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            dbus_message_ref(m)
            if p.handler == nil { waited[serial] = m } else { inbox.append(.reply(serial, m)) }
            return DBUS_HANDLER_RESULT_HANDLED
        case DBUS_MESSAGE_TYPE_SIGNAL:
            if dbus_message_is_signal(m, "org.freedesktop.DBus.Local", "Disconnected") != 0 {
                isConnected = false
                inbox.append(.disconnected)
                return DBUS_HANDLER_RESULT_HANDLED
            }
            let signal = BusSignal(message: m)
            guard subscriptions.values.contains(where: { $0.matches(signal) }) else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            dbus_message_ref(m)
            inbox.append(.signal(m))
            return DBUS_HANDLER_RESULT_HANDLED
        case DBUS_MESSAGE_TYPE_METHOD_CALL:
            guard let p = dbus_message_get_path(m), exported[String(cString: p)] != nil else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            dbus_message_ref(m)
            inbox.append(.methodCall(m))
            return DBUS_HANDLER_RESULT_HANDLED
        default:
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }

    // MARK: Signals

    /// Runs `handler` (in `dispatch`) for every signal that matches: from `sender` (a unique
    /// name is compared here; a well-known one only by the bus), at `path`, of `interface`,
    /// named `member`, whose first argument is `arg0` (nil: any). Returns a token for `unsubscribe`.
    @discardableResult
    public func subscribe(sender: String? = nil, path: String? = nil, interface: String, member: String? = nil, arg0: String? = nil,
                          _ handler: @escaping (BusSignal) -> Void) -> Int {
        var rule = "type='signal',interface='\(interface)'"
        if let sender { rule += ",sender='\(sender)'" }
        if let path { rule += ",path='\(path)'" }
        if let member { rule += ",member='\(member)'" }
        if let arg0 { rule += ",arg0='\(arg0)'" }
        let token = nextToken
        nextToken += 1
        subscriptions[token] = Subscription(sender: sender, path: path, interface: interface, member: member, arg0: arg0, rule: rule, handler: handler)
        // In order with what follows on this connection: a call sent after this is handled by the
        // bus after the rule is in place.
        call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "AddMatch", [.string(rule)])
        return token
    }

    public func unsubscribe(_ token: Int) {
        guard let s = subscriptions.removeValue(forKey: token) else { return }
        call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RemoveMatch", [.string(s.rule)])
    }
}

/// A signal as its handler sees it.
public struct BusSignal: Sendable, Equatable {
    public var sender: String
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [BusValue]

    init(message m: OpaquePointer) {
        sender = dbus_message_get_sender(m).map { String(cString: $0) } ?? ""
        path = dbus_message_get_path(m).map { String(cString: $0) } ?? ""
        interface = dbus_message_get_interface(m).map { String(cString: $0) } ?? ""
        member = dbus_message_get_member(m).map { String(cString: $0) } ?? ""
        arguments = BusValue.arguments(of: m)
    }

    public init(sender: String, path: String, interface: String, member: String, arguments: [BusValue]) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }
}

extension SessionBus.Subscription {
    func matches(_ s: BusSignal) -> Bool {
        if let sender, sender.hasPrefix(":"), sender != s.sender { return false }
        if let path, path != s.path { return false }
        if let member, member != s.member { return false }
        if let arg0, s.arguments.first?.string != arg0 { return false }
        return interface == s.interface
    }
}

extension WaylandDriver.Source {
    /// The session bus read in the compositor's turn (GNOME's extension, KWin's script): a bus
    /// that closes ends the run as the compositor going away does.
    static func sessionBus(_ bus: SessionBus) -> Self {
        .init(fd: bus.fileDescriptor) { [weak bus] in
            guard let bus else { return nil }
            bus.dispatch()
            return bus.isConnected ? nil : "the session bus closed"
        }
    }
}
