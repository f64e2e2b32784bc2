@testable import SwitchCore

/// Drives a `Scanner` on a virtual clock, the way the engine will: it keeps the timers the scanner
/// sets (setting an id again replaces it; cancel removes it), and before delivering an input at t
/// it fires every timer due at or before t, in deadline order, ties in the order they were set.
/// It collects the transcript and notes every broken timing rule in `violations`.
struct ScannerHarness {
    private(set) var scanner: Scanner
    private(set) var now: Instant = .zero
    private(set) var lines: [TranscriptLine] = []
    /// Timing rules broken so far (a timer set in the past, time going backwards).
    private(set) var violations: [String] = []
    private var timers: [(id: Scanner.TimerID, at: Instant, order: Int)] = []
    private var order = 0

    /// When the scanner asked the engine to pause (Pause in the menu).
    private(set) var pauseRequests: [Instant] = []

    init(_ model: ScanModel, _ settings: ScanningSettings, groupSwitches: Int = 0, menu: MenuContext = Fixture.plainMenu) {
        scanner = Scanner(model: model, settings: settings, groupSwitches: groupSwitches, menu: menu)
    }

    init(_ tree: ElementTree, _ settings: ScanningSettings) {
        self.init(ScanModel(tree: tree), settings)
    }

    /// Pending timers and their deadlines, earliest first.
    var pendingTimers: [(id: Scanner.TimerID, at: Instant)] {
        timers.sorted { ($0.at, $0.order) < ($1.at, $1.order) }.map { ($0.id, $0.at) }
    }

    var nextDeadline: Instant? { pendingTimers.first?.at }

    // MARK: Inputs (each returns the lines it produced, rendered for comparison)

    @discardableResult
    mutating func start(at t: Double = 0) -> [String] {
        render(deliver(.start, at: .seconds(t)))
    }

    /// An accepted switch action at t (seconds). `target`: the snapshot taken at the physical press.
    @discardableResult
    mutating func press(_ action: SwitchAction, at t: Double, target: Scanner.ScanTarget? = nil) -> [String] {
        render(deliver(.action(action, target: target), at: .seconds(t)))
    }

    @discardableResult
    mutating func layout(_ model: ScanModel, at t: Double) -> [String] {
        render(deliver(.layout(model), at: .seconds(t)))
    }

    /// Speech finished the n-th phrase at t (speech-paced scanning).
    @discardableResult
    mutating func spoken(_ n: Int, at t: Double) -> [String] {
        render(deliver(.speechFinished(utterance: n), at: .seconds(t)))
    }

    /// Fires every timer due at or before t and moves the clock to t.
    @discardableResult
    mutating func run(until t: Double) -> [String] {
        render(advance(to: .seconds(t)))
    }

    /// Delivers a timer event the scanner may not expect (a stale or early fire), at t.
    @discardableResult
    mutating func fireStale(_ id: Scanner.TimerID, at t: Double) -> [String] {
        render(deliver(.timer(id), at: .seconds(t)))
    }

    // MARK: Untimed access for property tests (no rendering)

    /// Forgets the transcript kept so far, so that copies of a long-running harness stay cheap.
    mutating func forgetTranscript() { lines.removeAll() }

    mutating func deliver(_ event: Scanner.Event, at t: Instant) -> [TranscriptLine] {
        var produced = advance(to: t)
        produced += apply(event, at: t)
        return produced
    }

    mutating func advance(to t: Instant) -> [TranscriptLine] {
        if t < now { violations.append("input at \(t) before now \(now)") }
        var produced: [TranscriptLine] = []
        while let next = timers.indices.min(by: { (timers[$0].at, timers[$0].order) < (timers[$1].at, timers[$1].order) }),
              timers[next].at <= t {
            let timer = timers.remove(at: next)
            produced += apply(.timer(timer.id), at: timer.at)
        }
        now = max(now, t)
        return produced
    }

    private mutating func apply(_ event: Scanner.Event, at t: Instant) -> [TranscriptLine] {
        if t < now { violations.append("event at \(t) before now \(now)") }
        now = max(now, t)
        var produced: [TranscriptLine] = []
        for output in scanner.handle(event, at: now) {
            switch output {
            case .emit(let e):
                produced.append(TranscriptLine(t: now, e))
            case .setTimer(let id, let at):
                if at < now { violations.append("timer \(id) set at \(now) for the past \(at)") }
                timers.removeAll { $0.id == id }
                order += 1
                timers.append((id, at, order))
            case .cancelTimer(let id):
                timers.removeAll { $0.id == id }
            case .pauseRequested:
                pauseRequests.append(now)
            case .keyboardRequested:
                break
            }
        }
        checkInvariants(after: event)
        lines += produced
        return produced
    }

