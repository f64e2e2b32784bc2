import PropertyBased
import SwitchCore
import Testing

/// The whole engine over random trees, random profiles and random input (switch presses with
/// chatter and autorepeat, touches on a protocol-B screen, layout changes, unplugging), seeded and
/// reproducible: it never crashes or stalls, its lines come in time order and are well-formed JSON,
/// it never accepts more presses than were made, every touch perform follows a tap on that item,
/// and once everything is released and time runs on, no timer is left unless auto scanning runs.
@Suite("Engine properties")
struct EnginePropertyTests {
    static let cases = 2_000

    @Test func engine_invariants_seeded() {
        var rng = Xoshiro(seed: (0xE461_0E00, 0x5EED_0001, 0x0123_4567, 0x89AB_CDEF))
        var failures = 0
        var seen: [String: Int] = [:]
        defer {
            // The generator reaches what the invariants are about.
            for kind in ["tap", "touchPerform", "accepted", "rejected", "menu", "stopped", "autoRunning", "swipe"] {
                #expect(seen[kind, default: 0] > 20, "only \(seen[kind, default: 0]) cases with \(kind)")
            }
        }
        for n in 0..<Self.cases {
            var any: any SeededRandomNumberGenerator = rng
            let c = EngineCase.random(&any)
            rng = any as! Xoshiro
            let problems = c.check(seen: &seen)
            if !problems.isEmpty {
                failures += 1
                Issue.record("case \(n): \(problems.prefix(4).joined(separator: "\n"))\n\(c.summary)")
                if failures >= 3 { return }
            }
        }
    }
}

struct EngineCase {
    enum Step {
        case key(UInt16, Int32)
        case touchDown(slot: Int32, id: Int32, x: Int32, y: Int32)
        case touchMove(slot: Int32, x: Int32, y: Int32)
        case touchUp(slot: Int32)
        case layout(ElementTree)
        case unplug(device: Int)
        case replug(device: Int)
        case wait
    }

    var tree: ElementTree
    var profile: Profile
    var steps: [(Instant, Step)]

    var summary: String {
        "profile: \(profile.scanning.style) tap \(profile.scanning.tapBehavior) stab \(profile.switchStabilization) touch \(profile.touchAccommodations); \(steps.count) steps"
    }

