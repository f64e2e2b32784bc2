import Glibc
import SwitchCore
import SwitchFormats

/// `switchscan record`: devices' events into one file that `simulate` reads: evemu for one device
/// (`evemu-play` reads it too), libinput-record YAML for one or several (`libinput record
/// --multiple`'s format; `libinput replay` reads it too). Events are written after every read, each
/// batch with one `write`, so an interrupted recording keeps everything read before it.
///
/// Several devices in YAML: the first device's events go straight to the output; the others' go to
/// unlinked temporary files that are appended when the recording ends (as libinput does: YAML
/// keeps each device's events under its own entry).
///
/// Times: one device: the first event is 0.000000 and every later one is its timestamp minus the
/// first's (the kernel's CLOCK_MONOTONIC stamp when the device accepts it, else the device's own
/// stamps, which keep their spacing). Several devices: 0 is when recording started, and a device
/// without CLOCK_MONOTONIC stamps is placed on that base by the time its first event was read.
/// A stamp earlier than the device's previous one is written at the previous one's time (files
/// must not go backwards). After SYN_DROPPED the device's state delta from libevdev is recorded
/// (ending in its SYN_REPORT), not the SYN_DROPPED itself, so a replay sees the keys that came up
/// during the gap. Keys of full keyboards are hidden unless asked (`KeycodePrivacy`).
public final class Recorder {
    public enum Ending: Equatable, Sendable {
        case until
        case signal(Int32)
        /// Every device went away.
        case deviceGone
    }

    public enum Format: String, Sendable, CaseIterable {
        case evemu
        /// libinput-record YAML.
        case yaml
    }

    private final class Source {
        let device: EvdevDevice
        let hideKeycodes: Bool
        /// Where its events go: the output, or a temporary file appended at the end.
        let fd: Int32
        let spooled: Bool
        var open = true
        /// The device went away; its file part is kept.
        var gone = false
        var firstKernel: Int64?
        var firstRead: Int64 = 0
        var previous = Instant.zero
        var lastReportMilliseconds: Int64 = 0
        var yaml = LibinputRecordWriter.Events()

        init(device: EvdevDevice, hideKeycodes: Bool, fd: Int32, spooled: Bool) {
            self.device = device
            self.hideKeycodes = hideKeycodes
            self.fd = fd
            self.spooled = spooled
        }
    }

    private let sources: [Source]
    private let format: Format
    private let outputFD: Int32
    private let ownsOutput: Bool
    private let path: String
    private let log: (String) -> Void
    private var start: Int64 = 0
    public private(set) var eventCount = 0

    /// Opens the output (`-` is standard output; a file is created or truncated) and writes the
    /// descriptions. `hideKeycodes[k]` hides device k's alphanumeric keys.
    public init(devices: [EvdevDevice], hideKeycodes: [Bool], format: Format, path: String,
                comments: [String] = [], log: @escaping (String) -> Void) throws(InputError) {
        precondition(!devices.isEmpty && devices.count == hideKeycodes.count)
        if format == .evemu && devices.count > 1 {
            throw InputError(file: path, message: "an evemu file holds one device; record \(devices.count) devices with --format yaml")
        }
        self.format = format
        self.path = path
        self.log = log
        if path == "-" {
            outputFD = 1
            ownsOutput = false
        } else {
            outputFD = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            ownsOutput = true
            if outputFD < 0 { throw InputError(file: path, message: "cannot write: \(String(cString: strerror(errno)))") }
        }
        var sources: [Source] = []
        for (k, device) in devices.enumerated() {
            var fd = outputFD
            if k > 0 {
                fd = Recorder.temporaryFile()
                if fd < 0 {
                    for s in sources where s.spooled { close(s.fd) }
                    if ownsOutput { close(outputFD) }
                    throw InputError(file: path, message: "cannot create a temporary file: \(String(cString: strerror(errno)))")
                }
            }
            sources.append(Source(device: device, hideKeycodes: hideKeycodes[k], fd: fd, spooled: k > 0))
        }
        self.sources = sources
        do {
            if format == .yaml { try append(LibinputRecordWriter.header(deviceCount: devices.count, comments: comments), to: outputFD) }
            for s in sources {
                if let note = s.device.useMonotonicClock(fallback: "recording the device's own timestamps") { log(note) }
                let hidden = s.hideKeycodes ? [KeycodePrivacy.note(node: s.device.node, name: s.device.description.name)] : []
                switch format {
                case .evemu: try append(EvemuFormat.write(description: s.device.description, events: []), to: s.fd)
                case .yaml: try append(LibinputRecordWriter.device(node: s.device.node, description: s.device.description, comments: hidden), to: s.fd)
                }
            }
        } catch {
            closeAll()
            throw error
        }
    }

    deinit { closeAll() }

    private func closeAll() {
        for s in sources where s.spooled && s.open {
            close(s.fd)
            s.open = false
        }
        if ownsOutput { close(outputFD) }
    }

    /// The file name used in messages.
    private var displayPath: String { path == "-" ? "<stdout>" : path }

