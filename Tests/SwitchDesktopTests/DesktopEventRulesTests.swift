@testable import SwitchDesktop
import Testing

/// Which events re-read what (DesktopEventRules.swift's header).
@Suite struct DesktopEventRulesTests {
    /// Known: the window /w (the application's child) holding /p holding /n.
    static func context(app: String? = ":1.5", active: Bool = false,
                        known: [String: String?] = [":1.5/n": ":1.5/p", ":1.5/p": ":1.5/w", ":1.5/w": nil,
                                                    ":1.5/org/a11y/atspi/accessible/root": nil]) -> DesktopEventRules.Context {
        DesktopEventRules.Context(appBus: app, followsActiveWindow: active, knows: { known[$0] != nil },
                                  parent: { known[$0] ?? nil })
    }

    func change(_ type: String, bus: String = ":1.5", path: String = "/n", detail1: Int32 = 0,
                _ c: DesktopEventRules.Context = context()) -> RefreshSchedule.Change? {
        DesktopEventRules.change(type: type, bus: bus, id: bus + path, detail1: detail1, path: path, c)
    }

    @Test func structuralEventsReadEverything() {
        #expect(change("object:children-changed:add", path: "/unknown") == .structure)
        #expect(change("object:children-changed:add", path: "/org/a11y/atspi/accessible/root") == .structure)  // a window
        #expect(change("object:state-changed:showing", path: "/w") == .structure)
        #expect(change("object:state-changed:modal", detail1: 1) == .structure)
        #expect(change("window:activate") == .structure)
        #expect(change("object:state-changed:focused", detail1: 1) == .structure)
    }

    @Test func shapeChangesBelowKnownNodesReadTheirSubtrees() {
        #expect(change("object:children-changed:add") == .subtree(":1.5/n"))
        #expect(change("object:children-changed:remove", path: "/w") == .subtree(":1.5/w"))
        #expect(change("object:state-changed:showing") == .subtree(":1.5/p"))
        #expect(change("object:state-changed:defunct", path: "/p", detail1: 1) == .subtree(":1.5/w"))
        #expect(change("object:state-changed:expanded", detail1: 1) == .subtree(":1.5/p"))
        #expect(change("object:state-changed:visible", path: "/new") == .unlisted(":1.5/new"))
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
        #expect(change("object:state-changed:showing", bus: ":1.9", path: "/new") == nil)
    }

    @Test func otherApplicationsCountForTheActiveWindowAndTheDesktop() {
        #expect(change("window:activate", bus: ":1.9") == nil)
        #expect(change("window:activate", bus: ":1.9", Self.context(active: true)) == .structure)
        #expect(change("object:children-changed:remove", bus: ":1.0", path: "/org/a11y/atspi/accessible/root") == .structure)
        #expect(change("window:create", bus: ":1.9", Self.context(app: nil)) == .structure)  // waiting for --app
    }
}
