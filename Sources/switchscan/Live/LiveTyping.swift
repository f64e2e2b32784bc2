import Foundation
import SwitchCore

/// What `run` and `simulate` need for the scanning keyboard (docs/typing.md): the profile's layout
/// and the prediction sources (presage's child process and the word list, both started on the
/// first prediction, so a session that never types costs nothing), learning into the person's
/// model under `$XDG_DATA_HOME/switchscan` when `keyboard.learning` is on (`simulate`: only with
/// `--learn`). A layout that cannot be read is said (when a field could use it) and the keyboard
/// is off; without presage's model the word list predicts alone; what learning cannot do is
/// said once (`takeNotices`); the session runs on.
final class LiveTyping {
    let layout: KeyboardLayout
    private let sources: PredictionSources?

    private let predicting: Bool

    private init(layout: KeyboardLayout, sources: PredictionSources?, predicting: Bool) {
        self.layout = layout
        self.sources = sources
        self.predicting = predicting
    }

    /// - Parameter quiet: say nothing when the layout cannot be read (a tree without text fields).
    /// - Parameter learn: learn the person's writing (`run`: the profile's `keyboard.learning`).
    static func start(profile: Profile, quiet: Bool, learn: Bool, log: @escaping (String) -> Void) -> LiveTyping? {
        let layout: KeyboardLayout
        do {
            layout = try KeyboardLibrary.load(profile.keyboard.layout)
        } catch {
            if !quiet { log("keyboard off: \(error)") }
            return nil
        }
        // Learning needs the sources even without a prediction row (the words are kept for when
        // the person turns predictions on).
        guard profile.keyboard.predictions > 0 || learn else { return LiveTyping(layout: layout, sources: nil, predicting: false) }
        let most = max(1, profile.keyboard.predictions), learning = learn ? LiveTyping.dataDirectory() : nil
        let sources: PredictionSources
        do {
            sources = try PredictionSources(source: .mixed, languages: [layout.language], most: most, learning: learning, log: log)
        } catch {
            // No presage model for the language: the word list alone.
            log("note: presage is off: \(error); the keyboard's words come from the word list")
            guard let words = try? PredictionSources(source: .words, languages: [layout.language], most: most, learning: learning, log: log) else {
                return LiveTyping(layout: layout, sources: nil, predicting: false)
            }
            sources = words
        }
        return LiveTyping(layout: layout, sources: sources, predicting: profile.keyboard.predictions > 0)
    }

    /// `$XDG_DATA_HOME/switchscan` (`~/.local/share/switchscan`): the person's own model.
    static func dataDirectory() -> String {
        if let xdg = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/switchscan" }
        return ProfileLibrary.homeDirectory() + "/.local/share/switchscan"
    }

    /// The words for a request (the keyboard's language).
    var predict: ((PredictionRequest) -> (words: [String], failure: String?))? {
        guard let sources, predicting else { return nil }
        let language = layout.language
        return { request in
            let (words, failure) = sources.predict(request.context, language: language)
            return (Array(words.prefix(request.count)), failure)
        }
    }

    /// Learns the person's writing (nil: not learning).
    var learn: ((String) -> Void)? {
        guard let sources, sources.learning != nil else { return nil }
        let language = layout.language
        return { text in sources.learn(text, language: language) }
    }

    /// What learning has to say since the last call, each reason once a session (nil: not
    /// learning).
    var takeNotices: (() -> [LearningNotice])? {
        guard let sources, sources.learning != nil else { return nil }
        return { sources.takeNotices() }
    }

    func stop() {
        sources?.stop()
    }
}
