import SwitchCore

/// A small, strict XML 1.0 reader over UTF-8 bytes, written for the tree importers.
///
/// Why not Foundation's `XMLParser`: on Linux it builds a `String` and a `[String: String]` for
/// every element through libxml2's SAX callbacks, and reports errors without a column. The
/// importers need neither: they read a handful of attributes per element and skip the rest, so this
/// reader hands them byte ranges and decodes only what they ask for (`swift run -c release
/// switchscan-bench import` measures both; see `ImportBenchmark.swift`).
///
/// Supported: elements, attributes in `"` or `'`, the five predefined entities and character
/// references (`&amp;` `&#10;` `&#x1F600;`), attribute-value normalisation (a literal tab or line
/// break in an attribute becomes a space, a `&#10;` stays a line break), comments, CDATA sections,
/// processing instructions (the XML declaration among them) and a DOCTYPE with its internal subset
/// (skipped). Not supported: entities declared in a DTD, namespaces (a prefix is part of the
/// name), encodings other than UTF-8. Text content is checked but not delivered: no importer
/// reads it. Every error is one `InputError` with the line and column (in bytes) of the offending
/// character.
enum XMLScanner {
    /// Reads the whole document, calling `handler` for every start and end tag in order.
    static func scan<H: XMLHandler>(_ bytes: [UInt8], file: String, into handler: inout H) throws(InputError) {
        try bytes.withUnsafeBufferPointer { (buf) throws(InputError) in
            var scanner = Scanner(buf: buf, file: file)
            try scanner.run(&handler)
        }
    }

    /// An `InputError` at a byte offset of `bytes` (line and column computed on demand: errors are rare).
    static func error(_ bytes: UnsafeBufferPointer<UInt8>, file: String, at offset: Int, _ message: String) -> InputError {
        let (line, column) = SourceLines(bytes).location(of: min(offset, bytes.count))
        return InputError(file: file, line: line, column: column, message: message)
    }

