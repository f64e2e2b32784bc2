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
    public var children: [Element]

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
                order: ChildOrder = .reading, children: [Element] = []) {
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
        self.children = children
    }

    /// Whether assistive technology sees this node as one element. Default: a leaf with a
    /// non-empty label or any trait is an element; anything else is a container.
    public var isElement: Bool {
        if let isAccessibilityElement { return isAccessibilityElement }
        return children.isEmpty && (!(label ?? "").isEmpty || !traits.isEmpty)
    }

    /// Whether Switch Control stops on this element: the explicit override, else an interactive
    /// trait or a custom action. A `notEnabled` element is never a stop.
    public var isScanItem: Bool {
        guard isElement, !traits.contains(.notEnabled) else { return false }
        if let respondsToUserInteraction { return respondsToUserInteraction }
        return !traits.isDisjoint(with: Traits.interactive) || !customActions.isEmpty
    }

    /// Where an activation taps: the given point, else the centre of the frame.
    public var effectiveActivationPoint: Point? { activationPoint ?? frame?.center }
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

    /// Every node in document order (pre-order, declared child order).
    public func forEachNode(_ body: (Element, _ depth: Int) -> Void) {
        func visit(_ e: Element, _ depth: Int) {
            body(e, depth)
            for c in e.children { visit(c, depth + 1) }
        }
        visit(root, 0)
    }
}
