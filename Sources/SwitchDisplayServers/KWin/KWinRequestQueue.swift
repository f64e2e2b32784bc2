import Foundation

/// The requests switchscan hands the KWin script (activate or close a window), by the script's
/// long poll (packaging/kwin/README.md): the script calls `NextRequest() → s` and waits; switchscan
/// answers when it has a request, or with "" once the poll has waited `idleAnswer` (KWin drops a
/// call's reply after 25 s, which would end the poll: the script polls again only after an
/// answer). The script then carries the request out and calls `Result(s serial, b found)`.
/// Pure: calls in, answers to send and a deadline out; the caller owns the D-Bus messages
/// (`Call`) and the clock (CLOCK_MONOTONIC µs).
///
/// States and events (every pair handled):
///
///                 poll(c)                   ask(op, id)               deadline            result(s, found)
///   idle          queue empty → waiting(c)  → queued                  nothing             the request's, done
///   (queue may    queued → answer(c, first)
///    hold some)
///   waiting(c)    answer(old, ""),          answer(c, request),       answer(c, ""), idle  the request's, done
///                 waiting(new): the script  idle
///                 was loaded again
///
///   idle_answer       ^poll ──────idleAnswer────── answer "" (the script polls again)
///   request_waiting   ^poll ── ^ask → answer request at once
///   request_queued    ^ask ── ^poll → answer request at once
///   reloaded          ^poll(a) ── ^poll(b) → a answered "", b waits
///   unanswered        ^ask ── (no poll for `pickupLimit`) → `unpicked` says since when: the
///                     script is checked (it may have been unloaded)
public struct KWinRequestQueue<Call> {
    public enum Op: String, Sendable {
        case activate, close
    }

    public struct Request: Equatable, Sendable {
        public var serial: Int
        public var op: Op
        /// KWin's internalId of the window.
        public var window: String

        /// The JSON the script reads: {"id":"{…}","op":"activate","serial":1}.
        public var json: String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(RequestWire(id: window, op: op.rawValue, serial: serial))).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
    }

    /// What to send: the reply to a waiting `NextRequest` call.
    public struct Answer {
        public var call: Call
        /// A request's JSON, or "" (nothing to do: poll again).
        public var text: String
    }

    /// How long a poll waits before it is answered "" (µs): below KWin's 25 s reply timeout.
    public static var idleAnswer: Int64 { 20_000_000 }

    /// The poll waiting for an answer, and since when.
    public private(set) var waiting: (call: Call, since: Int64)?
    /// Requests no poll took yet, oldest first, with the time each was asked.
    public private(set) var queued: [(request: Request, at: Int64)] = []
    /// Requests handed to the script and not yet answered by `Result`.
    public private(set) var sent: [Int: Request] = [:]
    private var nextSerial = 1

    public init() {}

    /// The script's `NextRequest` call came in at `now`.
    public mutating func poll(_ call: Call, at now: Int64) -> [Answer] {
        var out: [Answer] = []
        if let old = waiting {
            // A second poll while one waits: the script was loaded again (its old poll's reply
            // goes nowhere, but is owed).
            out.append(Answer(call: old.call, text: ""))
            waiting = nil
        }
        if !queued.isEmpty {
            let r = queued.removeFirst().request
            sent[r.serial] = r
            out.append(Answer(call: call, text: r.json))
        } else {
            waiting = (call, now)
        }
        return out
    }

    /// A request from switchscan: its serial and the answer to send now, if a poll waits.
    public mutating func ask(_ op: Op, window: String, at now: Int64) -> (serial: Int, answers: [Answer]) {
        let r = Request(serial: nextSerial, op: op, window: window)
        nextSerial += 1
        if let w = waiting {
            waiting = nil
            sent[r.serial] = r
            return (r.serial, [Answer(call: w.call, text: r.json)])
        }
        queued.append((r, now))
        return (r.serial, [])
    }

    /// When `deadline` is due: the waiting poll answered "".
    public mutating func tick(at now: Int64) -> [Answer] {
        guard let w = waiting, now >= w.since + Self.idleAnswer else { return [] }
        waiting = nil
        return [Answer(call: w.call, text: "")]
    }

    /// When the waiting poll is to be answered "" (nil: none waits).
    public var deadline: Int64? { waiting.map { $0.since + Self.idleAnswer } }

    /// The script's `Result(serial, found)`: the request it answers (nil: not one sent, or a
    /// serial that is no number).
    public mutating func result(serial text: String, found: Bool) -> Request? {
        guard let serial = Int(text) else { return nil }
        return sent.removeValue(forKey: serial)
    }

    /// Since when the oldest request waits for a poll to take it (nil: none waits).
    public var unpicked: Int64? { queued.first?.at }

    /// Every request dropped (the script is gone): the ones no poll took.
    public mutating func dropQueued() -> [Request] {
        defer { queued = [] }
        return queued.map(\.request)
    }
}

/// A request as the script reads it.
private struct RequestWire: Encodable {
    var id: String, op: String, serial: Int
}