    fileprivate struct Scanner {
        let buf: UnsafeBufferPointer<UInt8>
        let file: String
        var i = 0
        var open: [(name: Range<Int>, offset: Int)] = []
        var attributes: [XMLAttribute] = []
        /// The attributes of the current tag by a hash of their name, once there are more than
        /// `linearAttributes` of them (32: an Android `<node>` has 17, and hashing them cost the
        /// 300,000-node dump 0.6 s): the duplicate check stays linear in the tag's size (one tag
        /// with 100,000 attributes took 11.5 s comparing each with all before it).
        var attributesByName: [Int: [Int]] = [:]
        static let linearAttributes = 32
        /// The previous start tag's attributes, whose names are all different (it passed the
        /// check). A name found among them at place j is a duplicate exactly when an earlier name
        /// of this tag was found there too (`usedPrevious`); only a name the previous tag did not
        /// have is compared with this tag's names. A dump writes its nodes' attributes in one
        /// order, mostly the same ones, so the check is about one comparison per attribute (17
        /// attributes compared with all before them cost the 300,000-node Android dump 0.2 s).
        var previousAttributes: [XMLAttribute] = []
        /// The places in `previousAttributes` (at most 64) whose names this tag has used.
        var usedPrevious: UInt64 = 0
        /// Where in `previousAttributes` the next name is looked for first.
        var nextPrevious = 0
        /// Start tags read so far (`XMLTag.serial`).
        var startTags = 0

        init(buf: UnsafeBufferPointer<UInt8>, file: String) {
            self.buf = buf
            self.file = file
        }

        func fail(_ message: String, at offset: Int? = nil) -> InputError {
            XMLScanner.error(buf, file: file, at: offset ?? i, "invalid XML: " + message)
        }

        /// "'x'", "byte 0xE3", "end of file" for messages.
        func describe(_ at: Int) -> String {
            guard at < buf.count else { return "end of file" }
            let c = buf[at]
            if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
            if c == 0x20 { return "a space" }
            if c == 0x0A { return "a line break" }
            return "byte 0x" + String(c, radix: 16, uppercase: true)
        }

        func text(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: buf[r]), as: UTF8.self) }

        func startsWith(_ s: StaticString, at k: Int) -> Bool {
            let n = s.utf8CodeUnitCount
            guard k + n <= buf.count else { return false }
            let p = s.utf8Start
            for j in 0..<n where buf[k + j] != p[j] { return false }
            return true
        }

        @inline(__always) static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D }

        /// Name characters as bit sets over ASCII 0–63 and 64–127 (one test per byte instead of
        /// six ranges): letters and `_` above, `:` below; names may also hold digits, `-` and `.`.
        static let nameHigh: UInt64 = 0x07FF_FFFE_87FF_FFFE
        static let nameStartLow: UInt64 = 1 << 0x3A
        static let nameCharLow: UInt64 = 0x07FF_6000_0000_0000

        @inline(__always) static func isNameStart(_ c: UInt8) -> Bool {
            c >= 0x80 || ((c < 64 ? nameStartLow >> c : nameHigh >> (c & 63)) & 1) != 0
        }

        @inline(__always) static func isNameChar(_ c: UInt8) -> Bool {
            c >= 0x80 || ((c < 64 ? nameCharLow >> c : nameHigh >> (c & 63)) & 1) != 0
        }

        @discardableResult
        mutating func skipSpace() -> Bool {
            let start = i
            while i < buf.count, Scanner.isSpace(buf[i]) { i += 1 }
            return i > start
        }

        mutating func name(_ what: String) throws(InputError) -> Range<Int> {
            let start = i
            guard i < buf.count, Scanner.isNameStart(buf[i]) else { throw fail("expected \(what), found \(describe(i))") }
            i += 1
            while i < buf.count, Scanner.isNameChar(buf[i]) { i += 1 }
            return start..<i
        }

        mutating func run<H: XMLHandler>(_ handler: inout H) throws(InputError) {
            if startsWith("\u{FEFF}", at: 0) { i = 3 }
            var sawRoot = false
            while i < buf.count {
                guard buf[i] == UInt8(ascii: "<") else {
                    try characterData(insideRoot: !open.isEmpty)
                    continue
                }
                let markup = i
                guard i + 1 < buf.count else { throw fail("unexpected end of file after '<'", at: i + 1) }
                switch buf[i + 1] {
                case UInt8(ascii: "?"):
                    try skip(past: "?>", from: i + 2, what: "processing instruction", opened: markup)
                case UInt8(ascii: "!"):
                    if startsWith("<!--", at: i) {
                        try skip(past: "-->", from: i + 4, what: "comment", opened: markup)
                    } else if startsWith("<![CDATA[", at: i) {
                        guard !open.isEmpty else { throw fail("CDATA section outside the root element") }
                        try skip(past: "]]>", from: i + 9, what: "CDATA section", opened: markup)
                    } else if startsWith("<!DOCTYPE", at: i) {
                        guard open.isEmpty && !sawRoot else { throw fail("DOCTYPE after the root element has started") }
                        try skipDoctype()
                    } else {
                        throw fail("expected a comment (<!--), CDATA (<![CDATA[) or <!DOCTYPE after '<!'")
                    }
                case UInt8(ascii: "/"):
                    i += 2
                    let n: Range<Int>
                    if let top = open.last, case let count = top.name.count, i + count < buf.count,
                       !Scanner.isNameChar(buf[i + count]), sameBytes(top.name.lowerBound, i, count: count) {
                        // The name of the open element (as `name` would read it): most closing tags.
                        n = i..<(i + count)
                        i += count
                    } else {
                        n = try name("an element name after '</'")
                    }
                    skipSpace()
                    guard i < buf.count, buf[i] == UInt8(ascii: ">") else { throw fail("expected '>' to end </\(text(n))>, found \(describe(i))") }
                    i += 1
                    guard let top = open.last else { throw fail("closing tag </\(text(n))> without an open element", at: markup) }
                    guard sameName(top.name, n) else {
                        let (line, column) = SourceLines(buf).location(of: top.offset)
                        throw fail("expected </\(text(top.name))> (opened at line \(line), column \(column)), found </\(text(n))>", at: markup)
                    }
                    open.removeLast()
                    try handler.endElement()
                default:
                    guard open.isEmpty == false || !sawRoot else { throw fail("a second root element <\(text(nameAfterLessThan()))>; a document has one", at: markup) }
                    sawRoot = true
                    i += 1
                    let n = try name("an element name after '<'")
                    let selfClosing = try startTagAttributes(elementName: n, opened: markup)
                    try handler.startElement(XMLTag(buf: buf, file: file, nameRange: n, offset: markup, attributes: attributes, serial: startTags))
                    startTags += 1
                    if selfClosing {
                        try handler.endElement()
                    } else {
                        open.append((n, markup))
                    }
                }
            }
            if let top = open.last {
                let (line, column) = SourceLines(buf).location(of: top.offset)
                throw fail("end of file inside <\(text(top.name))> (opened at line \(line), column \(column))", at: buf.count)
            }
            guard sawRoot else { throw fail("no root element", at: buf.count) }
        }

        func nameAfterLessThan() -> Range<Int> {
            var k = i + 1
            while k < buf.count, Scanner.isNameChar(buf[k]) { k += 1 }
            return (i + 1)..<k
        }

        /// Whether the `count` bytes at `a` and at `b` (both inside `buf`) are the same, compared
        /// a word at a time: names are compared for every attribute and closing tag of a dump.
        @inline(__always) func sameBytes(_ a: Int, _ b: Int, count: Int) -> Bool {
            guard count > 0, let base = buf.baseAddress else { return true }
            let p = UnsafeRawPointer(base)
            func word(_ at: Int) -> UInt64 { p.loadUnaligned(fromByteOffset: at, as: UInt64.self) }
            func half(_ at: Int) -> UInt32 { p.loadUnaligned(fromByteOffset: at, as: UInt32.self) }
            if count >= 8 {
                var k = 0
                while k &+ 8 <= count {
                    if word(a &+ k) != word(b &+ k) { return false }
                    k &+= 8
                }
                // The last eight bytes, overlapping those already compared.
                return word(a &+ count &- 8) == word(b &+ count &- 8)
            }
            if count >= 4 { return half(a) == half(b) && half(a &+ count &- 4) == half(b &+ count &- 4) }
            for k in 0..<count where buf[a &+ k] != buf[b &+ k] { return false }
            return true
        }

        /// Whether the names at `a` and `b` are the same bytes.
        @inline(__always) func sameName(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
            a.count == b.count && sameBytes(a.lowerBound, b.lowerBound, count: a.count)
        }

        /// Where the previous tag had the name `n`.
        func previousPlace(of n: Range<Int>) -> Int? {
            previousAttributes.indices.first { sameName(previousAttributes[$0].name, n) }
        }

        /// The length of the name at `i` when it is the previous tag's next name: the same bytes,
        /// followed by a byte that ends a name (so `name` would read the same range). nil
        /// otherwise, and `name` reads it.
        @inline(__always) func predictedNameLength() -> Int? {
            guard nextPrevious < previousAttributes.count else { return nil }
            let p = previousAttributes[nextPrevious].name
            let end = i + p.count
            guard end < buf.count, !Scanner.isNameChar(buf[end]), sameBytes(p.lowerBound, i, count: p.count) else { return nil }
            return p.count
        }

        /// Throws when the tag has an attribute named `n` already. `place`: where the previous
        /// tag had the same name, when already known. Returns where the previous tag had it
        /// (`XMLAttribute.previousPlace`), or -1.
        mutating func checkNewAttribute(_ n: Range<Int>, in elementName: Range<Int>, place: Int? = nil) throws(InputError) -> Int {
            if attributes.count < Self.linearAttributes && previousAttributes.count <= 64, let j = place ?? previousPlace(of: n) {
                let bit: UInt64 = 1 << UInt64(j)
                guard usedPrevious & bit == 0 else {
                    throw fail("attribute \(text(n)) appears twice in <\(text(elementName))>", at: n.lowerBound)
                }
                usedPrevious |= bit
                nextPrevious = j + 1
                return j
            }
            // Length and first byte first: this runs for every pair of a tag's attributes (a
            // dozen or more in a uiautomator dump), and most names differ in one or the other.
            func same(_ k: Int) -> Bool {
                let r = attributes[k].name
                return r.count == n.count && buf[r.lowerBound] == buf[n.lowerBound] && buf[r].elementsEqual(buf[n])
            }
            func hash(_ r: Range<Int>) -> Int {
                var h = Hasher()
                h.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buf[r])))
                return h.finalize()
            }
            if attributes.count < Self.linearAttributes {
                guard !attributes.indices.contains(where: same) else {
                    throw fail("attribute \(text(n)) appears twice in <\(text(elementName))>", at: n.lowerBound)
                }
                return -1
            }
            if attributesByName.isEmpty {
                for k in attributes.indices { attributesByName[hash(attributes[k].name), default: []].append(k) }
            }
            let h = hash(n)
            if let candidates = attributesByName[h], candidates.contains(where: same) {
                throw fail("attribute \(text(n)) appears twice in <\(text(elementName))>", at: n.lowerBound)
            }
            attributesByName[h, default: []].append(attributes.count)
            return -1
        }

        /// Attributes up to `>` or `/>`; returns true for `/>`. Fills `attributes`.
        mutating func startTagAttributes(elementName: Range<Int>, opened: Int) throws(InputError) -> Bool {
            // The last tag's attributes become `previousAttributes`; the array before them is reused.
            swap(&attributes, &previousAttributes)
            attributes.removeAll(keepingCapacity: true)
            usedPrevious = 0
            nextPrevious = 0
            if !attributesByName.isEmpty { attributesByName.removeAll() }
            while true {
                let spaced = skipSpace()
                guard i < buf.count else { throw fail("end of file inside the start tag <\(text(elementName))>") }
                switch buf[i] {
                case UInt8(ascii: ">"):
                    i += 1
                    return false
                case UInt8(ascii: "/"):
                    guard i + 1 < buf.count, buf[i + 1] == UInt8(ascii: ">") else { throw fail("expected '/>' to end <\(text(elementName))>, found \(describe(i + 1))", at: i + 1) }
                    i += 2
                    return true
                default:
                    guard spaced else { throw fail("expected a space, '>' or '/>' after \(attributes.isEmpty ? "the element name" : "an attribute value"), found \(describe(i))") }
                }
                let n: Range<Int>
                var place: Int?
                if let length = predictedNameLength() {
                    n = i..<(i + length)
                    i += length
                    place = nextPrevious
                } else {
                    n = try name("an attribute name, '>' or '/>'")
                }
                skipSpace()
                guard i < buf.count, buf[i] == UInt8(ascii: "=") else { throw fail("expected '=' after attribute \(text(n)), found \(describe(i))") }
                i += 1
                skipSpace()
                guard i < buf.count, buf[i] == UInt8(ascii: "\"") || buf[i] == UInt8(ascii: "'") else {
                    throw fail("expected a quoted value for attribute \(text(n)), found \(describe(i))")
                }
                let quote = buf[i]
                i += 1
                let start = i
                var plain = true
                let quoteWord = Scanner.everyByte(quote)
                while true {
                    // Eight bytes at a time, straight to the first that needs a look of its own.
                    if i &+ 8 <= buf.count {
                        let marks = Scanner.specialValueBytes(word(at: i), quote: quoteWord)
                        if marks == 0 {
                            i &+= 8
                            continue
                        }
                        i &+= marks.trailingZeroBitCount &>> 3
                    }
                    guard i < buf.count else { throw fail("end of file inside the value of attribute \(text(n))", at: start - 1) }
                    let c = buf[i]
                    if c == quote { break }
                    if c == UInt8(ascii: "&") {
                        _ = try reference()
                        plain = false
                        continue
                    }
                    if c == UInt8(ascii: "<") { throw fail("'<' inside the value of attribute \(text(n)) (write &lt;)") }
                    if c < 0x20 {
                        guard c == 0x09 || c == 0x0A || c == 0x0D else { throw fail("control character \(describe(i)) in the value of attribute \(text(n))") }
                        plain = false
                    }
                    i += 1
                }
                let value = start..<i
                i += 1
                let previousPlace = try checkNewAttribute(n, in: elementName, place: place)
                attributes.append(XMLAttribute(name: n, value: value, plain: plain, previousPlace: previousPlace))
            }
        }

        /// The eight bytes at `at` (which is at most `buf.count - 8`) as one number, the first
        /// byte lowest.
        @inline(__always) func word(at: Int) -> UInt64 {
            UInt64(littleEndian: UnsafeRawPointer(buf.baseAddress!).loadUnaligned(fromByteOffset: at, as: UInt64.self))
        }

        @inline(__always) static func everyByte(_ c: UInt8) -> UInt64 { UInt64(c) &* 0x0101_0101_0101_0101 }

        /// Has the top bit of a byte set where that byte of `w` is below `n` (n ≤ 128), and
        /// perhaps above it (a borrow), so it is exact only as "is some byte below n".
        @inline(__always) static func bytesBelow(_ w: UInt64, _ n: UInt8) -> UInt64 {
            (w &- everyByte(n)) & ~w
        }

        /// The top bit of every byte of `w` (read little-endian) that is the quote, `&`, `<` or a
        /// control character (what the value loop must look at), and perhaps of bytes after
        /// one: the lowest mark is always exact (a borrow only runs upwards), 0 when none is.
        @inline(__always) static func specialValueBytes(_ w: UInt64, quote: UInt64) -> UInt64 {
            let marks = bytesBelow(w ^ quote, 1) | bytesBelow(w ^ everyByte(UInt8(ascii: "&")), 1)
                | bytesBelow(w ^ everyByte(UInt8(ascii: "<")), 1) | bytesBelow(w, 0x20)
            return marks & everyByte(0x80)
        }

        /// Validates a reference at `i` (`&name;`, `&#n;`, `&#xh;`), moves past it, returns the scalar.
        mutating func reference() throws(InputError) -> Unicode.Scalar {
            let (scalar, end) = try XMLScanner.decodeReference(buf, at: i, file: file)
            i = end
            return scalar
        }

        /// Text between tags: only checked (references, control characters, nothing but space outside the root).
        mutating func characterData(insideRoot: Bool) throws(InputError) {
            while i < buf.count {
                let c = buf[i]
                if c == UInt8(ascii: "<") { return }
                if c == UInt8(ascii: "&") {
                    guard insideRoot else { throw fail("text outside the root element") }
                    _ = try reference()
                    continue
                }
                if Scanner.isSpace(c) { i += 1; continue }
                guard insideRoot else { throw fail("text outside the root element (found \(describe(i)))") }
                if c < 0x20 { throw fail("control character \(describe(i)) in text") }
                i += 1
            }
        }

        mutating func skip(past end: StaticString, from: Int, what: String, opened: Int) throws(InputError) {
            let first = end.utf8Start[0]
            var k = from
            while k < buf.count {
                if buf[k] == first && startsWith(end, at: k) {
                    i = k + end.utf8CodeUnitCount
                    return
                }
                k += 1
            }
            throw fail("end of file inside a \(what) (it started here and is never closed with \(end))", at: opened)
        }

        /// `<!DOCTYPE name … [ internal subset ]>`: skipped, quotes and the subset respected.
        mutating func skipDoctype() throws(InputError) {
            let opened = i
            i += 9
            var inSubset = false
            while i < buf.count {
                let c = buf[i]
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                    var k = i + 1
                    while k < buf.count, buf[k] != c { k += 1 }
                    guard k < buf.count else { break }
                    i = k + 1
                    continue
                }
                if inSubset, startsWith("<!--", at: i) {
                    try skip(past: "-->", from: i + 4, what: "comment", opened: i)
                    continue
                }
                if c == UInt8(ascii: "[") { inSubset = true }
                if c == UInt8(ascii: "]") { inSubset = false }
                if c == UInt8(ascii: ">") && !inSubset { i += 1; return }
                i += 1
            }
            throw fail("end of file inside <!DOCTYPE", at: opened)
        }
    }

    /// Decodes the reference starting at `start` (the '&'); returns the scalar and the offset after ';'.
    static func decodeReference(_ buf: UnsafeBufferPointer<UInt8>, at start: Int, file: String) throws(InputError) -> (Unicode.Scalar, Int) {
        func fail(_ message: String) -> InputError { error(buf, file: file, at: start, "invalid XML: " + message) }
        var k = start + 1
        var end = k
        while end < buf.count, end - k < 12, buf[end] != UInt8(ascii: ";") { end += 1 }
        guard end < buf.count, buf[end] == UInt8(ascii: ";") else {
            throw fail("'&' must start a reference such as &amp; or &#10; (write a literal '&' as &amp;)")
        }
        let body = UnsafeBufferPointer(rebasing: buf[k..<end])
        let after = end + 1
        if body.first == UInt8(ascii: "#") {
            k = 1
            var radix: UInt32 = 10
            if body.count > 1 && body[1] == UInt8(ascii: "x") { radix = 16; k = 2 }
            guard k < body.count else { throw fail("empty character reference") }
            var v: UInt32 = 0
            while k < body.count {
                let c = body[k]
                let d: UInt32
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: d = UInt32(c - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: d = UInt32(c - UInt8(ascii: "A") + 10)
                default: throw fail("bad digit in character reference &\(String(decoding: body, as: UTF8.self));")
                }
                v = v * radix + d
                guard v <= 0x10FFFF else { throw fail("character reference beyond U+10FFFF") }
                k += 1
            }
            let allowed = v == 0x09 || v == 0x0A || v == 0x0D || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v) || (0x10000...0x10FFFF).contains(v)
            guard allowed, let scalar = Unicode.Scalar(v) else {
                throw fail("character reference &\(String(decoding: body, as: UTF8.self)); is not a character XML allows")
            }
            return (scalar, after)
        }
        switch String(decoding: body, as: UTF8.self) {
        case "amp": return ("&", after)
        case "lt": return ("<", after)
        case "gt": return (">", after)
        case "quot": return ("\"", after)
        case "apos": return ("'", after)
        case let other: throw fail("unknown entity &\(other); (XML knows &amp; &lt; &gt; &quot; &apos; and &#…; references)")
        }
    }
}

