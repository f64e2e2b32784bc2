/// What the virtual touchscreen of touch passthrough is, made from the real one it mirrors (pure:
/// the shell's `VirtualTouchscreen` creates it through uinput). Always multitouch protocol B,
/// whatever the source speaks, so the compositor sees one kind of device:
///
/// | source          | virtual device                                                         |
/// |-----------------|------------------------------------------------------------------------|
/// | protocol B      | its slots, positions and other `ABS_MT_*` axes, `ABS_X/Y`              |
/// | protocol A      | its axes + `ABS_MT_SLOT` (10 slots) and `ABS_MT_TRACKING_ID`            |
/// | single touch    | `ABS_X/Y`, and the same ranges as `ABS_MT_POSITION_X/Y`, 10 slots, ids  |
///
/// Ranges and resolutions are the source's (libinput reads the size in mm from them, and
/// calibration keyed on the ids still applies); fuzz is 0 (the real device's kernel already
/// filtered the values; a second filter would drop small moves). Keys: `BTN_TOUCH` only (no pen
/// or touchpad tools); properties: `INPUT_PROP_DIRECT` only. Bus, vendor, product and version
/// are the source's; the name is `switchscan ` + the source's, cut to what uinput keeps (80 bytes
/// with its terminating NUL, at a character boundary). switchscan never opens a device whose name
/// starts with `switchscan ` (`isOwnDevice`).
public struct VirtualTouchscreenLayout: Sendable, Equatable {
    public static let namePrefix = "switchscan "
    /// uinput's name buffer (`UINPUT_MAX_NAME_SIZE`), NUL included.
    public static let nameBytes = 80
    /// Slots given to a source that has none (protocol A, single touch).
    public static let defaultSlots = 10

    /// The uinput template: name, ids, properties, codes and absinfo.
    public let description: DeviceDescription
    public let slots: Int

    public init(mirroring source: DeviceDescription) {
        var abs: [UInt16: DeviceDescription.AbsInfo] = [:]
        func copy(_ info: DeviceDescription.AbsInfo) -> DeviceDescription.AbsInfo {
            DeviceDescription.AbsInfo(value: 0, minimum: info.minimum, maximum: info.maximum, fuzz: 0, flat: info.flat, resolution: info.resolution)
        }
        let multitouch = source.hasMultitouchPositions
        let x = multitouch ? source.absInfo[EventCodes.ABS_MT_POSITION_X] : source.absInfo[EventCodes.ABS_X]
        let y = multitouch ? source.absInfo[EventCodes.ABS_MT_POSITION_Y] : source.absInfo[EventCodes.ABS_Y]
        let fallback = DeviceDescription.AbsInfo(minimum: 0, maximum: 0)
        abs[EventCodes.ABS_MT_POSITION_X] = copy(x ?? fallback)
        abs[EventCodes.ABS_MT_POSITION_Y] = copy(y ?? fallback)
        abs[EventCodes.ABS_X] = copy(source.absInfo[EventCodes.ABS_X] ?? x ?? fallback)
        abs[EventCodes.ABS_Y] = copy(source.absInfo[EventCodes.ABS_Y] ?? y ?? fallback)
        if multitouch {
            for (code, info) in source.absInfo where RawTouch.isContactAxis(code) { abs[code] = copy(info) }
        }
        var slots = Self.defaultSlots
        if multitouch, source.has(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_SLOT), let s = source.absInfo[EventCodes.ABS_MT_SLOT] {
            slots = min(max(Int(s.maximum) + 1, 1), SlotTracker.maximumSlots)
        }
        self.slots = slots
        abs[EventCodes.ABS_MT_SLOT] = DeviceDescription.AbsInfo(minimum: 0, maximum: Int32(slots - 1))
        abs[EventCodes.ABS_MT_TRACKING_ID] = DeviceDescription.AbsInfo(minimum: 0, maximum: Int32(VirtualTouchEncoder.trackingIDs - 1))
        description = DeviceDescription(
            name: Self.name(for: source.name), bus: source.bus, vendor: source.vendor, product: source.product, version: source.version,
            properties: [EventCodes.INPUT_PROP_DIRECT],
            codes: [EventCodes.EV_KEY: [EventCodes.BTN_TOUCH], EventCodes.EV_ABS: Set(abs.keys)], absInfo: abs)
    }

