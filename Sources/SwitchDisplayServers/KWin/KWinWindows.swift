import Glibc
import SwitchCore
import SwitchDisplay
import SwitchInput

/// KWin's windows and their origins, through switchscan's KWin script (packaging/kwin/README.md):
/// switchscan owns `org.switchscan.KWinHelper` on the session bus and offers its object there,
/// then has KWin load and run the script, which reports every window on every change
/// (`Windows(s json)`) and carries out the requests it takes by a long poll (`NextRequest`,
/// `Result`). No Wayland client may see other clients' windows; KWin's scripts may.
///
///     start      own the name ─→ offer the object ─→ unloadScript("switchscan") (an earlier run's)
///                ─→ loadScript(path, "switchscan") ─→ run() on /<id> (KWin 5) or
///                /Scripting/Script<id> (KWin 6) ─→ the first report awaited (the first tree read
///                needs the origins)
///     Windows    the report read into the table; a change written to `changes`' pipe
///     NextRequest / Result   the request queue (`KWinRequestQueue`); an idle poll answered "" at
///                its deadline (`tick`)
///     every 2 s  isScriptLoaded("switchscan"): false ─→ the script is gone (unloaded by someone,
///                KWin's scripting reset): a note, the Windows page empties, requests fail;
///                origins stay where they were last reported
///     stop       unloadScript("switchscan"), the name given up
///
/// A report that cannot be read is said once (the last good one stays).
final class KWinWindows: DisplayWindows, WindowOrigins {
    enum State: Equatable {
        case starting
        case running(object: String)
        /// The script is not there (never loaded, or gone): why, in a note's words.
        case off(String)
    }

    let bus: SessionBus
    private(set) var table = KWinWindowTable(ownPid: getpid())
    private var queue = KWinRequestQueue<BusCall>()
    private(set) var state = State.starting
    /// How many reports came (tests, traces).
    private(set) var reports = 0
    /// Notes for stderr, taken by the backend's loop adapter.
    private var notes: [String] = []
    private var badReportSaid = false
    /// `SWITCHSCAN_DESKTOP_TRACE`: every report said as it came (with CLOCK_MONOTONIC µs).
    var traceReports = false
    private var nextCheck: Int64 = 0
    private var checking = false
    /// Written when the windows changed; what the live desktop watches.
    private let changed = ChangeSignal()

    static let checkInterval: Int64 = 2_000_000
    /// How long switchscan waits for the first report at start (µs).
    static let firstReportTimeout: Int64 = 3_000_000

    init(bus: SessionBus) {
        self.bus = bus
    }

    /// A run without the loop (`tree dump --desktop`) unloads the script here.
    deinit { stop() }

    // MARK: Start and stop

    /// Owns the name, offers the object, loads and runs the script at `scriptPath`, and waits for
    /// its first report. Never throws: a failure leaves the state `off(why)` and a note.
    func start(scriptPath: String?) {
        let now = MonotonicClock.nowMicroseconds()
        guard let scriptPath else {
            return turnOff("switchscan's KWin script is not installed (share/switchscan/kwin/switchscan-windows.js; "
                           + "SWITCHSCAN_KWIN_SCRIPT names another)")
        }
        switch bus.requestName(KWinScript.helperName) {
        case .success(true): break
        case .success(false): return turnOff("\(KWinScript.helperName) is owned by another program (another switchscan?)")
        case .failure(let e): return turnOff("cannot own \(KWinScript.helperName) on the session bus: \(e)")
        }
        bus.export(KWinScript.helperPath, interface: KWinScript.helperInterface, methods: [
            BusMethod("Windows", arguments: "s") { [unowned self] call in
                call.reply()
                report(call.arguments.first?.string ?? "")
            },
            BusMethod("NextRequest", results: "s") { [unowned self] call in
                send(queue.poll(call, at: MonotonicClock.nowMicroseconds()))
            },
            BusMethod("Result", arguments: "sb") { [unowned self] call in
                call.reply()
                result(serial: call.arguments.first?.string ?? "", found: call.arguments.last?.bool ?? false)
            },
        ])
        let scripting = { (member: String, args: [BusValue]) in
            self.bus.callAndWait(KWinScript.service, KWinScript.scriptingPath, KWinScript.scriptingInterface, member, args, timeoutMilliseconds: 3000)
        }
        _ = scripting("unloadScript", [.string(KWinScript.pluginName)])
        let id: Int32
        switch scripting("loadScript", [.string(scriptPath), .string(KWinScript.pluginName)]) {
        case .success(let r):
            guard let n = r.first?.int32, n >= 0 else { return turnOff("KWin refused to load its script \(scriptPath)") }
            id = n
        case .failure(let e):
            return turnOff("KWin's scripting cannot be reached (org.kde.KWin /Scripting): \(e)")
        }
        let info = bus.callAndWait(KWinScript.service, "/KWin", "org.kde.KWin", "supportInformation", timeoutMilliseconds: 3000)
        let major = (try? info.get())?.first?.string.flatMap { KWinScript.majorVersion(supportInformation: $0[...]) }
        var ran: String?
        for object in KWinScript.scriptObjects(id: id, kwinMajor: major) {
            if case .success = bus.callAndWait(KWinScript.service, object, KWinScript.scriptInterface, "run", timeoutMilliseconds: 3000) {
                ran = object
                break
            }
        }
        guard let ran else { return turnOff("KWin loaded its script as #\(id) but would not run it") }
        state = .running(object: ran)
        nextCheck = now + KWinWindows.checkInterval
        // The first report (the script sends one as it starts): the first tree read needs origins.
        let deadline = now + KWinWindows.firstReportTimeout
        while reports == 0 && bus.isConnected {
            let left = deadline - MonotonicClock.nowMicroseconds()
            guard left > 0 else { break }
            var p = pollfd(fd: bus.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, Int32(clamping: (left + 999) / 1000))
            bus.dispatch()
        }
        if reports == 0 && state == .running(object: ran) {
            notes.append("KWin's script runs but sent no window report within \(KWinWindows.firstReportTimeout / 1_000_000) s: "
                         + "window positions come when it does")
        }
    }

