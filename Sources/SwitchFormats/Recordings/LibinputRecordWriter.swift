import SwitchCore

/// Writes the YAML of `libinput record` (version 1), the format that holds several devices on one
/// time base (`libinput record --multiple`); `LibinputRecordFormat` and libinput's own
/// `libinput replay` read it back. Laid out as libinput writes it, piece by piece, so a recorder
/// can stream it: the header, then per device its description ending in `events:`, then its frames.
///
/// ```yaml
/// # libinput record, written by switchscan record
/// version: 1
/// ndevices: 2
/// devices:
/// - node: /dev/input/event2
///   evdev:
///     # Name: Test One-Key Switch
///     name: "Test One-Key Switch"
///     id: [3, 4660, 22136, 1]
///     codes:
///       1: [57] # EV_KEY
///     properties: []
///   events:
///   - evdev:
///     - [  0,      0,   1,  57,       1] # EV_KEY / KEY_SPACE                 1
///     - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
/// ```
public enum LibinputRecordWriter {
    /// The lines before the devices. `comments` become `#` lines under the first.
    public static func header(deviceCount: Int, comments: [String] = []) -> String {
        var out = "# libinput record, written by switchscan record\n"
        for c in comments { out += "# " + oneLine(c) + "\n" }
        out += "version: \(LibinputRecordFormat.supportedVersion)\n"
        out += "ndevices: \(deviceCount)\n"
        out += "devices:\n"
        return out
    }

    /// One device's entry up to and including its `events:` key; `comments` go into its `evdev`
    /// block (a note that key codes were hidden).
    public static func device(node: String, description d: DeviceDescription, comments: [String] = []) -> String {
        var out = "- node: \(quoted(node))\n"
        out += "  evdev:\n"
        out += "    # Name: \(oneLine(d.name))\n"
        out += "    # ID: bus 0x\(hexString(d.bus, width: 1)) vendor 0x\(hexString(d.vendor, width: 1)) product 0x\(hexString(d.product, width: 1)) version 0x\(hexString(d.version, width: 1))\n"
        for c in comments { out += "    # " + oneLine(c) + "\n" }
        out += "    name: \(quoted(d.name))\n"
        out += "    id: [\(d.bus), \(d.vendor), \(d.product), \(d.version)]\n"
        out += "    codes:\n"
        for type in d.codes.keys.sorted() where type != EventCodes.EV_SYN {
            guard let codes = d.codes[type], !codes.isEmpty else { continue }
            out += "      \(type): [" + codes.sorted().map(String.init).joined(separator: ", ") + "] # \(EventCodes.typeName(type) ?? "type \(type)")\n"
        }
        if !d.absInfo.isEmpty {
            out += "    absinfo:\n"
            for (code, a) in d.absInfo.sorted(by: { $0.key < $1.key }) {
                out += "      \(code): [\(a.minimum), \(a.maximum), \(a.fuzz), \(a.flat), \(a.resolution)]\n"
            }
        }
        out += "    properties: [" + d.properties.sorted().map(String.init).joined(separator: ", ") + "]\n"
        out += "  events:\n"
        return out
    }

    /// A device's events, written as they arrive: a frame (`- evdev:`) starts at its first event
    /// and ends with its SYN_REPORT, also when a frame is split across two calls.
    public struct Events: Sendable {
        private var inFrame = false
        private var lastReportMilliseconds: Int64 = 0

        public init() {}

        public mutating func write(_ events: [TimedEvent]) -> String {
            var out = ""
            out.reserveCapacity(events.count * 80)
            for e in events {
                if !inFrame {
                    out += "  - evdev:\n"
                    inFrame = true
                }
                let us = max(0, e.time.microseconds)
                let type = e.event.type, code = e.event.code
                out += "    - [" + padded(us / 1_000_000, 3) + ", " + padded(us % 1_000_000, 6) + ", " + padded(Int64(type), 3)
                    + ", " + padded(Int64(code), 3) + ", " + padded(Int64(e.event.value), 7) + "] # "
                if e.event.isSynReport {
                    let ms = us / 1000
                    out += "------------ SYN_REPORT (\(e.event.value)) ---------- +\(ms - lastReportMilliseconds)ms\n"
                    lastReportMilliseconds = ms
                    inFrame = false
                } else {
                    let name = "\(EventCodes.typeName(type) ?? "type \(type)") / \(EventCodes.describe(type: type, code: code))"
                    out += name + String(repeating: " ", count: max(1, 30 - name.count)) + "\(e.event.value)\n"
                }
            }
            return out
        }
    }

    private static func padded(_ n: Int64, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }

    /// A YAML double-quoted scalar.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x7F { out += "\\x" + hexString(UInt8(u.value), width: 2) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }

    private static func oneLine(_ s: String) -> String {
        String(s.unicodeScalars.map { $0.value < 0x20 ? " " : Character($0) })
    }
}