    /// `switchscan ` + `real`, at most 79 bytes (uinput keeps 80 with the NUL), never cutting a
    /// UTF-8 character in two.
    public static func name(for real: String) -> String {
        var name = namePrefix
        for c in real.unicodeScalars {
            guard name.utf8.count + String(c).utf8.count <= nameBytes - 1 else { break }
            name.unicodeScalars.append(c)
        }
        return name
    }

    /// A device switchscan made (its virtual touchscreen, keyboard, pointer, output): never read
    /// as input, so nothing it writes comes back as a touch or a switch press.
    public static func isOwnDevice(name: String) -> Bool { name.hasPrefix(namePrefix) }

    public func encoder() -> VirtualTouchEncoder { VirtualTouchEncoder(layout: self) }
}

/// Virtual contacts → protocol B events for the virtual touchscreen (pure; the shell writes what
/// it returns, a frame per call). A contact gets the lowest free slot and a new tracking id; the
/// single-touch emulation follows as the kernel's `input_mt_report_pointer_emulation` does it:
/// `BTN_TOUCH` while any contact is down, `ABS_X/Y` at the oldest contact (scaled when the ranges
/// differ). A contact that finds no free slot is dropped with its moves and lift.
///
///     frame                         events
///     [▼0 (x,y)]                    SLOT 0* · TRACKING_ID t · X · Y · axes · BTN_TOUCH 1 · ABS_X/Y · SYN
///     [→0 (x,y)]                    SLOT 0* · X† · Y† · axes† · ABS_X/Y† · SYN
///     [▼1 …]                        SLOT 1 · TRACKING_ID t+1 · … · SYN (ABS_X/Y stay at 0's)
///     [▲0]                          SLOT 0 · TRACKING_ID −1 · ABS_X/Y (now 1's) · SYN
///     [▲1]                          SLOT 1 · TRACKING_ID −1 · BTN_TOUCH 0 · SYN
///     (* ABS_MT_SLOT only when another slot was selected last; † only the values that changed:
///     the kernel drops the others anyway, after taking a lock for each)
public struct VirtualTouchEncoder: Sendable {
    public static let trackingIDs: Int32 = 65536

    private let axes: Set<UInt16>
    private let mtX: DeviceDescription.AbsInfo
    private let mtY: DeviceDescription.AbsInfo
    private let absX: DeviceDescription.AbsInfo
    private let absY: DeviceDescription.AbsInfo
    /// What is down in each slot, as parallel arrays of plain values (the one record of what is
    /// down: a handful of slots, searched): the virtual contact (−1: free) and its values as last
    /// written. A move of a gesture reads and writes them in place, with nothing to retain.
    private var slotContact: [Int]
    private var slotX: [Int32]
    private var slotY: [Int32]
    private var slotAxes: [[UInt16: Int32]]
    /// The slot of the oldest contact (the lowest virtual id: the pointer emulation's), −1: none.
    private var oldest = -1
    private var selected = 0
    private var nextTrackingID: Int32 = 0
    private var touching = false
    /// ABS_X/Y as last written.
    private var pointer: (x: Int32, y: Int32)?

    public init(layout: VirtualTouchscreenLayout) {
        let d = layout.description
        axes = Set((d.codes[EventCodes.EV_ABS] ?? []).filter(RawTouch.isContactAxis))
        let zero = DeviceDescription.AbsInfo(minimum: 0, maximum: 0)
        mtX = d.absInfo[EventCodes.ABS_MT_POSITION_X] ?? zero
        mtY = d.absInfo[EventCodes.ABS_MT_POSITION_Y] ?? zero
        absX = d.absInfo[EventCodes.ABS_X] ?? mtX
        absY = d.absInfo[EventCodes.ABS_Y] ?? mtY
        slotContact = Array(repeating: -1, count: layout.slots)
        slotX = Array(repeating: 0, count: layout.slots)
        slotY = Array(repeating: 0, count: layout.slots)
        slotAxes = Array(repeating: [:], count: layout.slots)
    }

