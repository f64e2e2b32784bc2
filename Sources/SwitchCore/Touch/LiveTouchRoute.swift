/// Touch passthrough's fast path: while a gesture passes live, a frame of the real touchscreen
/// that only moves live contacts is translated straight into the virtual touchscreen's events
/// (`VirtualTouchEncoder.forwardLive`) and written before the engine sees it. The engine then
/// handles the same frame as always; its move finds the virtual device already there and writes
/// nothing. The result on the virtual device is the engine's, to the value; what is saved is the
/// time before the write (a finger waits for it on every frame of a swipe or a drag).
///
/// The engine makes a route (`Engine.liveTouchRoute`) from its state after each wakeup; it says
/// which source slot moves which virtual contact. Protocol B sources only (their events name the
/// slot they change).
///
///     route (made before the wait)     frame (source events)        result
///     slot 0 → v3, slot 0 selected     X · SYN                      forwarded: X · ABS_X · SYN on v3's slot
///     slot 0 → v3, slot 1 → v4         SLOT 1 · Y · SLOT 0 · X      forwarded: SLOT · Y · SLOT · X · ABS_X/Y · SYN
///     slot 0 → v3, slot 1 held         SLOT 1 · X                   not forwarded: the engine decides
///     any                              TRACKING_ID …                not forwarded: a finger down or up
///     any                              BTN_*, ABS_X/Y, MSC_*        skipped (the engine skips them too;
///                                                                   the virtual device has its own pointer)
///     a timer due at or before it      anything                     not forwarded: the timer fires first
///     not forwarded                    —                            the route is dropped until it is made again
public struct LiveTouchRoute: Sendable, Equatable {
    /// The virtual contact moved by the contact in each source slot; −1: no contact there, or one
    /// the accommodations have not let through (yet).
    public var virtualContact: [Int]
    /// The source's selected slot, where its next events go; nil after an out-of-range one.
    public var selectedSlot: Int?
    /// The engine's clock: a frame is handled at its own time or this, whichever is later.
    public var notBefore: Instant
    /// The engine's next timer (or the end of the run): a frame at or after it is not forwarded,
    /// so that the timer fires before it, as in the engine. nil: nothing is due.
    public var validBefore: Instant?

    public init(virtualContact: [Int], selectedSlot: Int?, notBefore: Instant, validBefore: Instant?) {
        self.virtualContact = virtualContact
        self.selectedSlot = selectedSlot
        self.notBefore = notBefore
        self.validBefore = validBefore
    }

    /// When the engine will handle a frame stamped `t`, if that is before anything else it must
    /// do; nil: the frame goes the engine's way.
    public func admits(frameAt t: Instant) -> Instant? {
        let at = max(t, notBefore)
        if let validBefore, at >= validBefore { return nil }
        return at
    }

    /// The virtual contact the selected slot moves; nil when there is none.
    func liveContact(_ slot: Int?) -> Int? {
        guard let slot, slot < virtualContact.count, virtualContact[slot] >= 0 else { return nil }
        return virtualContact[slot]
    }

    /// The slot an `ABS_MT_SLOT` value selects (`SlotTracker`'s rule: nil outside 0..<64).
    static func selection(_ value: Int32) -> Int? {
        (0..<SlotTracker.maximumSlots).contains(Int(value)) ? Int(value) : nil
    }
}
