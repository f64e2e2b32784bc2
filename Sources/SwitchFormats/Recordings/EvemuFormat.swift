import SwitchCore

/// The evemu-record text format (freedesktop evemu; REFERENCE §4): `N:` name, `I:` bus vendor
/// product version (hex), `P:` property bytes, `B:` type + bitmask bytes, `A:` code min max fuzz
/// flat [resolution], `L:`/`S:` state, then `E: <sec>.<usec> <type> <code> <value>` (hex type and
/// code, decimal value). Comments start with `#`. A file may be a description only (`.desc`),
/// events only (older `.events`), or both.
public enum EvemuFormat {
    /// Parses a whole file. Errors name the file and line.
    public static func parse(_ bytes: [UInt8], file: String) throws(InputError) -> Recording.Device {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw InputError(file: file, message: "not a text file (invalid UTF-8); expected an evemu recording")
        }
        var name: String?
        var ids: [UInt16] = [0, 0, 0, 0]
        var sawID = false
        var propBytes: [UInt8] = []
        var bits: [UInt16: [UInt8]] = [:]
        var abs: [UInt16: DeviceDescription.AbsInfo] = [:]
        var events: [TimedEvent] = []
        events.reserveCapacity(bytes.count / 40)

        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line.removeLast() }
            func fail(_ message: String) -> InputError { InputError(file: file, line: lineNumber, message: message) }
            if line.isEmpty || line.first == "#" { continue }
            guard line.count >= 2, line[line.index(after: line.startIndex)] == ":" else {
                throw fail("expected an evemu line (\"E: 0.000001 0001 0039 1\", \"N: name\", …), found \"\(line.prefix(40))\"")
            }
            let tag = line.first!
            let rest = line.dropFirst(2)
            if tag == "N" {
                // No comment parsing on N: lines (a name may contain '#').
                name = String(rest.drop(while: { $0 == " " }))
                continue
            }
            let fields = rest.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .split(whereSeparator: { $0 == " " || $0 == "\t" })
            switch tag {
            case "E":
                guard fields.count == 4 else { throw fail("expected \"E: <sec>.<usec> <type> <code> <value>\", found \(fields.count) fields") }
                guard let time = parseTime(fields[0]) else { throw fail("bad timestamp \"\(fields[0])\" (expected <seconds>.<microseconds>)") }
                guard let type = UInt16(fields[1], radix: 16) else { throw fail("bad event type \"\(fields[1])\" (expected hex)") }
                guard let code = UInt16(fields[2], radix: 16) else { throw fail("bad event code \"\(fields[2])\" (expected hex)") }
                guard let value = Int32(fields[3]) else { throw fail("bad event value \"\(fields[3])\" (expected a decimal integer)") }
                if let last = events.last, time < last.time {
                    throw fail("timestamp \(fields[0]) goes backwards (previous event at \(last.time.transcriptString) s)")
                }
                events.append(TimedEvent(time: time, event: InputEvent(type: type, code: code, value: value)))
            case "I":
                guard fields.count == 4 else { throw fail("expected \"I: <bus> <vendor> <product> <version>\" in hex") }
                for k in 0..<4 {
                    guard let v = UInt16(fields[k], radix: 16) else { throw fail("bad id \"\(fields[k])\" (expected hex)") }
                    ids[k] = v
                }
                sawID = true
            case "P":
                for f in fields {
                    guard let b = UInt8(f, radix: 16) else { throw fail("bad property byte \"\(f)\" (expected hex)") }
                    propBytes.append(b)
                }
            case "B":
                guard let type = fields.first.flatMap({ UInt16($0, radix: 16) }) else { throw fail("expected \"B: <type> <bytes…>\"") }
                for f in fields.dropFirst() {
                    guard let b = UInt8(f, radix: 16) else { throw fail("bad bitmask byte \"\(f)\" (expected hex)") }
                    bits[type, default: []].append(b)
                }
            case "A":
                guard fields.count == 5 || fields.count == 6, let code = UInt16(fields[0], radix: 16) else {
                    throw fail("expected \"A: <code> <min> <max> <fuzz> <flat> [<resolution>]\"")
                }
                var n: [Int32] = []
                for f in fields.dropFirst() {
                    guard let v = Int32(f) else { throw fail("bad absinfo value \"\(f)\" (expected a decimal integer)") }
                    n.append(v)
                }
                abs[code] = DeviceDescription.AbsInfo(minimum: n[0], maximum: n[1], fuzz: n[2], flat: n[3], resolution: n.count > 4 ? n[4] : 0)
            case "L", "S":
                continue  // LED and switch state: not needed
            default:
                throw fail("unknown evemu line type \"\(tag):\"")
            }
        }

        var description: DeviceDescription?
        if name != nil || sawID || !bits.isEmpty {
            var codes: [UInt16: Set<UInt16>] = [:]
            for (type, bytes) in bits where type != 0 {
                var set = Set<UInt16>()
                for (i, b) in bytes.enumerated() where b != 0 {
                    for bit in 0..<8 where b & (1 << bit) != 0 { set.insert(UInt16(i * 8 + bit)) }
                }
                if !set.isEmpty { codes[type] = set }
            }
            var props = Set<UInt16>()
            for (i, b) in propBytes.enumerated() where b != 0 {
                for bit in 0..<8 where b & (1 << bit) != 0 { props.insert(UInt16(i * 8 + bit)) }
            }
            description = DeviceDescription(name: name ?? "", bus: ids[0], vendor: ids[1], product: ids[2], version: ids[3],
                                            properties: props, codes: codes, absInfo: abs)
        }
        return Recording.Device(description: description, events: events)
    }

    /// evemu reads `<sec>.<usec>` with the microseconds as an integer (`sscanf("%lu.%06u")`), so
    /// "0.50000" is 50000 µs (umockdev fixtures write it unpadded) and "1.000001" is 1 s + 1 µs.
    static func parseTime(_ s: Substring) -> Instant? {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let sec = Int64(parts[0]), sec >= 0, !parts[1].isEmpty, parts[1].count <= 6,
              let usec = Int64(parts[1]), usec >= 0 else { return nil }
        return Instant(microseconds: sec * 1_000_000 + usec)
    }

    /// Writes a recording as `evemu-record` does: header, description, then events with times
    /// as given (`record` starts them at 0), microseconds zero-padded to 6 digits.
    public static func write(description d: DeviceDescription, events: [TimedEvent]) -> String {
        var out = "# EVEMU 1.3\n"
        out += "# Input device name: \"\(d.name)\"\n"
        out += "# Recorded by switchscan\n"
        out += "N: \(d.name)\n"
        out += "I: \(hex(d.bus, 4)) \(hex(d.vendor, 4)) \(hex(d.product, 4)) \(hex(d.version, 4))\n"
        var props = [UInt8](repeating: 0, count: 8)
        for p in d.properties where p < 64 { props[Int(p) / 8] |= 1 << (p % 8) }
        out += "P: " + props.map { hex($0, 2) }.joined(separator: " ") + "\n"
        let maxCode: [UInt16: Int] = [0: 0x1f, 1: 0x2ff, 2: 0x0f, 3: 0x3f, 4: 0x07, 5: 0x10, 0x11: 0x0f, 0x12: 0x07, 0x15: 0x7f]
        var types = Set(d.codes.keys)
        types.insert(0)
        for type in types.sorted() {
            var set = d.codes[type] ?? []
            if type == 0 { set = Set(d.codes.keys.filter { !(d.codes[$0]?.isEmpty ?? true) }); set.insert(0) }
            let top = max(maxCode[type] ?? 0x3f, Int(set.max() ?? 0))
            var bytes = [UInt8](repeating: 0, count: ((top / 8) / 8 + 1) * 8)
            for c in set where Int(c) / 8 < bytes.count { bytes[Int(c) / 8] |= 1 << (c % 8) }
            for chunk in stride(from: 0, to: bytes.count, by: 8) {
                out += "B: \(hex(type, 2)) " + bytes[chunk..<chunk + 8].map { hex($0, 2) }.joined(separator: " ") + "\n"
            }
        }
        for code in d.absInfo.keys.sorted() {
            let a = d.absInfo[code]!
            out += "A: \(hex(code, 2)) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)\n"
        }
        for e in events {
            let us = e.time.microseconds
            let usec = String(us % 1_000_000)
            out += "E: \(us / 1_000_000).\(String(repeating: "0", count: 6 - usec.count))\(usec) \(hex(e.event.type, 4)) \(hex(e.event.code, 4)) \(e.event.value)"
            if e.event.isSynReport {
                out += "\t# ------------ SYN_REPORT (0) ----------\n"
            } else {
                out += "\t# \(EventCodes.typeName(e.event.type) ?? "?") / \(EventCodes.codeName(type: e.event.type, code: e.event.code) ?? "?")\n"
            }
        }
        return out
    }

    static func hex<T: BinaryInteger>(_ v: T, _ width: Int) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}
