import PropertyBased
import Testing
@testable import SwitchCore

/// The O(n log n) scan order gives exactly what the pairwise definition gives
/// (`ScanOrderReference.swift`, the code as it was): rows, order within rows, groups, dissolved
/// groups, levels, group paths, container actions, the accessibility elements and the modal scope.
///
/// Seeded sweeps (the same cases every run; a failure prints the seed that `replay…` re-runs) over
/// generated frames and trees built to hit the hard cases: ties on every key, chains of partial
/// overlaps just above, at and below half the smaller height, equal frames, zero heights (lines and
/// points, on and off other frames' edges), frameless nodes, frames far from 0 where the
/// subtraction rounds (1e15 + 0.1 …), subnormal heights, bottoms that overflow to infinity,
/// negative coordinates, nesting, right-to-left, declared order, hidden and modal subtrees, groups
/// by rule and by `shouldGroupChildren`, containers with the parent group's frame, custom actions.
@Suite("Scan order equivalence with the pairwise reference")
struct ScanOrderEquivalenceTests {
    static let frameListShards = 4
    static let frameListsPerShard = 5_000
    static let treeShards = 4
    static let treesPerShard = 1_500

    // MARK: Reading order of one container

    @Test(arguments: 0..<frameListShards)
    func readingOrder_matches_the_pairwise_reference(shard: Int) {
        var rng = Xoshiro(seed: (0x0DE5_0DE5, 0x1111 &+ UInt64(shard), 0x2222, 0x3333))
        var failures = 0
        for _ in 0..<Self.frameListsPerShard {
            let seed = rng.currentSeed
            let (frames, direction) = FrameGen.list(&rng)
            let fast = ReadingOrder.order(frames, direction: direction)
            let reference = ReferenceReadingOrder.order(frames, direction: direction)
            if fast != reference {
                failures += 1
                Issue.record("seed \(seed): \(direction) \(frames.map { $0.map(\.description) ?? "nil" })\nfast      \(fast)\nreference \(reference)")
                if failures >= 3 { return }
            }
        }
    }

    /// Re-runs one generated frame list from a failure's seed: (fast, reference).
    static func replayFrames(seed: String) -> ([Int], [Int])? {
        guard var rng = Xoshiro(seed: seed) else { return nil }
        let (frames, direction) = FrameGen.list(&rng)
        return (ReadingOrder.order(frames, direction: direction), ReferenceReadingOrder.order(frames, direction: direction))
    }

