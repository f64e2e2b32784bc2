import SwitchCore

/// Android dumps: raw `uiautomator dump` (`<hierarchy rotation=…><node class= text= content-desc=
/// resource-id= bounds="[x1,y1][x2,y2]" clickable= …>`) and Appium UiAutomator2 page sources
/// (class names as tag names, plus `displayed`, `hint`, `a11y-important`, `heading`…). The rules
/// follow Switch Access and TalkBack (docs/formats.md "Android"):
///
/// - A node is *actionable* when it is clickable, long-clickable or scrollable. An actionable
///   descendant with a frame different from the node's is *interesting* (a separate stop).
/// - An actionable node without interesting descendants is one element: its descendants are
///   absorbed (same-bounds children too, Switch Access's rule), their words become its label
///   when it has none of its own, a checkable descendant gives its value.
/// - A clickable node with interesting descendants (a settings row with its own switch) becomes
///   a container holding an element for itself (labelled from its other content) followed by
///   the interesting parts; a scrollable one without a click keeps its scroll actions on the
///   container (the menu finds scroll actions on the nearest scrollable ancestor).
/// - A focusable node (TalkBack stops there) with words and no interesting descendants is one
///   element that is not a scan item; a leaf with text or content-desc is a text element.
/// - Label: content-desc, else text (the hint for an empty text field); an editable field's
///   text is its value. clickable → button trait (not for text fields) and respondsToUserInteraction;
///   long-clickable → custom action "Long press"; scrollable → "Scroll forward", "Scroll
///   backward"; checkable → value "checked"/"not checked"; SeekBar and kin → adjustable;
///   enabled="false" → notEnabled; selected → selected; heading → header; displayed="false" →
///   elementsHidden.
/// - Screen: the hierarchy's width and height (swapped when `rotation` is odd and the nodes'
///   bounds say landscape), else the extent of the top-level nodes' bounds, else 1080×1920.
enum AndroidImporter {
    static let defaultScreen = Size(width: 1080, height: 1920)

    static func decode(_ bytes: [UInt8], file: String, limits: ReaderLimits = .standard) throws(InputError) -> ImportedTree {
        var builder = Builder()
        builder.budget = ElementBudget(limits)
        try XMLScanner.scan(bytes, file: file, into: &builder)
        // Moved out of the builder, not copied: collapsing a shared copy would copy every level.
        var top: [RawNode] = []
        swap(&top, &builder.top)
        collapseDuplicates(&top)

        var notes: [String] = []
        let screen = screenSize(builder.hierarchy, top: top, notes: &notes)
        let root = ImportSupport.singleRoot(top.map { element($0) })
        top = []
        return ImportedTree(format: builder.firstElementIsNode ?? true ? .uiautomator : .appiumUiAutomator2,
                            tree: ImportSupport.finish(consume root, screen: screen), notes: notes)
    }

    struct Flags: OptionSet, Sendable {
        let rawValue: UInt16
        static let clickable = Flags(rawValue: 1 << 0)
        static let longClickable = Flags(rawValue: 1 << 1)
        static let scrollable = Flags(rawValue: 1 << 2)
        static let checkable = Flags(rawValue: 1 << 3)
        static let checked = Flags(rawValue: 1 << 4)
        static let focusable = Flags(rawValue: 1 << 5)
        static let selected = Flags(rawValue: 1 << 6)
        static let password = Flags(rawValue: 1 << 7)
        static let disabled = Flags(rawValue: 1 << 8)
        static let hidden = Flags(rawValue: 1 << 9)
        static let heading = Flags(rawValue: 1 << 10)
        static let notImportant = Flags(rawValue: 1 << 11)

        static let actions: Flags = [.clickable, .longClickable, .scrollable]
    }

    /// What the class name says, decided once per distinct class (a dump repeats a few dozen).
    enum ClassKind: Sendable {
        /// EditText, AutoCompleteTextView, SearchView's text field.
        case editable
        /// SeekBar, RatingBar, Slider, NumberPicker.
        case adjustable
        /// ImageView, ImageButton…
        case image
        /// TextView, CheckedTextView…
        case text
        case other

        init(className: String) {
            let simple = className.split(separator: ".").last.map(String.init) ?? className
            func has(_ s: String) -> Bool { simple.contains(s) }
            if has("EditText") || has("AutoCompleteTextView") || simple.hasSuffix("SearchAutoComplete") {
                self = .editable
            } else if has("SeekBar") || has("RatingBar") || simple == "Slider" || simple.hasSuffix("NumberPicker") {
                self = .adjustable
            } else if has("Image") {
                self = .image
            } else if has("TextView") {
                self = .text
            } else {
                self = .other
            }
        }
    }

