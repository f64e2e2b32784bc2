import SwitchCore

/// The evemu-record text format (freedesktop evemu, `src/evemu.c`; REFERENCE §4).
///
/// ```
/// # EVEMU 1.3                          comments start with '#' at the start of a line or after
/// N: Atmel maXTouch Touchscreen        the fields (never on N:, a name may contain '#')
/// I: 0018 0000 0000 0000               bus vendor product version, hex
/// P: 02 00 00 00 00 00 00 00           property bits, 8 hex bytes a line
/// B: 03 03 00 00 00 00 80 e0 0a        type, then 8 hex bytes of that type's code bits a line;
///                                      a type's lines continue its bitmask (KEY takes 12)
/// A: 35 0 799 0 0 0                    abs code (hex) min max fuzz flat [resolution], decimal
/// L: 00 1 / S: 00 1                    LED / switch state (read, not kept)
/// E: 0.000001 0003 0035 412            <sec>.<usec> type code (hex) value (decimal)
/// ```
///
/// A file is a description only (`.desc`), events only (older `.events`, often with absolute
/// timestamps), or both. The description comes first, in the order above, as evemu's own reader
/// demands; a second `N:` or a description line after the events is an error, not a second
/// device.
///
/// **Timestamps.** evemu reads `<sec>.<usec>` with `sscanf("%lu.%06u")`: the part after the dot is
/// an integer count of microseconds of at most six digits, *not* a decimal fraction. So
/// "0.50000" is 50 000 µs (umockdev fixtures write it unpadded), "1.5" is 1 s + 5 µs, and
/// "1.000001" is 1 s + 1 µs. This reader does the same; seven or more digits are an error rather
/// than evemu's silent misparse. Times must not go backwards.
///
/// Leniencies beyond evemu: leading blanks and `\r\n` line ends are accepted, and `A:` lines may
/// have 5 or 6 numbers whatever the header says (evemu insists on 5 before format 1.2).
public enum EvemuFormat {
    /// Event types are below EV_CNT; KEY_MAX is the largest code of any type; axes go to ABS_MAX.
    static let typeCount = UInt32(EventCodes.EV_CNT)
    static let maximumCode = UInt32(EventCodes.KEY_MAX)
    static let maximumAbsCode = UInt32(EventCodes.ABS_MAX)
    /// (KEY_MAX + 1) / 8: the longest bitmask a kernel reports, for any type or for properties.
    static let maximumMaskBytes = 96
    /// Seconds big enough for any timestamp yet far from overflowing µs in an Int64.
    static let maximumSeconds: Int64 = 999_999_999_999

    /// Reads one evemu file. Errors name the file, the line and, for a bad field, its column.
    public static func parse(_ bytes: [UInt8], file: String) throws(InputError) -> Recording.Device {
        try parseDetailed(bytes, file: file).device
    }

    /// What `RecordingFile` needs besides the device: where the description and events start,
    /// to point at them when a `.desc`/`.events` pair is mixed up.
    struct Parsed {
        var device: Recording.Device
        var nameLine: Int?
        var firstEventLine: Int?
    }

    /// evemu's line kinds in the order a file must list them.
    enum Section: Int, Comparable {
        case name, id, properties, bits, absInfo, leds, switches, events

        init?(tag: UInt8) {
            switch tag {
            case UInt8(ascii: "N"): self = .name
            case UInt8(ascii: "I"): self = .id
            case UInt8(ascii: "P"): self = .properties
            case UInt8(ascii: "B"): self = .bits
            case UInt8(ascii: "A"): self = .absInfo
            case UInt8(ascii: "L"): self = .leds
            case UInt8(ascii: "S"): self = .switches
            case UInt8(ascii: "E"): self = .events
            default: return nil
            }
        }

        var tag: String {
            switch self {
            case .name: "N:"
            case .id: "I:"
            case .properties: "P:"
            case .bits: "B:"
            case .absInfo: "A:"
            case .leds: "L:"
            case .switches: "S:"
            case .events: "E:"
            }
        }

        static func < (a: Section, b: Section) -> Bool { a.rawValue < b.rawValue }
    }

    static func parseDetailed(_ bytes: [UInt8], file: String) throws(InputError) -> Parsed {
        var parser = EvemuParser(file: file)
        var events: [TimedEvent] = []
        events.reserveCapacity(bytes.count / 32)
        // A last line without its line break that does not read is where the file was cut (not a
        // file of one line, nor one whose lines end with a lone CR: those are read as they are).
        let endsWithBreak = bytes.last == RecordingText.newline
        var cutAtLine: Int?
        for line in RecordingText.Lines(bytes) {
            do {
                if let event = try parser.take(bytes, line.range, line: line.number) { events.append(event) }
            } catch {
                guard !endsWithBreak, line.number > 1, line.range.upperBound >= bytes.count - 1,
                      !bytes[line.range].contains(RecordingText.carriageReturn) else { throw error }
                cutAtLine = line.number
            }
        }
        let description = try parser.finish()
        return Parsed(device: Recording.Device(description: description, events: events, cutAtLine: cutAtLine),
                      nameLine: parser.nameLine, firstEventLine: parser.firstEventLine)
    }

