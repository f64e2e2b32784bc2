import SwitchDisplay
import Testing

/// Which backend a session needs, from its environment alone (the table in DisplaySession.swift),
/// and which one `run` takes with the backends a build has.
@Suite struct DisplaySessionTests {
    static func detect(_ env: [String: String]) -> DisplaySession.Choice { DisplaySession.detect(env) }

    @Test func sway_bySWAYSOCK_isWlroots() {
        let c = Self.detect(["WAYLAND_DISPLAY": "wayland-1", "SWAYSOCK": "/run/user/1000/sway-ipc.1000.42.sock", "XDG_SESSION_TYPE": "wayland"])
        #expect(c.backend == .wlroots)
        #expect(c.reason == "a sway session: SWAYSOCK=/run/user/1000/sway-ipc.1000.42.sock, WAYLAND_DISPLAY=wayland-1")
    }

    @Test func sway_byXDG_CURRENT_DESKTOP_withoutSWAYSOCK_isWlroots() {
        let c = Self.detect(["WAYLAND_DISPLAY": "wayland-1", "XDG_CURRENT_DESKTOP": "sway"])
        #expect(c.backend == .wlroots)
        #expect(c.reason == "a sway session (a wlroots compositor): XDG_CURRENT_DESKTOP=sway, WAYLAND_DISPLAY=wayland-1")
    }