    struct RawNode {
        /// `class`, or the tag name when there is none (Appium writes both).
        var className: String
        var kind: ClassKind = .other
        var text: String?
        var contentDesc: String?
        var resourceID: String?
        var hint: String?
        var flags: Flags = []
        var frame: Rect?
        var children: [RawNode] = []
        /// Some descendant is actionable (set as the dump is read; may stay true after
        /// `collapseDuplicates`, never false wrongly): `hasInteresting` skips subtrees without one
        /// instead of walking every subtree again at every level above it.
        var actionableBelow = false

        var isActionable: Bool { !flags.isDisjoint(with: Flags.actions) }
        var isHidden: Bool { flags.contains(.hidden) }
        var isEditable: Bool { kind == .editable }
        var isAdjustableClass: Bool { kind == .adjustable }

        /// A switch's text when it only states its position (its state is the value).
        static let stateWords: Set<String> = ["on", "off"]

        /// What TalkBack reads for the node itself: content-desc, else text (not a switch's ON/OFF
        /// text: its state is the value), else a text field's hint.
        var ownLabel: String? {
            if let d = contentDesc { return d }
            if isEditable { return hint }
            if flags.contains(.checkable), let t = text, Self.stateWords.contains(t.lowercased()) { return nil }
            return text
        }
    }

    struct Hierarchy {
        var rotation = 0
        var width: Double?
        var height: Double?
    }

    struct Builder: XMLHandler {
        var stack: [RawNode] = []
        var top: [RawNode] = []
        var hierarchy: Hierarchy?
        var depth = 0
        /// Whether the first element inside <hierarchy> is a <node> (uiautomator) or named by its
        /// class (Appium); nil for an empty hierarchy. `TreeFile.detect` decides the same way.
        var firstElementIsNode: Bool?
        var kinds: [String: ClassKind] = [:]
        /// The class names seen so far, by their bytes: a dump repeats a few dozen classes, and
        /// making a `String` for every node's class (and hashing it) was a tenth of an import.
        var classes: [(bytes: [UInt8], name: String, kind: ClassKind)] = []

        /// The class name and kind of a plain `class` value, from the cache when seen before; nil
        /// (the caller decodes it) for a value with references or once the cache holds 64 names.
        mutating func className(_ tag: XMLTag, _ a: XMLAttribute) throws(InputError) -> (name: String, kind: ClassKind)? {
            guard let b = tag.plainBytes(a) else { return nil }
            for c in classes where c.bytes.count == b.count {
                if c.bytes.withUnsafeBufferPointer({ $0.elementsEqual(b) }) { return (c.name, c.kind) }
            }
            guard classes.count < 64 else { return nil }
            let name = try tag.string(a)
            let kind = ClassKind(className: name)
            classes.append((Array(b), name, kind))
            return (name, kind)
        }

        /// The keys of the attributes of the last `<node>` read (`lastSerial`), by place: a tag
        /// after it takes the key of a name it repeats (`XMLAttribute.previousPlace`) from here
        /// instead of the name table (most of a dump's attributes).
        var lastKeys: [Attribute?] = []
        var lastSerial = -2
        var keys: [Attribute?] = []

        /// Every XML element counts, kept or not.
        var budget = ElementBudget(.standard)

