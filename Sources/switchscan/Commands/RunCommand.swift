import ArgumentParser
import Foundation
import SwitchCore
import SwitchInput

/// `switchscan run`: the live engine on real devices. Prints the transcript as it happens; ends
/// at --until or on Ctrl-C (status 0); SIGHUP re-reads the tree.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the engine on live input devices and print the transcript as it happens.",
        discussion: """
        Devices: --device options, else the profile's "devices", else every device that has one of \
        the profile's switch keys (plus touchscreens when the profile uses touch). The picked devices \
        are named on stderr. Ctrl-C or SIGTERM ends the run (status 0); SIGHUP re-reads --tree. \
        Exit status 2 for bad input, a device that cannot be opened, or --inject without /dev/uinput.
        """)

    @Option(help: "The element tree file.")
    var tree: String

    @Option(help: "The profile (a JSON file).")
    var profile: String

    @Option(name: .customLong("device"), help: "A device: node path, name (or a unique part of it) or vendor:product. Repeatable.")
    var devices: [String] = []

    @Option(help: "Stop after this many seconds.")
    var until: Double?

    @Option(help: "text or jsonl.")
    var format: RunFormat = .text

    /// Its own enum (not a retroactive conformance of `TranscriptFormat.Style`), so another
    /// command can parse the same words without the two conformances clashing.
    enum RunFormat: String, ExpressibleByArgument {
        case text, jsonl
        var style: TranscriptFormat.Style { self == .text ? .text : .jsonl }
    }

    @Flag(help: "Grab the devices (EVIOCGRAB) so their keys reach no other program. Never grabs your only full keyboard unless named.")
    var grab = false

    @Flag(help: "Perform activations and escape on the desktop through a uinput device (needs /dev/uinput).")
    var inject = false

    @Flag(help: "Print every frame the engine receives on stderr.")
    var showFrames = false

    func validate() throws {
        if let until, !(until >= 0 && until <= 86_400 * 365) {
            throw ValidationError("--until must be a number of seconds between 0 and 31536000")
        }
    }

    func run() throws {
        let treeValue = try reportingInputErrors { try InputFiles.tree(tree) }
        let profileValue = try reportingInputErrors { try loadProfile(profile) }

        var output: UInputOutput?
        if inject {
            do {
                output = try UInputOutput(screen: treeValue.screen)
            } catch {
                printError("switchscan: error: \(error)")
                throw Exit.badInput
            }
            if let node = output?.node { note("injecting into \(node) \"\(UInputOutput.deviceName)\"") }
        }

        let (selected, entries) = try reportingInputErrors {
            try DevicePicking.pick(options: devices, profile: profileValue, profileFile: profile)
        }
        let grabs = grab ? DeviceSelection.grabDecisions(selected, entries: entries)
                         : selected.map { _ in GrabDecision(grab: false, warning: nil) }
        for (s, g) in zip(selected, grabs) {
            note("reading \(s.node) \"\(s.description.name)\" (\(s.reason))" + (g.grab ? ", grabbed" : ""))
            if let w = g.warning { note(w) }
        }

        let style = format.style
        let treePath = tree
        // The lines of one wakeup go out in one write(2), before the loop sleeps again (a write
        // per line was a third of the CPU time of a switch press in the VM benchmark).
        var pending = ""
        pending.reserveCapacity(4096)
        let hooks = LiveRunner.Hooks(
            emit: { line in
                pending += TranscriptFormat.render(line, as: style)
                pending += "\n"
                if let output {
                    for message in output.perform(output.plan.steps(for: line)) { note(message) }
                }
            },
            flush: {
                if pending.isEmpty { return }
                writeToStandardOutput(&pending)
                pending.removeAll(keepingCapacity: true)
            },
            log: note,
            showFrame: showFrames ? { printError($0) } : nil,
            reloadTree: { () throws(InputError) -> ElementTree in try InputFiles.tree(treePath) })
        let runner: LiveRunner
        do {
            let plan: [(SelectedDevice, grab: Bool)] = zip(selected, grabs).map { ($0, grab: $1.grab) }
            runner = try LiveRunner(devices: plan, hooks: hooks)
        } catch {
            printError("switchscan: error: \(error)")
            throw Exit.badInput
        }
        var engine = Engine(tree: treeValue, profile: profileValue, devices: runner.descriptions)
        do {
            _ = try runner.run(&engine, until: until.map { Instant.seconds($0) })
        } catch {
            printError("switchscan: error: \(error)")
            throw ExitCode.failure
        }
    }
}

/// Writes all of `text` to fd 1 (retrying short writes and EINTR); gives up silently on another
/// error, like `Output.line` (a closed pipe ends the program with SIGPIPE anyway).
private func writeToStandardOutput(_ text: inout String) {
    text.withUTF8 { buffer in
        guard var p = buffer.baseAddress else { return }
        var n = buffer.count
        while n > 0 {
            let w = Foundation.write(1, p, n)
            if w < 0 && errno == EINTR { continue }
            if w <= 0 { return }
            p += w
            n -= w
        }
    }
}
