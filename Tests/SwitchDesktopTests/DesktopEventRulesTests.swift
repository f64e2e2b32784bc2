@testable import SwitchDesktop
import Testing

/// Which events re-read what (DesktopEventRules.swift's header).
@Suite struct DesktopEventRulesTests {
    static func context(app: String? = ":1.5", active: Bool = false, known: Set<String> = [":1.5/n"]) -> DesktopEventRules.Context {
        DesktopEventRules.Context(appBus: app, followsActiveWindow: active, knows: { known.contains($0) })
    }

    func change(_ type: String, bus: String = ":1.5", path: String = "/n", detail1: Int32 = 0,
                _ c: DesktopEventRules.Context = context()) -> RefreshSchedule.Change? {
        DesktopEventRules.change(type: type, bus: bus, id: bus + path, detail1: detail1, path: path, c)
    }

    @Test func structuralEventsReadEverything() {
        #expect(change("object:children-changed:add") == .structure)
        #expect(change("object:state-changed:showing") == .structure)
        #expect(change("object:state-changed:visible", path: "/unknown") == .structure)
        #expect(change("window:activate") == .structure)
        #expect(change("object:state-changed:focused", detail1: 1) == .structure)
    }

    @Test func ownChangesOfKnownNodesReadThoseNodes() {
        #expect(change("object:state-changed:checked", detail1: 1) == .node(":1.5/n"))
        #expect(change("object:property-change:accessible-name") == .node(":1.5/n"))
        #expect(change("object:text-changed:insert") == .node(":1.5/n"))
        #expect(change("object:value-changed") == .node(":1.5/n"))
        #expect(change("object:bounds-changed") == .bounds(":1.5/n"))
    }

    @Test func eventsThatChangeNothingScannedAreIgnored() {
        #expect(change("object:state-changed:focused", detail1: 0) == nil)  // focus-out: the focus-in follows
        #expect(change("object:state-changed:checked", path: "/hidden") == nil)
        #expect(change("object:bounds-changed", path: "/hidden") == nil)
        #expect(change("object:state-changed:armed") == nil)
        #expect(change("object:children-changed:add", bus: ":1.9") == nil)  // another application
    }

    @Test func otherApplicationsCountForTheActiveWindowAndTheDesktop() {
        #expect(change("window:activate", bus: ":1.9") == nil)
        #expect(change("window:activate", bus: ":1.9", Self.context(active: true)) == .structure)
        #expect(change("object:children-changed:remove", bus: ":1.0", path: "/org/a11y/atspi/accessible/root") == .structure)
        #expect(change("window:create", bus: ":1.9", Self.context(app: nil)) == .structure)  // waiting for --app
    }
}
