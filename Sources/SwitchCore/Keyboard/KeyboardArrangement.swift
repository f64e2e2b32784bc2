/// Places the keys of a computed page (`KeyboardLayout.Computed`, the `frequency` layout) where
/// they cost least: for each grid width allowed, the page is built with a placeholder in every
/// place, each place's cost is read from the scanning method itself (`ScanLevels.reach` under the
/// profile's grouping and timings, `ScanCostModel`; group selection's presses for k switches),
/// and the keys, most frequent first, go to the places, cheapest first. For a fixed set of places
/// that pairing is the least expected time per character (the rearrangement inequality: a sum of
/// products is smallest when one list rises as the other falls); the width with the least
/// expected time wins. The prediction row is part of the page while it is measured, so the letters
/// are placed for the keyboard as it will be scanned.
///
/// Ties (places of equal cost) keep reading order, so equal keys fill rows left to right.
public enum KeyboardArrangement {
    /// How the keyboard is scanned: what decides a place's cost.
    public struct Method: Sendable, Equatable {
        public var grouping: Grouping
        public var cost: ScanCostModel
        /// k for group selection; 0 for item (or point) scanning.
        public var groupSwitches: Int

        public init(grouping: Grouping, cost: ScanCostModel, groupSwitches: Int = 0) {
            self.grouping = grouping
            self.cost = cost
            self.groupSwitches = groupSwitches
        }
    }

    /// The layout with every computed page written out as rows for `method`, with `slots` places
    /// in the prediction row.
    public static func arrange(_ layout: KeyboardLayout, method: Method, slots: Int) -> KeyboardLayout {
        var out = layout
        for (p, page) in layout.pages.enumerated() {
            guard let computed = page.computed else { continue }
            out.pages[p].rows = best(computed, name: page.name, method: method, slots: slots).rows
            out.pages[p].computed = nil
        }
        return out
    }

    /// The cheapest placement over the allowed widths, and its expected cost per key use (µs).
    static func best(_ c: KeyboardLayout.Computed, name: String, method: Method, slots: Int) -> (rows: [[KeyboardLayout.Key]], cost: Double) {
        var bestRows: [[KeyboardLayout.Key]] = []
        var bestCost = Double.infinity
        let total = c.keys.reduce(0.0) { $0 + (c.frequencies[$1.id] ?? 0) }
        let order = c.keys.enumerated().sorted { a, b in
            let fa = c.frequencies[a.element.id] ?? 0, fb = c.frequencies[b.element.id] ?? 0
            return fa != fb ? fa > fb : a.offset < b.offset
        }.map(\.element)
        for columns in c.columns {
            let places = placeCosts(count: c.keys.count, columns: columns, fixed: c.fixed, name: name, method: method, slots: slots)
            let ranked = places.enumerated().sorted { $0.element != $1.element ? $0.element < $1.element : $0.offset < $1.offset }
            var assigned = [KeyboardLayout.Key?](repeating: nil, count: c.keys.count)
            var cost = 0.0
            for (k, place) in ranked.enumerated() {
                assigned[place.offset] = order[k]
                cost += (c.frequencies[order[k].id] ?? 0) * place.element
            }
            if total > 0 { cost /= total }
            if cost < bestCost {
                bestCost = cost
                var rows: [[KeyboardLayout.Key]] = []
                for start in stride(from: 0, to: assigned.count, by: columns) {
                    rows.append(assigned[start..<min(start + columns, assigned.count)].map { $0! })
                }
                bestRows = rows + c.fixed
            }
        }
        return (bestRows, bestCost)
    }

    /// What selecting each place of a `count`-place grid of `columns` columns costs (µs), read from
    /// the method on the page's real geometry (prediction row and fixed rows included).
    static func placeCosts(count: Int, columns: Int, fixed: [[KeyboardLayout.Key]], name: String, method: Method, slots: Int) -> [Double] {
        var rows: [[KeyboardLayout.Key]] = []
        for start in stride(from: 0, to: count, by: columns) {
            rows.append((start..<min(start + columns, count)).map { KeyboardLayout.Key(.place($0)) })
        }
        rows += fixed
        let page = KeyboardLayout.Page(name: name, rows: rows)
        let words = (0..<slots).map { "\u{E001}\($0)" }
        let content = KeyboardTree.Content(page: page, text: KeyboardText(), predictions: words, slots: slots, password: false)
        let screen = Size(width: 1280, height: 800)
        let panel = KeyboardTree.panel(screen: screen, field: nil, lines: KeyboardTree.lines(rows: rows.count, slots: slots))
        let model = ScanModel(tree: KeyboardTree.tree(content, panel: panel, screen: screen))
        var costs = [Double](repeating: 0, count: count)
        // The places by their ids, which no key of a layout can have (`Kind.place`).
        let placeIDs = Dictionary(uniqueKeysWithValues: (0..<count).map { (KeyboardLayout.Key(.place($0)).id, $0) })
        let placeIndex: (Int) -> Int? = { i in placeIDs[model.items[i].id] }
        if method.groupSwitches >= 2 {
            var split = ColorGroups(weights: Array(repeating: 1, count: model.items.count), switches: method.groupSwitches)
            let presses = split.presses(0..<model.items.count)
            for i in model.items.indices { if let k = placeIndex(i) { costs[k] = Double(presses[i]) * Double(method.cost.groupPress.microseconds) } }
        } else {
            let times = ScanLevels(model: model, grouping: method.grouping, cost: method.cost).reach().times
            for i in model.items.indices { if let k = placeIndex(i) { costs[k] = Double(times[i].microseconds) } }
        }
        return costs
    }
}