    /// Bit k of byte i stands for code 8·i + k (evemu's and the kernel's byte order).
    static func bitsSet(in mask: [UInt8]) -> Set<UInt16> {
        var set = Set<UInt16>()
        for (i, b) in mask.enumerated() where b != 0 {
            for bit in 0..<8 where b & (1 << bit) != 0 { set.insert(UInt16(i * 8 + bit)) }
        }
        return set
    }

    enum TimeField: Equatable {
        case time(Instant)
        /// Not `<digits>.<1 to 6 digits>`.
        case malformed
        /// Well formed, but more seconds than `maximumSeconds`.
        case outOfRange
    }

    /// `<sec>.<usec>` as evemu reads it: the microseconds are an integer of 1 to 6 digits (see the
    /// type's doc comment).
    static func parseTime(_ bytes: [UInt8], _ r: Range<Int>) -> TimeField {
        guard let dot = bytes[r].firstIndex(of: RecordingText.dot) else { return .malformed }
        let secRange = r.lowerBound..<dot
        let usecRange = (dot + 1)..<r.upperBound
        guard !secRange.isEmpty, secRange.allSatisfy({ bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }),
              !usecRange.isEmpty, usecRange.count <= 6, usecRange.allSatisfy({ bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }),
              let usec = RecordingText.decimal(bytes, usecRange, in: 0...999_999) else { return .malformed }
        guard let sec = RecordingText.decimal(bytes, secRange, in: 0...maximumSeconds) else { return .outOfRange }
        return .time(Instant(microseconds: sec * 1_000_000 + usec))
    }

    /// The same rule on a `String` ("0.50000" → 50 000 µs); nil when it is not a time.
    static func parseTime(_ s: Substring) -> Instant? {
        let bytes = Array(s.utf8)
        if case .time(let t) = parseTime(bytes, 0..<bytes.count) { return t }
        return nil
    }

    /// What is wrong with an axis range, or nil: the kernel refuses a minimum above the maximum
    /// (uinput's check), and a position axis with no extent cannot say where a finger is (every
    /// touch would land at 0). Shared by every recording reader.
    static func rangeProblem(code: UInt16, _ a: DeviceDescription.AbsInfo) -> String? {
        let name = EventCodes.describe(type: EventCodes.EV_ABS, code: code)
        if a.minimum > a.maximum {
            return "\(name): the minimum \(a.minimum) is above the maximum \(a.maximum); expected min < max"
        }
        let positions = [EventCodes.ABS_X, EventCodes.ABS_Y, EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y]
        if a.minimum == a.maximum && positions.contains(code) {
            return "\(name): the minimum and maximum are both \(a.minimum); a position axis needs min < max to map touches onto the screen"
        }
        return nil
    }

    /// "12.000345": seconds and six-digit microseconds, as evemu writes times.
    static func timeString(_ t: Instant) -> String {
        let us = max(0, t.microseconds)
        let usec = String(us % 1_000_000)
        return "\(us / 1_000_000).\(String(repeating: "0", count: 6 - usec.count))\(usec)"
    }

    // MARK: Writing

    /// The types evemu writes a bitmask for, with the number of `B:` lines each takes
    /// (libevdev_event_type_get_max + 1 bits, 64 bits a line).
    static let standardMaskLines: [(type: UInt16, lines: Int)] = [
        (0x01, 12), (0x02, 1), (0x03, 1), (0x04, 1), (0x05, 1), (0x11, 1), (0x12, 1), (0x14, 1), (0x15, 2),
    ]

