/// Multitouch protocol B: the device keeps one slot per finger and sends only what changed.
/// `ABS_MT_SLOT` selects a slot (sent only when it changes); in it `ABS_MT_TRACKING_ID ≥ 0`
/// starts a contact, −1 ends it, a different id ends the old contact and starts a new one;
/// `ABS_MT_POSITION_X/Y` move it. Because values are sent only when they change, every slot
/// remembers its last position, also between contacts (a new finger where the last one lifted
/// sends no position at all).
///
///     frame                                   contacts at the end of the frame
///     SLOT 0 · ID 7 · X · Y                   down(7)
///     X                                       moved(7)          (slot 0 still selected)
///     SLOT 1 · ID 8 · X · Y                   down(8)           (two fingers)
///     SLOT 0 · ID −1                          up(7)
///     SLOT 1 · ID 9                           up(8), down(9)    (a new id in one slot: a new contact)
///     SLOT 2 · X · Y                          nothing           (no valid tracking id: ignored)
///     SLOT 1 · PRESSURE                       moved(9)          (any value that changed, not only the point)
///
/// The tracking id is the contact's id. The current slot and the slots' positions start from
/// the device's absinfo; a contact already down when we start (its slot's tracking id is not
/// part of absinfo) is not reported until it lifts and a new one starts. Slot numbers outside
/// 0..<64 are ignored.
struct SlotTracker: Sendable {
    struct Slot: Sendable {
        var trackingID: Int32 = -1
        var x: Int32
        var y: Int32
        /// The slot's other multitouch axes (pressure, size …), kept like its position.
        var axes: [UInt16: Int32] = [:]
        /// The contact started in the frame being read (report `down` at its end).
        var startedThisFrame = false
        /// Where the contact was last reported (report `moved` when it changes).
        var reported: Point?
        /// A value of the slot (position or another axis) changed in the frame being read: its
        /// contact is reported `moved` even when its point did not change (a pressure change
        /// alone passes to the virtual touchscreen as it came).
        var changed = false
    }

    static let maximumSlots = 64

    /// A new mapping (another screen) moves every contact's point: all are looked at next frame.
    var mapping: ScreenMapping { didSet { touched = .max } }
    private var slots: [Slot]
    /// Bit i: slot i had an event in the frame being read (only those can have changed).
    private var touched: UInt64 = 0
    /// nil after an out-of-range `ABS_MT_SLOT`: events go nowhere until a valid slot is selected.
    private var current: Int?
    private let initialX: Int32
    private let initialY: Int32

    init(device: DeviceDescription, mapping: ScreenMapping) {
        self.mapping = mapping
        initialX = device.absInfo[EventCodes.ABS_MT_POSITION_X]?.value ?? 0
        initialY = device.absInfo[EventCodes.ABS_MT_POSITION_Y]?.value ?? 0
        let declared = Int(device.absInfo[EventCodes.ABS_MT_SLOT]?.maximum ?? 9) + 1
        let count = min(max(declared, 1), Self.maximumSlots)
        slots = Array(repeating: Slot(x: initialX, y: initialY), count: count)
        let first = Int(device.absInfo[EventCodes.ABS_MT_SLOT]?.value ?? 0)
        current = (0..<Self.maximumSlots).contains(first) ? first : nil
    }

    private mutating func slotIndex() -> Int? {
        guard let current else { return nil }
        while slots.count <= current { slots.append(Slot(x: initialX, y: initialY)) }
        touched |= 1 << UInt64(current)
        return current
    }

    private func point(_ s: Slot) -> Point { mapping.point(x: s.x, y: s.y) }
    private func raw(_ s: Slot) -> RawTouch { RawTouch(x: s.x, y: s.y, axes: s.axes) }

    /// One frame, appended to `out`: the contacts that ended first, then those that started or
    /// moved.
    mutating func handle(frame: [InputEvent], into out: inout [TouchSample]) {
        var ended: [TouchSample] = []
        for e in frame where e.type == EventCodes.EV_ABS {
            switch e.code {
            case EventCodes.ABS_MT_SLOT:
                current = (0..<Self.maximumSlots).contains(Int(e.value)) ? Int(e.value) : nil
            case EventCodes.ABS_MT_TRACKING_ID:
                guard let i = slotIndex() else { continue }
                if e.value >= 0 && e.value == slots[i].trackingID { continue }
                if slots[i].trackingID >= 0 { end(i, into: &ended) }
                if e.value >= 0 {
                    slots[i].trackingID = e.value
                    slots[i].startedThisFrame = true
                }
            case EventCodes.ABS_MT_POSITION_X:
                guard let i = slotIndex(), slots[i].x != e.value else { continue }
                slots[i].x = e.value
                slots[i].changed = true
            case EventCodes.ABS_MT_POSITION_Y:
                guard let i = slotIndex(), slots[i].y != e.value else { continue }
                slots[i].y = e.value
                slots[i].changed = true
            case let code where RawTouch.isContactAxis(code):
                guard let i = slotIndex(), slots[i].axes[code] != e.value else { continue }
                slots[i].axes[code] = e.value
                slots[i].changed = true
            default:
                continue
            }
        }
        if !ended.isEmpty { out += ended }
        var mask = touched
        touched = 0
        while mask != 0 {
            let i = mask.trailingZeroBitCount
            mask &= mask - 1
            guard i < slots.count else { continue }
            let changed = slots[i].changed
            slots[i].changed = false
            guard slots[i].trackingID >= 0 else { continue }
            let p = point(slots[i])
            let id = Int(slots[i].trackingID)
            if slots[i].startedThisFrame {
                slots[i].startedThisFrame = false
                slots[i].reported = p
                out.append(TouchSample(.down(id: id, p), raw(slots[i])))
            } else if slots[i].reported != p || changed {
                slots[i].reported = p
                out.append(TouchSample(.moved(id: id, p), raw(slots[i])))
            }
        }
    }

    /// Ends the contact in slot `i` where it is now. A contact that started in this very frame
    /// was never reported: it gets its `down` just before its `up`.
    private mutating func end(_ i: Int, into ended: inout [TouchSample]) {
        let id = Int(slots[i].trackingID)
        let p = point(slots[i]), r = raw(slots[i])
        if slots[i].startedThisFrame { ended.append(TouchSample(.down(id: id, p), r)) }
        ended.append(TouchSample(.up(id: id, p), r))
        slots[i].trackingID = -1
        slots[i].startedThisFrame = false
        slots[i].reported = nil
    }

    /// The selected slot (nil after an out-of-range `ABS_MT_SLOT`), where the next frame's events
    /// go until it selects another (`LiveTouchRoute` starts from it).
    var selectedSlot: Int? { current }

    /// The contact in each slot (its tracking id), −1 where none is.
    var trackingIDs: [Int32] { slots.map(\.trackingID) }

    mutating func liftAll() -> [TouchSample] {
        var out: [TouchSample] = []
        for i in slots.indices where slots[i].trackingID >= 0 { end(i, into: &out) }
        return out
    }
}
