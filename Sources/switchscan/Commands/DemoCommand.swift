import ArgumentParser
import Foundation
import SwitchCore
import SwitchFormats

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Simulate the bundled demo: a weather app screen, one switch, a recorded session.",
        discussion: """
        The same as `simulate` with the demo tree, profile and recording built into the tool (so an \
        installed binary needs no other file). --profile replaces the demo's own profile; without \
        it the demo's profile is used, never the default profile.
        """
    )

    @Option(help: "A profile path or name instead of the demo's.")
    var profile: String?

    @OptionGroup var output: TranscriptOptions

    func run() throws {
        let setup = try reportingInputErrors { () throws(InputError) -> SimulationSetup in
            let tree = try TreeFile.decode(PackageResources.demo_tree_json, file: "demo-tree.json")
            let chosen = profile != nil ? try ProfileLibrary.load(profile).profile
                : try ProfileDecoder.decode(PackageResources.demo_profile_json, file: "demo-profile.json")
            let recording = try RecordingFile.decode(PackageResources.demo_session_evemu, file: "demo-session.evemu")
            return SimulationSetup(tree: tree, profile: chosen, recording: recording.rebasedForSimulation(), layouts: [])
        }
        let presses = setup.recording.devices.flatMap(\.events).filter { $0.event.type == EventCodes.EV_KEY && $0.event.value == 1 }.count
        printError("switchscan demo: \(setup.profile.name), a weather app screen (\(ScanModel(tree: setup.tree).items.count) scan items), \(presses) recorded switch presses")
        setup.run(until: nil, output: output)
    }
}
