/// A strict RFC 8259 parser producing `JSONNode`s with byte offsets. Errors carry the line and
/// column of the offending character.
public enum JSONParser {
    public struct SyntaxError: Error, Sendable {
        public var offset: Int
        public var message: String
    }

    /// Parses a whole document; trailing non-space characters are an error.
    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONNode {
        try bytes.withUnsafeBufferPointer { (buf) throws(SyntaxError) -> JSONNode in
            var p = Parser(buf: buf)
            // A UTF-8 byte-order mark (Windows editors write one) is skipped, as RFC 8259 allows.
            if buf.count >= 3, buf[0] == 0xEF, buf[1] == 0xBB, buf[2] == 0xBF { p.i = 3 }
            p.skipSpace()
            let node = try p.parseValue(depth: 0)
            p.skipSpace()
            if p.i < buf.count { throw p.error("unexpected \(p.describe(p.i)) after the end of the JSON value") }
            return node
        }
    }

    /// Parses a file's bytes and turns a syntax error into an `InputError` naming the file,
    /// line and column.
    public static func parse(_ bytes: [UInt8], file: String) throws(InputError) -> JSONNode {
        do {
            return try parse(bytes)
        } catch {
            let (line, column) = SourceLines(bytes).location(of: error.offset)
            throw InputError(file: file, line: line, column: column, message: "invalid JSON: \(error.message)")
        }
    }

    /// How JSON writes a control character inside a string: `\n`, `\t`, `\u0000`.
    static func escape(_ c: UInt8) -> String {
        switch c {
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        default:
            let hex = String(c, radix: 16, uppercase: true)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }

    private struct Parser {
        let buf: UnsafeBufferPointer<UInt8>
        var i = 0

        func error(_ message: String) -> SyntaxError { SyntaxError(offset: min(i, buf.count), message: message) }

        func describe(_ at: Int) -> String {
            guard at < buf.count else { return "end of file" }
            let c = buf[at]
            if c >= 0x20 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
            return "byte 0x" + String(c, radix: 16)
        }

        mutating func skipSpace() {
            while i < buf.count {
                switch buf[i] {
                case 0x20, 0x0A, 0x0D, 0x09: i += 1
                default: return
                }
            }
        }

        mutating func parseValue(depth: Int) throws(SyntaxError) -> JSONNode {
            guard depth < 512 else { throw error("nesting deeper than 512 levels") }
            guard i < buf.count else { throw error("expected a value, found end of file") }
            let start = i
            switch buf[i] {
            case UInt8(ascii: "{"):
                i += 1
                var members: [(key: String, value: JSONNode)] = []
                skipSpace()
                if i < buf.count && buf[i] == UInt8(ascii: "}") { i += 1; return JSONNode(.object(members), offset: start) }
                while true {
                    skipSpace()
                    guard i < buf.count, buf[i] == UInt8(ascii: "\"") else {
                        throw error("expected a string key, found \(describe(i))")
                    }
                    let key = try parseString()
                    skipSpace()
                    guard i < buf.count, buf[i] == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\", found \(describe(i))") }
                    i += 1
                    skipSpace()
                    let v = try parseValue(depth: depth + 1)
                    members.append((key, v))
                    skipSpace()
                    guard i < buf.count else { throw error("expected ',' or '}', found end of file") }
                    if buf[i] == UInt8(ascii: ",") { i += 1; continue }
                    if buf[i] == UInt8(ascii: "}") { i += 1; return JSONNode(.object(members), offset: start) }
                    throw error("expected ',' or '}', found \(describe(i))")
                }
            case UInt8(ascii: "["):
                i += 1
                var elements: [JSONNode] = []
                skipSpace()
                if i < buf.count && buf[i] == UInt8(ascii: "]") { i += 1; return JSONNode(.array(elements), offset: start) }
                while true {
                    skipSpace()
                    elements.append(try parseValue(depth: depth + 1))
                    skipSpace()
                    guard i < buf.count else { throw error("expected ',' or ']', found end of file") }
                    if buf[i] == UInt8(ascii: ",") { i += 1; continue }
                    if buf[i] == UInt8(ascii: "]") { i += 1; return JSONNode(.array(elements), offset: start) }
                    throw error("expected ',' or ']', found \(describe(i))")
                }
            case UInt8(ascii: "\""):
                return JSONNode(.string(try parseString()), offset: start)
            case UInt8(ascii: "t"):
                try literal("true"); return JSONNode(.bool(true), offset: start)
            case UInt8(ascii: "f"):
                try literal("false"); return JSONNode(.bool(false), offset: start)
            case UInt8(ascii: "n"):
                try literal("null"); return JSONNode(.null, offset: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return JSONNode(.number(try parseNumber()), offset: start)
            default:
                throw error("expected a value, found \(describe(i))")
            }
        }

        mutating func literal(_ word: StaticString) throws(SyntaxError) {
            let n = word.utf8CodeUnitCount
            let w = word.utf8Start
            guard i + n <= buf.count else { throw error("expected '\(word)'") }
            for k in 0..<n where buf[i + k] != w[k] {
                i += k
                throw error("expected '\(word)', found \(describe(i))")
            }
            i += n
        }

        mutating func parseNumber() throws(SyntaxError) -> Double {
            let start = i
            if buf[i] == UInt8(ascii: "-") { i += 1 }
            guard i < buf.count, isDigit(buf[i]) else { throw error("expected a digit, found \(describe(i))") }
            if buf[i] == UInt8(ascii: "0") {
                i += 1
                if i < buf.count, isDigit(buf[i]) { throw error("leading zeros are not allowed in numbers") }
            } else {
                while i < buf.count, isDigit(buf[i]) { i += 1 }
            }
            var simple = true
            if i < buf.count, buf[i] == UInt8(ascii: ".") {
                simple = false
                i += 1
                guard i < buf.count, isDigit(buf[i]) else { throw error("expected a digit after '.', found \(describe(i))") }
                while i < buf.count, isDigit(buf[i]) { i += 1 }
            }
            if i < buf.count, buf[i] == UInt8(ascii: "e") || buf[i] == UInt8(ascii: "E") {
                simple = false
                i += 1
                if i < buf.count, buf[i] == UInt8(ascii: "+") || buf[i] == UInt8(ascii: "-") { i += 1 }
                guard i < buf.count, isDigit(buf[i]) else { throw error("expected a digit in the exponent, found \(describe(i))") }
                while i < buf.count, isDigit(buf[i]) { i += 1 }
            }
            if simple && i - start <= 15 {
                // Fast path for plain integers: exact in a Double.
                var v: Int64 = 0
                var k = start
                let negative = buf[k] == UInt8(ascii: "-")
                if negative { k += 1 }
                while k < i { v = v * 10 + Int64(buf[k] - UInt8(ascii: "0")); k += 1 }
                return Double(negative ? -v : v)
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: buf[start..<i]), as: UTF8.self)
            guard let d = Double(text), d.isFinite else { i = start; throw error("number out of range") }
            return d
        }

