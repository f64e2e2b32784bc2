import SwitchCore
import Yams

/// The YAML that `libinput record` writes (libinput `tools/libinput-record.c`, read back by
/// `tools/libinput-replay.py`):
///
/// ```yaml
/// version: 1
/// ndevices: 1
/// devices:
/// - node: /dev/input/event14
///   evdev:
///     name: "ITE Tech. Inc. ITE Device(8595) Touchpad"
///     id: [3, 1739, 10600, 272]              # bus, vendor, product, version
///     codes: {1: [272, 325, 330], 3: [0, 1, 47, 53, 54, 57]}   # type: [codes]
///     absinfo: {0: [0, 1051, 0, 0, 12]}      # code: [min, max, fuzz, flat, resolution]
///     properties: [0, 2]
///   events:
///   - evdev:                                  # one frame, ending with its SYN_REPORT
///     - [0, 9967, 3, 47, 1]                   # sec, usec, type, code, value
///     - [0, 9967, 0, 0, 0]
/// ```
///
/// All numbers are decimal. Keys this reader does not use are ignored wherever they appear
/// (`ndevices`, `libinput`, `system`, `hid`, `udev`, `quirks`, `libinput:` and `hid:` entries in
/// `events`), as libinput-replay ignores them; `events:` may be empty or null. Several devices
/// (`libinput record --multiple`) share one time base: times stay as written. Times within a
/// device must not go backwards.
///
/// Errors name the file, the line and column Yams reports for the offending node, and its path
/// (`devices[0].events[3].evdev[1]`).
public enum LibinputRecordFormat {
    /// The only version libinput has written so far; libinput-replay refuses the others too.
    public static let supportedVersion = 1