        mutating func startElement(_ tag: XMLTag) throws(InputError) {
            guard budget.take() else { throw tag.error(at: tag.offset, budget.message) }
            depth += 1
            guard depth <= ImportSupport.maxDepth else {
                throw tag.error(at: tag.offset, "elements nested deeper than \(ImportSupport.maxDepth) levels")
            }
            if depth == 1 {
                var h = Hierarchy()
                for a in tag.attributes {
                    switch tag.name(of: a) {
                    case "rotation":
                        let r = try ImportSupport.number(tag, a)
                        guard [0, 1, 2, 3].contains(r) else { throw tag.error(a, "expected a rotation of 0, 1, 2 or 3, found \(formatNumber(r))") }
                        h.rotation = Int(r)
                    // The screen's size: a size of 0 or less is no screen (it was ignored silently).
                    case "width", "height":
                        let v = try ImportSupport.coordinate(tag, a)
                        guard v > 0 else {
                            throw tag.error(a, "expected the screen's \(tag.name(of: a)) in pixels (more than 0), found \(formatNumber(v))")
                        }
                        if tag.name(of: a) == "width" { h.width = v } else { h.height = v }
                    default: break
                    }
                }
                hierarchy = h
                return
            }
            if firstElementIsNode == nil { firstElementIsNode = tag.hasName("node") }
            var n = RawNode(className: "")
            var knownKind = false
            let follows = tag.serial == lastSerial + 1
            keys.removeAll(keepingCapacity: true)
            for a in tag.attributes {
                let key = follows && a.previousPlace >= 0 ? lastKeys[a.previousPlace] : Builder.attributes.key(of: a, in: tag)
                keys.append(key)
                switch key {
                case .className?:
                    if let found = try className(tag, a) {
                        n.className = found.name
                        n.kind = found.kind
                        knownKind = true
                    } else {
                        n.className = try tag.string(a)
                    }
                case .text?: n.text = ImportSupport.nonEmpty(try tag.string(a))
                case .contentDesc?: n.contentDesc = ImportSupport.nonEmpty(try tag.string(a))
                case .resourceID?: n.resourceID = ImportSupport.nonEmpty(try tag.string(a))
                case .hint?: n.hint = ImportSupport.nonEmpty(try tag.string(a))
                case .bounds?: n.frame = try bounds(tag, a)
                case .flag(let f)?: if try ImportSupport.flag(tag, a) == true { n.flags.insert(f) }
                case .negated(let f)?: if try ImportSupport.flag(tag, a) == false { n.flags.insert(f) }
                case nil: break
                }
            }
            swap(&keys, &lastKeys)
            lastSerial = tag.serial
            if n.className.isEmpty {
                n.className = tag.name
                knownKind = false
            }
            if knownKind {
                // Decided with the class name above.
            } else if let k = kinds[n.className] {
                n.kind = k
            } else {
                n.kind = ClassKind(className: n.className)
                kinds[n.className] = n.kind
            }
            stack.append(n)
        }

        mutating func endElement() throws(InputError) {
            defer { depth -= 1 }
            guard depth > 1, let node = stack.popLast() else { return }
            if stack.isEmpty {
                top.append(node)
            } else {
                if node.isActionable || node.actionableBelow { stack[stack.count - 1].actionableBelow = true }
                stack[stack.count - 1].children.append(node)
            }
        }

        enum Attribute: Sendable {
            case className, text, contentDesc, resourceID, hint, bounds
            /// "true" sets the flag.
            case flag(Flags)
            /// "false" sets the flag.
            case negated(Flags)
        }

        static let attributes = XMLNameTable<Attribute>([
            ("class", .className), ("text", .text), ("content-desc", .contentDesc), ("resource-id", .resourceID),
            ("hint", .hint), ("bounds", .bounds), ("clickable", .flag(.clickable)), ("long-clickable", .flag(.longClickable)),
            ("scrollable", .flag(.scrollable)), ("checkable", .flag(.checkable)), ("checked", .flag(.checked)),
            ("focusable", .flag(.focusable)), ("selected", .flag(.selected)), ("password", .flag(.password)),
            ("heading", .flag(.heading)), ("enabled", .negated(.disabled)), ("displayed", .negated(.hidden)),
            ("visible-to-user", .negated(.hidden)), ("a11y-important", .negated(.notImportant)),
            ("important-for-accessibility", .negated(.notImportant)),
        ])

