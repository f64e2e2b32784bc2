import SwitchCore
import Testing

/// The person's hand, one timeline of `SimulatedPerson`'s header each.
@Suite("Simulated person")
struct SimulatedPersonTests {
    static func model(_ edit: (inout PersonModel) -> Void = { _ in }) -> PersonModel {
        var m = PersonModel()
        m.reactionTime = .init(mean: 0.8, sd: 0)
        m.pressDuration = .init(mean: 0.15, sd: 0)
        edit(&m)
        return m
    }

    /// Every edge until `t`.
    static func edges(_ p: inout SimulatedPerson, until t: Instant) -> [SimulatedPerson.Edge] {
        var out: [SimulatedPerson.Edge] = []
        while let due = p.nextEvent, due <= t {
            if let e = p.step(at: due) { out.append(e) }
        }
        return out
    }

    static func edge(_ t: Double, _ down: Bool, _ kind: SimulatedPerson.Kind, _ s: Int = 0) -> SimulatedPerson.Edge {
        SimulatedPerson.Edge(time: .seconds(t), switchIndex: s, down: down, kind: kind)
    }

    @Test func person_meant_press() {
        var p = SimulatedPerson(model: Self.model())
        let rt = p.reactionTime()
        #expect(rt == .seconds(0.8))
        p.plan(at: .seconds(1) + rt, now: .seconds(1), switchIndex: 0)
        #expect(p.isBusy)
        #expect(Self.edges(&p, until: .seconds(10)) == [Self.edge(1.8, true, .meant), Self.edge(1.95, false, .meant)])
        #expect(!p.isBusy)
    }

    @Test func person_hold_duration_is_held_through() {
        var p = SimulatedPerson(model: Self.model())
        p.hold = .seconds(0.3)
        p.plan(at: .seconds(1), now: .zero, switchIndex: 0)
        #expect(Self.edges(&p, until: .seconds(10)) == [Self.edge(1, true, .meant), Self.edge(1.45, false, .meant)])
    }

    @Test func person_bounce_after_release() {
        var p = SimulatedPerson(model: Self.model { $0.bounce = .init(probability: 1, gap: 0.03, duration: 0.005) })
        p.plan(at: .seconds(1), now: .zero, switchIndex: 0)
        #expect(Self.edges(&p, until: .seconds(10)) == [Self.edge(1, true, .meant), Self.edge(1.15, false, .meant),
                                                        Self.edge(1.18, true, .bounce), Self.edge(1.185, false, .bounce)])
    }

    @Test func person_press_while_down() {
        // An accidental press is down when the meant one is due: the meant one waits for the
        // release and the refractory time.
        var p = SimulatedPerson(model: Self.model { $0.falsePressesPerMinute = 60; $0.falsePressDuration = .init(mean: 0.5, sd: 0) })
        let falseAt = p.nextEvent!
        p.plan(at: falseAt + .seconds(0.1), now: .zero, switchIndex: 0)
        let edges = Self.edges(&p, until: falseAt + .seconds(1))
        #expect(Array(edges.prefix(3)) == [
            SimulatedPerson.Edge(time: falseAt, switchIndex: 0, down: true, kind: .falsePress),
            SimulatedPerson.Edge(time: falseAt + .seconds(0.5), switchIndex: 0, down: false, kind: .falsePress),
            SimulatedPerson.Edge(time: falseAt + .seconds(0.6), switchIndex: 0, down: true, kind: .meant),
        ])
    }

    @Test func person_false_press_while_down() {
        // A meant press held for 10 s: the accidental presses due meanwhile are dropped.
        var p = SimulatedPerson(model: Self.model { $0.falsePressesPerMinute = 60; $0.pressDuration = .init(mean: 10, sd: 0) })
        p.plan(at: .zero, now: .zero, switchIndex: 0)
        let edges = Self.edges(&p, until: .seconds(10))
        #expect(edges == [Self.edge(0, true, .meant), Self.edge(10, false, .meant)])
    }

    @Test func person_false_presses_poisson() {
        // 6 a minute for 2 hours: 720 expected; a Poisson count's SD is √720 ≈ 27, so ±110 is 4 SDs.
        var p = SimulatedPerson(model: Self.model { $0.falsePressesPerMinute = 6; $0.falsePressDuration = .init(mean: 0.05, sd: 0) })
        let presses = Self.edges(&p, until: .seconds(7200)).filter { $0.down && $0.kind == .falsePress }.count
        #expect(abs(presses - 720) < 110)
    }

    @Test func person_false_presses_spread_over_the_switches() {
        var p = SimulatedPerson(model: Self.model { $0.falsePressesPerMinute = 30; $0.falsePressDuration = .init(mean: 0.05, sd: 0) })
        p.switches = 3
        let used = Set(Self.edges(&p, until: .seconds(600)).map(\.switchIndex))
        #expect(used == [0, 1, 2])
    }

    @Test func person_miss() {
        var p = SimulatedPerson(model: Self.model { $0.missProbability = 0.25 })
        let n = 40_000
        let missed = (0..<n).filter { _ in p.misses() }.count
        #expect(abs(Double(missed) / Double(n) - 0.25) < 0.01)  // SE 0.0022
        var never = SimulatedPerson(model: Self.model())
        #expect(!(0..<1000).contains { _ in never.misses() })
    }

    @Test func the_same_seed_presses_at_the_same_instants() {
        func run() -> [SimulatedPerson.Edge] {
            var p = SimulatedPerson(model: PersonModel())
            var out: [SimulatedPerson.Edge] = []
            for k in 0..<50 {
                p.plan(at: .seconds(Double(k) * 3) + p.reactionTime(), now: .seconds(Double(k) * 3), switchIndex: 0)
                out += Self.edges(&p, until: .seconds(Double(k + 1) * 3))
            }
            return out
        }
        #expect(run() == run())
    }
}
