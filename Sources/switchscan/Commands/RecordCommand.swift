import ArgumentParser
import SwitchCore
import SwitchInput

/// `switchscan record`: one device's events into an evemu file (`simulate` and `evemu-play` read
/// it). Ctrl-C ends the recording and keeps everything recorded.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record one input device's events to an evemu file (times from 0 at the first event).")

    @Option(name: .customLong("device"), help: "The device: node path, name (or a unique part of it) or vendor:product.")
    var device: String

    @Option(name: [.short, .customLong("output")], help: "The evemu file to write.")
    var output: String

    @Option(help: "Stop after this many seconds.")
    var until: Double?

    func validate() throws { try validateUntil(until) }

    func run() throws {
        let (selected, _) = try reportingInputErrors {
            try DevicePicking.pick(options: [device], profile: nil, profileFile: nil)
        }
        guard selected.count == 1, let chosen = selected.first else {
            let nodes = selected.map(\.node).joined(separator: ", ")
            throw fail("--device \(device): matches \(selected.count) nodes (\(nodes)); an evemu file holds one device, name one node")
        }
        let evdev: EvdevDevice
        do {
            evdev = try EvdevDevice(node: chosen.node)
        } catch {
            throw fail("\(error)")
        }
        let recorder = try reportingInputErrors { try Recorder(device: evdev, path: output, log: note) }
        let ending = try reportingInputErrors { try recorder.run(until: until.map { Interval.seconds($0) }) }
        if ending == .deviceGone { note("\(chosen.node): device removed; recording ended") }
        note("recorded \(recorder.eventCount) events to \(output)")
    }
}
