import Testing
import PropertyBased
import SwitchCore

/// Invariants of the switch filters over thousands of random key streams (gaps drawn around the
/// windows: chatter, just-under/just-over gaps, holds, autorepeat, odd values), with random
/// settings. Seeded: every run checks the same cases; a failure names its case number and script.
@Suite("Switch filter properties")
struct SwitchPropertyTests {
    struct Settings: CustomStringConvertible {
        var stabilization: SwitchStabilization
        var moveRepeat: Interval
        var binding: SwitchBinding

        var description: String {
            let s = stabilization
            return "debounce \(s.debounce) hold \(s.holdDuration) ignoreRepeat \(s.ignoreRepeat) from \(s.ignoreRepeatFrom.rawValue) "
                + "longPress \(s.longPress) (\(binding.longPressAction.map(\.rawValue) ?? "none")) moveRepeat \(moveRepeat) action \(binding.action.rawValue)"
        }
    }

    struct Script: CustomStringConvertible {
        var settings: Settings
        /// (time, EV_KEY value), in time order.
        var keys: [(Instant, Int32)]
        /// End with the device unplugged (else: a final release and every timer run out).
        var unplugAtEnd: Bool

        var description: String {
            "\(settings)\n  keys: " + keys.map { "\($0.1)@\($0.0)" }.joined(separator: " ") + (unplugAtEnd ? " X" : "")
        }

        /// Presses as the kernel sees them: a non-zero, non-2 value while up.
        var inputPresses: Int {
            var down = false
            var n = 0
            for (_, v) in keys {
                switch v {
                case 0: down = false
                case 2: continue
                default:
                    if !down { n += 1 }
                    down = true
                }
            }
            return n
        }
    }

    static func pick<T: Sendable>(_ options: [T]) -> Generator<T, Shrink.Integer<Int>> {
        Gen.int(in: 0...(options.count - 1)).map { options[$0] }
    }

    static let settings = zip(
        pick([0, 5, 12, 25, 40] as [Int64]),
        pick([0, 0, 50, 100, 300] as [Int64]),
        pick([0, 0, 100, 500] as [Int64]),
        Gen<Bool>.bool(),
        pick([0, 0, 400] as [Int64]),
        pick([0, 150] as [Int64]),
        pick([SwitchAction.select, .next, .previous]),
        Gen<Bool>.bool()
    ).map { debounce, hold, ignore, fromRelease, longPress, moveRepeat, action, hasLongAction in
        var st = SwitchStabilization()
        st.debounce = .milliseconds(debounce)
        st.holdDuration = .milliseconds(hold)
        st.ignoreRepeat = .milliseconds(ignore)
        st.ignoreRepeatFrom = fromRelease ? .release : .acceptedPress
        st.longPress = .milliseconds(longPress)
        let binding = SwitchBinding(keyName: "KEY_SPACE", code: 57, action: action, longPressAction: hasLongAction ? .menu : nil)
        return Settings(stabilization: st, moveRepeat: .milliseconds(moveRepeat), binding: binding)
    }

    /// One step: a gap (µs) drawn from one of four bands, and what happens after it.
    static let step = zip(Gen.int(in: 0...99), Gen.int(in: 0...2_000_000), Gen.int(in: 0...19))
        .map { band, raw, kind -> (Int64, Int) in
            let (lo, hi): (Int, Int) = switch band {
            case ..<30: (0, 15_000)           // chatter
            case ..<55: (10_000, 40_000)      // around the debounce window
            case ..<90: (40_000, 600_000)     // presses and holds
            default: (0, 2_000_000)           // anything
            }
            return (Int64(lo + raw % (hi - lo + 1)), kind)
        }

