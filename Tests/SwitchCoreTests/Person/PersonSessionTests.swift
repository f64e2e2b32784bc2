import SwitchCore
import Testing

/// The simulated person on the real engine: the acceptance (≈15 % late at 0.8 ± 0.2 s
/// and a 1 s scan time), and each way a person errs and puts it right.
@Suite("Person on the engine")
struct PersonSessionTests {
    /// `n` buttons in a row.
    static func row(_ n: Int) -> ElementTree {
        ElementTree(screen: Size(width: 1000, height: 200), root: Element(
            id: "window", frame: Rect(x: 0, y: 0, width: 1000, height: 200),
            children: (0..<n).map { Element(id: "b\($0)", label: "B\($0)", traits: [.button], frame: Rect(x: Double($0) * 100, y: 0, width: 90, height: 90)) }))
    }

    static func profile(_ edit: (inout Profile) -> Void = { _ in }) -> Profile {
        var p = Profile()
        p.scanning.tapBehavior = .alwaysTap
        p.scanning.loops = 100
        edit(&p)
        return p
    }

    static func person(seed: UInt64, _ edit: (inout PersonModel) -> Void = { _ in }) -> PersonModel {
        var m = PersonModel()
        m.reactionTime = .init(mean: 0.8, sd: 0.2)
        m.pressDuration = .init(mean: 0.15, sd: 0.05)
        m.seed = seed
        edit(&m)
        return m
    }

    /// Targets picked by a seeded generator among `count` buttons.
    static func targets(_ n: Int, of count: Int, seed: UInt64) -> [String] {
        var g = SeededRandom(seed: seed ^ 0xABCD)
        return (0..<n).map { _ in "b\(g.next() % UInt64(count))" }
    }

    struct Run {
        var counts: PersonCounts
        var task: PersonTargets
        var outcome: PersonSession.Outcome
        var lines: [TranscriptLine]
    }

    static func run(tree: ElementTree = row(8), profile: Profile = profile(), person: PersonModel, targets: [String],
                    keepLines: Bool = false) -> Run {
        var session = PersonSession(engine: Engine(tree: tree, profile: profile, devices: [nil]), person: person)
        var task = PersonTargets(targets)
        var lines: [TranscriptLine] = []
        session.take(session.withEngine { $0.start(at: .zero) }, &task) { if keepLines { lines.append($0) } }
        let outcome = session.run(&task, until: .seconds(1_000_000)) { if keepLines { lines.append($0) } }
        return Run(counts: session.counts, task: task, outcome: outcome, lines: lines)
    }

    /// The acceptance: a lognormal reaction time of 0.8 ± 0.2 s at a 1.0 s scan time lands
    /// P(RT > 1.0) = 0.152 of the meant selections late. About 2,900 selections: the binomial
    /// standard error is √(0.152 · 0.848 / 2900) ≈ 0.0067, so four of them is 0.027.
    @Test func late_selections_match_the_lognormal_tail() {
        let r = Self.run(person: Self.person(seed: 1), targets: Self.targets(2500, of: 8, seed: 1))
        #expect(r.outcome != .gaveUp)
        #expect(r.task.isDone)
        #expect(r.counts.selections > 2800)
        let expected = PersonModel.Distribution(mean: 0.8, sd: 0.2).probabilityAbove(1.0)
        let se = (expected * (1 - expected) / Double(r.counts.selections)).squareRoot()
        #expect(abs(r.counts.lateFraction - expected) < 4 * se, "late \(r.counts.late) of \(r.counts.selections)")
        // A late press lands on the next button: each is a wrong activation.
        #expect(r.task.wrong == r.counts.late)
        #expect(r.counts.missed == 0 && r.counts.extraPresses == 0)
    }

    /// Property over seeds: every seed's late fraction is within 4.5 standard errors of its own
    /// sample size (one in 150,000 per seed by chance).
    @Test(arguments: Array(UInt64(2)...UInt64(21)))
    func late_fraction_holds_for_every_seed(_ seed: UInt64) {
        let r = Self.run(person: Self.person(seed: seed), targets: Self.targets(300, of: 8, seed: seed))
        let expected = 0.1517
        let se = (expected * (1 - expected) / Double(r.counts.selections)).squareRoot()
        #expect(abs(r.counts.lateFraction - expected) < 4.5 * se, "seed \(seed): late \(r.counts.late) of \(r.counts.selections)")
    }

    @Test func a_slower_scan_makes_fewer_late() {
        let fast = Self.run(profile: Self.profile { $0.scanning.autoScanningTime = .seconds(0.9) }, person: Self.person(seed: 5), targets: Self.targets(400, of: 8, seed: 5))
        let slow = Self.run(profile: Self.profile { $0.scanning.autoScanningTime = .seconds(1.3) }, person: Self.person(seed: 5), targets: Self.targets(400, of: 8, seed: 5))
        #expect(fast.counts.lateFraction > 0.2)
        #expect(slow.counts.lateFraction < 0.03)
    }

    @Test func misses_wait_for_the_next_pass() {
        let r = Self.run(profile: Self.profile { $0.scanning.autoScanningTime = .seconds(1.5) },
                         person: Self.person(seed: 9) { $0.missProbability = 0.2 }, targets: Self.targets(300, of: 8, seed: 9))
        #expect(r.task.isDone)
        // Each showing of the wanted stop is let pass with P 0.2: misses ÷ (misses + presses) ≈ 0.2.
        let fraction = Double(r.counts.missed) / Double(r.counts.missed + r.counts.selections)
        #expect(abs(fraction - 0.2) < 0.05)
    }

