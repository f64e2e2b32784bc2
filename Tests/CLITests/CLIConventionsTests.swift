import Foundation
import Testing

/// The command-line conventions of libinput's tools (issue 13, part 6): usage errors are one
/// `switchscan: error:` line and status 2; `--version`; `-` is standard input or output; pipes,
/// FIFOs and /dev/stdin are read like files.
@Suite("command-line conventions")
struct CLIConventionsTests {
    static let tree = CLI.demoTree
    static var treeBytes: Data { FileManager.default.contents(atPath: CLI.packageRoot.appendingPathComponent(tree).path)! }

    /// Every kind of usage error swift-argument-parser reports, in several commands.
    static let usageErrors: [(args: [String], message: String)] = [
        (["tree", "show", "--bogus", "x"], "switchscan: error: Unknown option '--bogus' (see 'switchscan tree show --help')"),
        (["tree", "show"], "switchscan: error: give a tree file or --desktop (see 'switchscan tree show --help')"),
        (["simulate", "--tree", tree, "--events", "x", "--format", "xml"],
         "switchscan: error: The value 'xml' is invalid for '--format <format>'. Please provide one of 'text' and 'jsonl'. (see 'switchscan simulate --help')"),
        (["record", "--until=-1", "/dev/input/event0"],
         "switchscan: error: --until must be a number of seconds between 0 and 31536000 (see 'switchscan record --help')"),
        (["record"], "switchscan: error: name the device(s) to record (see `switchscan devices`) (see 'switchscan record --help')"),
        (["frobnicate"], "switchscan: error: Unexpected argument 'frobnicate' (see 'switchscan --help')"),
        (["profiles", "show", "a", "b"], "switchscan: error: Unexpected argument 'b' (see 'switchscan profiles show --help')"),
    ]

    @Test(arguments: usageErrors.indices)
    func aUsageErrorIsOneLineAndStatusTwo(_ k: Int) throws {
        let (args, message) = Self.usageErrors[k]
        let r = try CLI.run(args)
        #expect(r.status == 2)
        #expect(r.stderr == message + "\n")
        #expect(r.stdout.isEmpty)
    }

    @Test func versionAndHelpGoToStandardOutputWithStatusZero() throws {
        let v = try CLI.run(["--version"])
        #expect(v.status == 0)
        #expect(v.lines.count == 1)
        #expect(v.lines.first?.split(separator: ".").count == 3)
        #expect(v.stderr.isEmpty)
        // The one version everywhere (subcommands too).
        #expect(try CLI.run(["tree", "show", "--version"]).stdout == v.stdout)
        let h = try CLI.run(["profiles", "--help"])
        #expect(h.status == 0)
        #expect(h.stdout.contains("USAGE: switchscan profiles"))
    }

    @Test func dashReadsStandardInput() throws {
        let fromFile = try CLI.run(["tree", "show", Self.tree])
        let fromDash = try CLI.run(["tree", "show", "-"], stdin: Self.treeBytes)
        #expect(fromDash.status == 0)
        #expect(fromDash.stdout == fromFile.stdout)
        // /dev/stdin is a pipe here: it was "cannot be read (permission denied?)" before.
        let fromDevStdin = try CLI.run(["tree", "show", "/dev/stdin"], stdin: Self.treeBytes)
        #expect(fromDevStdin.status == 0, "\(fromDevStdin.stderr)")
        #expect(fromDevStdin.stdout == fromFile.stdout)
    }

    @Test func errorsInStandardInputAreNamedStdin() throws {
        let r = try CLI.run(["tree", "show", "-"], stdin: Data("{\"root\": {\"lable\": 1}}".utf8))
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("switchscan: error: <stdin>:1:20: root.lable: unknown key \"lable\""))
    }

    @Test func standardInputIsReadOnce() throws {
        let r = try CLI.run(["simulate", "--tree", "-", "--profile", "-", "--events", "x"], stdin: Self.treeBytes)
        #expect(r.status == 2)
        #expect(r.stderr == "switchscan: error: <stdin>: standard input (-) can be read only once per command\n")
    }

    @Test func aFIFOIsReadLikeAFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("switchscan-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("tree.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let bytes = Self.treeBytes
        // The writer blocks until switchscan opens the FIFO for reading.
        Thread.detachNewThread {
            if let h = FileHandle(forWritingAtPath: fifo) {
                h.write(bytes)
                try? h.close()
            }
        }
        let r = try CLI.run(["tree", "show", fifo])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == (try CLI.run(["tree", "show", Self.tree])).stdout)
    }

    @Test func treeImportWritesStandardOutputForDash() throws {
        let toStdout = try CLI.run(["tree", "import", Self.tree])
        let toDash = try CLI.run(["tree", "import", Self.tree, "-o", "-"])
        #expect(toDash.status == 0)
        #expect(toDash.stdout == toStdout.stdout)
        #expect(toDash.stderr.isEmpty)
        let bad = try CLI.run(["tree", "import", Self.tree, "-o", FileManager.default.temporaryDirectory.path])
        #expect(bad.status == 2)
        #expect(bad.stderr == "switchscan: error: \(FileManager.default.temporaryDirectory.path): cannot be written: Is a directory\n")
    }

    @Test func aDirectoryOrAMissingFileIsOneClearLine() throws {
        let dir = try CLI.run(["tree", "show", "/tmp"])
        #expect(dir.status == 2)
        #expect(dir.stderr == "switchscan: error: /tmp: is a directory, expected a file\n")
        let missing = try CLI.run(["tree", "show", "/nonexistent/tree.json"])
        #expect(missing.stderr == "switchscan: error: /nonexistent/tree.json: no such file\n")
    }
}
