import ArgumentParser

@main
struct SwitchScan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchscan",
        abstract: "Switch control and touch accommodations for Linux input devices.",
        discussion: """
        Reads switches and touchscreens through libevdev, filters them (debounce, hold duration, \
        ignore repeat, long press, tap assistance) and scans an accessibility element tree the way \
        iOS Switch Control does. Exit status: 0 done, 1 audit findings, 2 bad input or a usage \
        error (one line on stderr, starting "switchscan: error:"). A FILE argument or option may \
        be - for standard input (or standard output, for -o); pipes and FIFOs are read like files.

        Files: profiles by name from $SWITCHSCAN_PROFILES (when set), \
        $XDG_CONFIG_HOME/switchscan/profiles (~/.config/switchscan/profiles), then \
        <prefix>/share/switchscan/profiles, then ./Profiles, then the build tree's Profiles; the \
        default profile $XDG_CONFIG_HOME/switchscan/profile.json (see `switchscan profiles`). The udev rule \
        70-switchscan.rules gives the user at the seat access to switch-like devices; the systemd \
        user unit switchscan.service starts `run --desktop` with the graphical session.

        The manual (setting up a person, profiles, scanning methods, the live desktop, formats, \
        the transcript): <prefix>/share/doc/switchscan/README.md and docs/ beside it, installed \
        with the tool (/usr/share/doc/switchscan with the Debian package).
        """,
        version: SwitchScanVersion.string,
        subcommands: [TreeCommand.self, TextCommand.self, PresageServerCommand.self, SimulateCommand.self, DemoCommand.self, RunCommand.self, DevicesCommand.self, RecordCommand.self, CalibrateCommand.self,
                      ProfilesCommand.self, DebugEventsCommand.self, SetupCommand.self]
    )

    /// The conventions of libinput's tools for every command (`CommandLineConventions`).
    static func main() {
        CommandLineConventions.main(SwitchScan.self)
    }
}
