import Foundation
import SwitchCore
import SwitchFormats

/// Issue target: the simulator pushes at least 1,000,000 input events per second of CPU time
/// through the full engine (switch pipelines, touch tracker and filter, scanner, one timer queue).
/// Input: a generated session of `hours` (default 2) virtual hours on two devices: a keyboard
/// used as two switches (presses with chatter and autorepeat storms) and a protocol-B
/// touchscreen (one- and two-finger taps, drags and swipes at 100 frames/s). The engine scans the
/// bundled demo tree, or a generated grid of `items` buttons.
///
///     swift run -c release switchscan-bench simulate [hours] [items]
enum SimulatorBenchmark {
    static func run(_ args: [String]) {
        let hours = Double(args.first ?? "") ?? 2
        let tree: ElementTree
        if args.count > 1, let items = Int(args[1]) {
            tree = GeneratedTrees.grid(items: items)
        } else {
            tree = GeneratedTrees.demo()
        }
        let end = Int64(hours * 3_600_000_000)
        let keyboard = SwitchRecordingGenerator.events(keyEvents: .max, codes: [EventCodes.KEY_SPACE, keyEnter], seed: 11, until: end)
        let touches = TouchStreamGenerator.frames(until: end, seed: 5)
        var inputs = InputFrame.frames(from: keyboard).map { Simulation.Input.frame($0, device: 0) }
        inputs += touches.map { Simulation.Input.frame($0, device: 1) }
        let frames = inputs.count
        let keyEvents = keyboard.count
        let touchEvents = touches.reduce(0) { $0 + $1.events.count + 1 }  // + its SYN_REPORT
        let events = keyEvents + touchEvents
        let devices = [SessionDevices.keyboard, SessionDevices.touchscreen]
        let profile = SessionDevices.profile
        let model = ScanModel(tree: tree)
        print("session: \(String(format: "%.1f", hours)) h virtual; \(events) evdev events in \(frames) frames "
              + "(keyboard \(keyEvents), touchscreen \(touchEvents)); scan order: \(model.items.count) items, \(model.groups.count) groups")

        let all = measure(tree: tree, profile: profile, devices: devices, inputs: inputs)
        let rate = Double(events) / all.median
        print("transcript: \(all.lines) lines (" + all.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")")
        print(String(format: "simulate: median %.3f s CPU (min %.3f, max %.3f) over 3 runs: %.2f M events/s, %.2f M frames/s; target ≥ 1 M events/s: %@",
                     all.median, all.min, all.max, rate / 1e6, Double(frames) / all.median / 1e6, rate >= 1_000_000 ? "met" : "MISSED"))
        // Each device alone: the switch path and the touch path have their own costs.
        let keyInputs = inputs.filter { if case .frame(device: 0, _) = $0.kind { return true }; return false }
        let keysOnly = measure(tree: tree, profile: profile, devices: devices, inputs: keyInputs)
        let touchOnly = measure(tree: tree, profile: profile, devices: devices, inputs: inputs.filter {
            if case .frame(device: 1, _) = $0.kind { return true }; return false
        })
        print(String(format: "  keyboard alone: %.3f s CPU, %.2f M events/s; touchscreen alone: %.3f s CPU, %.2f M events/s",
                     keysOnly.median, Double(keyEvents) / keysOnly.median / 1e6, touchOnly.median, Double(touchEvents) / touchOnly.median / 1e6))

        // The same run printed as JSONL (what `simulate --format jsonl` adds on top of the engine).
        var engine = Engine(tree: tree, profile: profile, devices: devices)
        var bytes = 0
        let cpu = cpuSeconds()
        Simulation.run(&engine, inputs: inputs) { bytes += TranscriptFormat.jsonl($0).utf8.count + 1 }
        let rendered = cpuSeconds() - cpu
        print(String(format: "with JSONL rendering: %.3f s CPU, %.2f M events/s, %.1f MB of transcript",
                     rendered, Double(events) / rendered / 1e6, Double(bytes) / 1e6))
    }

