/// Names and numbers of evdev event types and codes (linux/input-event-codes.h), without reading
/// a header at run time: `KEY_SPACE` ↔ (EV_KEY, 57). Code names are canonical as libevdev prints
/// them; aliases such as `BTN_A` are accepted when reading.
public enum EventCodes {
    public static let EV_SYN: UInt16 = 0x00
    public static let EV_KEY: UInt16 = 0x01
    public static let EV_REL: UInt16 = 0x02
    public static let EV_ABS: UInt16 = 0x03
    public static let EV_MSC: UInt16 = 0x04
    public static let EV_SW: UInt16 = 0x05
    public static let EV_LED: UInt16 = 0x11
    public static let EV_SND: UInt16 = 0x12
    public static let EV_REP: UInt16 = 0x14
    public static let EV_FF: UInt16 = 0x15
    /// One more than the largest event type (EV_MAX + 1).
    public static let EV_CNT: UInt16 = 0x20

    public static let SYN_REPORT: UInt16 = 0
    public static let SYN_MT_REPORT: UInt16 = 2
    public static let SYN_DROPPED: UInt16 = 3

    public static let ABS_X: UInt16 = 0x00
    public static let ABS_PRESSURE: UInt16 = 0x18
    public static let ABS_Y: UInt16 = 0x01
    public static let ABS_MT_SLOT: UInt16 = 0x2f
    public static let ABS_MT_TOUCH_MAJOR: UInt16 = 0x30
    public static let ABS_MT_POSITION_X: UInt16 = 0x35
    public static let ABS_MT_POSITION_Y: UInt16 = 0x36
    public static let ABS_MT_TRACKING_ID: UInt16 = 0x39
    public static let ABS_MT_TOOL_Y: UInt16 = 0x3d

    public static let BTN_MISC: UInt16 = 0x100
    public static let BTN_MOUSE: UInt16 = 0x110
    public static let BTN_LEFT: UInt16 = 0x110
    public static let BTN_JOYSTICK: UInt16 = 0x120
    public static let BTN_GAMEPAD: UInt16 = 0x130
    public static let BTN_DIGI: UInt16 = 0x140
    public static let BTN_TOOL_PEN: UInt16 = 0x140
    public static let BTN_TOOL_FINGER: UInt16 = 0x145
    public static let BTN_TOUCH: UInt16 = 0x14a
    public static let BTN_STYLUS: UInt16 = 0x14b
    public static let BTN_WHEEL: UInt16 = 0x150
    public static let KEY_ESC: UInt16 = 1
    public static let KEY_SPACE: UInt16 = 57
    public static let KEY_MAX: UInt16 = 0x2ff
    public static let ABS_MAX: UInt16 = 0x3f

    public static let INPUT_PROP_POINTER: UInt16 = 0
    public static let INPUT_PROP_DIRECT: UInt16 = 1
    public static let INPUT_PROP_BUTTONPAD: UInt16 = 2

    private static let kindTypeNames: UInt16 = 0xFFFF
    private static let kindProps: UInt16 = 0xFFFE

    private struct Key: Hashable { var kind: UInt16; var code: UInt16 }
    private static let nameByCode: [Key: String] = {
        var d: [Key: String] = [:]
        for e in canonicalEntries { d[Key(kind: e.kind, code: e.code)] = e.name }
        return d
    }()
    private static let codeByName: [String: (kind: UInt16, code: UInt16)] = {
        var d: [String: (kind: UInt16, code: UInt16)] = [:]
        for e in canonicalEntries + aliasEntries where d[e.name] == nil { d[e.name] = (e.kind, e.code) }
        return d
    }()

    /// "EV_KEY" for 1; nil for an unknown type.
    public static func typeName(_ type: UInt16) -> String? { nameByCode[Key(kind: kindTypeNames, code: type)] }

    /// "KEY_SPACE" for (EV_KEY, 57); nil when the code has no name.
    public static func codeName(type: UInt16, code: UInt16) -> String? { nameByCode[Key(kind: type, code: code)] }

    /// A readable name for any code: the canonical name or "EV_KEY 0x2f0".
    public static func describe(type: UInt16, code: UInt16) -> String {
        if let n = codeName(type: type, code: code) { return n }
        return "\(typeName(type) ?? "type 0x" + String(type, radix: 16)) 0x\(String(code, radix: 16))"
    }

    public static func propertyName(_ prop: UInt16) -> String? { nameByCode[Key(kind: kindProps, code: prop)] }

    /// (type, code) for a code name such as "KEY_SPACE", "BTN_A", "ABS_MT_SLOT".
    public static func code(named name: String) -> (type: UInt16, code: UInt16)? {
        guard let e = codeByName[name], e.kind != kindTypeNames, e.kind != kindProps else { return nil }
        return (e.kind, e.code)
    }

    /// An event type number for "EV_KEY".
    public static func type(named name: String) -> UInt16? {
        guard let e = codeByName[name], e.kind == kindTypeNames else { return nil }
        return e.code
    }

    public static func property(named name: String) -> UInt16? {
        guard let e = codeByName[name], e.kind == kindProps else { return nil }
        return e.code
    }
}

/// `v` in lower-case hex, zero-padded to `width` digits ("046d"), as evdev ids and codes are written.
public func hexString<T: BinaryInteger>(_ v: T, width: Int) -> String {
    let s = String(v, radix: 16)
    return String(repeating: "0", count: max(0, width - s.count)) + s
}
