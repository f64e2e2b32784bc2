import PropertyBased
import Testing
@testable import SwitchCore

/// Property tests over random trees × random settings × random press sequences (actions at random
/// times, with and without press-time snapshots, and layout changes). Every case checks:
///   1. from the state reached, a bounded number of presses (bound computed from the model)
///      highlights every scan item and every entry of every item's menu;
///   2. the menu can always be left (escape, once per level: a group of entries, a page, closes it;
///      the menu switch closes it; in auto style waiting closes it too);
///   3. no timer is pending while scanning is stopped;
///   4. no stall: in auto style a timer is always pending while scanning, every timer is set for
///      a time ≥ now, and transcript lines are in time order.
/// 3 and 4 are checked by `ScannerHarness` after every single event.
///
/// The seeded sweep runs 10,000 cases with fixed seeds (the same cases on every run); a failure
/// names the case's seed, which `ScannerPropertyTests.replay(seed:)` re-runs. The random run adds
/// fresh cases each time through `propertyCheck` (it prints a `.fixedSeed` to reproduce).
@Suite struct ScannerPropertyTests {
    static let shards = 8
    static let casesPerShard = 1_250

    @Test(arguments: 0..<shards)
    func scanner_invariants_seeded(shard: Int) {
        var rng = Xoshiro(seed: (0x5CA7_5CA7_0000_0001, 0x0BAD_F00D_0000_0000 &+ UInt64(shard), 0x1234_5678_9ABC_DEF0, 0xFEDC_BA98_7654_3210))
        var failed = 0
        for n in 0..<ScannerPropertyTests.casesPerShard {
            let seed = rng.currentSeed
            let scanCase = ScanCase.generator.run(using: &rng)
            let failures = ScanCase.check(scanCase)
            if !failures.isEmpty {
                failed += 1
                Issue.record("""
                    shard \(shard) case \(n) failed; replay with ScannerPropertyTests.replay(seed: "\(seed)")
                    \(failures.prefix(5).joined(separator: "\n"))
                    \(scanCase)
                    """)
                if failed >= 3 { return }
            }
        }
    }

    @Test func scanner_invariants_random() async {
        await propertyCheck(count: 200, input: ScanCase.generator) { scanCase in
            let failures = ScanCase.check(scanCase)
            #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
        }
    }

    /// Re-runs one generated case (seed from a failure message) and returns its failures.
    static func replay(seed: String) -> [String] {
        guard var rng = Xoshiro(seed: seed) else { return ["bad seed"] }
        return ScanCase.check(ScanCase.generator.run(using: &rng))
    }

    @Test func replay_is_deterministic() {
        var rng = Xoshiro(seed: (9, 8, 7, 6))
        _ = ScanCase.generator.run(using: &rng)
        let seed = rng.currentSeed
        let first = ScanCase.generator.run(using: &rng)
        guard var again = Xoshiro(seed: seed) else { return #expect(Bool(false), "seed did not round-trip") }
        let second = ScanCase.generator.run(using: &again)
        #expect(first.description == second.description)
        #expect(ScannerPropertyTests.replay(seed: seed) == ScanCase.check(first))
    }

    @Test func generator_covers_the_space() {
        // The sweep is only as good as its cases: make sure they contain what the checks are for.
        var rng = Xoshiro(seed: (1, 2, 3, 4))
        var grouped = 0, withMenuActions = 0, adjustable = 0, layouts = 0, empty = 0, modal = 0, targets = 0
        var styles: Set<String> = []
        for _ in 0..<500 {
            let c = ScanCase.generator.run(using: &rng)
            let model = ScanModel(tree: c.tree)
            if !model.groups.isEmpty { grouped += 1 }
            if model.items.contains(where: { !$0.element.customActions.isEmpty }) { withMenuActions += 1 }
            if model.items.contains(where: \.isAdjustable) { adjustable += 1 }
            if model.items.isEmpty { empty += 1 }
            if model.scopeID != c.tree.root.id { modal += 1 }
            layouts += c.steps.filter { if case .layout = $0.kind { return true } else { return false } }.count
            targets += c.steps.filter { if case .action(_, let hold?) = $0.kind { return hold >= 0 } else { return false } }.count
            styles.insert(c.settings.style.rawValue + "/" + c.settings.tapBehavior.rawValue)
        }
        #expect(grouped > 100)
        #expect(withMenuActions > 100)
        #expect(adjustable > 50)
        #expect(layouts > 200)
        #expect(empty > 5 && empty < 100)
        #expect(modal > 5)
        #expect(targets > 500)
        #expect(styles.count == 9)
    }
}

/// One generated case: a tree, settings, and steps at increasing times.
struct ScanCase: CustomStringConvertible, Sendable {
    struct Step: Sendable {
        enum Kind: Sendable {
            /// A switch action; `hold`: the press was physical this many µs earlier (a snapshot is
            /// taken then), nil: no snapshot.
            case action(SwitchAction, hold: Int64?)
            case layout(ElementTree)
            case wait
            /// A timer event the scanner did not ask for now (stale or early): must be harmless.
            case spuriousTimer(Scanner.TimerID)
        }
        /// µs after the previous step.
        var gap: Int64
        var kind: Kind
    }

