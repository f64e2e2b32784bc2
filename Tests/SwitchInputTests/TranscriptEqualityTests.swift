import Foundation
import SwitchCore
import SwitchFormats
import TestPrograms
import Testing

/// "`run` under umockdev prints the same transcript as the simulator on the same events": the
/// live run gets the events written live (umockdev's GI API, after the `running` note), the
/// simulator gets the same frames in-process through `Simulation.transcript`, at the times the live
/// engine gave them (`--show-frames`: umockdev refuses CLOCK_MONOTONIC, so a frame's time is its
/// wall-clock stamp, its scenario time plus the driver's latency, which on a loaded machine is tens
/// of milliseconds); lines are compared one by one, everything but `t` exactly and `t` within
/// `tolerance`. Presses are kept well away from the 1 s scan steps (the item steps from 0, a menu's
/// from when it opened). (The same on a real kernel, with its stamps and a
/// recording: `scripts/device-tests/vm-inside.sh`, "equality".)
@Suite(.serialized, .needs(DeviceHarness.liveNeeds, python: DeviceHarness.livePython))
struct TranscriptEqualityTests {
    static let tolerance = 0.03
    let tree = DeviceHarness.fixtures + "/tree.json"

    /// One scripted input: at `ms` after the start, these events (a frame, SYN_REPORT added).
    struct Step { var ms: Int64; var events: [InputEvent] }

    func key(_ value: Int32) -> InputEvent { InputEvent(type: EventCodes.EV_KEY, code: EventCodes.KEY_SPACE, value: value) }
    func abs(_ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(type: EventCodes.EV_ABS, code: code, value: value) }

    func compare(fixture: DeviceHarness.Fixture, device: DeviceDescription, profilePath: String, steps: [Step], until: Double) throws {
        // Live.
        var scenario = "wait running\n"
        var at: Int64 = 0
        for step in steps {
            scenario += "sleep \(step.ms - at)\n"
            at = step.ms
            for e in step.events { scenario += "event \(fixture.node) \(e.type) \(e.code) \(e.value)\n" }
            scenario += "event \(fixture.node) 0 0 0\n"
        }
        let r = DeviceHarness.live([fixture], scenario: scenario,
                                   ["run", "--tree", tree, "--profile", profilePath, "--device", fixture.node,
                                    "--until", String(until), "--format", "jsonl", "--show-frames"])
        #expect(r.status == 0, "\(r.stderr)")
        let live = r.stdoutLines
        // The frames as the live engine timed them, one a step.
        let times = r.frameTimes.map { Int64(($0 * 1_000_000).rounded()) }
        try #require(times.count == steps.count, "frames \(r.frames) for \(steps.count) steps")

        // Simulated, on the same frames.
        let treeValue = try TreeFile.decode(Array(try Data(contentsOf: URL(fileURLWithPath: tree))), file: tree)
        let profile = try ProfileDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: profilePath))), file: profilePath)
        var engine = Engine(tree: treeValue, profile: profile, devices: [device])
        let inputs = zip(steps, times).map { step, us in Simulation.Input.frame(InputFrame(time: Instant(microseconds: us), events: step.events), device: 0) }
        let simulated = Simulation.transcript(&engine, inputs: inputs, until: .seconds(until)).map(TranscriptFormat.jsonl)

        #expect(!simulated.isEmpty)
        #expect(live.count == simulated.count, "live:\n\(live.joined(separator: "\n"))\nsimulated:\n\(simulated.joined(separator: "\n"))")
        for (l, s) in zip(live, simulated) {
            let (lt, lrest) = split(l), (st, srest) = split(s)
            #expect(lrest == srest, "live \(l) vs simulated \(s)")
            // In whole milliseconds (the transcript's unit): 1.230 − 1.200 is 0.030000000000000027
            // in Double, which is not above a 30 ms tolerance.
            #expect((Swift.abs(lt - st) * 1000).rounded() <= (TranscriptEqualityTests.tolerance * 1000).rounded(), "live \(l) vs simulated \(s)")
        }
    }

    /// `{"t":1.234,"type":…}` → (1.234, `{"type":…}`).
    func split(_ line: String) -> (Double, String) {
        guard let m = line.firstMatch(of: /^\{"t":(-?[0-9.]+),/), let t = Double(m.1) else { return (-1, line) }
        return (t, "{" + line[m.range.upperBound...])
    }

    @Test func switchPressesGiveTheSimulatorsTranscript() throws {
        let device = DeviceDescription(name: "Test One-Key Switch", bus: 3, vendor: 0x1234, product: 0x5678, version: 1,
                                       codes: [EventCodes.EV_KEY: [EventCodes.KEY_SPACE], EventCodes.EV_REP: [0, 1]])
        try compare(fixture: .oneKeySwitch, device: device, profilePath: DeviceHarness.fixtures + "/profile-space.json",
                    // The second press at 1.2 s: the menu opened by the first (at 0.4 s plus the
                    // read latency) steps at 1.4 s plus that latency, and a press there raced it.
                    steps: [Step(ms: 400, events: [key(1)]), Step(ms: 500, events: [key(0)]),
                            Step(ms: 1200, events: [key(1)]), Step(ms: 1320, events: [key(0)]),
                            Step(ms: 2450, events: [key(1)]), Step(ms: 2550, events: [key(0)])],
                    until: 3.2)
    }

    @Test func touchTapGivesTheSimulatorsTranscript() throws {
        let device = DeviceDescription(name: "Test MT Touchscreen", bus: 0x18, vendor: 0x045e, product: 0x04d2, version: 0x100,
                                       properties: [EventCodes.INPUT_PROP_DIRECT],
                                       codes: [EventCodes.EV_KEY: [EventCodes.BTN_TOUCH],
                                               EventCodes.EV_ABS: [0, 1, EventCodes.ABS_MT_SLOT, EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y, EventCodes.ABS_MT_TRACKING_ID]],
                                       absInfo: [0: .init(minimum: 0, maximum: 1919, resolution: 10), 1: .init(minimum: 0, maximum: 1079, resolution: 10),
                                                 EventCodes.ABS_MT_SLOT: .init(minimum: 0, maximum: 9),
                                                 EventCodes.ABS_MT_POSITION_X: .init(minimum: 0, maximum: 1919, resolution: 10),
                                                 EventCodes.ABS_MT_POSITION_Y: .init(minimum: 0, maximum: 1079, resolution: 10),
                                                 EventCodes.ABS_MT_TRACKING_ID: .init(minimum: 0, maximum: 65535)])
        let down: [InputEvent] = [abs(EventCodes.ABS_MT_TRACKING_ID, 7), abs(EventCodes.ABS_MT_POSITION_X, 200), abs(EventCodes.ABS_MT_POSITION_Y, 300),
                                  InputEvent(type: EventCodes.EV_KEY, code: EventCodes.BTN_TOUCH, value: 1), abs(0, 200), abs(1, 300)]
        let up: [InputEvent] = [abs(EventCodes.ABS_MT_TRACKING_ID, -1), InputEvent(type: EventCodes.EV_KEY, code: EventCodes.BTN_TOUCH, value: 0)]
        try compare(fixture: .touchscreen, device: device, profilePath: DeviceHarness.fixtures + "/profile-touch.json",
                    steps: [Step(ms: 300, events: down), Step(ms: 550, events: up),
                            Step(ms: 900, events: down), Step(ms: 950, events: up)],
                    until: 1.5)
    }
}
