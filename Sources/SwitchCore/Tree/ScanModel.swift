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
    /// The scope's frame (the keyboard's panel while it is open: the overlay draws it there).
    public var scopeFrame: Rect?
    /// A name for the tree this model was made from, when the same tree comes back again and
    /// again (the keyboard's pages, `KeyboardModelCache`): a scanner keeps what it shaped for it.
    public var shapeKey: String?
    /// A name for what the scanner's levels depend on (frames, containers, order), when trees that
    /// differ only in some items' ids and labels come back again and again (the keyboard with other
    /// predicted words, `KeyboardModelCache`): a scanner keeps the levels it shaped for it.
    public var structureKey: String?

    private var indexByID: [String: Int]

    public func itemIndex(id: String) -> Int? { indexByID[id] }
}

public struct ScanItem: Sendable {
    /// The element, read from the model's `accessibilityElements` (shared by its items): a copy
    /// in every item would double the memory and the copying of a large tree's elements.
    public var element: Element { links.elements[elementIndex] }
    /// Spoken text (`ElementDescription.spoken`), made when asked for: only speech and reports
    /// read it, and building it for every item of a large tree is a third of the ordering time.
    public var description: String { ElementDescription.spoken(element) }
    /// The innermost group around the item (an index into `ScanModel.groups`), nil at the top.
    public var group: Int?
    /// Indices into `ScanModel.groups`, outermost first. Walked up from `group` when asked for:
    /// stored for every item, paths would take memory quadratic in the nesting depth.
    public var groupPath: [Int] { links.groupPath(from: group) }
    /// Custom actions of the containers around the item (nearest first; names the item has itself
    /// are left out): a scrollable list's "Scroll forward" is offered in the menu of every item in
    /// it, since a container is never highlighted itself. Made when asked for, like `groupPath`.
    public var containerActions: [ContainerAction] { links.containerActions(from: actionChain, excluding: element.customActions) }
    /// The nearest container around the item whose content scrolls (`Element.scrollable`): what
    /// the scanner menu's Scroll page pages.
    public var scrollContainer: ScrollContainer? { scroller.map { links.scrollers[$0] } }

    /// Shared by the items of one model.
    let links: ScanLinks
    /// Index into `links.elements`.
    let elementIndex: Int
    /// The nearest container with custom actions around the item: an index into `links.chain`.
    let actionChain: Int?
    /// The nearest scrollable container around the item: an index into `links.scrollers`.
    let scroller: Int?

    public var id: String { element.id }
    public var isAdjustable: Bool { element.traits.contains(.adjustable) }
}

/// A container whose content scrolls, as the Scroll page names it.
public struct ScrollContainer: Hashable, Sendable {
    public var id: String
    /// Its description (what a perform on it names).
    public var label: String
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

/// What the items of one model share, so that an item's group path and container actions cost
/// nothing until asked for: the groups' parents, and every container that has custom actions
/// linked to the nearest such container around it.
final class ScanLinks: Sendable {
    struct ActionLink: Sendable {
        /// The container that has the actions (its description is made when a menu asks), by
        /// its place in the tree: a copy of an element in every link is most of the memory of a
        /// deeply nested tree's model.
        var owner: ElementSlot
        var next: Int?
    }

    /// The model's accessibility elements, in scan order (the same storage as
    /// `ScanModel.accessibilityElements`).
    let elements: [Element]
    let groupParents: [Int?]
    let chain: [ActionLink]
    /// The scrollable containers that hold items.
    let scrollers: [ScrollContainer]

    init(elements: [Element], groupParents: [Int?], chain: [ActionLink], scrollers: [ScrollContainer] = []) {
        self.elements = elements
        self.groupParents = groupParents
        self.chain = chain
        self.scrollers = scrollers
    }

    func groupPath(from group: Int?) -> [Int] {
        var path: [Int] = []
        var g = group
        while let k = g {
            path.append(k)
            g = groupParents[k]
        }
        path.reverse()
        return path
    }

