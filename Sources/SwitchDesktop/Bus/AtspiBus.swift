internal import CAtspi
import Glibc

/// Why the live desktop cannot be used at all.
public struct DesktopError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// An application on the accessibility bus.
struct AppRef: Equatable {
    /// Its unique bus name (":1.42"): with an object path, the ids of its nodes.
    var bus: String
    /// Its name (`gtk3-widget-factory`, the script's name for a Python app).
    var name: String
}

/// The accessibility bus, through libatspi: the connections, the applications, the timeout.
/// libatspi has no locks: everything here runs on the live loop's one thread.
final class AtspiBus {
    /// Every call to an application gives up after this long, so a hung application costs a
    /// fraction of a second, never libdbus's 25 s default.
    static let timeoutMilliseconds: Int32 = 300

    private let desktop: UnsafeMutablePointer<AtspiAccessible>
    /// Application roots libatspi handed out, by bus name (kept referenced: libatspi opens a
    /// peer-to-peer connection to each application, which `connection(for:)` then uses).
    private var roots: [String: UnsafeMutablePointer<AtspiAccessible>] = [:]
    private var names: [String: String] = [:]
    /// The session told that an assistive technology is here (and told again when it leaves).
    private let status: AccessibilityStatus?

    init() throws(DesktopError) {
        // No session bus and no a11y bus address: libatspi would fail deep inside; say it here.
        if getenv("AT_SPI_BUS_ADDRESS") == nil && getenv("DBUS_SESSION_BUS_ADDRESS") == nil && getenv("DISPLAY") == nil {
            throw DesktopError("no accessibility bus: neither AT_SPI_BUS_ADDRESS, DBUS_SESSION_BUS_ADDRESS nor DISPLAY is set (run inside a desktop session)")
        }
        let rc = atspi_init()
        guard rc <= 1, atspi_get_a11y_bus() != nil else {
            throw DesktopError("no accessibility bus: at-spi-bus-launcher is not running or cannot be reached (install at-spi2-core)")
        }
        // A hung application costs `timeoutMilliseconds`, also right after it started (libatspi
        // would otherwise allow new applications 15 s).
        atspi_set_timeout(AtspiBus.timeoutMilliseconds, -1)
        status = AccessibilityStatus()
        guard let d = atspi_get_desktop(0) else { throw DesktopError("no accessibility bus: the registry has no desktop") }
        desktop = d
    }

    deinit {
        for (_, r) in roots { g_object_unref(r) }
        g_object_unref(desktop)
    }

    /// libatspi's shared connection to the a11y bus.
    var a11yConnection: OpaquePointer? { atspi_get_a11y_bus() }

    /// The applications on the bus, in the registry's order. An application whose name cannot be
    /// read (it does not answer) is listed with an empty name the first time.
    func applications() -> [AppRef] {
        var err: UnsafeMutablePointer<GError>?
        let count = atspi_accessible_get_child_count(desktop, &err)
        if let e = err { g_error_free(e); return [] }
        var apps: [AppRef] = []
        var seen: Set<String> = []
        for i in 0..<max(0, count) {
            err = nil
            guard let app = atspi_accessible_get_child_at_index(desktop, i, &err) else {
                if let e = err { g_error_free(e) }
                continue
            }
            guard let busC = switchscan_atspi_bus_name(app) else { g_object_unref(app); continue }
            let bus = String(cString: busC)
            seen.insert(bus)
            if roots[bus] == nil { roots[bus] = app } else { g_object_unref(app) }
            if names[bus] == nil, let root = roots[bus] {
                err = nil
                if let n = atspi_accessible_get_name(root, &err) {
                    names[bus] = String(cString: n)
                    g_free(n)
                }
                if let e = err { g_error_free(e) }
            }
            apps.append(AppRef(bus: bus, name: names[bus] ?? ""))
        }
        for (bus, r) in roots where !seen.contains(bus) {
            g_object_unref(r)
            roots[bus] = nil
            names[bus] = nil
        }
        return apps
    }

    /// The connection libatspi uses for `bus` (peer to peer once the application gave its address,
    /// else the a11y bus).
    func connection(for bus: String) -> OpaquePointer? {
        if let r = roots[bus], let c = switchscan_atspi_connection(r) { return c }
        return a11yConnection
    }

    func batch(for bus: String) -> DBusBatch? {
        guard let c = connection(for: bus) else { return nil }
        return DBusBatch(connection: c, destination: bus, timeoutMilliseconds: AtspiBus.timeoutMilliseconds)
    }

    /// Whether `bus` still has an owner on the a11y bus (the bus daemon answers, whatever state the
    /// application is in): tells an application that quit from one that hangs.
    func isOnBus(_ bus: String) -> Bool {
        guard let c = a11yConnection else { return false }
        let b = DBusBatch(connection: c, destination: "org.freedesktop.DBus", timeoutMilliseconds: AtspiBus.timeoutMilliseconds)
        let t = b.call("/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", [.string(bus)])
        if case .success(let v) = b.reply(t), let has = v?.bool { return has }
        return false
    }

    /// Pings `bus` without waiting (org.freedesktop.DBus.Peer.Ping); `answered` runs from the GLib
    /// main context when the reply (or the timeout) comes.
    func ping(_ bus: String, answered: @escaping (Bool) -> Void) {
        guard let c = connection(for: bus),
              let message = dbus_message_new_method_call(bus, "/org/a11y/atspi/accessible/root", "org.freedesktop.DBus.Peer", "Ping")
        else { return answered(false) }
        defer { dbus_message_unref(message) }
        var call: OpaquePointer?
        guard dbus_connection_send_with_reply(c, message, &call, AtspiBus.timeoutMilliseconds) != 0, let call else {
            return answered(false)
        }
        let box = Unmanaged.passRetained(PingBox(answered)).toOpaque()
        dbus_pending_call_set_notify(call, { call, data in
            guard let call, let data else { return }
            let box = Unmanaged<PingBox>.fromOpaque(data).takeRetainedValue()
            var ok = false
            if let reply = dbus_pending_call_steal_reply(call) {
                ok = dbus_message_get_type(reply) != DBUS_MESSAGE_TYPE_ERROR
                dbus_message_unref(reply)
            }
            dbus_pending_call_unref(call)
            box.answered(ok)
        }, box, nil)
        dbus_connection_flush(c)
    }

    private final class PingBox {
        let answered: (Bool) -> Void
        init(_ answered: @escaping (Bool) -> Void) { self.answered = answered }
    }
}

extension AtspiBus {
    /// The process id behind `bus` (the a11y bus daemon's `GetConnectionUnixProcessID`), to find
    /// the application's X windows by `_NET_WM_PID`.
    func pid(of bus: String) -> Int32? {
        guard let c = a11yConnection else { return nil }
        let b = DBusBatch(connection: c, destination: "org.freedesktop.DBus", timeoutMilliseconds: AtspiBus.timeoutMilliseconds)
        let t = b.call("/org/freedesktop/DBus", "org.freedesktop.DBus", "GetConnectionUnixProcessID", [.string(bus)])
        if case .success(let v) = b.reply(t), let pid = v?.int { return Int32(truncatingIfNeeded: pid) }
        return nil
    }
}
