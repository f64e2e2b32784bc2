import SwitchCore
import SwitchDisplay
@testable import SwitchDisplayServers
import Testing

/// Issue 30's "elsewhere": a Wayland compositor switchscan has no backend for (Weston, an unknown
/// one). The choice and its notes on plain environments; the uinput devices themselves are made
/// only where /dev/uinput is writable (the VM suite, scripts/device-tests, proves the devices:
/// this host has no /dev/uinput), so here the plan is checked with the answer given.
struct ElsewhereBackendTests {
    static let weston = ["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "weston", "XDG_RUNTIME_DIR": "/nonexistent"]

    @Test func anUnknownWaylandCompositorGetsTheElsewhereBackend() {
        let backend = try! DisplayBackends.open(Self.weston).get()
        #expect(backend.name == .none)
        #expect(backend.speaksInstead)
        #expect(backend.driver == nil)
        #expect(backend.notes.first == "display: none (a Wayland session whose compositor switchscan has no backend for: XDG_CURRENT_DESKTOP=weston, WAYLAND_DISPLAY=wayland-0)")
        #expect(backend.notes.contains { $0.hasPrefix("display: no highlight can be drawn on this compositor") && $0.contains("speech says what is highlighted instead") })
        #expect(throws: OverlayError.self) { try backend.openOverlay() }
        do {
            _ = try backend.openOverlay()
        } catch {
            #expect(error.description.hasPrefix("--show: no highlight can be drawn on this Wayland compositor ("), "\(error)")
            #expect(error.description.hasSuffix("; --no-show scans with speech"))
        }
        #expect(backend.windows == nil && backend.origins == nil)
        #expect(backend.missing(.windows) == "this compositor does not let switchscan list or switch windows")
    }

    @Test func withAWritableUinputThePointerAndKeysAreUinputsAndTheNoteSaysWhatAClickCanReach() {
        let with = ElsewhereBackend.plan(reason: "r", uinputWritable: true)
        #expect(with.uinput)
        #expect(with.notes.count == 3)
        #expect(with.notes[2].hasPrefix("display: synthetic pointer and keys through /dev/uinput (a uinput absolute pointer and keyboard)"))
        #expect(with.notes[2].contains("a click lands right only in a window at the desktop's top-left corner"))
        let without = ElsewhereBackend.plan(reason: "r", uinputWritable: false)
        #expect(!without.uinput)
        #expect(without.notes[2].hasPrefix("display: no synthetic pointer or keys: /dev/uinput is not writable by this user"))
        // Without uinput, a click says why in the result line.
        let backend = ElsewhereBackend.make(environment: Self.weston, reason: "r", uinputWritable: false)
        #expect(backend.pointer == nil && backend.keys == nil)
        #expect(backend.missing(.click) == "no pointer to click with on this compositor: /dev/uinput is not writable by this user")
        #expect(backend.missing(.typing) == "no keyboard to type with on this compositor: /dev/uinput is not writable by this user")
    }

    @Test func forcedNoneAndSessionsWithoutWaylandAreNotElsewhere() {
        let forced = try! DisplayBackends.open(Self.weston, forced: DisplayBackendName.none).get()
        #expect(forced.name == .none && !forced.speaksInstead)
        let nothing = try! DisplayBackends.open([:]).get()
        #expect(nothing.name == .none && !nothing.speaksInstead)
        let x = try! DisplayBackends.open(["DISPLAY": ":5"]).get()
        #expect(x.name == .x11 && !x.speaksInstead)
    }

    @Test func swayIsTheWlrootsBackendWithItsLoopAdapter() {
        let backend = try! DisplayBackends.open(["WAYLAND_DISPLAY": "wayland-1", "SWAYSOCK": "/run/sway.sock"]).get()
        #expect(backend.name == .wlroots)
        #expect(DisplayBackends.loopAdapter(for: backend)?.name == "wayland")
        #expect(DisplayBackends.built.contains(.wlroots))
        // Another wlroots compositor, no sway IPC: said at once.
        let river = try! DisplayBackends.open(["WAYLAND_DISPLAY": "wayland-1", "XDG_CURRENT_DESKTOP": "river"]).get()
        #expect(river.name == .wlroots)
        #expect(river.notes.last?.hasPrefix("display: SWAYSOCK is not set (not sway): no window origins and no Windows page") == true)
    }
}

/// Where sway's window origin is, for a client of a given accessible frame (measured on sway 1.7,
/// `SwayWindows.origin(of:size:firstChild:)`): the content area; centred when smaller; a larger
/// frame (a shadow round the window) starts at its first child's corner.
struct SwayOriginRuleTests {
    static func window(rect: SwayRect, content: SwayRect) -> SwayWindow {
        SwayWindow(id: 5, pid: 42, appID: "a", title: "T", focused: true, floating: false, visible: true, rect: rect, windowRect: content,
                   geometry: SwayRect(x: 0, y: 0, width: content.width, height: content.height), workspace: "1", output: "HEADLESS-1")
    }

    @Test func theContentAreaCentredWhenSmallerAndTheShadowsInsetWhenLarger() {
        let w = Self.window(rect: SwayRect(x: 0, y: 0, width: 1280, height: 800), content: SwayRect(x: 2, y: 2, width: 1276, height: 796))
        var asked = 0
        let same = SwayWindows.origin(of: w, size: Size(width: 1276, height: 796)) { asked += 1; return Point(x: 26, y: 23) }
        #expect(same == (2, 2) && asked == 0, "a frame the content's size needs no first child")
        let small = SwayWindows.origin(of: w, size: Size(width: 400, height: 300)) { asked += 1; return nil }
        #expect(small == (2 + 438, 2 + 248) && asked == 0)
        let floating = Self.window(rect: SwayRect(x: 83, y: 47, width: 404, height: 304), content: SwayRect(x: 2, y: 2, width: 400, height: 300))
        let shadowed = SwayWindows.origin(of: floating, size: Size(width: 452, height: 358)) { asked += 1; return Point(x: 26, y: 23) }
        #expect(shadowed == (83 + 2 - 26 + 0, 47 + 2 - 23 + 0) && asked == 1, "\(shadowed)")
        #expect(SwayWindows.origin(of: floating, size: nil) { nil } == (85, 49))
    }

    @Test func aWindowIsFoundByProcessThenTitleThenTheOnlyOneShowing() {
        var one = Self.window(rect: SwayRect(x: 0, y: 0, width: 640, height: 800), content: SwayRect(x: 2, y: 2, width: 636, height: 796))
        var two = one
        two.id = 6
        two.title = "Other"
        two.visible = false
        one.title = "Main"
        #expect(SwayWindows.window(in: [one, two], pid: 42, title: "Other")?.id == 6)
        #expect(SwayWindows.window(in: [one, two], pid: 42, title: "Gone")?.id == 5, "the only one showing")
        #expect(SwayWindows.window(in: [one, two], pid: 7, title: "Main") == nil)
    }
}