    /// Contacts down now.
    public var activeCount: Int { slotContact.reduce(0) { $0 + ($1 < 0 ? 0 : 1) } }

    /// One frame, ending with `SYN_REPORT`; empty when nothing in it reaches the device.
    public mutating func encode(_ frame: [VirtualTouch]) -> [InputEvent] {
        var out: [InputEvent] = []
        encode(frame, into: &out)
        return out
    }

    /// `encode(_:)` appended to `out` (the live loop's buffer, reused from frame to frame).
    public mutating func encode(_ frame: [VirtualTouch], into out: inout [InputEvent]) {
        let start = out.count
        var changedOldest = false
        for change in frame {
            switch change {
            case .down(let v, let raw):
                guard slot(of: v) == nil, let s = slotContact.firstIndex(of: -1) else { continue }
                slotContact[s] = v
                slotX[s] = raw.x
                slotY[s] = raw.y
                slotAxes[s] = raw.axes
                changedOldest = true
                select(s, &out)
                out.append(abs(EventCodes.ABS_MT_TRACKING_ID, nextTrackingID))
                nextTrackingID = (nextTrackingID + 1) % Self.trackingIDs
                position(raw, &out)
            case .move(let v, let raw):
                guard let s = slot(of: v) else { continue }
                let x = raw.x != slotX[s], y = raw.y != slotY[s], other = raw.axes != slotAxes[s]
                guard x || y || other else { continue }
                select(s, &out)
                if x { out.append(abs(EventCodes.ABS_MT_POSITION_X, raw.x)) }
                if y { out.append(abs(EventCodes.ABS_MT_POSITION_Y, raw.y)) }
                if other {
                    for code in raw.axes.keys.sorted() where axes.contains(code) && raw.axes[code] != slotAxes[s][code] {
                        out.append(abs(code, raw.axes[code]!))
                    }
                }
                slotX[s] = raw.x
                slotY[s] = raw.y
                if other { slotAxes[s] = raw.axes }
            case .up(let v):
                guard let s = slot(of: v) else { continue }
                slotContact[s] = -1
                changedOldest = true
                select(s, &out)
                out.append(abs(EventCodes.ABS_MT_TRACKING_ID, -1))
            }
        }
        guard out.count > start else { return }
        if changedOldest { findOldest() }
        emulatePointer(&out)
        out.append(InputEvent(type: EventCodes.EV_SYN, code: EventCodes.SYN_REPORT, value: 0))
    }

    /// Touch passthrough's fast path (`LiveTouchRoute`): a frame of the real touchscreen
    /// (protocol B, its events without `SYN_REPORT`) that only moves contacts the route passes
    /// live becomes their moves here, appended to `out` as `encode` would write them (only the
    /// values that changed, then the pointer emulation and `SYN_REPORT`; nothing when nothing
    /// changed), and the route follows the source's slot selection. Any other frame (a finger
    /// down or up, a move of a contact not passing live): false, and nothing changes.
    public mutating func forwardLive(_ frame: [InputEvent], route: inout LiveTouchRoute, into out: inout [InputEvent]) -> Bool {
        // First every event is checked, so that a frame is forwarded whole or not at all.
        var selected = route.selectedSlot
        for e in frame where e.type == EventCodes.EV_ABS {
            if e.code == EventCodes.ABS_MT_SLOT { selected = LiveTouchRoute.selection(e.value); continue }
            if e.code == EventCodes.ABS_MT_TRACKING_ID { return false }
            guard Self.isContactValue(e.code) else { continue }
            guard let v = route.liveContact(selected), slot(of: v) != nil else { return false }
        }
        let start = out.count
        selected = route.selectedSlot
        var s = -1
        for e in frame where e.type == EventCodes.EV_ABS {
            if e.code == EventCodes.ABS_MT_SLOT {
                selected = LiveTouchRoute.selection(e.value)
                s = -1
                continue
            }
            guard Self.isContactValue(e.code) else { continue }
            if s < 0 { s = slot(of: route.liveContact(selected)!)! }
            switch e.code {
            case EventCodes.ABS_MT_POSITION_X:
                guard slotX[s] != e.value else { continue }
                slotX[s] = e.value
            case EventCodes.ABS_MT_POSITION_Y:
                guard slotY[s] != e.value else { continue }
                slotY[s] = e.value
            default:
                guard slotAxes[s][e.code] != e.value else { continue }
                slotAxes[s][e.code] = e.value
                // An axis the virtual device lacks is kept (as `encode` keeps a move's whole
                // value) but not written.
                guard axes.contains(e.code) else { continue }
            }
            select(s, &out)
            out.append(abs(e.code, e.value))
        }
        route.selectedSlot = selected
        guard out.count > start else { return true }
        emulatePointer(&out)
        out.append(InputEvent(type: EventCodes.EV_SYN, code: EventCodes.SYN_REPORT, value: 0))
        return true
    }

