internal import CAtspi
import Glibc

/// A value decoded from a D-Bus reply: the few shapes AT-SPI replies have.
indirect enum DBusValue: Sendable, Equatable {
    case string(String)
    case objectPath(String)
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case array([DBusValue])
    case structure([DBusValue])
    case dictEntry(DBusValue, DBusValue)
    case variant(DBusValue)

    var string: String? {
        switch self {
        case .string(let s), .objectPath(let s): return s
        case .variant(let v): return v.string
        default: return nil
        }
    }

    var double: Double? {
        switch self {
        case .double(let d): return d
        case .int(let i): return Double(i)
        case .uint(let u): return Double(u)
        case .variant(let v): return v.double
        default: return nil
        }
    }

    var int: Int64? {
        switch self {
        case .int(let i): return i
        case .uint(let u): return Int64(u)
        case .variant(let v): return v.int
        default: return nil
        }
    }

    var bool: Bool? {
        switch self {
        case .bool(let b): return b
        case .variant(let v): return v.bool
        default: return nil
        }
    }

    var items: [DBusValue] {
        switch self {
        case .array(let a), .structure(let a): return a
        case .variant(let v): return v.items
        default: return []
        }
    }

    /// An `a{sv}` as a dictionary.
    var dictionary: [String: DBusValue] {
        var d: [String: DBusValue] = [:]
        for case .dictEntry(let k, let v) in items { if let key = k.string { d[key] = v } }
        return d
    }

    /// An AT-SPI object reference `(so)`: (bus name, path).
    var reference: (bus: String, path: String)? {
        let f = items
        guard f.count == 2, let bus = f[0].string, let path = f[1].string else { return nil }
        return (bus, path)
    }
}

/// D-Bus type codes (libdbus defines them as casts of character literals, which Swift cannot import).
enum DBusType {
    static let invalid: Int32 = 0
    static let string = code("s"), objectPath = code("o"), signature = code("g"), boolean = code("b")
    static let byte = code("y"), int16 = code("n"), uint16 = code("q"), int32 = code("i"), uint32 = code("u")
    static let int64 = code("x"), uint64 = code("t"), double = code("d"), array = code("a"), structure = code("r")
    static let dictEntry = code("e"), variant = code("v")

    private static func code(_ c: Unicode.Scalar) -> Int32 { Int32(c.value) }
}

/// Why a call got no usable answer.
enum DBusCallError: Error, Equatable {
    /// No reply within the timeout (a hung or very busy application).
    case timeout
    /// The application, or the object, is gone.
    case gone(String)
    /// Any other D-Bus error (name: message).
    case failed(String)

    var reason: String {
        switch self {
        case .timeout: return "no reply in time: the application does not answer"
        case .gone(let m): return "the application or the element is gone (\(m))"
        case .failed(let m): return m
        }
    }
}

/// An argument of a method call.
enum DBusArgument {
    case u32(UInt32)
    case i32(Int32)
    case string(String)
    case variantDouble(Double)
    case variantBool(Bool)
    /// Collection.GetMatches's arguments for the SHOWING direct children, at most this many.
    case showingChildrenQuery(Int32)
    /// Collection.GetMatches's arguments for a rule (`MatchRule`).
    case match(MatchRule)
}

/// A Collection match rule: states that must all be there (or any, none), roles of which one
/// must be the node's (or …), in document order, at most `count` (0: all), into the descendants
/// when `traverse`.
struct MatchRule: Equatable {
    enum Match: Int32 { case all = 1, any = 2, none = 3, empty = 4 }
    var states: AtspiStates = []
    var stateMatch: Match = .all
    var roles: Set<AtspiRole> = []
    var roleMatch: Match = .all
    var count: Int32 = 0
    var traverse = true

    /// The role set as four 32-bit words (role r is bit r % 32 of word r / 32; roles from 128 on
    /// cannot be asked for).
    var roleWords: [UInt32] {
        var w: [UInt32] = [0, 0, 0, 0]
        for r in roles where r.rawValue < 128 { w[Int(r.rawValue / 32)] |= 1 << (r.rawValue % 32) }
        return w
    }
}

