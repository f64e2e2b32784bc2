/// What a device says about itself (evemu `N:`/`I:`/`P:`/`B:`/`A:` lines, libinput-record's
/// `evdev:` block, or libevdev's view of a live node), and what kind of device that makes it.
public struct DeviceDescription: Hashable, Sendable {
    public var name: String
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    public var properties: Set<UInt16>
    /// Supported codes per event type (EV_KEY → {KEY_SPACE, …}).
    public var codes: [UInt16: Set<UInt16>]
    public var absInfo: [UInt16: AbsInfo]

    public struct AbsInfo: Hashable, Sendable {
        public var value: Int32
        public var minimum: Int32
        public var maximum: Int32
        public var fuzz: Int32
        public var flat: Int32
        public var resolution: Int32

        public init(value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
            self.value = value
            self.minimum = minimum
            self.maximum = maximum
            self.fuzz = fuzz
            self.flat = flat
            self.resolution = resolution
        }
    }

    public init(name: String, bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0,
                properties: Set<UInt16> = [], codes: [UInt16: Set<UInt16>] = [:], absInfo: [UInt16: AbsInfo] = [:]) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.properties = properties
        self.codes = codes
        self.absInfo = absInfo
    }

    public func has(type: UInt16) -> Bool { !(codes[type]?.isEmpty ?? true) || (type == EventCodes.EV_SYN) }
    public func has(type: UInt16, code: UInt16) -> Bool { codes[type]?.contains(code) ?? false }
    public func has(property: UInt16) -> Bool { properties.contains(property) }

    /// "vvvv:pppp" in hex, as `lsusb` and `libinput list-devices` print ids.
    public var vendorProduct: String { Self.hex4(vendor) + ":" + Self.hex4(product) }

    /// Four lower-case hex digits, as ids are written ("046d").
    public static func hex4(_ v: UInt16) -> String { hexString(v, width: 4) }
}

/// What a device is, decided the way udev's `input_id` builtin decides it (ID_INPUT_*), so a
/// user sees the same words as in `udevadm info`.
public struct DeviceKind: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A full keyboard (keys 1–31, as udev requires).
    public static let keyboard = DeviceKind(rawValue: 1 << 0)
    /// Keys or buttons but not a full keyboard: adapted switches, remote controls, power buttons.
    public static let switchButtons = DeviceKind(rawValue: 1 << 1)
    public static let touchscreen = DeviceKind(rawValue: 1 << 2)
    /// Mouse, touchpad, trackpoint, absolute pointer (a tablet or a VM's pointer).
    public static let pointer = DeviceKind(rawValue: 1 << 3)
    public static let gamepad = DeviceKind(rawValue: 1 << 4)

    public var names: [String] {
        var n: [String] = []
        if contains(.keyboard) { n.append("keyboard") }
        if contains(.switchButtons) { n.append("switch-like buttons") }
        if contains(.touchscreen) { n.append("touchscreen") }
        if contains(.pointer) { n.append("pointer") }
        if contains(.gamepad) { n.append("gamepad") }
        return n
    }
}

extension DeviceDescription {
    /// True MT positions; a device that also has the code below ABS_MT_SLOT (PS3 controllers)
    /// only reuses the MT range for other axes (udev's "fake MT" check).
    public var hasMultitouchPositions: Bool {
        has(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_POSITION_X)
            && has(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_POSITION_Y)
            && !has(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_SLOT - 1)
    }

    public var hasAbsoluteXY: Bool {
        has(type: EventCodes.EV_ABS, code: EventCodes.ABS_X) && has(type: EventCodes.EV_ABS, code: EventCodes.ABS_Y)
    }

    /// A touchscreen: absolute X/Y or MT positions, and either INPUT_PROP_DIRECT or BTN_TOUCH
    /// without BTN_TOOL_FINGER (a touchpad has BTN_TOOL_FINGER). Pen tablets and pen displays
    /// are tablets, as udev says, not touchscreens.
    public var isTouchscreen: Bool {
        guard hasAbsoluteXY || hasMultitouchPositions else { return false }
        let pen = hasStylus
        if has(property: EventCodes.INPUT_PROP_DIRECT) { return !pen }
        return has(type: EventCodes.EV_KEY, code: EventCodes.BTN_TOUCH)
            && !has(type: EventCodes.EV_KEY, code: EventCodes.BTN_TOOL_FINGER) && !pen
    }

    /// A touchpad: absolute positions and a finger tool, not direct (the finger moves a pointer
    /// instead of touching what is under it).
    public var isTouchpad: Bool {
        (hasAbsoluteXY || hasMultitouchPositions) && has(type: EventCodes.EV_KEY, code: EventCodes.BTN_TOOL_FINGER)
            && !has(property: EventCodes.INPUT_PROP_DIRECT)
    }

    /// A real pen: BTN_TOOL_PEN with a stylus button (BTN_STYLUS) or pressure (ABS_PRESSURE).
    /// Single-touch controllers such as the eGalax USB TouchController announce BTN_TOOL_PEN for
    /// the finger but have neither; udev calls them tablets, yet they are touchscreens.
    public var hasStylus: Bool {
        return has(type: EventCodes.EV_KEY, code: EventCodes.BTN_TOOL_PEN)
            && (has(type: EventCodes.EV_KEY, code: EventCodes.BTN_STYLUS) || has(type: EventCodes.EV_ABS, code: EventCodes.ABS_PRESSURE))
    }

    public var kind: DeviceKind {
        var k: DeviceKind = []
        let keys = codes[EventCodes.EV_KEY] ?? []
        if isTouchscreen { k.insert(.touchscreen) }
        let rel = codes[EventCodes.EV_REL] ?? []
        let hasMouseButton = keys.contains(EventCodes.BTN_LEFT)
        if (rel.contains(0) && rel.contains(1) && hasMouseButton)
            || (!k.contains(.touchscreen) && (hasAbsoluteXY || hasMultitouchPositions)
                && (keys.contains(EventCodes.BTN_TOOL_FINGER) || hasMouseButton || keys.contains(EventCodes.BTN_TOOL_PEN))) {
            k.insert(.pointer)
        }
        let joystickButtons = keys.contains { ($0 >= EventCodes.BTN_JOYSTICK && $0 < EventCodes.BTN_DIGI) || ($0 >= 0x2c0 && $0 <= 0x2e7) }
        if joystickButtons { k.insert(.gamepad) }
        if (1...31).allSatisfy({ keys.contains(UInt16($0)) }) {
            k.insert(.keyboard)
        } else if k.isDisjoint(with: [.touchscreen, .pointer, .gamepad]) && keys.contains(where: { $0 < EventCodes.BTN_TOUCH || $0 >= EventCodes.BTN_WHEEL }) {
            k.insert(.switchButtons)
        }
        return k
    }
}