        func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

        mutating func parseString() throws(SyntaxError) -> String {
            i += 1  // opening quote
            let start = i
            // Fast path: no escapes.
            while i < buf.count {
                let c = buf[i]
                if c == UInt8(ascii: "\"") {
                    let s = String(validating: UnsafeBufferPointer(rebasing: buf[start..<i]), as: UTF8.self)
                    guard let s else { throw error("string is not valid UTF-8") }
                    i += 1
                    return s
                }
                if c == UInt8(ascii: "\\") { break }
                if c < 0x20 { throw error("control character in string (escape it as \(JSONParser.escape(c)))") }
                i += 1
            }
            var bytes = Array(UnsafeBufferPointer(rebasing: buf[start..<i]))
            while i < buf.count {
                let c = buf[i]
                if c == UInt8(ascii: "\"") {
                    i += 1
                    guard let s = String(validating: bytes, as: UTF8.self) else { throw error("string is not valid UTF-8") }
                    return s
                }
                if c < 0x20 { throw error("control character in string (escape it as \(JSONParser.escape(c)))") }
                if c != UInt8(ascii: "\\") { bytes.append(c); i += 1; continue }
                i += 1
                guard i < buf.count else { break }
                let e = buf[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): bytes.append(0x22)
                case UInt8(ascii: "\\"): bytes.append(0x5C)
                case UInt8(ascii: "/"): bytes.append(0x2F)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard i + 1 < buf.count, buf[i] == UInt8(ascii: "\\"), buf[i + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired UTF-16 surrogate in \\u escape")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid UTF-16 surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw error("unpaired UTF-16 surrogate in \\u escape")
                    }
                    bytes.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
                default:
                    i -= 1
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
                }
            }
            throw error("unterminated string")
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard i + 4 <= buf.count else { throw error("expected 4 hex digits after \\u") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = buf[i]
                let d: UInt32
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
                default: throw error("expected a hex digit in \\u escape, found \(describe(i))")
                }
                v = v * 16 + d
                i += 1
            }
            return v
        }
    }
}
