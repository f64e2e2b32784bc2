import ArgumentParser
import Foundation
import SwitchCore
import SwitchFormats

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Simulate the bundled demo: a weather app screen, one switch, a recorded session.",
        discussion: "The same as `simulate` with the demo tree, profile and recording bundled in the tool."
    )

    @Option(help: "A profile path or name instead of the demo's.")
    var profile: String?

    @OptionGroup var output: TranscriptOptions

    func run() throws {
        guard let dir = Bundle.module.url(forResource: "Demo", withExtension: nil)?.path else {
            throw fail("the demo files are missing from this build")
        }
        try reportingInputErrors {
            let setup = try SimulationSetup.load(tree: dir + "/demo-tree.json", profile: profile ?? (dir + "/demo-profile.json"),
                                                 events: dir + "/demo-session.evemu", desc: nil, layouts: [])
            let presses = setup.recording.survey.devices.reduce(0) { $0 + $1.presses.values.reduce(0, +) }
            printError("switchscan demo: \(setup.profile.name), a weather app screen (\(ScanModel(tree: setup.tree).items.count) scan items), \(presses) recorded switch presses")
            try setup.run(until: nil, format: output.format)
        }
    }
}