    static func random(_ rng: inout any SeededRandomNumberGenerator) -> EngineCase {
        var builder = CaseBuilder()
        let tree = builder.randomTree(&rng)
        var p = Profile()
        p.scanning.style = [.auto, .manual, .singleSwitchStep][Int.random(in: 0..<3, using: &rng)]
        p.scanning.groupItems = Bool.random(using: &rng)
        p.scanning.autoScanningTime = .milliseconds(Int64.random(in: 1...15, using: &rng) * 100)
        p.scanning.pauseOnFirstItem = Bool.random(using: &rng) ? .zero : .milliseconds(500)
        p.scanning.loops = Int.random(in: 1...3, using: &rng)
        p.scanning.moveRepeat = Bool.random(using: &rng) ? .zero : .milliseconds(300)
        p.scanning.tapBehavior = [.default, .autoTap, .alwaysTap][Int.random(in: 0..<3, using: &rng)]
        p.scanning.focusedItemAfterTap = Bool.random(using: &rng) ? .first : .current
        p.scanning.speech = Bool.random(using: &rng)
        let actions: [SwitchAction] = [.select, .next, .previous, .menu, .escape, .stopScanning, .resumeScanning]
        p.switches = []
        if Int.random(in: 0..<6, using: &rng) > 0 {
            p.switches.append(SwitchBinding(keyName: "KEY_SPACE", code: 57, action: actions[Int.random(in: 0..<3, using: &rng)],
                                            longPressAction: Bool.random(using: &rng) ? actions.randomElement(using: &rng) : nil))
            if Bool.random(using: &rng) {
                p.switches.append(SwitchBinding(keyName: "KEY_ENTER", code: 28, action: actions.randomElement(using: &rng)!))
            }
        }
        p.switchStabilization.debounce = .milliseconds([0, 10, 25, 50].randomElement(using: &rng)!)
        p.switchStabilization.holdDuration = .milliseconds([0, 0, 100, 300].randomElement(using: &rng)!)
        p.switchStabilization.ignoreRepeat = .milliseconds([0, 0, 200, 500].randomElement(using: &rng)!)
        p.switchStabilization.ignoreRepeatFrom = Bool.random(using: &rng) ? .acceptedPress : .release
        p.switchStabilization.longPress = .milliseconds([0, 0, 800].randomElement(using: &rng)!)
        p.switchStabilization.selectTarget = Bool.random(using: &rng) ? .press : .accept
        p.touchAccommodations.holdDuration = .milliseconds([0, 0, 100].randomElement(using: &rng)!)
        p.touchAccommodations.ignoreRepeat = .milliseconds([0, 0, 300].randomElement(using: &rng)!)
        p.touchAccommodations.tapAssistance = [.off, .initial, .final].randomElement(using: &rng)!
        p.touchAccommodations.tapAssistanceGestureDelay = .milliseconds([100, 500].randomElement(using: &rng)!)
        p.touchAccommodations.touchAsSwitch = Int.random(in: 0..<4, using: &rng) == 0 ? .select : nil

        var t = Instant.zero
        var steps: [(Instant, Step)] = []
        var slots: [Int32: Bool] = [:]
        var nextID: Int32 = 1
        for _ in 0..<Int.random(in: 0...60, using: &rng) {
            let gap: Int64 = [Int64.random(in: 0...20_000, using: &rng), Int64.random(in: 20_000...400_000, using: &rng),
                              Int64.random(in: 400_000...3_000_000, using: &rng)].randomElement(using: &rng)!
            t = t + Interval(microseconds: gap)
            let roll = Int.random(in: 0..<100, using: &rng)
            let step: Step
            switch roll {
            case ..<45: step = .key(Bool.random(using: &rng) ? 57 : 28, [0, 1, 1, 2].randomElement(using: &rng)!)
            case ..<80:
                let slot = Int32.random(in: 0...2, using: &rng)
                let x = Int32.random(in: 0...400, using: &rng), y = Int32.random(in: 0...800, using: &rng)
                if slots[slot] == true {
                    if Bool.random(using: &rng) { step = .touchMove(slot: slot, x: x, y: y) } else { step = .touchUp(slot: slot); slots[slot] = false }
                } else {
                    step = .touchDown(slot: slot, id: nextID, x: x, y: y)
                    nextID += 1
                    slots[slot] = true
                }
            case ..<85: step = .layout(Bool.random(using: &rng) ? tree : builder.randomTree(&rng))
            case ..<88: step = .unplug(device: Int.random(in: 0...1, using: &rng))
            case ..<91: step = .replug(device: Int.random(in: 0...1, using: &rng))
            default: step = .wait
            }
            steps.append((t, step))
        }
        // Release everything at the end.
        t = t + .milliseconds(50)
        steps.append((t, .key(57, 0)))
        steps.append((t, .key(28, 0)))
        for (slot, down) in slots where down { steps.append((t, .touchUp(slot: slot))) }
        return EngineCase(tree: tree, profile: p, steps: steps)
    }

    static let keyboard = DeviceDescription(name: "switch box", codes: [EventCodes.EV_KEY: [57, 28]])
    static let screen = DeviceDescription(
        name: "screen", properties: [EventCodes.INPUT_PROP_DIRECT],
        codes: [EventCodes.EV_ABS: [EventCodes.ABS_MT_SLOT, EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y, EventCodes.ABS_MT_TRACKING_ID]],
        absInfo: [EventCodes.ABS_MT_SLOT: .init(minimum: 0, maximum: 9), EventCodes.ABS_MT_POSITION_X: .init(minimum: 0, maximum: 400),
                  EventCodes.ABS_MT_POSITION_Y: .init(minimum: 0, maximum: 800), EventCodes.ABS_MT_TRACKING_ID: .init(minimum: 0, maximum: 65535)])