    /// Three runs of the engine over `inputs`: CPU seconds (median, min, max), lines, lines by kind.
    static func measure(tree: ElementTree, profile: Profile, devices: [DeviceDescription], inputs: [Simulation.Input])
        -> (median: Double, min: Double, max: Double, lines: Int, counts: [String: Int]) {
        var times: [Double] = []
        var lines = 0
        var counts: [String: Int] = [:]
        for _ in 0..<3 {
            var engine = Engine(tree: tree, profile: profile, devices: devices)
            var n = 0
            var perKind = [0, 0, 0, 0]
            let cpu = cpuSeconds()
            Simulation.run(&engine, inputs: inputs) { line in
                n += 1
                switch line.event {
                case .filter: perKind[0] += 1
                case .touch: perKind[1] += 1
                case .highlight: perKind[2] += 1
                case .perform: perKind[3] += 1
                default: break
                }
            }
            times.append(cpuSeconds() - cpu)
            lines = n
            counts = ["filter": perKind[0], "touch": perKind[1], "highlight": perKind[2], "perform": perKind[3]]
        }
        times.sort()
        return (times[1], times[0], times[2], lines, counts)
    }
}

/// Issue target: a 10,000-item tree scanned for an hour of virtual time in under 2 s. Auto
/// scanning at the fastest step a profile allows (0.1 s, so 36,000 steps an hour), 100 loops so it
/// never stops by itself, and a select every 3 minutes (activate, resume at the first item).
/// Once flat (one stop per item) and once with group scanning (100 rows of 100).
///
///     swift run -c release switchscan-bench scan-hour [items]
enum ScanHourBenchmark {
    static func run(_ args: [String]) {
        let items = Int(args.first ?? "") ?? 10_000
        let tree = GeneratedTrees.grid(items: items)
        for grouped in [false, true] {
            var profile = Profile()
            profile.scanning.style = .auto
            profile.scanning.autoScanningTime = .seconds(0.1)
            profile.scanning.loops = 100
            profile.scanning.groupItems = grouped
            profile.scanning.tapBehavior = .alwaysTap
            profile.switches = [SwitchBinding(keyName: "KEY_SPACE", code: EventCodes.KEY_SPACE, action: .select)]
            var inputs: [Simulation.Input] = []
            for minute in stride(from: 3, to: 60, by: 3) {
                let t = Int64(minute) * 60_000_000
                for (dt, value) in [(Int64(0), Int32(1)), (100_000, 0)] {
                    inputs.append(.frame(InputFrame(time: Instant(microseconds: t + dt),
                                                    events: [InputEvent(type: EventCodes.EV_KEY, code: EventCodes.KEY_SPACE, value: value)]),
                                         device: 0))
                }
            }
            var times: [Double] = []
            var lines = 0, highlights = 0, performs = 0, stopped = 0
            var stops = 0
            for _ in 0..<3 {
                let cpu = cpuSeconds()
                var engine = Engine(tree: tree, profile: profile, devices: [SessionDevices.keyboard])
                stops = grouped ? engine.model.groups.count : engine.model.items.count
                lines = 0; highlights = 0; performs = 0; stopped = 0
                Simulation.run(&engine, inputs: inputs, until: .seconds(3600)) { line in
                    lines += 1
                    switch line.event {
                    case .highlight: highlights += 1
                    case .perform: performs += 1
                    case .scan(started: false): stopped += 1
                    default: break
                    }
                }
                times.append(cpuSeconds() - cpu)
            }
            times.sort()
            print("scan-hour \(grouped ? "grouped" : "flat"): \(items) items\(grouped ? " in \(stops) groups" : ""); 1 h virtual: "
                  + "\(highlights) highlights, \(performs) performs, \(stopped) stops, \(lines) lines")
            print(String(format: "  median %.3f s CPU (min %.3f, max %.3f) over 3 runs, tree model included; target < 2 s: %@",
                         times[1], times[0], times[2], times[1] < 2 ? "met" : "MISSED"))
        }
    }
}

