import PropertyBased
import Testing
@testable import SwitchCore

/// Property tests for the scanning methods of issue 11 over random trees (the item-scanning
/// groupings none / containers / rowColumn / auto are in ScannerPropertyTests, whose explorer
/// reaches every item and leaves every group in every grouping):
///   - group selection, k = 2 … 6, after random presses and layouts: from the first level every
///     item is reached by following its colour, in at most ⌈log₂ n⌉ + 2 presses per level
///     narrowing, its menu opens with every entry shown; every level below the first is left by
///     the back colour and by the escape switch, each returning to the level before;
///   - point scanning, after random presses and layouts: every item whose frame's centre is on
///     screen is reached by pressing when the band and then the line are over it, and the point
///     lands on the item a touch there would hit; every step is left by escape;
///   - timing rules (ScannerHarness) after every event in both.
@Suite struct MethodPropertyTests {
    static let cases = 400
    /// Group selection explores every item of every case through every level's back: costly in a
    /// debug build (about 25 s of CPU for 30 cases × 5 switch counts), so fewer cases.
    static let groupCases = 30

    @Test(arguments: ColorGroups.switchRange)
    func group_selection_reaches_every_item_and_every_level_escapes(_ k: Int) {
        var rng = Xoshiro(seed: (0xC010_0000, UInt64(k), 0x5EED, 0xF00D))
        var failed = 0
        var reachedItems = 0
        for n in 0..<Self.groupCases {
            var any: any SeededRandomNumberGenerator = rng
            var builder = CaseBuilder()
            let tree = builder.randomTree(&any)
            var s = Fixture.settings([.auto, .manual, .singleSwitchStep][Int.random(in: 0..<3, using: &any)])
            s.mode = .groupSelection
            s.tapBehavior = [.default, .autoTap, .alwaysTap][Int.random(in: 0..<3, using: &any)]
            var h = ScannerHarness(ScanModel(tree: tree), s, groupSwitches: k, menu: Fixture.fullMenu())
            h.start()
            // Random presses (any colour, escape, stop/resume, layouts) first.
            var t = 0.0
            for _ in 0..<Int.random(in: 0...12, using: &any) {
                t += Double(Int.random(in: 1...20, using: &any)) / 10
                switch Int.random(in: 0..<10, using: &any) {
                case 0: _ = h.layout(ScanModel(tree: Bool.random(using: &any) ? tree : builder.randomTree(&any)), at: t)
                case 1: _ = h.press(.escape, at: t)
                case 2: _ = h.press(.stopScanning, at: t)
                default: _ = h.press(SwitchAction.groups[Int.random(in: 0..<k, using: &any)], at: t)
                }
            }
            rng = any as! Xoshiro
            var problems = h.violations
            var explorer = ColorExplorer(h: h, k: k)
            problems += explorer.run()
            reachedItems += explorer.reached
            if !problems.isEmpty {
                failed += 1
                Issue.record("k=\(k) case \(n): \(problems.prefix(4).joined(separator: "\n"))\ntree: \(TreeEncoder.encode(h.scanner.model.items.isEmpty ? tree : tree).rendered())")
                if failed >= 3 { return }
            }
        }
        #expect(reachedItems > Self.groupCases * 3)
    }

    @Test func point_scanning_reaches_every_item_and_every_step_escapes() {
        var rng = Xoshiro(seed: (0x9017_0000, 0x5EED, 7, 11))
        var failed = 0
        var reached = 0
        for n in 0..<Self.cases {
            var any: any SeededRandomNumberGenerator = rng
            var builder = CaseBuilder()
            let tree = builder.randomTree(&any)
            var s = Fixture.settings([.auto, .manual, .singleSwitchStep][Int.random(in: 0..<3, using: &any)])
            s.mode = .point
            s.modeSwitch = Bool.random(using: &any)
            s.loops = Int.random(in: 1...4, using: &any)
            s.point.bandSpeed = Double(Int.random(in: 1...6, using: &any) * 25)
            s.point.lineSpeed = Double(Int.random(in: 1...4, using: &any) * 10)
            s.point.edgePause = .milliseconds(Int64.random(in: 0...4, using: &any) * 100)
            var h = ScannerHarness(ScanModel(tree: tree), s, menu: Fixture.fullMenu())
            h.start()
            var t = 0.0
            for _ in 0..<Int.random(in: 0...10, using: &any) {
                t += Double(Int.random(in: 1...40, using: &any)) / 10
                switch Int.random(in: 0..<10, using: &any) {
                case 0: _ = h.layout(ScanModel(tree: Bool.random(using: &any) ? tree : builder.randomTree(&any)), at: t)
                case 1, 2: _ = h.press(.escape, at: t)
                case 3: _ = h.press(.next, at: t)
                default: _ = h.press(.select, at: t)
                }
            }
            rng = any as! Xoshiro
            var problems = h.violations
            var explorer = PointExplorer(h: h)
            problems += explorer.run()
            reached += explorer.reached
            if !problems.isEmpty {
                failed += 1
                Issue.record("case \(n): \(problems.prefix(4).joined(separator: "\n"))")
                if failed >= 3 { return }
            }
        }
        #expect(reached > Self.cases)
    }
}

