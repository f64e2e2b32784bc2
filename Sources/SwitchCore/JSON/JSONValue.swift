/// A parsed JSON value that remembers where it came from, so every error about a tree, a profile
/// or a devtools dump can name the line and column as well as the JSON path. (Foundation's
/// JSONSerialization on Linux reports only a character offset and reads `true` as the number 1.)
public struct JSONNode: Sendable {
    public enum Value: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONNode])
        /// Keys in document order; duplicates are kept as written.
        case object([(key: String, value: JSONNode)])
    }

    public var value: Value
    /// Byte offset of the value's first character in the source.
    public var offset: Int

    public init(_ value: Value, offset: Int = 0) {
        self.value = value
        self.offset = offset
    }

    /// "a string", "an array"… for "expected X, found Y" messages.
    public var kindDescription: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    public subscript(key: String) -> JSONNode? {
        if case .object(let members) = value {
            return members.first(where: { $0.key == key })?.value
        }
        return nil
    }
}

/// Line and column (both 1-based, columns in bytes) for byte offsets of one source text.
public struct SourceLines: Sendable {
    private let lineStarts: [Int]

    public init(_ bytes: some Collection<UInt8>) {
        var starts = [0]
        var i = 0
        for b in bytes {
            i += 1
            if b == 0x0A { starts.append(i) }
        }
        lineStarts = starts
    }

    public func location(of offset: Int) -> (line: Int, column: Int) {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return (lo + 1, offset - lineStarts[lo] + 1)
    }
}
