/// A pre-pass that reads the event frames of a libinput-record file itself, because Yams builds
/// six nodes per event (a list and five numbers) and a million events then take several seconds.
///
/// It recognises exactly the layout `libinput record` writes:
///
/// ```
///   - evdev:                                      ← a bare "- evdev:" list item
///     - [  0,   9967,   3,  47,     1] # …        ← events: "- [" five integers "]", a comment
///     - [  0,   9967,   0,   0,     0] # …
///   - evdev:                                      ← the next frame (or less indented: the end)
/// ```
///
/// Such a frame becomes `- evdev: !switchscan-frame N` followed by as many empty lines as it had
/// events, so every other line keeps its number and columns and Yams still checks the rest of
/// the document; the reader takes frame N's events from `Frames`. Anything else (flow style,
/// other spacing, a bad number) is left for Yams, whose errors are then the usual ones. A file
/// that already mentions the tag is not rewritten at all.
enum LibinputRecordFrames {
    static let tag = "!switchscan-frame"

    /// One event line read by the pre-pass: its five numbers and where it is, for errors.
    struct Event {
        var numbers: (Int64, Int64, Int64, Int64, Int64)
        var line: Int
        /// Byte offset of the line's start in the original file.
        var lineStart: Int
    }

    struct Rewritten {
        var bytes: [UInt8]
        var frames: [[Event]]
    }

    /// The file with its canonical frames taken out, or nil when nothing was taken out.
    static func rewrite(_ bytes: [UInt8]) -> Rewritten? {
        let tagBytes = Array(tag.utf8)
        guard !contains(bytes, tagBytes) else { return nil }
        let lines = Array(RecordingText.Lines(bytes))
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var frames: [[Event]] = []
        var scratch: [Range<Int>] = []
        var i = 0
        while i < lines.count {
            let line = lines[i]
            if let keyColumn = evdevItem(bytes, line.range) {
                var run: [Event] = []
                var indent: Int?
                var j = i + 1
                while j < lines.count, let e = eventLine(bytes, lines[j].range, ranges: &scratch), e.indent >= keyColumn, indent == nil || indent == e.indent {
                    indent = e.indent
                    run.append(Event(numbers: e.numbers, line: lines[j].number, lineStart: lines[j].range.lowerBound))
                    j += 1
                }
                if let indent, endsCleanly(bytes, lines, from: j, eventIndent: indent, keyColumn: keyColumn) {
                    out += bytes[line.range]
                    out += Array(" \(tag) \(frames.count)\n".utf8)
                    out += [UInt8](repeating: RecordingText.newline, count: run.count)
                    frames.append(run)
                    i = j
                    continue
                }
            }
            out += bytes[line.range]
            out.append(RecordingText.newline)
            i += 1
        }
        return frames.isEmpty ? nil : Rewritten(bytes: out, frames: frames)
    }

    /// For a line that is exactly `<spaces>- evdev:` (trailing blanks allowed), the 0-based
    /// column of `evdev`.
    static func evdevItem(_ bytes: [UInt8], _ r: Range<Int>) -> Int? {
        var i = r.lowerBound
        while i < r.upperBound && bytes[i] == RecordingText.space { i += 1 }
        let dash = i
        let expected = Array("- evdev:".utf8)
        guard r.upperBound - i >= expected.count, bytes[i..<(i + expected.count)].elementsEqual(expected) else { return nil }
        i += expected.count
        while i < r.upperBound && RecordingText.isBlank(bytes[i]) { i += 1 }
        guard i == r.upperBound else { return nil }
        return dash - r.lowerBound + 2
    }

