import Testing
@testable import SwitchCore

/// Small screens for the groupings.
enum MethodFixture {
    /// A keyboard: q w e r t / a s d f / z x / space, 40 × 40 keys (reading order).
    static let keyboardRows: [[String]] = [["q", "w", "e", "r", "t"], ["a", "s", "d", "f"], ["z", "x"], ["space"]]

    static func keyboard(inContainer: Bool = false) -> ScanModel {
        var keys: [Element] = []
        for (r, row) in keyboardRows.enumerated() {
            for (c, id) in row.enumerated() {
                keys.append(Fixture.button(id, frame: Rect(x: Double(c) * 40, y: Double(r) * 40, width: id == "space" ? 200 : 40, height: 40)))
            }
        }
        let children = inContainer
            ? [Fixture.button("done", frame: Rect(x: 0, y: 300, width: 80, height: 40)),
               Element(id: "kbd", frame: Rect(x: 0, y: 0, width: 400, height: 160), children: keys)]
            : keys
        return ScanModel(tree: ElementTree(screen: Size(width: 400, height: 800),
                                           root: Element(id: "root", frame: Rect(x: 0, y: 0, width: 400, height: 800), children: children)))
    }

    /// n buttons in one column, 40 points apart.
    static func column(_ n: Int) -> ScanModel {
        Fixture.model((0..<n).map { Fixture.button("b\($0)", frame: Rect(x: 0, y: Double($0) * 40, width: 200, height: 40)) })
    }

    /// The levels as text: groups in brackets ("row:" / "part:" / container id), items by id.
    static func render(_ levels: ScanLevels) -> String {
        func level(_ stops: [LevelStop]) -> String {
            stops.map { stop -> String in
                switch stop {
                case .item(let i): return levels.model.items[i].id
                case .group(let g): return "[" + levels.groups[g].id + ": " + level(levels.groups[g].stops) + "]"
                case .exit: return "exit"
                }
            }.joined(separator: " ")
        }
        return level(levels.top)
    }

    static func levels(_ model: ScanModel, _ grouping: Grouping, t: Double = 1, pause: Double = 0, hold: Double = 0) -> ScanLevels {
        ScanLevels(model: model, grouping: grouping,
                   cost: ScanCostModel(scanTime: .seconds(t), firstItemPause: .seconds(pause), holdDuration: .seconds(hold)))
    }
}

@Suite struct LevelShaperTests {
    typealias M = MethodFixture

    @Test func none_is_one_level_in_scan_order() {
        #expect(M.render(M.levels(M.keyboard(), .none)) == "q w e r t a s d f z x space")
    }

