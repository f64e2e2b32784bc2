internal import CAtspi

/// The session's "an assistive technology is present" switch: `IsEnabled` of `org.a11y.Status` on
/// the bus launcher (`org.a11y.Bus`, on the session bus). Applications that publish their tree
/// only when someone uses it (Chromium, Firefox, Qt 5 where the bus address is not on the X root
/// window, as under Wayland) read it when they start; in a GNOME session it mirrors the
/// `toolkit-accessibility` setting, off unless an assistive technology turned it on. switchscan is
/// one: it turns the switch on while it runs, as Orca does, and puts it back when it ends if it
/// was off. Applications already running when it was off may need a restart (Qt 5 does not
/// follow the change).
final class AccessibilityStatus {
    private let batch: DBusBatch
    private let connection: OpaquePointer
    /// The switch was off and this process turned it on.
    private(set) var enabledHere = false

    /// Turns the switch on. nil without a session bus or a launcher that has the property (the
    /// a11y bus then came from AT_SPI_BUS_ADDRESS or the X root window: nothing to announce).
    init?() {
        guard let c = switchscan_dbus_session_bus() else { return nil }
        connection = c
        batch = DBusBatch(connection: c, destination: "org.a11y.Bus", timeoutMilliseconds: AtspiBus.timeoutMilliseconds)
        let asked = batch.property(Self.path, Self.interface, "IsEnabled")
        guard case .success(let v) = batch.reply(asked), let enabled = v?.bool else {
            dbus_connection_unref(c)
            return nil
        }
        if !enabled { enabledHere = set(true) }
    }

    deinit {
        if enabledHere { _ = set(false) }
        dbus_connection_unref(connection)
    }

    private func set(_ on: Bool) -> Bool {
        let t = batch.call(Self.path, "org.freedesktop.DBus.Properties", "Set", [.string(Self.interface), .string("IsEnabled"), .variantBool(on)])
        if case .success = batch.reply(t) { return true }
        return false
    }

    private static let path = "/org/a11y/bus"
    private static let interface = "org.a11y.Status"
}
