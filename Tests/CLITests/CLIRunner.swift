import Foundation
import Testing

/// Runs the built `switchscan` executable (next to the test bundle in .build/<config>/) and
/// captures what a user would see: stdout, stderr and the exit status.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

enum CLI {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `switchscan` under test: the one built beside the tests, or `SWITCHSCAN_CLI` (to run
    /// the same tests against an older build and see them fail before a fix).
    static var executable: String {
        if let other = ProcessInfo.processInfo.environment["SWITCHSCAN_CLI"], !other.isEmpty { return other }
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir.appendingPathComponent("switchscan"), dir.deletingLastPathComponent().appendingPathComponent("switchscan")] {
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
        }
        return packageRoot.appendingPathComponent(".build/debug/switchscan").path
    }

    /// `environment` entries are added to (or, with an empty value, removed from) the test's own;
    /// `stdin` is written to the child's standard input (else it reads /dev/null); `wrapper` is a
    /// command that runs it (`setpriv --reuid=65534 …`).
    static func run(_ arguments: [String], cwd: URL? = nil, environment: [String: String] = [:], stdin: Data? = nil,
                    wrapper: [String] = []) throws -> CLIResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: wrapper.first ?? executable)
        p.arguments = wrapper.isEmpty ? arguments : Array(wrapper.dropFirst()) + [executable] + arguments
        p.currentDirectoryURL = cwd ?? packageRoot
        if !environment.isEmpty {
            var env = ProcessInfo.processInfo.environment
            for (k, v) in environment { env[k] = v.isEmpty ? nil : v }
            p.environment = env
        }
        let input = Pipe()
        p.standardInput = stdin == nil ? FileHandle.nullDevice : input
        // stderr goes to a file so that a chatty child can never block on a full pipe.
        let errPath = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-cli-\(UUID().uuidString).err")
        FileManager.default.createFile(atPath: errPath.path, contents: nil)
        let errHandle = try FileHandle(forWritingTo: errPath)
        defer { try? FileManager.default.removeItem(at: errPath) }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = errHandle
        try p.run()
        if let stdin {
            // Written from another thread: a child that prints before reading must not block us.
            let writer = input.fileHandleForWriting
            Thread.detachNewThread {
                writer.write(stdin)
                try? writer.close()
            }
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        try errHandle.close()
        let errData = FileManager.default.contents(atPath: errPath.path) ?? Data()
        return CLIResult(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A scratch file with `contents`, removed by the caller's test when it ends (temp dir).
    static func tempFile(_ name: String, _ contents: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-cli-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try contents.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static let demoTree = "Sources/switchscan/Demo/demo-tree.json"
}