/// The devices of a generated session and the profile that uses them.
enum SessionDevices {
    static let keyboard = DeviceDescription(name: "Generated switch interface", bus: 3, vendor: 0x1234, product: 0x0001,
                                            codes: [EventCodes.EV_KEY: [EventCodes.KEY_SPACE, keyEnter]])

    /// Like the Atmel maXTouch of the real recordings: protocol B, 10 slots, 800 × 480.
    static let touchscreen = DeviceDescription(
        name: "Generated touchscreen", bus: 0x18, properties: [EventCodes.INPUT_PROP_DIRECT],
        codes: [EventCodes.EV_KEY: [EventCodes.BTN_TOUCH],
                EventCodes.EV_ABS: [EventCodes.ABS_X, EventCodes.ABS_Y, EventCodes.ABS_MT_SLOT, EventCodes.ABS_MT_POSITION_X,
                                    EventCodes.ABS_MT_POSITION_Y, EventCodes.ABS_MT_TRACKING_ID]],
        absInfo: [EventCodes.ABS_X: .init(minimum: 0, maximum: 799), EventCodes.ABS_Y: .init(minimum: 0, maximum: 479),
                  EventCodes.ABS_MT_SLOT: .init(minimum: 0, maximum: 9),
                  EventCodes.ABS_MT_POSITION_X: .init(minimum: 0, maximum: 799), EventCodes.ABS_MT_POSITION_Y: .init(minimum: 0, maximum: 479),
                  EventCodes.ABS_MT_TRACKING_ID: .init(minimum: 0, maximum: 65535)])

    /// Every filter on: debounce, hold duration, ignore repeat, long press on one switch; touch
    /// hold duration, ignore repeat and tap assistance (so touches set timers too).
    static var profile: Profile {
        var p = Profile()
        p.name = "benchmark"
        p.scanning.style = .auto
        p.scanning.autoScanningTime = .seconds(0.5)
        p.scanning.loops = 4
        p.switches = [SwitchBinding(keyName: "KEY_SPACE", code: EventCodes.KEY_SPACE, action: .select, longPressAction: .menu),
                      SwitchBinding(keyName: "KEY_ENTER", code: keyEnter, action: .next)]
        p.switchStabilization.debounce = .seconds(0.025)
        p.switchStabilization.holdDuration = .seconds(0.08)
        p.switchStabilization.ignoreRepeat = .seconds(0.3)
        p.switchStabilization.longPress = .seconds(1.5)
        p.touchAccommodations.holdDuration = .seconds(0.05)
        p.touchAccommodations.ignoreRepeat = .seconds(0.2)
        p.touchAccommodations.tapAssistance = .initial
        p.touchAccommodations.tapAssistanceGestureDelay = .seconds(0.4)
        return p
    }
}

