internal import CAtspi
import Glibc

/// One accessibility event, as the loop needs it (read from the signal's message in the
/// connection's filter, which must not call back into the bus).
struct DesktopEvent: Equatable, Sendable {
    /// "object:children-changed:add", "window:activate", "object:state-changed:checked" …
    var type: String
    /// The source's application bus name and object path.
    var bus: String
    var path: String
    var detail1: Int32

    var id: String { bus + path }
}

/// The accessibility events that change a scanned tree, collected until the loop drains them.
/// Listening starts at `start` and ends at `stop` (or deinit).
///
/// The events come on a D-Bus connection of their own to the accessibility bus, not through
/// libatspi's listeners: libatspi makes an `AtspiAccessible` for the source of every event it
/// receives (and for a children-changed event's child) and keeps it in its application's table
/// until the application says the object is gone (`Cache.RemoveAccessible`, which Chromium and
/// Firefox do not send for web content). A page that creates nodes all day made that table grow
/// without end: 17–19 MB an hour with a link added every 100 ms, the same in a C client that does
/// nothing but `atspi_init` (BENCHMARKS.md, "Soak"). So this class asks the registry for the
/// events itself (`RegisterEvent`, as libatspi does: applications send only what someone
/// listens to), adds the bus's match rules on its own connection, reads each signal's sender,
/// path, kind and detail in a filter, and takes libatspi's default match rules (children,
/// property and state changes) off libatspi's connection, so libatspi receives no event at all.
/// The connection is dispatched by GLib's main context, which the loop iterates.
final class AtspiEvents {
    /// Window changes; children; states (showing, visible, focused, sensitive, checked …);
    /// geometry; names, descriptions and values; text in fields.
    static let types = [
        "window:activate", "window:deactivate", "window:create", "window:destroy",
        "object:children-changed", "object:state-changed", "object:bounds-changed",
        "object:property-change:accessible-name", "object:property-change:accessible-description",
        "object:property-change:accessible-value", "object:value-changed", "object:text-changed",
    ]

    /// The match rules libatspi adds to its connection at `atspi_init` (atspi-misc.c), taken off
    /// again so that it never sees an event.
    static let libatspiRules = ["object:children-changed", "object:property-change", "object:state-changed"].compactMap(matchRule)

    private(set) var queue: [DesktopEvent] = []
    /// Why listening could not start (nil while it listens or before `start`).
    private(set) var failure: String?
    private var connection: OpaquePointer?
    private var registered: [String] = []

    /// Opens the connection and registers every type (libatspi must be initialised: its
    /// connection says where the accessibility bus is).
    func start() {
        guard connection == nil else { return }
        let library = atspi_get_a11y_bus()
        for rule in AtspiEvents.libatspiRules { dbus_bus_remove_match(library, rule, nil) }
        var address: String?
        if let a = switchscan_dbus_peer_address(library) {
            address = String(cString: a)
            g_free(a)
        } else if let env = getenv("AT_SPI_BUS_ADDRESS") {
            address = String(cString: env)
        }
        guard let address else {
            failure = "the accessibility bus's address is not known: no events"
            return
        }
        var err = DBusError()
        dbus_error_init(&err)
        defer { dbus_error_free(&err) }
        guard let c = dbus_connection_open_private(address, &err) else {
            failure = "cannot connect to the accessibility bus at \(address) for its events"
            return
        }
        guard dbus_bus_register(c, &err) != 0 else {
            dbus_connection_close(c)
            dbus_connection_unref(c)
            failure = "cannot register on the accessibility bus at \(address) for its events"
            return
        }
        dbus_connection_set_exit_on_disconnect(c, 0)
        atspi_dbus_connection_setup_with_g_main(c, nil)
        _ = dbus_connection_add_filter(c, AtspiEvents.filter, Unmanaged.passUnretained(self).toOpaque(), nil)
        connection = c
        register(AtspiEvents.types)
    }

    /// Stops or starts listening to one event type (bounds-changed, while an animation floods it).
    func setListening(_ type: String, _ on: Bool) {
        guard connection != nil, registered.contains(type) != on else { return }
        if on { register([type]) } else { deregister([type]) }
    }

    /// The events since the last call, oldest first.
    func drain() -> [DesktopEvent] {
        let q = queue
        queue.removeAll(keepingCapacity: true)
        return q
    }

    func stop() {
        guard let c = connection else { return }
        deregister(registered)
        dbus_connection_remove_filter(c, AtspiEvents.filter, Unmanaged.passUnretained(self).toOpaque())
        dbus_connection_close(c)
        dbus_connection_unref(c)
        connection = nil
    }

