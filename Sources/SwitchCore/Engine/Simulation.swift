/// The simulator's driver: the real engine on a virtual clock. Inputs (device frames and layout
/// changes) are delivered at their times; timers fire exactly at their deadlines, those due at or
/// before an input's time first. Same inputs, same transcript, on any machine.
public enum Simulation {
    public struct Input: Sendable {
        public enum Kind: Sendable {
            case frame(device: Int, InputFrame)
            case layout(ElementTree)
        }
        public var time: Instant
        public var kind: Kind

        public static func frame(_ frame: InputFrame, device: Int) -> Input { Input(time: frame.time, kind: .frame(device: device, frame)) }
        public static func layout(_ tree: ElementTree, at time: Instant) -> Input { Input(time: time, kind: .layout(tree)) }
    }

    /// How long the run goes on after the last input when `until` is not given and timers are
    /// still pending (auto scanning that never stops by itself, e.g. inside a menu in step mode).
    public static let tail = Interval.seconds(5)

    /// Runs `engine` from t = 0 over `inputs` (any order; sorted stably by time, a layout before a
    /// frame at the same instant). Ends at `until`; without it, once no input remains and either no
    /// timer is pending or `tail` has passed since the last input. Inputs after `until` are not
    /// delivered. `emit` receives every line as it is produced.
    ///
    /// With `speech`, every `speak` line is spoken by a simulated voice that takes the model's time
    /// and is interrupted by the next `speak` line; a phrase that ends is reported to the engine
    /// at its end (`Engine.speechFinished`), like a timer: after the timers due at or before it,
    /// before an input at the same instant.
    ///
    /// - Returns: the instant the run ended at (the session's length, for reports).
    @discardableResult
    public static func run(_ engine: inout Engine, inputs: [Input], until: Instant? = nil, speech: SpeechTimeModel? = nil,
                           emit: (TranscriptLine) -> Void) -> Instant {
        var voice = SimulatedVoice(model: speech)
        func take(_ lines: [TranscriptLine]) {
            for line in lines {
                emit(line)
                voice.hear(line)
            }
        }
        /// Phrases that end at or before `t`, each after the timers due by then; the timers in
        /// between run too, since they start new phrases.
        func speak(until t: Instant) {
            guard speech != nil else { return }
            while true {
                if let phrase = voice.speaking, phrase.end <= t {
                    take(engine.advance(to: phrase.end))
                    guard voice.speaking == phrase else { continue }  // Interrupted at that instant.
                    voice.speaking = nil
                    take(engine.speechFinished(utterance: phrase.utterance, at: phrase.end))
                    continue
                }
                guard let due = engine.nextDeadline(), due <= t else { return }
                take(engine.advance(to: due))
            }
        }
        take(engine.start(at: .zero))
        let ordered = inputs.enumerated().sorted { a, b in
            if a.element.time != b.element.time { return a.element.time < b.element.time }
            let aLayout: Bool = { if case .layout = a.element.kind { return true }; return false }()
            let bLayout: Bool = { if case .layout = b.element.kind { return true }; return false }()
            if aLayout != bLayout { return aLayout }
            return a.offset < b.offset
        }.map(\.element)

        var lastInput = Instant.zero
        for input in ordered {
            if let until, input.time > until { break }
            lastInput = max(lastInput, input.time)
            speak(until: input.time)
            switch input.kind {
            case .frame(let device, let frame):
                take(engine.handle(frame: frame, device: device))
            case .layout(let tree):
                take(engine.loadLayout(tree, at: input.time))
            }
        }
        let end = until ?? (lastInput + tail)
        speak(until: end)
        take(engine.advance(to: end))
        return end
    }

    /// Collects the transcript of a run.
    public static func transcript(_ engine: inout Engine, inputs: [Input], until: Instant? = nil,
                                  speech: SpeechTimeModel? = nil) -> [TranscriptLine] {
        var lines: [TranscriptLine] = []
        run(&engine, inputs: inputs, until: until, speech: speech) { lines.append($0) }
        return lines
    }
}

/// The simulator's voice: one phrase at a time, each `speak` line interrupting the one before,
/// numbered like the scanner numbers them (the n-th `speak` line, from 0).
struct SimulatedVoice {
    struct Phrase: Equatable {
        var utterance: Int
        var end: Instant
    }

    let model: SpeechTimeModel?
    var speaking: Phrase?
    private var spoken = 0

    init(model: SpeechTimeModel?) { self.model = model }

    mutating func hear(_ line: TranscriptLine) {
        guard let model, case .speak(let text) = line.event else { return }
        speaking = Phrase(utterance: spoken, end: line.t + model.duration(of: text))
        spoken += 1
    }
}
