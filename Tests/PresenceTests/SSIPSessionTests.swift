import SwitchSpeech
import Testing

/// SSIPSession's timelines (SSIPSession.swift), against a scripted server: the bytes it writes,
/// the events it reports.
@Suite struct SSIPSessionTests {
    static func text(_ s: inout SSIPSession) -> String { String(decoding: s.takeOutput(), as: UTF8.self) }
    static func feed(_ s: inout SSIPSession, _ lines: String) -> [SSIPSession.Event] {
        s.received(Array(lines.replacingOccurrences(of: "\n", with: "\r\n").utf8))
    }

    @Test func ssip_speak_then_end() {
        var s = SSIPSession()
        s.send(.speak("Add, button", utterance: 3))
        #expect(Self.text(&s) == "SPEAK\r\n")
        #expect(Self.feed(&s, "230 OK RECEIVING DATA\n").isEmpty)
        #expect(Self.text(&s) == "Add, button\r\n.\r\n")
        #expect(Self.feed(&s, "225-7\n225 OK MESSAGE QUEUED\n").isEmpty)
        #expect(s.phrasesInProgress == 1)
        #expect(Self.feed(&s, "701-7\n701-1\n701 BEGIN\n").isEmpty)
        #expect(Self.feed(&s, "702-7\n702-1\n702 END\n") == [.finished(utterance: 3)])
        #expect(s.phrasesInProgress == 0 && s.isIdle)
    }

    @Test func ssip_cancel_reports_finish() {
        var s = SSIPSession()
        s.send(.speak("A", utterance: 0))
        _ = Self.feed(&s, "230 OK\n225-7\n225 OK MESSAGE QUEUED\n")
        _ = s.takeOutput()
        s.send(.command("CANCEL SELF"))
        #expect(Self.text(&s) == "CANCEL SELF\r\n")
        #expect(Self.feed(&s, "213 OK CANCELED\n703-7\n703-1\n703 CANCELED\n") == [.finished(utterance: 0)])
    }

    @Test func ssip_one_command_at_a_time() {
        var s = SSIPSession()
        s.send(.command("SET SELF PRIORITY message"))
        s.send(.soundIcon("percussion-10.wav"))
        s.send(.speak("B", utterance: 1))
        #expect(Self.text(&s) == "SET SELF PRIORITY message\r\n")
        _ = Self.feed(&s, "202 OK PRIORITY SET\n")
        #expect(Self.text(&s) == "SOUND_ICON percussion-10.wav\r\n")
        _ = Self.feed(&s, "225-8\n225 OK MESSAGE QUEUED\n")
        #expect(Self.text(&s) == "SPEAK\r\n")
        #expect(s.phrasesInProgress == 0)  // a sound icon is not a phrase
    }

    @Test func ssip_events_between_replies() {
        var s = SSIPSession()
        s.send(.speak("A", utterance: 0))
        _ = Self.feed(&s, "230 OK\n225-7\n225 OK MESSAGE QUEUED\n")
        s.send(.command("LIST SYNTHESIS_VOICES"))
        _ = s.takeOutput()
        // The END of message 7 arrives before the list: an event, then the reply.
        let events = Self.feed(&s, "702-7\n702-1\n702 END\n249-English (America)\ten-US\tnone\n249 OK VOICE LIST SENT\n")
        #expect(events == [.finished(utterance: 0), .reply(command: "LIST SYNTHESIS_VOICES", lines: ["English (America)\ten-US\tnone"])])
    }

    @Test func ssip_speak_refused() {
        var s = SSIPSession()
        s.send(.speak("A", utterance: 5))
        _ = s.takeOutput()
        #expect(Self.feed(&s, "401 ERR NOT A VALID COMMAND\n") == [.failed(command: "SPEAK", reply: "401 ERR NOT A VALID COMMAND"), .finished(utterance: 5)])
        s.send(.command("SET SELF SYNTHESIS_VOICE nobody"))
        _ = s.takeOutput()
        #expect(Self.feed(&s, "410 ERR\n") == [.failed(command: "SET SELF SYNTHESIS_VOICE nobody", reply: "410 ERR")])
    }

    @Test func ssip_superseded_requests() {
        var s = SSIPSession()
        s.send(.command("CANCEL SELF"))
        s.send(.soundIcon("tick"))
        s.send(.speak("old", utterance: 1))
        #expect(s.dropUnsent() == [1])
        _ = s.takeOutput()
        _ = Self.feed(&s, "213 OK CANCELED\n")
        #expect(s.isIdle && s.takeOutput().isEmpty)
        // A lost connection: what the server had and what was in flight count as finished.
        s.send(.speak("x", utterance: 2))
        _ = Self.feed(&s, "230 OK\n225-9\n225 OK\n")
        s.send(.speak("y", utterance: 3))
        s.send(.speak("z", utterance: 4))
        #expect(s.abandon() == [2, 3, 4])
        #expect(s.isIdle)
    }

    @Test func ssip_text_escaping() {
        var s = SSIPSession()
        s.send(.speak(".hidden\nfile", utterance: 0))
        _ = s.takeOutput()
        _ = Self.feed(&s, "230 OK RECEIVING DATA\n")
        #expect(Self.text(&s) == "..hidden file\r\n.\r\n")
    }
}
