import SwitchCore

/// Chrome DevTools `Accessibility.getFullAXTree` results: `{"nodes": [AXNode…]}`, also inside a
/// protocol response (`{"id": 1, "result": {"nodes": …}}`) or as a bare array. Each AXNode has
/// `nodeId`, `ignored`, `role {value}`, `name {value}`, `value {value}`, `description {value}`,
/// `properties [{name, value {value}}]` and `childIds`. docs/formats.md has the role table; the rules:
///
/// - Ignored nodes are skipped and their children lifted into their place.
/// - Roles that are one control (button, link, textbox, checkbox, heading, img, StaticText…) are
///   one element whose children are absorbed; other roles expose their children.
/// - Properties: disabled → notEnabled, checked → value "checked"/"not checked"/"mixed",
///   pressed or selected → selected, expanded → value "expanded"/"collapsed" (when there is no
///   other value), hidden → elementsHidden, modal → viewIsModal; description → hint.
/// - The dump has no geometry: no frames, every container's order is `declared` (the DOM order
///   Chrome gives), activation goes by id (no activation point), the screen is 1280×800.
/// - `nodeId` is the id (node ids must be unique: children refer to them).
enum ChromeAXImporter {
    static let defaultScreen = Size(width: 1280, height: 800)

    /// The node array and its JSON path, if `json` looks like a getFullAXTree result.
    static func nodeList(_ json: JSONNode) -> (node: JSONNode, path: String)? {
        func isArray(_ n: JSONNode?) -> Bool { if case .array? = n?.value { return true }; return false }
        switch json.value {
        case .object:
            if let n = json["nodes"], isArray(n) { return (n, "nodes") }
            if let r = json["result"], let n = r["nodes"], isArray(n) { return (n, "result.nodes") }
            return nil
        case .array(let items):
            if let first = items.first, first["nodeId"] != nil { return (json, "") }
            return nil
        default:
            return nil
        }
    }

    struct RawNode {
        var nodeId: String
        var path: String
        var source: JSONNode
        var ignored = false
        var role = ""
        var name: String?
        var value: String?
        var description: String?
        var childIds: [(id: String, path: String, node: JSONNode)] = []
        var disabled = false
        var hidden = false
        var modal = false
        var selected = false
        var checked: String?
        var expanded: Bool?
    }

    static func decode(_ json: JSONNode, reader r: JSONReader, limits: ReaderLimits = .standard) throws(InputError) -> ImportedTree {
        guard let (list, listPath) = nodeList(json) else {
            throw r.error(json, "", "expected a \"nodes\" array (Chrome DevTools Accessibility.getFullAXTree)")
        }
        let items = try r.array(list, listPath)
        guard !items.isEmpty else { throw r.error(list, listPath, "no nodes: the dump is empty") }
        if items.count > limits.treeElements {
            throw r.error(items[limits.treeElements], r.join(listPath, limits.treeElements), limits.tooManyElements())
        }

        var nodes: [RawNode] = []
        nodes.reserveCapacity(items.count)
        var index: [String: Int] = [:]
        for (k, item) in items.enumerated() {
            let n = try rawNode(item, r.join(listPath, k), r)
            if let earlier = index[n.nodeId] {
                throw r.error(item, r.join(n.path, "nodeId"), "nodeId \"\(n.nodeId)\" appears twice (first at \(nodes[earlier].path)); children refer to nodes by id, so ids must be unique")
            }
            index[n.nodeId] = nodes.count
            nodes.append(n)
        }

        var referenced = Set<String>()
        var missing = 0
        for n in nodes {
            for c in n.childIds {
                if index[c.id] == nil { missing += 1 } else { referenced.insert(c.id) }
            }
        }
        let roots = nodes.indices.filter { !referenced.contains(nodes[$0].nodeId) }
        guard !roots.isEmpty else {
            throw r.error(list, listPath, "every node is some node's child: the childIds form a cycle, there is no root")
        }

        var builder = Builder(nodes: nodes, index: index, reader: r)
        var top: [Element] = []
        for k in roots { top += try builder.convert(k, depth: 0) }
        var root = ImportSupport.singleRoot(top)
        root.order = .declared

        var notes = ["a Chrome DevTools dump has no geometry: no frames, dump order, activation by id, screen set to \(formatNumber(defaultScreen.width))×\(formatNumber(defaultScreen.height))"]
        if missing > 0 {
            notes.append("\(missing) childIds name nodes that are not in the dump (a depth-limited dump?); skipped")
        }
        return ImportedTree(format: .chromeAXTree, tree: ImportSupport.finish(consume root, screen: defaultScreen), notes: notes)
    }