    func containerActions(from link: Int?, excluding own: [String]) -> [ContainerAction] {
        var out: [ContainerAction] = []
        var seen = Set(own)
        var k = link
        while let l = k {
            let owner = chain[l].owner.element
            var ownerLabel: String?
            for name in owner.customActions where seen.insert(name).inserted {
                if ownerLabel == nil { ownerLabel = ElementDescription.spoken(owner) }
                out.append(ContainerAction(name: name, ownerID: owner.id, ownerLabel: ownerLabel!))
            }
            k = chain[l].next
        }
        return out
    }
}

/// An element as the `index`-th of `siblings` (the array shares its parent's storage): 16 bytes,
/// where a copy of an element is about 200 and retains each of its strings.
struct ElementSlot: Sendable {
    let siblings: [Element]
    let index: Int
    var element: Element { siblings[index] }
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
    ///
    /// Cost: O(n log n) time and O(n) memory for any size and shape, and no recursion (a tree a
    /// million levels deep is built like any other). Four passes over flat arrays, each with its
    /// own explicit stack: what is reachable, with the content extents (`Reachable`); the reading
    /// order, numbering the items (`Emission`); groups and levels (`Placement`); the groups that
    /// remain, renumbered.
    public init(tree: ElementTree) {
        // The whole tree's reachable part is walked once; only a modal view means a second walk
        // of its own subtree.
        var reachable = Reachable(tree.root)
        var scope = tree.root
        if let modal = reachable.lastModal {
            scope = modal
            reachable = Reachable(modal)
        }
        let emission = Emission(reachable, direction: tree.layoutDirection)
        var placement = Placement()
        var top = placement.topLevel(emission, reachable, scopeFrame: scope.frame ?? tree.screenRect)

        // Renumber the groups that remain (a dissolved group has no stops left); a group's parent
        // is its nearest remaining ancestor. Parents are numbered before their children.
        let drafts = placement.groups
        var newIndex = [Int?](repeating: nil, count: drafts.count)
        var nearestKept = [Int?](repeating: nil, count: drafts.count)
        var groups: [ScanGroup] = []
        for g in drafts.indices {
            let parent = drafts[g].group.parent.flatMap { nearestKept[$0] }
            if drafts[g].group.stops.isEmpty {
                nearestKept[g] = parent
                continue
            }
            newIndex[g] = groups.count
            nearestKept[g] = groups.count
            var kept = drafts[g].group
            kept.parent = parent
            groups.append(kept)
        }
        func remap(_ stops: inout [ScanStop]) {
            for k in stops.indices {
                if case .group(let g) = stops[k] { stops[k] = .group(newIndex[g]!) }
            }
        }
        var itemGroup = [Int?](repeating: nil, count: emission.items.count)
        for g in groups.indices {
            remap(&groups[g].stops)
            for case .item(let i) in groups[g].stops { itemGroup[i] = g }
        }
        remap(&top)

        // Each element is copied once, into scan order.
        var elements: [Element] = []
        elements.reserveCapacity(emission.order.count)
        for k in emission.order { elements.append(reachable.elements[k].siblings[reachable.elements[k].index]) }

        let links = ScanLinks(elements: elements, groupParents: groups.map(\.parent), chain: emission.chain, scrollers: emission.scrollers)
        var items: [ScanItem] = []
        items.reserveCapacity(emission.items.count)
        var index: [String: Int] = [:]
        index.reserveCapacity(emission.items.count)
        for (k, item) in emission.items.enumerated() {
            items.append(ScanItem(group: itemGroup[k], links: links, elementIndex: item.element, actionChain: item.chain,
                                  scroller: item.scroller))
            index[elements[item.element].id] = k
        }
        self.screen = tree.screen
        self.items = items
        self.groups = groups
        self.topStops = top
        self.accessibilityElements = elements
        self.scopeID = scope.id
        self.scopeLabel = ElementDescription.spoken(scope)
        self.scopeFrame = scope.frame
        self.indexByID = index
    }

