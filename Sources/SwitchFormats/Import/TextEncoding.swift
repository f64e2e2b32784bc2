import SwitchCore

/// The encodings a tree file may come in. Every reader works on UTF-8; XML may also be UTF-16
/// (XML 1.0 requires readers to accept both), which is transcoded here. Other UTF-16 files are
/// named as such rather than reported as "not a tree file". A UTF-8 byte-order mark is skipped
/// by the readers themselves (`TreeFile.firstByte`, `JSONParser`).
enum TextEncoding {
    /// `bytes` as UTF-8: unchanged, or UTF-16 XML transcoded (lines keep their numbers; columns
    /// of errors count UTF-8 bytes).
    static func utf8(_ bytes: [UInt8], file: String) throws(InputError) -> [UInt8] {
        guard let bigEndian = utf16ByteOrder(bytes) else { return bytes }
        let hasMark = (bytes.first == 0xFF && bytes.dropFirst().first == 0xFE) || (bytes.first == 0xFE && bytes.dropFirst().first == 0xFF)
        let name = "UTF-16 (\(bigEndian ? "big" : "little")-endian\(hasMark ? ", with a byte-order mark" : ""))"
        guard bytes.count % 2 == 0 else {
            throw InputError(file: file, message: "looks like \(name) but has an odd number of bytes (\(bytes.count)); expected UTF-8, or UTF-16 XML")
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var k = hasMark ? 2 : 0
        while k + 1 < bytes.count {
            units.append(bigEndian ? UInt16(bytes[k]) << 8 | UInt16(bytes[k + 1]) : UInt16(bytes[k + 1]) << 8 | UInt16(bytes[k]))
            k += 2
        }
        var out: [UInt8] = []
        out.reserveCapacity(units.count)
        var decoder = UTF16()
        var iterator = units.makeIterator()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): UTF8.encode(scalar) { out.append($0) }
            case .emptyInput: break loop
            case .error:
                throw InputError(file: file, message: "is \(name) with an unpaired surrogate (not valid UTF-16)")
            }
        }
        guard TreeFile.firstByte(out) == UInt8(ascii: "<") else {
            throw InputError(file: file, message: "is \(name); switchscan reads JSON and text dumps as UTF-8 (only XML may be UTF-16): convert it, e.g. iconv -f UTF-16 -t UTF-8")
        }
        return out
    }

    /// Whether `bytes` start as UTF-16 (true: big-endian), by a byte-order mark or, without one,
    /// by a `<` or `{` next to a zero byte (XML 1.0 appendix F); nil for anything else.
    static func utf16ByteOrder(_ bytes: [UInt8]) -> Bool? {
        guard bytes.count >= 2 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0xFE, 0xFF): return true
        case (0xFF, 0xFE): return false
        case (0x00, 0x3C), (0x00, 0x7B), (0x00, 0x5B): return true
        case (0x3C, 0x00), (0x7B, 0x00), (0x5B, 0x00): return false
        default: return nil
        }
    }

    /// `bytes` with the CR of every CRLF removed (the same array when there is none).
    static func withoutCRLF(_ bytes: [UInt8]) -> [UInt8] {
        guard let first = bytes.indices.first(where: { bytes[$0] == 0x0D && $0 + 1 < bytes.count && bytes[$0 + 1] == 0x0A }) else { return bytes }
        var out = Array(bytes[..<first])
        out.reserveCapacity(bytes.count)
        var k = first
        while k < bytes.count {
            if !(bytes[k] == 0x0D && k + 1 < bytes.count && bytes[k + 1] == 0x0A) { out.append(bytes[k]) }
            k += 1
        }
        return out
    }
}