/// Receives the elements of a document in order. Errors it throws stop the scan.
protocol XMLHandler {
    mutating func startElement(_ tag: XMLTag) throws(InputError)
    mutating func endElement() throws(InputError)
}

struct XMLAttribute {
    var name: Range<Int>
    /// Between the quotes, undecoded.
    var value: Range<Int>
    /// No references and no tab or line break to normalise: the bytes are the value.
    var plain: Bool
    /// Where the previous start tag (serial one less) had an attribute of the same name, or -1
    /// (not looked for, or none): a handler may reuse what it made of that name.
    var previousPlace: Int
}

/// A start tag, valid only during `startElement` (it points into the document's bytes).
struct XMLTag {
    let buf: UnsafeBufferPointer<UInt8>
    let file: String
    let nameRange: Range<Int>
    /// Byte offset of the '<'.
    let offset: Int
    let attributes: [XMLAttribute]
    /// This start tag's number in the document (0 for the root element).
    let serial: Int

    var name: String { String(decoding: UnsafeBufferPointer(rebasing: buf[nameRange]), as: UTF8.self) }

    func hasName(_ s: StaticString) -> Bool { equal(nameRange, s) }

    func name(of a: XMLAttribute) -> String { String(decoding: UnsafeBufferPointer(rebasing: buf[a.name]), as: UTF8.self) }

