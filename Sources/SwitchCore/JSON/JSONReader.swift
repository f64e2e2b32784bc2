/// Typed access to a parsed JSON document for the strict formats (trees, profiles): every
/// failure is an `InputError` with the file, line, column and JSON path, and objects are checked
/// against the keys they may have, so a typo is an error that names the key. Paths are
/// autoclosures: they are only spelled out when there is an error to report.
public struct JSONReader: Sendable {
    public let file: String
    private let lines: SourceLines

    public init(file: String, bytes: [UInt8]) {
        self.file = file
        self.lines = SourceLines(bytes)
    }

    public func error(_ node: JSONNode, _ path: @autoclosure () -> String, _ message: String) -> InputError {
        let (line, column) = lines.location(of: node.offset)
        return InputError(file: file, line: line, column: column, path: path(), message: message)
    }

    /// The members of an object, rejecting keys outside `allowed` and repeated keys.
    public func object(_ node: JSONNode, _ path: @autoclosure () -> String, allowed: Set<String>) throws(InputError) -> [String: JSONNode] {
        guard case .object(let members) = node.value else {
            throw error(node, path(), "expected an object, found \(node.kindDescription)")
        }
        var result: [String: JSONNode] = [:]
        result.reserveCapacity(members.count)
        for (key, value) in members {
            guard allowed.contains(key) else {
                let list = allowed.sorted().joined(separator: ", ")
                throw error(value, join(path(), key), "unknown key \"\(key)\" (expected one of: \(list))")
            }
            guard result[key] == nil else { throw error(value, join(path(), key), "key \"\(key)\" appears twice") }
            result[key] = value
        }
        return result
    }

    public func string(_ node: JSONNode, _ path: @autoclosure () -> String) throws(InputError) -> String {
        guard case .string(let s) = node.value else { throw error(node, path(), "expected a string, found \(node.kindDescription)") }
        return s
    }

    public func bool(_ node: JSONNode, _ path: @autoclosure () -> String) throws(InputError) -> Bool {
        guard case .bool(let b) = node.value else { throw error(node, path(), "expected true or false, found \(node.kindDescription)") }
        return b
    }

    public func number(_ node: JSONNode, _ path: @autoclosure () -> String) throws(InputError) -> Double {
        guard case .number(let d) = node.value else { throw error(node, path(), "expected a number, found \(node.kindDescription)") }
        return d
    }

    /// A number within `range`; the message names the range.
    public func number(_ node: JSONNode, _ path: @autoclosure () -> String, in range: ClosedRange<Double>) throws(InputError) -> Double {
        let d = try number(node, path())
        guard range.contains(d) else {
            throw error(node, path(), "\(formatNumber(d)) is out of range (expected \(formatRange(range)))")
        }
        return d
    }

    public func integer(_ node: JSONNode, _ path: @autoclosure () -> String, in range: ClosedRange<Int>) throws(InputError) -> Int {
        let d = try number(node, path())
        guard d.rounded() == d, d >= Double(range.lowerBound), d <= Double(range.upperBound) else {
            throw error(node, path(), "\(formatNumber(d)) is not a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return Int(d)
    }

    public func array(_ node: JSONNode, _ path: @autoclosure () -> String) throws(InputError) -> [JSONNode] {
        guard case .array(let a) = node.value else { throw error(node, path(), "expected an array, found \(node.kindDescription)") }
        return a
    }

    /// One of a fixed set of strings, e.g. `"style": "auto"`.
    public func choice<T>(_ node: JSONNode, _ path: @autoclosure () -> String, _ options: KeyValuePairs<String, T>) throws(InputError) -> T {
        let s = try string(node, path())
        if let match = options.first(where: { $0.key == s }) { return match.value }
        let list = options.map { "\"\($0.key)\"" }.joined(separator: ", ")
        throw error(node, path(), "\(TerminalText.quoted(TerminalText.shortened(s))) is not one of \(list)")
    }

    public func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }
    public func join(_ path: String, _ index: Int) -> String { path + "[\(index)]" }
}

/// Numbers as people write them: "390", "0.5", "-12.25" (no trailing ".0"); binary noise such
/// as 0.30000000000000004 or 50.00000000000001 is trimmed to the shortest decimal within 1e-9.
public func formatNumber(_ d: Double) -> String {
    guard d.isFinite else { return d.isNaN ? "0" : (d > 0 ? "1e308" : "-1e308") }
    if d.rounded() == d && abs(d) < 1e15 { return String(Int64(d)) }
    for digits in 1...9 {
        let scale = pow10(digits)
        let r = (d * scale).rounded() / scale
        if abs(r - d) < 1e-9 * max(1, abs(d)) {
            return r.rounded() == r && abs(r) < 1e15 ? String(Int64(r)) : String(r)
        }
    }
    return String(d)
}

/// `d` with exactly `digits` decimals, as reports and tables print it: "2.730", "11.18", "-0.50"
/// (no locale, no exponent; a value that rounds to zero has no minus sign).
public func formatFixed(_ d: Double, _ digits: Int) -> String {
    let scale = pow10(digits)
    var s = formatNumber((d * scale).rounded() / scale + 0.0)
    if digits > 0 {
        if !s.contains(".") { s += "." }
        let decimals = s.count - 1 - (s.firstIndex(of: ".").map { s.distance(from: s.startIndex, to: $0) } ?? 0)
        s += String(repeating: "0", count: max(0, digits - decimals))
    }
    return s
}

/// "0.1…60": a setting's range as the messages write it.
public func formatRange(_ r: ClosedRange<Double>) -> String {
    "\(formatNumber(r.lowerBound))…\(formatNumber(r.upperBound))"
}

private func pow10(_ n: Int) -> Double {
    var v = 1.0
    for _ in 0..<n { v *= 10 }
    return v
}
