import SwitchCore
import SwitchDisplay
import SwitchInput

/// The Windows page (issue 19, docs/desktop.md "Windows"): the desktop's windows handed to the
/// engine (`ShellInput.windows`) whenever they change, and the page's performs carried out by the
/// display (`DisplayWindows`; on X11 EWMH's `_NET_ACTIVE_WINDOW`, as pagers do, without a window
/// manager raised and given the focus): a window brought to the front and scanning moved into it
/// at once, or asked to close.
extension DesktopSource {
    /// Reads the window list again when it is stale; the engine's input when it changed.
    /// With `--app NAME` scanning stays with that application: no Windows page.
    func refreshWindows() -> ShellInput? {
        guard windowsStale, appName == nil, let shown = windows else { return nil }
        windowsStale = false
        let apps = bus.applications().filter { !silent.contains($0.bus) }.map { a -> WindowList.Application in
            if pids[a.bus] == nil { pids[a.bus] = bus.pid(of: a.bus) }
            let own = ((try? reader.windows(of: a)) ?? []).filter {
                $0.info.states.contains(.showing) && AtspiMapping.windowRoles.contains($0.info.role)
            }
            let frames = reader.extents(of: a, paths: own.map(\.path))
            return WindowList.Application(name: a.name, pid: pids[a.bus],
                                          windows: own.map { .init(bus: a.bus, path: $0.path, title: $0.info.name, frame: frames[$0.path] ?? nil) })
        }
        windowList = WindowList.windows(shown.list(), apps: apps, screen: Rect(x: 0, y: 0, width: screen.width, height: screen.height))
        let scanned = scannedWindow
        let current = windowList.first { w in w.accessible.map { $0.bus == scanned?.bus && $0.path == scanned?.path } ?? false }
        let others = windowList.filter { $0.id != current?.id }.map { WindowEntry(id: $0.id, label: $0.label) }
        let currentEntry = current.map { WindowEntry(id: $0.id, label: $0.label) }
        guard others != sentWindows || currentEntry != sentCurrent else { return nil }
        sentWindows = others
        sentCurrent = currentEntry
        trace?("windows: \(others.map(\.label)), scanned: \(currentEntry?.label ?? "none")")
        return .windows(others, current: currentEntry)
    }

    /// The Windows page's perform: the window brought up (and scanning moved into it) or asked
    /// to close; its result line, and the new tree.
    func windowPerform(_ p: Perform, id: String, close: Bool) -> [ShellInput] {
        var inputs: [ShellInput] = []
        func result(_ outcome: PerformResult.Outcome) -> [ShellInput] {
            [.line(.result(PerformResult(p, outcome)))]
        }
        guard let shown = windows else { return result(.failed(performer.missing(.windows))) }
        guard let window = DisplayWindowID(parsing: id) else { return result(.failed("\"\(id)\" is not a window")) }
        let entry = windowList.first { $0.window == window }
        windowsStale = true
        if close {
            guard let how = shown.close(window) else { return result(.failed("the window could not be asked to close")) }
            return result(.done(how))
        }
        guard let how = shown.activate(window) else { return result(.failed("the window could not be brought up")) }
        guard let accessible = entry?.accessible, appName == nil || entry?.application == appName else {
            // Nothing on the bus to scan there (or not the application `--app` follows).
            return result(.done(how + "; nothing of it to scan"))
        }
        // Scanning moves there now: the window read as the one followed (a panel never takes the
        // focus, so its own activation event may never come).
        activeWindow = (accessible.bus, accessible.path)
        inputs += result(.done(how))
        let before = tree
        _ = readAll()
        inputs += takeLines().map { .line($0) }
        if tree != before {
            inputs.append(.layout(tree))
            newTree?(tree)
        }
        return inputs
    }
}
