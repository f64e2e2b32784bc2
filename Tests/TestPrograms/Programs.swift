import Foundation
import Testing

/// The programs and package files the tests use, and the Debian package each comes from
/// (`scripts/apt/programs.txt`, which `scripts/packages/suite-packages.sh` holds to what the tests
/// call and to what `scripts/setup.sh --tests` installs). A test that needs one missing here fails
/// with "missing: PROGRAM (Debian package P)": never a wrong value from a program that could not
/// start, never a skip (issue 32: on a fresh machine a skip hid the terminal test, and a missing
/// xclip read as an empty clipboard).
public enum Programs {
    /// The checkout (this file is Tests/TestPrograms/Programs.swift).
    public static let repoRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    public static let tablePath = repoRoot + "/scripts/apt/programs.txt"

    /// Program (or file) → its package, from the table.
    public static let table: [String: String] = parse((try? String(contentsOfFile: tablePath, encoding: .utf8)) ?? "")

    /// The table's `PROGRAM PACKAGE` rows (`vm FILE` rows and comments left out).
    public static func parse(_ text: String) -> [String: String] {
        var rows: [String: String] = [:]
        for raw in text.split(separator: "\n") {
            let words = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0].split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count == 2, words[0] != "vm" else { continue }
            rows[String(words[0])] = String(words[1])
        }
        return rows
    }

    /// The folders a program named without a path is looked for in (Debian's, as the table's check
    /// does: not ~/.pyenv or /usr/local).
    static let pathFolders = ["/usr/bin", "/bin", "/usr/sbin", "/sbin"]

    /// How the table keys a program: by name when it lives in a PATH folder, else the whole path.
    public static func key(_ program: String) -> String {
        guard program.hasPrefix("/") else { return program }
        let url = URL(fileURLWithPath: program)
        return pathFolders.contains(url.deletingLastPathComponent().path) ? url.lastPathComponent : program
    }

    /// Whether the program (or package file) is here.
    public static func isPresent(_ program: String) -> Bool {
        let fm = FileManager.default
        if program.hasPrefix("/usr/share/") || program.hasPrefix("/usr/include/") { return fm.fileExists(atPath: program) }
        if program.hasPrefix("/") {
            var dir: ObjCBool = false
            return fm.isExecutableFile(atPath: program) || (fm.fileExists(atPath: program, isDirectory: &dir) && dir.boolValue)
        }
        return pathFolders.contains { fm.isExecutableFile(atPath: $0 + "/" + program) }
    }

    /// "missing: PROGRAM (Debian package P)".
    public static func message(_ program: String, table: [String: String] = Programs.table) -> String {
        let k = key(program)
        if table[k] == nil && program.contains("/.build/") { return "missing: \(program) (built by this project: swift build --build-tests)" }
        switch table[k] {
        case nil: return "missing: \(k) (no Debian package for it in scripts/apt/programs.txt)"
        case "switchscan": return "missing: \(k) (built by this project: swift build)"
        case "swift": return "missing: \(k) (the Swift toolchain)"
        case let p?: return "missing: \(k) (Debian package \(p))"
        }
    }

    /// The messages of the programs missing here, in order; empty when all are here.
    public static func missing(_ programs: [String], table: [String: String] = Programs.table,
                               present: (String) -> Bool = Programs.isPresent) -> [String] {
        programs.filter { !present($0) }.map { message($0, table: table) }
    }

    /// A program (or several) a test cannot do without.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// Throws `Missing` naming every absent program and its package (`try` it first in a test).
    public static func require(_ programs: String...) throws {
        try require(programs)
    }

    public static func require(_ programs: [String]) throws {
        let m = missing(programs)
        if !m.isEmpty { throw Missing(description: m.joined(separator: "; ")) }
    }

    /// Python modules through Debian's /usr/bin/python3, each with the package that has it
    /// (`("import pyatspi", "python3-pyatspi")`): "missing: the Python module of `import pyatspi`
    /// (Debian package python3-pyatspi)" for each that does not import. Answers are kept.
    public static func requirePython(_ modules: [(code: String, package: String)]) throws {
        try require("/usr/bin/python3")
        var why: [String] = []
        for m in modules {
            let ok = python.withLock { cache in
                if let known = cache[m.code] { return known }
                let p = Process()
                p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
                p.arguments = ["-c", m.code]
                p.standardOutput = FileHandle.nullDevice
                p.standardError = FileHandle.nullDevice
                p.standardInput = FileHandle.nullDevice
                let ran = (try? p.run()) != nil
                if ran { p.waitUntilExit() }
                let ok = ran && p.terminationStatus == 0
                cache[m.code] = ok
                return ok
            }
            if !ok { why.append("missing: the Python module of `\(m.code)` (Debian package \(m.package))") }
        }
        if !why.isEmpty { throw Missing(description: why.joined(separator: "; ")) }
    }

    private static let python = Locked<[String: Bool]>([:])
}

/// A value behind a lock (the tests run in parallel).
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// `@Suite(.needs(…))` / `@Test(.needs(…))`: each test first checks that its programs (and Python
/// modules) are here, and fails with "missing: PROGRAM (Debian package P)" when one is not,
/// instead of being skipped (`.enabled(if:)` hid a test on a fresh machine: issue 32).
public struct NeedsPrograms: SuiteTrait, TestTrait, TestScoping {
    public var programs: [String]
    public var python: [(code: String, package: String)]

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> NeedsPrograms? {
        testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try Programs.require(programs)
        if !python.isEmpty { try Programs.requirePython(python) }
        try await function()
    }
}

extension Trait where Self == NeedsPrograms {
    public static func needs(_ programs: [String], python: [(code: String, package: String)] = []) -> Self {
        NeedsPrograms(programs: programs, python: python)
    }
}
