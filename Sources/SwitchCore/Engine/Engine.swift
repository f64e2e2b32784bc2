/// The engine: device frames in, transcript lines out, on whatever clock drives it. It wires the
/// pure parts together (README "Architecture"):
///
///     device frame ─┬─ keys ──→ SwitchPipeline (per device + key) ─→ switch actions ─┐
///                   └─ touch ─→ TouchTracker → TouchFilter ─→ tap / swipe / hold     │
///                               (or the whole screen as one switch) ─────────────────┤
///                                                                                    ↓
///                                                  Scanner (scan order, menu) → highlight/perform
///
/// Every part is a pure state machine that returns actions; timers are actions too, kept here in
/// one `TimerQueue`. The live loop (libevdev + timerfd) and the simulator (recording + virtual
/// clock) drive this same struct, so a simulation is the real engine. Rule for simultaneous
/// things: timers due at or before an input's time fire first, in deadline order.
public struct Engine: Sendable {
    public private(set) var model: ScanModel
    public let profile: Profile

    private var scanner: Scanner?
    private var devices: [DeviceState]
    private var pipelines: [PipelineState] = []
    private var timers = TimerQueue<TimerKey>()
    private var out: [TranscriptLine] = []
    private var now = Instant.zero

    private enum TimerKey: Hashable, Sendable {
        case scanner(Scanner.TimerID)
        case pipeline(Int, SwitchPipeline.TimerID)
        case touch(device: Int, TouchFilter.TimerID)
    }

    private struct PipelineState: Sendable {
        var pipeline: SwitchPipeline
        var device: Int
        /// What was highlighted at this switch's last physical press (selectTarget: press).
        var target: Scanner.ScanTarget?
    }

    private struct DeviceState: Sendable {
        var description: DeviceDescription?
        var isTouchscreen: Bool
        /// Pipeline index per EV_KEY code, made on first use.
        var pipelineByCode: [UInt16: Int] = [:]
        var tracker: TouchTracker?
        var touchFilter: TouchFilter?
        /// The screen as one switch (`touchAsSwitch`): its pipeline and the contacts down now.
        var touchSwitch: Int?
        var contactsDown = 0
    }

    /// - Parameter devices: what each input device is; `handle(frame:device:)` takes indices into
    ///   this list. A device without a description (an events-only recording) counts as a
    ///   touchscreen only if it has one; its keys are switches.
    public init(tree: ElementTree, profile: Profile, devices: [DeviceDescription?]) {
        self.model = ScanModel(tree: tree)
        self.profile = profile
        self.devices = []
        if profile.scans { scanner = Scanner(model: model, settings: profile.scanning) }
        for d in devices { self.devices.append(makeDevice(d)) }
    }

    public init(tree: ElementTree, profile: Profile, devices: [DeviceDescription]) {
        self.init(tree: tree, profile: profile, devices: devices.map { Optional($0) })
    }

    /// - Parameter touchSwitch: the screen-as-a-switch pipeline a replugged device keeps.
    private mutating func makeDevice(_ d: DeviceDescription?, touchSwitch: Int? = nil) -> DeviceState {
        let touch = d?.isTouchscreen ?? false
        var state = DeviceState(description: d, isTouchscreen: touch)
        if touch, let d {
            state.tracker = TouchTracker(device: d, screen: model.screen)
            if let touchSwitch {
                state.touchSwitch = touchSwitch
            } else if let action = profile.touchAccommodations.touchAsSwitch {
                let binding = SwitchBinding(keyName: "touchscreen", code: 0, action: action)
                pipelines.append(PipelineState(pipeline: SwitchPipeline(binding: binding, stabilization: profile.switchStabilization,
                                                                        moveRepeat: profile.scanning.moveRepeat),
                                               device: self.devices.count, target: nil))
                state.touchSwitch = pipelines.count - 1
            } else {
                state.touchFilter = TouchFilter(settings: profile.touchAccommodations)
            }
        }
        return state
    }

