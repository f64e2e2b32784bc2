import Glibc
import SwitchCore

/// The live engine's I/O shell: one epoll wait over the devices, a timerfd armed at the engine's next
/// deadline and a self-pipe for SIGINT/SIGTERM/SIGHUP. It drives `Engine` the way `Simulation`
/// does (frames in time order, timers due at or before a frame's time fire first, then the clock
/// advances to now), and decides nothing itself.
///
/// Time: t = 0 is when the engine starts. A device's frames are timed by its CLOCK_MONOTONIC
/// stamps when `libevdev_set_clock_id` worked, else when read (`EventStamper`); times never go
/// backwards (a frame stamped before something already delivered is delivered at that time).
///
/// Devices that vanish (`-ENODEV`, EPOLLHUP/EPOLLERR) are reported (`device removed` line, then
/// `engine.deviceRemoved`), closed, and looked for every 0.5 s: the same node, or any node with
/// the same name and ids (USB replugs may renumber); found again → `device added`,
/// `engine.deviceAdded`, re-grabbed.
///
/// Adapters (`LoopAdapter`: a live tree source, performers, presenters) join the same wait; the
/// lines the engine writes reach them through `publish`, and what they return reaches the engine
/// at the instant of the wakeup.
///
/// The safety exit: keyboards are also read (never grabbed) for the pause chord; while the engine
/// is paused every grab is released (`DeviceSlot.applyGrab`), and taken again at the resume.
/// Faults (README "Faults in the live loop"): a node gone between enumeration and open is looked
/// for like a removed device; SIGHUP storms reload at most every 0.1 s; a reopen that fails for
/// another reason than the device's absence is reported once.
public final class LiveRunner {
    public struct Hooks {
        /// Every transcript line, as produced.
        public var emit: (TranscriptLine) -> Void
        /// Called after each frame's lines, before the loop sleeps and when it ends: the lines
        /// emitted since the last call must be out by then (one write for a frame's or a timer's
        /// lines instead of one per line).
        public var flush: (() -> Void)?
        /// Notes for stderr (picked devices, clock, removal, reload errors).
        public var log: (String) -> Void
        /// With `--show-frames`: every frame delivered to the engine, as a line for stderr.
        public var showFrame: ((String) -> Void)?
        /// SIGHUP: the tree again (errors are logged, the old tree stays).
        public var reloadTree: (() throws(InputError) -> ElementTree)?
        /// Every frame delivered to the engine, with its device's node, just before the engine
        /// gets it (`debug-events`).
        public var frame: ((_ node: String, _ frame: InputFrame) -> Void)?

        public init(emit: @escaping (TranscriptLine) -> Void, flush: (() -> Void)? = nil, log: @escaping (String) -> Void,
                    showFrame: ((String) -> Void)? = nil, reloadTree: (() throws(InputError) -> ElementTree)? = nil,
                    frame: ((_ node: String, _ frame: InputFrame) -> Void)? = nil) {
            self.emit = emit
            self.flush = flush
            self.log = log
            self.showFrame = showFrame
            self.reloadTree = reloadTree
            self.frame = frame
        }
    }

    public enum Ending: Equatable, Sendable {
        case until
        case signal(Int32)
    }

    /// How often a vanished device is looked for.
    public static let reopenInterval = Interval.milliseconds(500)
    /// SIGHUPs closer together than this are one reload (a storm must not reparse the tree 1000
    /// times a second).
    public static let reloadInterval = Interval.milliseconds(100)

    private let slots: [DeviceSlot]
    /// The engine is paused (safety exit): no grabs.
    private var paused = false
    private let hooks: Hooks
    private let adapters: LoopAdapters
    /// The running loop's wait set (devices reopened during `run` join it).
    private var epoll: Epoll?