    /// A whole recording of one device as `evemu-record` writes it: `# EVEMU 1.3` header, an
    /// evtest-like comment, the description, then the events with their times as given
    /// (`record` starts them at 0). `evemu-play` and `evemu-device` read it back (their reader
    /// wants exactly this order and six-number `A:` lines under a 1.2+ header).
    /// Times are written as `<sec>.<usec>` with six digits; a negative time (never produced by a
    /// recording) is written as 0.000000.
    public static func write(description d: DeviceDescription, events: [TimedEvent]) -> String {
        var out = "# EVEMU 1.3\n"
        out += describe(d)
        // A name is one line: a newline inside it would end the N: line early.
        let name = String(d.name.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
        out += "N: \(name)\n"
        out += "I: \(hexString(d.bus, width: 4)) \(hexString(d.vendor, width: 4)) \(hexString(d.product, width: 4)) \(hexString(d.version, width: 4))\n"
        let propertyLines = max(1, Int((d.properties.max() ?? 0) / 64) + 1)
        out += maskLines(prefix: "P: ", codes: d.properties, lines: propertyLines)
        // evemu writes EV_SYN's mask as SYN_REPORT, SYN_CONFIG, SYN_DROPPED, whatever the device.
        out += "B: 00 0b 00 00 00 00 00 00 00\n"
        var lineCounts: [UInt16: Int] = [:]
        for (type, lines) in standardMaskLines { lineCounts[type] = lines }
        for (type, set) in d.codes where type != 0 && UInt32(type) < typeCount && !set.isEmpty {
            lineCounts[type] = max(lineCounts[type] ?? 1, Int((set.max() ?? 0) / 64) + 1)
        }
        for type in lineCounts.keys.sorted() {
            out += maskLines(prefix: "B: \(hexString(type, width: 2)) ", codes: d.codes[type] ?? [], lines: lineCounts[type] ?? 1)
        }
        for (code, a) in d.absInfo.sorted(by: { $0.key < $1.key }) where UInt32(code) <= maximumAbsCode {
            out += "A: \(hexString(code, width: 2)) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)\n"
        }
        out += writeEvents(events)
        return out
    }

    /// A device as a file: its description and events, or only its events when it has no
    /// description (an events-only file, as older evemu wrote next to a `.desc`).
    public static func write(_ device: Recording.Device) -> String {
        if let d = device.description { return write(description: d, events: device.events) }
        return writeEvents(device.events)
    }

    /// `E:` lines with evemu's trailing comments (`# EV_KEY / KEY_SPACE 1`, and the milliseconds
    /// since the previous report on each SYN_REPORT).
    public static func writeEvents(_ events: [TimedEvent]) -> String {
        var lastReportMilliseconds: Int64 = 0
        return writeEvents(events, lastReportMilliseconds: &lastReportMilliseconds)
    }

    /// The same for a recording written in pieces (`record` appends each batch it reads): the
    /// time of the last SYN_REPORT carries over, so the `+Nms` comments stay relative.
    public static func writeEvents(_ events: [TimedEvent], lastReportMilliseconds: inout Int64) -> String {
        var out = ""
        out.reserveCapacity(events.count * 60)
        for e in events {
            let type = e.event.type
            let code = e.event.code
            out += "E: \(timeString(e.time)) \(hexString(type, width: 4)) \(hexString(code, width: 4)) \(e.event.value)\t# "
            if e.event.isSynReport {
                let ms = max(0, e.time.microseconds) / 1000
                out += "------------ SYN_REPORT (\(e.event.value)) ---------- +\(ms - lastReportMilliseconds)ms\n"
                lastReportMilliseconds = ms
            } else {
                out += "\(EventCodes.typeName(type) ?? "type \(type)") / \(EventCodes.describe(type: type, code: code)) \(e.event.value)\n"
            }
        }
        return out
    }

    /// `lines` lines of `prefix` and 8 hex bytes, bit k of byte i for code 8·i + k.
    static func maskLines(prefix: String, codes: Set<UInt16>, lines: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: lines * 8)
        for c in codes where Int(c) / 8 < bytes.count { bytes[Int(c) / 8] |= 1 << (c % 8) }
        var out = ""
        for chunk in stride(from: 0, to: bytes.count, by: 8) {
            out += prefix + bytes[chunk..<chunk + 8].map { hexString($0, width: 2) }.joined(separator: " ") + "\n"
        }
        return out
    }

    /// The evtest-like comment evemu writes above a description, for people reading the file.
    static func describe(_ d: DeviceDescription) -> String {
        var out = "# Input device name: \"\(d.name.filter { $0 != "\n" && $0 != "\r" && $0 != "\r\n" })\"\n"
        out += "# Input device ID: bus 0x\(hexString(d.bus, width: 2)) vendor 0x\(hexString(d.vendor, width: 2)) product 0x\(hexString(d.product, width: 2)) version 0x\(hexString(d.version, width: 2))\n"
        out += "# Supported events:\n"
        for type in d.codes.keys.sorted() {
            guard let codes = d.codes[type], !codes.isEmpty else { continue }
            out += "#   Event type \(type) (\(EventCodes.typeName(type) ?? "?"))\n"
            for code in codes.sorted() {
                out += "#     Event code \(code) (\(EventCodes.describe(type: type, code: code)))\n"
                if type == EventCodes.EV_ABS, let a = d.absInfo[code] {
                    out += "#       Min \(a.minimum) Max \(a.maximum) Fuzz \(a.fuzz) Flat \(a.flat) Resolution \(a.resolution)\n"
                }
            }
        }
        out += "# Properties:\n"
        for p in d.properties.sorted() {
            out += "#   Property type \(p) (\(EventCodes.propertyName(p) ?? "?"))\n"
        }
        out += "# Written by switchscan\n"
        return out
    }

}