/// Group selection: normalise to the first level, then reach every item by its colour, checking
/// the way back from every level on the way.
struct ColorExplorer {
    var h: ScannerHarness
    let k: Int
    private(set) var reached = 0
    private var problems: [String] = []

    init(h: ScannerHarness, k: Int) {
        self.h = h
        self.h.forgetTranscript()
        self.k = k
    }

    private var colors: Scanner.ColorState? {
        if case .colorGroups(let c) = h.scanner.state { return c }
        return nil
    }

    private mutating func press(_ a: SwitchAction) -> [TranscriptLine] {
        defer { h.forgetTranscript() }
        return h.deliver(.action(a, target: nil), at: h.now)
    }

    /// Back to the first level of the items.
    private mutating func normalise() -> Bool {
        for _ in 0..<40 {
            switch h.scanner.state {
            case .stopped: _ = press(.group1)
            case .autoTapWindow: _ = press(.stopScanning); _ = press(.group1)
            case .colorGroups(let c):
                if case .items = c.subject, c.stack.isEmpty { return true }
                _ = press(.escape)
            case .notStarted, .scanning, .menu, .point: return false
            }
        }
        return false
    }

    mutating func run() -> [String] {
        let model = h.scanner.model
        if model.items.isEmpty { return h.scanner.isScanning ? ["scanning an empty model"] : [] }
        guard normalise() else { return ["could not reach the first level: \(h.scanner.state)"] }
        let levelBound = (Int.bitWidth - (max(model.items.count, 2) - 1).leadingZeroBitCount) + 2   // ⌈log₂ n⌉ + 2
        for (i, item) in model.items.enumerated() {
            guard normalise() else { return problems + ["lost the first level before \(item.id)"] }
            var presses = 0
            var found = false
            while !found, presses <= levelBound * 2, let c = colors {
                if !c.stack.isEmpty { checkBack(c) }
                guard let n = c.runs.firstIndex(where: { $0.items.contains(i) }) else {
                    problems.append("\(item.id) is in no colour: \(c.runs)")
                    break
                }
                let lines = press(SwitchAction.groups[n])
                presses += 1
                found = lines.contains { if case .highlight(item.id, .item, _) = $0.event { return true } else { return false } }
            }
            if !found { problems.append("\(item.id) not reached in \(presses) presses (k=\(k), n=\(model.items.count))"); continue }
            reached += 1
            if case .colorGroups(let c) = h.scanner.state, case .menu(let m) = c.subject {
                let shown = c.runs.flatMap { m.entries[$0.items].map(\.id) }
                if shown != m.entries.map(\.id) { problems.append("menu on \(item.id) shows \(shown), entries \(m.entries.map(\.id))") }
                _ = press(.escape)
                if h.scanner.isMenuOpen { problems.append("escape did not close the menu on \(item.id)") }
            }
        }
        return problems + h.violations
    }

    /// From a level below the first: the escape switch and the back colour each return to the
    /// level before (checked on copies).
    private mutating func checkBack(_ c: Scanner.ColorState) {
        var viaEscape = self
        _ = viaEscape.press(.escape)
        if viaEscape.colors?.stack != Array(c.stack.dropLast()) { problems.append("escape from depth \(c.stack.count) did not go back one level") }
        var viaColor = self
        var presses = 0
        for _ in 0..<32 {
            guard let now = viaColor.colors, now.stack.count >= c.stack.count,
                  let n = now.runs.firstIndex(where: \.back) else { break }
            _ = viaColor.press(SwitchAction.groups[n])
            presses += 1
        }
        // Following back's colour leads out to a level before this one, back where the run that
        // first held back was chosen.
        if viaColor.colors?.stack != Array(c.stack.prefix(c.stack.last!.backTo)) || presses > 32 {
            problems.append("the back colour from depth \(c.stack.count) did not lead out")
        }
    }
}

/// Point scanning: normalise to a fresh x band, then for every item with its centre on screen,
/// press when the band covers the centre, when the line crosses it, and the same for y.
struct PointExplorer {
    var h: ScannerHarness
    private(set) var reached = 0

    init(h: ScannerHarness) { self.h = h }

    private var point: Scanner.PointState? {
        if case .point(let p) = h.scanner.state { return p }
        return nil
    }

