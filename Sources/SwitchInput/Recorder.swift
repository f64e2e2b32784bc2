import Glibc
import SwitchCore
import SwitchFormats

/// `switchscan record`: one device's events into an evemu file that `simulate` and `evemu-play`
/// read. The description is written at once and the events after every read, each batch with one
/// `write`, so an interrupted recording keeps everything read before the interruption.
///
/// Times: the first event is 0.000000 and every later one is its own timestamp minus the first's
/// (the kernel's CLOCK_MONOTONIC stamp when the device accepts it, else the device's own stamps,
/// which keep their spacing). A stamp earlier than the previous one is written at the previous
/// one's time, since evemu files must not go backwards. After SYN_DROPPED the device's state
/// delta from libevdev is recorded (ending in its SYN_REPORT), not the SYN_DROPPED itself, so a
/// replay sees the keys that came up during the gap.
public final class Recorder {
    public enum Ending: Equatable, Sendable {
        case until
        case signal(Int32)
        case deviceGone
    }

    private let device: EvdevDevice
    private let fd: Int32
    private let log: (String) -> Void
    private var first: Int64?
    private var previous = Instant.zero
    /// The last SYN_REPORT written, for the `+Nms` comments across batches.
    private var lastReportMilliseconds: Int64 = 0
    public private(set) var eventCount = 0

    /// Creates (truncates) `path` and writes the device description.
    public init(device: EvdevDevice, path: String, log: @escaping (String) -> Void) throws(InputError) {
        self.device = device
        self.log = log
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 { throw InputError(file: path, message: "cannot write: \(String(cString: strerror(errno)))") }
        if let note = device.useMonotonicClock(fallback: "recording the device's own timestamps") { log(note) }
        try append(EvemuFormat.write(description: device.description, events: []), path: path)
    }

    private let path: String

    deinit { close(fd) }

    /// Records until `until` (seconds since the start), SIGINT/SIGTERM, or the device going away.
    public func run(until: Interval?) throws(InputError) -> Ending {
        let signals: SignalPipe
        let timer: TimerFD
        do {
            signals = try SignalPipe([SIGINT, SIGTERM])
            timer = try TimerFD()
        } catch {
            throw InputError(file: path, message: error.description)
        }
        let start = MonotonicClock.nowMicroseconds()
        if let until { timer.arm(at: start + until.microseconds) }
        log("recording \(device.node) \"\(device.description.name)\" to \(path); Ctrl-C to stop")
        while true {
            var fds = [pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: timer.fileDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: device.fileDescriptor, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 3, -1) < 0 && errno != EINTR {
                throw InputError(file: path, message: "poll failed: \(String(cString: strerror(errno)))")
            }
            var batch: [TimedEvent] = []
            var gone = false
            if fds[2].revents & Int16(POLLIN) != 0 {
                device.drain { read in
                    switch read {
                    case .event(let e, let k), .syncEvent(let e, let k): batch.append(TimedEvent(time: stamp(k), event: e))
                    case .dropped(let k): log("events were lost at \(stamp(k).transcriptString) s (SYN_DROPPED); recording the device's state after the gap")
                    case .syncDone, .drained: break
                    case .gone: gone = true
                    }
                }
            }
            if fds[2].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { gone = true }
            if !batch.isEmpty {
                eventCount += batch.count
                try append(EvemuFormat.writeEvents(batch, lastReportMilliseconds: &lastReportMilliseconds), path: path)
            }
            if gone { return .deviceGone }
            if fds[0].revents != 0, let sig = signals.take().first { return .signal(sig) }
            if fds[1].revents != 0 { return .until }
        }
    }

    private func stamp(_ kernel: Int64) -> Instant {
        let origin = first ?? kernel
        first = origin
        let t = Instant(microseconds: max(previous.microseconds, kernel - origin))
        previous = t
        return t
    }

    private func append(_ text: String, path: String) throws(InputError) {
        var text = text
        let ok = text.withUTF8 { buf -> Bool in
            var p = buf.baseAddress
            var n = buf.count
            while n > 0, let base = p {
                let w = write(fd, base, n)
                if w < 0 { if errno == EINTR { continue }; return false }
                p = base + w
                n -= w
            }
            return true
        }
        if !ok { throw InputError(file: path, message: "cannot write: \(String(cString: strerror(errno)))") }
    }
}
