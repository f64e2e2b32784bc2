import SwitchCore

/// iOS page sources: Appium / WebDriverAgent XCUITest XML (`<XCUIElementTypeButton name= label=
/// value= enabled= visible= accessible= x= y= width= height=>`) and the older UIAutomation form
/// (`<UIAButton … hint= …>` with fractional frames). docs/formats.md has the table; the rules:
///
/// - The element type decides the traits and whether the node is one element (its children
///   absorbed) or a container (`IOSRole.table`). `accessible`, when present, decides instead,
///   except for cells: UIKit makes a table or collection cell one element whatever
///   WebDriverAgent reports, labelled from its content.
/// - `enabled="false"` → notEnabled; `visible="false"` → elementsHidden (the subtree stays in the
///   tree, scanning skips it); an empty attribute counts as not given.
/// - Appium's nested duplicates of one view (an only child with the parent's frame and label)
///   collapse to one node.
/// - `name` is the id when it is unique in the imported tree; the label is `label` only (`name`
///   is the accessibilityIdentifier when one is set, so it is no label).
/// - Unknown tags (`AppiumAUT`, hand-made `<SomeRandoElement>`) are skipped, their children kept.
/// - Screen: the application's frame, else the first window's, else 390×844 (noted).
enum IOSImporter {
    static let defaultScreen = Size(width: 390, height: 844)

    /// `format` (`.xcuitest` or `.uiautomation`) is what `TreeFile` sniffed from the first
    /// elements; element names of either kind are read wherever they are.
    static func decode(_ bytes: [UInt8], file: String, format: TreeFile.Format, limits: ReaderLimits = .standard) throws(InputError) -> ImportedTree {
        var builder = Builder()
        builder.budget = ElementBudget(limits)
        try XMLScanner.scan(bytes, file: file, into: &builder)
        var top = builder.top
        collapseDuplicates(&top)

        guard !top.isEmpty else {
            throw InputError(file: file, line: 1, column: 1, message: "no XCUIElementType… or UIA… element in this XML file")
        }
        var notes: [String] = []
        let screen: Size
        if let f = (top.first(where: { $0.type == "Application" }) ?? top[0]).frame ?? firstWindowFrame(top), f.maxX > 0, f.maxY > 0 {
            screen = Size(width: f.maxX, height: f.maxY)
        } else {
            screen = defaultScreen
            notes.append("no application or window frame: screen set to \(formatNumber(defaultScreen.width))×\(formatNumber(defaultScreen.height))")
        }
        let root = ImportSupport.singleRoot(top.map(element))
        return ImportedTree(format: format,
                            tree: ImportSupport.finish(consume root, screen: screen), notes: notes)
    }

    static func firstWindowFrame(_ nodes: [RawNode]) -> Rect? {
        for n in nodes {
            if n.type == "Window", let f = n.frame { return f }
            if let f = firstWindowFrame(n.children) { return f }
        }
        return nil
    }

    /// One element of the page source, attributes parsed, children in document order.
    struct RawNode {
        /// The type without its prefix: "Button", "Cell" (UIAutomation names already translated).
        var type: String
        var role: IOSRole
        var name: String?
        var label: String?
        var value: String?
        var hint: String?
        var enabled: Bool?
        var visible: Bool?
        var accessible: Bool?
        var frame: Rect?
        var children: [RawNode] = []

        var isHidden: Bool { visible == false }
    }

    /// Builds `RawNode`s from the scanner's events; unknown tags are transparent.
    struct Builder: XMLHandler {
        var stack: [RawNode?] = []
        var top: [RawNode] = []

        enum Attribute: Sendable { case name, label, value, hint, enabled, visible, accessible, x, y, width, height }

        static let attributes = XMLNameTable<Attribute>([
            ("name", .name), ("label", .label), ("value", .value), ("hint", .hint), ("enabled", .enabled),
            ("visible", .visible), ("accessible", .accessible), ("x", .x), ("y", .y), ("width", .width), ("height", .height),
        ])

        /// Every XML element counts, kept or not.
        var budget = ElementBudget(.standard)