    private mutating func press(_ a: SwitchAction, at t: Instant) -> [TranscriptLine] {
        h.deliver(.action(a, target: nil), at: max(t, h.now))
    }

    /// A fresh x band at `now` (restarting after a stop, leaving menus).
    private mutating func normalise() -> Bool {
        for _ in 0..<12 {
            switch h.scanner.state {
            case .stopped: _ = press(.select, at: h.now)
            case .menu, .autoTapWindow: _ = press(.escape, at: h.now)
            case .scanning:
                // The point menu's Item Mode was chosen: back through the item menu's Point Mode.
                guard switchToPointMode() else { return false }
            case .point(let p):
                if p.step == .xBand && p.refine == 0 {
                    // Restart the band so it starts at the leading edge now.
                    _ = press(.stopScanning, at: h.now)
                    _ = press(.select, at: h.now)
                    return point != nil
                }
                _ = press(.escape, at: h.now)
            default: return false
            }
        }
        return false
    }

    /// From item scanning: the item menu, its highlight moved to Point Mode, chosen.
    private mutating func switchToPointMode() -> Bool {
        _ = press(.menu, at: h.now)
        for _ in 0..<64 {
            guard case .menu(let m) = h.scanner.state else { return point != nil }
            if m.levels.stop(m.cursor.location) == .item(m.entries.firstIndex(of: .pointMode) ?? -1) {
                _ = press(.select, at: h.now)
                return point != nil
            }
            if let t = h.nextDeadline, h.scanner.style == .auto { _ = h.advance(to: t) } else { _ = press(.next, at: h.now) }
        }
        return false
    }

    /// When the current sweep's leading edge (or line) reaches `target` on its first leg.
    private func when(_ target: Double) -> Instant? {
        guard let s = point?.sweep, target >= s.lo, target <= s.hi, s.legs == 0 else { return nil }
        let us = (target - s.lo) / s.speed * 1_000_000
        return s.start + Interval(microseconds: Int64(us.rounded(.up)))
    }

    mutating func run() -> [String] {
        var problems: [String] = []
        let model = h.scanner.model
        let screen = model.screen
        guard screen.width > 0, screen.height > 0 else { return [] }
        for item in model.items {
            guard let f = item.element.frame else { continue }
            let c = f.center
            guard c.x >= 0, c.x < screen.width, c.y >= 0, c.y < screen.height else { continue }
            guard normalise(), let p0 = point else { problems.append("no fresh sweep for \(item.id): \(h.scanner.state)"); break }
            let bandX = min(max(c.x - p0.sweep.width / 2, 0), p0.sweep.hi)
            var lines: [TranscriptLine] = []
            for target in [bandX, c.x] {
                guard let t = when(target) else { problems.append("x \(target) not on the sweep for \(item.id) (\(c), screen \(screen)): \(String(describing: point?.sweep)) \(h.scanner.state)"); return problems }
                lines += press(.select, at: t)
            }
            guard let yBand = point?.sweep else { problems.append("no y band"); return problems }
            let bandY = min(max(c.y - yBand.width / 2, 0), yBand.hi)
            for target in [bandY, c.y] {
                guard let t = when(target) else { problems.append("y \(target) not on the sweep for \(item.id)"); return problems }
                lines += press(.select, at: t)
            }
            guard let chosen = lines.compactMap({ line -> (Point, String?)? in
                if case .point(let p, let id, _) = line.event { return (p, id) }
                return nil
            }).last else { problems.append("no point chosen for \(item.id): \(h.render(lines))"); continue }
            // Within the rounding of one microsecond of motion.
            if abs(chosen.0.x - c.x) > 0.01 || abs(chosen.0.y - c.y) > 0.01 {
                problems.append("aimed at \(c) for \(item.id), got \(chosen.0)")
            }
            let expected = model.hitTest(chosen.0).map { model.items[$0].id }
            if chosen.1 != expected { problems.append("point \(chosen.0) names \(chosen.1 ?? "nothing"), a touch hits \(expected ?? "nothing")") }
            if chosen.1 != nil { reached += 1 }
            // Every step is left by escape, back to the one before.
            if h.scanner.isMenuOpen {
                _ = press(.escape, at: h.now)
                if h.scanner.isMenuOpen { problems.append("escape did not close the point menu") }
            }
        }
        // From each step, escape goes one step back.
        if normalise() {
            _ = press(.select, at: h.now)            // x line
            _ = press(.select, at: h.now)            // y band
            _ = press(.select, at: h.now)            // y line
            for expected: Scanner.PointState.Step in [.yBand, .xLine, .xBand] {
                _ = press(.escape, at: h.now)
                if point?.step != expected { problems.append("escape reached \(String(describing: point?.step)), expected \(expected)") }
            }
        }
        return problems + h.violations
    }
}