    /// The same model with the elements of some scan items replaced (`replacements`: item index →
    /// element), each by one in its place: the same frame and traits, another id and label (the
    /// keyboard's predicted words). The order, the groups and the levels are those of this model,
    /// which is what `init(tree:)` would make of the tree with the new elements, since ordering
    /// and grouping read frames and containers, never ids or labels
    /// (KeyboardModelTemplateTests).
    func replacingItemElements(_ replacements: [(item: Int, element: Element)]) -> ScanModel {
        var elements = accessibilityElements
        for (i, e) in replacements { elements[items[i].elementIndex] = e }
        let old = items.first?.links
        let links = ScanLinks(elements: elements, groupParents: old?.groupParents ?? [], chain: old?.chain ?? [],
                              scrollers: old?.scrollers ?? [])
        var copy = self
        copy.accessibilityElements = elements
        copy.items = items.map { ScanItem(group: $0.group, links: links, elementIndex: $0.elementIndex, actionChain: $0.actionChain,
                                          scroller: $0.scroller) }
        for (i, _) in replacements { copy.indexByID[items[i].id] = nil }
        for (i, e) in replacements { copy.indexByID[e.id] = i }
        return copy
    }

    /// A node of the reachable tree: an element (index into `Reachable.elements`) or a container
    /// (index into `Reachable.containers`), in one word.
    fileprivate struct NodeRef {
        private let raw: Int
        static func element(_ k: Int) -> NodeRef { NodeRef(raw: k) }
        static func container(_ k: Int) -> NodeRef { NodeRef(raw: ~k) }
        var element: Int? { raw >= 0 ? raw : nil }
        var container: Int? { raw < 0 ? ~raw : nil }
    }

    /// An element as the `index`-th of `siblings` (the array shares its parent's storage), with
    /// what the ordering reads of it: a whole copy of an element costs more than the rest of the
    /// work on it.
    fileprivate struct ElementRef {
        var siblings: [Element]
        var index: Int
        var frame: Rect?
        var isScanItem: Bool
    }

    /// Pass 1: what assistive technology can reach below the scope, flattened. Hidden subtrees
    /// are dropped and elements end the descent; a container's children (in declared order) are
    /// a run of `children`, and its extent is the union of its children's, in declared order.
    fileprivate struct Reachable {
        struct Container {
            var id: String
            var label: String?
            var frame: Rect?
            var shouldGroup: Bool
            var declared: Bool
            /// The container itself when it has custom actions (few do): its items offer them.
            var actionOwner: ElementSlot?
            var scrollable = false
            var children: Range<Int> = 0..<0
            var extent: Rect?
        }

        /// Elements in document order, each as its place among its siblings: 16 bytes instead of
        /// a copy (most of the time of a large tree went into copying and paging in elements).
        var elements: [ElementRef] = []
        /// Containers in document order (pre-order).
        var containers: [Container] = []
        var children: [NodeRef] = []
        var root: NodeRef?
        /// The last `viewIsModal` node below the scope in document order (assistive technology
        /// can reach it: it is not inside a hidden subtree or inside an element).
        var lastModal: Element?

        init(_ scope: Element) {
            if scope.elementsHidden { return }
            if scope.isElement {
                elements.append(ElementRef(siblings: [scope], index: 0, frame: scope.frame, isScanItem: scope.isScanItem))
                root = .element(0)
                return
            }
            // Depth-first; finished children wait on `done` until their container finishes.
            var stack: [(children: [Element], next: Int, container: Int, doneStart: Int)] = []
            var done: [NodeRef] = []
            /// `owner`: where `e` is, given when it has custom actions.
            func open(_ e: borrowing Element, owner: ElementSlot?) {
                containers.append(Container(id: e.id, label: e.label, frame: e.frame, shouldGroup: e.shouldGroupChildren,
                                            declared: e.order == .declared, actionOwner: owner, scrollable: e.scrollable))
                stack.append((e.children, 0, containers.count - 1, done.count))
            }
            open(scope, owner: scope.customActions.isEmpty ? nil : ElementSlot(siblings: [scope], index: 0))
            while let top = stack.indices.last {
                let k = stack[top].next
                if k < stack[top].children.count {
                    stack[top].next = k + 1
                    let e = stack[top].children[k]
                    if e.elementsHidden { continue }
                    if e.viewIsModal { lastModal = e }
                    if e.isElement {
                        elements.append(ElementRef(siblings: stack[top].children, index: k, frame: e.frame, isScanItem: e.isScanItem))
                        done.append(.element(elements.count - 1))
                    } else {
                        open(e, owner: e.customActions.isEmpty ? nil : ElementSlot(siblings: stack[top].children, index: k))
                    }
                    continue
                }
                let (_, _, c, doneStart) = stack.removeLast()
                var extent: Rect?
                for ref in done[doneStart...] {
                    if let r = self.extent(ref) { extent = extent.map { $0.union(r) } ?? r }
                }
                containers[c].extent = extent ?? containers[c].frame
                containers[c].children = children.count..<(children.count + done.count - doneStart)
                children.append(contentsOf: done[doneStart...])
                done.removeSubrange(doneStart...)
                done.append(.container(c))
            }
            root = done.first
        }

        func extent(_ ref: NodeRef) -> Rect? {
            if let e = ref.element { return elements[e].frame }
            return containers[ref.container!].extent
        }
    }