    func equal(_ r: Range<Int>, _ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard r.count == n else { return false }
        let p = s.utf8Start
        var k = 0
        while k < n {
            if buf[r.lowerBound + k] != p[k] { return false }
            k += 1
        }
        return true
    }

    /// The raw bytes of a plain value (nil when it needs decoding): numbers and flags parse from these.
    func plainBytes(_ a: XMLAttribute) -> UnsafeBufferPointer<UInt8>? {
        a.plain ? UnsafeBufferPointer(rebasing: buf[a.value]) : nil
    }

    /// The decoded value: references replaced, tabs and line breaks normalised to spaces.
    func string(_ a: XMLAttribute) throws(InputError) -> String {
        if a.plain {
            let bytes = UnsafeBufferPointer(rebasing: buf[a.value])
            // ASCII (most values) is valid UTF-8 as it stands.
            if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
            guard let s = String(validating: bytes, as: UTF8.self) else {
                throw error(at: a.value.lowerBound, "the value of attribute \(name(of: a)) is not valid UTF-8")
            }
            return s
        }
        var out: [UInt8] = []
        out.reserveCapacity(a.value.count)
        var k = a.value.lowerBound
        while k < a.value.upperBound {
            let c = buf[k]
            switch c {
            case UInt8(ascii: "&"):
                let (scalar, next) = try XMLScanner.decodeReference(buf, at: k, file: file)
                out.append(contentsOf: String(Character(scalar)).utf8)
                k = next
                continue
            case 0x0D:
                out.append(0x20)
                if k + 1 < a.value.upperBound && buf[k + 1] == 0x0A { k += 1 }
            case 0x0A, 0x09:
                out.append(0x20)
            default:
                out.append(c)
            }
            k += 1
        }
        guard let s = String(validating: out, as: UTF8.self) else {
            throw error(at: a.value.lowerBound, "the value of attribute \(name(of: a)) is not valid UTF-8")
        }
        return s
    }

