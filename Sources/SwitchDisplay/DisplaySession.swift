/// Which display backend a session needs, from its environment alone (pure: a dictionary in, a
/// choice and its reason out), and which one `run` takes given the backends this build has.
///
///     WAYLAND_DISPLAY set, or XDG_SESSION_TYPE=wayland     a Wayland session (Wayland wins over
///                                                          DISPLAY, which is then Xwayland's)
///       SWAYSOCK set, or XDG_CURRENT_DESKTOP has sway      wlroots
///         (or another wlroots compositor's name)
///       XDG_CURRENT_DESKTOP has KDE                        kwin
///       XDG_CURRENT_DESKTOP has GNOME                      gnome
///       anything else                                      none (no highlight, AT-SPI actions)
///     else DISPLAY set                                     x11
///     else                                                 none (no display at all)
///
/// `XDG_CURRENT_DESKTOP` is a colon-separated list ("ubuntu:GNOME"), compared without case.
/// `choose` then falls back from a backend this build lacks to X11 through Xwayland when DISPLAY
/// is set (what switchscan did before it had Wayland backends), else to none; a backend forced
/// with `--display` that this build lacks is refused.
public enum DisplaySession {
    public struct Choice: Equatable, Sendable {
        public var backend: DisplayBackendName
        /// Why, in words: "an X11 session (DISPLAY=:0)".
        public var reason: String

        public init(_ backend: DisplayBackendName, _ reason: String) {
            self.backend = backend
            self.reason = reason
        }

        /// The note `run` prints: "display: x11 (an X11 session: DISPLAY=:0)".
        public var note: String { "display: \(backend) (\(reason))" }
    }

    /// A backend forced with `--display` that this build does not have.
    public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        public var wanted: DisplayBackendName
        public var built: [DisplayBackendName]

        public init(wanted: DisplayBackendName, built: [DisplayBackendName]) {
            self.wanted = wanted
            self.built = built
        }

        public var description: String {
            "--display \(wanted): this switchscan has no \(wanted) backend yet (it has: \(built.map(\.rawValue).joined(separator: ", ")))"
        }
    }

    /// wlroots compositors by their XDG_CURRENT_DESKTOP name (each has the layer shell and the
    /// virtual pointer and keyboard).
    static let wlrootsDesktops: Set<String> = ["sway", "wayfire", "river", "labwc", "hyprland", "niri"]

    /// The backend the session in `environment` needs.
    public static func detect(_ environment: [String: String]) -> Choice {
        func value(_ key: String) -> String? {
            guard let v = environment[key], !v.isEmpty else { return nil }
            return v
        }
        let desktops = (value("XDG_CURRENT_DESKTOP") ?? "").split(separator: ":").map { $0.lowercased() }
        let wayland = value("WAYLAND_DISPLAY")
        let sessionType = value("XDG_SESSION_TYPE")?.lowercased()
        if wayland != nil || sessionType == "wayland" {
            var how = wayland.map { "WAYLAND_DISPLAY=\($0)" } ?? "XDG_SESSION_TYPE=wayland, WAYLAND_DISPLAY unset: wayland-0"
            if let x = value("DISPLAY") { how += "; DISPLAY=\(x) is Xwayland's, for X11 applications only" }
            let desktop = value("XDG_CURRENT_DESKTOP").map { "XDG_CURRENT_DESKTOP=\($0), " } ?? ""
            if let sock = value("SWAYSOCK") {
                return Choice(.wlroots, "a sway session: SWAYSOCK=\(sock), \(how)")
            }
            if let name = desktops.first(where: { wlrootsDesktops.contains($0) }) {
                return Choice(.wlroots, "a \(name) session (a wlroots compositor): \(desktop)\(how)")
            }
            if desktops.contains("kde") {
                return Choice(.kwin, "a KDE Plasma Wayland session: \(desktop)\(how)")
            }
            if desktops.contains("gnome") {
                return Choice(.gnome, "a GNOME Wayland session: \(desktop)\(how)")
            }
            return Choice(.none, "a Wayland session whose compositor switchscan has no backend for: "
                          + (desktop.isEmpty ? "XDG_CURRENT_DESKTOP unset, " : desktop) + how)
        }
        if let x = value("DISPLAY") {
            return Choice(.x11, "an X11 session: DISPLAY=\(x)")
        }
        return Choice(.none, "no display: neither WAYLAND_DISPLAY nor DISPLAY is set")
    }

    /// The backend `run` takes: `forced` (refused when not `built`), else the one the session
    /// needs, else X11 through Xwayland when DISPLAY is set, else none.
    public static func choose(_ environment: [String: String], forced: DisplayBackendName? = nil,
                              built: [DisplayBackendName]) -> Result<Choice, Refusal> {
        if let forced {
            guard built.contains(forced) else { return .failure(Refusal(wanted: forced, built: built)) }
            return .success(Choice(forced, "--display \(forced)"))
        }
        let needed = detect(environment)
        if built.contains(needed.backend) { return .success(needed) }
        if built.contains(.x11), let x = environment["DISPLAY"], !x.isEmpty {
            return .success(Choice(.x11, "through Xwayland, DISPLAY=\(x): \(needed.reason), and this switchscan has no \(needed.backend) backend yet"))
        }
        return .success(Choice(.none, "\(needed.reason), and this switchscan has no \(needed.backend) backend yet"))
    }
}
