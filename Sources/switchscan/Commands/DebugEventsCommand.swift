import ArgumentParser
import Foundation
import SwitchCore
import SwitchInput

/// `switchscan debug-events [DEVICE…]`: what the devices send and what the profile's filters make
/// of it, live, without a tree or scanning (`libinput debug-events` for switch access). The same
/// live loop and engine as `run`: a frame line is printed as the engine receives it, then the
/// filter and touch decisions it causes, including those a timer makes later (hold duration).
///
/// ```
///    0.000  device     added /dev/input/event2 "Test One-Key Switch"
///    0.200  event2     KEY_SPACE 1
///    0.200  filter     KEY_SPACE accepted → select
///    0.750  event2     KEY_SPACE 2
///    0.750  filter     KEY_SPACE rejected (autorepeat)
/// ```
struct DebugEventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debug-events",
        abstract: "Print the devices' raw events and what the profile's filters do with them, without a tree.",
        discussion: """
        Reads the named devices, or every readable device (never grabbed), until Ctrl-C or --until. \
        Each frame (the events up to SYN_REPORT) is a line with its device; the filter decisions \
        (accepted → action, rejected and why, long press) and touch decisions follow. Touch points \
        are on a 1920×1080 screen. On a full keyboard, letter, digit, punctuation and Space keys are shown \
        as KEY_A and scancodes as 30 unless --show-keycodes, except the keys the profile binds \
        (they are switches). Times are seconds since the start.
        """)

    @Argument(help: ArgumentHelp("Devices: node path, name (or a unique part of it) or vendor:product. Default: every readable device.", valueName: "DEVICE"))
    var names: [String] = []

    @Option(help: "A profile: a path, or a name (see `switchscan profiles`). Default: ~/.config/switchscan/profile.json, else the built-in defaults.")
    var profile: String?

    @Option(help: "Stop after this many seconds.")
    var until: Double?

    @Flag(help: "Show the real key codes of full keyboards (hidden by default).")
    var showKeycodes = false

    /// Only the format: its lines name no element (no tree), so `--ids` would mean nothing here.
    @Option(help: "Output format: text (aligned, for people) or jsonl (one JSON object per line).")
    var format: TranscriptFormat.Style = .text

    /// Without a tree, touch points are mapped onto a screen of this size.
    static let screen = Size(width: 1920, height: 1080)

    func validate() throws { try validateUntil(until) }

    func run() throws {
        let loaded = try reportingInputErrors { try ProfileLibrary.load(profile) }
        note("profile: " + loaded.described)
        let selected: [SelectedDevice]
        if names.isEmpty {
            let entries = DeviceEnumeration.entries()
            selected = entries.compactMap { e in e.description.map { SelectedDevice(node: e.node, description: $0, explicit: false, reason: "every device") } }
            for e in entries { if let error = e.error { note("\(e.node): \(error.reason)") } }
            if selected.isEmpty {
                throw fail(entries.isEmpty ? "\(DeviceEnumeration.inputDirectory): \(DevicePicking.noDevices)"
                                           : "no input device can be read (see `switchscan devices`)")
            }
        } else {
            selected = try reportingInputErrors {
                try DevicePicking.pick(options: names, profile: loaded.profile, profileFile: loaded.path ?? ProfileLibrary.builtInName).selected
            }
        }

        let bound = Set(loaded.profile.switches.map(\.code))
        let hiding = Dictionary(selected.map { ($0.node, !showKeycodes && KeycodePrivacy.applies(to: $0.description)) }, uniquingKeysWith: { a, _ in a })
        for s in selected where hiding[s.node] == true { note(KeycodePrivacy.note(node: s.node, name: s.description.name)) }

        let style = format
        var pending = ""
        func add(_ text: String) {
            pending += text
            pending += "\n"
        }
        let hooks = LiveRunner.Hooks(
            emit: { line in
                switch line.event {
                case .filter, .touch, .device: add(TranscriptFormat.render(line, as: style))
                default: break
                }
            },
            flush: {
                if pending.isEmpty { return }
                Output.write(pending)
                pending.removeAll(keepingCapacity: true)
            },
            log: note,
            frame: { node, frame in
                var events = frame.events
                if hiding[node] == true {
                    events = events.map { bound.contains($0.code) && $0.type == EventCodes.EV_KEY ? $0 : KeycodePrivacy.hidden($0) }
                }
                add(DebugEventsFormat.frame(node: node, time: frame.time, events: events, as: style))
            })
        let runner: LiveRunner
        do {
            runner = try LiveRunner(devices: selected.map { ($0, grab: false) }, hooks: hooks)
        } catch {
            throw fail("\(error)")
        }
        for s in selected {
            add(TranscriptFormat.render(TranscriptLine(t: .zero, .device(DeviceChange(.added, name: s.description.name, node: s.node))), as: style))
        }
        let tree = ElementTree(screen: Self.screen, root: Element(id: "screen"))
        var engine = Engine(tree: tree, profile: loaded.profile, devices: runner.descriptions)
        do {
            _ = try runner.run(&engine, until: until.map { Instant.seconds($0) })
        } catch {
            printError("switchscan: error: \(error)")
            throw ExitCode.failure
        }
    }
}

/// A frame as `debug-events` prints it: in text, a transcript-like row named after the device
/// node (`   0.200  event2     KEY_SPACE 1`); in jsonl, `{"t":0.200,"type":"evdev","node":…,
/// "events":["KEY_SPACE 1"]}`.
enum DebugEventsFormat {
    static func frame(node: String, time: Instant, events: [InputEvent], as style: TranscriptFormat.Style) -> String {
        let t = time.transcriptString
        switch style {
        case .text:
            let name = TerminalText.line(node.split(separator: "/").last.map(String.init) ?? node)
            return String(repeating: " ", count: max(0, 8 - t.count)) + t + "  " + name
                + String(repeating: " ", count: max(1, 11 - name.count)) + events.map(\.description).joined(separator: ", ")
        case .jsonl:
            var out = "{\"t\":\(t),\"type\":\"evdev\",\"node\":"
            out += JSONOut.string(node).rendered()
            out += ",\"events\":" + JSONOut.array(events.map { .string($0.description) }).rendered() + "}"
            return out
        }
    }
}
