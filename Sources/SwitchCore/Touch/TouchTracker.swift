/// Turns a touchscreen's evdev frames into contacts: where each finger went down, moved and
/// lifted, in the tree's screen points. Three kinds of device (kernel
/// `Documentation/input/multi-touch-protocol.rst`):
///
/// - **Protocol B** (`ABS_MT_SLOT` present; nearly every touchscreen today): `SlotTracker`.
/// - **Protocol A** (MT positions without slots; old N-Trig panels): `UnslottedTracker`.
/// - **Single-touch** (`BTN_TOUCH` + `ABS_X/Y` only): `SingleTouchTracker`.
///
/// With MT present the single-touch emulation (`ABS_X/Y`, `BTN_TOUCH`) is ignored. Contacts are
/// reported at the end of a frame (a frame's positions may follow its tracking id): first the
/// contacts that ended, then those that started or moved. A device with none of the above (or
/// fake MT, as udev calls it) produces no contacts.
///
/// Each contact also comes as a `TouchSample` with where it is in the device's own units
/// (`RawTouch`): the virtual touchscreen (touch passthrough) writes those, not screen points.
public struct TouchTracker: Sendable {
    public enum Contact: Sendable, Equatable {
        case down(id: Int, Point)
        case moved(id: Int, Point)
        case up(id: Int, Point)

        public var id: Int {
            switch self {
            case .down(let id, _), .moved(let id, _), .up(let id, _): return id
            }
        }

        public var point: Point {
            switch self {
            case .down(_, let p), .moved(_, let p), .up(_, let p): return p
            }
        }
    }

    package enum Kind: Sendable, Equatable {
        case protocolB, protocolA, singleTouch, none
    }

    /// At most one is present (none: the device has no contacts). Three optionals rather than an
    /// enum with payloads: an optional is mutated in place, an enum's payload is copied out and
    /// back on every frame (retains and releases of the slots, the main cost of a touch frame).
    private var slots: SlotTracker?
    private var unslotted: UnslottedTracker?
    private var single: SingleTouchTracker?

    public init(device: DeviceDescription, screen: Size) {
        if device.hasMultitouchPositions {
            let mapping = ScreenMapping(device: device, screen: screen, multitouch: true)
            if device.has(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_SLOT) {
                slots = SlotTracker(device: device, mapping: mapping)
            } else {
                unslotted = UnslottedTracker(mapping: mapping)
            }
        } else if device.hasAbsoluteXY {
            single = SingleTouchTracker(device: device, mapping: ScreenMapping(device: device, screen: screen, multitouch: false))
        }
    }

    package var kind: Kind {
        if slots != nil { return .protocolB }
        if unslotted != nil { return .protocolA }
        if single != nil { return .singleTouch }
        return .none
    }

    /// Protocol B only: the selected slot and each slot's contact id (−1: none), where the next
    /// frame starts from (`Engine.liveTouchRoute`); nil for the other protocols.
    package var slotContacts: (selected: Int?, ids: [Int32])? {
        slots.map { ($0.selectedSlot, $0.trackingIDs) }
    }

    /// One frame: the events of one `SYN_REPORT` (without it).
    public mutating func handle(frame: [InputEvent]) -> [Contact] {
        handleSamples(frame: frame).map(\.contact)
    }

    /// `handle(frame:)` with each contact's raw values.
    public mutating func handleSamples(frame: [InputEvent]) -> [TouchSample] {
        var out: [TouchSample] = []
        handleSamples(frame: frame, into: &out)
        return out
    }

    /// `handleSamples(frame:)`, appending to `out` (the engine reuses one array for every frame).
    public mutating func handleSamples(frame: [InputEvent], into out: inout [TouchSample]) {
        if slots != nil { slots!.handle(frame: frame, into: &out) }
        else if unslotted != nil { out += unslotted!.handle(frame: frame) }
        else if single != nil { out += single!.handle(frame: frame) }
    }

    /// The tree's screen changed size (a layout change): contacts and raw positions stay, only the
    /// mapping from device units to points is made again, so a finger that is down stays down.
    public mutating func setScreen(_ screen: Size, device: DeviceDescription) {
        if slots != nil { slots!.mapping = ScreenMapping(device: device, screen: screen, multitouch: true) }
        if unslotted != nil { unslotted!.mapping = ScreenMapping(device: device, screen: screen, multitouch: true) }
        if single != nil { single!.mapping = ScreenMapping(device: device, screen: screen, multitouch: false) }
    }

    /// The device went away: every contact ends where it was last seen.
    public mutating func liftAll() -> [Contact] {
        liftAllSamples().map(\.contact)
    }

    public mutating func liftAllSamples() -> [TouchSample] {
        if slots != nil { return slots!.liftAll() }
        if unslotted != nil { return unslotted!.liftAll() }
        if single != nil { return single!.liftAll() }
        return []
    }
}

/// Where a contact is in the device's units: its position (`ABS_MT_POSITION_X/Y`, or `ABS_X/Y`
/// on a single-touch screen) and its other multitouch axes as last sent (`ABS_MT_PRESSURE`,
/// `ABS_MT_TOUCH_MAJOR`, …; empty when the device has none).
public struct RawTouch: Sendable, Equatable {
    public var x: Int32
    public var y: Int32
    /// Other `ABS_MT_*` axes by code.
    public var axes: [UInt16: Int32]

    public init(x: Int32, y: Int32, axes: [UInt16: Int32] = [:]) {
        self.x = x
        self.y = y
        self.axes = axes
    }

    /// The `ABS_MT_*` codes besides slot, tracking id and position that travel with a contact.
    public static func isContactAxis(_ code: UInt16) -> Bool {
        code >= EventCodes.ABS_MT_TOUCH_MAJOR && code <= EventCodes.ABS_MT_TOOL_Y
            && code != EventCodes.ABS_MT_POSITION_X && code != EventCodes.ABS_MT_POSITION_Y && code != EventCodes.ABS_MT_TRACKING_ID
    }
}

/// A contact with its raw values.
public struct TouchSample: Sendable, Equatable {
    public var contact: TouchTracker.Contact
    public var raw: RawTouch

    public init(_ contact: TouchTracker.Contact, _ raw: RawTouch) {
        self.contact = contact
        self.raw = raw
    }
}