        mutating func startElement(_ tag: XMLTag) throws(InputError) {
            guard budget.take() else { throw tag.error(at: tag.offset, budget.message) }
            guard stack.count < ImportSupport.maxDepth else {
                throw tag.error(at: tag.offset, "elements nested deeper than \(ImportSupport.maxDepth) levels")
            }
            let tagName = tag.name
            let type: String
            if tagName.hasPrefix("XCUIElementType") {
                type = String(tagName.dropFirst("XCUIElementType".count))
            } else if tagName.hasPrefix("UIA"), tagName.count > 3 {
                let uia = String(tagName.dropFirst(3))
                type = IOSRole.uiAutomationNames[uia] ?? uia
            } else {
                stack.append(nil)
                return
            }
            var n = RawNode(type: type, role: IOSRole.table[type] ?? IOSRole.generic)
            var x: Double?, y: Double?, w: Double?, h: Double?
            for a in tag.attributes {
                switch Builder.attributes.key(of: a, in: tag) {
                case .name?: n.name = ImportSupport.nonEmpty(try tag.string(a))
                case .label?: n.label = ImportSupport.nonEmpty(try tag.string(a))
                case .value?: n.value = ImportSupport.nonEmpty(try tag.string(a))
                case .hint?: n.hint = ImportSupport.nonEmpty(try tag.string(a))
                case .enabled?: n.enabled = try ImportSupport.flag(tag, a)
                case .visible?: n.visible = try ImportSupport.flag(tag, a)
                case .accessible?: n.accessible = try ImportSupport.flag(tag, a)
                case .x?: x = try ImportSupport.coordinate(tag, a)
                case .y?: y = try ImportSupport.coordinate(tag, a)
                case .width?:
                    w = try ImportSupport.coordinate(tag, a)
                    if let w, w < 0 { throw tag.error(a, "expected a width of 0 or more, found \(formatNumber(w))") }
                case .height?:
                    h = try ImportSupport.coordinate(tag, a)
                    if let h, h < 0 { throw tag.error(a, "expected a height of 0 or more, found \(formatNumber(h))") }
                case nil: break
                }
            }
            switch (x, y, w, h) {
            case let (x?, y?, w?, h?): n.frame = Rect(x: x, y: y, width: w, height: h)
            case (nil, nil, nil, nil): break
            default:
                throw tag.error(at: tag.offset, "<\(tagName)> has only some of x, y, width, height (a frame needs all four, or none)")
            }
            stack.append(n)
        }

        /// A finished node joins the nearest real ancestor: the children of an unknown tag
        /// thereby move up to its parent.
        mutating func endElement() throws(InputError) {
            guard let last = stack.popLast(), let node = last else { return }
            if let k = stack.lastIndex(where: { $0 != nil }) {
                stack[k]?.children.append(node)
            } else {
                top.append(node)
            }
        }
    }

    /// Appium's nested duplicates: a node whose only child has the same frame and the same
    /// label is one view dumped twice; keep one (the more specific type when one is generic).
    static func collapseDuplicates(_ nodes: inout [RawNode]) {
        for k in nodes.indices {
            while nodes[k].children.count == 1, let f = nodes[k].frame, let l = nodes[k].label,
                  nodes[k].children[0].frame == f, nodes[k].children[0].label == l {
                let outer = nodes[k]
                var inner = outer.children[0]
                // The inner node is the view itself unless the outer one is the more specific.
                if outer.role.kind == .generic || outer.role.kind == inner.role.kind {
                    inner.visible = outer.isHidden || inner.isHidden ? false : (inner.visible ?? outer.visible)
                    if outer.enabled == false { inner.enabled = false }
                    inner.name = inner.name ?? outer.name
                    inner.hint = inner.hint ?? outer.hint
                    nodes[k] = inner
                } else {
                    var kept = outer
                    kept.children = inner.children
                    if inner.isHidden { kept.visible = false }
                    if inner.enabled == false { kept.enabled = false }
                    kept.value = kept.value ?? inner.value
                    nodes[k] = kept
                }
            }
            collapseDuplicates(&nodes[k].children)
        }
    }

    static func element(_ n: RawNode) -> Element {
        var e = Element(id: n.name ?? "")
        e.traits = n.role.traits
        if n.enabled == false { e.traits.insert(.notEnabled) }
        e.elementsHidden = n.isHidden
        e.frame = n.frame
        e.hint = n.hint
        e.viewIsModal = n.role.modal
        e.shouldGroupChildren = n.role.groupChildren
        e.respondsToUserInteraction = n.role.respondsToUserInteraction
        e.label = n.label
        e.value = n.value.map { n.role.onOffValue ? onOff($0) : $0 }
        if e.value == e.label { e.value = nil }

        let isElement: Bool?
        switch n.role.kind {
        case .cell: isElement = true
        case .element: isElement = n.accessible ?? true
        case .container: isElement = n.accessible == true ? true : false
        case .generic: isElement = n.accessible
        }
        e.isAccessibilityElement = isElement
        if isElement == true {
            // One element: the children are absorbed (their words become the label when it has
            // none, always for a cell), the way UIKit exposes a cell or a button with a title.
            var parts: [String] = []
            var actions: [String] = []
            var value: String?
            content(of: n.children, parts: &parts, actions: &actions, value: &value)
            if n.role.kind == .cell {
                // The cell's own value is often a copy of its switch's "1"/"0".
                e.label = ImportSupport.joinLabels(parts) ?? n.label
                e.customActions = actions.filter { $0 != e.label }
                if let value { e.value = value }
            } else {
                if e.label == nil { e.label = ImportSupport.joinLabels(parts) }
                if e.value == nil { e.value = value }
            }
            if e.value == e.label { e.value = nil }
        } else {
            e.children = n.children.map(element)
        }
        return e
    }