    func error(at offset: Int, _ message: String) -> InputError {
        XMLScanner.error(buf, file: file, at: offset, message)
    }

    func error(_ a: XMLAttribute, _ message: String) -> InputError {
        error(at: a.name.lowerBound, "\(name(of: a))=\"…\" on <\(name)>: " + message)
    }
}

/// Attribute names an importer reads, matched on bytes (no `String` per attribute): most of a
/// dump's attributes are skipped, so a miss must be cheap (a length check, usually).
struct XMLNameTable<Key: Sendable>: Sendable {
    /// Every name's bytes, one after another, the names ordered by length.
    private let pool: [UInt8]
    /// (where the name starts in `pool`, its key), in the same order.
    private let entries: [(start: Int, key: Key)]
    /// The entries of names of length n are `entries[firstOfLength[n]..<firstOfLength[n + 1]]`.
    /// Flat arrays: an array per length, or per name, costs a retain and a release per lookup.
    private let firstOfLength: [Int]

    init(_ names: [(String, Key)]) {
        let sorted = names.map { (Array($0.0.utf8), $0.1) }.sorted { $0.0.count < $1.0.count }
        var pool: [UInt8] = []
        var entries: [(start: Int, key: Key)] = []
        var first: [Int] = [0]
        for (bytes, key) in sorted {
            while first.count <= bytes.count { first.append(entries.count) }
            entries.append((pool.count, key))
            pool.append(contentsOf: bytes)
        }
        first.append(entries.count)
        self.pool = pool
        self.entries = entries
        self.firstOfLength = first
    }

    func key(of a: XMLAttribute, in tag: XMLTag) -> Key? {
        let r = a.name
        let n = r.count
        guard n + 1 < firstOfLength.count else { return nil }
        for e in firstOfLength[n]..<firstOfLength[n + 1] {
            let start = entries[e].start
            var k = 0
            while k < n, tag.buf[r.lowerBound + k] == pool[start + k] { k += 1 }
            if k == n { return entries[e].key }
        }
        return nil
    }
}

/// Checks that bytes are well-formed XML as the importers read it, without importing anything:
/// for diagnostics and for the import benchmark (the scanner's share of an import).
public enum XMLCheck {
    /// The number of elements, or the first error with its line and column.
    public static func elementCount(_ bytes: [UInt8], file: String) throws(InputError) -> Int {
        var counter = Counter()
        try XMLScanner.scan(bytes, file: file, into: &counter)
        return counter.count
    }

    private struct Counter: XMLHandler {
        var count = 0
        mutating func startElement(_ tag: XMLTag) throws(InputError) { count += 1 }
        mutating func endElement() throws(InputError) {}
    }
}
