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
        let setup = try reportingInputErrors { () throws(InputError) -> SimulationSetup in
            try SimulationSetup.load(tree: dir + "/demo-tree.json", profile: profile ?? (dir + "/demo-profile.json"),
                                     events: dir + "/demo-session.evemu", desc: nil, layouts: [])
        }
        let presses = setup.recording.devices.flatMap(\.events).filter { $0.event.type == EventCodes.EV_KEY && $0.event.value == 1 }.count
        printError("switchscan demo: \(setup.profile.name), a weather app screen (\(ScanModel(tree: setup.tree).items.count) scan items), \(presses) recorded switch presses")
        setup.run(until: nil, output: output)
    }
}