/// A touchscreen session: touches 0.2–2 s apart, one finger (85 %) or two, lasting 60–900 ms,
/// still, wandering or swiping, reported every 10 ms the way protocol B does (only changed
/// values; ABS_MT_SLOT only when another slot is meant; the single-touch emulation for the first
/// finger).
enum TouchStreamGenerator {
    static func frames(until end: Int64, seed: UInt64) -> [InputFrame] {
        var random = SwitchRecordingGenerator.Random(state: seed)
        var frames: [InputFrame] = []
        var t: Int64 = 0
        var trackingID: Int32 = 0
        var currentSlot: Int32 = 0
        func abs(_ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(type: EventCodes.EV_ABS, code: code, value: value) }
        while true {
            t += random.int(200_000...2_000_000)
            let duration = random.int(60_000...900_000)
            if t + duration + 10_000 >= end { break }
            let fingers = random.chance(15) ? 2 : 1
            // Start, velocity (units per frame) and jitter per finger.
            var x = (0..<fingers).map { _ in Int32(random.int(50...750)) }
            var y = (0..<fingers).map { _ in Int32(random.int(50...430)) }
            let swipe = random.chance(30)
            let vx = (0..<fingers).map { _ in swipe ? Int32(random.int(-12...12)) : 0 }
            let vy = (0..<fingers).map { _ in swipe ? Int32(random.int(-12...12)) : 0 }
            var events: [InputEvent] = []
            for f in 0..<fingers {
                if currentSlot != Int32(f) { events.append(abs(EventCodes.ABS_MT_SLOT, Int32(f))); currentSlot = Int32(f) }
                trackingID += 1
                events += [abs(EventCodes.ABS_MT_TRACKING_ID, trackingID), abs(EventCodes.ABS_MT_POSITION_X, x[f]),
                           abs(EventCodes.ABS_MT_POSITION_Y, y[f])]
            }
            events += [InputEvent(type: EventCodes.EV_KEY, code: EventCodes.BTN_TOUCH, value: 1), abs(EventCodes.ABS_X, x[0]), abs(EventCodes.ABS_Y, y[0])]
            frames.append(InputFrame(time: Instant(microseconds: t), events: events))
            var ft = t + 10_000
            while ft < t + duration {
                events = []
                for f in 0..<fingers {
                    let nx = min(max(x[f] + vx[f] + Int32(random.int(-2...2)), 0), 799)
                    let ny = min(max(y[f] + vy[f] + Int32(random.int(-2...2)), 0), 479)
                    if nx == x[f] && ny == y[f] { continue }
                    if currentSlot != Int32(f) { events.append(abs(EventCodes.ABS_MT_SLOT, Int32(f))); currentSlot = Int32(f) }
                    if nx != x[f] { events.append(abs(EventCodes.ABS_MT_POSITION_X, nx)) }
                    if ny != y[f] { events.append(abs(EventCodes.ABS_MT_POSITION_Y, ny)) }
                    if f == 0 {
                        if nx != x[f] { events.append(abs(EventCodes.ABS_X, nx)) }
                        if ny != y[f] { events.append(abs(EventCodes.ABS_Y, ny)) }
                    }
                    x[f] = nx
                    y[f] = ny
                }
                if !events.isEmpty { frames.append(InputFrame(time: Instant(microseconds: ft), events: events)) }
                ft += 10_000
            }
            events = []
            for f in 0..<fingers {
                if currentSlot != Int32(f) { events.append(abs(EventCodes.ABS_MT_SLOT, Int32(f))); currentSlot = Int32(f) }
                events.append(abs(EventCodes.ABS_MT_TRACKING_ID, -1))
            }
            events.append(InputEvent(type: EventCodes.EV_KEY, code: EventCodes.BTN_TOUCH, value: 0))
            frames.append(InputFrame(time: Instant(microseconds: ft), events: events))
        }
        return frames
    }
}

/// Trees for the benchmarks.
enum GeneratedTrees {
    /// The bundled demo tree (16 scan items), read from the checkout.
    static func demo() -> ElementTree {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("Sources/switchscan/Demo/demo-tree.json").path
        guard let data = FileManager.default.contents(atPath: path), let tree = try? TreeFile.decode([UInt8](data), file: path) else {
            print("(demo tree not found at \(path); using a 16-item grid)")
            return grid(items: 16)
        }
        return tree
    }

    /// `items` buttons in rows of √items (rows are containers with frames: groups when grouping),
    /// on a 1000 × 1000 screen.
    static func grid(items: Int) -> ElementTree {
        let side = max(1, Int(Double(items).squareRoot().rounded(.up)))
        let rowsCount = (items + side - 1) / side
        let w = 1000.0 / Double(side), h = 1000.0 / Double(rowsCount)
        var rows: [Element] = []
        var made = 0
        for r in 0..<rowsCount {
            var cells: [Element] = []
            for c in 0..<side where made < items {
                cells.append(Element(id: "b\(made)", label: "Button \(made)", traits: .button,
                                     frame: Rect(x: Double(c) * w, y: Double(r) * h, width: w, height: h)))
                made += 1
            }
            rows.append(Element(id: "row\(r)", frame: Rect(x: 0, y: Double(r) * h, width: 1000, height: h), children: cells))
        }
        return ElementTree(screen: Size(width: 1000, height: 1000), root: Element(id: "screen", frame: Rect(x: 0, y: 0, width: 1000, height: 1000), children: rows))
    }
}
