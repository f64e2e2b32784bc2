/// One node of an accessibility tree, as UIAccessibility describes it (REFERENCE §1): either an
/// accessibility element (it hides its descendants) or a container that exposes its children.
public struct Element: Sendable, Equatable {
    /// Unique within a loaded tree (the loader makes path-based ids for missing or repeated ones).
    public var id: String
    /// `nil`: the default rule, see `isElement`.
    public var isAccessibilityElement: Bool?
    public var label: String?
    public var value: String?
    public var hint: String?
    public var traits: Traits
    public var frame: Rect?
    public var activationPoint: Point?
    public var customActions: [String]
    public var elementsHidden: Bool
    public var viewIsModal: Bool
    public var shouldGroupChildren: Bool
    public var respondsToUserInteraction: Bool?
    public var order: ChildOrder
    /// A container whose content scrolls (a web page, a list in a scroll pane; Android's
    /// `scrollable`): the items inside it offer the Scroll page of the scanner menu (issue 19).
    public var scrollable: Bool
    /// A field that takes text (nil: not one): the keyboard opens when it is activated, and a
    /// password's text is never shown, spoken or learned (docs/typing.md).
    public var textEntry: TextEntry?
    /// The child nodes, in declared order. Stored in a `ChildList` box that releases a deep
    /// subtree with a loop: an array of arrays a million levels deep, released the usual way,
    /// recurses once per level and overflows the stack.
    public var children: [Element] {
        get { childList?.elements ?? [] }
        set { childList = newValue.isEmpty ? nil : ChildList(newValue) }
        _modify {
            if childList == nil {
                childList = ChildList([])
            } else if !isKnownUniquelyReferenced(&childList) {
                childList = ChildList(childList!.elements)
            }
            yield &childList!.elements
            if childList!.elements.isEmpty { childList = nil }
        }
    }
    fileprivate var childList: ChildList?

    /// What kind of text an editable element takes. UIAccessibility has no trait for it (a
    /// UITextField is an element that responds to interaction); AT-SPI says EDITABLE, MULTI_LINE
    /// and the password-text and terminal roles. A terminal takes commands: no capital at a
    /// sentence start.
    public enum TextEntry: String, Sendable {
        case singleLine, multiLine, password, terminal
    }

    public enum ChildOrder: String, Sendable {
        /// By frame: rows top to bottom, leading to trailing edge.
        case reading
        /// As listed (an explicit `accessibilityElements` array).
        case declared
    }

    public init(id: String = "", isAccessibilityElement: Bool? = nil, label: String? = nil, value: String? = nil,
                hint: String? = nil, traits: Traits = [], frame: Rect? = nil, activationPoint: Point? = nil,
                customActions: [String] = [], elementsHidden: Bool = false, viewIsModal: Bool = false,
                shouldGroupChildren: Bool = false, respondsToUserInteraction: Bool? = nil,
                order: ChildOrder = .reading, scrollable: Bool = false, children: [Element] = [], textEntry: TextEntry? = nil) {
        self.id = id
        self.isAccessibilityElement = isAccessibilityElement
        self.label = label
        self.value = value
        self.hint = hint
        self.traits = traits
        self.frame = frame
        self.activationPoint = activationPoint
        self.customActions = customActions
        self.elementsHidden = elementsHidden
        self.viewIsModal = viewIsModal
        self.shouldGroupChildren = shouldGroupChildren
        self.respondsToUserInteraction = respondsToUserInteraction
        self.order = order
        self.scrollable = scrollable
        self.textEntry = textEntry
        self.childList = children.isEmpty ? nil : ChildList(children)
    }

    /// Whether assistive technology sees this node as one element. Default: a leaf with a
    /// non-empty label or any trait is an element; anything else is a container.
    public var isElement: Bool {
        if let isAccessibilityElement { return isAccessibilityElement }
        // No box means no children (the box is dropped when its list empties).
        return childList == nil && (!(label ?? "").isEmpty || !traits.isEmpty || textEntry != nil)
    }