    func check(seen: inout [String: Int]) -> [String] {
        var problems: [String] = []
        var engine = Engine(tree: tree, profile: profile, devices: [Self.keyboard, Self.screen])
        var lines = engine.start(at: .zero)
        var lastT = Instant.zero
        var presses = 0
        var down: Set<UInt16> = []
        var contacts = 0
        func abs(_ code: UInt16, _ v: Int32) -> InputEvent { InputEvent(type: EventCodes.EV_ABS, code: code, value: v) }
        for (t, step) in steps {
            var out: [TranscriptLine] = []
            switch step {
            case .key(let code, let value):
                if value == 1 && !down.contains(code) { presses += 1; down.insert(code) }
                if value == 0 { down.remove(code) }
                out = engine.handle(frame: InputFrame(time: t, events: [InputEvent(type: EventCodes.EV_KEY, code: code, value: value)]), device: 0)
            case .touchDown(let slot, let id, let x, let y):
                contacts += 1
                out = engine.handle(frame: InputFrame(time: t, events: [abs(EventCodes.ABS_MT_SLOT, slot), abs(EventCodes.ABS_MT_TRACKING_ID, id),
                                                                        abs(EventCodes.ABS_MT_POSITION_X, x), abs(EventCodes.ABS_MT_POSITION_Y, y)]), device: 1)
            case .touchMove(let slot, let x, let y):
                out = engine.handle(frame: InputFrame(time: t, events: [abs(EventCodes.ABS_MT_SLOT, slot), abs(EventCodes.ABS_MT_POSITION_X, x),
                                                                        abs(EventCodes.ABS_MT_POSITION_Y, y)]), device: 1)
            case .touchUp(let slot):
                out = engine.handle(frame: InputFrame(time: t, events: [abs(EventCodes.ABS_MT_SLOT, slot), abs(EventCodes.ABS_MT_TRACKING_ID, -1)]), device: 1)
            case .layout(let tree):
                out = engine.loadLayout(tree, at: t)
            case .unplug(let d):
                out = engine.deviceRemoved(d, at: t)
                if d == 0 { down.removeAll() }
            case .replug(let d):
                out = engine.deviceAdded(d, d == 0 ? Self.keyboard : Self.screen, at: t)
            case .wait:
                out = engine.advance(to: t)
            }
            for line in out {
                if line.t < lastT { problems.append("line at \(line.t) after one at \(lastT): \(line)") }
                if line.t > t { problems.append("line at \(line.t) from an input at \(t): \(line)") }
                lastT = max(lastT, line.t)
            }
            lines += out
            // Whatever was due by now has fired (timers before inputs): nothing overdue is left.
            if let next = engine.nextDeadline(), next < t { problems.append("a timer due at \(next) is still pending at \(t)") }
        }
        // Auto scanning that runs always has its next step pending (it never stalls).
        func scanningStopped() -> Bool {
            for line in lines.reversed() {
                if case .scan(let started) = line.event { return !started }
                if case .scanStopped = line.event { return true }
            }
            return true
        }
        let autoRunning = profile.scans && profile.scanning.style == .auto && !scanningStopped()
        if autoRunning && engine.nextDeadline() == nil { problems.append("auto scanning runs with no timer pending") }
        // Let time run on: every filter timer fires and auto scanning runs out its loops.
        let end = (steps.last?.0 ?? .zero) + .seconds(3600)
        lines += engine.advance(to: end)
        for line in lines {
            do { _ = try JSONParser.parse(Array(TranscriptFormat.jsonl(line).utf8)) } catch {
                problems.append("not JSON: \(TranscriptFormat.jsonl(line))")
            }
        }
        let accepted = lines.filter {
            if case .filter(let f) = $0.event, f.switchName != "touchscreen" {
                switch f.decision { case .accepted, .longPress: return true; case .rejected: return false }
            }
            return false
        }.count
        // A long-press switch fires at most once per press (short on release or long on hold).
        if accepted > presses { problems.append("\(accepted) accepted switch actions from \(presses) presses") }
        var tapped: [String] = []
        for line in lines {
            if case .touch(let d) = line.event, case .tap(_, let id?, _) = d.decision { tapped.append(id) }
            if case .perform(let p) = line.event, p.source == .touch {
                if tapped.last != p.id { problems.append("touch perform on \(p.id) without a tap on it") }
            }
        }
        if tapped.count > contacts { problems.append("\(tapped.count) taps from \(contacts) touches") }
        // Nothing held, an hour later: auto scanning has run out its loops, every filter timer has
        // fired, and nothing is left pending.
        let stopped = scanningStopped()
        if profile.scans && profile.scanning.style == .auto && !stopped { problems.append("auto scanning still runs an hour later") }
        if let next = engine.nextDeadline() { problems.append("a timer is pending at \(next) with nothing to do") }
        func saw(_ kind: String, _ happened: Bool) { if happened { seen[kind, default: 0] += 1 } }
        saw("tap", !tapped.isEmpty)
        saw("touchPerform", lines.contains { if case .perform(let p) = $0.event { return p.source == .touch }; return false })
        saw("accepted", accepted > 0)
        saw("rejected", lines.contains { if case .filter(let f) = $0.event, case .rejected = f.decision { return true }; return false })
        saw("menu", lines.contains { if case .menuOpened = $0.event { return true }; return false })
        saw("swipe", lines.contains { if case .touch(let d) = $0.event, case .swipe = d.decision { return true }; return false })
        saw("stopped", profile.scans && stopped)
        saw("autoRunning", autoRunning)
        return problems
    }
}
