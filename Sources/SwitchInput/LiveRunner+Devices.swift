import Glibc
import SwitchCore

/// The live loop's devices: the pause chord's keyboards, grabs released and taken again by the
/// safety exit, a ready device read to `-EAGAIN`, vanished devices looked for again.
extension LiveRunner {
    /// Engine device indices of the keyboards read only for the pause chord.
    public var chordOnlyDevices: Set<Int> { Set(slots.indices.filter { slots[$0].role == .chordOnly }) }

    /// The keyboards watched for the pause chord (node and name), for the note on stderr.
    public var chordWatchNames: [String] { slots.filter { $0.role == .chordOnly }.map { "\($0.node) \"\($0.identity.name)\"" } }

    /// The descriptions, in engine device order (index k is `devices[k]`).
    public var descriptions: [DeviceDescription] { slots.map(\.identity) }

    /// Every grab released and every virtual touchscreen removed (its fingers lifted first).
    public func releaseGrabs() {
        for s in slots {
            s.closeMirror(log: hooks.log)
            s.device?.ungrab()
        }
    }

    /// The devices whose grab is held now (their nodes): none once the loop has ended.
    public var grabbedNodes: [String] { slots.compactMap { $0.device?.isGrabbed == true ? $0.node : nil } }

    /// The safety exit paused or resumed the engine: release or take the grabs.
    func setPaused(_ now: Bool) {
        guard now != paused else { return }
        paused = now
        for s in slots { s.applyGrab(paused: paused, log: hooks.log) }
        if slots.contains(where: \.wantsGrab) {
            hooks.log(paused ? "paused: every grab released" : "resumed: grabs taken again")
        }
    }

    static func prepare(_ device: EvdevDevice, log: (String) -> Void) {
        if let note = device.useMonotonicClock(fallback: "its events are timed by their wall-clock stamps (by the read when those cannot be trusted)") { log(note) }
    }

    /// Reads `device` to `-EAGAIN` through its slot's frame assembler. With `fast` and a route
    /// (touch passthrough, a gesture passing live), each frame is read whole first, before
    /// anything else is touched, and written to the virtual touchscreen at once when it only moves
    /// live contacts (`LiveTouchRoute`); then it goes the usual way to the engine. The first frame
    /// that does not ends the route.
    func read(_ device: EvdevDevice, slot: DeviceSlot, stamper: EventStamper, readTime: Int64, wallTime: Int64, fast: Bool,
              _ body: (FrameAssembler.Output) -> Void) {
        let mono = device.monotonicTimestamps
        var wall: Int64? = mono ? nil : wallTime
        var readTime = readTime
        func instant(_ k: Int64) -> Instant {
            // A wall-clock stamp later than the clocks read at the wakeup: the event came while
            // this process was descheduled between that and the read. Its age is taken from the
            // clocks read again now (it is here, so now is after it), not lost to the read time:
            // on a loaded machine that made a tap look 20 ms after the one before, and debounce
            // dropped it.
            if let w = wall, k > w, k - w <= EventStamper.realtimeTrust {
                readTime = MonotonicClock.nowMicroseconds()
                wall = MonotonicClock.realtimeMicroseconds()
            }
            return stamper.instant(kernelMicroseconds: k, readMicroseconds: readTime, monotonicTimestamps: mono, realtimeReadMicroseconds: wall)
        }
        var pending: DeviceRead?
        if fast, slot.route != nil, let mirror = slot.mirror {
            while true {
                pending = device.readFrame(into: &slot.liveFrame, stamps: &slot.liveStamps)
                if let end = pending {
                    // Drained mid-frame: the part read stays held for the next read (the
                    // assembler would keep it too). Anything else ends the route.
                    if case .drained = end { return }
                    slot.route = nil
                    break
                }
                LoopStamps.mark(.frameRead)
                let forwarded = forwardLive(slot.liveFrame, slot: slot, mirror: mirror, at: instant(slot.liveStamps[slot.liveStamps.count - 1]))
                if !forwarded { break }
                assemble(slot, device, instant, body, then: .nothing)
            }
        }
        assemble(slot, device, instant, body, then: pending.map { .ended($0) } ?? .drain)
    }

    /// What `assemble` reads after the held events.
    private enum AfterHeld {
        case nothing
        /// The device, to `-EAGAIN`.
        case drain
        /// The read that ended the live route, and what follows it (libevdev's delta after a drop).
        case ended(DeviceRead)
    }

    /// The held events first (a frame the live route read), then what `then` says, through the
    /// slot's frame assembler, its frames to `body`.
    private func assemble(_ slot: DeviceSlot, _ device: EvdevDevice, _ instant: (Int64) -> Instant, _ body: (FrameAssembler.Output) -> Void,
                          then: AfterHeld) {
        // Moved out of the slot for the drain: one access to the class's property instead of one
        // per event, and its arrays stay uniquely referenced.
        var assembler = slot.assembler
        slot.assembler = FrameAssembler()
        defer { slot.assembler = assembler }
        if !slot.liveFrame.isEmpty {
            for k in slot.liveFrame.indices { assembler.handle(.event(slot.liveFrame[k], at: instant(slot.liveStamps[k])), emit: body) }
            slot.liveFrame.removeAll(keepingCapacity: true)
            slot.liveStamps.removeAll(keepingCapacity: true)
        }
        func handle(_ read: DeviceRead) {
            let event: FrameAssembler.Event
            switch read {
            case .event(let e, let k): event = .event(e, at: instant(k))
            case .dropped(let k): event = .dropped(at: instant(k))
            case .syncEvent(let e, let k): event = .syncEvent(e, at: instant(k))
            case .syncDone: event = .syncDone
            case .drained: event = .drained
            case .gone: event = .gone
            }
            assembler.handle(event, emit: body)
        }
        switch then {
        case .nothing: break
        case .drain: device.drain(handle)
        case .ended(let read):
            handle(read)
            if case .dropped = read { device.drain(syncing: true, handle) }
        }
    }

    /// One frame the route read, stamped `t`, written to the virtual touchscreen when the route
    /// admits it; false (and the route is gone) when it does not.
    private func forwardLive(_ frame: [InputEvent], slot: DeviceSlot, mirror: VirtualTouchscreen, at t: Instant) -> Bool {
        guard let at = slot.route!.admits(frameAt: t) else {
            slot.route = nil
            return false
        }
        LoopStamps.mark(.admitted)
        switch mirror.forwardLive(frame, route: &slot.route!) {
        case .forwarded:
            slot.route!.notBefore = at
            return true
        case .notLive:
            slot.route = nil
            return false
        case .failed(let why):
            if !slot.mirrorWriteFailed {
                slot.mirrorWriteFailed = true
                hooks.log("\(slot.node): \(why)")
            }
            slot.route!.notBefore = at
            return true
        }
    }

    /// Looks for every vanished device: its old node first, then any node with the same name
    /// and ids that no slot has open.
    func reopen(_ engine: inout Engine, at t: Instant) {
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