    /// Records until `until` (seconds since the start), SIGINT/SIGTERM, or every device going
    /// away, then completes the file (the spooled devices appended).
    public func run(until: Interval?) throws(InputError) -> Ending {
        let signals: SignalPipe
        let timer: TimerFD
        do {
            signals = try SignalPipe([SIGINT, SIGTERM])
            timer = try TimerFD()
        } catch {
            throw InputError(file: path, message: error.description)
        }
        start = MonotonicClock.nowMicroseconds()
        if let until { timer.arm(at: start + until.microseconds) }
        let names = sources.map { "\($0.device.node) \"\($0.device.description.name)\"" }.joined(separator: ", ")
        log("recording \(names) to \(displayPath); Ctrl-C to stop")
        var ending = Ending.deviceGone
        loop: while sources.contains(where: { !$0.gone }) {
            var fds = [pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: timer.fileDescriptor, events: Int16(POLLIN), revents: 0)]
            for s in sources { fds.append(pollfd(fd: s.gone ? -1 : s.device.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
            if poll(&fds, nfds_t(fds.count), -1) < 0 && errno != EINTR {
                throw InputError(file: path, message: "poll failed: \(String(cString: strerror(errno)))")
            }
            for (k, s) in sources.enumerated() where !s.gone {
                let revents = fds[k + 2].revents
                var gone = revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
                if revents & Int16(POLLIN) != 0 { gone = try read(s) || gone }
                if gone {
                    s.gone = true
                    log("\(s.device.node): device removed" + (sources.contains { !$0.gone } ? "; recording the others" : ""))
                }
            }
            if fds[0].revents != 0, let sig = signals.take().first { ending = .signal(sig); break loop }
            if fds[1].revents != 0 { ending = .until; break loop }
        }
        try finish()
        return ending
    }

    /// Reads one device to `-EAGAIN` and writes the batch; true when the device is gone.
    private func read(_ s: Source) throws(InputError) -> Bool {
        var batch: [TimedEvent] = []
        var gone = false
        let readTime = MonotonicClock.nowMicroseconds()
        s.device.drain { read in
            switch read {
            case .event(let e, let k), .syncEvent(let e, let k):
                batch.append(TimedEvent(time: stamp(s, kernel: k, read: readTime), event: s.hideKeycodes ? KeycodePrivacy.hidden(e) : e))
            case .dropped(let k):
                log("\(s.device.node): events were lost at \(stamp(s, kernel: k, read: readTime).transcriptString) s (SYN_DROPPED); recording the device's state after the gap")
            case .syncDone, .drained: break
            case .gone: gone = true
            }
        }
        if !batch.isEmpty {
            eventCount += batch.count
            switch format {
            case .evemu: try append(EvemuFormat.writeEvents(batch, lastReportMilliseconds: &s.lastReportMilliseconds), to: s.fd)
            case .yaml: try append(s.yaml.write(batch), to: s.fd)
            }
        }
        return gone
    }

    /// Appends the spooled devices to the output.
    private func finish() throws(InputError) {
        for s in sources where s.spooled && s.open {
            defer { close(s.fd); s.open = false }
            guard lseek(s.fd, 0, SEEK_SET) == 0 else { throw InputError(file: path, message: "cannot read back a temporary file: \(String(cString: strerror(errno)))") }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(s.fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n < 0 { throw InputError(file: path, message: "cannot read back a temporary file: \(String(cString: strerror(errno)))") }
                if n == 0 { break }
                try append(buffer[0..<n], to: outputFD)
            }
        }
    }

    private func stamp(_ s: Source, kernel: Int64, read: Int64) -> Instant {
        var t: Int64
        if sources.count == 1 {
            let origin = s.firstKernel ?? kernel
            s.firstKernel = origin
            t = kernel - origin
        } else if s.device.monotonicTimestamps {
            t = kernel - start
        } else {
            if s.firstKernel == nil {
                s.firstKernel = kernel
                s.firstRead = read - start
            }
            t = s.firstRead + (kernel - s.firstKernel!)
        }
        let instant = Instant(microseconds: max(s.previous.microseconds, t))
        s.previous = instant
        return instant
    }

    private func append(_ text: String, to fd: Int32) throws(InputError) {
        try append(Array(text.utf8)[...], to: fd)
    }

    private func append(_ bytes: ArraySlice<UInt8>, to fd: Int32) throws(InputError) {
        let ok = bytes.withUnsafeBytes { buf -> Bool in
            guard var p = buf.baseAddress else { return true }
            var n = buf.count
            while n > 0 {
                let w = write(fd, p, n)
                if w < 0 { if errno == EINTR { continue }; return false }
                p += w
                n -= w
            }
            return true
        }
        if !ok { throw InputError(file: displayPath, message: "cannot write: \(String(cString: strerror(errno)))") }
    }

    /// An unlinked temporary file in $TMPDIR or /tmp.
    private static func temporaryFile() -> Int32 {
        let dir = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((dir + "/switchscan-record-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd >= 0 {
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        return fd
    }
}