    static let script = zip(settings, step.array(of: 1...80), Gen<Bool>.bool(0.3)).map { settings, steps, unplug in
        var t: Int64 = 0
        var down = false
        var keys: [(Instant, Int32)] = []
        for (gap, kind) in steps {
            t += gap
            let value: Int32
            switch kind {
            case 0..<14: value = down ? 0 : 1        // the usual: toggle
            case 14..<18: value = 2                  // autorepeat (also when up: mid-hold start)
            case 18: value = 1                       // a duplicate press
            default: value = Int32(kind) - 19        // 0: a duplicate release
            }
            if value == 0 { down = false } else if value != 2 { down = true }
            keys.append((Instant(microseconds: t), value))
        }
        return Script(settings: settings, keys: keys, unplugAtEnd: unplug)
    }

    /// Runs `body` on `count` scripts from a fixed seed; stops at the first case that breaks an
    /// invariant and reports it with its script.
    func forEachScript(count: Int = 3000, seed: UInt64, _ body: (Script) -> [String], sourceLocation: SourceLocation = #_sourceLocation) {
        var rng = Xoshiro(seed: (seed, 0x5157_4348, 0x5343_414e, 0x4649_4c54))
        for i in 0..<count {
            let s = Self.script.run(using: &rng)
            let problems = body(s)
            if !problems.isEmpty {
                Issue.record("case \(i) (seed \(seed)): \(problems.joined(separator: "; "))\n\(s)", sourceLocation: sourceLocation)
                return
            }
        }
    }

    /// The accepted-press stream (stages 1–4) of a script, with the clock state at the end.
    func acceptance(_ s: Script) -> VirtualClock<SwitchAcceptance> {
        var c = VirtualClock(SwitchAcceptance(stabilization: s.settings.stabilization))
        for (t, v) in s.keys { c.send(.key(value: v), at: t) }
        let end = (s.keys.last?.0 ?? .zero) + .milliseconds(1)
        if s.unplugAtEnd {
            c.send(.deviceGone, at: end)
        } else {
            c.send(.key(value: 0), at: end)
            c.drain()
        }
        return c
    }

    @Test("output presses never exceed input presses")
    func acceptedPressesNeverExceedInputPresses() {
        forEachScript(seed: 1) { s in
            let c = acceptance(s)
            let accepted = c.outputs.filter { if case .acceptedPress = $0 { true } else { false } }.count
            let physical = c.outputs.filter { $0 == .physicalPress }.count
            var problems: [String] = []
            if physical > s.inputPresses { problems.append("\(physical) presses left debounce, \(s.inputPresses) came in") }
            if accepted > physical { problems.append("\(accepted) accepted of \(physical) debounced presses") }
            return problems
        }
    }

    @Test("with every filter off, each input press is accepted (the bound is tight)")
    func everythingOffAcceptsEveryPress() {
        forEachScript(count: 1000, seed: 2) { s in
            var s = s
            s.settings.stabilization = SwitchStabilization()
            s.settings.stabilization.debounce = .zero
            let c = acceptance(s)
            let accepted = c.outputs.filter { if case .acceptedPress = $0 { true } else { false } }.count
            return accepted == s.inputPresses ? [] : ["\(accepted) accepted, \(s.inputPresses) pressed"]
        }
    }

    @Test("every accepted press has exactly one release, after it")
    func everyAcceptedPressHasOneRelease() {
        forEachScript(seed: 3) { s in
            let c = acceptance(s)
            var open: Instant? = nil
            var problems: [String] = []
            for (t, o) in c.log {
                switch o {
                case .acceptedPress(let p):
                    if open != nil { problems.append("a second press at \(t) before the release") }
                    open = p
                case .acceptedRelease(let r):
                    guard let p = open else { problems.append("a release at \(t) without a press"); break }
                    if r < p { problems.append("release \(r) before its press \(p)") }
                    open = nil
                default:
                    break
                }
            }
            if open != nil && !s.unplugAtEnd { problems.append("a press never released") }
            return problems
        }
    }

