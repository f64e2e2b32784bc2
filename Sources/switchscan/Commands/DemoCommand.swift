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
        try reportingInputErrors {
            let tree = try TreeFile.decode(PackageResources.demo_tree_json, file: "demo-tree.json")
            let loaded = profile != nil ? try ProfileLibrary.load(profile)
                : ProfileLibrary.Loaded(profile: try ProfileDecoder.decode(PackageResources.demo_profile_json, file: "demo-profile.json"),
                                        path: "demo-profile.json")
            let recording = RecordingInput(try RecordingFile.decode(PackageResources.demo_session_evemu, file: "demo-session.evemu"),
                                           files: ("demo-session.evemu", nil))
            try recording.check(profile: loaded.profile, profileFile: loaded.path.map(InputFiles.displayName) ?? ProfileLibrary.builtInName)
            let setup = SimulationSetup(tree: tree, profile: loaded.profile, recording: recording, layouts: [], loadedProfile: loaded)
            let presses = setup.recording.survey.devices.reduce(0) { $0 + $1.presses.values.reduce(0, +) }
            printError("switchscan demo: \(TerminalText.line(setup.profile.name)), a weather app screen (\(ScanModel(tree: setup.tree).items.count) scan items), \(presses) recorded switch presses")
            try setup.run(until: nil, output: output)
        }
    }
}
