import SwitchCore

/// Byte-level reading shared by the recording parsers. Fields are read straight from the file's
/// bytes (no `String` per line or per field), so parsing stays linear and a million-event file
/// takes about a second in a release build.
enum RecordingText {
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let hash: UInt8 = 0x23
    static let colon: UInt8 = 0x3A
    static let dot: UInt8 = 0x2E
    static let minus: UInt8 = 0x2D
    static let plus: UInt8 = 0x2B

    /// One line of a file: its 1-based number and its byte range, without the `\n` and without
    /// a trailing `\r` (files written on Windows).
    struct Line {
        var number: Int
        var range: Range<Int>
    }

    /// The lines of `bytes`, in order. A last line without `\n` is still a line; an empty file has
    /// no lines.
    struct Lines: Sequence, IteratorProtocol {
        let bytes: [UInt8]
        var start = 0
        var number = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func next() -> Line? {
            guard start < bytes.count else { return nil }
            var end = start
            while end < bytes.count && bytes[end] != RecordingText.newline { end += 1 }
            number += 1
            var contentEnd = end
            if contentEnd > start && bytes[contentEnd - 1] == RecordingText.carriageReturn { contentEnd -= 1 }
            let line = Line(number: number, range: start..<contentEnd)
            start = end + 1
            return line
        }
    }

    static func isBlank(_ b: UInt8) -> Bool { b == space || b == tab }

    /// The range without leading and trailing spaces and tabs.
    static func trimmed(_ bytes: [UInt8], _ r: Range<Int>) -> Range<Int> {
        var lo = r.lowerBound
        var hi = r.upperBound
        while lo < hi && isBlank(bytes[lo]) { lo += 1 }
        while hi > lo && isBlank(bytes[hi - 1]) { hi -= 1 }
        return lo..<hi
    }

    /// Splits `r` at spaces and tabs into `fields` (reused to avoid an allocation per line).
    static func splitFields(_ bytes: [UInt8], _ r: Range<Int>, into fields: inout [Range<Int>]) {
        fields.removeAll(keepingCapacity: true)
        var i = r.lowerBound
        while i < r.upperBound {
            while i < r.upperBound && isBlank(bytes[i]) { i += 1 }
            guard i < r.upperBound else { break }
            let fieldStart = i
            while i < r.upperBound && !isBlank(bytes[i]) { i += 1 }
            fields.append(fieldStart..<i)
        }
    }

    /// Unsigned hexadecimal digits only (no `0x`, no sign), at most `maximum`. Leading zeros are
    /// fine ("0001", as evemu writes codes).
    static func hex(_ bytes: [UInt8], _ r: Range<Int>, maximum: UInt32) -> UInt32? {
        guard !r.isEmpty else { return nil }
        var value: UInt64 = 0
        for i in r {
            let b = bytes[i]
            let digit: UInt64
            switch b {
            case 0x30...0x39: digit = UInt64(b - 0x30)
            case 0x61...0x66: digit = UInt64(b - 0x61 + 10)
            case 0x41...0x46: digit = UInt64(b - 0x41 + 10)
            default: return nil
            }
            value = value << 4 | digit
            // Checked at every digit, so the UInt64 never overflows.
            guard value <= UInt64(maximum) else { return nil }
        }
        return UInt32(value)
    }

    /// A decimal integer with an optional sign, within `range`.
    static func decimal(_ bytes: [UInt8], _ r: Range<Int>, in range: ClosedRange<Int64>) -> Int64? {
        bytes.withUnsafeBufferPointer { decimal(UnsafeBufferPointer(rebasing: $0[r]), in: range) }
    }

    /// The same for a YAML scalar's text (read in place: no copy per number).
    static func decimal(_ text: String, in range: ClosedRange<Int64>) -> Int64? {
        if let value = text.utf8.withContiguousStorageIfAvailable({ decimal($0, in: range) }) { return value }
        return Array(text.utf8).withUnsafeBufferPointer { decimal($0, in: range) }
    }

    private static func decimal(_ digits: UnsafeBufferPointer<UInt8>, in range: ClosedRange<Int64>) -> Int64? {
        var i = 0
        var negative = false
        if i < digits.count && (digits[i] == minus || digits[i] == plus) {
            negative = digits[i] == minus
            i += 1
        }
        guard i < digits.count else { return nil }
        var magnitude: Int64 = 0
        while i < digits.count {
            let b = digits[i]
            guard b >= 0x30 && b <= 0x39 else { return nil }
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int64(b - 0x30))
            guard !o1 && !o2 else { return nil }
            magnitude = sum
            i += 1
        }
        let value = negative ? -magnitude : magnitude
        return range.contains(value) ? value : nil
    }

    /// At most `limit` characters of the bytes in `r`, for error messages: invalid UTF-8 and
    /// control characters (a lone `\r`, a NUL) show as U+FFFD, so the message stays one line.
    static func excerpt(_ bytes: [UInt8], _ r: Range<Int>, limit: Int = 40) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in String(decoding: bytes[r], as: UTF8.self).unicodeScalars {
            scalars.append(scalar.value < 0x20 && scalar != "\t" || scalar.value == 0x7f ? "\u{FFFD}" : scalar)
        }
        let s = String(scalars)
        return s.count > limit ? String(s.prefix(limit)) + "…" : s
    }

    /// The byte offset of the first byte that is not valid UTF-8, or nil when all of it is.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? { UTF8Check.firstInvalid(bytes[...]) }

    /// The first character YAML does not allow anywhere, not even in a comment (YAML 1.1
    /// c-printable: tab, line feed, carriage return, U+0020–U+007E, U+0085, U+00A0–U+D7FF,
    /// U+E000–U+FFFD, U+10000 and above), as its byte offset and the character; nil when there is
    /// none. `bytes` must be valid UTF-8.
    static func firstNonPrintableYAML(_ bytes: [UInt8]) -> (offset: Int, scalar: Unicode.Scalar)? {
        var offset = 0
        for u in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            let v = u.value
            let allowed = v == 0x09 || v == 0x0A || v == 0x0D || (0x20...0x7E).contains(v) || v == 0x85
                || (0xA0...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v) || v >= 0x10000
            if !allowed { return (offset, u) }
            offset += UTF8.width(u)
        }
        return nil
    }

    /// The number of lines as YAML counts them: it also breaks lines at a lone carriage return,
    /// NEL (U+0085) and the Unicode line and paragraph separators.
    static func yamlLineCount(_ bytes: [UInt8]) -> Int {
        var n = 1
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case newline: n += 1
            case carriageReturn where i + 1 >= bytes.count || bytes[i + 1] != newline: n += 1
            case 0xC2 where i + 1 < bytes.count && bytes[i + 1] == 0x85: n += 1
            case 0xE2 where i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9): n += 1
            default: break
            }
            i += 1
        }
        return n
    }

    /// 1-based line and column (in bytes) of a byte offset.
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == newline {
            line += 1
            lineStart = i + 1
        }
        return (line, offset - lineStart + 1)
    }
}