    /// The words of absorbed children in document order: a visible node's label (or a text's
    /// value) and nothing below it; a visible, enabled button inside a cell becomes a custom
    /// action named by its label (UIKit exposes a cell's accessory buttons that way); the first
    /// switch or slider gives the value.
    static func content(of nodes: [RawNode], parts: inout [String], actions: inout [String], value: inout String?) {
        for c in nodes where !c.isHidden {
            if value == nil, c.role.onOffValue || c.role.traits.contains(.adjustable), let v = c.value {
                value = c.role.onOffValue ? onOff(v) : v
            }
            if c.role.traits.contains(.button), c.role.kind == .element, !c.role.onOffValue, c.enabled != false, let l = c.label {
                actions.append(l)
                continue
            }
            if let l = c.label {
                parts.append(l)
                continue
            }
            if c.role.traits.contains(.staticText) || c.role.respondsToUserInteraction == true, let v = c.value {
                parts.append(v)
                continue
            }
            content(of: c.children, parts: &parts, actions: &actions, value: &value)
        }
    }

    /// UISwitch reports "1" / "0"; VoiceOver says "on" / "off".
    static func onOff(_ v: String) -> String {
        switch v {
        case "1": return "on"
        case "0": return "off"
        default: return v
        }
    }
}

/// How one XCUIElementType maps onto the model (docs/formats.md "iOS").
struct IOSRole: Sendable {
    enum Kind: Sendable {
        /// One element; children absorbed. `accessible="false"` makes it a container.
        case element
        /// One element labelled from its content, children absorbed, whatever `accessible` says.
        case cell
        /// Exposes its children. `accessible="true"` makes it one element.
        case container
        /// XCUIElementTypeOther and unknown types: `accessible` when given, else the default rule
        /// (a leaf with a label is an element).
        case generic
    }

    var kind: Kind
    var traits: Traits = []
    var respondsToUserInteraction: Bool? = nil
    var modal = false
    var groupChildren = false
    /// Switch and Toggle: value "1"/"0" means on/off.
    var onOffValue = false

    static let generic = IOSRole(kind: .generic)

    static func element(_ traits: Traits) -> IOSRole { IOSRole(kind: .element, traits: traits) }
    static func container(_ traits: Traits = []) -> IOSRole { IOSRole(kind: .container, traits: traits) }

    /// UIAutomation type names that differ from XCUITest's.
    static let uiAutomationNames: [String: String] = [
        "TableView": "Table", "TableCell": "Cell", "TableGroup": "Other", "CollectionCell": "Cell",
        "SearchBar": "SearchField", "Element": "Other", "ActionSheet": "Sheet", "EditingMenu": "Menu",
        "MapView": "Map", "ActivityView": "Other", "Target": "Other",
    ]

    static let table: [String: IOSRole] = {
        var t: [String: IOSRole] = [:]
        for name in ["Button", "ToolbarButton", "MenuButton", "PopUpButton", "RadioButton", "CheckBox",
                     "DisclosureTriangle", "MenuItem", "MenuBarItem", "DockItem", "IncrementArrow",
                     "DecrementArrow", "StatusItem", "Tab"] {
            t[name] = .element(.button)
        }
        for name in ["Switch", "Toggle"] {
            t[name] = IOSRole(kind: .element, traits: .button, onOffValue: true)
        }
        t["Link"] = .element(.link)
        t["SearchField"] = .element(.searchField)
        for name in ["TextField", "SecureTextField", "TextView", "ComboBox"] {
            t[name] = IOSRole(kind: .element, respondsToUserInteraction: true)
        }
        t["Key"] = .element(.keyboardKey)
        for name in ["Slider", "Stepper", "PickerWheel", "PageIndicator", "RatingIndicator"] {
            t[name] = .element(.adjustable)
        }
        t["StaticText"] = .element(.staticText)
        t["Image"] = .element(.image)
        t["Icon"] = .element(.image)
        for name in ["ProgressIndicator", "ActivityIndicator", "LevelIndicator", "ValueIndicator"] {
            t[name] = .element(.updatesFrequently)
        }
        for name in ["Cell", "TableRow", "OutlineRow"] {
            t[name] = IOSRole(kind: .cell, traits: .button)
        }
        for name in ["Application", "Window", "Group", "ScrollView", "ScrollBar", "Table", "TableColumn",
                     "CollectionView", "Outline", "Browser", "Grid", "LayoutArea", "LayoutItem", "SplitGroup",
                     "Splitter", "NavigationBar", "Toolbar", "StatusBar", "Picker", "DatePicker",
                     "SegmentedControl", "WebView", "Menu", "MenuBar", "RadioGroup", "TabGroup", "Popover",
                     "Drawer", "TouchBar", "Matte", "Ruler", "RulerMarker", "Timeline", "HelpTag",
                     "ColorWell", "Map", "Handle"] {
            t[name] = .container()
        }
        t["TabBar"] = .container(.tabBar)
        t["Keyboard"] = IOSRole(kind: .container, groupChildren: true)
        for name in ["Alert", "Sheet", "Dialog"] {
            t[name] = IOSRole(kind: .container, modal: true)
        }
        t["Other"] = .generic
        t["Any"] = .generic
        return t
    }()
}
