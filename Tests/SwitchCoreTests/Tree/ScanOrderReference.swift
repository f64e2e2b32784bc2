/// The scan order as it was defined before it became O(n log n) (issue 11 part 5), kept verbatim
/// as the test-only reference the fast algorithms are compared with
/// (`ScanOrderEquivalenceTests`): the pairwise row test (quadratic in the length of a row), and
/// the recursive `ScanModel` construction with a stored group path and container actions per
/// item. Only renamed: `ReferenceReadingOrder`, `ReferenceScanModel`, `ReferenceItem`.
@testable import SwitchCore

/// The order assistive technology reads a container's children in (REFERENCE §1): by frame, in
/// rows from top to bottom, each row from the leading to the trailing edge (mirrored for
/// right-to-left); children without a frame follow their framed siblings in declared order.
///
/// A row is built greedily from the frames sorted by top edge: a frame joins the current row when
/// its vertical extent overlaps that of every frame already in the row by at least half the
/// smaller of the two heights (a zero-height frame joins when it lies within the other's extent).
/// Comparing with every member, not just the first, keeps a tall frame (a full-screen backdrop, a
/// sidebar) from pulling everything beside it into one row.
enum ReferenceReadingOrder {
    /// Indices into `frames`, in reading order.
    static func order(_ frames: [Rect?], direction: ElementTree.LayoutDirection) -> [Int] {
        var framed: [Int] = []
        var unframed: [Int] = []
        for (k, f) in frames.enumerated() {
            if f != nil { framed.append(k) } else { unframed.append(k) }
        }
        if framed.count <= 1 { return framed + unframed }

        // Sort by top edge, then leading edge, then declared position (stable and total).
        let rtl = direction == .rightToLeft
        func leading(_ r: Rect) -> Double { rtl ? -r.maxX : r.minX }
        framed.sort { a, b in
            let fa = frames[a]!, fb = frames[b]!
            if fa.minY != fb.minY { return fa.minY < fb.minY }
            if leading(fa) != leading(fb) { return leading(fa) < leading(fb) }
            return a < b
        }

        var result: [Int] = []
        result.reserveCapacity(frames.count)
        var row: [Int] = []
        func flush() {
            row.sort { a, b in
                let fa = frames[a]!, fb = frames[b]!
                if leading(fa) != leading(fb) { return leading(fa) < leading(fb) }
                if fa.minY != fb.minY { return fa.minY < fb.minY }
                return a < b
            }
            result.append(contentsOf: row)
            row.removeAll(keepingCapacity: true)
        }
        for k in framed {
            let f = frames[k]!
            if !row.isEmpty && !row.allSatisfy({ sameRow(frames[$0]!, f) }) { flush() }
            row.append(k)
        }
        flush()
        return result + unframed
    }

    static func sameRow(_ a: Rect, _ b: Rect) -> Bool {
        let smaller = min(a.height, b.height)
        if smaller == 0 {
            // A line or a point: in the row when it lies within the other's vertical extent.
            let (flat, other) = a.height == 0 ? (a, b) : (b, a)
            return flat.minY >= other.minY && flat.minY <= other.maxY
        }
        let overlap = min(a.maxY, b.maxY) - max(a.minY, b.minY)
        return overlap > 0 && overlap >= smaller / 2
    }
}

struct ReferenceItem {
    var element: Element
    var groupPath: [Int]
    var containerActions: [ContainerAction] = []
    var id: String { element.id }
}

struct ReferenceScanModel {
    var items: [ReferenceItem]
    var groups: [ScanGroup]
    var topStops: [ScanStop]
    var accessibilityElements: [Element]
    var scopeID: String