    @Test func gnomeWayland_isGnome_alsoUbuntusName() {
        #expect(Self.detect(["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "GNOME", "XDG_SESSION_TYPE": "wayland"])
                == .init(.gnome, "a GNOME Wayland session: XDG_CURRENT_DESKTOP=GNOME, WAYLAND_DISPLAY=wayland-0"))
        #expect(Self.detect(["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME"]).backend == .gnome)
    }

    @Test func kdeWayland_isKwin() {
        let c = Self.detect(["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE", "XDG_SESSION_TYPE": "wayland"])
        #expect(c == .init(.kwin, "a KDE Plasma Wayland session: XDG_CURRENT_DESKTOP=KDE, WAYLAND_DISPLAY=wayland-0"))
    }

    @Test func x11Session_isX11_whateverTheDesktop() {
        #expect(Self.detect(["DISPLAY": ":0", "XDG_SESSION_TYPE": "x11", "XDG_CURRENT_DESKTOP": "GNOME"])
                == .init(.x11, "an X11 session: DISPLAY=:0"))
        #expect(Self.detect(["DISPLAY": ":1", "XDG_CURRENT_DESKTOP": "KDE"]).backend == .x11)
        #expect(Self.detect(["DISPLAY": ":99"]).note == "display: x11 (an X11 session: DISPLAY=:99)")
    }

    @Test func xwaylandDISPLAYInsideAWaylandSession_waylandWins() {
        let c = Self.detect(["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "GNOME"])
        #expect(c == .init(.gnome, "a GNOME Wayland session: XDG_CURRENT_DESKTOP=GNOME, WAYLAND_DISPLAY=wayland-0; DISPLAY=:0 is Xwayland's, for X11 applications only"))
        #expect(Self.detect(["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":1", "SWAYSOCK": "/s"]).backend == .wlroots)
    }

    @Test func waylandSessionTypeWithoutWAYLAND_DISPLAY_isWaylandOnItsDefaultSocket() {
        let c = Self.detect(["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "KDE", "DISPLAY": ":0"])
        #expect(c.backend == .kwin)
        #expect(c.reason == "a KDE Plasma Wayland session: XDG_CURRENT_DESKTOP=KDE, XDG_SESSION_TYPE=wayland, WAYLAND_DISPLAY unset: wayland-0; DISPLAY=:0 is Xwayland's, for X11 applications only")
    }

    @Test func unknownCompositor_isNone_withWhatItIs() {
        #expect(Self.detect(["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "weston"])
                == .init(.none, "a Wayland session whose compositor switchscan has no backend for: XDG_CURRENT_DESKTOP=weston, WAYLAND_DISPLAY=wayland-0"))
        #expect(Self.detect(["WAYLAND_DISPLAY": "wayland-0"]).reason
                == "a Wayland session whose compositor switchscan has no backend for: XDG_CURRENT_DESKTOP unset, WAYLAND_DISPLAY=wayland-0")
    }

    @Test func nothingAtAll_isNone_andEmptyValuesCountAsUnset() {
        #expect(Self.detect([:]) == .init(.none, "no display: neither WAYLAND_DISPLAY nor DISPLAY is set"))
        #expect(Self.detect(["DISPLAY": "", "WAYLAND_DISPLAY": "", "XDG_SESSION_TYPE": "tty"]).backend == .none)
        #expect(Self.detect(["DISPLAY": "", "SWAYSOCK": "/s"]).backend == .none)  // SWAYSOCK alone is no session
    }

    @Test func otherWlrootsCompositors_byName() {
        for name in ["Hyprland", "river", "wayfire", "labwc"] {
            #expect(Self.detect(["WAYLAND_DISPLAY": "wayland-1", "XDG_CURRENT_DESKTOP": name]).backend == .wlroots, "\(name)")
        }
    }

    // MARK: choose: what a build has

    static let today: [DisplayBackendName] = [.x11, .none]

    @Test func choose_x11Session_isX11() throws {
        #expect(try DisplaySession.choose(["DISPLAY": ":0"], built: Self.today).get() == .init(.x11, "an X11 session: DISPLAY=:0"))
    }

    @Test func choose_aWaylandBackendNotBuilt_fallsBackToXwaylandWhenDISPLAYIsSet() throws {
        let c = try DisplaySession.choose(["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "GNOME"], built: Self.today).get()
        #expect(c.backend == .x11)
        #expect(c.note == "display: x11 (through Xwayland, DISPLAY=:0: a GNOME Wayland session: XDG_CURRENT_DESKTOP=GNOME, WAYLAND_DISPLAY=wayland-0; "
                + "DISPLAY=:0 is Xwayland's, for X11 applications only, and this switchscan has no gnome backend yet)")
    }

    @Test func choose_aWaylandBackendNotBuilt_withoutXwayland_isNone() throws {
        let c = try DisplaySession.choose(["WAYLAND_DISPLAY": "wayland-1", "SWAYSOCK": "/s"], built: Self.today).get()
        #expect(c == .init(.none, "a sway session: SWAYSOCK=/s, WAYLAND_DISPLAY=wayland-1, and this switchscan has no wlroots backend yet"))
    }

    @Test func choose_theBackendBuilt_isTaken() throws {
        let c = try DisplaySession.choose(["WAYLAND_DISPLAY": "wayland-1", "SWAYSOCK": "/s", "DISPLAY": ":0"], built: [.x11, .wlroots, .none]).get()
        #expect(c.backend == .wlroots)
    }

    @Test func choose_nothing_isNone() throws {
        #expect(try DisplaySession.choose([:], built: Self.today).get().backend == .none)
    }

    @Test func choose_forced_isTakenWhateverTheSession_orRefusedWhenNotBuilt() throws {
        #expect(try DisplaySession.choose(["WAYLAND_DISPLAY": "wayland-0"], forced: .x11, built: Self.today).get() == .init(.x11, "--display x11"))
        #expect(try DisplaySession.choose(["DISPLAY": ":0"], forced: DisplayBackendName.none, built: Self.today).get().backend == .none)
        let refused = DisplaySession.choose(["DISPLAY": ":0"], forced: .kwin, built: Self.today)
        #expect(refused == .failure(DisplaySession.Refusal(wanted: .kwin, built: Self.today)))
        if case .failure(let r) = refused {
            #expect(r.description == "--display kwin: this switchscan has no kwin backend yet (it has: x11, none)")
        }
    }
}
