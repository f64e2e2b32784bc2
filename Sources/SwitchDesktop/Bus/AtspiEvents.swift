internal import CAtspi

/// One accessibility event, copied out of libatspi's callback (which must not call back into the
/// bus: libatspi may run it from inside another call).
struct DesktopEvent: Equatable, Sendable {
    /// "object:children-changed:add", "window:activate", "object:state-changed:checked" …
    var type: String
    /// The source's application bus name and object path.
    var bus: String
    var path: String
    var detail1: Int32

    var id: String { bus + path }
}

/// libatspi event listeners for what changes a scanned tree, collecting events until the
/// loop drains them. Listening starts at `start` and ends at `stop` (or deinit).
final class AtspiEvents {
    /// Window changes; children; states (showing, visible, focused, sensitive, checked …);
    /// geometry; names, descriptions and values; text in fields.
    static let types = [
        "window:activate", "window:deactivate", "window:create", "window:destroy",
        "object:children-changed", "object:state-changed", "object:bounds-changed",
        "object:property-change:accessible-name", "object:property-change:accessible-description",
        "object:property-change:accessible-value", "object:value-changed", "object:text-changed",
    ]

    private(set) var queue: [DesktopEvent] = []
    private var listener: UnsafeMutablePointer<AtspiEventListener>?
    private var registered: [String] = []

    func start() {
        guard listener == nil else { return }
        let me = Unmanaged.passUnretained(self).toOpaque()
        listener = atspi_event_listener_new({ event, data in
            guard let event else { return }
            defer { switchscan_atspi_event_free(event) }
            guard let data else { return }
            let events = Unmanaged<AtspiEvents>.fromOpaque(data).takeUnretainedValue()
            let e = event.pointee
            guard let type = e.type, let source = e.source, let bus = switchscan_atspi_bus_name(source),
                  let path = switchscan_atspi_path(source) else { return }
            events.queue.append(DesktopEvent(type: String(cString: type), bus: String(cString: bus),
                                             path: String(cString: path), detail1: e.detail1))
        }, me, nil)
        guard let listener else { return }
        for t in AtspiEvents.types {
            var err: UnsafeMutablePointer<GError>?
            if atspi_event_listener_register(listener, t, &err) != 0 { registered.append(t) }
            if let e = err { g_error_free(e) }
        }
    }

    /// Stops or starts listening to one event type (bounds-changed, while an animation floods it).
    func setListening(_ type: String, _ on: Bool) {
        guard let listener, registered.contains(type) != on else { return }
        var err: UnsafeMutablePointer<GError>?
        if on {
            if atspi_event_listener_register(listener, type, &err) != 0 { registered.append(type) }
        } else {
            _ = atspi_event_listener_deregister(listener, type, &err)
            registered.removeAll { $0 == type }
        }
        if let e = err { g_error_free(e) }
    }

    /// The events since the last call, oldest first.
    func drain() -> [DesktopEvent] {
        let q = queue
        queue.removeAll(keepingCapacity: true)
        return q
    }

    func stop() {
        guard let listener else { return }
        for t in registered {
            var err: UnsafeMutablePointer<GError>?
            _ = atspi_event_listener_deregister(listener, t, &err)
            if let e = err { g_error_free(e) }
        }
        registered = []
        g_object_unref(listener)
        self.listener = nil
    }

    deinit { stop() }
}
