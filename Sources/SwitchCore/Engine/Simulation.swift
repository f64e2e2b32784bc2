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
        var frames: [(Int, InputFrame)] = []
        var layouts: [(Instant, ElementTree)] = []
        for input in inputs {
            switch input.kind {
            case .frame(let device, let frame): frames.append((device, frame))
            case .layout(let tree): layouts.append((input.time, tree))
            }
        }
        let ordered = frames.enumerated().sorted { a, b in
            a.element.1.time != b.element.1.time ? a.element.1.time < b.element.1.time : a.offset < b.offset
        }.map(\.element)
        var replay = Replay(engine: engine, layouts: layouts, until: until, speech: speech)
        replay.start().forEach(emit)
        for (device, frame) in ordered where !replay.isOver {
            replay.deliver(frame, device: device).forEach(emit)
        }
        replay.finish().forEach(emit)
        engine = replay.engine
        return replay.end ?? .zero
    }

    /// A run fed one frame at a time, in time order (a recording read in pieces): the same
    /// delivery rules as `run(_:inputs:until:speech:emit:)`. Layout changes are given up front and
    /// delivered before the first frame at or after their time.
    public struct Replay: Sendable {
        public private(set) var engine: Engine
        public let until: Instant?
        private var layouts: [(Instant, ElementTree)]
        /// The file of each layout (after sorting), named in its `layoutLoaded` line.
        private var layoutFiles: [String?]
        private var nextLayout = 0
        private var lastInput = Instant.zero
        private var voice: SimulatedVoice
        private var out: [TranscriptLine] = []
        /// The keyboard's predictions (issue 18): asked as soon as the engine wants them, at the
        /// instant it wants them, as the live loop does (nil: none, the keyboard goes on without).
        public var predict: (@Sendable (PredictionRequest) -> (words: [String], failure: String?))?

        /// - Parameter layoutFiles: the file of each of `layouts` (same order), when they come
        ///   from files.
        public init(engine: Engine, layouts: [(Instant, ElementTree)], layoutFiles: [String] = [], until: Instant?,
                    speech: SpeechTimeModel? = nil) {
            self.engine = engine
            self.until = until
            self.voice = SimulatedVoice(model: speech)
            let order = layouts.indices.sorted { a, b in
                layouts[a].0 != layouts[b].0 ? layouts[a].0 < layouts[b].0 : a < b
            }
            self.layouts = order.map { layouts[$0] }
            self.layoutFiles = order.map { layoutFiles.indices.contains($0) ? layoutFiles[$0] : nil }
        }

        /// Scanning starts at t = 0.
        public mutating func start() -> [TranscriptLine] {
            take(engine.start(at: .zero))
            return flush()
        }

        /// The instant the run ended at (the session's length, for reports), once finished.
        public private(set) var end: Instant?

        /// True once an input past `until` came: the run is over, feed nothing more.
        public private(set) var isOver = false

        /// Delivers `frame`, after the layout changes due at or before it.
        public mutating func deliver(_ frame: InputFrame, device: Int) -> [TranscriptLine] {
            layoutsDue(atOrBefore: frame.time)
            if let until, frame.time > until { isOver = true }
            guard !isOver else { return flush() }
            lastInput = max(lastInput, frame.time)
            speak(until: frame.time)
            take(engine.handle(frame: frame, device: device))
            return flush()
        }

        /// The remaining layout changes, then timers (and phrases) up to the end of the run.
        public mutating func finish() -> [TranscriptLine] {
            layoutsDue(atOrBefore: Instant(microseconds: .max))
            let end = until ?? (lastInput + Simulation.tail)
            speak(until: end)
            take(engine.advance(to: end))
            self.end = end
            return flush()
        }

        private mutating func layoutsDue(atOrBefore t: Instant) {
            while !isOver, nextLayout < layouts.count, layouts[nextLayout].0 <= t {
                let (at, tree) = layouts[nextLayout]
                let file = layoutFiles[nextLayout]
                nextLayout += 1
                if let until, at > until { isOver = true; break }
                lastInput = max(lastInput, at)
                speak(until: at)
                take(engine.loadLayout(tree, at: at, file: file))
            }
        }

        private mutating func take(_ lines: [TranscriptLine]) {
            for line in lines {
                out.append(line)
                voice.hear(line)
            }
            guard let predict, !lines.isEmpty else { return }
            var asked = 0
            while let request = engine.wantedPredictions, asked < 4 {
                asked += 1
                let answer = predict(request)
                let at = engine.now
                take(answer.words.isEmpty && answer.failure != nil
                     ? engine.predictionsFailed(context: request.context, reason: answer.failure!, at: at)
                     : engine.setPredictions(answer.words, context: request.context, at: at))
            }
        }

        /// The person's writing to learn since the last call (`Engine.takeLearning`).
        public mutating func takeLearning() -> [String] { engine.takeLearning() }

        private mutating func flush() -> [TranscriptLine] {
            defer { out.removeAll(keepingCapacity: true) }
            return out
        }

        /// Phrases that end at or before `t`, each after the timers due by then; the timers in
        /// between run too, since they start new phrases.
        private mutating func speak(until t: Instant) {
            guard voice.model != nil else { return }
            while true {
                if let phrase = voice.speaking, phrase.end <= t {
                    take(engine.advance(to: phrase.end))
                    guard voice.speaking == phrase else { continue }  // Interrupted at that instant.
                    voice.next()
                    take(engine.speechFinished(utterance: phrase.utterance, at: phrase.end))
                    continue
                }
                guard let due = engine.nextDeadline(), due <= t else { return }
                take(engine.advance(to: due))
            }
        }
    }

    /// Collects the transcript of a run.
    public static func transcript(_ engine: inout Engine, inputs: [Input], until: Instant? = nil,
                                  speech: SpeechTimeModel? = nil) -> [TranscriptLine] {
        var lines: [TranscriptLine] = []
        run(&engine, inputs: inputs, until: until, speech: speech) { lines.append($0) }
        return lines
    }
}

/// The simulator's voice, as the live one (`SpeechOutput`) behaves: phrases written one after
/// another are said one after another (the keyboard's word typed, then the next stop's phrase), a
/// new highlight, a selection or a menu interrupts whatever is being said or waits; numbered
/// like the scanner numbers them (the n-th `speak` line, from 0).
struct SimulatedVoice: Sendable {
    struct Phrase: Equatable {
        var utterance: Int
        var end: Instant
    }

    let model: SpeechTimeModel?
    var speaking: Phrase?
    /// Phrases waiting for the one being said.
    var waiting: [Phrase] = []
    private var spoken = 0

    init(model: SpeechTimeModel?) { self.model = model }

    mutating func hear(_ line: TranscriptLine) {
        guard let model else { return }
        switch line.event {
        case .highlight, .colorGroups, .point, .perform, .menuOpened, .pointMenuOpened:
            speaking = nil
            waiting = []
        case .speak(let text):
            let start = max(line.t, waiting.last?.end ?? speaking?.end ?? line.t)
            let phrase = Phrase(utterance: spoken, end: start + model.duration(of: text))
            spoken += 1
            if speaking == nil { speaking = phrase } else { waiting.append(phrase) }
        default:
            break
        }
    }

    /// The phrase being said ended: the next waiting one is said.
    mutating func next() {
        speaking = waiting.isEmpty ? nil : waiting.removeFirst()
    }
}