    deinit { stop() }

    /// The connection's filter: an event signal is queued (and handled), anything else passed on.
    private static let filter: DBusHandleMessageFunction = { _, message, data in
        guard let message, let data, let event = AtspiEvents.event(message) else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        Unmanaged<AtspiEvents>.fromOpaque(data).takeUnretainedValue().queue.append(event)
        return DBUS_HANDLER_RESULT_HANDLED
    }

    /// The registry told (all calls sent, then their answers waited for), and the match rules added.
    private func register(_ types: [String]) {
        for (t, ok) in zip(types, tellRegistry(types, listening: true)) where ok { registered.append(t) }
    }

    private func deregister(_ types: [String]) {
        _ = tellRegistry(types, listening: false)
        registered.removeAll { types.contains($0) }
    }

    /// `RegisterEvent` (with the match rule added) or `DeregisterEvent` (removed) for each type:
    /// whether the registry answered each without an error.
    private func tellRegistry(_ types: [String], listening: Bool) -> [Bool] {
        guard let c = connection else { return [] }
        let registry = DBusBatch(connection: c, destination: "org.a11y.atspi.Registry", timeoutMilliseconds: AtspiBus.timeoutMilliseconds)
        let tokens = types.map { t in
            if let rule = AtspiEvents.matchRule(t) {
                if listening { dbus_bus_add_match(c, rule, nil) } else { dbus_bus_remove_match(c, rule, nil) }
            }
            return registry.call("/org/a11y/atspi/registry", "org.a11y.atspi.Registry", listening ? "RegisterEvent" : "DeregisterEvent", [.string(t)])
        }
        return tokens.map { if case .success = registry.reply($0) { true } else { false } }
    }

    /// The bus's match rule for an event type, as libatspi writes it ("object:children-changed" →
    /// interface org.a11y.atspi.Event.Object, member ChildrenChanged; a third part is the first
    /// argument). nil for a type without a kind.
    static func matchRule(_ type: String) -> String? {
        let parts = type.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        let camel = { (s: String) in s.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() }
        var rule = "type='signal',interface='org.a11y.atspi.Event.\(camel(parts[0]))',member='\(camel(parts[1]))'"
        if parts.count == 3, !parts[2].isEmpty { rule += ",arg0='\(parts[2])'" }
        return rule
    }

    /// An event's type as libatspi names it: the interface's last part and the member from
    /// CamelCase to dashed lower case ("Object", "ChildrenChanged" → "object:children-changed"),
    /// then the detail, its slashes as colons ("add", "insert/system" → "insert:system").
    static func typeName(interface: String, member: String, detail: String) -> String {
        func dashed(_ s: Substring, slashes: Bool = false) -> String {
            var out = ""
            for ch in s {
                if ch.isUppercase {
                    if !out.isEmpty { out.append("-") }
                    out += ch.lowercased()
                } else if slashes && ch == "/" {
                    out.append(":")
                } else {
                    out.append(ch)
                }
            }
            return out
        }
        let category = interface.split(separator: ".").last ?? ""
        var type = dashed(category)
        let name = dashed(Substring(member))
        if category.lowercased() != name.lowercased() {
            type += ":" + name
        } else if detail.isEmpty {
            type += ":"
        }
        if !detail.isEmpty { type += ":" + dashed(Substring(detail), slashes: true) }
        return type
    }

    /// The event a signal on the bus carries (`org.a11y.atspi.Event.*`: detail, detail1, detail2,
    /// any data); nil for any other message.
    static func event(_ message: OpaquePointer) -> DesktopEvent? {
        guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_SIGNAL,
              let i = dbus_message_get_interface(message), let m = dbus_message_get_member(message),
              let s = dbus_message_get_sender(message), let p = dbus_message_get_path(message) else { return nil }
        let interface = String(cString: i)
        guard interface.hasPrefix("org.a11y.atspi.Event.") else { return nil }
        var it = DBusMessageIter()
        guard dbus_message_iter_init(message, &it) != 0, dbus_message_iter_get_arg_type(&it) == DBusType.string else { return nil }
        let detail = DBusBatch.decode(&it).string ?? ""
        var detail1: Int32 = 0
        if dbus_message_iter_next(&it) != 0, dbus_message_iter_get_arg_type(&it) == DBusType.int32 {
            detail1 = switchscan_dbus_get_basic(&it).i32
        }
        return DesktopEvent(type: typeName(interface: interface, member: String(cString: m), detail: detail),
                            bus: String(cString: s), path: String(cString: p), detail1: detail1)
    }
}
