import ArgumentParser
import Foundation
import SwitchCore

/// `simulate --person FILE --targets IDS` (issue 31): a simulated person activates each target in
/// turn on the real engine and the virtual clock (`PersonSession`, `PersonTargets`); the
/// transcript is printed as for a recording, then the person's counts on stderr. A target that is
/// not a scan item of the tree is an error before anything runs.
extension SimulateCommand {
    func runPerson(_ file: String) throws {
        let ids = (targets ?? "").split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        let treeValue = try reportingInputErrors { try InputFiles.tree(tree) }
        let profileValue = try reportingInputErrors { try ProfileLibrary.load(profile) }.profile
        let personModel = try reportingInputErrors { try PersonFiles.load(file) }
        let model = ScanModel(tree: treeValue)
        for id in ids where model.itemIndex(id: id) == nil {
            throw fail("--targets: \(TerminalText.quoted(id)) is not a scan item of \(InputFiles.displayName(tree)) (`switchscan tree show` lists them)")
        }
        guard profileValue.scans, profileValue.scanning.mode != .point else {
            throw fail("--person scans items: the profile must have switches and item scanning or group selection (not point mode)")
        }
        let typing = LiveTyping.start(profile: profileValue, quiet: !treeValue.hasTextEntry, learn: false, log: { note($0) })
        defer { typing?.stop() }
        var engine = Engine(tree: treeValue, profile: profileValue, devices: [nil])
        engine.keyboardLayout = typing?.layout
        var session = PersonSession(engine: engine, person: personModel)
        if let predict = typing?.predict { session.predict = { predict($0).words } }
        var task = PersonTargets(ids)
        var pending = ""
        let style = output.format, withIDs = output.ids
        func emit(_ line: TranscriptLine) {
            pending += TranscriptFormat.render(line, as: style, ids: withIDs) + "\n"
            if pending.utf8.count >= 65_536 {
                Output.write(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        session.take(session.withEngine { $0.start(at: .zero) }, &task, emit: emit)
        let limit = until.map { Instant.seconds($0) } ?? Instant.zero + PersonTextEntry.defaultPhraseLimit(ids.count * 10)
        let outcome = session.run(&task, until: limit, emit: emit)
        Output.write(pending)
        let c = session.counts
        note("\(personModel.name): \(task.reached.count) of \(ids.count) targets in \(session.now.transcriptString) s; selections \(c.selections), late \(c.late), missed \(c.missed), extra presses \(c.extraPresses), corrections \(c.corrections), wrong activations \(task.wrong)")
        switch outcome {
        case .done: break
        case .gaveUp: throw fail("\(personModel.name) had not activated every target by \(limit.transcriptString) s")
        case .stuck(let why): throw fail(why)
        }
    }
}