    // MARK: Inputs

    /// Starts scanning at `t` (scan started + the first highlight) when the profile scans.
    public mutating func start(at t: Instant) -> [TranscriptLine] {
        now = t
        if scanner != nil { deliverToScanner(.start) }
        return flush()
    }

    /// One frame from `devices[device]` at the frame's time. Timers due at or before it fire first.
    public mutating func handle(frame: InputFrame, device: Int) -> [TranscriptLine] {
        fireTimers(upTo: frame.time)
        now = max(now, frame.time)
        guard devices.indices.contains(device) else { return flush() }
        if devices[device].isTouchscreen {
            handleTouch(frame.events, device: device)
        } else {
            for e in frame.events where e.type == EventCodes.EV_KEY {
                handleKey(code: e.code, value: e.value, device: device)
            }
        }
        return flush()
    }

    /// Fires every timer due at or before `t`.
    public mutating func advance(to t: Instant) -> [TranscriptLine] {
        fireTimers(upTo: t)
        now = max(now, t)
        return flush()
    }

    /// The earliest pending timer (arm the timerfd there); nil when nothing is pending.
    public mutating func nextDeadline() -> Instant? { timers.nextDeadline() }

    /// A device went away at `t`: its switches return to rest without firing and its contacts end
    /// without becoming taps.
    public mutating func deviceRemoved(_ device: Int, at t: Instant) -> [TranscriptLine] {
        fireTimers(upTo: t)
        now = max(now, t)
        guard devices.indices.contains(device) else { return flush() }
        for p in pipelines.indices where pipelines[p].device == device {
            runPipeline(p, .deviceGone)
        }
        devices[device].contactsDown = 0
        if devices[device].tracker != nil { _ = devices[device].tracker!.liftAll() }
        runTouchFilter(device, .deviceGone)
        return flush()
    }

    /// A device came back (same index), possibly with a new description.
    public mutating func deviceAdded(_ device: Int, _ description: DeviceDescription, at t: Instant) -> [TranscriptLine] {
        fireTimers(upTo: t)
        now = max(now, t)
        guard devices.indices.contains(device) else { return flush() }
        let old = devices[device]
        if old.description != description {
            // Keep the device's switch pipelines: they are at rest after deviceRemoved.
            var fresh = makeDevice(description, touchSwitch: old.touchSwitch)
            fresh.pipelineByCode = old.pipelineByCode
            devices[device] = fresh
        }
        return flush()
    }

    /// A new tree (layout change) at `t`.
    public mutating func loadLayout(_ tree: ElementTree, at t: Instant) -> [TranscriptLine] {
        fireTimers(upTo: t)
        now = max(now, t)
        let newModel = ScanModel(tree: tree)
        let screenChanged = newModel.screen != model.screen
        model = newModel
        if screenChanged {
            for d in devices.indices where devices[d].tracker != nil {
                if let desc = devices[d].description { devices[d].tracker = TouchTracker(device: desc, screen: model.screen) }
            }
        }
        if scanner != nil { deliverToScanner(.layout(newModel)) }
        return flush()
    }

    // MARK: Switches

    private mutating func handleKey(code: UInt16, value: Int32, device: Int) {
        let p: Int
        if let existing = devices[device].pipelineByCode[code] {
            p = existing
        } else {
            guard let binding = profile.switches.first(where: { $0.code == code }) else { return }
            pipelines.append(PipelineState(pipeline: SwitchPipeline(binding: binding, stabilization: profile.switchStabilization,
                                                                    moveRepeat: profile.scanning.moveRepeat),
                                           device: device, target: nil))
            p = pipelines.count - 1
            devices[device].pipelineByCode[code] = p
        }
        runPipeline(p, .key(value: value))
    }

