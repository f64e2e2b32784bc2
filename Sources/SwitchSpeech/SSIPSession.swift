/// speech-dispatcher's protocol (SSIP) as a pure state machine: requests in, bytes to write out;
/// bytes read in, events out. No socket, no clock: `SpeechOutput` moves the bytes, tests feed a
/// scripted server. (Why not libspeechd: see SpeechOutput.)
///
/// SSIP is synchronous: a command is written only after the reply to the one before. Replies are
/// blocks of lines `NNN-…` ending with `NNN …`; events (7xx) may come between them at any time.
///
/// States of the one command in flight:
///
///     idle ──request──▶ awaiting(reply to a one-line command) ──2xx/3xx/4xx/5xx──▶ idle (next)
///     idle ──speak────▶ speakHeader ──230──▶ (text + "." written) speakBody ──225-msgid──▶ idle
///                                  └─other─▶ failed: the phrase counts as finished
///
/// Events: `702 END` and `703 CANCELED` for a message id of ours end that phrase (`finished`);
/// 701 BEGIN, 704/705 (pause/resume) and 700 (index marks) change nothing here.
///
/// Timelines (tests in Tests/PresenceTests/SSIPSessionTests.swift, named after them):
///   ssip_speak_then_end        SPEAK ▸230 ▸text. ▸225-7 … ▸702 msg 7: finished(u)
///   ssip_cancel_reports_finish CANCEL SELF ▸213 … ▸703 msg 7: finished(u)
///   ssip_one_command_at_a_time a second request waits for the first reply
///   ssip_events_between_replies a 7xx block before a reply is an event, not the reply
///   ssip_speak_refused         SPEAK ▸4xx: finished(u) at once, and the error
///   ssip_superseded_requests   queued, unsent sounds and phrases are dropped by `dropUnsent`
///   ssip_text_escaping         a line starting with "." is doubled; line breaks become spaces
public struct SSIPSession: Sendable {
    public enum Request: Sendable, Equatable {
        /// One command line ("SET SELF RATE 20").
        case command(String)
        /// A phrase; `utterance` is what `finished` reports for it.
        case speak(String, utterance: Int)
        /// A sound icon (speech-dispatcher's `SOUND_ICON`).
        case soundIcon(String)
    }

    public enum Event: Sendable, Equatable {
        /// The phrase was spoken to its end, cancelled, or refused.
        case finished(utterance: Int)
        /// A command failed: its line and the server's answer.
        case failed(command: String, reply: String)
        /// The full reply of a command whose result was asked for (`LIST …`): its data lines.
        case reply(command: String, lines: [String])
    }

    enum InFlight: Sendable {
        case command(String)
        case speakHeader(String, utterance: Int)
        case speakBody(utterance: Int)
        case soundIcon(String)
    }

    private var queue: [Request] = []
    private var inFlight: InFlight?
    private var pendingOutput: [UInt8] = []
    private var lineBuffer: [UInt8] = []
    private var block: [String] = []
    /// Message id → utterance, for phrases queued by the server and not finished yet.
    private var phrases: [Int: Int] = [:]

    public init() {}

    /// Phrases the server has accepted and not yet ended.
    public var phrasesInProgress: Int { phrases.count }
    /// Whether anything is queued, in flight or unwritten.
    public var isIdle: Bool { queue.isEmpty && inFlight == nil && pendingOutput.isEmpty }

    public mutating func send(_ request: Request) {
        queue.append(request)
        pump()
    }

    /// Forgets requests not written yet (a new highlight supersedes them); returns the phrases
    /// among them, which will never be spoken.
    public mutating func dropUnsent() -> [Int] {
        let dropped = queue.compactMap { r -> Int? in if case .speak(_, let u) = r { return u } else { return nil } }
        queue.removeAll { if case .command = $0 { return false } else { return true } }
        return dropped
    }

    /// The bytes to write now (the caller writes what it can and gives back the rest).
    public mutating func takeOutput() -> [UInt8] {
        defer { pendingOutput = [] }
        return pendingOutput
    }

    /// Bytes that could not be written yet, to go first next time.
    public mutating func giveBack(_ bytes: ArraySlice<UInt8>) {
        pendingOutput = Array(bytes) + pendingOutput
    }