    /// Opens the selected devices (asks for CLOCK_MONOTONIC stamps, grabs those marked), then
    /// the keyboards to watch for the pause chord (`chordWatch`; one that cannot be opened is
    /// only a note). Throws the first device that cannot be opened or grabbed; the ones opened are
    /// released. A device whose node vanished since it was enumerated is looked for from the
    /// start, like one removed while running.
    public init(devices: [(SelectedDevice, grab: Bool)], chordWatch: [SelectedDevice] = [], adapters: [LoopAdapter] = [],
                hooks: Hooks) throws(DeviceError) {
        self.hooks = hooks
        self.adapters = LoopAdapters(adapters, log: hooks.log)
        var slots: [DeviceSlot] = []
        for (selected, grab) in devices {
            let device: EvdevDevice
            do {
                device = try EvdevDevice(node: selected.node)
            } catch where error.errno == ENOENT || error.errno == ENODEV {
                hooks.log("\(selected.node): gone before it could be opened; looking for it every \(LiveRunner.reopenInterval.seconds) s")
                slots.append(DeviceSlot(node: selected.node, identity: selected.description, role: .input, wantsGrab: grab, device: nil))
                continue
            }
            LiveRunner.prepare(device, log: hooks.log)
            if grab { try device.grab() }
            slots.append(DeviceSlot(node: selected.node, identity: device.description, role: .input, wantsGrab: grab, device: device))
        }
        for selected in chordWatch {
            do {
                let device = try EvdevDevice(node: selected.node)
                LiveRunner.prepare(device, log: { _ in })
                slots.append(DeviceSlot(node: selected.node, identity: device.description, role: .chordOnly, wantsGrab: false, device: device))
            } catch {
                hooks.log("not watching \(selected.node) \"\(selected.description.name)\" for the pause chord: \(error.reason)")
            }
        }
        self.slots = slots
    }

    /// Engine device indices of the keyboards read only for the pause chord.
    public var chordOnlyDevices: Set<Int> { Set(slots.indices.filter { slots[$0].role == .chordOnly }) }

    /// The keyboards watched for the pause chord (node and name), for the note on stderr.
    public var chordWatchNames: [String] { slots.filter { $0.role == .chordOnly }.map { "\($0.node) \"\($0.identity.name)\"" } }

    deinit { releaseGrabs() }

    /// The descriptions, in engine device order (index k is `devices[k]`).
    public var descriptions: [DeviceDescription] { slots.map(\.identity) }

    public func releaseGrabs() {
        for s in slots { s.device?.ungrab() }
    }

    /// The safety exit paused or resumed the engine: release or take the grabs.
    private func setPaused(_ now: Bool) {
        guard now != paused else { return }
        paused = now
        for s in slots { s.applyGrab(paused: paused, log: hooks.log) }
        if slots.contains(where: \.wantsGrab) {
            hooks.log(paused ? "paused: every grab released" : "resumed: grabs taken again")
        }
    }

    private static func prepare(_ device: EvdevDevice, log: (String) -> Void) {
        if let note = device.useMonotonicClock(fallback: "its events are timed when read") { log(note) }
    }

