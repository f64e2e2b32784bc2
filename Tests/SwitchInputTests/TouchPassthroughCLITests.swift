import Foundation
import SwitchCore
import SwitchInput
import Testing

/// Touch passthrough on the command line, through the real binary on emulated nodes (issue 20):
/// `run` with a touch-only profile needs no tree and says at the start that it needs /dev/uinput
/// (umockdev has none), the profiles that scan still need a tree, switchscan never opens a device
/// named `switchscan …`, and `debug-events` shows the passthrough's decisions without grabbing.
/// The virtual touchscreen itself is tested on a real kernel (`vm-touch.sh`).
extension UmockdevTests {
    static let ownTouch = F(name: "own-touch", node: "/dev/input/event12")
    var passthroughProfile: String { DeviceHarness.fixtures + "/profile-touch-passthrough.json" }
    static let noUInput = !FileManager.default.fileExists(atPath: "/dev/uinput")

    @Test(.enabled(if: noUInput, "this machine has /dev/uinput: the VM suite checks run there"))
    func runWithATouchOnlyProfileNeedsNoTreeAndSaysUInputIsMissing() {
        let r = DeviceHarness.umockdev([F.touchscreen], ["run", "--profile", passthroughProfile, "--until", "2"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("switchscan: error: touch passthrough needs /dev/uinput for the virtual touchscreen: /dev/uinput does not exist: load the uinput module (sudo modprobe uinput)\n"), "\(r.stderr)")
        #expect(r.stderr.contains("reading /dev/input/event5") == false, "said before any device is opened")
        #expect(r.stdout.isEmpty)
    }

    @Test func runWithAProfileThatScansStillNeedsATree() {
        let r = DeviceHarness.umockdev([F.oneKeySwitch], ["run", "--profile", profile, "--until", "1"])
        #expect(r.status == 2)
        // Issue 32: and how to get touch passthrough, which needs no tree.
        #expect(r.stderr.hasSuffix("switchscan: error: give a tree file or --desktop: the profile scans (it has switches); for touch passthrough without a tree (touches filtered, then passed on to the desktop), give a profile with \"switches\": []; to scan and pass touches on too, keep the switches, set touchAccommodations.output to \"virtualTouchscreen\" and give a tree file or --desktop (see 'switchscan run --help')\n"), "\(r.stderr)")
        let activate = DeviceHarness.umockdev([F.touchscreen], ["run", "--profile", touchProfile, "--until", "1"])
        #expect(activate.status == 2)
        #expect(activate.stderr.contains("give a tree file or --desktop: touchAccommodations.output is \"activate\": taps activate the elements of a tree; for touch passthrough without a tree, remove it"))
    }

    @Test func devicesNeverOpensSwitchscansOwnDevices() {
        let r = DeviceHarness.umockdev([F.touchscreen, Self.ownTouch], ["devices"])
        #expect(r.status == 0)
        #expect(r.stdoutLines.filter { $0.hasPrefix("Kernel:") } == ["Kernel:       /dev/input/event5"])
        #expect(!r.stdout.contains("switchscan Test MT Touchscreen"))
        let named = DeviceHarness.umockdev([F.touchscreen, Self.ownTouch], ["debug-events", Self.ownTouch.node, "--until", "1"])
        #expect(named.status == 2)
        #expect(named.stderr.hasSuffix("switchscan: error: --device /dev/input/event12: \"switchscan Test MT Touchscreen\" is a device switchscan made; it never reads its own devices (what it writes must not come back as input): name the real device\n"), "\(named.stderr)")
        // Picked automatically by a touch profile: only the real touchscreen.
        let auto = DeviceHarness.umockdev([F.touchscreen, Self.ownTouch], ["debug-events", "--profile", passthroughProfile, "--until", "0.5"])
        #expect(auto.stdout.contains("/dev/input/event5") && !auto.stdout.contains("/dev/input/event12"), "\(auto.stdout)\n\(auto.stderr)")
    }

    /// An events file (`E: SECONDS TYPE CODE VALUE`, hex type and code) as live scenario lines:
    /// each frame at its time after the run started.
    static func scenario(_ file: String, node: String) throws -> String {
        var out = "wait running\n", at = 0.0
        for line in try String(contentsOfFile: DeviceHarness.devices + "/" + file, encoding: .utf8).split(separator: "\n") where line.hasPrefix("E: ") {
            let f = line.split(separator: " ")
            guard f.count == 5, let t = Double(f[1]), let type = Int(f[2], radix: 16), let code = Int(f[3], radix: 16), let value = Int(f[4]) else { continue }
            if t > at { out += "sleep \(Int(((t - at) * 1000).rounded()))\n"; at = t }
            out += "event \(node) \(type) \(code) \(value)\n"
        }
        return out
    }

    /// debug-events with a touch-only profile: the decisions `run` would pass on, one line per
    /// touch (the two-finger touch is one gesture of two contacts), nothing grabbed or created.
    /// Device units 0…1919 map onto 1920 points.
    @Test(.needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
    func debugEventsShowsThePassthroughDecisions() throws {
        // touch.events written live (real stamps, so the contacts last what the file says however
        // late a loaded machine reads them), until the third touch's decision is out.
        let r = DeviceHarness.live([F.touchscreen], scenario: try Self.scenario("touch.events", node: F.touchscreen.node)
                                   + #"expect "type":"touch".*"contact":9"# + "\nsignal INT\n",
                                   ["debug-events", "--profile", passthroughProfile, "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        let touches = r.stdoutLines.filter { $0.contains(#""type":"touch""#) }.map {
            $0.replacingOccurrences(of: #""t":[0-9.]+,"#, with: "", options: .regularExpression)
              .replacingOccurrences(of: #""seconds":[0-9.]+,"#, with: "", options: .regularExpression)
        }
        #expect(touches == [
            #"{"type":"touch","decision":"gesture","from":[960.5,540.5],"to":[960.5,540.5],"output":"virtualTouchscreen","contact":7}"#,
            #"{"type":"touch","decision":"gesture","from":[100.052,200.185],"to":[100.052,200.185],"output":"virtualTouchscreen","contact":8}"#,
            #"{"type":"touch","decision":"gesture","from":[300.156,400.371],"to":[300.156,400.371],"output":"virtualTouchscreen","contact":9}"#,
        ])
    }
}
