/// A problem with something a user gave us (a tree, a profile, a recording, an option).
/// It says where (file, line and column, or a JSON path) and what was expected, in one line,
/// so the command can print it and exit with status 2.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    /// A JSON path such as `root.children[2].frame`, or an XML element path.
    public var path: String?
    public var message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, path: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    /// `tree.json:14:12: root.children[2].frame: expected an array of 4 numbers, found a string`
    ///
    /// Always one printable line: a control character quoted from the input (a key with `\n` or
    /// `\u0000` escaped in JSON, a NUL in a dump) is written as an escape, never as itself.
    public var description: String {
        var s = file
        if let line {
            s += ":\(line)"
            if let column { s += ":\(column)" }
        }
        s += ": "
        if let path, !path.isEmpty { s += "\(path): " }
        s += message
        return InputError.printable(s)
    }

    /// `s` with control characters and line separators escaped (`TerminalText.line`).
    public static func printable(_ s: String) -> String { TerminalText.line(s) }
}
