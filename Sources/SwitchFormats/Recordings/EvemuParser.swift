import SwitchCore

/// The evemu reader's state, one line at a time (`EvemuFormat` has the format's rules): the
/// whole-file reader feeds it every line, and `EvemuStream` the lines of a file read in chunks,
/// so a recording of any length is read in constant memory with the very same checks.
struct EvemuParser {
    typealias T = RecordingText
    typealias Section = EvemuFormat.Section

    let file: String
    private(set) var nameLine: Int?
    private(set) var firstEventLine: Int?
    private(set) var lastEvent: TimedEvent?
    private var name: String?
    private var ids: [UInt16] = [0, 0, 0, 0]
    private var propertyBytes: [UInt8] = []
    private var maskBytes: [UInt16: [UInt8]] = [:]
    private var absInfo: [UInt16: DeviceDescription.AbsInfo] = [:]
    private var section: Section?
    private var fields: [Range<Int>] = []

    init(file: String) {
        self.file = file
        fields.reserveCapacity(12)
    }

    /// The longest line read: evemu lines are short, and a file without line breaks is not one.
    static let maximumLineLength = 1 << 20

    static func lineTooLong(file: String, line: Int) -> InputError {
        InputError(file: file, line: line, message: "a line longer than \(maximumLineLength / 1024) KB; an evemu line is \"E: <sec>.<usec> <type> <code> <value>\" (is this an evemu file?)")
    }

