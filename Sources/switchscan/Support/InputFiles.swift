import Foundation
import SwitchCore
import SwitchFormats

/// The shell's file access: read bytes, turn every failure into an `InputError` naming the file.
///
/// Files are read with `open`/`read` to the end, so pipes, FIFOs, `/dev/stdin` and process
/// substitutions (`<(…)`) are read like regular files (Foundation's `contents(atPath:)` gives up
/// on them). `-` is standard input, as in libinput's and most Unix tools; it can be read once.
enum InputFiles {
    /// What `-` is called in messages.
    static let standardInputName = "<stdin>"

    nonisolated(unsafe) private static var standardInputTaken: String?

    /// The name a file goes by in messages: its path, or `<stdin>` for `-`.
    static func displayName(_ path: String) -> String { path == "-" ? standardInputName : path }

    /// The readers' limits: `ReaderLimits.standard`, or what `SWITCHSCAN_MAX_FILE_MB` and
    /// `SWITCHSCAN_MAX_ELEMENTS` set (docs/reliability.md "Limits of the readers").
    static func limits() throws(InputError) -> ReaderLimits {
        try ReaderLimits.standard.overridden(by: ProcessInfo.processInfo.environment)
    }

    /// The whole file, refused with a clear error past the size limit of its `kind` (checked
    /// before reading a regular file, and while reading a pipe).
    static func read(_ path: String, _ kind: ReaderLimits.FileKind) throws(InputError) -> [UInt8] {
        let limit = try limits().bytes(kind)
        if path == "-" { return try readStandardInput(limit: limit, kind) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let e = errno
            switch e {
            case ENOENT: throw InputError(file: path, message: "no such file")
            case EACCES, EPERM: throw InputError(file: path, message: "cannot be read: permission denied")
            default: throw InputError(file: path, message: "cannot be opened: \(String(cString: strerror(e)))")
            }
        }
        defer { close(fd) }
        var info = stat()
        var sizeHint = 0
        if fstat(fd, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR {
                throw InputError(file: path, message: "is a directory, expected a file")
            }
            if (info.st_mode & S_IFMT) == S_IFREG { sizeHint = Int(info.st_size) }
        }
        if sizeHint > limit {
            throw ReaderLimits.fileTooLarge(path, size: sizeHint, limit: limit, kind)
        }
        return try readAll(fd, name: path, limit: limit, kind, sizeHint: sizeHint)
    }

    /// The tree of any file switchscan reads; the importer's notes (a default screen size, a
    /// dump without geometry, references to nodes the dump lacks) go to standard error, so every
    /// command that reads a dump says them, not only `tree import` (issue 22).
    static func tree(_ path: String, notes: Bool = true) throws(InputError) -> ElementTree {
        let imported = try TreeFile.importTree(read(path, .tree), file: displayName(path), limits: limits())
        if notes { for note in imported.notes { printError("switchscan: note: \(displayName(path)): \(note)") } }
        return imported.tree
    }

    private static func readStandardInput(limit: Int, _ kind: ReaderLimits.FileKind) throws(InputError) -> [UInt8] {
        if standardInputTaken != nil {
            throw InputError(file: standardInputName, message: "standard input (-) can be read only once per command")
        }
        standardInputTaken = standardInputName
        return try readAll(0, name: standardInputName, limit: limit, kind)
    }

    /// Asks for 2 MiB pages for the whole 2 MiB blocks of a large buffer about to be filled: a
    /// 126 MB dump read into 4 KiB pages takes 31,000 page faults, a tenth of `tree show`'s time.
    /// Only advice: where the kernel has no huge pages the read is as before.
    private static func adviseHugePages(_ base: UnsafeMutablePointer<UInt8>, _ count: Int) {
        let huge = 2 << 20
        guard count >= 2 * huge else { return }
        let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
        let end = (Int(bitPattern: base) + count) & ~(huge - 1)
        guard end > start else { return }
        _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE)
    }

    /// Reads `fd` to end of file (retrying EINTR), refusing more than `limit` bytes. A regular
    /// file's size (`sizeHint`) is read straight into an array of that size: a 126 MB dump
    /// appended chunk by chunk is copied again at every doubling and touches twice the memory.
    /// What is past the hint (a file that grew, a pipe) is read in chunks as before.
    private static func readAll(_ fd: Int32, name: String, limit: Int, _ kind: ReaderLimits.FileKind, sizeHint: Int = 0) throws(InputError) -> [UInt8] {
        var failure: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: sizeHint) { buf, count in
            count = 0
            if let base = buf.baseAddress { adviseHugePages(base, sizeHint) }
            while count < sizeHint {
                let n = Foundation.read(fd, buf.baseAddress! + count, sizeHint - count)
                if n == 0 { return }
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                count += n
            }
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = failure != 0 ? -1 : chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n == 0 { return bytes }
            if n < 0 {
                if failure == 0 && errno == EINTR { continue }
                let e = failure != 0 ? failure : errno
                throw InputError(file: name, message: e == EISDIR ? "is a directory, expected a file"
                                                                   : "cannot be read: \(String(cString: strerror(e)))")
            }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit { throw ReaderLimits.fileTooLarge(name, size: nil, limit: limit, kind) }
        }
    }
}

/// Files the tool writes; `-` is standard output.
enum OutputFiles {
    /// Writes `text` to `path` (created or truncated), or to standard output for `-`.
    static func write(_ text: String, to path: String) throws(InputError) {
        if path == "-" {
            Output.write(text)
            return
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 { throw InputError(file: path, message: "cannot be written: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        if !Output.write(text, to: fd) {
            throw InputError(file: path, message: "cannot be written: \(String(cString: strerror(errno)))")
        }
    }
}
