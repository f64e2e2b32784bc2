import SwitchCore
import SwitchDisplay

/// GNOME Shell's windows through switchscan's extension: where each window's AT-SPI coordinates
/// start (every toolkit's are relative to its window on Wayland), the Windows page's list, and
/// activate and close. The list is read once at the start (the first tree needs origins) and
/// again each time the extension says it changed; the live desktop learns of a change by
/// `changes`' descriptor, after the new list is in.
///
///     start                     GetWindows waited for
///     WindowsChanged            GetWindows sent (one at a time: a signal while one is out asks
///                               for one more after it)
///     GetWindows answered       a list that differs: kept, the change signalled
///     the extension goes        the Windows page empties (origins stay where they were last
///                               told: the windows did not move because the extension went)
///     the extension comes back  GetWindows sent
final class GnomeWindows: DisplayWindows, WindowOrigins {
    let shell: GnomeShellConnection
    private(set) var windows: [GnomeExtension.Window] = []
    private let changed = ChangeSignal()
    private var asking = false
    private var askAgain = false
    /// A list that could not be read, said once (the last good one stays).
    private var badListSaid = false
    /// Notes for the run (taken by the driver).
    private var notes: [String] = []
    /// `SWITCHSCAN_DESKTOP_TRACE`: each new list said (with CLOCK_MONOTONIC µs).
    var trace: ((String) -> Void)?

    init(shell: GnomeShellConnection) {
        self.shell = shell
        shell.bus.subscribe(path: GnomeExtension.path, interface: GnomeExtension.interface, member: "WindowsChanged") { [weak self] _ in
            self?.ask()
        }
        shell.onExtension { [weak self] up in
            guard let self else { return }
            if up { ask() } else { changed.signal() }
        }
        if case .success(let r) = shell.call("GetWindows") { take(r) }
    }

    var windowRelativeExtents: Bool { true }

    func takeNotes() -> [String] {
        defer { notes = [] }
        return notes
    }

    private func ask() {
        guard shell.isUp else { return }
        guard !asking else {
            askAgain = true
            return
        }
        asking = true
        shell.send("GetWindows") { [weak self] answer in
            guard let self else { return }
            asking = false
            if case .success(let r) = answer { take(r) }
            if askAgain {
                askAgain = false
                ask()
            }
        }
    }

    private func take(_ reply: [BusValue]) {
        switch GnomeExtension.windows(reply.first?.string ?? "") {
        case .success(let list):
            guard list != windows else { return }
            windows = list
            trace?("windows from the GNOME Shell extension: \(list.count)")
            changed.signal()
        case .failure(let why):
            if !badListSaid { notes.append(why.description) }
            badListSaid = true
        }
    }

    // MARK: WindowOrigins

    func origin(pid: Int32?, title: String, size: Size?) -> Point? {
        ToplevelOrigin.origin(in: windows, pid: pid, title: title, size: size)
    }

    // MARK: DisplayWindows

    static func id(_ w: GnomeExtension.Window) -> DisplayWindowID {
        DisplayWindowID(backend: DisplayBackendName.gnome.rawValue, number: UInt64(w.id))
    }

    func list() -> [DisplayWindow] {
        guard shell.isUp else { return [] }
        return windows.filter(\.isListed).map { DisplayWindow(id: GnomeWindows.id($0), pid: $0.pid, title: $0.title, frame: $0.frame) }
    }

    var active: DisplayWindowID? {
        windows.last(where: \.focused).map(GnomeWindows.id)
    }

    func activate(_ id: DisplayWindowID) -> String? {
        ask(id, "ActivateWindow", done: "activated by switchscan's GNOME Shell extension")
    }

    func close(_ id: DisplayWindowID) -> String? {
        ask(id, "CloseWindow", done: "asked to close by switchscan's GNOME Shell extension")
    }

    private func ask(_ id: DisplayWindowID, _ member: String, done: String) -> String? {
        guard id.backend == DisplayBackendName.gnome.rawValue, let n = UInt32(exactly: id.number),
              case .success(let r) = shell.call(member, [.uint32(n)]), r.first?.bool == true else { return nil }
        return done
    }

    var changes: WindowChanges { .descriptor(changed.fileDescriptor) }

    func takeChanges() -> Bool { changed.take() }
}
