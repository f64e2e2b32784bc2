import SwitchCore

/// What an importer produces: the tree, the format it recognised, and notes worth telling the
/// user (a default screen size, skipped references) that are not errors.
public struct ImportedTree: Sendable, Equatable {
    public var format: TreeFile.Format
    public var tree: ElementTree
    public var notes: [String]

    public init(format: TreeFile.Format, tree: ElementTree, notes: [String] = []) {
        self.format = format
        self.tree = tree
        self.notes = notes
    }
}

/// Rules every importer shares (docs/formats.md "Common rules").
enum ImportSupport {
    /// Deeper source trees are refused: the mapping and `ScanModel` recurse, and no real screen
    /// comes close (the deepest real dump in the test fixtures has 45 levels).
    static let maxDepth = 512

    /// A container's content spoken as one label, the way UIKit combines a cell's parts and
    /// TalkBack a clickable row's texts: non-empty parts joined with ", ", a part equal to the one
    /// before it dropped (a button and its own title).
    static func joinLabels(_ parts: [String]) -> String? {
        var kept: [String] = []
        for p in parts {
            let t = p.trimmed
            if t.isEmpty || kept.last == t { continue }
            kept.append(t)
        }
        return kept.isEmpty ? nil : kept.joined(separator: ", ")
    }

    /// nil for nil, empty or blank strings.
    static func nonEmpty(_ s: String?) -> String? {
        guard let s, let first = s.utf8.first else { return nil }
        // Fast path: most values start with a visible ASCII character.
        if first > 0x20 && first < 0x7F { return s }
        return s.contains(where: { !$0.isWhitespace }) ? s : nil
    }

    /// Drops explicit `isAccessibilityElement` and `respondsToUserInteraction` values that the
    /// model's default rules would infer anyway, and `order` on leaves, so `tree import` writes
    /// what a person would.
    /// It changes no decision: `isElement` and `isScanItem` stay the same for every node.
    static func tidy(_ e: inout Element) {
        var counts: [String: Int] = [:]
        tidy(&e, countingIDs: &counts)
    }

    /// `tidy`, counting the nodes that declare each id on the way (for `finish`).
    static func tidy(_ e: inout Element, countingIDs counts: inout [String: Int]) {
        if !e.id.isEmpty { counts[e.id, default: 0] += 1 }
        if let explicit = e.isAccessibilityElement {
            e.isAccessibilityElement = nil
            if e.isElement != explicit { e.isAccessibilityElement = explicit }
        }
        if let explicit = e.respondsToUserInteraction {
            let inferred = !e.traits.isDisjoint(with: Traits.interactive) || !e.customActions.isEmpty
            if inferred == explicit { e.respondsToUserInteraction = nil }
        }
        // Order only concerns children.
        if e.children.isEmpty { e.order = .reading }
        for k in e.children.indices { tidy(&e.children[k], countingIDs: &counts) }
    }

    /// Tidy, unique ids, path-based ones for the rest, and the tree. A source id (resource-id,
    /// name, nodeId) is kept only where it names one node of the imported tree; repeated ones
    /// are cleared, so those nodes get stable path-based ids instead of the source's repetition
    /// being reported as a duplicate. Two walks: tidy counting the ids, then the ids.
    /// `root` is consumed: a copy still held by the caller would make every change below copy
    /// the whole tree, box by box (copy-on-write at every level).
    static func finish(_ root: consuming Element, screen: Size) -> ElementTree {
        var counts: [String: Int] = [:]
        counts.reserveCapacity(1024)
        tidy(&root, countingIDs: &counts)
        ElementTree.assignIDs(&root, idCounts: counts)
        return ElementTree(screen: screen, root: root)
    }

    /// One root for several top-level nodes: a container without a frame.
    static func singleRoot(_ nodes: [Element]) -> Element {
        if nodes.count == 1 { return nodes[0] }
        return Element(isAccessibilityElement: false, children: nodes)
    }

    /// A decimal number from attribute bytes ("414", "-12.5", "126.72999999999996").
    static func number(_ tag: XMLTag, _ a: XMLAttribute) throws(InputError) -> Double {
        let s = try tag.string(a)
        guard let d = Double(s.trimmed), d.isFinite else {
            throw tag.error(a, "expected a number, found \"\(s)\"")
        }
        return d
    }

    /// A coordinate or a size (`x`, `width`, `<hierarchy width=…>`): a number within
    /// ±`CoordinateLimit.maximum` (README "Limits of the readers").
    static func coordinate(_ tag: XMLTag, _ a: XMLAttribute) throws(InputError) -> Double {
        let d = try number(tag, a)
        guard CoordinateLimit.contains(d) else {
            throw tag.error(a, "\(formatNumber(d)) is out of range; expected a coordinate or size of at most \(CoordinateLimit.words) either way")
        }
        return d
    }

    /// "true" / "false"; an empty value means "not given" (nil), as in Appium's hand-edited
    /// edge-case fixture (`enabled=""`).
    static func flag(_ tag: XMLTag, _ a: XMLAttribute) throws(InputError) -> Bool? {
        if let b = tag.plainBytes(a) {
            if tag.equal(a.value, "true") { return true }
            if tag.equal(a.value, "false") { return false }
            if b.isEmpty { return nil }
        }
        let s = try tag.string(a).trimmed
        switch s {
        case "true": return true
        case "false": return false
        case "": return nil
        default: throw tag.error(a, "expected true or false, found \"\(s)\"")
        }
    }
}
