import Glibc
import SwitchCore
import SwitchInput

/// Speech and sound cues through speech-dispatcher, a presenter of the live loop (docs/live.md
/// "Presentation"): each `speak` line of the transcript is spoken, a new highlight interrupts the
/// phrase before it, and the end of every phrase goes back to the engine (`speechFinished`, for
/// `pauseForSpeech`). With `soundEffects`, a tick on each highlight and a click on each selection
/// (a perform, the menu opening), as speech-dispatcher sound icons.
///
/// Why SSIP over the socket rather than libspeechd: libspeechd's threaded mode (the only one that
/// reports the end of a phrase) waits on a condition variable, with no timeout, for every reply,
/// and calls back on a thread of its own with no user pointer. A stuck speech-dispatcher would
/// then freeze the loop a switch user depends on, and the callback would need global state and
/// a pipe back to the loop. Speaking SSIP from the loop itself keeps one thread and never blocks
/// after start: the socket is one more descriptor in the epoll set, requests wait in a queue,
/// replies and events are parsed as they arrive (`SSIPSession`). What libspeechd would add, the
/// address rules and starting the server, is done the same way here (`SpeechAddress`).
///
/// If the server goes away the run goes on: phrases in flight count as finished at once (so a
/// speech-paced dwell does not wait for its cap) and the connection is tried again every 5 s.
public final class SpeechOutput: LoopAdapter {
    public struct Settings: Sendable {
        public var speech: Bool
        public var rate: Double
        public var voice: String?
        public var soundEffects: Bool
        /// speech-dispatcher sound icons (files in its sound-icon folder, Debian's sound-icons).
        public var tick = "percussion-10.wav"
        public var click = "percussion-12.wav"
        /// Adaptive timing made scanning slower, or faster.
        public var slower = "pisk-down.wav"
        public var faster = "pisk-up.wav"

        public init(speech: Bool, rate: Double = 0.5, voice: String? = nil, soundEffects: Bool = false) {
            self.speech = speech
            self.rate = rate
            self.voice = voice
            self.soundEffects = soundEffects
        }

        public init(_ s: ScanningSettings) {
            self.init(speech: s.speech, rate: s.speechRate, voice: s.speechVoice, soundEffects: s.soundEffects)
        }
    }

    public let name = "speech"
    /// Speech and sounds can be switched from the scanner menu (a `setting` line).
    public private(set) var settings: Settings
    public let address: SpeechAddress
    private var socket: Int32 = -1
    private var session = SSIPSession()
    /// `speak` lines seen so far (the next one's utterance number, as the scanner counts them).
    private var utterances = 0
    /// Utterances to report as finished at the next wakeup (refused, dropped, or no server).
    private var finished: [Int] = []
    private var notes: [String] = []
    /// While disconnected: when to try again (CLOCK_MONOTONIC µs).
    private var retryAt: Int64?
    private var lastNow: Int64 = 0
    /// Set by `interrupt`, cleared by the next phrase.
    private var interrupted = false

    public static let retryInterval: Int64 = 5_000_000

    /// Connects (starting speech-dispatcher if it is not running, as libspeechd does), sets the
    /// client name, notifications, rate and voice; an unknown voice is an error naming a few
    /// that exist.
    public init(settings: Settings, address: SpeechAddress? = nil) throws(SpeechError) {
        self.settings = settings
        if let address { self.address = address } else { self.address = try SpeechAddress.fromEnvironment() }
        socket = try self.address.connect(spawnIfMissing: true)
        if let voice = settings.voice { try checkVoice(voice) }
        setUp()
        try flushBlocking()
        setNonBlocking(socket)
    }

    deinit {
        if socket >= 0 { close(socket) }
    }

    // MARK: LoopAdapter

    public func prepare(nowMonotonic: Int64) -> LoopInterest {
        lastNow = nowMonotonic
        guard socket >= 0 else { return LoopInterest(deadline: retryAt) }
        let events = LoopFD.readable | (session.hasOutput ? LoopFD.writable : 0)
        return LoopInterest(fds: [LoopFD(fd: socket, events: events)], deadline: finished.isEmpty ? nil : nowMonotonic)
    }

