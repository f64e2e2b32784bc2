import Foundation
import ArgumentParser
import SwitchCore

/// `text stats --person FILE` (issue 31): each configuration typed by the simulated person, all
/// the phrases in one session (`PersonTextEntry`), and `--methods`.
extension TextStatsCommand {
    /// The layout's phrases typed by the person as one session: each phrase's outcome (all of
    /// them failed, with the reason, when the session could not go on) and the person's figures.
    static func typeWithPerson(_ person: PersonModel, sim: TextEntrySimulation, phrases: [PhraseFile.Phrase], models: inout KeyboardModelCache,
                               predict: @escaping (String, Int) -> [String])
        -> (outcomes: ConfigurationResults.Outcomes, figures: PersonFigures?) {
        do throws(TextEntrySimulation.Failure) {
            let r = try PersonTextEntry(sim: sim, person: person).type(phrases.map(\.text), models: &models, predict: predict)
            return (r.phrases.map { .success(TextEntrySimulation.PhraseResult($0)) }, PersonFigures(r))
        } catch {
            return (phrases.map { _ in .failure(error) }, nil)
        }
    }

    /// `--methods`: the names `text stats` prints (`groupSelection` with its switch count).
    func parseMethods() throws -> [TextEntrySimulation.Method] {
        guard let methods else { return TextEntrySimulation.Method.all }
        var out: [TextEntrySimulation.Method] = []
        for part in methods.split(separator: ",") {
            let name = part.trimmingCharacters(in: .whitespaces)
            guard let m = TextEntrySimulation.Method.all.first(where: { $0.optionName == name }) else {
                throw ValidationError("--methods: expected names from \(TextEntrySimulation.Method.all.map(\.optionName).joined(separator: ", ")) separated by commas, found \"\(name)\"")
            }
            if !out.contains(m) { out.append(m) }
        }
        return out
    }
}

extension TextEntrySimulation.Method {
    /// `linear`, …, `groupSelection3`.
    var optionName: String { switches > 1 ? name + String(switches) : name }
}

/// Each job's person figures, set from the threads that type, then attached to the configurations
/// `TextStatsRun.assemble` made of them.
final class PersonFiguresByJob: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [PersonFigures?]

    init(count: Int) { stored = Array(repeating: nil, count: count) }

    func set(_ k: Int, _ figures: PersonFigures) {
        lock.lock()
        stored[k] = figures
        lock.unlock()
    }

    func attach(to configurations: inout [TextStats.Configuration], layouts: [TextStatsRun.Layout], jobs: [TextStatsRun.Job]) {
        lock.lock()
        defer { lock.unlock() }
        for (k, job) in jobs.enumerated() {
            guard let f = stored[k] else { continue }
            let name = layouts[job.layout].name
            if let c = configurations.firstIndex(where: { $0.keyboard == name && $0.method == job.method && $0.predictions == job.predictions }) {
                configurations[c].person = f
            }
        }
    }
}

/// Person files (`--person`), read with the readers' size limit and strict decoding.
enum PersonFiles {
    static func load(_ path: String) throws(InputError) -> PersonModel {
        try PersonDecoder.decode(try InputFiles.read(path, .person), file: InputFiles.displayName(path))
    }
}