    /// Runs until `until` (seconds of engine time) or SIGINT/SIGTERM. Grabs are released on
    /// every way out (also by `deinit`, and by the kernel when the fds close).
    ///
    /// One wakeup: read every ready device to `-EAGAIN` (frames in time order across devices),
    /// hand the frames to the engine, report removals, take signals, and when a timer is due,
    /// read the devices once more and let the engine's clock reach now. The loop allocates almost nothing per wakeup and makes no syscall it can skip:
    /// the fds are registered once (epoll), and the timerfd is re-armed only when the deadline moves.
    public func run(_ engine: inout Engine, until: Instant?) throws(DeviceError) -> Ending {
        defer {
            hooks.flush?()
            releaseGrabs()
            adapters.finish(self.epoll)
        }
        let signals = try SignalPipe([SIGINT, SIGTERM, SIGHUP])
        let timer = try TimerFD()
        let watch = NodeWatch(directoriesOf: slots.map(\.node))
        let epoll = try Epoll()
        try epoll.add(signals.readEnd, .signals)
        try epoll.add(timer.fileDescriptor, .timer)
        if let watch { try epoll.add(watch.fileDescriptor, .nodeWatch) }
        for (index, slot) in slots.enumerated() {
            if let device = slot.device { try epoll.add(device.fileDescriptor, .device(index)) }
        }
        self.epoll = epoll
        defer { self.epoll = nil }

        let stamper = EventStamper(engineStart: MonotonicClock.nowMicroseconds())
        adapters.engineStarted(atMonotonic: stamper.engineStart)
        var last = Instant.zero
        var nextReopen: Instant?
        /// A SIGHUP's reload waits until `reloadInterval` after the previous one.
        var reloadAt: Instant?
        var lastReload: Instant?
        /// The absolute time the timerfd is armed at: 0 disarmed, -1 unknown (it just fired).
        var armedAt: Int64 = 0
        var frames: [(device: Int, frame: InputFrame, resync: Bool)] = []
        var removed: [Int] = []
        frames.reserveCapacity(16)

        func emit(_ lines: [TranscriptLine]) { publish(lines, &engine) }

        emit(engine.start(at: .zero))
        for (index, slot) in slots.enumerated() where slot.device == nil {
            emit([TranscriptLine(t: .zero, .device(DeviceChange(.removed, name: slot.identity.name, node: slot.node)))])
            emit(engine.deviceRemoved(index, at: .zero))
            nextReopen = .zero
        }
        hooks.log("running; Ctrl-C to stop")

        while true {
            var deadline = engine.nextDeadline()
            if let until { deadline = min(deadline ?? until, until) }
            if let nextReopen { deadline = min(deadline ?? nextReopen, nextReopen) }
            if let reloadAt { deadline = min(deadline ?? reloadAt, reloadAt) }
            if let d = adapters.prepare(epoll, nowMonotonic: MonotonicClock.nowMicroseconds()) {
                let at = Instant(microseconds: max(0, d - stamper.engineStart))
                deadline = min(deadline ?? at, at)
            }
            let wanted = deadline.map(stamper.monotonic) ?? 0
            if wanted != armedAt {
                timer.arm(at: wanted == 0 ? nil : wanted)
                armedAt = wanted
            }

            var signalled = false, timerFired = false, nodesChanged = false, reachedUntil = false
            if !removed.isEmpty { removed.removeAll(keepingCapacity: true) }
            var readTime: Int64 = 0
            hooks.flush?()

            /// A frame to the engine, never before what it already has, none past `until`.
            func deliver(_ index: Int, _ frame: InputFrame, resync: Bool) {
                guard !reachedUntil else { return }
                var frame = frame
                frame.time = max(frame.time, last)
                if let until, frame.time > until { reachedUntil = true; return }
                last = frame.time
                if resync { hooks.log("\(slots[index].node): events were lost (SYN_DROPPED); resynced to the device's state") }
                if slots[index].role == .input {
                    hooks.showFrame?("frame \(microsecondString(frame.time)) \(slots[index].node) " + frame.events.map(\.description).joined(separator: ", "))
                    hooks.frame?(slots[index].node, frame)
                }
                emit(engine.handle(frame: frame, device: index))
                // Out before anything else (the read that finds the device drained, the clock's
                // advance): the line's latency is what a user waits for.
                hooks.flush?()
            }
            /// Handles what `epoll.wait` reported: notes signals, timer and node changes, reads
            /// every ready device to `-EAGAIN`. One device ready (the usual case): its frames are
            /// in time order, straight to the engine. Several: collected, then merged by time.
            func take(_ readyCount: Int) {
                var readyDevices = 0
                for k in 0..<readyCount { if case .device = epoll.ready(k).token { readyDevices += 1 } }
                for k in 0..<readyCount {
                    let ready = epoll.ready(k)
                    switch ready.token {
                    case .signals: signalled = true
                    case .timer: timerFired = true
                    case .nodeWatch: nodesChanged = true
                    case .adapter(let k): adapters.noteReady(k, events: ready.events)
                    case .device(let index):
                        guard slots.indices.contains(index), let device = slots[index].device, !removed.contains(index) else { continue }
                        if readTime == 0 { readTime = MonotonicClock.nowMicroseconds() }
                        var gone = ready.hangup
                        if ready.readable {
                            read(device, slot: slots[index], stamper: stamper, readTime: readTime) { out in
                                switch out {
                                case .frame(let f) where readyDevices == 1: deliver(index, f, resync: false)
                                case .resync(let f) where readyDevices == 1: deliver(index, f, resync: true)
                                case .frame(let f): frames.append((index, f, false))
                                case .resync(let f): frames.append((index, f, true))
                                case .removed: gone = true
                                }
                            }
                        }
                        if gone { removed.append(index) }
                    }
                }
                if !frames.isEmpty {
                    frames = frames.enumerated().sorted { a, b in
                        a.element.frame.time != b.element.frame.time ? a.element.frame.time < b.element.frame.time : a.offset < b.offset
                    }.map(\.element)
                    for (index, frame, resync) in frames { deliver(index, frame, resync: resync) }
                    frames.removeAll(keepingCapacity: true)
                }
            }

            take(try epoll.wait())
            var t = max(last, Instant(microseconds: max(0, MonotonicClock.nowMicroseconds() - stamper.engineStart)))
            // The engine's clock moves to `t` only when something happens then (a timer due, a
            // signal, a removal, a retry). Before it does, whatever reached the devices until `t`
            // is read (a wait that does not sleep): the wakeup may have been late, and a press
            // stamped before `t` but read after the clock passed it would come after a timer it
            // preceded (the simulator's rule: timers due at or before an input fire first).
            let timerDue = engine.nextDeadline().map { $0 <= t } ?? false
            let reopenDue = nextReopen.map { t >= $0 } ?? false
            let untilDue = until.map { t >= $0 } ?? false
            let reloadDue = reloadAt.map { t >= $0 } ?? false
            let adaptersDue = adapters.isDue(nowMonotonic: stamper.monotonic(t))
            if timerDue || reopenDue || untilDue || reloadDue || signalled || nodesChanged || adaptersDue || !removed.isEmpty {
                readTime = 0
                take(try epoll.wait(timeoutMilliseconds: 0))
                t = max(t, last)
            }
            // A node file that went away is a removed device even when its fd says nothing.
            if nodesChanged, let watch {
                let changes = watch.take()
                if changes.deleted {
                    for (index, slot) in slots.enumerated() where slot.device != nil && !removed.contains(index) && !nodeExists(slot.node) {
                        removed.append(index)
                    }
                }
                if changes.created, slots.contains(where: { $0.device == nil }) { nextReopen = Instant.zero }
            }
            if let until, t >= until { reachedUntil = true }
            for index in removed where !reachedUntil {
                let slot = slots[index]
                hooks.log("\(slot.node): device removed; looking for it every \(LiveRunner.reopenInterval.seconds) s")
                if let device = slot.device { epoll.remove(device.fileDescriptor) }
                slot.close()
                emit([TranscriptLine(t: t, .device(DeviceChange(.removed, name: slot.identity.name, node: slot.node)))])
                emit(engine.deviceRemoved(index, at: t))
                last = t
                nextReopen = min(nextReopen ?? (t + LiveRunner.reopenInterval), t + LiveRunner.reopenInterval)
            }

            // Signals.
            var ending: Ending?
            if signalled {
                for sig in signals.take() {
                    if sig == SIGHUP {
                        reloadAt = reloadAt ?? lastReload.map { max(t, $0 + LiveRunner.reloadInterval) } ?? t
                    } else if ending == nil {
                        ending = .signal(sig)
                    }
                }
            }
            if let at = reloadAt, t >= at, ending == nil {
                reload(&engine, at: t)
                last = t
                reloadAt = nil
                lastReload = t
            }
            if timerFired {
                timer.acknowledge()
                armedAt = -1
            }

            if reachedUntil, let until {
                emit(engine.advance(to: max(until, last)))
                return .until
            }
            if let reopenAt = nextReopen, t >= reopenAt {
                reopen(&engine, at: t)
                last = t
                nextReopen = slots.contains { $0.device == nil } ? t + LiveRunner.reopenInterval : nil
            }
            if adaptersDue {
                apply(adapters.dispatch(nowMonotonic: stamper.monotonic(t)), &engine, at: t)
                last = t
            }
            if timerDue || ending != nil {
                emit(engine.advance(to: t))
                last = t
            }
            if let ending { return ending }
        }
    }