    /// Reads the line at `range` of `bytes` (without its line break); returns its event, if it is
    /// an `E:` line.
    mutating func take(_ bytes: [UInt8], _ range: Range<Int>, line number: Int) throws(InputError) -> TimedEvent? {
        // The `\r` of a `\r\n` line end is not counted.
        if range.count > Self.maximumLineLength { throw Self.lineTooLong(file: file, line: number) }
        var content = T.trimmed(bytes, range)
        if number == 1, bytes[content].starts(with: [0xEF, 0xBB, 0xBF]) {
            content = T.trimmed(bytes, (content.lowerBound + 3)..<content.upperBound)  // UTF-8 byte order mark
        }
        if content.isEmpty || bytes[content.lowerBound] == T.hash { return nil }
        let file = self.file
        func fail(_ message: String, at column: Int? = nil) -> InputError {
            InputError(file: file, line: number, column: column.map { $0 - range.lowerBound + 1 }, message: message)
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
            while nameStart < range.upperBound && T.isBlank(bytes[nameStart]) { nameStart += 1 }
            name = String(decoding: bytes[nameStart..<range.upperBound], as: UTF8.self)
            nameLine = number
            return nil
        }

        var end = content.upperBound
        if let hash = bytes[(start + 2)..<end].firstIndex(of: T.hash) { end = hash }
        T.splitFields(bytes, (start + 2)..<end, into: &fields)

        switch kind {
        case .events:
            guard fields.count == 4 else {
                throw fail("expected \"E: <sec>.<usec> <type> <code> <value>\", found \(fields.count) field\(fields.count == 1 ? "" : "s")")
            }
            let time: Instant
            switch EvemuFormat.parseTime(bytes, fields[0]) {
            case .time(let t): time = t
            case .malformed:
                throw fail("bad timestamp \"\(T.excerpt(bytes, fields[0]))\": expected <seconds>.<microseconds>, 1 to 6 digits after the dot", at: fields[0].lowerBound)
            case .outOfRange:
                throw fail("timestamp \"\(T.excerpt(bytes, fields[0]))\" is out of range: expected at most \(EvemuFormat.maximumSeconds) seconds", at: fields[0].lowerBound)
            }
            guard let type = T.hex(bytes, fields[1], maximum: EvemuFormat.typeCount - 1) else {
                throw fail("bad event type \"\(T.excerpt(bytes, fields[1]))\": expected hex below 20 (EV_CNT)", at: fields[1].lowerBound)
            }
            guard let code = T.hex(bytes, fields[2], maximum: EvemuFormat.maximumCode) else {
                throw fail("bad event code \"\(T.excerpt(bytes, fields[2]))\": expected hex up to 2ff (KEY_MAX)", at: fields[2].lowerBound)
            }
            guard let value = T.decimal(bytes, fields[3], in: Int64(Int32.min)...Int64(Int32.max)) else {
                throw fail("bad event value \"\(T.excerpt(bytes, fields[3]))\": expected a decimal 32-bit integer", at: fields[3].lowerBound)
            }
            if let last = lastEvent, time < last.time {
                throw fail("timestamp \(EvemuFormat.timeString(time)) goes backwards (the event before is at \(EvemuFormat.timeString(last.time)))", at: fields[0].lowerBound)
            }
            if firstEventLine == nil { firstEventLine = number }
            let event = TimedEvent(time: time, event: InputEvent(type: UInt16(type), code: UInt16(code), value: Int32(value)))
            lastEvent = event
            return event

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
            guard propertyBytes.count + 8 <= EvemuFormat.maximumMaskBytes else {
                throw fail("too many P: lines (at most \(EvemuFormat.maximumMaskBytes / 8))")
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
            guard let type = T.hex(bytes, fields[0], maximum: EvemuFormat.typeCount - 1) else {
                throw fail("bad event type \"\(T.excerpt(bytes, fields[0]))\": expected hex below 20 (EV_CNT)", at: fields[0].lowerBound)
            }
            let key = UInt16(type)
            guard (maskBytes[key]?.count ?? 0) + 8 <= EvemuFormat.maximumMaskBytes else {
                throw fail("too many B: lines for type \(hexString(type, width: 2)) (at most \(EvemuFormat.maximumMaskBytes / 8), codes up to 2ff)")
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
            guard let code = T.hex(bytes, fields[0], maximum: EvemuFormat.maximumAbsCode) else {
                throw fail("bad axis code \"\(T.excerpt(bytes, fields[0]))\": expected hex up to 3f (ABS_MAX)", at: fields[0].lowerBound)
            }
            var numbers: [Int32] = []
            for f in fields.dropFirst() {
                guard let v = T.decimal(bytes, f, in: Int64(Int32.min)...Int64(Int32.max)) else {
                    throw fail("bad axis value \"\(T.excerpt(bytes, f))\": expected a decimal 32-bit integer", at: f.lowerBound)
                }
                numbers.append(Int32(v))
            }
            let info = DeviceDescription.AbsInfo(minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
                                                 resolution: numbers.count > 4 ? numbers[4] : 0)
            if let problem = EvemuFormat.rangeProblem(code: UInt16(code), info) {
                throw fail(problem, at: fields[1].lowerBound)
            }
            absInfo[UInt16(code)] = info

        case .leds, .switches:
            // State at recording time; the simulator starts from a neutral device.
            guard fields.count == 2, T.hex(bytes, fields[0], maximum: EvemuFormat.maximumCode) != nil,
                  T.decimal(bytes, fields[1], in: Int64(Int32.min)...Int64(Int32.max)) != nil else {
                throw fail("expected \"\(kind.tag) <code (hex)> <state>\"")
            }

        case .name:
            break  // handled above
        }
        return nil
    }

    /// The description, once every line has been read (nil for an events-only file).
    func finish() throws(InputError) -> DeviceDescription? {
        if section == .name, let line = nameLine {
            throw InputError(file: file, line: line, message: "the file ends after the N: line; expected \"I: <bus> <vendor> <product> <version>\" next")
        }
        return description
    }

    /// The description read so far: complete once the first `E:` line has been read.
    var description: DeviceDescription? {
        guard let name else { return nil }
        var codes: [UInt16: Set<UInt16>] = [:]
        // Type 0's bitmask is EV_SYN's (or, in old files, the set of types): implied, not kept.
        for (type, mask) in maskBytes where type != 0 {
            let set = EvemuFormat.bitsSet(in: mask)
            if !set.isEmpty { codes[type] = set }
        }
        return DeviceDescription(name: name, bus: ids[0], vendor: ids[1], product: ids[2], version: ids[3],
                                 properties: EvemuFormat.bitsSet(in: propertyBytes), codes: codes, absInfo: absInfo)
    }
}