    @Test("outputs are in time order, and no edge is stamped after it was sent")
    func outputsInTimeOrder() {
        forEachScript(seed: 4) { s in
            let c = acceptance(s)
            var problems: [String] = []
            var last = Instant(microseconds: .min)
            var lastEdge = Instant(microseconds: .min)
            for (t, o) in c.log {
                if t < last { problems.append("output at \(t) after one at \(last)") }
                last = t
                switch o {
                case .acceptedPress(let p), .acceptedRelease(let p):
                    if p > t { problems.append("edge stamped \(p) sent at \(t)") }
                    if p < lastEdge { problems.append("edge stamped \(p) after one stamped \(lastEdge)") }
                    lastEdge = p
                case .setTimer(let id, let deadline):
                    if deadline < t { problems.append("\(id) set in the past") }
                default:
                    break
                }
            }
            return problems
        }
    }

    @Test("no timer pending after deviceGone, wherever the stream is cut")
    func noTimerAfterDeviceGone() {
        forEachScript(seed: 5) { s in
            var s = s
            s.unplugAtEnd = true
            var c = VirtualClock(SwitchPipeline(binding: s.settings.binding, stabilization: s.settings.stabilization, moveRepeat: s.settings.moveRepeat))
            for (t, v) in s.keys { c.send(.key(value: v), at: t) }
            let end = (s.keys.last?.0 ?? .zero) + .milliseconds(1)
            c.advance(to: end)  // timers due by then fire before the unplug
            let before = c.log.count
            c.send(.deviceGone, at: end)
            var problems: [String] = []
            if c.pendingTimers != 0 { problems.append("\(c.pendingTimers) timers pending") }
            for o in c.outputs[before...] {
                if case .cancelTimer = o { continue }
                problems.append("device gone produced \(SwitchPipeline.render(o))")
            }
            return problems
        }
    }

    @Test("the pipeline fires one decision per accepted press and repeats only next/previous")
    func pipelineAgreesWithAcceptance() {
        forEachScript(count: 2000, seed: 6) { s in
            let a = acceptance(s)
            var c = VirtualClock(SwitchPipeline(binding: s.settings.binding, stabilization: s.settings.stabilization, moveRepeat: s.settings.moveRepeat))
            for (t, v) in s.keys { c.send(.key(value: v), at: t) }
            let end = (s.keys.last?.0 ?? .zero) + .milliseconds(1)
            if s.unplugAtEnd {
                c.send(.deviceGone, at: end)
            } else {
                c.send(.key(value: 0), at: end)
                c.drain()
            }
            var problems: [String] = []
            let accepted = a.outputs.filter { if case .acceptedPress = $0 { true } else { false } }.count
            let rejectedA = a.outputs.compactMap { if case .rejected(let r) = $0 { r } else { nil } }
            var fired = 0
            var rejectedP: [FilterDecision.RejectReason] = []
            var actions = 0
            for o in c.outputs {
                switch o {
                case .decision(let d):
                    if d.switchName != "KEY_SPACE" { problems.append("wrong switch name \(d.switchName)") }
                    switch d.decision {
                    case .accepted, .longPress: fired += 1
                    case .rejected(let r): rejectedP.append(r)
                    }
                case .action(let action):
                    actions += 1
                    if action != s.settings.binding.action && action != s.settings.binding.longPressAction {
                        problems.append("action \(action) is not the switch's")
                    }
                default:
                    break
                }
            }
            if rejectedP != rejectedA { problems.append("rejections differ: \(rejectedP) vs \(rejectedA)") }
            // A press still held when the device goes may never fire (long press: fires on release).
            if s.unplugAtEnd ? fired > accepted || fired < accepted - 1 : fired != accepted {
                problems.append("\(fired) decisions for \(accepted) accepted presses")
            }
            let mayRepeat = !s.settings.moveRepeat.isZero && MoveRepeatFilter.repeats(s.settings.binding.action)
            if !mayRepeat && actions != fired { problems.append("\(actions) actions for \(fired) decisions") }
            if actions < fired { problems.append("fewer actions than decisions") }
            return problems
        }
    }
}