    public static func parse(_ bytes: [UInt8], file: String) throws(InputError) -> Recording {
        if let bad = RecordingText.firstInvalidUTF8(bytes) {
            let p = RecordingText.position(of: bad, in: bytes)
            throw InputError(file: file, line: p.line, column: p.column, message: "not UTF-8 text (byte 0x\(EvemuFormat.hex(bytes[bad], 2))); expected a libinput-record YAML file")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let root: Node
        do {
            // `.basic`: no implicit typing; this reader reads every number itself, and so avoids a
            // regular expression per scalar.
            guard let node = try Parser(yaml: text, resolver: .basic).singleRoot() else {
                throw InputError(file: file, line: 1, message: "empty YAML document; expected a libinput-record file (version: 1, devices: …)")
            }
            root = node
        } catch let error as InputError {
            throw error
        } catch let error as YamlError {
            throw inputError(error, file: file, text: text)
        } catch {
            throw InputError(file: file, line: 1, message: "cannot read the YAML: \(error)")
        }
        return try Reader(file: file).recording(root)
    }

    /// Yams' error, as one line with the position it gives.
    static func inputError(_ error: YamlError, file: String, text: String) -> InputError {
        func located(_ mark: Mark, _ context: YamlError.Context?, _ problem: String) -> InputError {
            var message = "malformed YAML: \(problem)"
            if let context { message += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))" }
            return InputError(file: file, line: mark.line, column: mark.column, message: message)
        }
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            return located(mark, context, problem)
        case let .reader(problem, offset, _, _):
            // Yams gives the offset in characters.
            var line = 1
            var column = 1
            if let offset {
                for character in text.prefix(offset) {
                    if character == "\n" || character == "\r\n" { line += 1; column = 1 } else { column += 1 }
                }
            }
            return InputError(file: file, line: line, column: column, message: "malformed YAML: \(problem)")
        case let .duplicatedKeysInMapping(duplicates, context):
            let keys = duplicates.map { "\"\($0)\"" }.joined(separator: ", ")
            return InputError(file: file, line: context.mark.line, column: context.mark.column,
                              message: "malformed YAML: a mapping repeats the key \(keys)")
        default:
            return InputError(file: file, line: 1, message: "cannot read the YAML: \(error)")
        }
    }

    /// Walks the node tree; every check names the node's position and path.
    struct Reader {
        let file: String

        func fail(_ node: Node?, _ path: String, _ message: String) -> InputError {
            InputError(file: file, line: node?.mark?.line, column: node?.mark?.column, path: path, message: message)
        }

        func recording(_ root: Node) throws(InputError) -> Recording {
            let top = try mapping(root, "")
            guard let versionNode = top["version"] else {
                throw fail(root, "", "missing \"version\"; a libinput-record file starts with \"version: \(supportedVersion)\"")
            }
            let version = try integer(versionNode, "version", in: Int64.min...Int64.max)
            guard version == Int64(supportedVersion) else {
                throw fail(versionNode, "version", "unsupported libinput-record version \(version); switchscan reads version \(supportedVersion)")
            }
            guard let devicesNode = top["devices"] else {
                throw fail(root, "", "missing \"devices\": the list of recorded devices")
            }
            let devices = try sequence(devicesNode, "devices")
            guard !devices.isEmpty else { throw fail(devicesNode, "devices", "expected at least one device, found an empty list") }
            var result: [Recording.Device] = []
            for (i, deviceNode) in devices.enumerated() {
                result.append(try device(deviceNode, "devices[\(i)]"))
            }
            return Recording(devices: result)
        }

        func device(_ node: Node, _ path: String) throws(InputError) -> Recording.Device {
            let fields = try mapping(node, path)
            guard let evdevNode = fields["evdev"] else {
                throw fail(node, path, "missing \"evdev\": the device's name, id, codes, absinfo and properties")
            }
            let description = try evdev(evdevNode, path + ".evdev")
            var events: [TimedEvent] = []
            if let eventsNode = fields["events"], !isNull(eventsNode) {
                events = try self.events(eventsNode, path + ".events")
            }
            return Recording.Device(description: description, events: events)
        }

        func evdev(_ node: Node, _ path: String) throws(InputError) -> DeviceDescription {
            let fields = try mapping(node, path)
            guard let nameNode = fields["name"] else { throw fail(node, path, "missing \"name\"") }
            guard case .scalar(let nameScalar) = nameNode else {
                throw fail(nameNode, path + ".name", "expected the device name, found \(describe(nameNode))")
            }
            guard let idNode = fields["id"] else { throw fail(node, path, "missing \"id\": [bus, vendor, product, version]") }
            let id = try sequence(idNode, path + ".id")
            guard id.count == 4 else {
                throw fail(idNode, path + ".id", "expected [bus, vendor, product, version], found \(id.count) number\(id.count == 1 ? "" : "s")")
            }
            var ids: [UInt16] = []
            for (k, n) in id.enumerated() { ids.append(UInt16(try integer(n, path + ".id[\(k)]", in: 0...0xffff))) }

            guard let codesNode = fields["codes"] else { throw fail(node, path, "missing \"codes\": {type: [codes]}") }
            var codes: [UInt16: Set<UInt16>] = [:]
            for (keyNode, listNode) in try mapping(codesNode, path + ".codes").pairs {
                let typePath = path + ".codes." + (keyNode.scalar?.string ?? "?")
                let type = UInt16(try integer(keyNode, typePath, in: 0...Int64(EvemuFormat.typeCount - 1), what: "an event type"))
                var set = Set<UInt16>()
                for (k, c) in try sequence(listNode, typePath).enumerated() {
                    set.insert(UInt16(try integer(c, typePath + "[\(k)]", in: 0...Int64(EvemuFormat.maximumCode), what: "an event code")))
                }
                // EV_SYN's codes are implied, as in evemu files.
                if type != EventCodes.EV_SYN && !set.isEmpty { codes[type] = set }
            }

            var absInfo: [UInt16: DeviceDescription.AbsInfo] = [:]
            if let absNode = fields["absinfo"], !isNull(absNode) {
                for (keyNode, valuesNode) in try mapping(absNode, path + ".absinfo").pairs {
                    let codePath = path + ".absinfo." + (keyNode.scalar?.string ?? "?")
                    let code = UInt16(try integer(keyNode, codePath, in: 0...Int64(EvemuFormat.maximumAbsCode), what: "an axis code"))
                    let values = try sequence(valuesNode, codePath)
                    guard values.count == 5 else {
                        throw fail(valuesNode, codePath, "expected [min, max, fuzz, flat, resolution], found \(values.count) number\(values.count == 1 ? "" : "s")")
                    }
                    var n: [Int32] = []
                    for (k, v) in values.enumerated() {
                        n.append(Int32(try integer(v, codePath + "[\(k)]", in: Int64(Int32.min)...Int64(Int32.max))))
                    }
                    absInfo[code] = DeviceDescription.AbsInfo(minimum: n[0], maximum: n[1], fuzz: n[2], flat: n[3], resolution: n[4])
                }
            }
            for code in (codes[EventCodes.EV_ABS] ?? []).sorted() where absInfo[code] == nil {
                throw fail(fields["absinfo"] ?? node, path + ".absinfo",
                           "missing the range of \(EventCodes.describe(type: EventCodes.EV_ABS, code: code)) (code \(code)), which codes lists")
            }

            var properties = Set<UInt16>()
            if let propertiesNode = fields["properties"], !isNull(propertiesNode) {
                for (k, p) in try sequence(propertiesNode, path + ".properties").enumerated() {
                    properties.insert(UInt16(try integer(p, path + ".properties[\(k)]", in: 0...0x1f, what: "an input property")))
                }
            }
            return DeviceDescription(name: nameScalar.string, bus: ids[0], vendor: ids[1], product: ids[2], version: ids[3],
                                     properties: properties, codes: codes, absInfo: absInfo)
        }

        /// The frames' `evdev` events, concatenated: frames end with their SYN_REPORT, so
        /// `InputFrame.frames(from:)` finds them again.
        func events(_ node: Node, _ path: String) throws(InputError) -> [TimedEvent] {
            let frames = try sequence(node, path)
            var events: [TimedEvent] = []
            events.reserveCapacity(frames.count * 4)
            for (f, frameNode) in frames.enumerated() {
                guard case .mapping(let frame) = frameNode else {
                    throw fail(frameNode, "\(path)[\(f)]", "expected a frame such as {evdev: [[sec, usec, type, code, value], …]}, found \(describe(frameNode))")
                }
                // Other entries (libinput events, hid reports) carry no evdev events.
                guard let evdevNode = frame.first(where: { $0.key.scalar?.string == "evdev" })?.value else { continue }
                guard case .sequence(let list) = evdevNode else {
                    throw fail(evdevNode, "\(path)[\(f)].evdev", "expected a list of [sec, usec, type, code, value], found \(describe(evdevNode))")
                }
                for (k, eventNode) in list.enumerated() {
                    guard case .sequence(let v) = eventNode, v.count == 5 else {
                        throw fail(eventNode, "\(path)[\(f)].evdev[\(k)]", "expected [sec, usec, type, code, value], found \(describe(eventNode))")
                    }
                    let eventPath = "\(path)[\(f)].evdev[\(k)]"
                    let sec = try integer(v[0], eventPath + "[0]", in: 0...EvemuFormat.maximumSeconds, what: "seconds")
                    let usec = try integer(v[1], eventPath + "[1]", in: 0...999_999, what: "microseconds")
                    let type = try integer(v[2], eventPath + "[2]", in: 0...Int64(EvemuFormat.typeCount - 1), what: "an event type")
                    let code = try integer(v[3], eventPath + "[3]", in: 0...Int64(EvemuFormat.maximumCode), what: "an event code")
                    let value = try integer(v[4], eventPath + "[4]", in: Int64(Int32.min)...Int64(Int32.max))
                    let time = Instant(microseconds: sec * 1_000_000 + usec)
                    if let last = events.last, time < last.time {
                        throw fail(eventNode, eventPath, "time \(EvemuFormat.timeString(time)) goes backwards (the event before is at \(EvemuFormat.timeString(last.time)))")
                    }
                    events.append(TimedEvent(time: time, event: InputEvent(type: UInt16(type), code: UInt16(code), value: Int32(value))))
                }
            }
            return events
        }

        // MARK: Shapes

        struct Fields {
            let pairs: [(key: Node, value: Node)]
            subscript(key: String) -> Node? { pairs.first(where: { $0.key.scalar?.string == key })?.value }
        }

        func mapping(_ node: Node, _ path: String) throws(InputError) -> Fields {
            guard case .mapping(let m) = node else {
                throw fail(node, path, "expected a mapping (key: value lines), found \(describe(node))")
            }
            return Fields(pairs: m.map { ($0.key, $0.value) })
        }

        func sequence(_ node: Node, _ path: String) throws(InputError) -> Node.Sequence {
            guard case .sequence(let s) = node else {
                throw fail(node, path, "expected a list, found \(describe(node))")
            }
            return s
        }

        func integer(_ node: Node, _ path: String, in range: ClosedRange<Int64>, what: String = "a number") throws(InputError) -> Int64 {
            guard case .scalar(let s) = node, let v = RecordingText.decimal(s.string, in: Int64.min...Int64.max) else {
                throw fail(node, path, "expected \(what) (a decimal integer), found \(describe(node))")
            }
            guard range.contains(v) else {
                throw fail(node, path, "\(what) \(v) is out of range (\(range.lowerBound)…\(range.upperBound))")
            }
            return v
        }

        func isNull(_ node: Node) -> Bool {
            guard case .scalar(let s) = node, s.style == .plain else { return false }
            return ["", "~", "null", "Null", "NULL"].contains(s.string)
        }

        func describe(_ node: Node) -> String {
            switch node {
            case .scalar(let s):
                if isNull(node) { return "nothing (null)" }
                let text = s.string.count > 30 ? String(s.string.prefix(30)) + "…" : s.string
                return "\"\(text)\""
            case .mapping: return "a mapping"
            case .sequence(let s): return "a list of \(s.count)"
            case .alias: return "an alias"
            }
        }
    }
}
