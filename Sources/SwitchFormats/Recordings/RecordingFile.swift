import SwitchCore

/// Reads any recording switchscan accepts, choosing the format by content, not by file name:
/// the one entry point `simulate` uses.
public enum RecordingFile {
    public enum Format: String, Sendable {
        /// evemu-record text (`N:`, `I:`, `B:`, `E:` lines): one device, described or not.
        case evemu
        /// `libinput record` YAML: one or more described devices.
        case libinputRecord = "libinput-record"
    }

    /// What the first line that is neither blank nor a `#` comment says.
    public enum Detection: Equatable, Sendable {
        case format(Format)
        /// Nothing but blank lines and comments.
        case empty
        /// Neither format; the line that decided it.
        case unknown(line: Int)
    }

    /// Looks at the first meaningful line: an evemu tag (`N:`, `E:`, … a capital letter and a
    /// colon) means evemu; a YAML key (`version:`), a document marker (`---`, `%YAML`), a flow
    /// mapping (`{`) or a list item (`- `) means libinput-record.
    public static func detect(_ bytes: [UInt8]) -> Detection {
        for line in RecordingText.Lines(bytes) {
            var r = RecordingText.trimmed(bytes, line.range)
            // A UTF-8 byte order mark before the first line.
            if line.number == 1, r.count >= 3, bytes[r.lowerBound] == 0xEF, bytes[r.lowerBound + 1] == 0xBB, bytes[r.lowerBound + 2] == 0xBF {
                r = RecordingText.trimmed(bytes, (r.lowerBound + 3)..<r.upperBound)
            }
            if r.isEmpty || bytes[r.lowerBound] == RecordingText.hash { continue }
            let first = bytes[r.lowerBound]
            if r.count >= 2, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z"), bytes[r.lowerBound + 1] == RecordingText.colon,
               r.count == 2 || RecordingText.isBlank(bytes[r.lowerBound + 2]) {
                return .format(.evemu)
            }
            // "{" a flow mapping, "%YAML", "---" a document, "- " a list (wrong for libinput-record,
            // but the YAML reader says why).
            let dash = first == RecordingText.minus && (r.count == 1 || RecordingText.isBlank(bytes[r.lowerBound + 1]))
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "%") || bytes[r].starts(with: Array("---".utf8)) || dash {
                return .format(.libinputRecord)
            }
            // A YAML key: a word of two or more letters, digits, '_' or '-', then ':'.
            var i = r.lowerBound
            while i < r.upperBound, isKeyByte(bytes[i]) { i += 1 }
            if i - r.lowerBound >= 2, i < r.upperBound, bytes[i] == RecordingText.colon {
                return .format(.libinputRecord)
            }
            return .unknown(line: line.number)
        }
        return .empty
    }

    private static func isKeyByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39) || b == 0x5f || b == 0x2d
    }

    /// Reads one recording file: evemu (a described device, an events-only file, or both) or
    /// libinput-record. An empty file (or one with only comments) is a recording of nothing: an
    /// events file may hold no events at all, and the simulation then shows scanning on its own.
    /// Anything else that is not a recording is an error, one line naming the file and line.
    public static func decode(_ bytes: [UInt8], file: String) throws(InputError) -> Recording {
        switch detect(bytes) {
        case .format(.evemu):
            let parsed = try EvemuFormat.parseDetailed(bytes, file: file)
            return Recording(devices: [parsed.device])
        case .format(.libinputRecord):
            return try LibinputRecordFormat.parse(bytes, file: file)
        case .empty:
            return Recording(devices: [Recording.Device(description: nil, events: [])])
        case .unknown(let line):
            let excerpt = RecordingText.Lines(bytes).first(where: { $0.number == line })
                .map { RecordingText.excerpt(bytes, RecordingText.trimmed(bytes, $0.range)) } ?? ""
            throw InputError(file: file, line: line, message:
                "not a recording switchscan reads: expected evemu lines (\"N: <name>\", \"E: <sec>.<usec> <type> <code> <value>\") or a libinput-record YAML (\"version: 1\"), found \"\(excerpt)\"")
        }
    }

    /// An events-only evemu file (older evemu wrote `NAME.events` next to `NAME.desc`) with the
    /// description-only file that describes its device. An events file with no events at all is
    /// fine (the recording then holds the device and nothing happens). An events file that
    /// describes its device too is accepted when that description is the same as the `.desc`'s;
    /// a different one, a description file that also holds events, or a libinput-record file is
    /// an error.
    public static func decode(events: (bytes: [UInt8], file: String),
                              description: (bytes: [UInt8], file: String)) throws(InputError) -> Recording {
        let deviceDescription = try self.description(description.bytes, file: description.file)

        // The events.
        var eventList: [TimedEvent] = []
        var cutAtLine: Int?
        switch detect(events.bytes) {
        case .empty:
            break
        case .format(.evemu):
            let parsed = try EvemuFormat.parseDetailed(events.bytes, file: events.file)
            try checkOwnDescription(parsed.device.description, nameLine: parsed.nameLine, file: events.file,
                                    against: deviceDescription, from: description.file)
            eventList = parsed.device.events
            cutAtLine = parsed.device.cutAtLine
        case .format(.libinputRecord):
            throw InputError(file: events.file, line: 1, message: "a libinput-record file describes its own devices; decode it alone, without \(description.file)")
        case .unknown(let line):
            throw InputError(file: events.file, line: line, message: "not an evemu events file (expected \"E: <sec>.<usec> <type> <code> <value>\" lines)")
        }
        return Recording(devices: [Recording.Device(description: deviceDescription, events: eventList, cutAtLine: cutAtLine)])
    }

    /// A description-only evemu file (`.desc`): its device. A file that also holds events, a
    /// libinput-record file or anything else is an error.
    public static func description(_ bytes: [UInt8], file: String) throws(InputError) -> DeviceDescription {
        let description = (bytes: bytes, file: file)
        switch detect(description.bytes) {
        case .format(.evemu):
            break
        case .format(.libinputRecord):
            throw InputError(file: description.file, line: 1, message: "a libinput-record file describes its own devices; decode it alone, without an events file")
        case .empty:
            throw InputError(file: description.file, line: 1, message: "no device description (expected N:, I:, B: lines)")
        case .unknown(let line):
            throw InputError(file: description.file, line: line, message: "not an evemu device description (expected N:, I:, B: lines)")
        }
        let desc = try EvemuFormat.parseDetailed(description.bytes, file: description.file)
        guard let deviceDescription = desc.device.description else {
            throw InputError(file: description.file, line: desc.firstEventLine ?? 1, message: "no device description (expected N:, I:, B: lines)")
        }
        if let line = desc.firstEventLine {
            throw InputError(file: description.file, line: line, message:
                "this description file also holds \(desc.device.events.count) events; decode it alone or pass a description-only file")
        }
        return deviceDescription
    }

    /// A single-file recording may come with its .desc (evemu-devices keeps both): fine when both
    /// describe the same device, a mix-up otherwise.
    public static func checkOwnDescription(_ own: DeviceDescription?, nameLine: Int?, file: String,
                                           against deviceDescription: DeviceDescription, from descriptionFile: String) throws(InputError) {
        if let own, own != deviceDescription, let line = nameLine {
            throw InputError(file: file, line: line, message:
                "this file describes its own device (\"\(own.name)\"), not the one in \(descriptionFile) (\"\(deviceDescription.name)\"); decode it alone")
        }
    }
}
