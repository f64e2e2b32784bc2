import Foundation
import SwitchCore

/// `switchscan-bench touch`: the CPU of touch passthrough's pure part per frame passed live, what
/// the live loop adds to a frame between libevdev and the write to uinput (the engine with a touch
/// passthrough profile, the second channel, the protocol-B encoder). The end-to-end latency on a
/// real kernel is `scripts/device-tests/bench-touch-vm.sh`.
enum TouchPassthroughBenchmark {
    static func run(_ arguments: [String]) {
        let frames = arguments.first.flatMap(Int.init) ?? 1_000_000
        let device = DeviceDescription(
            name: "bench panel", properties: [EventCodes.INPUT_PROP_DIRECT],
            codes: [EventCodes.EV_ABS: [EventCodes.ABS_X, EventCodes.ABS_Y, EventCodes.ABS_MT_SLOT, EventCodes.ABS_MT_POSITION_X,
                                        EventCodes.ABS_MT_POSITION_Y, EventCodes.ABS_MT_TRACKING_ID],
                    EventCodes.EV_KEY: [EventCodes.BTN_TOUCH]],
            absInfo: [EventCodes.ABS_X: .init(minimum: 0, maximum: 1919), EventCodes.ABS_Y: .init(minimum: 0, maximum: 1079),
                      EventCodes.ABS_MT_SLOT: .init(minimum: 0, maximum: 9),
                      EventCodes.ABS_MT_POSITION_X: .init(minimum: 0, maximum: 1919), EventCodes.ABS_MT_POSITION_Y: .init(minimum: 0, maximum: 1079),
                      EventCodes.ABS_MT_TRACKING_ID: .init(minimum: 0, maximum: 65535)])
        var profile = Profile()
        profile.switches = []
        let tree = ElementTree(screen: Size(width: 1920, height: 1080), root: Element(id: "screen"))
        var engine = Engine(tree: tree, profile: profile, devices: [device])
        var encoder = VirtualTouchscreenLayout(mirroring: device).encoder()
        func ev(_ code: UInt16, _ v: Int32) -> InputEvent { InputEvent(type: EventCodes.EV_ABS, code: code, value: v) }
        _ = engine.start(at: .zero)
        var written = 0
        func pass(_ frame: InputFrame) {
            _ = engine.handle(frame: frame, device: 0)
            for case .frame(_, let changes) in engine.takeTouchOutput() { written += encoder.encode(changes).count }
        }
        pass(InputFrame(time: .zero, events: [ev(EventCodes.ABS_MT_SLOT, 0), ev(EventCodes.ABS_MT_TRACKING_ID, 1),
                                              ev(EventCodes.ABS_MT_POSITION_X, 500), ev(EventCodes.ABS_MT_POSITION_Y, 500)]))
        let moves = (0..<2).map { k in [ev(EventCodes.ABS_MT_POSITION_X, 600 + Int32(k) * 10), ev(EventCodes.ABS_X, 600 + Int32(k) * 10)] }
        let cpu0 = cpuSeconds()
        for i in 0..<frames {
            pass(InputFrame(time: Instant(microseconds: Int64(i + 1) * 1000), events: moves[i % 2]))
        }
        let cpu = cpuSeconds() - cpu0
        print("touch passthrough: \(frames) frames passed live, \(written) events encoded")
        print(String(format: "  %.3f s of CPU: %.0f ns per frame (%.2f M frames/s)", cpu, cpu / Double(frames) * 1e9, Double(frames) / cpu / 1e6))
    }
}
