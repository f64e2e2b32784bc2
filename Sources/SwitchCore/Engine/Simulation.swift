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
    public static func run(_ engine: inout Engine, inputs: [Input], until: Instant? = nil, emit: (TranscriptLine) -> Void) {
        for line in engine.start(at: .zero) { emit(line) }
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
            switch input.kind {
            case .frame(let device, let frame):
                for line in engine.handle(frame: frame, device: device) { emit(line) }
            case .layout(let tree):
                for line in engine.loadLayout(tree, at: input.time) { emit(line) }
            }
        }
        let end = until ?? (lastInput + tail)
        for line in engine.advance(to: end) { emit(line) }
    }

    /// Collects the transcript of a run.
    public static func transcript(_ engine: inout Engine, inputs: [Input], until: Instant? = nil) -> [TranscriptLine] {
        var lines: [TranscriptLine] = []
        run(&engine, inputs: inputs, until: until) { lines.append($0) }
        return lines
    }
}