/// Method calls to one application, sent together and answered together: the application handles
/// them back to back instead of one round trip each (libatspi's getters are one blocking round
/// trip per value). Every call carries the same timeout (the one libatspi got from
/// `atspi_set_timeout`), so a hung application costs one timeout per batch, not one per call: once
/// a call gets no answer in time, the calls not sent yet are not sent, and fail at once.
///
/// At most `inFlightLimit` calls are out at a time; the others wait here and go out, in order, as
/// answers come (`flush`, `pump`, `isComplete`, `reply`).
final class DBusBatch {
    /// How many calls are out at once. libatspi's GLib glue keeps the timeout of every call out in
    /// a list it searches from the newest end when the answer comes (atspi-gmain.c: g_slist_prepend,
    /// g_slist_remove), and GLib looks at every timeout source at each turn of its loop: with the
    /// 20,000 calls of a 5,000-link page out at once, 43 % of the reader's CPU went to that list
    /// (perf, BENCHMARKS.md "The web"). A few hundred out keep the application busy all the same.
    static let inFlightLimit = 256

    /// A call: queued (its message), out (its pending call), answered (the reply taken from the
    /// pending call early; nil: no reply in time), or done (read, or it could not be sent).
    private enum Slot {
        case queued(OpaquePointer)
        case out(OpaquePointer)
        case answered(OpaquePointer?)
        case done
    }

    private let connection: OpaquePointer
    private let destination: String
    private let timeoutMilliseconds: Int32
    private var slots: [Slot] = []
    /// The first call not sent yet (calls go out in order).
    private var next = 0
    /// Calls before this one are no longer out.
    private var oldest = 0
    /// A call got no answer in time: the application hangs; what is queued is not sent.
    private var silent = false