    public var hasOutput: Bool { !pendingOutput.isEmpty }

    /// Bytes read from the server.
    public mutating func received(_ bytes: some Sequence<UInt8>) -> [Event] {
        var events: [Event] = []
        for b in bytes {
            if b == 10 {  // LF; the CR before it is dropped below
                if lineBuffer.last == 13 { lineBuffer.removeLast() }
                let line = String(decoding: lineBuffer, as: UTF8.self)
                lineBuffer.removeAll(keepingCapacity: true)
                events += takeLine(line)
            } else {
                lineBuffer.append(b)
            }
        }
        return events
    }

    /// Everything in flight or queued, as when the connection is lost: the phrases among them
    /// (and those the server had) will never report, so they count as finished.
    public mutating func abandon() -> [Int] {
        var lost = Array(phrases.values)
        switch inFlight {
        case .speakHeader(_, let u), .speakBody(let u): lost.append(u)
        case .command, .soundIcon, nil: break
        }
        lost += queue.compactMap { r -> Int? in if case .speak(_, let u) = r { return u } else { return nil } }
        self = SSIPSession()
        return lost.sorted()
    }

    // MARK: -

    private mutating func takeLine(_ line: String) -> [Event] {
        let bytes = Array(line.utf8)
        guard bytes.count >= 4, bytes[0...2].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return [] }  // not SSIP: ignored
        block.append(line)
        guard bytes[3] == 32 else { return [] }  // "NNN-": more lines follow
        let lines = block
        block = []
        let code = Int(String(decoding: bytes[0...2], as: UTF8.self)) ?? 0
        if code >= 700 && code < 800 { return event(code, lines) }
        return reply(code, lines)
    }

    private mutating func event(_ code: Int, _ lines: [String]) -> [Event] {
        guard code == 702 || code == 703, let first = lines.first, let id = Int(first.dropFirst(4)),
              let utterance = phrases.removeValue(forKey: id) else { return [] }
        return [.finished(utterance: utterance)]
    }

    private mutating func reply(_ code: Int, _ lines: [String]) -> [Event] {
        guard let current = inFlight else { return [] }  // unsolicited: ignored
        inFlight = nil
        var events: [Event] = []
        let ok = code >= 100 && code < 300
        let data = lines.dropLast().map { String($0.dropFirst(4)) }
        switch current {
        case .command(let c):
            if !ok { events.append(.failed(command: c, reply: lines.last ?? "")) } else if !data.isEmpty {
                events.append(.reply(command: c, lines: data))
            }
        case .soundIcon(let name):
            if !ok { events.append(.failed(command: "SOUND_ICON " + name, reply: lines.last ?? "")) }
        case .speakHeader(let text, let utterance):
            if code == 230 {
                write(SSIPSession.body(text))
                inFlight = .speakBody(utterance: utterance)
                return events
            }
            events.append(.failed(command: "SPEAK", reply: lines.last ?? ""))
            events.append(.finished(utterance: utterance))
        case .speakBody(let utterance):
            if ok, let id = data.first.flatMap({ Int($0) }) {
                phrases[id] = utterance
            } else {
                events.append(.failed(command: "SPEAK", reply: lines.last ?? ""))
                events.append(.finished(utterance: utterance))
            }
        }
        pump()
        return events
    }

    /// Writes the next request when nothing is in flight.
    private mutating func pump() {
        guard inFlight == nil, !queue.isEmpty else { return }
        let next = queue.removeFirst()
        switch next {
        case .command(let c):
            write(c + "\r\n")
            inFlight = .command(c)
        case .soundIcon(let name):
            write("SOUND_ICON " + name + "\r\n")
            inFlight = .soundIcon(name)
        case .speak(let text, let utterance):
            write("SPEAK\r\n")
            inFlight = .speakHeader(text, utterance: utterance)
        }
    }

    private mutating func write(_ s: String) { pendingOutput += Array(s.utf8) }

    /// The message body: one line (line breaks become spaces; a leading "." is doubled, SSIP's
    /// escape), then the end marker.
    static func body(_ text: String) -> String {
        var line = String(text.map { $0.isNewline ? " " : $0 })
        if line.hasPrefix(".") { line = "." + line }
        return line + "\r\n.\r\n"
    }
}
