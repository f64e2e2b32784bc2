import Foundation
import SwitchCore

/// What `run` needs for the scanning keyboard (docs/typing.md): the profile's layout and the
/// prediction sources (presage's child process and the word list, both started on the first
/// prediction, so a session that never types costs nothing). A layout that cannot be read is said
/// (when a field could use it) and the keyboard is off; the session runs on.
final class LiveTyping {
    let layout: KeyboardLayout
    private let sources: PredictionSources?

    private init(layout: KeyboardLayout, sources: PredictionSources?) {
        self.layout = layout
        self.sources = sources
    }

    /// - Parameter quiet: say nothing when the layout cannot be read (a tree without text fields).
    static func start(profile: Profile, quiet: Bool, log: (String) -> Void) -> LiveTyping? {
        let layout: KeyboardLayout
        do {
            layout = try KeyboardLibrary.load(profile.keyboard.layout)
        } catch {
            if !quiet { log("keyboard off: \(error)") }
            return nil
        }
        guard profile.keyboard.predictions > 0 else { return LiveTyping(layout: layout, sources: nil) }
        let data = LiveTyping.dataDirectory()
        try? FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        do {
            let sources = try PredictionSources(source: .mixed, languages: [layout.language], most: profile.keyboard.predictions, home: data)
            return LiveTyping(layout: layout, sources: sources)
        } catch {
            log("keyboard predictions off: \(error)")
            return LiveTyping(layout: layout, sources: nil)
        }
    }

    /// `$XDG_DATA_HOME/switchscan` (`~/.local/share/switchscan`): presage's files and the
    /// person's own model.
    static func dataDirectory() -> String {
        if let xdg = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/switchscan" }
        return ProfileLibrary.homeDirectory() + "/.local/share/switchscan"
    }

    /// The words for a request (the keyboard's language).
    var predict: ((PredictionRequest) -> (words: [String], failure: String?))? {
        guard let sources else { return nil }
        let language = layout.language
        return { request in
            let (words, failure) = sources.predict(request.context, language: language)
            return (Array(words.prefix(request.count)), failure)
        }
    }

    func stop() { sources?.stop() }
}