    /// Pass 2: each container's children in reading order (or declared), depth first: the
    /// accessibility elements in scan order, the scan items numbered in that order, and every
    /// container holding at least one item with its items' range and its children that lead to
    /// items (`Pending`).
    fileprivate struct Emission {
        struct Item {
            /// Index into `order` (and so into the model's `accessibilityElements`).
            var element: Int
            var chain: Int?
            var scroller: Int?
        }

        /// A container with items below it; `children` is a run of `Emission.children`.
        struct Pending {
            var container: Int
            var items: Range<Int>
            var children: Range<Int>
        }

        enum Child {
            case item(Int)
            case pending(Int)
        }

        /// The reachable elements (indices into `Reachable.elements`) in scan order.
        var order: [Int] = []
        var items: [Item] = []
        var pending: [Pending] = []
        var children: [Child] = []
        var chain: [ScanLinks.ActionLink] = []
        var scrollers: [ScrollContainer] = []
        /// The scope's own item (the scope is one element), or its container's index in `pending`.
        var root: Child?

        init(_ r: Reachable, direction: ElementTree.LayoutDirection) {
            order.reserveCapacity(r.elements.count)
            guard let rootRef = r.root else { return }
            if let e = rootRef.element {
                if let child = emit(e, r, chain: nil, scroller: nil) { root = child }
                return
            }
            // An open container's children, in order, are `ordered[orderStart...]` until it closes.
            var stack: [(container: Int, orderStart: Int, next: Int, itemStart: Int, doneStart: Int, chain: Int?, scroller: Int?)] = []
            var ordered: [NodeRef] = []
            var done: [Child] = []
            func open(_ c: Int, outerChain: Int?, outerScroller: Int?) {
                // Fields read in place: a copy of the container would retain each of its strings.
                let kids = r.children[r.containers[c].children]
                let start = ordered.count
                if r.containers[c].declared || kids.count <= 1 {
                    ordered.append(contentsOf: kids)
                } else {
                    for k in ReadingOrder.order(kids.map { r.extent($0) }, direction: direction) { ordered.append(kids[kids.startIndex + k]) }
                }
                var link = outerChain
                if let owner = r.containers[c].actionOwner {
                    chain.append(ScanLinks.ActionLink(owner: owner, next: outerChain))
                    link = chain.count - 1
                }
                var scroller = outerScroller
                if r.containers[c].scrollable {
                    scrollers.append(ScrollContainer(id: r.containers[c].id, label: r.containers[c].label ?? ""))
                    scroller = scrollers.count - 1
                }
                stack.append((c, start, start, items.count, done.count, link, scroller))
            }
            open(rootRef.container!, outerChain: nil, outerScroller: nil)
            while let top = stack.indices.last {
                let k = stack[top].next
                if k < ordered.count {
                    stack[top].next = k + 1
                    let ref = ordered[k]
                    if let e = ref.element {
                        if let child = emit(e, r, chain: stack[top].chain, scroller: stack[top].scroller) { done.append(child) }
                    } else {
                        open(ref.container!, outerChain: stack[top].chain, outerScroller: stack[top].scroller)
                    }
                    continue
                }
                let finished = stack.removeLast()
                ordered.removeSubrange(finished.orderStart...)
                guard items.count > finished.itemStart else { continue }
                pending.append(Pending(container: finished.container, items: finished.itemStart..<items.count,
                                       children: children.count..<(children.count + done.count - finished.doneStart)))
                children.append(contentsOf: done[finished.doneStart...])
                done.removeSubrange(finished.doneStart...)
                done.append(.pending(pending.count - 1))
            }
            root = done.first
        }

        /// Appends an element; a scan item also gets its number.
        mutating func emit(_ e: Int, _ r: Reachable, chain: Int?, scroller: Int?) -> Child? {
            order.append(e)
            guard r.elements[e].isScanItem else { return nil }
            items.append(Item(element: order.count - 1, chain: chain, scroller: scroller))
            return .item(items.count - 1)
        }
    }