    var tree: ElementTree
    var settings: ScanningSettings
    var steps: [Step]

    var description: String {
        let s = settings
        var out = "settings: \(s.style) grouping=\(s.grouping) dwell=\(s.autoScanningTime) pause=\(s.pauseOnFirstItem) loops=\(s.loops) "
        out += "tap=\(s.tapBehavior) autoTap=\(s.autoTapTime) focus=\(s.focusedItemAfterTap) speech=\(s.speech)\n"
        out += "tree: " + TreeEncoder.encode(tree).rendered() + "\n"
        var t: Int64 = 0
        for step in steps {
            t += step.gap
            let time = Instant(microseconds: t).transcriptString
            switch step.kind {
            case .action(let a, let hold): out += "\(time) \(a.rawValue)" + (hold.map { " (pressed \($0) µs earlier)" } ?? "") + "\n"
            case .layout(let tree): out += "\(time) layout " + TreeEncoder.encode(tree).rendered() + "\n"
            case .wait: out += "\(time) wait\n"
            case .spuriousTimer(let id): out += "\(time) spurious timer \(id)\n"
            }
        }
        return out
    }

    // MARK: Generation

    static let generator = Generator<ScanCase, Shrink.None<ScanCase>> { rng in
        var g = CaseBuilder()
        return g.scanCase(&rng)
    }

    // MARK: Checking

    static func check(_ c: ScanCase) -> [String] {
        var h = ScannerHarness(ScanModel(tree: c.tree), c.settings, menu: Fixture.fullMenu())
        var failures: [String] = []
        h.start()
        var t = Instant.zero
        for step in c.steps {
            let previous = t
            t = t + Interval(microseconds: step.gap)
            switch step.kind {
            case .action(let action, let hold):
                var target: Scanner.ScanTarget?
                if let hold {
                    _ = h.advance(to: max(previous, t - Interval(microseconds: hold)))
                    target = h.scanner.currentTarget
                }
                _ = h.deliver(.action(action, target: target), at: t)
            case .layout(let tree):
                _ = h.deliver(.layout(ScanModel(tree: tree)), at: t)
            case .wait:
                _ = h.advance(to: t)
            case .spuriousTimer(let id):
                _ = h.deliver(.timer(id), at: t)
            }
        }
        for (a, b) in zip(h.lines, h.lines.dropFirst()) where b.t < a.t {
            failures.append("lines out of time order: \(ScannerHarness.render(a)) then \(ScannerHarness.render(b))")
        }
        failures += h.violations

        failures += MenuExit.check(h, c.settings)
        var explorer = Explorer(h: h, settings: c.settings)
        explorer.run()
        failures += explorer.failures
        failures += explorer.h.violations.filter { !h.violations.contains($0) }
        if h.scanner.style == .auto { failures += AutoWaits.check(h, c.settings) }
        return failures
    }
}

/// Builds random trees and cases from an RNG.
struct CaseBuilder {
    private var nextID = 0
    private var nodes = 0