    /// One AXNode; unknown keys are ignored (the protocol grows), known ones are type-checked.
    static func rawNode(_ item: JSONNode, _ path: String, _ r: JSONReader) throws(InputError) -> RawNode {
        guard case .object = item.value else { throw r.error(item, path, "expected an AXNode object, found \(item.kindDescription)") }
        guard let idNode = item["nodeId"] else { throw r.error(item, path, "missing key \"nodeId\"") }
        let nodeId: String
        switch idNode.value {
        case .string(let s): nodeId = s
        case .number(let d): nodeId = formatNumber(d)
        default: throw r.error(idNode, r.join(path, "nodeId"), "expected a string, found \(idNode.kindDescription)")
        }
        var n = RawNode(nodeId: nodeId, path: path, source: item)
        if let v = item["ignored"] { n.ignored = try r.bool(v, r.join(path, "ignored")) }
        if let v = item["role"] { n.role = try axString(v, r.join(path, "role"), r) ?? "" }
        if let v = item["name"] { n.name = ImportSupport.nonEmpty(try axString(v, r.join(path, "name"), r)) }
        if let v = item["value"] { n.value = ImportSupport.nonEmpty(try axString(v, r.join(path, "value"), r)) }
        if let v = item["description"] { n.description = ImportSupport.nonEmpty(try axString(v, r.join(path, "description"), r)) }
        if let v = item["childIds"] {
            let p = r.join(path, "childIds")
            for (k, c) in try r.array(v, p).enumerated() {
                switch c.value {
                case .string(let s): n.childIds.append((s, r.join(p, k), c))
                case .number(let d): n.childIds.append((formatNumber(d), r.join(p, k), c))
                default: throw r.error(c, r.join(p, k), "expected a node id (a string), found \(c.kindDescription)")
                }
            }
        }
        if let v = item["properties"] {
            let p = r.join(path, "properties")
            for (k, prop) in try r.array(v, p).enumerated() {
                let pp = r.join(p, k)
                guard case .object = prop.value else { throw r.error(prop, pp, "expected a property object, found \(prop.kindDescription)") }
                guard let nameNode = prop["name"] else { throw r.error(prop, pp, "missing key \"name\"") }
                let name = try r.string(nameNode, r.join(pp, "name"))
                let value = prop["value"].flatMap { $0["value"] }
                switch name {
                case "disabled": n.disabled = truthy(value) == true
                case "hidden": n.hidden = truthy(value) == true
                case "modal": n.modal = truthy(value) == true
                case "selected": n.selected = n.selected || truthy(value) == true
                case "pressed": n.selected = n.selected || truthy(value) == true
                case "expanded": n.expanded = truthy(value)
                case "checked":
                    switch value.map(scalarText) ?? nil {
                    case "true"?: n.checked = "checked"
                    case "false"?: n.checked = "not checked"
                    case "mixed"?: n.checked = "mixed"
                    default: break
                    }
                default: break
                }
            }
        }
        return n
    }

    /// An AXValue's `value` as text: `{"type": "computedString", "value": "OK"}` → "OK".
    static func axString(_ v: JSONNode, _ path: String, _ r: JSONReader) throws(InputError) -> String? {
        guard case .object = v.value else { throw r.error(v, path, "expected an AXValue object ({\"type\": …, \"value\": …}), found \(v.kindDescription)") }
        guard let inner = v["value"] else { return nil }
        return scalarText(inner)
    }

    static func scalarText(_ v: JSONNode) -> String? {
        switch v.value {
        case .string(let s): return s
        case .number(let d): return formatNumber(d)
        case .bool(let b): return b ? "true" : "false"
        default: return nil
        }
    }

    /// A property's AXValue `value` as a flag, by its truthiness as CDP (JavaScript) has it: a
    /// boolean as itself, a number unless 0, a string unless empty, arrays and objects true. CDP
    /// writes its tristate and booleanOrUndefined values as strings, so "false" is false and
    /// "undefined" is not given (nil), as is null. (`disabled: {"value": "yes"}` counted as
    /// enabled: issue 32.)
    static func truthy(_ v: JSONNode?) -> Bool? {
        switch v?.value {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        case .number(let d)?: return d != 0
        case .string("undefined")?: return nil
        case .string(let s)?: return !s.isEmpty && s != "false"
        case .array?, .object?: return true
        }
    }

    struct Builder {
        let nodes: [RawNode]
        let index: [String: Int]
        let reader: JSONReader
        var placedBy: [Int: String] = [:]

        init(nodes: [RawNode], index: [String: Int], reader: JSONReader) {
            self.nodes = nodes
            self.index = index
            self.reader = reader
        }

        /// The children of `k` that are in the dump, each placed once (a second parent is a cycle
        /// or a shared node: an error naming both).
        mutating func children(of k: Int) throws(InputError) -> [Int] {
            var out: [Int] = []
            for c in nodes[k].childIds {
                guard let j = index[c.id] else { continue }
                if let first = placedBy[j] {
                    throw reader.error(c.node, c.path, "node \"\(c.id)\" is already the child of \(first); a node has one parent (a cycle in childIds?)")
                }
                placedBy[j] = "node \"\(nodes[k].nodeId)\" (\(c.path))"
                out.append(j)
            }
            return out
        }

