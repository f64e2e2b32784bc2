import ArgumentParser
import SwitchCore

/// `text stats --person FILE` (issue 31): each configuration typed by the simulated person, all
/// the phrases in one session (`PersonTextEntry`), and `--methods`.
extension TextStatsCommand {
    static func typeWithPerson(_ person: PersonModel, sim: TextEntrySimulation, job: (name: String, method: TextEntrySimulation.Method, n: Int),
                               phrases: [(Int, String)], models: inout KeyboardModelCache,
                               predict: @escaping (String, Int) -> [String]) throws -> TextStats.Configuration {
        let r = try PersonTextEntry(sim: sim, person: person).type(phrases.map(\.1), models: &models, predict: predict)
        var total = TextStats.Totals()
        for ((line, text), p) in zip(phrases, r.phrases) {
            total.add(TextEntrySimulation.PhraseResult(p), line: line, text: text)
        }
        var c = TextStats.Configuration(keyboard: job.name, method: job.method, predictions: job.n, totals: total)
        c.person = PersonFigures(r)
        return c
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

/// Person files (`--person`), read with the readers' size limit and strict decoding.
enum PersonFiles {
    static func load(_ path: String) throws(InputError) -> PersonModel {
        try PersonDecoder.decode(try InputFiles.read(path, .person), file: InputFiles.displayName(path))
    }
}