    mutating func scanCase(_ rng: inout any SeededRandomNumberGenerator) -> ScanCase {
        let tree = randomTree(&rng)
        var s = ScanningSettings()
        s.style = [.auto, .manual, .singleSwitchStep][Int.random(in: 0..<3, using: &rng)]
        s.grouping = Grouping.allCases[Int.random(in: 0..<Grouping.allCases.count, using: &rng)]
        s.autoScanningTime = .milliseconds(Int64.random(in: 1...20, using: &rng) * 100)
        s.pauseOnFirstItem = Bool.random(using: &rng) ? .zero : .milliseconds(Int64.random(in: 1...10, using: &rng) * 100)
        s.loops = Int.random(in: 1...4, using: &rng)
        s.tapBehavior = [.default, .autoTap, .alwaysTap][Int.random(in: 0..<3, using: &rng)]
        s.autoTapTime = .milliseconds(Int64.random(in: 1...15, using: &rng) * 100)
        s.focusedItemAfterTap = Bool.random(using: &rng) ? .first : .current
        s.speech = Int.random(in: 0..<4, using: &rng) == 0

        let actions: [(SwitchAction, Int)] = [(.select, 30), (.next, 20), (.previous, 10), (.menu, 10), (.escape, 10), (.stopScanning, 4), (.resumeScanning, 6)]
        let total = actions.reduce(0) { $0 + $1.1 }
        var steps: [ScanCase.Step] = []
        for _ in 0..<Int.random(in: 0...24, using: &rng) {
            let gap: Int64
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: gap = 0
            case 1...4: gap = Int64.random(in: 1...300_000, using: &rng)
            case 5...8: gap = Int64.random(in: 300_000...1_500_000, using: &rng)
            default: gap = Int64.random(in: 1_500_000...8_000_000, using: &rng)
            }
            let roll = Int.random(in: 0..<100, using: &rng)
            if roll < 8 {
                let layout: ElementTree
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: layout = emptyTree()
                case 1: layout = tree
                default: layout = randomTree(&rng)
                }
                steps.append(.init(gap: gap, kind: .layout(layout)))
            } else if roll < 11 {
                steps.append(.init(gap: gap, kind: .spuriousTimer(Bool.random(using: &rng) ? .dwell : .autoTap)))
            } else if roll < 20 {
                steps.append(.init(gap: gap, kind: .wait))
            } else {
                var pick = Int.random(in: 0..<total, using: &rng)
                var action = SwitchAction.select
                for (a, w) in actions {
                    if pick < w { action = a; break }
                    pick -= w
                }
                let hold: Int64? = Bool.random(using: &rng) ? Int64.random(in: 0...300_000, using: &rng) : nil
                steps.append(.init(gap: gap, kind: .action(action, hold: hold)))
            }
        }
        return ScanCase(tree: tree, settings: s, steps: steps)
    }

    private func emptyTree() -> ElementTree {
        ElementTree(screen: Size(width: 400, height: 800), root: Element(id: "root"))
    }

    /// Ids restart at n0 for every tree, so successive layouts share ids by chance, as real
    /// screens do.
    mutating func randomTree(_ rng: inout any SeededRandomNumberGenerator) -> ElementTree {
        nextID = 0
        nodes = 0
        var root = container(depth: 0, parentFrame: Rect(x: 0, y: 0, width: 400, height: 800), &rng)
        root.id = "root"
        root.isAccessibilityElement = false
        root.elementsHidden = false
        root.viewIsModal = false
        return ElementTree(screen: Size(width: 400, height: 800),
                           layoutDirection: Int.random(in: 0..<8, using: &rng) == 0 ? .rightToLeft : .leftToRight,
                           root: root)
    }

    private mutating func id() -> String {
        defer { nextID += 1 }
        return "n\(nextID)"
    }

    private func frame(_ rng: inout any SeededRandomNumberGenerator) -> Rect? {
        if Int.random(in: 0..<6, using: &rng) == 0 { return nil }
        return Rect(x: Double(Int.random(in: 0...36, using: &rng) * 10), y: Double(Int.random(in: 0...78, using: &rng) * 10),
                    width: Double(Int.random(in: 1...20, using: &rng) * 10), height: Double(Int.random(in: 1...10, using: &rng) * 10))
    }

    private mutating func node(depth: Int, parentFrame: Rect?, _ rng: inout any SeededRandomNumberGenerator) -> Element {
        nodes += 1
        if depth >= 4 || nodes > 36 || Int.random(in: 0..<10, using: &rng) < 6 { return leaf(&rng) }
        return container(depth: depth, parentFrame: parentFrame, &rng)
    }

    private mutating func leaf(_ rng: inout any SeededRandomNumberGenerator) -> Element {
        let labels = ["A", "Save", "Delete", "Volume", "", " "]
        var e = Element(id: id())
        if Int.random(in: 0..<5, using: &rng) > 0 { e.label = labels[Int.random(in: 0..<labels.count, using: &rng)] }
        if Int.random(in: 0..<2, using: &rng) == 0 { e.traits.insert(.button) }
        let traitChoices: [Traits] = [.link, .adjustable, .staticText, .header, .image, .keyboardKey]
        for trait in traitChoices where Int.random(in: 0..<5, using: &rng) == 0 { e.traits.insert(trait) }
        if Int.random(in: 0..<12, using: &rng) == 0 { e.traits.insert(.notEnabled) }
        let actionNames = ["Delete", "Share", "Archive", "Delete"]
        for _ in 0..<[0, 0, 1, 2][Int.random(in: 0..<4, using: &rng)] {
            e.customActions.append(actionNames[Int.random(in: 0..<actionNames.count, using: &rng)])
        }
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: e.respondsToUserInteraction = true
        case 1: e.respondsToUserInteraction = false
        default: break
        }
        e.frame = frame(&rng)
        if Int.random(in: 0..<10, using: &rng) == 0 { e.activationPoint = Point(x: 5, y: 5) }
        if Int.random(in: 0..<20, using: &rng) == 0 { e.elementsHidden = true }
        return e
    }

    private mutating func container(depth: Int, parentFrame: Rect?, _ rng: inout any SeededRandomNumberGenerator) -> Element {
        var e = Element(id: id())
        // Sometimes the same frame as the parent: such a container is not a group by itself.
        e.frame = Int.random(in: 0..<4, using: &rng) == 0 ? parentFrame : frame(&rng)
        if Int.random(in: 0..<3, using: &rng) == 0 { e.label = "Box" }
        e.shouldGroupChildren = Int.random(in: 0..<4, using: &rng) == 0
        e.order = Bool.random(using: &rng) ? .declared : .reading
        if Int.random(in: 0..<30, using: &rng) == 0 { e.viewIsModal = true }
        if Int.random(in: 0..<30, using: &rng) == 0 { e.elementsHidden = true }
        if Int.random(in: 0..<20, using: &rng) == 0 {
            // An element that hides its children (a combined cell).
            e.isAccessibilityElement = true
            e.label = "Cell"
            e.traits = .button
        }
        let count: Int
        if depth == 0 {
            count = Int.random(in: 0..<40, using: &rng) == 0 ? 0 : Int.random(in: 2...8, using: &rng)
        } else {
            count = Int.random(in: e.viewIsModal ? 2...5 : 0...5, using: &rng)
        }
        for _ in 0..<count { e.children.append(node(depth: depth + 1, parentFrame: e.frame, &rng)) }
        return e
    }
}