    /// A value of a contact a move changes: its position or another of its axes.
    private static func isContactValue(_ code: UInt16) -> Bool {
        code == EventCodes.ABS_MT_POSITION_X || code == EventCodes.ABS_MT_POSITION_Y || RawTouch.isContactAxis(code)
    }

    /// Every contact up (before the device is removed): one frame, or nothing when none is down.
    public mutating func liftAll() -> [InputEvent] {
        encode(slotContact.filter { $0 >= 0 }.map { .up($0) })
    }

    /// The slot of virtual contact `v`: looked for among the slots (a handful; a dictionary
    /// beside them would hash, and could disagree with them).
    private func slot(of v: Int) -> Int? {
        for s in slotContact.indices where slotContact[s] == v { return s }
        return nil
    }

    private mutating func select(_ s: Int, _ out: inout [InputEvent]) {
        guard s != selected else { return }
        selected = s
        out.append(abs(EventCodes.ABS_MT_SLOT, Int32(s)))
    }

    private func position(_ raw: RawTouch, _ out: inout [InputEvent]) {
        out.append(abs(EventCodes.ABS_MT_POSITION_X, raw.x))
        out.append(abs(EventCodes.ABS_MT_POSITION_Y, raw.y))
        guard !raw.axes.isEmpty else { return }
        for code in raw.axes.keys.sorted() where axes.contains(code) { out.append(abs(code, raw.axes[code]!)) }
    }

    /// The oldest contact's slot, after a contact went down or up.
    private mutating func findOldest() {
        oldest = -1
        var oldestContact = Int.max
        for s in slotContact.indices where slotContact[s] >= 0 && slotContact[s] < oldestContact {
            oldest = s
            oldestContact = slotContact[s]
        }
    }

    private mutating func emulatePointer(_ out: inout [InputEvent]) {
        let down = oldest >= 0
        if down != touching {
            touching = down
            out.append(InputEvent(type: EventCodes.EV_KEY, code: EventCodes.BTN_TOUCH, value: down ? 1 : 0))
        }
        guard down else { return }
        let x = Self.scale(slotX[oldest], from: mtX, to: absX), y = Self.scale(slotY[oldest], from: mtY, to: absY)
        if x != pointer?.x { out.append(abs(EventCodes.ABS_X, x)) }
        if y != pointer?.y { out.append(abs(EventCodes.ABS_Y, y)) }
        pointer = (x, y)
    }

    /// `v` in `from`'s range to the same place in `to`'s (the identity when they are equal).
    static func scale(_ v: Int32, from: DeviceDescription.AbsInfo, to: DeviceDescription.AbsInfo) -> Int32 {
        if from.minimum == to.minimum && from.maximum == to.maximum { return v }
        let span = Double(from.maximum) - Double(from.minimum)
        guard span > 0 else { return to.minimum }
        let f = (Double(v) - Double(from.minimum)) / span
        return Int32(clamping: Int64((Double(to.minimum) + f * (Double(to.maximum) - Double(to.minimum))).rounded()))
    }

    private func abs(_ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(type: EventCodes.EV_ABS, code: code, value: value) }
}