    /// Scan order (REFERENCE §1, seeds): an element hides its descendants; a container contributes
    /// its children; `elementsHidden` removes a subtree; while a `viewIsModal` node is present only
    /// its subtree counts (the last in document order wins); children are in reading order unless
    /// their container says `declared`, and a container's items stay together. A container takes
    /// its place in its parent's reading order by the extent of its content (the union of its
    /// elements' frames; its own frame when none has one): wrappers often span the whole screen
    /// from y = 0, and ordering them by that frame would put a navigation bar's back button after
    /// all the content below it, which is not where anyone sees it.
    ///
    /// Groups (ChromeOS's rule): a container is a group when it has at least one scan item below
    /// it and either sets `shouldGroupChildren` or has at least two scan items below it and a frame
    /// different from its parent group's frame (the scope's frame at the top level). A group found
    /// by that rule is dissolved into its parent's level when it would be that level's only stop:
    /// highlighting a lone group narrows nothing and costs the user a press.
    init(tree: ElementTree) {
        let scope = ReferenceScanModel.modalScope(tree.root) ?? tree.root
        var builder = Builder(direction: tree.layoutDirection)
        let root = Builder.node(scope)
        let pending = root.map { builder.emit($0, inherited: []) } ?? nil

        var groups: [ScanGroup] = []
        var explicit: [Bool] = []
        var items = builder.items
        /// A level's stops, with a lone inferred group replaced by its own stops.
        func collapse(_ stops: [ScanStop]) -> [ScanStop] {
            var stops = stops
            while stops.count == 1, case .group(let g) = stops[0], !explicit[g] {
                stops = groups[g].stops
                groups[g].stops = []   // dissolved
            }
            return stops
        }
        func place(_ p: Pending, scopeFrame: Rect?, parent: Int?) -> [ScanStop] {
            switch p {
            case .item(let i):
                return [.item(i)]
            case .container(let c):
                let isGroup = c.count >= 1 && (c.shouldGroup || (c.count >= 2 && c.frame != scopeFrame))
                if isGroup {
                    let g = groups.count
                    groups.append(ScanGroup(id: c.id, label: c.label, frame: c.frame, parent: parent, items: c.range, stops: []))
                    explicit.append(c.shouldGroup)
                    var stops: [ScanStop] = []
                    for child in c.children { stops += place(child, scopeFrame: c.frame, parent: g) }
                    groups[g].stops = collapse(stops)
                    return [.group(g)]
                }
                var stops: [ScanStop] = []
                for child in c.children { stops += place(child, scopeFrame: scopeFrame, parent: parent) }
                return stops
            }
        }
        var top: [ScanStop] = []
        switch pending {
        case .item(let i): top = [.item(i)]
        case .container(let c):
            // The scope itself is never a group: its children are the top level.
            let frame = scope.frame ?? tree.screenRect
            for child in c.children { top += place(child, scopeFrame: frame, parent: nil) }
            top = collapse(top)
        case nil: break
        }

        // Renumber the groups that remain (a dissolved group has no stops left) and give every
        // item its path of groups, outermost first.
        var newIndex = [Int?](repeating: nil, count: groups.count)
        var kept: [ScanGroup] = []
        for g in groups.indices where !groups[g].stops.isEmpty {
            newIndex[g] = kept.count
            kept.append(groups[g])
        }
        func remap(_ stops: [ScanStop]) -> [ScanStop] {
            stops.map { if case .group(let g) = $0 { return .group(newIndex[g]!) }; return $0 }
        }
        for k in kept.indices {
            var parent = kept[k].parent
            while let p = parent, newIndex[p] == nil { parent = groups[p].parent }
            kept[k].parent = parent.flatMap { newIndex[$0] }
            kept[k].stops = remap(kept[k].stops)
        }
        top = remap(top)
        func assignPaths(_ stops: [ScanStop], _ path: [Int]) {
            for stop in stops {
                switch stop {
                case .item(let i): items[i].groupPath = path
                case .group(let g): assignPaths(kept[g].stops, path + [g])
                }
            }
        }
        assignPaths(top, [])

        self.items = items
        self.groups = kept
        self.topStops = top
        self.accessibilityElements = builder.elements
        self.scopeID = scope.id
    }

    /// The last `viewIsModal` node in document order that assistive technology can reach (not
    /// inside a hidden subtree or inside an element), if any.
    static func modalScope(_ root: Element) -> Element? {
        var found: Element?
        func visit(_ e: Element, isRoot: Bool) {
            if e.elementsHidden { return }
            if e.viewIsModal && !isRoot { found = e }
            if e.isElement { return }
            for c in e.children { visit(c, isRoot: false) }
        }
        visit(root, isRoot: true)
        return found
    }

    fileprivate indirect enum Pending {
        case item(Int)
        case container(Container)
    }

    fileprivate struct Container {
        var id: String
        var label: String?
        var frame: Rect?
        var shouldGroup: Bool
        var children: [Pending]
        var range: Range<Int>
        var count: Int { range.count }
    }

    /// What assistive technology can reach, before ordering: elements, and containers with the
    /// extent of their content.
    fileprivate indirect enum Node {
        case element(Element)
        case container(Element, children: [Node], extent: Rect?)

        var extent: Rect? {
            switch self {
            case .element(let e): return e.frame
            case .container(_, _, let extent): return extent
            }
        }
    }

    fileprivate struct Builder {
        let direction: ElementTree.LayoutDirection
        var items: [ReferenceItem] = []
        var elements: [Element] = []

        init(direction: ElementTree.LayoutDirection) { self.direction = direction }

        /// Pass 1: drop hidden subtrees, stop at elements, measure containers' content.
        static func node(_ e: Element) -> Node? {
            if e.elementsHidden { return nil }
            if e.isElement { return .element(e) }
            var children: [Node] = []
            children.reserveCapacity(e.children.count)
            var extent: Rect?
            for c in e.children {
                guard let n = node(c) else { continue }
                if let r = n.extent { extent = extent.map { $0.union(r) } ?? r }
                children.append(n)
            }
            var shell = e
            shell.children = []
            return .container(shell, children: children, extent: extent ?? e.frame)
        }

        /// Pass 2: order each container's children and number the scan items in that order.
        mutating func emit(_ n: Node, inherited: [ContainerAction]) -> Pending? {
            switch n {
            case .element(let e):
                elements.append(e)
                guard e.isScanItem else { return nil }
                var item = ReferenceItem(element: e, groupPath: [])
                if !inherited.isEmpty {
                    var seen = Set(e.customActions)
                    item.containerActions = inherited.filter { seen.insert($0.name).inserted }
                }
                items.append(item)
                return .item(items.count - 1)
            case .container(let e, let children, _):
                let start = items.count
                let inherited = e.customActions.map { ContainerAction(name: $0, ownerID: e.id, ownerLabel: ElementDescription.spoken(e)) } + inherited
                let ordered = e.order == .declared
                    ? Array(children.indices)
                    : ReferenceReadingOrder.order(children.map(\.extent), direction: direction)
                var pending: [Pending] = []
                for k in ordered {
                    if let p = emit(children[k], inherited: inherited) { pending.append(p) }
                }
                guard items.count > start else {
                    return .container(Container(id: e.id, label: e.label, frame: e.frame, shouldGroup: false, children: [], range: start..<start))
                }
                return .container(Container(id: e.id, label: e.label, frame: e.frame, shouldGroup: e.shouldGroupChildren,
                                            children: pending, range: start..<items.count))
            }
        }
    }
}
