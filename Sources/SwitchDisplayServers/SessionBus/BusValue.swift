internal import CDBus

/// One argument of a D-Bus message, of the few types the display backends speak (the GNOME
/// extension's API, KWin's scripting, the bus daemon's own): `s`, `u`, `i`, `d`, `b`, `o`, and in
/// answers dictionaries (`a{sv}`: a variant is read as its content). An argument of any other type
/// is kept in its place as `unread` (its signature), so the others keep their positions.
public enum BusValue: Equatable, Sendable, CustomStringConvertible {
    case string(String)
    case uint32(UInt32)
    case int32(Int32)
    case double(Double)
    case bool(Bool)
    case objectPath(String)
    /// A dictionary of strings to values (`a{sv}`, `a{ss}`…: properties, the Shell's extension
    /// info), read only; its values are read as arguments are (a variant's content in its place).
    case dictionary([String: BusValue])
    /// A value of a type this client does not read, by its signature ("as").
    case unread(String)

    /// The type's signature ("s", "u", …).
    public var signature: String {
        switch self {
        case .string: "s"
        case .uint32: "u"
        case .int32: "i"
        case .double: "d"
        case .bool: "b"
        case .objectPath: "o"
        case .dictionary: "a{sv}"
        case .unread(let s): s
        }
    }

    public var string: String? {
        switch self {
        case .string(let s), .objectPath(let s): s
        default: nil
        }
    }

    public var uint32: UInt32? {
        if case .uint32(let v) = self { return v }
        return nil
    }

    public var int32: Int32? {
        if case .int32(let v) = self { return v }
        return nil
    }

    public var double: Double? {
        if case .double(let v) = self { return v }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let v) = self { return v }
        return nil
    }

    public var dictionary: [String: BusValue]? {
        if case .dictionary(let d) = self { return d }
        return nil
    }

    /// As `dbus-send` writes a value: `string:"a"`, `uint32:3`.
    public var description: String {
        switch self {
        case .string(let s): "string:\"\(s)\""
        case .uint32(let v): "uint32:\(v)"
        case .int32(let v): "int32:\(v)"
        case .double(let v): "double:\(v)"
        case .bool(let v): "boolean:\(v)"
        case .objectPath(let p): "objpath:\(p)"
        case .dictionary(let d): "dict:{" + d.keys.sorted().map { "\($0): \(d[$0]!)" }.joined(separator: ", ") + "}"
        case .unread(let s): "(\(s))"
        }
    }

    /// The signature of several values, in order.
    public static func signature(of values: [BusValue]) -> String { values.map(\.signature).joined() }

    /// Appends `values` to a message being built; false when one cannot be (no memory, an
    /// invalid object path or string, an `unread`).
    static func append(_ values: [BusValue], to message: OpaquePointer) -> Bool {
        var it = DBusMessageIter()
        dbus_message_iter_init_append(message, &it)
        for v in values {
            let ok: Int32
            switch v {
            case .string(let s):
                // libdbus aborts the process on a string that is not UTF-8 or holds a NUL.
                guard !s.utf8.contains(0) else { return false }
                ok = s.withCString { switchscan_bus_append_string(&it, $0) }
            case .objectPath(let p):
                guard dbus_validate_path(p, nil) != 0 else { return false }
                ok = p.withCString { switchscan_bus_append_object_path(&it, $0) }
            case .uint32(let u): ok = switchscan_bus_append_uint32(&it, u)
            case .int32(let i): ok = switchscan_bus_append_int32(&it, i)
            case .double(let d): ok = switchscan_bus_append_double(&it, d)
            case .bool(let b): ok = switchscan_bus_append_bool(&it, b ? 1 : 0)
            case .dictionary, .unread: return false
            }
            if ok == 0 { return false }
        }
        return true
    }

    /// A message's arguments, in order.
    static func arguments(of message: OpaquePointer) -> [BusValue] {
        var it = DBusMessageIter()
        guard dbus_message_iter_init(message, &it) != 0 else { return [] }
        var out: [BusValue] = []
        repeat {
            out.append(read(&it))
        } while dbus_message_iter_next(&it) != 0
        return out
    }

    /// The value at the iterator (a type code is the signature's character).
    private static func read(_ it: inout DBusMessageIter) -> BusValue {
        switch UInt8(truncatingIfNeeded: dbus_message_iter_get_arg_type(&it)) {
        case UInt8(ascii: "s"): return .string(String(cString: switchscan_bus_get_string(&it)))
        case UInt8(ascii: "o"): return .objectPath(String(cString: switchscan_bus_get_string(&it)))
        case UInt8(ascii: "u"): return .uint32(UInt32(truncatingIfNeeded: switchscan_bus_get_bits(&it)))
        case UInt8(ascii: "i"): return .int32(Int32(truncatingIfNeeded: switchscan_bus_get_bits(&it)))
        case UInt8(ascii: "b"): return .bool(UInt32(truncatingIfNeeded: switchscan_bus_get_bits(&it)) != 0)
        case UInt8(ascii: "d"): return .double(switchscan_bus_get_double(&it))
        case UInt8(ascii: "v"):
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&it, &inner)
            return read(&inner)
        case UInt8(ascii: "a") where dbus_message_iter_get_element_type(&it) == Int32(UInt8(ascii: "e")):
            var entries = DBusMessageIter()
            dbus_message_iter_recurse(&it, &entries)
            var d: [String: BusValue] = [:]
            while dbus_message_iter_get_arg_type(&entries) == Int32(UInt8(ascii: "e")) {
                var entry = DBusMessageIter()
                dbus_message_iter_recurse(&entries, &entry)
                if let key = read(&entry).string, dbus_message_iter_next(&entry) != 0 { d[key] = read(&entry) }
                _ = dbus_message_iter_next(&entries)
            }
            return .dictionary(d)
        default:
            guard let s = dbus_message_iter_get_signature(&it) else { return .unread("?") }
            defer { dbus_free(s) }
            return .unread(String(cString: s))
        }
    }
}

/// Why a call got no usable answer, or the bus could not be used, in words a note can carry.
public enum SessionBusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bus could not be reached at all.
    case cannotConnect(String)
    /// No answer to `member` within the timeout (milliseconds).
    case timeout(member: String, milliseconds: Int)
    /// The connection to the bus closed (the bus daemon went away).
    case disconnected
    /// The peer (or the bus) answered with an error.
    case remote(name: String, message: String)
    /// The call could not be sent (a value D-Bus cannot carry).
    case cannotSend(String)

    /// The destination has no owner: nobody offers that name (now).
    public var isNoOwner: Bool {
        guard case .remote(let name, _) = self else { return false }
        return name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner"
    }

    public var description: String {
        switch self {
        case .cannotConnect(let why): "cannot connect to the session bus: \(why)"
        case .timeout(let member, let ms): "\(member): no answer within \(ms) ms"
        case .disconnected: "the session bus connection closed"
        case .remote(let name, let message): message.isEmpty ? name : "\(name): \(message)"
        case .cannotSend(let why): "cannot send: \(why)"
        }
    }
}
