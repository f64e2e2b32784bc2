import SwitchCore

/// One accessible object of a live application, as read from the bus: the plain values the
/// mapping needs. The reader fills what it read; what it did not need stays empty (no extents
/// for a node that never becomes an element or a container, for instance).
public struct AtspiNode: Sendable, Equatable {
    /// Stable while the application runs: its bus name and the object's path
    /// (":1.42/org/a11y/atspi/accessible/57"). A re-read of the same widget gives the same id, so a
    /// layout change keeps the highlight on it.
    public var id: String
    public var role: AtspiRole
    public var name: String
    public var description: String
    public var states: AtspiStates
    public var interfaces: AtspiInterfaces
    /// Screen extents (X root-window pixels, origin top left); nil when not read or unknown.
    public var extents: AtspiRect?
    /// Action names in index order (index 0 is the default action).
    public var actions: [String]
    public var value: AtspiValue?
    /// An editable field's text.
    public var text: String?
    /// The name of the LABELLED_BY relation's target, read for a node without a name.
    public var labelledBy: String?
    /// The `placeholder-text` object attribute of an editable field.
    public var placeholder: String?
    /// A node of a web document (Chromium, Firefox): VISIBLE without SHOWING is scrolled out of
    /// view, not hidden, and the page's structure maps to groups (`WebGroups`).
    public var inDocument: Bool
    /// A window's top-left corner on the screen when the toolkit gives extents relative to the
    /// window (GTK 4): the mapping moves every extent below the window by it.
    public var windowOrigin: AtspiPoint?
    /// A window whose toolkit reports a button's content box, not its border box (GTK 4.8): the
    /// mapping grows each button below it by this much on each side (`Gtk4Quirks.buttonPadding`).
    public var buttonPadding: AtspiPoint?
    public var children: [AtspiNode]

    public init(id: String, role: AtspiRole, name: String = "", description: String = "", states: AtspiStates = [],
                interfaces: AtspiInterfaces = [], extents: AtspiRect? = nil, actions: [String] = [],
                value: AtspiValue? = nil, text: String? = nil, labelledBy: String? = nil,
                placeholder: String? = nil, inDocument: Bool = false, windowOrigin: AtspiPoint? = nil, children: [AtspiNode] = []) {
        self.id = id
        self.role = role
        self.name = name
        self.description = description
        self.states = states
        self.interfaces = interfaces
        self.extents = extents
        self.actions = actions
        self.value = value
        self.text = text
        self.labelledBy = labelledBy
        self.placeholder = placeholder
        self.inDocument = inDocument
        self.windowOrigin = windowOrigin
        self.children = children
    }

    /// Every extent in this subtree moved by (dx, dy) (an unmapped node's INT_MIN stays).
    mutating func shiftExtents(dx: Int32, dy: Int32) {
        if let e = extents, e.frame != nil {
            extents = AtspiRect(x: e.x &+ dx, y: e.y &+ dy, width: e.width, height: e.height)
        }
        for k in children.indices { children[k].shiftExtents(dx: dx, dy: dy) }
    }

    /// Pre-order, this node first.
    public func forEach(_ body: (AtspiNode) -> Void) {
        body(self)
        for c in children { c.forEach(body) }
    }

    /// The first node in pre-order that satisfies `wanted`.
    public func first(where wanted: (AtspiNode) -> Bool) -> AtspiNode? {
        if wanted(self) { return self }
        for c in children { if let f = c.first(where: wanted) { return f } }
        return nil
    }
}

/// A point in X root-window pixels.
public struct AtspiPoint: Hashable, Sendable {
    public var x: Int32
    public var y: Int32
    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}

/// `Component.GetExtents(SCREEN)`.
public struct AtspiRect: Hashable, Sendable {
    public var x: Int32
    public var y: Int32
    public var width: Int32
    public var height: Int32

    public init(x: Int32, y: Int32, width: Int32, height: Int32) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Unmapped widgets report (INT_MIN, INT_MIN, 1, 1); a zero or negative size is no frame either.
    public var frame: Rect? {
        guard x != Int32.min, y != Int32.min, width > 0, height > 0 else { return nil }
        return Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
    }
}

/// The Value interface's properties.
public struct AtspiValue: Hashable, Sendable {
    public var current: Double
    public var minimum: Double
    public var maximum: Double
    public var increment: Double
    /// `Value.Text` (at-spi2-core ≥ 2.46), when the toolkit gives one.
    public var text: String?

    /// The Value interface's properties read (each with its own `Properties.Get`).
    static let propertyNames = ["CurrentValue", "MinimumValue", "MaximumValue", "MinimumIncrement", "Text"]

    public init(current: Double, minimum: Double, maximum: Double, increment: Double, text: String? = nil) {
        self.current = current
        self.minimum = minimum
        self.maximum = maximum
        self.increment = increment
        self.text = text
    }

    /// What one increment or decrement moves by: the minimum increment, or a tenth of the range
    /// where the toolkit says 0 (GTK's progress bars and some sliders).
    public var step: Double {
        if increment > 0, increment.isFinite { return increment }
        let range = maximum - minimum
        return range > 0 && range.isFinite ? range / 10 : 1
    }

    /// current ± step, clamped to the range.
    public func stepped(up: Bool) -> Double {
        let v = current + (up ? step : -step)
        return min(max(v, minimum), maximum)
    }
}
