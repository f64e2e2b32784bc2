import Glibc
import SwitchCore

/// What the live loop reports to its caller (the CLI): transcript lines, notes, frames, reloads.
extension LiveRunner {
    public struct Hooks {
        /// Every transcript line, as produced.
        public var emit: (TranscriptLine) -> Void
        /// Called after each frame's lines, before the loop sleeps and when it ends: the lines
        /// emitted since the last call must be out by then (one write for a frame's or a timer's
        /// lines instead of one per line).
        public var flush: (() -> Void)?
        /// Notes for stderr (picked devices, clock, removal, reload errors).
        public var log: (String) -> Void
        /// With `--show-frames`: every frame delivered to the engine, as a line for stderr.
        public var showFrame: ((String) -> Void)?
        /// SIGHUP: the tree again (errors are logged, the old tree stays).
        public var reloadTree: (() throws(InputError) -> ElementTree)?
        /// The file `reloadTree` reads, named in the transcript's `layoutLoaded` line.
        public var reloadFile: String?
        /// Every frame delivered to the engine, with its device's node, just before the engine
        /// gets it (`debug-events`).
        public var frame: ((_ node: String, _ frame: InputFrame) -> Void)?
        /// The keyboard's predictions (docs/typing.md): the words for a request, or why there are
        /// none. Asked after the lines that made the keyboard want them; nil: none asked.
        public var predict: ((PredictionRequest) -> (words: [String], failure: String?))?
        /// The person's writing to learn (`Engine.takeLearning`), taken after each batch of lines.
        public var learn: ((String) -> Void)?
        /// What learning has to say (each reason once a session), taken after learning and
        /// predicting: a transcript line and a note each.
        public var learningNotices: (() -> [LearningNotice])?

        public init(emit: @escaping (TranscriptLine) -> Void, flush: (() -> Void)? = nil, log: @escaping (String) -> Void,
                    showFrame: ((String) -> Void)? = nil, reloadTree: (() throws(InputError) -> ElementTree)? = nil,
                    frame: ((_ node: String, _ frame: InputFrame) -> Void)? = nil) {
            self.emit = emit
            self.flush = flush
            self.log = log
            self.showFrame = showFrame
            self.reloadTree = reloadTree
            self.frame = frame
        }
    }

    /// Why `run` returned: the `until` time was reached, or a signal ended it.
    public enum Ending: Equatable, Sendable {
        case until
        case signal(Int32)
        /// An adapter said its work is done (`ShellInput.end`).
        case requested
        /// An adapter's `ShellInput.fatal`: what went away, in one line.
        case failed(String)
    }
}
