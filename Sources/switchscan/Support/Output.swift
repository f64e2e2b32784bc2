import Foundation
import SwitchCore

/// The one path by which the tool writes to standard output and standard error (docs/reliability.md
/// "Limits of the readers", RELIABILITY.md finding 18): every write is checked, so output is never
/// lost with status 0.
///
/// - One-shot commands (everything but `run`): the first failed write (a full disk, `>&-`, an I/O
///   error) is reported once, `switchscan: error: standard output: No space left on device`, and
///   the process ends with status 2 at once, whatever status the command would have had (also
///   `tree audit`'s 1). A reader that went away still ends the process by SIGPIPE (its default
///   action is left alone); where SIGPIPE is ignored, EPIPE is an error like the others.
/// - `run` (`Output.keepGoing()`): a failed write is remembered, the engine goes on, and the
///   command exits 2 at its end (the transcript itself goes through `OutputQueue`, which says
///   once that it is no longer written).
///
/// Text written to standard error is made safe for a terminal first (`TerminalText.line`): a
/// label, a file name or a device name quoted in a note can hold escape sequences.
enum Output {
    /// A write to standard output or error failed: the stream and errno of the first failure.
    nonisolated(unsafe) private(set) static var failure: (stream: String, errno: Int32)?
    /// Failures end the process at once (one-shot commands) or are only remembered (`run`).
    nonisolated(unsafe) private static var exitsOnFailure = true

    /// Descriptors 0–2 checked before anything is opened: a closed one gets /dev/null, opened the
    /// other way round (write-only for standard input, read-only for output and error), so that
    /// no file the command opens becomes descriptor 1 (the output would land in it) and a write to
    /// a closed standard output still fails (EBADF) and is reported.
    static func secureStandardDescriptors() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY)
            if opened >= 0 && opened != fd {
                _ = dup2(opened, fd)
                close(opened)
            }
        }
    }

    /// `run`: failures are remembered (`failure`), not fatal.
    static func keepGoing() { exitsOnFailure = false }

    /// One line to standard output, written at once.
    static func line(_ s: String) {
        write(s + "\n")
    }

    /// Many lines, written in blocks of about 64 KiB: one `write` per line costs a system call
    /// per line (51,000 for a large dump's scan order).
    static func lines<S: Sequence<String>>(_ lines: S) {
        var block = ""
        block.reserveCapacity(70_000)
        for line in lines {
            block += line
            block += "\n"
            if block.utf8.count >= 65_536 {
                write(block)
                block.removeAll(keepingCapacity: true)
            }
        }
        if !block.isEmpty { write(block) }
    }

    /// All of `text` to standard output, straight to fd 1 (so what was printed is out even if the
    /// program is then killed by a signal).
    static func write(_ text: String) {
        if !write(text, to: 1) { failed("standard output", errno) }
    }

    /// One line to standard error, its control characters escaped (`TerminalText.line`).
    static func error(_ message: String) {
        if !write(TerminalText.line(message) + "\n", to: 2) { failed("standard error", errno) }
    }

    /// Text to standard error as it is (a progress line's carriage return); the caller made it
    /// safe.
    static func rawError(_ text: String) {
        if !write(text, to: 2) { failed("standard error", errno) }
    }

    private static func failed(_ stream: String, _ code: Int32) {
        guard failure == nil else { return }
        failure = (stream, code)
        let message = "switchscan: error: \(stream): \(String(cString: strerror(code)))\n"
        // Said on standard error; when standard error is what failed, this write fails too and
        // the status alone tells.
        _ = write(message, to: 2)
        if exitsOnFailure { exit(Exit.badInput.rawValue) }
    }

    /// All of `text` to `fd` (retrying short writes and EINTR); false (errno set) when a write
    /// fails.
    static func write(_ text: String, to fd: Int32) -> Bool {
        var text = text
        return text.withUTF8 { buf -> Bool in
            guard var p = buf.baseAddress else { return true }
            var n = buf.count
            while n > 0 {
                let w = Foundation.write(fd, p, n)
                if w < 0 && errno == EINTR { continue }
                if w < 0 { return false }
                if w == 0 {
                    errno = EIO
                    return false
                }
                p += w
                n -= w
            }
            return true
        }
    }
}