    @Test func longRows_matchTheReference() {
        // Long rows are where the running minima and the heap carry the test: 2,000 frames each.
        var rng = Xoshiro(seed: (5, 6, 7, 8))
        for shape in 0..<6 {
            var frames: [Rect?] = []
            var y = 0.0
            for k in 0..<2_000 {
                let h: Double
                switch shape {
                case 0: h = 40; y = Double(Int.random(in: 0...3, using: &rng))             // one ragged row
                case 1: h = Double(Int.random(in: 1...80, using: &rng)); y += h * 0.5      // a chain of half overlaps
                case 2: h = [0, 10, 40].randomElement(using: &rng)!; y = Double(k / 50) * 20  // flat frames in rows
                case 3: h = 1e-300 * Double(k % 7); y = 1e15 + 0.1 * Double(k % 3)          // rounding far from 0
                case 4: h = Double.random(in: 0...100, using: &rng); y = Double.random(in: 0...50, using: &rng)
                default: h = 1e308; y = 1e308 * Double.random(in: 0.5...1, using: &rng)     // bottoms at infinity
                }
                frames.append(Rect(x: Double(Int.random(in: 0...100, using: &rng)), y: y, width: 10, height: h))
            }
            for direction in [ElementTree.LayoutDirection.leftToRight, .rightToLeft] {
                #expect(ReadingOrder.order(frames, direction: direction) == ReferenceReadingOrder.order(frames, direction: direction),
                        "shape \(shape) \(direction)")
            }
        }
    }

    @Test func rowTest_activation_is_the_least_double_where_the_overlap_falls_short() {
        // `RowTest.activation` must be exact for every double, not only near the guess.
        var rng = Xoshiro(seed: (9, 9, 9, 9))
        for n in 0..<20_000 {
            let bottom: Double
            let half: Double
            switch n % 5 {
            case 0: bottom = Double.random(in: -1e6...1e6, using: &rng); half = Double.random(in: 0...1e3, using: &rng)
            case 1: bottom = 1e15 + 0.1 * Double(Int.random(in: 0...9, using: &rng)); half = 0.05 * Double(Int.random(in: 1...9, using: &rng))
            case 2: bottom = Double.random(in: -1...1, using: &rng); half = Double.random(in: 1...4, using: &rng)
            case 3: bottom = Double(bitPattern: UInt64.random(in: 0...0x7FEF_FFFF_FFFF_FFFF, using: &rng)) * (Bool.random(using: &rng) ? 1 : -1)
                half = Double(bitPattern: UInt64.random(in: 0...0x7FEF_FFFF_FFFF_FFFF, using: &rng))
            default: bottom = 1.0; half = [1.0, 0.5, 2.0, Double.leastNonzeroMagnitude, 1e300].randomElement(using: &rng)!
            }
            let a = ReadingOrder.RowTest.activation(bottom: bottom, halfHeight: half)
            func holds(_ y: Double) -> Bool { bottom - y < half }
            if a == .infinity {
                #expect(!holds(.greatestFiniteMagnitude), "bottom \(bottom) half \(half)")
            } else if a == -.infinity {
                #expect(holds(-.greatestFiniteMagnitude), "bottom \(bottom) half \(half)")
            } else {
                #expect(holds(a) && !holds(a.nextDown), "bottom \(bottom) half \(half) activation \(a)")
            }
        }
    }

    @Test func framesOutsideTheReadersDomainAreReadAsFrameless() {
        let frames: [Rect?] = [Rect(x: 0, y: 10, width: 5, height: 5), Rect(x: 0, y: .nan, width: 5, height: 5),
                               Rect(x: 0, y: 0, width: 5, height: -1), nil, Rect(x: 0, y: 0, width: 5, height: 5)]
        #expect(ReadingOrder.order(frames, direction: .leftToRight) == [4, 0, 1, 2, 3])
    }

    // MARK: The whole scan model

    @Test(arguments: 0..<treeShards)
    func scanModel_matches_the_recursive_reference(shard: Int) {
        var rng = Xoshiro(seed: (0x7EE5_7EE5, 0x4444 &+ UInt64(shard), 0x5555, 0x6666))
        var failures = 0
        for _ in 0..<Self.treesPerShard {
            let seed = rng.currentSeed
            let tree = TreeGen.tree(&rng)
            if let difference = Self.difference(tree) {
                failures += 1
                Issue.record("seed \(seed): \(difference)")
                if failures >= 3 { return }
            }
        }
    }

    /// Re-runs one generated tree from a failure's seed; nil when the models agree.
    static func replayTree(seed: String) -> String? {
        guard var rng = Xoshiro(seed: seed) else { return "bad seed" }
        return difference(TreeGen.tree(&rng))
    }

    @Test func generator_covers_the_hard_cases() {
        var rng = Xoshiro(seed: (0x7EE5_7EE5, 0x4444, 0x5555, 0x6666))
        var grouped = 0, nested = 0, modal = 0, rtl = 0, actions = 0, multiRow = 0, longRow = 0
        for _ in 0..<500 {
            let tree = TreeGen.tree(&rng)
            let model = ScanModel(tree: tree)
            let reference = ReferenceScanModel(tree: tree)
            if !model.groups.isEmpty { grouped += 1 }
            if model.groups.contains(where: { $0.parent != nil }) { nested += 1 }
            if model.scopeID != tree.root.id { modal += 1 }
            if tree.layoutDirection == .rightToLeft { rtl += 1 }
            if reference.items.contains(where: { !$0.containerActions.isEmpty }) { actions += 1 }
            let rows = Self.rowCounts(tree.root)
            if rows.contains(where: { $0.rows >= 2 }) { multiRow += 1 }
            if rows.contains(where: { $0.longest >= 4 }) { longRow += 1 }
        }
        #expect(grouped > 150 && nested > 40 && modal > 20 && rtl > 100 && actions > 100
                && multiRow > 200 && longRow > 100,
                "grouped \(grouped) nested \(nested) modal \(modal) rtl \(rtl) actions \(actions) multiRow \(multiRow) longRow \(longRow)")
    }

    /// Per container of `root` (direct children's frames): the number of rows and the longest row.
    static func rowCounts(_ root: Element) -> [(rows: Int, longest: Int)] {
        var out: [(Int, Int)] = []
        var stack = [root]
        while let e = stack.popLast() {
            stack += e.children
            let frames = e.children.map(\.frame)
            let framed = frames.compactMap { $0 }
            guard framed.count >= 2 else { continue }
            // Rows: count breaks in the reference order where a frame does not share a row with its predecessor's row.
            var rows = 0, longest = 0, current = 0
            var row: [Rect] = []
            for f in framed.sorted(by: { ($0.minY, $0.minX) < ($1.minY, $1.minX) }) {
                if row.isEmpty || row.allSatisfy({ ReadingOrder.sameRow($0, f) }) {
                    row.append(f); current += 1
                } else {
                    rows += 1; longest = max(longest, current); row = [f]; current = 1
                }
            }
            out.append((rows + 1, max(longest, current)))
        }
        return out
    }

    /// What differs between the fast model and the reference, if anything.
    static func difference(_ tree: ElementTree) -> String? {
        let fast = ScanModel(tree: tree)
        let reference = ReferenceScanModel(tree: tree)
        var differences: [String] = []
        func check<T: Equatable>(_ what: String, _ a: T, _ b: T) {
            if a != b { differences.append("\(what):\n fast      \(a)\n reference \(b)") }
        }
        check("items", fast.items.map(\.id), reference.items.map(\.id))
        check("accessibility elements", fast.accessibilityElements.map(\.id), reference.accessibilityElements.map(\.id))
        check("scope", fast.scopeID, reference.scopeID)
        check("top stops", fast.topStops, reference.topStops)
        check("group ids", fast.groups.map(\.id), reference.groups.map(\.id))
        check("group parents", fast.groups.map(\.parent), reference.groups.map(\.parent))
        check("group items", fast.groups.map(\.items), reference.groups.map(\.items))
        check("group stops", fast.groups.map(\.stops), reference.groups.map(\.stops))
        check("group labels", fast.groups.map(\.label), reference.groups.map(\.label))
        check("group frames", fast.groups.map(\.frame), reference.groups.map(\.frame))
        check("group paths", fast.items.map(\.groupPath), reference.items.map(\.groupPath))
        let innermost: [Int?] = reference.items.map { $0.groupPath.last }
        check("innermost groups", fast.items.map(\.group), innermost)
        check("container actions", fast.items.map(\.containerActions), reference.items.map(\.containerActions))
        let indices: [Int?] = fast.items.map { fast.itemIndex(id: $0.id) }
        check("item index", indices, Array(fast.items.indices))
        return differences.isEmpty ? nil : differences.joined(separator: "\n")
    }
}

