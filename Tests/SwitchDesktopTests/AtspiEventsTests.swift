import CAtspi
@testable import SwitchDesktop
import Testing

/// The accessibility events read on a connection of their own (AtspiEvents.swift's header): the
/// bus's match rules and event names exactly as libatspi writes them, and a real signal message
/// (built by libdbus) read back.
@Suite struct AtspiEventsTests {
    @Test func matchRulesAreLibatspis() {
        #expect(AtspiEvents.matchRule("object:children-changed")
                == "type='signal',interface='org.a11y.atspi.Event.Object',member='ChildrenChanged'")
        #expect(AtspiEvents.matchRule("window:activate")
                == "type='signal',interface='org.a11y.atspi.Event.Window',member='Activate'")
        #expect(AtspiEvents.matchRule("object:property-change:accessible-name")
                == "type='signal',interface='org.a11y.atspi.Event.Object',member='PropertyChange',arg0='accessible-name'")
        #expect(AtspiEvents.matchRule("object") == nil)
        #expect(AtspiEvents.types.allSatisfy { AtspiEvents.matchRule($0) != nil })
    }

    @Test func eventNamesAreLibatspis() {
        #expect(AtspiEvents.typeName(interface: "org.a11y.atspi.Event.Object", member: "ChildrenChanged", detail: "add") == "object:children-changed:add")
        #expect(AtspiEvents.typeName(interface: "org.a11y.atspi.Event.Object", member: "StateChanged", detail: "showing") == "object:state-changed:showing")
        #expect(AtspiEvents.typeName(interface: "org.a11y.atspi.Event.Object", member: "PropertyChange", detail: "accessible-name")
                == "object:property-change:accessible-name")
        #expect(AtspiEvents.typeName(interface: "org.a11y.atspi.Event.Object", member: "BoundsChanged", detail: "") == "object:bounds-changed")
        #expect(AtspiEvents.typeName(interface: "org.a11y.atspi.Event.Object", member: "TextChanged", detail: "insert/system") == "object:text-changed:insert:system")
        #expect(AtspiEvents.typeName(interface: "org.a11y.atspi.Event.Window", member: "Activate", detail: "") == "window:activate")
        // A member named as its category (libatspi: "focus:").
        #expect(AtspiEvents.typeName(interface: "org.a11y.atspi.Event.Focus", member: "Focus", detail: "") == "focus:")
    }

    @Test func aSignalIsReadBackAndOtherMessagesAreNot() throws {
        let signal = try #require(dbus_message_new_signal("/org/a11y/atspi/accessible/42", "org.a11y.atspi.Event.Object", "StateChanged"))
        defer { dbus_message_unref(signal) }
        _ = dbus_message_set_sender(signal, ":1.17")
        var it = DBusMessageIter()
        dbus_message_iter_init_append(signal, &it)
        _ = "checked".withCString { switchscan_dbus_append_string(&it, $0) }
        _ = switchscan_dbus_append_i32(&it, 1)
        _ = switchscan_dbus_append_i32(&it, 0)
        _ = switchscan_dbus_append_variant_bool(&it, 0)
        #expect(AtspiEvents.event(signal) == DesktopEvent(type: "object:state-changed:checked", bus: ":1.17",
                                                          path: "/org/a11y/atspi/accessible/42", detail1: 1))

        let other = try #require(dbus_message_new_signal("/org/a11y/atspi/cache", "org.a11y.atspi.Cache", "RemoveAccessible"))
        defer { dbus_message_unref(other) }
        _ = dbus_message_set_sender(other, ":1.17")
        #expect(AtspiEvents.event(other) == nil)
    }
}
