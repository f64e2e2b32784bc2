import SwitchCore
import SwitchDisplay

/// One session-bus connection to switchscan's GNOME Shell extension (the desktop's parts share
/// one; the overlay has its own, so a scene never waits behind a window list). It watches two
/// names: the extension's (`org.switchscan.Shell`, owned only while the extension is enabled and
/// its input devices are announced) and the Shell's own (`org.gnome.Shell`).
///
///     start                 both owners asked (after their watches are in place)
///     extension's name gone  `isUp` false: every call fails at once with the words and the
///                           command that turns it on; `onExtension(false)` in the next dispatch
///     extension's name back  `isUp` true again, `onExtension(true)` (the parts resume: the scene
///                           is sent again, the window list read again)
///     org.gnome.Shell gone, or the bus closed   `shellGone` says why (the run ends: the driver)
final class GnomeShellConnection {
    let bus: SessionBus
    /// The extension's unique name while it is on the bus.
    private(set) var owner: String?
    /// Why GNOME Shell is no longer there (nil while it is).
    private(set) var shellGone: String?
    /// Run in `bus.dispatch()` when the extension came (true) or went (false).
    private var watchers: [(Bool) -> Void] = []
    /// The extension's API version (1: no `Sync`), asked when it comes.
    private(set) var apiVersion: UInt32 = 0
    private(set) var shellVersion: String?

    /// How long a call waits for the Shell (its main thread draws the desktop: a busy frame is
    /// tens of milliseconds).
    static let timeoutMilliseconds = 2000

    init(bus: SessionBus) {
        self.bus = bus
        let (_, shellNow) = bus.watchNameOwner(GnomeExtension.shellName) { [weak self] owner in
            if owner == nil { self?.shellGone = "\(GnomeExtension.shellName) left the session bus" }
        }
        if case .success(nil) = shellNow { shellGone = "\(GnomeExtension.shellName) is not on the session bus" }
        let (_, now) = bus.watchNameOwner(GnomeExtension.busName) { [weak self] owner in self?.extensionMoved(to: owner) }
        owner = (try? now.get()) ?? nil
        if owner != nil { askVersion() }
        bus.onDisconnect = { [weak self] in self?.shellGone = self?.shellGone ?? "the session bus closed" }
    }

    /// The extension answers now.
    var isUp: Bool { owner != nil && shellGone == nil && bus.isConnected }

    /// Runs `watcher` each time the extension comes or goes.
    func onExtension(_ watcher: @escaping (Bool) -> Void) {
        watchers.append(watcher)
    }

    private func extensionMoved(to newOwner: String?) {
        let was = owner != nil
        owner = newOwner
        if newOwner != nil { askVersion() }
        guard was != (newOwner != nil) else { return }
        for w in watchers { w(newOwner != nil) }
    }

    private func askVersion() {
        guard case .success(let r) = bus.callAndWait(GnomeExtension.busName, GnomeExtension.path, GnomeExtension.interface, "GetVersion",
                                                     timeoutMilliseconds: GnomeShellConnection.timeoutMilliseconds), r.count == 2 else { return }
        shellVersion = r[0].string
        apiVersion = r[1].uint32 ?? 0
    }

    /// Why nothing can be asked of the extension now (nil: it answers).
    var unavailable: DisplayFailure? {
        if let shellGone { return DisplayFailure("GNOME Shell went away (\(shellGone))") }
        if owner == nil {
            return DisplayFailure("switchscan's GNOME Shell extension is off (\(GnomeExtension.enableCommand) turns it on)")
        }
        return nil
    }

    /// Calls `member` and waits for its answer.
    func call(_ member: String, _ arguments: [BusValue] = [], timeoutMilliseconds: Int = timeoutMilliseconds) -> Result<[BusValue], DisplayFailure> {
        if let why = unavailable { return .failure(why) }
        return bus.callAndWait(GnomeExtension.busName, GnomeExtension.path, GnomeExtension.interface, member, arguments,
                               timeoutMilliseconds: timeoutMilliseconds)
            .mapError { DisplayFailure("the GNOME Shell extension's \(member): \($0)") }
    }

    /// Calls `member` without waiting (the answer, or why there is none, to `reply` in a later
    /// dispatch). The Shell handles one connection's calls in order, so a call waited for after it
    /// is answered after it was carried out.
    func send(_ member: String, _ arguments: [BusValue] = [], reply: ((Result<[BusValue], SessionBusError>) -> Void)? = nil) {
        guard unavailable == nil else { return }
        bus.call(GnomeExtension.busName, GnomeExtension.path, GnomeExtension.interface, member, arguments,
                 timeoutMilliseconds: GnomeShellConnection.timeoutMilliseconds, reply: reply)
    }

    /// What the Shell says of the extension (`GetExtensionInfo`), for the note at the start.
    func shellState() -> GnomeExtension.ShellState {
        switch bus.callAndWait(GnomeExtension.shellName, GnomeExtension.shellPath, GnomeExtension.extensionsInterface, "GetExtensionInfo",
                               [.string(GnomeExtension.uuid)], timeoutMilliseconds: GnomeShellConnection.timeoutMilliseconds) {
        case .success(let r):
            guard let info = r.first?.dictionary else { return .unasked("an answer without the extension's details") }
            return info.isEmpty ? .unknown : GnomeExtension.ShellState(info: info)
        case .failure(let e):
            return .unasked(e.description)
        }
    }

    /// The Shell's version, from its own property (when the extension never answered).
    func askShellVersion() -> String? {
        if let shellVersion { return shellVersion }
        guard case .success(let r) = bus.callAndWait(GnomeExtension.shellName, GnomeExtension.shellPath, "org.freedesktop.DBus.Properties", "Get",
                                                     [.string("org.gnome.Shell"), .string("ShellVersion")]) else { return nil }
        return r.first?.string
    }
}