/// Frames built to make rows hard to tell apart.
enum FrameGen {
    /// A container's children: 0–40 frames (some nil), in one of several styles, and a direction.
    static func list(_ rng: inout Xoshiro) -> ([Rect?], ElementTree.LayoutDirection) {
        let count = [0, 1, 2, 3, 5, 8, 13, 40].randomElement(using: &rng)!
        let style = Int.random(in: 0..<Style.count, using: &rng)
        var chainY = Double(Int.random(in: 0...50, using: &rng))
        var frames: [Rect?] = []
        for _ in 0..<count {
            if Int.random(in: 0..<8, using: &rng) == 0 { frames.append(nil); continue }
            frames.append(frame(style, &rng, chainY: &chainY))
        }
        return (frames, Bool.random(using: &rng) ? .leftToRight : .rightToLeft)
    }

    enum Style {
        static let count = 8
    }

    static func frame(_ style: Int, _ rng: inout Xoshiro, chainY: inout Double) -> Rect {
        func pick(_ values: [Double]) -> Double { values.randomElement(using: &rng)! }
        let x = pick([0, 0, 10, 20, 30, 40, -5])
        let w = pick([0, 10, 10, 20, 35])
        switch style {
        case 0:
            // Small pools: ties on top, leading edge, height; half overlaps exactly.
            return Rect(x: x, y: pick([0, 10, 20, 30, 40]), width: w, height: pick([0, 10, 20, 40]))
        case 1:
            // Chains of partial overlaps around one half.
            let h = pick([10, 20, 40, 0])
            let r = Rect(x: x, y: chainY, width: w, height: h)
            chainY += max(h, 10) * pick([0.5, 0.5, 0.49, 0.51, 0.25, 0.75, 1, 0])
            return r
        case 2:
            // Equal frames, and a few zero-height lines on their edges.
            return pick([0, 0, 0, 1]) == 0 ? Rect(x: 0, y: 100, width: 50, height: 40)
                : Rect(x: x, y: pick([100, 120, 140, 99]), width: w, height: 0)
        case 3:
            // Far from 0: the subtractions round.
            return Rect(x: x, y: 1e15 + 0.1 * pick([0, 1, 2, 3, 5, 8]), width: w, height: pick([0, 0.1, 0.2, 0.3, 0.5, 1]))
        case 4:
            // Subnormal and tiny heights.
            return Rect(x: x, y: pick([0, 5e-324, 1e-310]), width: w, height: pick([0, 5e-324, 1e-323, 1e-310, 2e-310]))
        case 5:
            // Bottoms overflowing to infinity.
            return Rect(x: x, y: pick([1e308, 1.5e308, -1e308, 0]), width: pick([w, .infinity]), height: pick([1e308, 1.7e308, 0, 1, .infinity]))
        case 6:
            // Tall frames (sidebars) beside short ones, negative tops.
            return Rect(x: x, y: pick([-20, 0, 10, 20, 35]), width: w, height: pick([300, 40, 20, 15, 0]))
        default:
            // Anything, with fractions.
            return Rect(x: Double.random(in: -50...50, using: &rng), y: Double.random(in: -10...100, using: &rng),
                        width: Double.random(in: 0...60, using: &rng), height: pick([0, Double.random(in: 0...60, using: &rng)]))
        }
    }
}