    @Test func row_column_rows_of_three_or_more_become_groups() {
        // z x is a row of two (stays inline, Android's minimum of three); space is a row of one.
        #expect(M.render(M.levels(M.keyboard(), .rowColumn))
                == "[root#row1: q w e r t] [root#row2: a s d f] z x space")
    }

    @Test func row_column_keeps_containers_and_splits_their_rows() {
        // The keyboard container is a group (containers); inside it, its rows.
        #expect(M.render(M.levels(M.keyboard(inContainer: true), .rowColumn))
                == "[kbd: [kbd#row1: q w e r t] [kbd#row2: a s d f] z x space] done")
        #expect(M.render(M.levels(M.keyboard(inContainer: true), .containers))
                == "[kbd: q w e r t a s d f z x space] done")
    }

    @Test func row_column_one_row_is_not_split() {
        let row = Fixture.model((0..<6).map { Fixture.button("k\($0)", frame: Rect(x: Double($0) * 40, y: 0, width: 40, height: 40)) })
        #expect(M.render(M.levels(row, .rowColumn)) == "k0 k1 k2 k3 k4 k5")
    }

    @Test func auto_cuts_a_long_column_into_parts() {
        // 12 rows, one a second, no pause. Four parts of three would cost 54 s summed over the
        // items; this shape costs 48 s (average 4 s against 6.5 s linear): the first stops of a
        // level are the cheap ones, so the big part goes first and the last items stay top-level.
        // The cheapest over every contiguous hierarchy (brute force below); pinned so a change shows.
        let levels = M.levels(M.column(12), .auto)
        #expect(M.render(levels) == "[root#part1: [root#part1#part1: b0 b1 b2] b3 b4 b5] [root#part2: b6 b7 b8] b9 b10 b11")
        #expect(levels.reach().times.reduce(Interval.zero, +) == .seconds(48))
        // A long pause on every level's first stop makes levels expensive: flat wins.
        #expect(M.render(M.levels(M.column(5), .auto, t: 1, pause: 10)) == "b0 b1 b2 b3 b4")
    }

    @Test func auto_uses_the_keyboard_rows() {
        let levels = M.levels(M.keyboard(), .auto)
        let times = levels.reach().times
        let rowColumn = M.levels(M.keyboard(), .rowColumn).reach().times
        let linear = M.levels(M.keyboard(), .none).reach().times
        func sum(_ t: [Interval]) -> Int64 { t.reduce(0) { $0 + $1.microseconds } }
        #expect(sum(times) <= sum(rowColumn))
        #expect(sum(times) <= sum(linear))
        // Cuts never cross a row: the first row is split inside, the rest stay whole.
        #expect(M.render(levels) == "[root#row1: [root#row1#part1: q w] e r t] [root#row2: a s d f] z x space")
    }

    @Test func synthetic_groups_have_descriptions_frames_and_contiguous_items() {
        let levels = M.levels(M.keyboard(), .rowColumn)
        #expect(levels.description(ofGroup: 0) == "Q to T, row, 5 items")
        #expect(levels.frame(ofGroup: 1) == Rect(x: 0, y: 40, width: 160, height: 40))
        #expect(levels.groups.map(\.items) == [0..<5, 5..<9])
        #expect(levels.groupIndex(id: "root#row2") == 1)
        let parts = M.levels(M.column(12), .auto)
        #expect(parts.description(ofGroup: 0) == "B0 to B5, group, 6 items")
        #expect(parts.groups.map(\.id) == ["root#part1", "root#part1#part1", "root#part2"])
        #expect(parts.location(ofItem: 4) == StopLocation(level: .group(0), index: 2))
        #expect(parts.location(ofItem: 1) == StopLocation(level: .group(1), index: 1))
        #expect(parts.location(ofGroup: 2) == StopLocation(level: .top, index: 1))
    }

    // MARK: The optimiser against brute force

    /// Every ordered tree over n items whose levels have at least two stops.
    static func structures(_ n: Int) -> [[Tree]] {
        if n == 1 { return [[.leaf]] }
        var out: [[Tree]] = []
        func compose(_ remaining: Int, _ prefix: [Tree]) {
            if remaining == 0 {
                if prefix.count >= 2 { out.append(prefix) }
                return
            }
            for size in 1...remaining where !(prefix.isEmpty && size == n) {
                let options: [Tree] = size == 1 ? [.leaf] : structures(size).map { .node($0) }
                for o in options { compose(remaining - size, prefix + [o]) }
            }
        }
        compose(n, [])
        return out
    }

    indirect enum Tree { case leaf; case node([Tree]) }

    static func cost(_ level: [Tree], _ c: ScanCostModel) -> Double {
        var total = 0.0
        for (j, t) in level.enumerated() {
            switch t {
            case .leaf: total += c.cost(at: j)
            case .node(let inner): total += Double(count(inner)) * c.cost(at: j) + cost(inner, c)
            }
        }
        return total
    }

    static func count(_ level: [Tree]) -> Int {
        level.reduce(0) { n, t in if case .node(let inner) = t { return n + count(inner) } else { return n + 1 } }
    }

    @Test(arguments: [(1.0, 0.0, 0.0), (1.0, 0.5, 0.0), (0.5, 2.0, 0.3), (1.0, 0.0, 1.5)])
    func auto_matches_brute_force_on_small_runs(_ timing: (Double, Double, Double)) {
        let c = ScanCostModel(scanTime: .seconds(timing.0), firstItemPause: .seconds(timing.1), holdDuration: .seconds(timing.2))
        for n in 2...7 {
            let brute = LevelShaperTests.structures(n).map { LevelShaperTests.cost($0, c) }.min()!
            let model = M.column(n)
            let shaper = LevelShaper(model: model, cost: c)
            var sizes = UniformPlans(cost: c)
            let units = model.items.indices.map { LevelShaper.Unit(shape: .item($0), weight: 1, cost: 0, frame: nil, isItem: true) }
            let arranged = shaper.levelCost(shaper.arrange(units, &sizes))
            #expect(abs(arranged - brute) < 1e-6, "n=\(n) timing=\(timing): arranged \(arranged), brute force \(brute)")
            // The equal-weight plan agrees with the interval DP.
            #expect(abs(sizes.levelCost(n) - brute) < 1e-6, "n=\(n): size plan \(sizes.levelCost(n)), brute force \(brute)")
            // And what the scanner's levels report is that cost.
            let reported = ScanLevels(model: model, grouping: .auto, cost: c).reach().times.reduce(0.0) { $0 + Double($1.microseconds) }
            #expect(abs(reported - brute) < 1e-6, "n=\(n): levels report \(reported)")
        }
    }

    @Test func mixed_weights_match_brute_force() {
        // Units of weights 3, 1, 2, 1 with inner costs: the interval DP over every contiguous cut.
        let c = ScanCostModel(scanTime: .seconds(1), firstItemPause: .zero)
        let weights = [3, 1, 2, 1, 4]
        let inner = [4_000_000.0, 0, 2_500_000, 0, 9_000_000]
        let model = M.column(weights.count)
        let shaper = LevelShaper(model: model, cost: c)
        var sizes = UniformPlans(cost: c)
        let units = weights.indices.map { LevelShaper.Unit(shape: .item($0), weight: weights[$0], cost: inner[$0], frame: nil, isItem: false) }
        let arranged = shaper.levelCost(shaper.arrange(units, &sizes))
        // Brute force over structures of 5 units with these weights.
        func cost(_ level: [Tree], _ first: Int) -> (Double, Int) {
            var total = 0.0, k = first
            for (j, t) in level.enumerated() {
                switch t {
                case .leaf:
                    total += Double(weights[k]) * c.cost(at: j) + inner[k]
                    k += 1
                case .node(let sub):
                    let (subCost, next) = cost(sub, k)
                    let w = weights[k..<next].reduce(0, +)
                    total += Double(w) * c.cost(at: j) + subCost
                    k = next
                }
            }
            return (total, k)
        }
        let brute = LevelShaperTests.structures(weights.count).map { cost($0, 0).0 }.min()!
        #expect(abs(arranged - brute) < 1e-6, "arranged \(arranged), brute \(brute)")
    }

    @Test func cost_model_sums_in_closed_form() {
        let c = ScanCostModel(scanTime: .seconds(1), firstItemPause: .seconds(0.5), holdDuration: .seconds(0.2))
        #expect(c.costs(from: 2, count: 3) == c.cost(at: 2) + c.cost(at: 3) + c.cost(at: 4))
        #expect(c.costs(from: 0, count: 0) == 0)
    }

    @Test func large_levels_shape_quickly_and_stay_in_scan_order() {
        let model = M.column(5000)
        let levels = M.levels(model, .auto)
        var order: [Int] = []
        func walk(_ stops: [LevelStop]) {
            for s in stops {
                switch s {
                case .item(let i): order.append(i)
                case .group(let g): walk(levels.groups[g].stops)
                case .exit: break
                }
            }
        }
        walk(levels.top)
        #expect(order == Array(0..<5000))
        let linear = M.levels(model, .none).reach().times.reduce(Int64(0)) { $0 + $1.microseconds }
        let auto = levels.reach().times.reduce(Int64(0)) { $0 + $1.microseconds }
        #expect(auto * 50 < linear)
    }
}
