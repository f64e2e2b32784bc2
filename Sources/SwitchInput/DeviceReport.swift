import SwitchCore

/// What `switchscan devices` prints, laid out like `libinput list-devices`: one block per node,
/// or JSON. Long key lists are shortened in text (a keyboard has a hundred keys); JSON has them all.
public enum DeviceReport {
    /// Key lists longer than this are shortened in text.
    public static let keyListLimit = 12

    public static func text(_ entries: [DeviceEntry]) -> [String] {
        var lines: [String] = []
        for e in entries {
            if !lines.isEmpty { lines.append("") }
            switch e.result {
            case .failure(let error):
                lines.append(row("Device", "(cannot open)"))
                lines.append(row("Kernel", TerminalText.line(e.node)))
                lines.append(row("Error", TerminalText.line(error.reason)))
            case .success(let d):
                lines.append(row("Device", TerminalText.line(d.name)))  // a uinput device names itself
                lines.append(row("Kernel", TerminalText.line(e.node)))
                lines.append(row("Id", "\(busName(d.bus)):\(d.vendorProduct)"))
                let kinds = d.kind.names
                lines.append(row("Kind", kinds.isEmpty ? "other" : kinds.joined(separator: ", ")))
                lines.append(row("Keys", shortened(keyNames(d))))
                lines.append(row("Axes", axisTexts(d).isEmpty ? "none" : axisTexts(d).joined(separator: ", ")))
                let props = propertyNames(d)
                if !props.isEmpty { lines.append(row("Properties", props.joined(separator: " "))) }
            }
        }
        return lines
    }

    public static func json(_ entries: [DeviceEntry]) -> JSONOut {
        .array(entries.map { e in
            switch e.result {
            case .failure(let error):
                return .object([("node", .string(e.node)), ("error", .string(error.reason))])
            case .success(let d):
                let axes: [JSONOut] = (d.codes[EventCodes.EV_ABS] ?? []).sorted().map { code in
                    var m: [(String, JSONOut)] = [("code", .string(EventCodes.describe(type: EventCodes.EV_ABS, code: code)))]
                    if let a = d.absInfo[code] {
                        m += [("min", .number(Double(a.minimum))), ("max", .number(Double(a.maximum))),
                              ("resolution", .number(Double(a.resolution)))]
                    }
                    return .object(m)
                }
                return .object([
                    ("node", .string(e.node)),
                    ("name", .string(d.name)),
                    ("bus", .string(busName(d.bus))),
                    ("vendor", .string(DeviceDescription.hex4(d.vendor))),
                    ("product", .string(DeviceDescription.hex4(d.product))),
                    ("kind", .array(d.kind.names.map { .string($0) })),
                    ("keys", .array(keyNames(d).map { .string($0) })),
                    ("axes", .array(axes)),
                    ("relativeAxes", .array(relNames(d).map { .string($0) })),
                    ("properties", .array(propertyNames(d).map { .string($0) })),
                ])
            }
        })
    }

    /// Bus names as the kernel's BUS_* constants (linux/input.h), lowercased.
    public static func busName(_ bus: UInt16) -> String {
        switch bus {
        case 0x01: return "pci"
        case 0x03: return "usb"
        case 0x05: return "bluetooth"
        case 0x06: return "virtual"
        case 0x10: return "isa"
        case 0x11: return "i8042"
        case 0x18: return "i2c"
        case 0x19: return "host"
        case 0x1C: return "spi"
        default: return "bus" + DeviceDescription.hex4(bus)
        }
    }

    /// "KEY_ESC KEY_1 … KEY_MICMUTE (104 keys)" when there are more than `keyListLimit`.
    public static func shortened(_ names: [String]) -> String {
        if names.isEmpty { return "none" }
        if names.count <= keyListLimit { return names.joined(separator: " ") }
        return (names.prefix(8) + ["…"] + names.suffix(2)).joined(separator: " ") + " (\(names.count) keys)"
    }

    static func keyNames(_ d: DeviceDescription) -> [String] {
        (d.codes[EventCodes.EV_KEY] ?? []).sorted().map { EventCodes.describe(type: EventCodes.EV_KEY, code: $0) }
    }

    static func relNames(_ d: DeviceDescription) -> [String] {
        (d.codes[EventCodes.EV_REL] ?? []).sorted().map { EventCodes.describe(type: EventCodes.EV_REL, code: $0) }
    }

    static func axisTexts(_ d: DeviceDescription) -> [String] {
        let abs = (d.codes[EventCodes.EV_ABS] ?? []).sorted().map { code -> String in
            let name = EventCodes.describe(type: EventCodes.EV_ABS, code: code)
            guard let a = d.absInfo[code] else { return name }
            return "\(name) \(a.minimum)..\(a.maximum)"
        }
        return abs + relNames(d)
    }

    static func propertyNames(_ d: DeviceDescription) -> [String] {
        d.properties.sorted().map { EventCodes.propertyName($0) ?? "INPUT_PROP_\($0)" }
    }

    private static func row(_ label: String, _ value: String) -> String {
        let head = label + ":"
        return head + String(repeating: " ", count: max(1, 14 - head.count)) + value
    }
}