    init(connection: OpaquePointer, destination: String, timeoutMilliseconds: Int32) {
        self.connection = connection
        self.destination = destination
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    deinit {
        for s in slots {
            switch s {
            case .queued(let m): dbus_message_unref(m)
            case .out(let c): dbus_pending_call_cancel(c); dbus_pending_call_unref(c)
            case .answered(let m): if let m { dbus_message_unref(m) }
            case .done: break
            }
        }
    }

    /// Queues a call (sent now unless `inFlightLimit` calls are out); its answer is `reply(token)`.
    func call(_ path: String, _ interface: String, _ member: String, _ args: [DBusArgument] = []) -> Int {
        let token = slots.count
        guard let message = dbus_message_new_method_call(destination, path, interface, member) else {
            slots.append(.done)
            return token
        }
        var it = DBusMessageIter()
        dbus_message_iter_init_append(message, &it)
        for a in args {
            switch a {
            case .u32(let v): _ = switchscan_dbus_append_u32(&it, v)
            case .i32(let v): _ = switchscan_dbus_append_i32(&it, v)
            case .string(let s): _ = s.withCString { switchscan_dbus_append_string(&it, $0) }
            case .variantDouble(let d): _ = switchscan_dbus_append_variant_double(&it, d)
            case .variantBool(let b): _ = switchscan_dbus_append_variant_bool(&it, b ? 1 : 0)
            case .showingChildrenQuery(let n): _ = switchscan_dbus_append_showing_children_query(&it, n)
            case .match(let r):
                let w = r.roleWords
                _ = switchscan_dbus_append_match(&it, UInt32(truncatingIfNeeded: r.states.rawValue), UInt32(truncatingIfNeeded: r.states.rawValue >> 32),
                                                 r.stateMatch.rawValue, w[0], w[1], w[2], w[3], r.roleMatch.rawValue, r.count, r.traverse ? 1 : 0)
            }
        }
        slots.append(.queued(message))
        send()
        return token
    }

    /// Sends queued calls, in order, while fewer than `inFlightLimit` are out.
    private func send() {
        while next < slots.count {
            while oldest < next, !isOut(oldest) { oldest += 1 }
            guard next - oldest < DBusBatch.inFlightLimit else { return }
            if case .queued(let message) = slots[next] {
                if silent {
                    slots[next] = .answered(nil)
                } else {
                    var call: OpaquePointer?
                    if dbus_connection_send_with_reply(connection, message, &call, timeoutMilliseconds) == 0 { call = nil }
                    slots[next] = call.map { .out($0) } ?? .done
                }
                dbus_message_unref(message)
            }
            next += 1
        }
    }

    private func isOut(_ k: Int) -> Bool {
        guard case .out(let call) = slots[k] else { return false }
        return dbus_pending_call_get_completed(call) == 0
    }

    /// Waits for an out call's answer and takes it (nil: none in time, and the batch is silent).
    private func take(_ call: OpaquePointer) -> OpaquePointer? {
        dbus_pending_call_block(call)
        let message = dbus_pending_call_steal_reply(call)
        dbus_pending_call_unref(call)
        if let message {
            if case .timeout = DBusBatch.failure(message) { silent = true }
        } else {
            silent = true
        }
        return message
    }

    /// A property of an object (`org.freedesktop.DBus.Properties.Get`).
    func property(_ path: String, _ interface: String, _ name: String) -> Int {
        call(path, "org.freedesktop.DBus.Properties", "Get", [.string(interface), .string(name)])
    }

    /// Several properties of an object, one `Properties.Get` each, as libatspi asks them. Never
    /// `GetAll`: Qt 5's bridge reads a second argument that GetAll does not have, and the
    /// application crashes (a segfault in QVariant::toString; seen with Qt 5.15's examples).
    func properties(_ path: String, _ interface: String, _ names: [String]) -> PropertyTokens {
        .each(names: names, tokens: names.map { property(path, interface, $0) })
    }

    /// Every property of an interface with one `GetAll` (for a bridge known to answer it: GTK's;
    /// Qt's crashes on it). The answer is read with `reply(_: PropertyTokens)` all the same.
    func allProperties(_ path: String, _ interface: String) -> PropertyTokens {
        .all(call(path, "org.freedesktop.DBus.Properties", "GetAll", [.string(interface)]))
    }

    /// Calls queued by `properties` or `allProperties`.
    enum PropertyTokens {
        /// One `Get` per name: name k was asked with token k.
        case each(names: [String], tokens: [Int])
        /// One `GetAll`.
        case all(Int)

        /// How many D-Bus calls these are.
        var calls: Int {
            switch self {
            case .each(_, let tokens): return tokens.count
            case .all: return 1
            }
        }
    }

    /// The answers to `properties`, as an `a{sv}` (what `dictionary` reads). A property the object
    /// does not have is left out; when none answered, the first call's failure (the object gone,
    /// the application not answering).
    func reply(_ asked: PropertyTokens) -> Result<DBusValue?, DBusCallError> {
        let names: [String], tokens: [Int]
        switch asked {
        case .all(let token): return reply(token)
        case .each(let n, let t): (names, tokens) = (n, t)
        }
        var entries: [DBusValue] = []
        var firstFailure: DBusCallError?
        for (name, token) in zip(names, tokens) {
            switch reply(token) {
            case .success(let v): if let v { entries.append(.dictEntry(.string(name), v)) }
            case .failure(let e): firstFailure = firstFailure ?? e
            }
        }
        if entries.isEmpty, let firstFailure { return .failure(firstFailure) }
        return .success(.array(entries))
    }

    /// Sends what can go out now (the first `reply` does too).
    func flush() {
        send()
        dbus_connection_flush(connection)
    }

    /// Whether call `token`'s answer (or its timeout) has come, so `reply` will not wait. Replies
    /// are read while the loop iterates GLib's main context (libatspi's connections are on it).
    func isComplete(_ token: Int) -> Bool {
        guard slots.indices.contains(token) else { return true }
        if case .queued = slots[token] { send() }
        switch slots[token] {
        case .queued: return false
        case .out(let call): return dbus_pending_call_get_completed(call) != 0
        case .answered, .done: return true
        }
    }

    /// Reads what the connection has received, without waiting, and hands it on: replies complete
    /// their calls, signals go to libatspi's handlers (as GLib's dispatch of the connection would);
    /// queued calls go out in their place.
    func pump() {
        _ = dbus_connection_read_write(connection, 0)
        while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
        if next < slots.count { flush() }
    }

    /// Waits for call `token`'s answer: its first argument (nil for a reply without one).
    func reply(_ token: Int) -> Result<DBusValue?, DBusCallError> {
        guard slots.indices.contains(token) else { return .failure(.failed("the call could not be sent")) }
        // Still queued: the oldest calls out are answered first, until it goes out.
        while case .queued = slots[token] {
            send()
            guard case .queued = slots[token] else { break }
            guard oldest < next, case .out(let call) = slots[oldest] else { break }
            slots[oldest] = .answered(take(call))
        }
        let message: OpaquePointer?
        switch slots[token] {
        case .out(let call): message = take(call)
        case .answered(let m): message = m
        case .queued, .done: return .failure(.failed("the call could not be sent"))
        }
        slots[token] = .done
        guard let message else { return .failure(.timeout) }
        defer { dbus_message_unref(message) }
        if let failure = DBusBatch.failure(message) { return .failure(failure) }
        var it = DBusMessageIter()
        guard dbus_message_iter_init(message, &it) != 0 else { return .success(nil) }
        return .success(DBusBatch.decode(&it))
    }

    /// An error reply's failure; nil for a method return.
    static func failure(_ message: OpaquePointer) -> DBusCallError? {
        guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_ERROR else { return nil }
        let name = dbus_message_get_error_name(message).map { String(cString: $0) } ?? "error"
        var text = ""
        var it = DBusMessageIter()
        if dbus_message_iter_init(message, &it) != 0, let s = DBusBatch.decode(&it).string { text = s }
        return classify(name, text)
    }

    static func classify(_ name: String, _ text: String) -> DBusCallError {
        switch name {
        case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.TimedOut":
            // libdbus also says NoReply when the peer left without answering.
            return text.contains("disconnected") ? .gone(text) : .timeout
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.UnknownObject",
             "org.freedesktop.DBus.Error.Disconnected", "org.freedesktop.DBus.Error.NameHasNoOwner":
            return .gone(text.isEmpty ? name : text)
        default:
            return .failed(text.isEmpty ? name : "\(name): \(text)")
        }
    }

    /// Any application on the bus can send anything (docs/desktop.md "Bounds"): a string longer
    /// than this many bytes is cut (at a character's boundary), an array longer than `itemLimit`
    /// items keeps its first ones. A 10 MB name costs 64 KiB; a million children, a hundred thousand.
    static let stringLimit = 65_536
    static let itemLimit = 100_000

    /// A C string from a reply, cut at `stringLimit` bytes.
    static func string(_ p: UnsafePointer<CChar>) -> String {
        let n = strnlen(p, stringLimit + 1)
        guard n > stringLimit else { return String(cString: p) }
        return p.withMemoryRebound(to: UInt8.self, capacity: stringLimit) { bytes in
            var cut = stringLimit
            while cut > 0 && bytes[cut] & 0xC0 == 0x80 { cut -= 1 }  // not inside a character
            return String(decoding: UnsafeBufferPointer(start: bytes, count: cut), as: UTF8.self)
        }
    }

    /// The value at the iterator (recursing into containers).
    static func decode(_ it: inout DBusMessageIter) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(&it)
        switch type {
        case DBusType.string, DBusType.objectPath, DBusType.signature:
            let v = switchscan_dbus_get_basic(&it)
            let s = v.s.map { DBusBatch.string($0) } ?? ""
            return type == DBusType.objectPath ? .objectPath(s) : .string(s)
        case DBusType.boolean:
            return .bool(switchscan_dbus_get_basic(&it).u32 != 0)
        case DBusType.byte:
            return .uint(switchscan_dbus_get_basic(&it).u64 & 0xff)
        case DBusType.int16:
            return .int(Int64(Int16(truncatingIfNeeded: switchscan_dbus_get_basic(&it).u64)))
        case DBusType.uint16:
            return .uint(switchscan_dbus_get_basic(&it).u64 & 0xffff)
        case DBusType.int32:
            return .int(Int64(switchscan_dbus_get_basic(&it).i32))
        case DBusType.uint32:
            return .uint(UInt64(switchscan_dbus_get_basic(&it).u32))
        case DBusType.int64:
            return .int(switchscan_dbus_get_basic(&it).i64)
        case DBusType.uint64:
            return .uint(switchscan_dbus_get_basic(&it).u64)
        case DBusType.double:
            return .double(switchscan_dbus_get_basic(&it).d)
        case DBusType.array, DBusType.structure, DBusType.dictEntry, DBusType.variant:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&it, &sub)
            var values: [DBusValue] = []
            while dbus_message_iter_get_arg_type(&sub) != DBusType.invalid && values.count < DBusBatch.itemLimit {
                values.append(decode(&sub))
                dbus_message_iter_next(&sub)
            }
            switch type {
            case DBusType.array: return .array(values)
            case DBusType.structure: return .structure(values)
            case DBusType.dictEntry: return values.count == 2 ? .dictEntry(values[0], values[1]) : .structure(values)
            default: return .variant(values.first ?? .structure([]))
            }
        default:
            return .structure([])  // unix fds and the like: never in AT-SPI replies we read
        }
    }
}