    public func dispatch(ready: [LoopFD], nowMonotonic: Int64) -> [ShellInput] {
        lastNow = nowMonotonic
        if socket < 0, let at = retryAt, nowMonotonic >= at { reconnect(nowMonotonic) }
        if socket >= 0 {
            readAll()
            writeAll()
        }
        return takeResults()
    }

    public func observe(_ line: TranscriptLine, model: ScanModel) -> [ShellInput] {
        switch line.event {
        case .highlight, .colorGroups, .point:
            interrupt()
            if settings.soundEffects { cue(settings.tick) }
        case .perform, .menuOpened, .pointMenuOpened:
            interrupt()
            if settings.soundEffects { cue(settings.click) }
        case .speak(let text):
            let utterance = utterances
            utterances += 1
            if settings.speech && socket >= 0 {
                session.send(.speak(text, utterance: utterance))
                interrupted = false
            } else {
                finished.append(utterance)
            }
        case .setting(let change):
            switch (change.name, change.to) {
            case ("speech", .bool(let on)): settings.speech = on
            case ("soundEffects", .bool(let on)): settings.soundEffects = on
            default: break
            }
        case .adaptiveTiming(let change):
            // The scan time changed under the person: a sound of its own, with sounds or speech on.
            if settings.soundEffects || settings.speech { cue(change.reason == .slower ? settings.slower : settings.faster) }
        case .scan, .menuClosed, .filter, .touch, .device, .pause, .sweep, .mode, .result, .tree, .drag, .scanStopped, .layoutLoaded, .typed, .keyboard, .typeResult:
            break
        }
        if socket >= 0 { writeAll() }
        return takeResults()
    }

    /// Stops what is still being said (quitting silences it) and says goodbye.
    public func finish() {
        guard socket >= 0 else { return }
        session.send(.command("CANCEL SELF"))
        session.send(.command("QUIT"))
        writeAll()
        close(socket)
        socket = -1
    }

    // MARK: -

    private func setUp() {
        session.send(.command("SET SELF CLIENT_NAME \(SpeechOutput.userName()):switchscan:main"))
        session.send(.command("SET SELF NOTIFICATION END on"))
        session.send(.command("SET SELF NOTIFICATION CANCEL on"))
        // "message": queued in order (a tick, then the phrase), interrupted only by our CANCEL.
        session.send(.command("SET SELF PRIORITY message"))
        session.send(.command("SET SELF RATE \(SpeechRate.ssip(settings.rate))"))
        if let voice = settings.voice { session.send(.command("SET SELF SYNTHESIS_VOICE \(voice)")) }
    }

    /// A selection or a new highlight interrupts the phrase still being said: requests not sent
    /// yet are dropped, and what the server has is cancelled. Once per moment: the click of a
    /// selection, then the tick and phrase of the highlight that follows it, all play.
    private func interrupt() {
        guard socket >= 0, !interrupted else { return }
        interrupted = true
        finished += session.dropUnsent()
        if session.phrasesInProgress > 0 { session.send(.command("CANCEL SELF")) }
    }

    private func cue(_ icon: String) {
        guard socket >= 0 else { return }
        session.send(.soundIcon(icon))
    }

