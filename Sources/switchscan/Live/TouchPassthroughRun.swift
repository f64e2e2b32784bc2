import ArgumentParser
import SwitchCore
import SwitchInput

/// What `run` does differently when the profile passes touches on to a virtual touchscreen
/// (`touchAccommodations.output`, README/docs "Touch"): a touch-only profile needs no tree,
/// every picked touchscreen is grabbed and mirrored, and /dev/uinput must be writable, which is
/// said at the start with the fix.
enum TouchPassthroughRun {
    /// Without a tree file or --desktop the screen is the overlay's (the countdown is drawn
    /// there) or, as in `debug-events`, 1920×1080: it only names points in the transcript.
    static let defaultScreen = Size(width: 1920, height: 1080)

    /// Neither --tree nor --desktop: fine for a profile that only passes touches on; otherwise
    /// the usage error `run` always gave, with why.
    static func checkTreeless(_ profile: Profile) throws {
        guard profile.scans || !profile.passesTouch else { return }
        printError("switchscan: error: give a tree file or --desktop: \(treelessProblem(profile)) (see 'switchscan run --help')")
        throw ExitCode(CommandLineConventions.usageStatus)
    }

    /// Why `profile` needs a tree, and how to get touch passthrough (touches filtered, then
    /// passed on to the desktop), which needs none.
    static func treelessProblem(_ profile: Profile) -> String {
        guard profile.scans else {
            return "touchAccommodations.output is \"activate\": taps activate the elements of a tree; for touch passthrough without a tree, remove it (a profile with \"switches\": [] passes touches on)"
        }
        if profile.touchAccommodations.touchAsSwitch != nil {
            return "the profile scans (the screen is a switch); for touch passthrough without a tree (touches filtered, then passed on to the desktop), remove touchAsSwitch and give \"switches\": []"
        }
        return "the profile scans (it has switches); for touch passthrough without a tree (touches filtered, then passed on to the desktop), give a profile with \"switches\": []; to scan and pass touches on too, keep the switches, set touchAccommodations.output to \"virtualTouchscreen\" and give a tree file or --desktop"
    }

    /// The engine's tree when there is none: the screen, nothing to scan.
    static func screenOnly(_ screen: Size) -> ElementTree {
        ElementTree(screen: screen, root: Element(id: "screen"))
    }

    /// Whether touches will be mirrored, and /dev/uinput writable if so: the failure is said
    /// at the start (exit status 2), with the fix.
    static func mirrors(_ profile: Profile, _ selected: [SelectedDevice]) throws -> Bool {
        guard profile.passesTouch, selected.contains(where: { $0.description.isTouchscreen }) else { return false }
        if let problem = VirtualTouchscreen.accessProblem() {
            throw fail("touch passthrough needs /dev/uinput for the virtual touchscreen: \(problem.reason)")
        }
        return true
    }
}
