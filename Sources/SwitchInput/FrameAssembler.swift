import SwitchCore

/// Turns libevdev's read results into the engine's unit, the frame (events up to `SYN_REPORT`),
/// the way libinput's `evdev_device_dispatch` does, including the resync after `SYN_DROPPED`.
///
/// ```
///  normal reads      KEY_SPACE 1 ─ SYN_REPORT            → frame [KEY_SPACE 1] at the SYN_REPORT's time
///  split over reads  ABS_X ─ (EAGAIN) ─ ABS_Y ─ SYN_REPORT → one frame; EAGAIN keeps the partial frame
///  empty report      SYN_REPORT                           → nothing
///  overflow          ABS_X ─ SYN_DROPPED ─ Δ… ─ (EAGAIN)  → frame [ABS_X] (the partial frame, flushed),
///                                                           then frame [Δ…] (libevdev's delta, one frame)
///  drop in a drop    SYN_DROPPED ─ Δ1 ─ SYN_DROPPED ─ Δ2  → frame [Δ1], frame [Δ2]
///  normal in a sync  SYN_DROPPED ─ Δ1 ─ KEY 1 …           → frame [Δ1], then collecting again
///  unplugged         ABS_X ─ ENODEV                       → removed (the partial frame is dropped:
///                                                           the engine releases the device's state)
///  after removal     anything                             → nothing
/// ```
///
/// Inside the delta the `SYN_REPORT`s libevdev adds are separators, not frame ends: the whole delta
/// is one consistent state change. A frame's time is its `SYN_REPORT`'s (or the delta's last event's).
public struct FrameAssembler: Sendable {
    public enum State: Equatable, Sendable {
        /// Reading normally; `partial` is the frame so far.
        case collecting(partial: [InputEvent])
        /// Reading libevdev's delta after SYN_DROPPED.
        case syncing(delta: [InputEvent], lastTime: Instant)
        case removed
    }

    public enum Event: Equatable, Sendable {
        case event(InputEvent, at: Instant)
        case dropped(at: Instant)
        case syncEvent(InputEvent, at: Instant)
        case syncDone
        case drained
        case gone
    }

    public enum Output: Equatable, Sendable {
        case frame(InputFrame)
        /// The delta after SYN_DROPPED, as one frame.
        case resync(InputFrame)
        case removed
    }

    public private(set) var state: State = .collecting(partial: [])

    public init() {}

    /// `now` is unused by the assembler (times travel with the events); it is part of the
    /// signature every state machine here shares.
    public mutating func handle(_ event: Event, at now: Instant) -> [Output] {
        var outputs: [Output] = []
        handle(event) { outputs.append($0) }
        return outputs
    }

    /// `handle(_:at:)`, each output handed to `emit` as it is made (the live loop: no array per
    /// event).
    public mutating func handle(_ event: Event, emit: (Output) -> Void) {
        // The state is moved out before matching, so the array a case appends to is referenced
        // once and grows in place (matching on `state` itself copied it on every event: the loop's
        // main allocation cost on a touchscreen). Every case sets the next state.
        let current = state
        state = .removed
        switch (consume current, event) {
        case (.collecting(var partial), .event(let e, let t)):
            if e.isSynReport {
                if !partial.isEmpty { emit(.frame(InputFrame(time: t, events: partial))) }
                // The engine has handled the frame and let go of its events: the array is unique
                // again and its storage serves the next frame (no allocation per frame; a frame
                // still held, as when several devices were ready, leaves it to copy on write).
                partial.removeAll(keepingCapacity: true)
                state = .collecting(partial: partial)
                return
            }
            if partial.capacity == 0 { partial.reserveCapacity(8) }
            partial.append(e)
            state = .collecting(partial: partial)
        case (.collecting(let partial), .dropped(let t)):
            state = .syncing(delta: [], lastTime: t)
            if !partial.isEmpty { emit(.frame(InputFrame(time: t, events: partial))) }
        case (.collecting(let partial), .syncEvent(let e, let t)):
            // libevdev only gives sync events after SYN_DROPPED; treat one as the start of a delta.
            state = .syncing(delta: e.isSynReport ? [] : [e], lastTime: t)
            if !partial.isEmpty { emit(.frame(InputFrame(time: t, events: partial))) }
        case (.collecting(let partial), .syncDone), (.collecting(let partial), .drained):
            state = .collecting(partial: partial)
        case (.collecting, .gone):
            state = .removed
            emit(.removed)

        case (.syncing(var delta, _), .syncEvent(let e, let t)):
            if !e.isSynReport { delta.append(e) }
            state = .syncing(delta: delta, lastTime: t)
        case (.syncing(let delta, let last), .syncDone), (.syncing(let delta, let last), .drained):
            state = .collecting(partial: [])
            if !delta.isEmpty { emit(.resync(InputFrame(time: last, events: delta))) }
        case (.syncing(let delta, let last), .dropped(let t)):
            state = .syncing(delta: [], lastTime: t)
            if !delta.isEmpty { emit(.resync(InputFrame(time: last, events: delta))) }
        case (.syncing(let delta, let last), .event(let e, let t)):
            // A normal read ended the delta early (libevdev drops the rest of it).
            state = .collecting(partial: [])
            if !delta.isEmpty { emit(.resync(InputFrame(time: last, events: delta))) }
            handle(.event(e, at: t), emit: emit)
        case (.syncing, .gone):
            state = .removed
            emit(.removed)

        case (.removed, .event), (.removed, .dropped), (.removed, .syncEvent), (.removed, .syncDone),
             (.removed, .drained), (.removed, .gone):
            state = .removed
        }
    }

    /// Back to a clean start (a reopened device).
    public mutating func reset() { state = .collecting(partial: []) }
}
