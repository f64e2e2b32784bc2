import ArgumentParser
import SwitchCore
import SwitchInput

/// `switchscan devices`: every evdev node with its name, ids, kind and keys/axes, like
/// `libinput list-devices`; nodes that cannot be opened are listed with the reason.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List input devices: node, name, bus:vendor:product, kind, keys and axes.",
        discussion: "Name a device for `run` or `record` with --device and its node, its name (or a unique part of it) or vendor:product.")

    @Option(help: "text or json.")
    var format: ReportFormat = .text


    func run() throws {
        let entries = DeviceEnumeration.entries()
        switch format {
        case .json:
            Output.line(DeviceReport.json(entries).rendered(indent: 2))
        case .text:
            if entries.isEmpty {
                printError("switchscan: \(DeviceEnumeration.inputDirectory): \(DevicePicking.noDevices)")
                return
            }
            for line in DeviceReport.text(entries) { Output.line(line) }
        }
    }
}
