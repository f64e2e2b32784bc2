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
        typealias T = RecordingText
        var name: String?
        var nameLine: Int?
        var ids: [UInt16] = [0, 0, 0, 0]
        var propertyBytes: [UInt8] = []
        var maskBytes: [UInt16: [UInt8]] = [:]
        var absInfo: [UInt16: DeviceDescription.AbsInfo] = [:]
        var events: [TimedEvent] = []
        events.reserveCapacity(bytes.count / 32)
        var firstEventLine: Int?
        var section: Section?
        var fields: [Range<Int>] = []
        fields.reserveCapacity(12)

        for line in T.Lines(bytes) {
            var content = T.trimmed(bytes, line.range)
            if line.number == 1, bytes[content].starts(with: [0xEF, 0xBB, 0xBF]) {
                content = T.trimmed(bytes, (content.lowerBound + 3)..<content.upperBound)  // UTF-8 byte order mark
            }
            if content.isEmpty || bytes[content.lowerBound] == T.hash { continue }
            func fail(_ message: String, at column: Int? = nil) -> InputError {
                InputError(file: file, line: line.number, column: column.map { $0 - line.range.lowerBound + 1 }, message: message)
            }
            let start = content.lowerBound
            guard content.count >= 2, bytes[start + 1] == T.colon, let kind = Section(tag: bytes[start]) else {
                throw fail("expected an evemu line (\"N: <name>\", \"E: <sec>.<usec> <type> <code> <value>\", …), found \"\(T.excerpt(bytes, content))\"")
            }

            // Order: N: I: P: B: A: L: S: then E:, one device per file.
            if let current = section {
                if current == .name && kind != .id {
                    throw fail("expected \"I: <bus> <vendor> <product> <version>\" right after the N: line, found \(kind.tag)")
                }
                if kind < current || (kind == current && (kind == .name || kind == .id)) {
                    if kind == .name, let first = nameLine {
                        throw fail("a second N: line: an evemu file describes one device (its N: is at line \(first))")
                    }
                    throw fail("\(kind.tag) line after \(current.tag) lines: an evemu file lists N:, I:, P:, B:, A:, L:, S: and then E: lines")
                }
            } else if kind != .name && kind != .events {
                throw fail("\(kind.tag) line before the device name: a description starts with \"N: <name>\"")
            }
            section = kind

            if kind == .name {
                // No comment or field splitting: a name may contain '#' and spaces.
                var nameStart = start + 2
                while nameStart < line.range.upperBound && T.isBlank(bytes[nameStart]) { nameStart += 1 }
                name = String(decoding: bytes[nameStart..<line.range.upperBound], as: UTF8.self)
                nameLine = line.number
                continue
            }

            var end = content.upperBound
            if let hash = bytes[(start + 2)..<end].firstIndex(of: T.hash) { end = hash }
            T.splitFields(bytes, (start + 2)..<end, into: &fields)

            switch kind {
            case .events:
                guard fields.count == 4 else {
                    throw fail("expected \"E: <sec>.<usec> <type> <code> <value>\", found \(fields.count) field\(fields.count == 1 ? "" : "s")")
                }
                guard let time = parseTime(bytes, fields[0]) else {
                    throw fail("bad timestamp \"\(T.excerpt(bytes, fields[0]))\": expected <seconds>.<microseconds>, 1 to 6 digits after the dot", at: fields[0].lowerBound)
                }
                guard let type = T.hex(bytes, fields[1], maximum: typeCount - 1) else {
                    throw fail("bad event type \"\(T.excerpt(bytes, fields[1]))\": expected hex below 20 (EV_CNT)", at: fields[1].lowerBound)
                }
                guard let code = T.hex(bytes, fields[2], maximum: maximumCode) else {
                    throw fail("bad event code \"\(T.excerpt(bytes, fields[2]))\": expected hex up to 2ff (KEY_MAX)", at: fields[2].lowerBound)
                }
                guard let value = T.decimal(bytes, fields[3], in: Int64(Int32.min)...Int64(Int32.max)) else {
                    throw fail("bad event value \"\(T.excerpt(bytes, fields[3]))\": expected a decimal 32-bit integer", at: fields[3].lowerBound)
                }
                if let last = events.last, time < last.time {
                    throw fail("timestamp \(timeString(time)) goes backwards (the event before is at \(timeString(last.time)))", at: fields[0].lowerBound)
                }
                if firstEventLine == nil { firstEventLine = line.number }
                events.append(TimedEvent(time: time, event: InputEvent(type: UInt16(type), code: UInt16(code), value: Int32(value))))

            case .id:
                guard fields.count == 4 else {
                    throw fail("expected \"I: <bus> <vendor> <product> <version>\" (4 hex numbers), found \(fields.count)")
                }
                for k in 0..<4 {
                    guard let v = T.hex(bytes, fields[k], maximum: 0xffff) else {
                        throw fail("bad id \"\(T.excerpt(bytes, fields[k]))\": expected hex up to ffff", at: fields[k].lowerBound)
                    }
                    ids[k] = UInt16(v)
                }

            case .properties:
                guard fields.count == 8 else {
                    throw fail("expected \"P:\" and 8 hex bytes, found \(fields.count)")
                }
                guard propertyBytes.count + 8 <= maximumMaskBytes else {
                    throw fail("too many P: lines (at most \(maximumMaskBytes / 8))")
                }
                for f in fields {
                    guard let b = T.hex(bytes, f, maximum: 0xff) else {
                        throw fail("bad property byte \"\(T.excerpt(bytes, f))\": expected hex 00 to ff", at: f.lowerBound)
                    }
                    propertyBytes.append(UInt8(b))
                }

            case .bits:
                guard fields.count == 9 else {
                    throw fail("expected \"B: <type> <8 hex bytes>\", found \(fields.count) fields")
                }
                guard let type = T.hex(bytes, fields[0], maximum: typeCount - 1) else {
                    throw fail("bad event type \"\(T.excerpt(bytes, fields[0]))\": expected hex below 20 (EV_CNT)", at: fields[0].lowerBound)
                }
                let key = UInt16(type)
                guard (maskBytes[key]?.count ?? 0) + 8 <= maximumMaskBytes else {
                    throw fail("too many B: lines for type \(hexString(type, width: 2)) (at most \(maximumMaskBytes / 8), codes up to 2ff)")
                }
                for f in fields.dropFirst() {
                    guard let b = T.hex(bytes, f, maximum: 0xff) else {
                        throw fail("bad bitmask byte \"\(T.excerpt(bytes, f))\": expected hex 00 to ff", at: f.lowerBound)
                    }
                    maskBytes[key, default: []].append(UInt8(b))
                }

            case .absInfo:
                guard fields.count == 5 || fields.count == 6 else {
                    throw fail("expected \"A: <code> <min> <max> <fuzz> <flat> [<resolution>]\", found \(fields.count) fields")
                }
                guard let code = T.hex(bytes, fields[0], maximum: maximumAbsCode) else {
                    throw fail("bad axis code \"\(T.excerpt(bytes, fields[0]))\": expected hex up to 3f (ABS_MAX)", at: fields[0].lowerBound)
                }
                var numbers: [Int32] = []
                for f in fields.dropFirst() {
                    guard let v = T.decimal(bytes, f, in: Int64(Int32.min)...Int64(Int32.max)) else {
                        throw fail("bad axis value \"\(T.excerpt(bytes, f))\": expected a decimal 32-bit integer", at: f.lowerBound)
                    }
                    numbers.append(Int32(v))
                }
                absInfo[UInt16(code)] = DeviceDescription.AbsInfo(
                    minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
                    resolution: numbers.count > 4 ? numbers[4] : 0)

            case .leds, .switches:
                // State at recording time; the simulator starts from a neutral device.
                guard fields.count == 2, T.hex(bytes, fields[0], maximum: maximumCode) != nil,
                      T.decimal(bytes, fields[1], in: Int64(Int32.min)...Int64(Int32.max)) != nil else {
                    throw fail("expected \"\(kind.tag) <code (hex)> <state>\"")
                }

            case .name:
                break  // handled above
            }
        }

        if section == .name, let line = nameLine {
            throw InputError(file: file, line: line, message: "the file ends after the N: line; expected \"I: <bus> <vendor> <product> <version>\" next")
        }

        var description: DeviceDescription?
        if let name {
            var codes: [UInt16: Set<UInt16>] = [:]
            // Type 0's bitmask is EV_SYN's (or, in old files, the set of types): implied, not kept.
            for (type, mask) in maskBytes where type != 0 {
                let set = bitsSet(in: mask)
                if !set.isEmpty { codes[type] = set }
            }
            description = DeviceDescription(name: name, bus: ids[0], vendor: ids[1], product: ids[2], version: ids[3],
                                            properties: bitsSet(in: propertyBytes), codes: codes, absInfo: absInfo)
        }
        return Parsed(device: Recording.Device(description: description, events: events),
                      nameLine: nameLine, firstEventLine: firstEventLine)
    }

    /// Bit k of byte i stands for code 8·i + k (evemu's and the kernel's byte order).
    static func bitsSet(in mask: [UInt8]) -> Set<UInt16> {
        var set = Set<UInt16>()
        for (i, b) in mask.enumerated() where b != 0 {
            for bit in 0..<8 where b & (1 << bit) != 0 { set.insert(UInt16(i * 8 + bit)) }
        }
        return set
    }

    /// `<sec>.<usec>` as evemu reads it: the microseconds are an integer of 1 to 6 digits (see the
    /// type's doc comment).
    static func parseTime(_ bytes: [UInt8], _ r: Range<Int>) -> Instant? {
        guard let dot = bytes[r].firstIndex(of: RecordingText.dot) else { return nil }
        let secRange = r.lowerBound..<dot
        let usecRange = (dot + 1)..<r.upperBound
        guard !secRange.isEmpty, secRange.allSatisfy({ bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }),
              !usecRange.isEmpty, usecRange.count <= 6, usecRange.allSatisfy({ bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }),
              let sec = RecordingText.decimal(bytes, secRange, in: 0...maximumSeconds),
              let usec = RecordingText.decimal(bytes, usecRange, in: 0...999_999) else { return nil }
        return Instant(microseconds: sec * 1_000_000 + usec)
    }

    /// The same rule on a `String` ("0.50000" → 50 000 µs).
    static func parseTime(_ s: Substring) -> Instant? {
        let bytes = Array(s.utf8)
        return parseTime(bytes, 0..<bytes.count)
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