    /// Pass 3: groups and the stops of each level, depth first over the containers with items.
    /// Groups are numbered before their content; a lone group found by the rule is dissolved
    /// into its level (its stops emptied), to be dropped when the groups are renumbered.
    fileprivate struct Placement {
        struct Draft {
            var group: ScanGroup
            var explicit: Bool
        }

        var groups: [Draft] = []

        /// The scope's level: its children placed with `scopeFrame` (the scope itself is never a
        /// group).
        mutating func topLevel(_ e: Emission, _ r: Reachable, scopeFrame: Rect) -> [ScanStop] {
            guard let root = e.root else { return [] }
            guard case .pending(let p) = root else {
                if case .item(let i) = root { return [.item(i)] }
                return []
            }
            // A frame per open container; the stops of open levels accumulate on `stops`.
            struct Open {
                var pending: Int
                var next: Int
                /// The group this container is, if it is one.
                var group: Int?
                /// The frame and group its children are placed against.
                var scopeFrame: Rect?
                var parent: Int?
                var stopsStart: Int
            }
            var stops: [ScanStop] = []
            var stack = [Open(pending: p, next: 0, group: nil, scopeFrame: scopeFrame, parent: nil, stopsStart: 0)]
            while let top = stack.indices.last {
                let frame = stack[top]
                let kids = e.pending[frame.pending].children
                if frame.next < kids.count {
                    stack[top].next += 1
                    switch e.children[kids.lowerBound + frame.next] {
                    case .item(let i):
                        stops.append(.item(i))
                    case .pending(let q):
                        let c = e.pending[q].container
                        let count = e.pending[q].items.count
                        let shouldGroup = r.containers[c].shouldGroup, cFrame = r.containers[c].frame
                        if shouldGroup || (count >= 2 && cFrame != frame.scopeFrame) {
                            let g = groups.count
                            groups.append(Draft(group: ScanGroup(id: r.containers[c].id, label: r.containers[c].label, frame: cFrame,
                                                                 parent: frame.parent, items: e.pending[q].items, stops: []),
                                                explicit: shouldGroup))
                            stack.append(Open(pending: q, next: 0, group: g, scopeFrame: cFrame, parent: g, stopsStart: stops.count))
                        } else {
                            stack.append(Open(pending: q, next: 0, group: nil, scopeFrame: frame.scopeFrame, parent: frame.parent,
                                              stopsStart: stops.count))
                        }
                    }
                    continue
                }
                stack.removeLast()
                guard let g = frame.group else { continue }
                groups[g].group.stops = collapse(Array(stops[frame.stopsStart...]))
                stops.removeSubrange(frame.stopsStart...)
                stops.append(.group(g))
            }
            return collapse(stops)
        }

        /// A level's stops, with a lone inferred group replaced by its own stops.
        mutating func collapse(_ stops: [ScanStop]) -> [ScanStop] {
            var stops = stops
            while stops.count == 1, case .group(let g) = stops[0], !groups[g].explicit {
                swap(&stops, &groups[g].group.stops)
                groups[g].group.stops = []   // dissolved
            }
            return stops
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