/// Property 1: from the reached state, a bounded press sequence visits every item and every
/// entry of every item's menu. The strategy: normalise (restart if stopped, close the menu, end
/// an Auto Tap window, escape to the top level), then walk each level with `next`; open each
/// item's menu with the `menu` switch, walk its entries, close it with `escape`; enter each group
/// (select, or the step dwell after a press-driven move), walk it, leave it with `escape`.
struct Explorer {
    var h: ScannerHarness
    let settings: ScanningSettings
    private(set) var failures: [String] = []
    private var presses = 0
    private var seenItems: Set<String> = []
    private var checkedMenus: Set<String> = []

    init(h: ScannerHarness, settings: ScanningSettings) {
        self.h = h
        self.settings = settings
    }

    private var levels: ScanLevels { h.scanner.levels }

    private var cursor: Scanner.Cursor? {
        if case .scanning(let c) = h.scanner.state { return c }
        return nil
    }

    /// The most presses the strategy may need for this model.
    static func bound(_ levels: ScanLevels) -> Int {
        let model = levels.model
        let itemCost = model.items.reduce(0) { $0 + MenuEntry.entries(for: $1, MenuContext()).count + 4 }
        var depth = 0
        for g in levels.groups.indices {
            var d = 1, level = levels.groups[g].parent
            while case .group(let p) = level { d += 1; level = levels.groups[p].parent }
            depth = max(depth, d)
        }
        return 4 + depth + itemCost + levels.groups.count * 6 + levels.top.count + model.items.count
    }

