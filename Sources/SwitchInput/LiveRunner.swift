import Glibc
import SwitchCore

/// The live engine's I/O shell: one epoll wait over the devices, a timerfd armed at the engine's next
/// deadline and a self-pipe for SIGINT/SIGTERM/SIGHUP. It drives `Engine` the way `Simulation`
/// does (frames in time order, timers due at or before a frame's time fire first, then the clock
/// advances to now), and decides nothing itself.
///
/// Time: t = 0 is when the engine starts. A device's frames are timed by its CLOCK_MONOTONIC
/// stamps when `libevdev_set_clock_id` worked, else by their wall-clock stamps' age at the read
/// (`EventStamper`); times never go
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
/// Faults (docs/live.md "Faults in the live loop"): a node gone between enumeration and open is looked
/// for like a removed device; SIGHUP storms reload at most every 0.1 s; a reopen that fails for
/// another reason than the device's absence is reported once.
public final class LiveRunner {
    /// How often a vanished device is looked for.
    public static let reopenInterval = Interval.milliseconds(500)
    /// SIGHUPs closer together than this are one reload (a storm must not reparse the tree 1000
    /// times a second).
    public static let reloadInterval = Interval.milliseconds(100)

    let slots: [DeviceSlot]
    /// The engine is paused (safety exit): no grabs.
    var paused = false
    let hooks: Hooks
    let adapters: LoopAdapters
    /// The running loop's wait set (devices reopened during `run` join it).
    var epoll: Epoll?
    /// An adapter asked the loop to end (`ShellInput.end`).
    var endRequested = false
    /// An adapter's `ShellInput.fatal`: the loop ends at the end of this wakeup.
    var fatal: String?

    /// Opens the selected devices (asks for CLOCK_MONOTONIC stamps, grabs those marked), then
    /// the keyboards to watch for the pause chord (`chordWatch`; one that cannot be opened is
    /// only a note). Throws the first device that cannot be opened or grabbed; the ones opened are
    /// released. A device whose node vanished since it was enumerated is looked for from the
    /// start, like one removed while running.
    ///
    /// `mirrorTouchscreens` (touch passthrough): every touchscreen among `devices` is grabbed
    /// and mirrored by a virtual touchscreen (`VirtualTouchscreen`) while it is grabbed; the
    /// engine's touch output is written there.
    public init(devices: [(SelectedDevice, grab: Bool)], chordWatch: [SelectedDevice] = [], adapters: [LoopAdapter] = [],
                hooks: Hooks, mirrorTouchscreens: Bool = false) throws(DeviceError) {
        self.hooks = hooks
        self.adapters = LoopAdapters(adapters, log: hooks.log)
        var slots: [DeviceSlot] = []
        for (selected, grab) in devices {
            let device: EvdevDevice
            let mirrors = mirrorTouchscreens && selected.description.isTouchscreen
            do {
                device = try EvdevDevice(node: selected.node)
            } catch where error.errno == ENOENT || error.errno == ENODEV {
                hooks.log("\(selected.node): gone before it could be opened; looking for it every \(LiveRunner.reopenInterval.seconds) s")
                slots.append(DeviceSlot(node: selected.node, identity: selected.description, role: .input, wantsGrab: grab || mirrors,
                                        mirrorsTouch: mirrors, device: nil))
                continue
            }
            LiveRunner.prepare(device, log: hooks.log)
            if grab || mirrors { try device.grab() }
            let slot = DeviceSlot(node: selected.node, identity: device.description, role: .input, wantsGrab: grab || mirrors,
                                  mirrorsTouch: mirrors, device: device)
            slot.openMirror(log: hooks.log)
            slots.append(slot)
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

    deinit { releaseGrabs() }

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
            LoopStamps.report()
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
        let mirrored = slots.indices.filter { slots[$0].mirrorsTouch }

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
            // Touch passthrough's fast path for the frames of this wait (`LiveTouchRoute`).
            for index in mirrored { slots[index].route = slots[index].mirror == nil ? nil : engine.liveTouchRoute(device: index, notBefore: last, until: until) }
            let wanted = deadline.map(stamper.monotonic) ?? 0
            if wanted != armedAt {
                timer.arm(at: wanted == 0 ? nil : wanted)
                armedAt = wanted
            }

            var signalled = false, timerFired = false, nodesChanged = false, reachedUntil = false
            if !removed.isEmpty { removed.removeAll(keepingCapacity: true) }
            var readTime: Int64 = 0, wallTime: Int64 = 0
            hooks.flush?()

            /// A frame to the engine, never before what it already has, none past `until`.
            func deliver(_ index: Int, _ frame: InputFrame, resync: Bool) {
                guard !reachedUntil else { return }
                LoopStamps.mark(.frameAssembled)
                var frame = frame
                frame.time = max(frame.time, last)
                if let until, frame.time > until { reachedUntil = true; return }
                last = frame.time
                if resync { hooks.log("\(slots[index].node): events were lost (SYN_DROPPED); resynced to the device's state") }
                if slots[index].role == .input {
                    hooks.showFrame?("frame \(microsecondString(frame.time)) \(slots[index].node) " + frame.events.map(\.description).joined(separator: ", "))
                    hooks.frame?(slots[index].node, frame)
                }
                let lines = engine.handle(frame: frame, device: index)
                LoopStamps.mark(.engineDone)
                emit(lines)
                // Out before anything else (the read that finds the device drained, the clock's
                // advance): the line's latency is what a user waits for.
                hooks.flush?()
            }
            /// Handles what `epoll.wait` reported: notes signals, timer and node changes, reads
            /// every ready device to `-EAGAIN`. One device ready (the usual case): its frames are
            /// in time order, straight to the engine. Several: collected, then merged by time.
            func take(_ readyCount: Int) {
                // One fd ready (a touch frame, as a rule): counted as one device without a look.
                var readyDevices = readyCount == 1 ? 1 : 0
                if readyCount > 1 { for k in 0..<readyCount { if case .device = epoll.ready(k).token { readyDevices += 1 } } }
                for k in 0..<readyCount {
                    let ready = epoll.ready(k)
                    switch ready.token {
                    case .signals: signalled = true
                    case .timer: timerFired = true
                    case .nodeWatch: nodesChanged = true
                    case .adapter(let k): adapters.noteReady(k, events: ready.events)
                    case .device(let index):
                        guard slots.indices.contains(index), let device = slots[index].device, !removed.contains(index) else { continue }
                        // A device with CLOCK_MONOTONIC stamps needs no read time (two clock reads
                        // fewer before a touch frame is passed on).
                        if readTime == 0 && !device.monotonicTimestamps {
                            readTime = MonotonicClock.nowMicroseconds()
                            wallTime = MonotonicClock.realtimeMicroseconds()
                        }
                        var gone = ready.hangup
                        if ready.readable {
                            LoopStamps.mark(.readStart)
                            read(device, slot: slots[index], stamper: stamper, readTime: readTime, wallTime: wallTime, fast: readyDevices == 1) { out in
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

            LoopStamps.mark(.beforeWait)
            let readyCount = try epoll.wait()
            LoopStamps.mark(.woke)
            take(readyCount)
            LoopStamps.mark(.drained)
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
                slot.closeMirror(log: hooks.log)
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
            LoopStamps.mark(.iterationEnd)
            if let fatal { return .failed(fatal) }
            if let ending { return ending }
            if endRequested { return .requested }
        }
    }

}