        /// "[x1,y1][x2,y2]" → frame; an empty value → no frame.
        func bounds(_ tag: XMLTag, _ a: XMLAttribute) throws(InputError) -> Rect? {
            if let b = tag.plainBytes(a), let r = AndroidImporter.plainBounds(b) { return r }
            let s = try tag.string(a)
            var numbers: [Double] = []
            numbers.reserveCapacity(4)
            var shape: [UInt8] = []
            var k = s.utf8.startIndex
            let u = s.utf8
            while k < u.endIndex {
                let c = u[k]
                if c == UInt8(ascii: " ") { k = u.index(after: k); continue }
                if c == UInt8(ascii: "-") || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) {
                    var end = u.index(after: k)
                    while end < u.endIndex, u[end] == UInt8(ascii: ".") || (u[end] >= UInt8(ascii: "0") && u[end] <= UInt8(ascii: "9")) {
                        end = u.index(after: end)
                    }
                    guard let d = Double(Substring(s.utf8[k..<end])) else { break }
                    numbers.append(d)
                    shape.append(UInt8(ascii: "n"))
                    k = end
                    continue
                }
                shape.append(c)
                k = u.index(after: k)
            }
            if shape.isEmpty { return nil }
            guard shape == Array("[n,n][n,n]".utf8), numbers.count == 4 else {
                throw tag.error(a, "expected bounds like [0,0][1080,1920], found \"\(s)\"")
            }
            if let far = numbers.first(where: { !CoordinateLimit.contains($0) }) {
                throw tag.error(a, "\(formatNumber(far)) in \(s) is out of range; expected coordinates of at most \(CoordinateLimit.words) either way")
            }
            guard numbers[2] >= numbers[0], numbers[3] >= numbers[1] else {
                throw tag.error(a, "the second corner of \(s) is above or left of the first")
            }
            return Rect(x: numbers[0], y: numbers[1], width: numbers[2] - numbers[0], height: numbers[3] - numbers[1])
        }
    }

    /// The usual "[0,66][1080,220]" (integers, no spaces) straight from the bytes; nil for
    /// anything else, which the general parser then reads or reports.
    static func plainBounds(_ b: UnsafeBufferPointer<UInt8>) -> Rect? {
        var k = 0
        func expect(_ c: UInt8) -> Bool {
            guard k < b.count, b[k] == c else { return false }
            k += 1
            return true
        }
        func integer() -> Double? {
            var negative = false
            if k < b.count, b[k] == UInt8(ascii: "-") { negative = true; k += 1 }
            let start = k
            var v = 0
            while k < b.count, b[k] >= UInt8(ascii: "0"), b[k] <= UInt8(ascii: "9"), k - start < 7 {
                v = v * 10 + Int(b[k] - UInt8(ascii: "0"))
                k += 1
            }
            // More than a million: the general parser reports it (`CoordinateLimit`).
            guard k > start, v <= Int(CoordinateLimit.maximum) else { return nil }
            return Double(negative ? -v : v)
        }
        guard expect(UInt8(ascii: "[")), let x1 = integer(), expect(UInt8(ascii: ",")), let y1 = integer(), expect(UInt8(ascii: "]")),
              expect(UInt8(ascii: "[")), let x2 = integer(), expect(UInt8(ascii: ",")), let y2 = integer(), expect(UInt8(ascii: "]")),
              k == b.count, x2 >= x1, y2 >= y1 else { return nil }
        return Rect(x: x1, y: y1, width: x2 - x1, height: y2 - y1)
    }

    static func screenSize(_ h: Hierarchy?, top: [RawNode], notes: inout [String]) -> Size {
        var extent: Size?
        for n in top {
            guard let f = n.frame, f.maxX > 0, f.maxY > 0 else { continue }
            extent = Size(width: max(extent?.width ?? 0, f.maxX), height: max(extent?.height ?? 0, f.maxY))
        }
        if let h, let w = h.width, let hh = h.height, w > 0, hh > 0 {
            // Some tools write the natural (portrait) size; the bounds are always in the
            // rotated frame, so they decide.
            if h.rotation % 2 == 1, let e = extent, e.width > e.height, w < hh {
                return Size(width: hh, height: w)
            }
            return Size(width: w, height: hh)
        }
        if let extent { return extent }
        notes.append("no screen size (no width/height on <hierarchy>, no bounds): screen set to \(formatNumber(defaultScreen.width))×\(formatNumber(defaultScreen.height))")
        return defaultScreen
    }

    // MARK: Mapping

    static func element(_ n: RawNode) -> Element {
        let interesting = hasInteresting(n.children, frame: n.frame)
        if n.isActionable && !interesting {
            return leaf(n, absorbing: n.children)
        }
        if n.isActionable {
            // Separate stops inside: the node's own action becomes an element beside them.
            var container = Element(isAccessibilityElement: false, frame: n.frame, elementsHidden: n.isHidden)
            if n.flags.isDisjoint(with: [.clickable, .longClickable]) {
                // Only scrollable (a list): the container carries the scroll actions.
                container.id = n.resourceID ?? ""
                container.label = n.ownLabel
                container.customActions = scrollActions
                container.children = n.children.map { element($0) }
            } else {
                var kept: [Element] = []
                var absorbed: [RawNode] = []
                for c in n.children {
                    if hasInteresting([c], frame: n.frame) { kept.append(element(c)) } else { absorbed.append(c) }
                }
                var me = n
                me.flags.remove([.scrollable, .hidden])
                if n.flags.contains(.scrollable) { container.customActions = scrollActions }
                container.children = [leaf(me, absorbing: absorbed)] + kept
            }
            return container
        }
        if n.flags.contains(.focusable) && !n.flags.contains(.notImportant) && !interesting && !n.children.isEmpty {
            // TalkBack stops here and reads the content; Switch Access does not (no action).
            let e = leaf(n, absorbing: n.children)
            if e.label != nil { return e }
        }
        if n.children.isEmpty {
            var e = leaf(n, absorbing: [])
            if e.label == nil && !n.isAdjustableClass && !n.isEditable {
                // Nothing to say and nothing to do: a layout leaf, an unlabelled icon.
                e.isAccessibilityElement = false
                e.respondsToUserInteraction = nil
            }
            return e
        }
        var e = Element(id: n.resourceID ?? "", isAccessibilityElement: false, label: n.ownLabel, frame: n.frame,
                        elementsHidden: n.isHidden, children: n.children.map { element($0) })
        if n.flags.contains(.disabled) { e.traits.insert(.notEnabled) }
        return e
    }

    static let scrollActions = ["Scroll forward", "Scroll backward"]

    /// Whether any node in `nodes` (or below) is actionable with a frame other than `frame`.
    static func hasInteresting(_ nodes: [RawNode], frame: Rect?) -> Bool {
        for c in nodes {
            if c.isActionable && (c.frame == nil || c.frame != frame) { return true }
            if c.actionableBelow && hasInteresting(c.children, frame: frame) { return true }
        }
        return false
    }

    /// One element for `n`, its `absorbing` descendants' words, actions and state folded in.
    static func leaf(_ n: RawNode, absorbing: [RawNode]) -> Element {
        var flags = n.flags
        var parts: [String] = []
        var checkedState: Bool? = flags.contains(.checkable) ? flags.contains(.checked) : nil
        func absorb(_ nodes: [RawNode]) {
            for c in nodes where !c.isHidden {
                // Same-bounds actionable descendants merge their actions (Switch Access).
                if c.isActionable, c.frame == n.frame {
                    flags.formUnion(c.flags.intersection(Flags.actions))
                }
                if checkedState == nil, c.flags.contains(.checkable) { checkedState = c.flags.contains(.checked) }
                if let l = c.ownLabel {
                    parts.append(l)
                    if c.isEditable, let t = c.text, t != l { parts.append(t) }
                    continue
                }
                if c.isEditable, let t = c.text { parts.append(t); continue }
                absorb(c.children)
            }
        }
        absorb(absorbing)

        var e = Element(id: n.resourceID ?? "", isAccessibilityElement: true, frame: n.frame, elementsHidden: n.isHidden)
        if n.isEditable {
            e.label = n.contentDesc ?? n.hint ?? ImportSupport.joinLabels(parts)
            if let t = n.text, t != n.hint { e.value = t }
        } else {
            e.label = n.ownLabel ?? ImportSupport.joinLabels(parts)
        }
        if let checked = checkedState { e.value = checked ? "checked" : "not checked" }

        let actionable = !flags.isDisjoint(with: Flags.actions)
        if flags.contains(.clickable) && !n.isEditable && !n.isAdjustableClass { e.traits.insert(.button) }
        if n.isAdjustableClass { e.traits.insert(.adjustable) }
        if !actionable {
            if n.kind == .image { e.traits.insert(.image) }
            if n.kind == .text { e.traits.insert(.staticText) }
        }
        if flags.contains(.selected) { e.traits.insert(.selected) }
        if flags.contains(.heading) { e.traits.insert(.header) }
        if flags.contains(.disabled) { e.traits.insert(.notEnabled) }
        if flags.contains(.longClickable) { e.customActions.append("Long press") }
        if flags.contains(.scrollable) { e.customActions.append(contentsOf: scrollActions) }
        e.respondsToUserInteraction = actionable || n.isEditable || n.isAdjustableClass
        return e
    }

    /// Appium's nested duplicates: an only child with the parent's bounds and the same words
    /// (content-desc or text) is the same view dumped twice; the parent keeps both's flags.
    static func collapseDuplicates(_ nodes: inout [RawNode]) {
        for k in nodes.indices {
            while nodes[k].children.count == 1, let f = nodes[k].frame, let l = nodes[k].contentDesc ?? nodes[k].text,
                  nodes[k].children[0].frame == f, (nodes[k].children[0].contentDesc ?? nodes[k].children[0].text) == l {
                let inner = nodes[k].children[0]
                nodes[k].flags.formUnion(inner.flags)
                nodes[k].resourceID = nodes[k].resourceID ?? inner.resourceID
                nodes[k].children = inner.children
            }
            collapseDuplicates(&nodes[k].children)
        }
    }
}