    /// The engine's lines to the transcript, then to every adapter (with the model they refer
    /// to); what the adapters answer is applied at the lines' instant: lines and notes at once
    /// (a perform's result follows the perform), a new tree after the rest of the batch (the
    /// engine's lines of that instant refer to the tree they were made with: a perform that closed
    /// a window is followed by the resumed highlight, then the layout change).
    private func publish(_ lines: [TranscriptLine], _ engine: inout Engine) {
        var layouts: [(ShellInput, Instant)] = []
        for line in lines {
            hooks.emit(line)
            if case .pause(let change) = line.event { setPaused(change.state == .paused) }
            guard !adapters.isEmpty else { continue }
            for input in adapters.observe(line, model: engine.model) {
                if case .layout = input { layouts.append((input, line.t)) } else { apply([input], &engine, at: line.t) }
            }
        }
        for (input, t) in layouts { apply([input], &engine, at: t) }
    }

    /// Adapters' inputs at `t`: a new tree is a layout change, a line goes to the transcript
    /// (not back to the adapters), a note to stderr.
    private func apply(_ inputs: [ShellInput], _ engine: inout Engine, at t: Instant) {
        for input in inputs {
            switch input {
            case .layout(let tree): loadLayout(tree, &engine, at: t)
            case .line(let event): hooks.emit(TranscriptLine(t: t, event))
            case .log(let note): hooks.log(note)
            case .speechFinished(let n): publish(engine.speechFinished(utterance: n, at: t), &engine)
            }
        }
    }