    /// Whether Switch Control stops on this element: the explicit override, else an interactive
    /// trait or a custom action. A `notEnabled` element is never a stop.
    public var isScanItem: Bool {
        guard isElement, !traits.contains(.notEnabled) else { return false }
        if let respondsToUserInteraction { return respondsToUserInteraction }
        return !traits.isDisjoint(with: Traits.interactive) || !customActions.isEmpty || textEntry != nil
    }

    /// Where an activation taps: the given point, else the centre of the frame.
    public var effectiveActivationPoint: Point? { activationPoint ?? frame?.center }
}

/// The box around an element's children (see `Element.children`). Shared between copies of an
/// element and copied before a change when shared, so elements keep value semantics; that is why
/// it can be `Sendable`: a box is only ever changed while one element alone holds it.
final class ChildList: @unchecked Sendable, Equatable {
    var elements: [Element]

    init(_ elements: [Element]) { self.elements = elements }

    /// Takes the subtree apart with a loop: a child whose box only this tree holds gives its own
    /// children to the loop before it goes, so no release goes deeper than one level.
    deinit {
        guard !elements.isEmpty else { return }
        var pending: [Element] = []
        swap(&pending, &elements)
        while var e = pending.popLast() {
            if e.childList != nil && isKnownUniquelyReferenced(&e.childList) {
                var grandchildren: [Element] = []
                swap(&grandchildren, &e.childList!.elements)
                pending.append(contentsOf: grandchildren)
            }
        }
    }

    /// Deep equality with a loop, for the same reason: nodes are compared without their children
    /// (`Element ==` then never reaches this again), and children pairs wait on a list.
    static func == (l: ChildList, r: ChildList) -> Bool {
        if l === r { return true }
        var pairs: [([Element], [Element])] = [(l.elements, r.elements)]
        while let (a, b) = pairs.popLast() {
            guard a.count == b.count else { return false }
            for (x, y) in zip(a, b) {
                var bareX = x, bareY = y
                bareX.childList = nil
                bareY.childList = nil
                guard bareX == bareY else { return false }
                switch (x.childList, y.childList) {
                case (nil, nil): continue
                case let (cx?, cy?): if cx !== cy { pairs.append((cx.elements, cy.elements)) }
                default: return false
                }
            }
        }
        return true
    }
}

/// A whole screen: its size, its layout direction and its root node.
public struct ElementTree: Sendable, Equatable {
    public var screen: Size
    public var layoutDirection: LayoutDirection
    public var root: Element
    /// Ids that were repeated in the source: (declared id, id given to the later element).
    public var duplicateIds: [DuplicateID]

    public enum LayoutDirection: String, Sendable { case leftToRight, rightToLeft }

    public struct DuplicateID: Sendable, Equatable {
        public var declared: String
        public var assigned: String
        public init(declared: String, assigned: String) {
            self.declared = declared
            self.assigned = assigned
        }
    }

    public init(screen: Size, layoutDirection: LayoutDirection = .leftToRight, root: Element, duplicateIds: [DuplicateID] = []) {
        self.screen = screen
        self.layoutDirection = layoutDirection
        self.root = root
        self.duplicateIds = duplicateIds
    }

    public var screenRect: Rect { Rect(x: 0, y: 0, width: screen.width, height: screen.height) }

    /// Every node in document order (pre-order, declared child order), with a loop (no
    /// recursion, whatever the depth).
    public func forEachNode(_ body: (Element, _ depth: Int) -> Void) {
        body(root, 0)
        var stack: [(children: [Element], next: Int)] = [(root.children, 0)]
        while let top = stack.indices.last {
            let k = stack[top].next
            guard k < stack[top].children.count else {
                stack.removeLast()
                continue
            }
            stack[top].next = k + 1
            let e = stack[top].children[k]
            body(e, stack.count)
            if !e.children.isEmpty { stack.append((e.children, 0)) }
        }
    }
}
