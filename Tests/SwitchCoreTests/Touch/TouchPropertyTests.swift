import Testing
import PropertyBased
import SwitchCore

/// Invariants of the touch filter over random multi-finger streams and random settings (seeded).
@Suite("Touch filter properties")
struct TouchPropertyTests {
    /// (gap µs, finger 0…2, what: 0 down / 1 move / 2 up, x, y)
    static let step = zip(Gen.int(in: 0...400_000), Gen.int(in: 0...2), Gen.int(in: 0...2), Gen.int(in: 0...100), Gen.int(in: 0...100))
    static let settings = zip(Gen.int(in: 0...2), Gen.int(in: 0...2), Gen.int(in: 0...2), Gen.int(in: 0...2))
        .map { hold, ignore, assist, delay -> TouchAccommodations in
            var s = TouchAccommodations()
            s.holdDuration = .milliseconds([0, 50, 200][hold])
            s.ignoreRepeat = .milliseconds([0, 150, 600][ignore])
            s.tapAssistance = [.off, .initial, .final][assist]
            s.tapAssistanceGestureDelay = .milliseconds([50, 300, 1000][delay])
            return s
        }
    static let scenario = zip(settings, step.array(of: 1...60), Gen<Bool>.bool(0.3))

    @Test("each touch gets at most one decision (exactly one when lifted), in time order; nothing pending after unplug")
    func oneDecisionPerTouch() {
        var rng = Xoshiro(seed: (11, 13, 17, 19))
        for i in 0..<3000 {
            let (settings, steps, unplug) = Self.scenario.run(using: &rng)
            var c = VirtualClock(TouchFilter(settings: settings))
            var t: Int64 = 0
            var live: [Int: Int] = [:]      // finger → contact id
            var nextID = 0
            var lifted: [Int] = []
            for (gap, finger, what, x, y) in steps {
                t += Int64(gap)
                let p = Point(x: Double(x), y: Double(y))
                switch (what, live[finger]) {
                case (_, nil):
                    live[finger] = nextID
                    c.send(.contact(.down(id: nextID, p)), at: Instant(microseconds: t))
                    nextID += 1
                case (2, let id?):
                    live[finger] = nil
                    lifted.append(id)
                    c.send(.contact(.up(id: id, p)), at: Instant(microseconds: t))
                case (_, let id?):
                    c.send(.contact(.moved(id: id, p)), at: Instant(microseconds: t))
                }
            }
            if unplug {
                c.send(.deviceGone, at: Instant(microseconds: t + 1))
            } else {
                for id in live.values.sorted() {
                    lifted.append(id)
                    c.send(.contact(.up(id: id, Point(x: 0, y: 0))), at: Instant(microseconds: t + 1))
                }
            }
            c.drain()
            var decisions: [Int: Int] = [:]
            var problems: [String] = []
            var last = Instant(microseconds: .min)
            for (at, o) in c.log {
                if at < last { problems.append("output at \(at) after \(last)") }
                last = at
                switch o {
                case .tap(let id, _), .swipe(let id, _, _, _), .hold(let id, _), .rejected(let id, _, _):
                    decisions[id, default: 0] += 1
                case .setTimer, .cancelTimer:
                    break
                }
            }
            if decisions.values.contains(where: { $0 > 1 }) { problems.append("a contact decided twice: \(decisions)") }
            for id in lifted where decisions[id] != 1 { problems.append("contact \(id) lifted without a decision") }
            if c.pendingTimers != 0 { problems.append("\(c.pendingTimers) timers pending at the end") }
            if !c.machine.contacts.isEmpty { problems.append("contacts left: \(c.machine.contacts.keys.sorted())") }
            if !problems.isEmpty {
                Issue.record("case \(i): \(problems.joined(separator: "; ")) — settings \(settings), steps \(steps.count), unplug \(unplug)")
                return
            }
        }
    }
}
