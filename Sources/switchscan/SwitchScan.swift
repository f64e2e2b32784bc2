import ArgumentParser

@main
struct SwitchScan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchscan",
        abstract: "Switch control and touch accommodations for Linux input devices.",
        discussion: """
        Reads switches and touchscreens through libevdev, filters them (debounce, hold duration, \
        ignore repeat, long press, tap assistance) and scans an accessibility element tree the way \
        iOS Switch Control does. Exit status: 0 done, 1 audit findings, 2 bad input.
        """,
        subcommands: [TreeCommand.self, SimulateCommand.self, DemoCommand.self, RunCommand.self, DevicesCommand.self, RecordCommand.self, CalibrateCommand.self]
    )
}