/// Random trees: nesting, groups, hidden and modal subtrees, custom actions, every frame style.
enum TreeGen {
    static func tree(_ rng: inout Xoshiro) -> ElementTree {
        var next = 0
        let style = Int.random(in: 0..<FrameGen.Style.count, using: &rng)
        var chainY = 0.0
        func id() -> String { next += 1; return "n\(next)" }
        func node(depth: Int, parentFrame: Rect?, rng: inout Xoshiro) -> Element {
            let roll = Int.random(in: 0..<100, using: &rng)
            var frame: Rect? = Int.random(in: 0..<7, using: &rng) == 0 ? nil : FrameGen.frame(style, &rng, chainY: &chainY)
            if depth >= 4 || roll < 45 {
                // An element.
                var e = Element(id: id(), label: "L\(next)", frame: frame)
                switch Int.random(in: 0..<8, using: &rng) {
                case 0: e.traits = [.staticText]
                case 1: e.traits = [.button, .notEnabled]
                case 2: e.customActions = [["Delete"], ["Scroll forward"], ["Share", "Delete"]].randomElement(using: &rng)!
                case 3: e.traits = [.adjustable]
                default: e.traits = [.button]
                }
                if Int.random(in: 0..<12, using: &rng) == 0 { e.elementsHidden = true }
                if Int.random(in: 0..<15, using: &rng) == 0 {
                    // One element hiding children.
                    e.isAccessibilityElement = true
                    e.children = [Element(id: id(), label: "hidden", traits: [.button])]
                }
                return e
            }
            // A container.
            if Int.random(in: 0..<5, using: &rng) == 0 { frame = parentFrame }
            var c = Element(id: id(), isAccessibilityElement: false, label: Bool.random(using: &rng) ? "C\(next)" : nil, frame: frame)
            c.order = Int.random(in: 0..<6, using: &rng) == 0 ? .declared : .reading
            c.shouldGroupChildren = Int.random(in: 0..<6, using: &rng) == 0
            if Int.random(in: 0..<4, using: &rng) == 0 { c.customActions = [["Scroll forward", "Scroll backward"], ["Delete"], ["Zoom"]].randomElement(using: &rng)! }
            if Int.random(in: 0..<25, using: &rng) == 0 { c.elementsHidden = true }
            if Int.random(in: 0..<20, using: &rng) == 0 { c.viewIsModal = true }
            let count = [0, 1, 1, 2, 2, 3, 4, 6, 9].randomElement(using: &rng)!
            for _ in 0..<count { c.children.append(node(depth: depth + 1, parentFrame: frame, rng: &rng)) }
            return c
        }
        var root = Element(id: "root", isAccessibilityElement: false, frame: Bool.random(using: &rng) ? Rect(x: 0, y: 0, width: 400, height: 800) : nil)
        root.order = Int.random(in: 0..<8, using: &rng) == 0 ? .declared : .reading
        root.customActions = Int.random(in: 0..<5, using: &rng) == 0 ? ["Scroll forward"] : []
        let count = Int.random(in: 0...8, using: &rng)
        for _ in 0..<count { root.children.append(node(depth: 1, parentFrame: root.frame, rng: &rng)) }
        return ElementTree(screen: Size(width: 400, height: 800), layoutDirection: Bool.random(using: &rng) ? .leftToRight : .rightToLeft, root: root)
    }
}
