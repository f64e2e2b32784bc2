/// `text stats`' phrase file (docs/typing.md): one phrase a line, as clinicians keep them, from
/// any system. Lines end at `\n` or `\r\n` (a file saved on Windows); a UTF-8 byte order mark is
/// skipped; blank lines are skipped; spaces and tabs between words count as one space.
///
/// The file must be UTF-8 text: a byte that is not UTF-8 (a Latin-1 `é`, 0xE9) is an error naming
/// its line and column, and so is a NUL byte (a binary file) or a UTF-16 byte order mark, so
/// random bytes are refused, never measured as phrases of replacement characters.
public enum PhraseFile {
    public struct Phrase: Sendable, Equatable {
        /// 1-based line number in the file.
        public var line: Int
        public var text: String

        public init(line: Int, text: String) {
            self.line = line
            self.text = text
        }
    }

    /// The phrases of `bytes` (`file` names it in errors); an empty list when every line is blank.
    public static func phrases(_ bytes: [UInt8], file: String) throws(InputError) -> [Phrase] {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw InputError(file: file, line: 1, column: 1, message: "UTF-16 text (it starts with a UTF-16 byte order mark); a phrase file is UTF-8: save it as UTF-8")
        }
        var out: [Phrase] = []
        var line = 0
        while start <= bytes.count {
            line += 1
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var content = end
            if content > start && bytes[content - 1] == 0x0D { content -= 1 }  // CRLF
            let raw = bytes[start..<content]
            // Whichever comes first: a byte that is not UTF-8, or a NUL (a binary file).
            let bad = UTF8Check.firstInvalid(raw), nul = raw.firstIndex(of: 0)
            if let bad, bad < (nul ?? content) {
                throw InputError(file: file, line: line, column: bad - start + 1,
                                 message: "not UTF-8 (byte 0x\(hex(bytes[bad]))): a phrase file is UTF-8 text; save it as UTF-8 (from Latin-1: iconv -f latin1 -t utf-8)")
            }
            if let nul {
                throw InputError(file: file, line: line, column: nul - start + 1, message: "a NUL byte: this is a binary file, not text (a phrase file is UTF-8 text, one phrase a line)")
            }
            let text = String(decoding: raw, as: UTF8.self)
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if !words.isEmpty { out.append(Phrase(line: line, text: words.joined(separator: " "))) }
            if end == bytes.count { break }
            start = end + 1
        }
        return out
    }

    private static func hex(_ b: UInt8) -> String {
        let s = String(b, radix: 16, uppercase: true)
        return s.count == 1 ? "0" + s : s
    }
}
