import Glibc
import SwitchCore

/// The engine's lines out to the transcript and the adapters, and the adapters' answers (a new
/// tree, a line, a note, speech finished) back into the engine at the lines' instant.
extension LiveRunner {
    /// The engine's lines to the transcript, then to every adapter (with the model they refer
    /// to); what the adapters answer is applied at the lines' instant: lines and notes at once
    /// (a perform's result follows the perform), a new tree after the rest of the batch (the
    /// engine's lines of that instant refer to the tree they were made with: a perform that closed
    /// a window is followed by the resumed highlight, then the layout change).
    func publish(_ lines: [TranscriptLine], _ engine: inout Engine) {
        // What touch passthrough writes goes out first: it is what a finger waits for, and a
        // pause line below removes the virtual touchscreen after its fingers were lifted.
        engine.takeTouchOutput { writeTouch($0) }
        var layouts: [(ShellInput, Instant)] = []
        for line in lines {
            hooks.emit(line)
            if case .pause(let change) = line.event { setPaused(change.state == .paused) }
            guard !adapters.isEmpty else { continue }
            for input in adapters.observe(line, model: engine.model) {
                if case .layout = input { layouts.append((input, line.t)) } else { apply([input], &engine, at: line.t) }
            }
        }
        for (input, t) in layouts { apply([input], &engine, at: t) }
        if let last = lines.last { servePredictions(&engine, at: last.t) }
    }

    /// The words the keyboard waits for, from the prediction hook, at `t` (a failure is a
    /// transcript line, and the keyboard goes on without words).
    func servePredictions(_ engine: inout Engine, at t: Instant) {
        let written = engine.takeLearning()  // taken always: never kept growing
        if let learn = hooks.learn { for text in written { learn(text) } }
        if let predict = hooks.predict {
            var asked = 0
            while let request = engine.wantedPredictions, asked < 4 {
                asked += 1
                let answer = predict(request)
                let lines = answer.words.isEmpty && answer.failure != nil
                    ? engine.predictionsFailed(context: request.context, reason: answer.failure!, at: t)
                    : engine.setPredictions(answer.words, context: request.context, at: t)
                publish(lines, &engine)
            }
        }
        // Learning that failed is said (once a session), and typing goes on.
        for notice in hooks.learningNotices?() ?? [] {
            hooks.emit(TranscriptLine(t: t, .keyboard(.learning(notice))))
            hooks.log(notice.note)
        }
    }

    /// Adapters' inputs at `t`: a new tree is a layout change, a line goes to the transcript
    /// (not back to the adapters), a note to stderr.
    func apply(_ inputs: [ShellInput], _ engine: inout Engine, at t: Instant) {
        for input in inputs {
            switch input {
            case .layout(let tree): loadLayout(tree, &engine, at: t)
            case .line(let event): hooks.emit(TranscriptLine(t: t, event))
            case .log(let note): hooks.log(note)
            case .speechFinished(let n): publish(engine.speechFinished(utterance: n, at: t), &engine)
            case .windows(let list, let current): publish(engine.windowsChanged(list, current: current, at: t), &engine)
            case .fieldText(let before, let after): publish(engine.fieldText(before: before, after: after, at: t), &engine)
            case .keyboardFocus(let focus): publish(engine.keyboardFocusChanged(focus, at: t), &engine)
            case .end: endRequested = true
            case .fatal(let why): if fatal == nil { fatal = why }
            }
        }
    }

    /// A layout change: the engine's lines (with the new model), after the adapters learn of it.
    func loadLayout(_ tree: ElementTree, _ engine: inout Engine, at t: Instant, file: String? = nil) {
        let lines = engine.loadLayout(tree, at: t, file: file)
        adapters.layoutChanged(model: engine.model)
        publish(lines, &engine)
    }

    func reload(_ engine: inout Engine, at t: Instant) {
        guard let reloadTree = hooks.reloadTree else { return }
        do {
            let tree = try reloadTree()
            loadLayout(tree, &engine, at: t, file: hooks.reloadFile)
            hooks.log("SIGHUP: tree reloaded")
        } catch {
            hooks.log("SIGHUP: keeping the current tree: \(error)")
        }
    }
}
