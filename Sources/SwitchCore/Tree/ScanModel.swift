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

    private var indexByID: [String: Int]

    public func itemIndex(id: String) -> Int? { indexByID[id] }
}

public struct ScanItem: Sendable {
    public var element: Element
    /// Spoken text (`ElementDescription.spoken`).
    public var description: String
    /// Indices into `ScanModel.groups`, outermost first.
    public var groupPath: [Int]

    public var id: String { element.id }
    public var isAdjustable: Bool { element.traits.contains(.adjustable) }
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
    /// their container says `declared`, and a container's items stay together.
    ///
    /// Groups (ChromeOS's rule): a container is a group when it has at least one scan item below
    /// it and either sets `shouldGroupChildren` or has at least two scan items below it and a frame
    /// different from its parent group's frame (the scope's frame at the top level).
    public init(tree: ElementTree) {
        let scope = ScanModel.modalScope(tree.root) ?? tree.root
        var builder = Builder(direction: tree.layoutDirection)
        let pending = builder.collect(scope)

        var groups: [ScanGroup] = []
        var items = builder.items
        func place(_ p: Pending, scopeFrame: Rect?, path: [Int], parent: Int?) -> [ScanStop] {
            switch p {
            case .item(let i):
                items[i].groupPath = path
                return [.item(i)]
            case .container(let c):
                let isGroup = c.count >= 1 && (c.shouldGroup || (c.count >= 2 && c.frame != scopeFrame))
                if isGroup {
                    let g = groups.count
                    groups.append(ScanGroup(id: c.id, label: c.label, frame: c.frame, parent: parent, items: c.range, stops: []))
                    var stops: [ScanStop] = []
                    for child in c.children { stops += place(child, scopeFrame: c.frame, path: path + [g], parent: g) }
                    groups[g].stops = stops
                    return [.group(g)]
                }
                var stops: [ScanStop] = []
                for child in c.children { stops += place(child, scopeFrame: scopeFrame, path: path, parent: parent) }
                return stops
            }
        }
        var top: [ScanStop] = []
        switch pending {
        case .item(let i): top = [.item(i)]
        case .container(let c):
            // The scope itself is never a group: its children are the top level.
            let frame = scope.frame ?? tree.screenRect
            for child in c.children { top += place(child, scopeFrame: frame, path: [], parent: nil) }
        case nil: break
        }

        var index: [String: Int] = [:]
        index.reserveCapacity(items.count)
        for (k, item) in items.enumerated() { index[item.id] = k }
        self.screen = tree.screen
        self.items = items
        self.groups = groups
        self.topStops = top
        self.accessibilityElements = builder.elements
        self.scopeID = scope.id
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

    fileprivate struct Builder {
        let direction: ElementTree.LayoutDirection
        var items: [ScanItem] = []
        var elements: [Element] = []

        init(direction: ElementTree.LayoutDirection) { self.direction = direction }

        mutating func collect(_ e: Element) -> Pending? {
            if e.elementsHidden { return nil }
            if e.isElement {
                elements.append(e)
                guard e.isScanItem else { return nil }
                items.append(ScanItem(element: e, description: ElementDescription.spoken(e), groupPath: []))
                return .item(items.count - 1)
            }
            let start = items.count
            // Hidden subtrees contribute nothing, so they take no part in ordering either.
            let visible = e.children.indices.filter { !e.children[$0].elementsHidden }
            let ordered: [Int]
            if e.order == .declared {
                ordered = visible
            } else {
                ordered = ReadingOrder.order(visible.map { e.children[$0].frame }, direction: direction).map { visible[$0] }
            }
            var children: [Pending] = []
            for k in ordered {
                if let p = collect(e.children[k]) { children.append(p) }
            }
            guard items.count > start else { return .container(Container(id: e.id, label: e.label, frame: e.frame, shouldGroup: false, children: [], range: start..<start)) }
            return .container(Container(id: e.id, label: e.label, frame: e.frame, shouldGroup: e.shouldGroupChildren, children: children, range: start..<items.count))
        }
    }
}
