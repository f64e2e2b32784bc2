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
        try parse(bytes, file: file, readingFramesAhead: true)
    }

    /// `readingFramesAhead: false` leaves every frame to Yams (tests and the fuzz target compare
    /// both ways).
    @_spi(Fuzzing) public static func parse(_ bytes: [UInt8], file: String, readingFramesAhead: Bool) throws(InputError) -> Recording {
        if let bad = RecordingText.firstInvalidUTF8(bytes) {
            let p = RecordingText.position(of: bad, in: bytes)
            throw InputError(file: file, line: p.line, column: p.column, message: "not UTF-8 text (byte 0x\(hexString(bytes[bad], width: 2))); expected a libinput-record YAML file")
        }
        if let bad = RecordingText.firstNonPrintableYAML(bytes) {
            let p = RecordingText.position(of: bad.offset, in: bytes)
            throw InputError(file: file, line: p.line, column: p.column,
                             message: "control character U+\(hexString(bad.scalar.value, width: 4).uppercased()) (YAML allows none, not even in a comment); expected a libinput-record YAML file")
        }
        let lines = RecordingText.yamlLineCount(bytes)
        if readingFramesAhead, let rewritten = LibinputRecordFrames.rewrite(bytes) {
            // The pre-pass knows frames by their lines alone. Inside a quoted scalar that spans
            // lines, frame-like lines are text (and one may end with the closing quote in what
            // looks like a comment): the rewritten document then is not YAML, or leaves a frame
            // it took out unread. Yams reads the file as it is instead, and its answer (the
            // recording or the error) is the one given.
            if (try? YAMLPrecheck.check(rewritten.bytes, file: file)) != nil,
               let root = try? yamlRoot(String(decoding: rewritten.bytes, as: UTF8.self), file: file, lines: lines) {
                let reader = Reader(file: file, bytes: bytes, frames: rewritten.frames, lines: lines)
                let recording = try reader.recording(root)
                if reader.framesRead.count == rewritten.frames.count { return recording }
            }
        }
        try YAMLPrecheck.check(bytes, file: file)
        let root = try yamlRoot(String(decoding: bytes, as: UTF8.self), file: file, lines: lines)
        return try Reader(file: file, lines: lines).recording(root)
    }

    /// The document's root node, read by Yams.
    static func yamlRoot(_ text: String, file: String, lines: Int) throws(InputError) -> Node {
        do {
            // `.basic`: no implicit typing; this reader reads every number itself, and so avoids a
            // regular expression per scalar.
            guard let node = try Parser(yaml: text, resolver: .basic).singleRoot() else {
                throw InputError(file: file, line: 1, message: "empty YAML document; expected a libinput-record file (version: 1, devices: …)")
            }
            return node
        } catch let error as InputError {
            throw error
        } catch let error as YamlError {
            throw inputError(error, file: file, text: text, lines: lines)
        } catch {
            throw InputError(file: file, line: 1, message: "cannot read the YAML: \(error)")
        }
    }

    /// Yams' error, as one line with the position it gives.
    /// `lines` is the file's line count: libyaml puts the end of a file that does not end with a
    /// line break on the line after its last, which the message must not name.
    static func inputError(_ error: YamlError, file: String, text: String, lines: Int) -> InputError {
        func located(_ mark: Mark, _ context: YamlError.Context?, _ problem: String) -> InputError {
            // libyaml words some problems as the end of a sentence its context begins ("but found …").
            let problem = problem.hasPrefix("but ") ? String(problem.dropFirst(4)) : problem
            var message = "malformed YAML: \(problem)"
            if let context { message += " (\(context.text) at line \(min(context.mark.line, lines)), column \(context.mark.column))" }
            if mark.line > lines { return InputError(file: file, line: lines, message: message + " at the end of the file") }
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

    /// Whether `key` is `expected` with a different case or at most two letters changed, added,
    /// removed or swapped (and is not so short that anything would match).
    static func looksLikeMisspelling(_ key: String, of expected: String) -> Bool {
        let a = Array(key.lowercased().utf8), b = Array(expected.lowercased().utf8)
        guard a != Array(expected.utf8) else { return false }
        if a == b { return true }
        guard b.count >= 4, abs(a.count - b.count) <= 2 else { return false }
        // Optimal string alignment distance (Damerau–Levenshtein without repeated edits).
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count] <= 2
    }

    /// How many frames read ahead the reader met (a class: the reader's walk is not mutating).
    /// Each tag is met once: YAMLPrecheck refuses aliases, the only way to meet one twice.
    final class FramesRead {
        var count = 0
    }

    /// Walks the node tree; every check names the node's position and path.
    struct Reader {
        let file: String
        /// The original file, for the positions of events read ahead.
        var bytes: [UInt8] = []
        /// The frames `LibinputRecordFrames` read ahead, by the number in their tag.
        var frames: [[LibinputRecordFrames.Event]] = []
        /// How many of them the document's tags named: all of them, or the pre-pass took
        /// something else for frames.
        let framesRead = FramesRead()
        /// The file's line count: an empty value at the end of a file without a final line
        /// break is marked on the line after the last (`---` alone), which must not be named.
        var lines = Int.max

        func fail(_ node: Node?, _ path: String, _ message: String) -> InputError {
            if let line = node?.mark?.line, line > lines {
                return InputError(file: file, line: lines, path: path, message: message + " at the end of the file")
            }
            return InputError(file: file, line: node?.mark?.line, column: node?.mark?.column, path: path, message: message)
        }

        func recording(_ root: Node) throws(InputError) -> Recording {
            let top = try mapping(root, "")
            guard let versionNode = top["version"] else {
                throw fail(root, "", "missing \"version\"; a libinput-record file starts with \"version: \(supportedVersion)\"")
            }
            let version = try integer(versionNode, "version", in: Int64.min...Int64.max, what: "a version")
            guard version == Int64(supportedVersion) else {
                throw fail(versionNode, "version", "unsupported libinput-record version \(version); switchscan reads version \(supportedVersion)")
            }
            guard let devicesNode = top["devices"] else {
                throw fail(root, "", "missing \"devices\": the list of recorded devices")
            }
            let devices = try sequence(devicesNode, "devices")
            guard !devices.isEmpty else { throw fail(devicesNode, "devices", "expected at least one device, found an empty list") }
            try checkKeys(top, path: "", node: root, used: ["version", "ndevices", "devices"], known: ["libinput", "system"])
            if let n = top["ndevices"] {
                let count = try integer(n, "ndevices", in: 0...Int64(Int32.max), what: "a number of devices")
                guard count == Int64(devices.count) else {
                    throw fail(n, "ndevices", "says \(count) device\(count == 1 ? "" : "s"), but devices lists \(devices.count); a file cut short or edited by hand?")
                }
            }
            var result: [Recording.Device] = []
            for (i, deviceNode) in devices.enumerated() {
                result.append(try device(deviceNode, "devices[\(i)]"))
            }
            return Recording(devices: result)
        }

        func device(_ node: Node, _ path: String) throws(InputError) -> Recording.Device {
            let fields = try mapping(node, path)
            try checkKeys(fields, path: path, node: node, used: ["evdev", "events"], known: ["node", "hid", "udev", "quirks"])
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
            try checkKeys(fields, path: path, node: node, used: ["name", "id", "codes", "absinfo", "properties"], known: [])
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
            for (k, n) in id.enumerated() { ids.append(UInt16(try integer(n, path + ".id[\(k)]", in: 0...0xffff, what: "an id"))) }

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
                        n.append(Int32(try integer(v, codePath + "[\(k)]", in: Int64(Int32.min)...Int64(Int32.max), what: "an axis value")))
                    }
                    let info = DeviceDescription.AbsInfo(minimum: n[0], maximum: n[1], fuzz: n[2], flat: n[3], resolution: n[4])
                    if let problem = EvemuFormat.rangeProblem(code: code, info) { throw fail(valuesNode, codePath, problem) }
                    absInfo[code] = info
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
                if case .scalar(let s) = evdevNode, s.tag.rawValue == LibinputRecordFrames.tag {
                    // A frame read ahead: its events and their positions come from the pre-pass.
                    guard let n = Int(s.string), self.frames.indices.contains(n) else {
                        throw fail(evdevNode, "\(path)[\(f)].evdev", "unexpected \(LibinputRecordFrames.tag) tag")
                    }
                    framesRead.count += 1
                    for (k, e) in self.frames[n].enumerated() {
                        try append(e.numbers, to: &events,
                                   at: { i in (e.line, LibinputRecordFrames.column(of: i, in: e, bytes: bytes)) },
                                   path: { i in "\(path)[\(f)].evdev[\(k)]" + (i.map { "[\($0)]" } ?? "") })
                    }
                    continue
                }
                guard case .sequence(let list) = evdevNode else {
                    throw fail(evdevNode, "\(path)[\(f)].evdev", "expected a list of [sec, usec, type, code, value], found \(describe(evdevNode))")
                }
                for (k, eventNode) in list.enumerated() {
                    guard case .sequence(let v) = eventNode, v.count == 5 else {
                        throw fail(eventNode, "\(path)[\(f)].evdev[\(k)]", "expected [sec, usec, type, code, value], found \(describe(eventNode))")
                    }
                    // Paths are built only for an error: this loop runs once per event.
                    func at(_ n: Int?) -> String { "\(path)[\(f)].evdev[\(k)]" + (n.map { "[\($0)]" } ?? "") }
                    let numbers = (try integer(v[0], at(0), what: "seconds"), try integer(v[1], at(1), what: "microseconds"),
                                   try integer(v[2], at(2), what: "an event type"), try integer(v[3], at(3), what: "an event code"),
                                   try integer(v[4], at(4), what: "an event value"))
                    try append(numbers, to: &events, at: { i in
                        let node = i.map { v[$0] } ?? eventNode
                        return (node.mark?.line, node.mark?.column)
                    }, path: at)
                }
            }
            return events
        }

        /// One event, range-checked and in time order, whichever way it was read. `at` and `path`
        /// locate number i of the event, or the whole event for nil.
        func append(_ n: (Int64, Int64, Int64, Int64, Int64), to events: inout [TimedEvent],
                    at: (Int?) -> (line: Int?, column: Int?), path: (Int?) -> String) throws(InputError) {
            func check(_ v: Int64, _ i: Int, _ range: ClosedRange<Int64>, _ what: String) throws(InputError) {
                guard range.contains(v) else {
                    let p = at(i)
                    throw InputError(file: file, line: p.line, column: p.column, path: path(i),
                                     message: "\(v) is out of range for \(what) (\(range.lowerBound)…\(range.upperBound))")
                }
            }
            try check(n.0, 0, 0...EvemuFormat.maximumSeconds, "seconds")
            try check(n.1, 1, 0...999_999, "microseconds")
            try check(n.2, 2, 0...Int64(EvemuFormat.typeCount - 1), "an event type")
            try check(n.3, 3, 0...Int64(EvemuFormat.maximumCode), "an event code")
            try check(n.4, 4, Int64(Int32.min)...Int64(Int32.max), "an event value")
            let time = Instant(microseconds: n.0 * 1_000_000 + n.1)
            if let last = events.last, time < last.time {
                let p = at(nil)
                throw InputError(file: file, line: p.line, column: p.column, path: path(nil),
                                 message: "time \(EvemuFormat.timeString(time)) goes backwards (the event before is at \(EvemuFormat.timeString(last.time)))")
            }
            events.append(TimedEvent(time: time, event: InputEvent(type: UInt16(n.2), code: UInt16(n.3), value: Int32(n.4))))
        }

        /// Keys this reader does not read are ignored, as libinput-replay ignores them (later
        /// libinput versions add some), except one that looks like a misspelling of a key it reads
        /// and that is missing: `evnets:` would otherwise replay a recording of nothing.
        func checkKeys(_ fields: Fields, path: String, node: Node, used: [String], known: [String]) throws(InputError) {
            for (keyNode, _) in fields.pairs {
                guard let key = keyNode.scalar?.string, !used.contains(key), !known.contains(key) else { continue }
                for expected in used where fields[expected] == nil && LibinputRecordFormat.looksLikeMisspelling(key, of: expected) {
                    throw fail(keyNode, path.isEmpty ? key : path + "." + key,
                               "unknown key \"\(key)\"; did you mean \"\(expected)\"? (a libinput-record \(path.isEmpty ? "file" : "entry") has \(used.map { "\"\($0)\"" }.joined(separator: ", ")))")
                }
            }
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

        /// Any integer; the caller checks its range.
        func integer(_ node: Node, _ path: @autoclosure () -> String, what: String) throws(InputError) -> Int64 {
            try integer(node, path(), in: Int64.min...Int64.max, what: what)
        }

        func integer(_ node: Node, _ path: @autoclosure () -> String, in range: ClosedRange<Int64>, what: String) throws(InputError) -> Int64 {
            guard case .scalar(let s) = node, let v = RecordingText.decimal(s.string, in: Int64.min...Int64.max) else {
                throw fail(node, path(), "expected \(what) (a decimal integer), found \(describe(node))")
            }
            guard range.contains(v) else {
                throw fail(node, path(), "\(v) is out of range for \(what) (\(range.lowerBound)…\(range.upperBound))")
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