    @discardableResult
    private mutating func press(_ action: SwitchAction) -> [TranscriptLine] {
        presses += 1
        let lines = h.deliver(.action(action, target: nil), at: h.now)
        for line in lines {
            if case .highlight(let id, .item, _) = line.event { seenItems.insert(id) }
        }
        return lines
    }

    mutating func run() {
        let model = h.scanner.model
        if model.items.isEmpty {
            if h.scanner.isScanning { failures.append("scanning an empty model") }
            if !press(.select).isEmpty { failures.append("select on an empty model produced lines") }
            return
        }
        if !h.scanner.isScanning { press(.select) }
        // Escape leaves a group of entries, then a page, then the menu.
        for _ in 0..<8 where h.scanner.isMenuOpen { press(.escape) }
        if case .autoTapWindow = h.scanner.state { press(.next) }
        var escapes = 0
        while let c = cursor, c.location.level != .top, escapes < 20 {
            press(.escape)
            escapes += 1
        }
        guard let top = cursor, top.location.level == .top else {
            failures.append("could not reach the top level: \(h.scanner.state)")
            return
        }
        visitLevel()
        let all = Set(model.items.map(\.id))
        if seenItems != all { failures.append("items never highlighted: \(all.subtracting(seenItems).sorted())") }
        if checkedMenus != all { failures.append("menus never walked: \(all.subtracting(checkedMenus).sorted())") }
        let bound = Explorer.bound(levels)
        if presses > bound { failures.append("took \(presses) presses, bound \(bound)") }
    }

    private mutating func visitLevel() {
        guard let start = cursor else { return failures.append("not scanning at a level: \(h.scanner.state)") }
        let n = levels.count(start.location.level)
        for _ in 0..<n {
            guard let c = cursor else { return failures.append("lost the cursor: \(h.scanner.state)") }
            switch levels.stop(c.location) {
            case .item(let i):
                walkMenu(item: i, at: c.location)
            case .group(let g):
                enter(g, from: c)
                visitLevel()
                press(.escape)
                if cursor?.location != c.location { return failures.append("escape did not return to group \(g): \(h.scanner.state)") }
            case .exit:
                break
            }
            press(.next)
        }
    }

    private mutating func enter(_ g: Int, from c: Scanner.Cursor) {
        switch h.scanner.style {
        case .auto, .manual:
            press(.select)
        case .singleSwitchStep:
            press(.previous)
            press(.next)
            if let due = h.nextDeadline { _ = h.advance(to: due) }
        }
        if cursor?.location != StopLocation(level: .group(g), index: 0) {
            failures.append("did not enter group \(g): \(h.scanner.state)")
        }
    }