        mutating func convert(_ k: Int, depth: Int) throws(InputError) -> [Element] {
            let n = nodes[k]
            guard depth < ImportSupport.maxDepth else {
                throw reader.error(n.source, n.path, "nodes nested deeper than \(ImportSupport.maxDepth) levels")
            }
            let kids = try children(of: k)
            if n.ignored {
                var lifted: [Element] = []
                for c in kids { lifted += try convert(c, depth: depth + 1) }
                return lifted
            }
            let role = ChromeRole.table[n.role] ?? ChromeRole.generic
            if role.kind == .skip { return [] }

            var e = Element(id: n.nodeId, label: n.name, value: n.value, hint: n.description, order: .declared)
            e.traits = role.traits
            if n.disabled { e.traits.insert(.notEnabled) }
            if n.selected { e.traits.insert(.selected) }
            e.elementsHidden = n.hidden
            e.viewIsModal = n.modal
            e.respondsToUserInteraction = role.respondsToUserInteraction
            if e.value == nil { e.value = n.checked }
            if e.value == nil, let x = n.expanded { e.value = x ? "expanded" : "collapsed" }

            if role.kind == .element {
                e.isAccessibilityElement = true
                if e.label == nil {
                    var parts: [String] = []
                    try words(of: kids, into: &parts, depth: depth + 1)
                    e.label = ImportSupport.joinLabels(parts)
                }
            } else {
                // A trait on a container (tablist's tabBar) must not turn an empty one into a stop.
                if !role.traits.isEmpty { e.isAccessibilityElement = false }
                for c in kids { e.children += try convert(c, depth: depth + 1) }
            }
            if e.value == e.label { e.value = nil }
            return [e]
        }

        /// The names of absorbed descendants (the first named node on each branch).
        mutating func words(of kids: [Int], into parts: inout [String], depth: Int) throws(InputError) {
            for c in kids {
                let n = nodes[c]
                guard depth < ImportSupport.maxDepth else {
                    throw reader.error(n.source, n.path, "nodes nested deeper than \(ImportSupport.maxDepth) levels")
                }
                let grandchildren = try children(of: c)
                if n.hidden { continue }
                if !n.ignored, let name = n.name, ChromeRole.table[n.role]?.kind != .skip {
                    parts.append(name)
                    continue
                }
                try words(of: grandchildren, into: &parts, depth: depth + 1)
            }
        }
    }
}

/// How a Chrome role maps onto the model (docs/formats.md "Chrome DevTools").
struct ChromeRole: Sendable {
    enum Kind: Sendable {
        /// One element, children absorbed.
        case element
        /// Exposes its children (a leaf with a name is an element by the default rule).
        case container
        /// Inline text boxes and line breaks: their parent already says their words.
        case skip
    }

    var kind: Kind
    var traits: Traits = []
    var respondsToUserInteraction: Bool? = nil

    static let generic = ChromeRole(kind: .container)

    static let table: [String: ChromeRole] = {
        var t: [String: ChromeRole] = [:]
        for role in ["button", "PopUpButton", "DisclosureTriangle", "ToggleButton", "menuitem", "menuitemcheckbox",
                     "menuitemradio", "option", "MenuListOption", "treeitem", "tab", "checkbox", "radio", "switch"] {
            t[role] = ChromeRole(kind: .element, traits: .button)
        }
        t["link"] = ChromeRole(kind: .element, traits: .link)
        t["searchbox"] = ChromeRole(kind: .element, traits: .searchField)
        for role in ["textbox", "TextField", "combobox", "ComboBoxGrouping", "ComboBoxMenuButton", "TextFieldWithComboBox",
                     "DateTime", "InputTime", "date", "time"] {
            t[role] = ChromeRole(kind: .element, respondsToUserInteraction: true)
        }
        for role in ["slider", "spinbutton", "scrollbar"] {
            t[role] = ChromeRole(kind: .element, traits: .adjustable)
        }
        t["heading"] = ChromeRole(kind: .element, traits: .header)
        for role in ["img", "image", "graphics-symbol"] {
            t[role] = ChromeRole(kind: .element, traits: .image)
        }
        t["StaticText"] = ChromeRole(kind: .element, traits: .staticText)
        for role in ["progressbar", "meter", "timer"] {
            t[role] = ChromeRole(kind: .element, traits: .updatesFrequently)
        }
        for role in ["InlineTextBox", "LineBreak", "ListMarker"] {
            t[role] = ChromeRole(kind: .skip)
        }
        t["tablist"] = ChromeRole(kind: .container, traits: .tabBar)
        return t
    }()
}