    private func readAll() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(socket, &buffer, buffer.count)
            if n > 0 {
                take(session.received(buffer[0..<n]))
                continue
            }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { return }
            lost(n == 0 ? "it closed the connection" : String(cString: strerror(errno)))
            return
        }
    }

    private func writeAll() {
        guard socket >= 0, session.hasOutput else { return }
        let out = session.takeOutput()
        var sent = 0
        while sent < out.count {
            let n = out[sent...].withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
            if n > 0 { sent += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno == EAGAIN { break }
            lost(String(cString: strerror(errno)))
            return
        }
        if sent < out.count { session.giveBack(out[sent...]) }
    }

    private func take(_ events: [SSIPSession.Event]) {
        for e in events {
            switch e {
            case .finished(let u): finished.append(u)
            case .failed(let command, let reply): notes.append("speech: speech-dispatcher refused \"\(command)\": \(reply)")
            case .reply: break
            }
        }
    }

    private func lost(_ why: String) {
        close(socket)
        socket = -1
        finished += session.abandon()
        retryAt = lastNow + SpeechOutput.retryInterval
        notes.append("speech: lost speech-dispatcher (\(why)); trying again every \(SpeechOutput.retryInterval / 1_000_000) s")
    }

    private func reconnect(_ now: Int64) {
        do {
            socket = try address.connect(spawnIfMissing: false)
            setNonBlocking(socket)
            retryAt = nil
            setUp()
            notes.append("speech: speech-dispatcher is back")
        } catch {
            retryAt = now + SpeechOutput.retryInterval
        }
    }

    private func takeResults() -> [ShellInput] {
        var out: [ShellInput] = notes.map { .log($0) }
        out += finished.map { .speechFinished(utterance: $0) }
        notes = []
        finished = []
        return out
    }

    /// At start, on the blocking socket: the setup commands and their replies (5 s at most).
    private func flushBlocking() throws(SpeechError) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !session.isIdle {
            let out = session.takeOutput()
            if !out.isEmpty, out.withUnsafeBytes({ write(socket, $0.baseAddress, $0.count) }) != out.count {
                throw SpeechError.protocolError(address.description, "cannot write: \(String(cString: strerror(errno)))")
            }
            let n = read(socket, &buffer, buffer.count)
            guard n > 0 else { throw SpeechError.protocolError(address.description, n == 0 ? "it closed the connection" : "no answer in 5 s") }
            for e in session.received(buffer[0..<n]) {
                if case .failed(let command, let reply) = e { throw SpeechError.protocolError(address.description, "\(command): \(reply)") }
                if case .reply(let command, let lines) = e, command.hasPrefix("LIST SYNTHESIS_VOICES") { voices = lines }
            }
        }
        timeout = timeval(tv_sec: 0, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    private var voices: [String] = []

    private func checkVoice(_ voice: String) throws(SpeechError) {
        session.send(.command("LIST SYNTHESIS_VOICES"))
        try flushBlocking()
        let names = voices.map { String($0.split(separator: "\t", omittingEmptySubsequences: false).first ?? "") }
        guard names.contains(voice) else {
            let some = names.filter { !$0.contains("+") }.prefix(8).joined(separator: "\", \"")
            throw SpeechError.unknownVoice(voice, examples: "\"\(some)\"", count: names.count)
        }
    }

    private static func userName() -> String {
        guard let pw = getpwuid(getuid()), let name = pw.pointee.pw_name else { return "unknown" }
        let s = String(cString: name)
        return s.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) ? s : "unknown"
    }
}

func setNonBlocking(_ fd: Int32) {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
}

/// Why speech cannot start.
public enum SpeechError: Error, CustomStringConvertible {
    case unsupportedAddress(String)
    case cannotConnect(String, reason: String, spawn: String)
    case protocolError(String, String)
    case unknownVoice(String, examples: String, count: Int)

    public var description: String {
        switch self {
        case .unsupportedAddress(let a):
            return "speech: SPEECHD_ADDRESS=\(a) is not supported (expected unix_socket or unix_socket:PATH)"
        case .cannotConnect(let path, let reason, let spawn):
            return "speech is on in the profile, but speech-dispatcher cannot be reached at \(path): \(reason); \(spawn) "
                + "(install speech-dispatcher and speech-dispatcher-espeak-ng, or set \"speech\": false)"
        case .protocolError(let path, let what):
            return "speech: speech-dispatcher at \(path) did not take the settings: \(what)"
        case .unknownVoice(let voice, let examples, let count):
            return "speech: speech-dispatcher has no voice \"\(voice)\" (\(count) voices; for example \(examples); `spd-say -L` lists them)"
        }
    }
}