    private mutating func runPipeline(_ p: Int, _ event: SwitchPipeline.Event) {
        let outputs = pipelines[p].pipeline.handle(event, at: now)
        for o in outputs {
            switch o {
            case .decision(let d):
                out.append(TranscriptLine(t: now, .filter(d)))
            case .physicalPress:
                pipelines[p].target = scanner?.currentTarget
            case .action(let a):
                guard scanner != nil else { continue }
                let target = profile.switchStabilization.selectTarget == .press ? pipelines[p].target : nil
                deliverToScanner(.action(a, target: target))
            case .setTimer(let id, let at):
                timers.set(.pipeline(p, id), at: at)
            case .cancelTimer(let id):
                timers.cancel(.pipeline(p, id))
            }
        }
    }

    // MARK: Touch

    private mutating func handleTouch(_ events: [InputEvent], device: Int) {
        guard devices[device].tracker != nil else { return }
        let contacts = devices[device].tracker!.handle(frame: events)
        for c in contacts {
            if let p = devices[device].touchSwitch {
                switch c {
                case .down:
                    devices[device].contactsDown += 1
                    if devices[device].contactsDown == 1 { runPipeline(p, .key(value: 1)) }
                case .up:
                    guard devices[device].contactsDown > 0 else { continue }
                    devices[device].contactsDown -= 1
                    if devices[device].contactsDown == 0 { runPipeline(p, .key(value: 0)) }
                case .moved:
                    continue
                }
            } else {
                runTouchFilter(device, .contact(c))
            }
        }
    }

    private mutating func runTouchFilter(_ device: Int, _ event: TouchFilter.Event) {
        guard devices[device].touchFilter != nil else { return }
        let outputs = devices[device].touchFilter!.handle(event, at: now)
        for o in outputs {
            switch o {
            case .tap(let contact, let point):
                let hit = model.hitTest(point).map { model.items[$0] }
                out.append(TranscriptLine(t: now, .touch(TouchDecision(contact: contact, .tap(point: point, id: hit?.id)))))
                if let hit {
                    out.append(TranscriptLine(t: now, .perform(Perform(.activate, id: hit.id, point: point, source: .touch))))
                }
            case .swipe(let contact, let from, let to, let direction):
                out.append(TranscriptLine(t: now, .touch(TouchDecision(contact: contact, .swipe(from: from, to: to, direction: direction)))))
            case .hold(let contact, let point):
                out.append(TranscriptLine(t: now, .touch(TouchDecision(contact: contact, .hold(point: point)))))
            case .rejected(let contact, let reason, let point):
                out.append(TranscriptLine(t: now, .touch(TouchDecision(contact: contact, .rejected(reason, point: point)))))
            case .setTimer(let id, let at):
                timers.set(.touch(device: device, id), at: at)
            case .cancelTimer(let id):
                timers.cancel(.touch(device: device, id))
            }
        }
    }

    // MARK: Scanner and timers

    private mutating func deliverToScanner(_ event: Scanner.Event) {
        guard scanner != nil else { return }
        let outputs = scanner!.handle(event, at: now)
        for o in outputs {
            switch o {
            case .emit(let e): out.append(TranscriptLine(t: now, e))
            case .setTimer(let id, let at): timers.set(.scanner(id), at: at)
            case .cancelTimer(let id): timers.cancel(.scanner(id))
            }
        }
    }

    private mutating func fireTimers(upTo t: Instant) {
        while let (key, deadline) = timers.popDue(atOrBefore: t) {
            now = max(now, deadline)
            switch key {
            case .scanner(let id): deliverToScanner(.timer(id))
            case .pipeline(let p, let id): runPipeline(p, .timer(id))
            case .touch(let d, let id): runTouchFilter(d, .timer(id))
            }
        }
    }

    private mutating func flush() -> [TranscriptLine] {
        if out.isEmpty { return [] }
        defer { out.removeAll(keepingCapacity: true) }
        return out
    }
}
