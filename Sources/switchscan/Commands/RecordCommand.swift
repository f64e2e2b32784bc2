import ArgumentParser
import SwitchCore
import SwitchInput

extension Recorder.Format: ExpressibleByArgument {}

/// `switchscan record`: one or several devices' events into one file that `simulate` reads, like
/// `libinput record [--multiple]`. Ctrl-C ends the recording and keeps everything recorded.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record input devices' events to one file that simulate replays.",
        discussion: """
        One device is written in evemu format (evemu-play reads it too) unless the output ends in \
        .yml or .yaml; several devices, or --format yaml, in libinput-record YAML (libinput replay \
        reads it too), all on one time base (0 = the start of the recording; for one device, its first event). \
        On a full keyboard, letter, digit, punctuation and Space keys are recorded as KEY_A and scancodes \
        as 30 (libinput's rule, so a password typed during a recording is not kept); \
        --show-keycodes keeps them. Switch interfaces and key boxes that are not full keyboards \
        are recorded as they are. Ctrl-C, SIGTERM or --until end the recording; everything read \
        until then is in the file.
        """)

    @Argument(help: ArgumentHelp("Devices to record: node path, name (or a unique part of it) or vendor:product.", valueName: "DEVICE"))
    var names: [String] = []

    @Option(name: .customLong("device"), help: "A device to record (the same as a DEVICE argument). Repeatable.")
    var devices: [String] = []

    @Option(name: [.short, .customLong("output")], help: "The file to write (- or nothing: standard output).")
    var output: String = "-"

    @Option(help: "evemu (one device) or yaml (libinput-record, one or several devices). Default: by the number of devices and the output's extension.")
    var format: Recorder.Format?

    @Flag(help: "Record the real key codes of full keyboards (they are hidden by default).")
    var showKeycodes = false

    @Option(help: "Stop after this many seconds.")
    var until: Double?

    func validate() throws {
        try validateUntil(until)
    }

    func run() throws {
        // Checked here, not in `validate`: a validation error there hid an unknown option such as
        // `--all` (libinput record's), which the parser reports only once validation passed.
        if names.isEmpty && devices.isEmpty {
            throw ValidationError("name the device(s) to record (see `switchscan devices`)")
        }
        let named = names + devices
        let (selected, _) = try reportingInputErrors {
            try DevicePicking.pick(options: named, profile: nil, profileFile: nil)
        }
        let chosenFormat = format ?? (selected.count > 1 || output.hasSuffix(".yml") || output.hasSuffix(".yaml") ? .yaml : .evemu)
        if chosenFormat == .evemu && selected.count > 1 {
            throw fail("\(named.joined(separator: ", ")): \(selected.count) device nodes (\(selected.map(\.node).joined(separator: ", "))); an evemu file holds one device: use --format yaml")
        }
        var opened: [EvdevDevice] = []
        for s in selected {
            do {
                opened.append(try EvdevDevice(node: s.node))
            } catch {
                throw fail("\(error)")
            }
        }
        let hide = opened.map { !showKeycodes && KeycodePrivacy.applies(to: $0.description) }
        for (device, hidden) in zip(opened, hide) where hidden {
            note(KeycodePrivacy.note(node: device.node, name: device.description.name))
        }
        let recorder = try reportingInputErrors {
            try Recorder(devices: opened, hideKeycodes: hide, format: chosenFormat, path: output, log: note)
        }
        let ending = try reportingInputErrors { try recorder.run(until: until.map { Interval.seconds($0) }) }
        if ending == .deviceGone { note("every device was removed; recording ended") }
        note("recorded \(recorder.eventCount) events" + (opened.count == 1 ? "" : " from \(opened.count) devices") + " to \(output == "-" ? "<stdout>" : output)")
    }
}
