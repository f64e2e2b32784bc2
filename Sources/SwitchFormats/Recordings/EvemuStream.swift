import SwitchCore

/// An evemu recording read in pieces (`simulate` reads 1 MB at a time), so a recording of any
/// length takes the same small memory: the pieces can split a line anywhere; each complete line
/// goes through the same `EvemuParser` as a whole file does, with the same line numbers and the
/// same errors.
public struct EvemuStream {
    /// A line longer than this is an error (an evemu line is under 100 bytes; a name under 256).
    public static let maximumLineLength = EvemuParser.maximumLineLength

    private var parser: EvemuParser
    /// The bytes after the last line break seen so far.
    private var pending: [UInt8] = []
    private var lineNumber = 0

    public init(file: String) { parser = EvemuParser(file: file) }

    /// The description once the first event has been read (nil for an events-only file).
    public var description: DeviceDescription? { parser.description }
    public var nameLine: Int? { parser.nameLine }
    public var firstEventLine: Int? { parser.firstEventLine }
    /// The number of lines read so far.
    public var lines: Int { lineNumber }
    /// The file ends inside this line: no line break after it, and it does not read (the
    /// recording was cut short there); left out.
    public private(set) var cutAtLine: Int?

    /// Reads the next piece of the file; returns the events of the lines it completes.
    public mutating func feed(_ chunk: [UInt8]) throws(InputError) -> [TimedEvent] {
        var events: [TimedEvent] = []
        guard let lastBreak = chunk.lastIndex(of: RecordingText.newline) else {
            pending += chunk
            try checkPendingLength()
            return events
        }
        let bytes = pending + chunk[...lastBreak]
        pending = Array(chunk[(lastBreak + 1)...])
        var start = 0
        while start < bytes.count {
            var end = start
            while bytes[end] != RecordingText.newline { end += 1 }
            if let e = try take(bytes, start..<end) { events.append(e) }
            start = end + 1
        }
        try checkPendingLength()
        return events
    }

    /// The last line (when the file does not end with a line break) and the end-of-file checks.
    public mutating func finish() throws(InputError) -> [TimedEvent] {
        var events: [TimedEvent] = []
        if !pending.isEmpty {
            let bytes = pending
            pending = []
            do {
                if let e = try take(bytes, 0..<bytes.count) { events.append(e) }
            } catch {
                // Cut short (as `EvemuFormat.parseDetailed` decides: not the only line, no lone CR).
                guard lineNumber > 1, !bytes.contains(RecordingText.carriageReturn) else { throw error }
                cutAtLine = lineNumber
            }
        }
        _ = try parser.finish()
        return events
    }

    private mutating func take(_ bytes: [UInt8], _ line: Range<Int>) throws(InputError) -> TimedEvent? {
        lineNumber += 1
        var end = line.upperBound
        if end > line.lowerBound && bytes[end - 1] == RecordingText.carriageReturn { end -= 1 }
        return try parser.take(bytes, line.lowerBound..<end, line: lineNumber)
    }

    private func checkPendingLength() throws(InputError) {
        if pending.count > Self.maximumLineLength + 1 {  // + 1: the `\r` of a `\r\n`
            throw EvemuParser.lineTooLong(file: parser.file, line: lineNumber + 1)
        }
    }
}
