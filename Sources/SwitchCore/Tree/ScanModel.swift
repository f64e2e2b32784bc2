/// What scanning, menus and touch hit-testing read: the scan items in scan order and the groups
/// used by group scanning. A pure function of an `ElementTree` (see `ScanModel.init(tree:)`).
public struct ScanModel: Sendable {
    public var screen: Size
    /// Scan items (elements that respond to user interaction), in scan order.
    public var items: [ScanItem]
    /// Groups in document order; a group's items are contiguous in `items`.
    public var groups: [ScanGroup]
    /// The stops of the top level when items are grouped: groups and ungrouped items in order.
    public var topStops: [ScanStop]
    /// Every element assistive technology sees (scan item or not), in reading order.
    public var accessibilityElements: [Element]
    /// The node whose subtree counts: the root, or the last present `viewIsModal` node.
    public var scopeID: String
    /// The scope's description (what an escape perform names).
    public var scopeLabel: String

    private var indexByID: [String: Int]

    public func itemIndex(id: String) -> Int? { indexByID[id] }
}

public struct ScanItem: Sendable {
    public var element: Element
    /// Spoken text (`ElementDescription.spoken`), made when asked for: only speech and reports
    /// read it, and building it for every item of a large tree is a third of the ordering time.
    public var description: String { ElementDescription.spoken(element) }
    /// Indices into `ScanModel.groups`, outermost first.
    public var groupPath: [Int]
    /// Custom actions of the containers around the item (nearest first; names the item has itself
    /// are left out): a scrollable list's "Scroll forward" is offered in the menu of every item in
    /// it, since a container is never highlighted itself.
    public var containerActions: [ContainerAction] = []

    public var id: String { element.id }
    public var isAdjustable: Bool { element.traits.contains(.adjustable) }
}

public struct ContainerAction: Hashable, Sendable {
    public var name: String
    /// The container that performs it.
    public var ownerID: String
    /// The container's description (what a perform of the action names).
    public var ownerLabel: String
}

public struct ScanGroup: Sendable {
    public var id: String
    public var label: String?
    public var frame: Rect?
    public var parent: Int?
    /// Indices of the group's scan items (all descendants) in `ScanModel.items`.
    public var items: Range<Int>
    /// What scanning inside the group visits, in order (the escape stop is the scanner's).
    public var stops: [ScanStop]

    /// "Toolbar, group, 4 items" / "group, 3 items".
    public var description: String {
        var parts: [String] = []
        if let l = label?.trimmed, !l.isEmpty { parts.append(l) }
        parts.append("group")
        parts.append(items.count == 1 ? "1 item" : "\(items.count) items")
        return parts.joined(separator: ", ")
    }
}

public enum ScanStop: Hashable, Sendable {
    case item(Int)
    case group(Int)
}

extension ScanModel {
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
    public init(tree: ElementTree) {
        let scope = ScanModel.modalScope(tree.root) ?? tree.root
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

        var index: [String: Int] = [:]
        index.reserveCapacity(items.count)
        for (k, item) in items.enumerated() { index[item.id] = k }
        self.screen = tree.screen
        self.items = items
        self.groups = kept
        self.topStops = top
        self.accessibilityElements = builder.elements
        self.scopeID = scope.id
        self.scopeLabel = ElementDescription.spoken(scope)
        self.indexByID = index
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
        var items: [ScanItem] = []
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
                var item = ScanItem(element: e, groupPath: [])
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
                    : ReadingOrder.order(children.map(\.extent), direction: direction)
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

extension ScanModel {
    /// Where group g is on the screen: its own frame, else the union of its items' frames (what
    /// a highlight of the group is drawn around); nil when nothing in it has a frame.
    public func frame(ofGroup g: Int) -> Rect? {
        if let f = groups[g].frame { return f }
        var union: Rect?
        for i in groups[g].items {
            guard let f = items[i].element.frame else { continue }
            union = union.map { $0.union(f) } ?? f
        }
        return union
    }
}