    /// `<spaces>- [a, b, c, d, e]` with optional spaces around the numbers and an optional
    /// `# comment` after a blank (with no YAML line break in it); the numbers are decimal, optionally signed. `ranges` receives
    /// where each number is (for error messages; pass the same array each time).
    static func eventLine(_ bytes: [UInt8], _ r: Range<Int>, ranges: inout [Range<Int>])
        -> (indent: Int, numbers: (Int64, Int64, Int64, Int64, Int64))? {
        ranges.removeAll(keepingCapacity: true)
        var i = r.lowerBound
        while i < r.upperBound && bytes[i] == RecordingText.space { i += 1 }
        let indent = i - r.lowerBound
        guard r.upperBound - i >= 3, bytes[i] == RecordingText.minus, bytes[i + 1] == RecordingText.space, bytes[i + 2] == UInt8(ascii: "[") else { return nil }
        i += 3
        var numbers: (Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0)
        for n in 0..<5 {
            while i < r.upperBound && bytes[i] == RecordingText.space { i += 1 }
            let start = i
            if i < r.upperBound && (bytes[i] == RecordingText.minus || bytes[i] == RecordingText.plus) { i += 1 }
            while i < r.upperBound && bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1 }
            guard let v = RecordingText.decimal(bytes, start..<i, in: Int64.min...Int64.max) else { return nil }
            switch n {
            case 0: numbers.0 = v
            case 1: numbers.1 = v
            case 2: numbers.2 = v
            case 3: numbers.3 = v
            default: numbers.4 = v
            }
            ranges.append(start..<i)
            while i < r.upperBound && bytes[i] == RecordingText.space { i += 1 }
            let separator = n < 4 ? UInt8(ascii: ",") : UInt8(ascii: "]")
            guard i < r.upperBound, bytes[i] == separator else { return nil }
            i += 1
        }
        if i < r.upperBound {
            guard RecordingText.isBlank(bytes[i]) else { return nil }
            while i < r.upperBound && RecordingText.isBlank(bytes[i]) { i += 1 }
            guard i == r.upperBound || bytes[i] == RecordingText.hash else { return nil }
            // YAML also ends a line at a lone CR, NEL, LS and PS: a comment holding one goes on
            // on a line of its own, which only Yams reads right.
            while i < r.upperBound {
                let b = bytes[i]
                if b == RecordingText.carriageReturn { return nil }
                if b == 0xC2, i + 1 < r.upperBound, bytes[i + 1] == 0x85 { return nil }
                if b == 0xE2, i + 2 < r.upperBound, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9 { return nil }
                i += 1
            }
        }
        return (indent, numbers)
    }

    /// True when the line after a run of events cannot belong to that list or to a deeper
    /// level: a malformed event or a continuation would then reach Yams without its list.
    static func endsCleanly(_ bytes: [UInt8], _ lines: [RecordingText.Line], from start: Int, eventIndent: Int, keyColumn: Int) -> Bool {
        for line in lines[start...] {
            let content = RecordingText.trimmed(bytes, line.range)
            if content.isEmpty || bytes[content.lowerBound] == RecordingText.hash { continue }
            var indent = 0
            while line.range.lowerBound + indent < line.range.upperBound && bytes[line.range.lowerBound + indent] == RecordingText.space { indent += 1 }
            // Shallower: the frame or the events list ends. Level with "evdev": a sibling key.
            return indent < keyColumn || (indent == keyColumn && indent == eventIndent && bytes[content.lowerBound] != RecordingText.minus)
        }
        return true
    }

    /// Where the event's n-th number is (1-based column), or its `[` when n is nil.
    static func column(of n: Int?, in event: Event, bytes: [UInt8]) -> Int {
        var end = event.lineStart
        while end < bytes.count && bytes[end] != RecordingText.newline { end += 1 }
        if end > event.lineStart && bytes[end - 1] == RecordingText.carriageReturn { end -= 1 }
        var ranges: [Range<Int>] = []
        guard let parsed = eventLine(bytes, event.lineStart..<end, ranges: &ranges) else { return 1 }
        guard let n, n < ranges.count else { return parsed.indent + 3 }
        return ranges[n].lowerBound - event.lineStart + 1
    }

    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        var i = 0
        while i <= bytes.count - needle.count {
            if bytes[i] == first && bytes[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