    private mutating func walkMenu(item i: Int, at location: StopLocation) {
        let item = h.scanner.model.items[i]
        let entries = h.scanner.menuEntries(.item(i), page: nil)
        var lines = press(.menu)
        guard lines.contains(where: { $0.event == .menuOpened(id: item.id, label: item.description, items: MenuEntry.names(entries)) }),
              case .menu(let m) = h.scanner.state else {
            return failures.append("menu on \(item.id) did not open with \(entries.map(\.id)): \(lines.map(ScannerHarness.render))")
        }
        // The menu's top level: its entries, or (with grouping) groups of them.
        let expected = (0..<m.levels.count(.top)).map { m.highlight(m.levels.stop(StopLocation(level: .top, index: $0))).id }
        for _ in 1..<expected.count { lines += press(.next) }
        let opened = lines.firstIndex { if case .menuOpened = $0.event { return true } else { return false } } ?? 0
        let highlighted = lines[opened...].compactMap { line -> String? in
            if case .highlight(let id, _, _) = line.event { return id }
            return nil
        }
        if highlighted != expected { failures.append("menu on \(item.id) walked \(highlighted), expected \(expected)") }
        press(.escape)
        if h.scanner.isMenuOpen || cursor?.location != location {
            return failures.append("escape did not close the menu on \(item.id) back to it: \(h.scanner.state)")
        }
        checkedMenus.insert(item.id)
    }
}

/// Property 2: the menu can always be left: escape closes it, the menu switch closes it, and in
/// auto style waiting `loops` passes closes it by itself.
enum MenuExit {
    static func check(_ reached: ScannerHarness, _ settings: ScanningSettings) -> [String] {
        var failures: [String] = []
        var h = reached
        if !h.scanner.isMenuOpen, case .scanning(let c) = h.scanner.state,
           case .item = h.scanner.levels.stop(c.location) {
            _ = h.deliver(.action(.menu, target: nil), at: h.now)
        }
        guard case .menu(let m) = h.scanner.state else { return [] }
        for action in [SwitchAction.escape, .menu] {
            var copy = h
            // Escape goes back one level (a group of entries, a page): a few close it.
            for _ in 0..<(action == .escape ? 8 : 1) where copy.scanner.isMenuOpen {
                _ = copy.deliver(.action(action, target: nil), at: copy.now)
            }
            if copy.scanner.isMenuOpen || !copy.scanner.isScanning { failures.append("\(action) did not close the menu") }
        }
        if h.scanner.style == .auto {
            var copy = h
            for _ in 0...(max(1, settings.loops) * (m.entries.count + m.levels.groups.count) * 2) {
                guard copy.scanner.isMenuOpen, let due = copy.nextDeadline else { break }
                _ = copy.advance(to: due)
            }
            if copy.scanner.isMenuOpen { failures.append("waiting \(settings.loops) passes did not close the menu") }
            failures += copy.violations.filter { !reached.violations.contains($0) }
        }
        return failures
    }
}

/// Auto style: after a restart, waiting alone highlights every top-level stop in the first pass.
enum AutoWaits {
    static func check(_ reached: ScannerHarness, _ settings: ScanningSettings) -> [String] {
        var h = reached
        guard !h.scanner.model.items.isEmpty else { return [] }
        _ = h.deliver(.action(.stopScanning, target: nil), at: h.now)
        var lines = h.deliver(.action(.resumeScanning, target: nil), at: h.now)
        let levels = h.scanner.levels
        let n = levels.count(.top)
        for _ in 1..<max(n, 1) {
            guard let due = h.nextDeadline else { return ["auto scanning stalled after a restart"] }
            lines += h.advance(to: due)
        }
        let expected = (0..<n).map { k -> String in
            let (id, kind) = levels.highlight(levels.stop(StopLocation(level: .top, index: k)))
            return "\(kind.rawValue) \(id)"
        }
        let seen = lines.compactMap { line -> String? in
            if case .highlight(let id, let kind, _) = line.event { return "\(kind.rawValue) \(id)" }
            return nil
        }
        return seen == expected ? [] : ["waiting after a restart highlighted \(seen), expected \(expected)"]
    }
}
