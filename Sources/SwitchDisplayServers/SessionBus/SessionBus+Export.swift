internal import CDBus

/// A method of an object this connection offers: its name, the signatures of its arguments and
/// of its answer ("su", "b"), and its handler, which answers the call now or later.
public struct BusMethod {
    public var name: String
    public var arguments: String
    public var results: String
    public var handler: (BusCall) -> Void

    public init(_ name: String, arguments: String = "", results: String = "", _ handler: @escaping (BusCall) -> Void) {
        self.name = name
        self.arguments = arguments
        self.results = results
        self.handler = handler
    }
}

/// One call of an exported method, answered once: `reply` or `fail`, at once or later (a long
/// poll keeps it). A call dropped without an answer is answered with an error, so the caller
/// never waits for its own timeout.
public final class BusCall {
    public let sender: String
    public let member: String
    public let arguments: [BusValue]
    private weak var bus: SessionBus?
    private let message: OpaquePointer
    public private(set) var answered = false

    init(bus: SessionBus, message: OpaquePointer) {
        self.bus = bus
        self.message = message
        dbus_message_ref(message)
        sender = dbus_message_get_sender(message).map { String(cString: $0) } ?? ""
        member = dbus_message_get_member(message).map { String(cString: $0) } ?? ""
        arguments = BusValue.arguments(of: message)
    }

    deinit {
        if !answered { fail("org.freedesktop.DBus.Error.Failed", "\(member) was not answered") }
        dbus_message_unref(message)
    }

    /// Answers with `values` (their signature should be the method's `results`).
    public func reply(_ values: [BusValue] = []) {
        guard !answered else { return }
        answered = true
        guard let r = dbus_message_new_method_return(message) else { return }
        defer { dbus_message_unref(r) }
        if BusValue.append(values, to: r) { bus?.sendAnswer(r) } else { fail("org.freedesktop.DBus.Error.Failed", "an answer D-Bus cannot carry") }
    }

    /// Answers with the error `name` ("org.switchscan.Error.Failed") and a message.
    public func fail(_ name: String, _ text: String) {
        answered = true
        let valid = dbus_validate_error_name(name, nil) != 0 ? name : "org.freedesktop.DBus.Error.Failed"
        guard let r = text.withCString({ dbus_message_new_error(message, valid, $0) }) else { return }
        defer { dbus_message_unref(r) }
        bus?.sendAnswer(r)
    }
}

/// The methods offered at one path, of one interface.
struct ExportedObject {
    var interface: String
    var methods: [String: BusMethod]
}

extension SessionBus {
    /// Offers `methods` of `interface` at `path` (replacing what was there); they are called in
    /// `dispatch`. `org.freedesktop.DBus.Introspectable` is answered from the signatures.
    public func export(_ path: String, interface: String, methods: [BusMethod]) {
        exported[path] = ExportedObject(interface: interface, methods: Dictionary(methods.map { ($0.name, $0) }) { $1 })
    }

    public func unexport(_ path: String) {
        exported[path] = nil
    }

    func sendAnswer(_ message: OpaquePointer) {
        guard isConnected else { return }
        _ = dbus_connection_send(connection, message, nil)
        dbus_connection_flush(connection)
    }

    /// A method call filed for an exported path: to its handler, or answered with why not.
    func answer(_ m: OpaquePointer) {
        let call = BusCall(bus: self, message: m)
        let path = dbus_message_get_path(m).map { String(cString: $0) } ?? ""
        let interface = dbus_message_get_interface(m).map { String(cString: $0) }
        guard let object = exported[path] else {
            return call.fail("org.freedesktop.DBus.Error.UnknownObject", "no object at \(path)")
        }
        if interface == "org.freedesktop.DBus.Introspectable" && call.member == "Introspect" {
            return call.reply([.string(SessionBus.introspection(object))])
        }
        if let interface, interface != object.interface {
            return call.fail("org.freedesktop.DBus.Error.UnknownInterface", "\(path) has no interface \(interface)")
        }
        guard let method = object.methods[call.member] else {
            return call.fail("org.freedesktop.DBus.Error.UnknownMethod", "\(object.interface) has no method \(call.member)")
        }
        let given = BusValue.signature(of: call.arguments)
        guard given == method.arguments else {
            return call.fail("org.freedesktop.DBus.Error.InvalidArgs", "\(method.name) takes (\(method.arguments)), not (\(given))")
        }
        method.handler(call)
    }

    static func introspection(_ object: ExportedObject) -> String {
        func args(_ signature: String, _ direction: String) -> String {
            // One argument per complete type; only basic types are offered here.
            signature.map { "<arg type=\"\($0)\" direction=\"\(direction)\"/>" }.joined()
        }
        let methods = object.methods.values.sorted { $0.name < $1.name }.map {
            "<method name=\"\($0.name)\">" + args($0.arguments, "in") + args($0.results, "out") + "</method>"
        }.joined()
        return """
            <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
            <node><interface name="org.freedesktop.DBus.Introspectable"><method name="Introspect"><arg type="s" direction="out"/></method></interface>\
            <interface name="\(object.interface)">\(methods)</interface></node>
            """
    }
}