    @Test func bounces_pass_a_short_debounce_and_not_a_long_one() {
        let bouncy = Self.person(seed: 4) { $0.bounce = .init(probability: 0.5, gap: 0.04, duration: 0.005) }
        let short = Self.run(profile: Self.profile { $0.scanning.autoScanningTime = .seconds(1.5) }, person: bouncy, targets: Self.targets(100, of: 8, seed: 4))
        let long = Self.run(profile: Self.profile { $0.scanning.autoScanningTime = .seconds(1.5); $0.switchStabilization.debounce = .seconds(0.06) },
                            person: bouncy, targets: Self.targets(100, of: 8, seed: 4))
        #expect(short.counts.extraPresses > 20)
        #expect(long.counts.extraPresses == 0)
        #expect(long.task.isDone && short.task.isDone)
    }

    @Test func short_accidental_presses_are_held_off_by_a_hold_duration() {
        let tremor = Self.person(seed: 6) { $0.falsePressesPerMinute = 10; $0.falsePressDuration = .init(mean: 0.04, sd: 0.01) }
        let none = Self.run(profile: Self.profile { $0.scanning.autoScanningTime = .seconds(1.5) }, person: tremor, targets: Self.targets(100, of: 8, seed: 6))
        let held = Self.run(profile: Self.profile { $0.scanning.autoScanningTime = .seconds(1.5); $0.switchStabilization.holdDuration = .seconds(0.1) },
                            person: tremor, targets: Self.targets(100, of: 8, seed: 6))
        #expect(none.counts.extraPresses > 5)
        #expect(held.counts.extraPresses == 0)
        #expect(held.task.isDone)
    }

    @Test func a_wrong_menu_is_closed() {
        // Tap behaviour default: a select opens the item's menu. A late press opens the wrong
        // item's menu (or a page of the right one's); the person goes for Close, then again for
        // the target. (A Close that is itself late wraps round to Tap: a wrong activation.)
        let r = Self.run(profile: Self.profile { $0.scanning.tapBehavior = .default }, person: Self.person(seed: 3),
                         targets: Self.targets(60, of: 6, seed: 3), keepLines: true)
        #expect(r.task.isDone)
        var replay = PersonTargets(r.task.targets)
        var wrongMenus = 0, closedByClose = 0
        var open: (wrong: Bool, last: String?)?
        for line in r.lines {
            switch line.event {
            case .menuOpened(let id, _, _, let submenu):
                let target = replay.goal(Engine(tree: Self.row(1), profile: Profile(), devices: [nil]))?.id
                let wrong = id != target || submenu != nil
                if wrong { wrongMenus += 1 }
                open = (wrong, nil)
            case .highlight(let id, .menuItem, _):
                open?.last = id
            case .menuClosed:
                if let o = open, o.wrong, o.last == "menu:close" { closedByClose += 1 }
                open = nil
            default: break
            }
            replay.observe(line)
        }
        #expect(wrongMenus > 5)
        #expect(closedByClose + r.task.wrong >= wrongMenus)
        #expect(closedByClose > wrongMenus / 2)
        #expect(r.counts.corrections >= closedByClose)
    }

    @Test func a_wrong_group_is_left_by_its_escape_stop() {
        // Three rows of four: a late press on a row enters the next row, left by its escape stop.
        let tree = ElementTree(screen: Size(width: 400, height: 300), root: Element(
            id: "window", frame: Rect(x: 0, y: 0, width: 400, height: 300),
            children: (0..<3).map { r in Element(id: "row\(r)", frame: Rect(x: 0, y: Double(r) * 100, width: 400, height: 100),
                children: (0..<4).map { c in Element(id: "b\(r * 4 + c)", label: "B\(r * 4 + c)", traits: [.button],
                                                        frame: Rect(x: Double(c) * 100, y: Double(r) * 100, width: 90, height: 90)) }) }))
        let r = Self.run(tree: tree, profile: Self.profile { $0.scanning.grouping = .containers }, person: Self.person(seed: 8),
                         targets: Self.targets(80, of: 12, seed: 8), keepLines: true)
        #expect(r.task.isDone)
        let exits = r.lines.filter { if case .highlight(_, .groupExit, _) = $0.event { return true } else { return false } }
        #expect(!exits.isEmpty)
        #expect(r.counts.corrections > 0)
    }

    @Test func group_selection_presses_the_colour_holding_the_target() {
        var p = Self.profile()
        p.scanning.mode = .groupSelection
        p.switches = (0..<3).map { SwitchBinding(keyName: "KEY_\($0 + 1)", code: UInt16(2 + $0), action: SwitchAction.groups[$0]) }
        let r = Self.run(profile: p, person: Self.person(seed: 2) { $0.missProbability = 0.1 }, targets: Self.targets(40, of: 8, seed: 2))
        #expect(r.task.isDone)
        #expect(r.task.wrong == 0)
        #expect(r.counts.late == 0)
        #expect(r.counts.missed > 0)
    }

    @Test func the_same_person_and_seed_give_the_same_transcript() {
        let a = Self.run(person: Self.person(seed: 11) { $0.falsePressesPerMinute = 2; $0.bounce.probability = 0.1 }, targets: Self.targets(30, of: 8, seed: 1), keepLines: true)
        let b = Self.run(person: Self.person(seed: 11) { $0.falsePressesPerMinute = 2; $0.bounce.probability = 0.1 }, targets: Self.targets(30, of: 8, seed: 1), keepLines: true)
        let c = Self.run(person: Self.person(seed: 12) { $0.falsePressesPerMinute = 2; $0.bounce.probability = 0.1 }, targets: Self.targets(30, of: 8, seed: 1), keepLines: true)
        #expect(a.lines == b.lines)
        #expect(a.lines != c.lines)
    }
}