    /// A layout change: the engine's lines (with the new model), after the adapters learn of it.
    private func loadLayout(_ tree: ElementTree, _ engine: inout Engine, at t: Instant) {
        let lines = engine.loadLayout(tree, at: t)
        adapters.layoutChanged(model: engine.model)
        publish(lines, &engine)
    }

    /// Reads `device` to `-EAGAIN` through its slot's frame assembler.
    private func read(_ device: EvdevDevice, slot: DeviceSlot, stamper: EventStamper, readTime: Int64,
                      _ body: (FrameAssembler.Output) -> Void) {
        let mono = device.monotonicTimestamps
        // Moved out of the slot for the drain: one access to the class's property instead of one
        // per event (each is a dynamic exclusivity check), and its arrays stay uniquely referenced.
        var assembler = slot.assembler
        slot.assembler = FrameAssembler()
        defer { slot.assembler = assembler }
        device.drain { read in
            let event: FrameAssembler.Event
            switch read {
            case .event(let e, let k):
                event = .event(e, at: stamper.instant(kernelMicroseconds: k, readMicroseconds: readTime, monotonicTimestamps: mono))
            case .dropped(let k):
                event = .dropped(at: stamper.instant(kernelMicroseconds: k, readMicroseconds: readTime, monotonicTimestamps: mono))
            case .syncEvent(let e, let k):
                event = .syncEvent(e, at: stamper.instant(kernelMicroseconds: k, readMicroseconds: readTime, monotonicTimestamps: mono))
            case .syncDone: event = .syncDone
            case .drained: event = .drained
            case .gone: event = .gone
            }
            for out in assembler.handle(event, at: .zero) { body(out) }
        }
    }

    private func reload(_ engine: inout Engine, at t: Instant) {
        guard let reloadTree = hooks.reloadTree else { return }
        do {
            let tree = try reloadTree()
            loadLayout(tree, &engine, at: t)
            hooks.log("SIGHUP: tree reloaded")
        } catch {
            hooks.log("SIGHUP: keeping the current tree: \(error)")
        }
    }

    /// Looks for every vanished device: its old node first, then any node with the same name
    /// and ids that no slot has open.
    private func reopen(_ engine: inout Engine, at t: Instant) {
        guard slots.contains(where: { $0.device == nil }) else { return }
        let nodes = DeviceEnumeration.nodes()
        for (index, slot) in slots.enumerated() where slot.device == nil {
            let open = Set(slots.compactMap { $0.device?.node })
            var candidates = [slot.node]
            candidates += nodes.filter { $0 != slot.node && !open.contains($0) }
            var failure: String?
            for node in candidates {
                let device: EvdevDevice
                do {
                    device = try EvdevDevice(node: node)
                } catch {
                    // Absent, or another device we may not read: the usual case while it is away.
                    // Anything else (no file descriptors left) is said once, until it changes.
                    if node == slot.node && ![ENOENT, ENODEV, ENXIO].contains(error.errno) { failure = error.description }
                    continue
                }
                guard slot.isSameDevice(device.description) else { continue }
                failure = nil
                LiveRunner.prepare(device, log: hooks.log)
                slot.device = device
                slot.applyGrab(paused: paused, log: hooks.log)
                hooks.log("\(node): device is back" + (node == slot.node ? "" : " (was \(slot.node))"))
                if let epoll {
                    do { try epoll.add(device.fileDescriptor, .device(index)) } catch {
                        hooks.log("\(node): cannot watch it: \(error)")
                        slot.close()
                        continue
                    }
                }
                slot.node = node
                slot.assembler = FrameAssembler()
                slot.reopenFailure = nil
                hooks.emit(TranscriptLine(t: t, .device(DeviceChange(.added, name: device.description.name, node: node))))
                publish(engine.deviceAdded(index, device.description, at: t), &engine)
                break
            }
            if slot.device == nil, failure != slot.reopenFailure {
                if let failure { hooks.log("cannot reopen: \(failure); trying again every \(LiveRunner.reopenInterval.seconds) s") }
                slot.reopenFailure = failure
            }
        }
    }
}

/// `2.000345`: a frame's time to the microsecond (`--show-frames`; the transcript rounds to the ms,
/// and a test that lines a recording up with a run needs the exact time).
func microsecondString(_ t: Instant) -> String {
    let us = max(t.microseconds, 0)
    let frac = String(us % 1_000_000)
    return "\(us / 1_000_000)." + String(repeating: "0", count: 6 - frac.count) + frac
}