    /// Unloads the script and gives the name up (the end of the run).
    func stop() {
        guard bus.isConnected, state != .off("switchscan ended") else { return }
        if case .running = state {
            _ = bus.callAndWait(KWinScript.service, KWinScript.scriptingPath, KWinScript.scriptingInterface, "unloadScript",
                                [.string(KWinScript.pluginName)], timeoutMilliseconds: 1000)
        }
        state = .off("switchscan ended")
        bus.unexport(KWinScript.helperPath)
        bus.releaseName(KWinScript.helperName)
    }

    private func turnOff(_ why: String) {
        let wasRunning: Bool
        if case .running = state { wasRunning = true } else { wasRunning = false }
        state = .off(why)
        _ = queue.dropQueued()
        send(queue.tick(at: Int64.max))
        notes.append(wasRunning
            ? "KWin's script stopped (\(why)): the Windows page is empty and windows are no longer followed as they move; "
              + "scanning goes on with AT-SPI actions, the highlight where the windows were last reported"
            : "no KWin script (\(why)): window positions and the Windows page are off; AT-SPI frames are relative to each window, "
              + "so the highlight may be misplaced; scanning goes on with AT-SPI actions")
        signalChange()
    }

    // MARK: The loop (driven by `KWinDriver`)

    /// When `tick` must run (the idle poll's answer, the script check).
    var deadline: Int64? {
        guard case .running = state else { return nil }
        return [queue.deadline, checking ? nil : nextCheck].compactMap { $0 }.min()
    }

    /// Answers an idle poll, checks that the script is still loaded.
    func tick(now: Int64) {
        send(queue.tick(at: now))
        guard case .running = state, !checking, now >= nextCheck else { return }
        checking = true
        bus.call(KWinScript.service, KWinScript.scriptingPath, KWinScript.scriptingInterface, "isScriptLoaded",
                 [.string(KWinScript.pluginName)], timeoutMilliseconds: 2000) { [weak self] answer in
            guard let self else { return }
            checking = false
            nextCheck = MonotonicClock.nowMicroseconds() + KWinWindows.checkInterval
            guard case .running = state else { return }
            switch answer {
            case .success(let r) where r.first?.bool == false: turnOff("it was unloaded")
            case .failure(let e) where e.isNoOwner: turnOff("KWin left the session bus")
            default: break
            }
        }
    }

    /// Notes said since the last call.
    func takeNotes() -> [String] {
        defer { notes = [] }
        return notes
    }

    private func send(_ answers: [KWinRequestQueue<BusCall>.Answer]) {
        for a in answers { a.call.reply([.string(a.text)]) }
    }

    private func report(_ text: String) {
        if traceReports { notes.append("desktop: KWin report at \(MonotonicClock.nowMicroseconds()): \(text)") }
        switch KWinWindowReport.parse(text) {
        case .success(let windows):
            reports += 1
            if table.update(windows) { signalChange() }
        case .failure(let f):
            if !badReportSaid { notes.append("\(f); the last report read stays") }
            badReportSaid = true
        }
    }

    private func result(serial: String, found: Bool) {
        guard let r = queue.result(serial: serial, found: found), !found else { return }
        notes.append("KWin had no window \(r.window) any more to \(r.op.rawValue)")
    }

    private func signalChange() { changed.signal() }

    private var running: Bool {
        if case .running = state { return true }
        return false
    }

    // MARK: DisplayWindows

    func list() -> [DisplayWindow] { running ? table.list : [] }

    var active: DisplayWindowID? { running ? table.active : nil }

    func activate(_ id: DisplayWindowID) -> String? { ask(.activate, id) ? "activated (KWin script)" : nil }

    func close(_ id: DisplayWindowID) -> String? { ask(.close, id) ? "asked to close (KWin script)" : nil }

    private func ask(_ op: KWinRequestQueue<BusCall>.Op, _ id: DisplayWindowID) -> Bool {
        guard running, let uuid = table.uuid(of: id) else { return false }
        send(queue.ask(op, window: uuid, at: MonotonicClock.nowMicroseconds()).answers)
        return true
    }

    var changes: WindowChanges { .descriptor(changed.fileDescriptor) }

    func takeChanges() -> Bool { changed.take() }

    // MARK: WindowOrigins

    var windowRelativeExtents: Bool { true }

    func origin(pid: Int32?, title: String, size: Size?) -> Point? {
        table.origin(pid: pid, title: title, size: size)
    }
}