    /// Rules that hold after every event: nothing pending while stopped; auto scanning always has
    /// its dwell (or an Auto Tap window) pending, so it never stalls; a window has its timer.
    private mutating func checkInvariants(after event: Scanner.Event) {
        let ids = Set(timers.map(\.id))
        let event = ScannerHarness.describe(event)
        if !scanner.isScanning && !ids.isEmpty {
            violations.append("after \(event) at \(now): timers \(ids) pending while stopped")
        }
        var waitsForPresses = false
        if case .colorGroups = scanner.state { waitsForPresses = true }
        if case .point = scanner.state, !ids.contains(.sweep) {
            violations.append("after \(event) at \(now): a sweep without its timer")
        }
        // The style now: Auto scanning in the menu's Settings switches it.
        if scanner.style == .auto && scanner.isScanning && ids.isEmpty && !waitsForPresses {
            violations.append("after \(event) at \(now): auto scanning with no timer pending")
        }
        if case .autoTapWindow = scanner.state, !ids.contains(.autoTap) {
            violations.append("after \(event) at \(now): Auto Tap window without its timer")
        }
    }

    // MARK: Rendering

    static func describe(_ event: Scanner.Event) -> String {
        switch event {
        case .start: return "start"
        case .action(let a, let target): return "\(a.rawValue)" + (target.map { " (target \($0.kind.rawValue) \($0.id))" } ?? "")
        case .timer(let id): return "timer \(id)"
        case .layout(let model): return "layout (\(model.items.count) items)"
        case .speechFinished(let n): return "speech finished \(n)"
        }
    }

    /// `TranscriptFormat.text` with the column padding squeezed out, stops named by their ids (the
    /// notation of the timelines in Scanner.swift): "1.000 highlight item b". The labels the
    /// scanner gives are checked in TranscriptLabelTests.
    static func render(_ line: TranscriptLine) -> String {
        var out = ""
        var lastWasSpace = true
        for ch in byIDs(line) {
            if ch == " " {
                if !lastWasSpace { out.append(ch) }
                lastWasSpace = true
            } else {
                out.append(ch)
                lastWasSpace = false
            }
        }
        return out
    }

    func render(_ lines: [TranscriptLine]) -> [String] { lines.map(ScannerHarness.render) }

    /// The text line, with the stops, menu entries and acted-on elements named by bare ids.
    private static func byIDs(_ line: TranscriptLine) -> String {
        let time = line.t.transcriptString
        switch line.event {
        case .highlight(let id, let kind, _):
            return "\(time) highlight \(kind.rawValue) \(id)"
        case .menuOpened(let id, _, let items, let submenu):
            return "\(time) menu open " + (submenu.map { $0 + " " } ?? "") + "on \(id): " + items.map(\.id).joined(separator: ", ")
        case .perform(let p):
            var s = "\(time) perform \(p.action.name) \(p.id)"
            switch p.action {
            case .custom(let name): s += " \"\(name)\""
            case .key(let keys): s += " " + keys
            case .scroll(let direction): s += " " + direction.rawValue
            case .drag(let from, let to): s += " from \(from) to \(to)"
            default: break
            }
            if let point = p.point { s += " at \(point)" }
            if p.source == .touch { s += " (touch)" }
            return s
        case .colorGroups(let groups):
            return "\(time) groups " + groups.map { g in
                g.color + ": " + (g.ids + (g.back ? ["(back)"] : [])).joined(separator: " ")
            }.joined(separator: " | ")
        case .point(let point, let id, _):
            return "\(time) point \(point) → \(id ?? "no item there")"
        case .pointMenuOpened(let point, let id, _, let items, let submenu):
            return "\(time) menu open " + (submenu.map { $0 + " " } ?? "") + "at \(point)" + (id.map { " on \($0)" } ?? "") + ": " + items.map(\.id).joined(separator: ", ")
        case .setting(let c):
            if let limit = c.limit { return "\(time) setting \(c.name) stays " + TranscriptFormat.settingText(c.to) + " (\(limit.rawValue))" }
            return "\(time) setting \(c.name) " + TranscriptFormat.settingText(c.from) + " → " + TranscriptFormat.settingText(c.to)
        case .drag(let d):
            return "\(time) drag \(d.state.rawValue) \(d.id) from \(d.from)"
        default:
            return TranscriptFormat.text(line)
        }
    }
}
