import SwitchCore

/// AT-SPI → UIAccessibility: an application's accessible tree (plain `AtspiNode` values) to the
/// `ElementTree` the scanner reads. Pure; docs/desktop.md "The AT-SPI mapping" is this file.
///
/// Which nodes count (`kind`): a node that is not SHOWING and VISIBLE is hidden with its subtree
/// (unmapped pages, closed popups); an **element** is a node with an Action interface, a Value it
/// can be focused for (sliders, spin buttons), an EDITABLE one, a page tab, or an informative leaf
/// with a name (labels, headings, images, progress bars); everything else is a **container**
/// (windows, fillers, panels, lists, tables, tab lists), and a container with nothing to show
/// inside is dropped. Container roles keep being containers even when the toolkit gives them an
/// action: their actions become the container's custom actions (offered in the menu of every item
/// inside, performed on the container).
///
/// An element hides its descendants, as in UIKit, except descendants that can be operated
/// themselves (a combo box's entry, an entry's icon, a tab's page): those are lifted out and follow
/// the element in its container, a tab's page after the whole tab list. What is hidden gives its
/// words to an element that has no name of its own.
///
/// A container with one child and nothing of its own (no modality, no tab bar, no actions, not a
/// window) is replaced by that child: GTK nests boxes deeply, and a chain of them is one thing.
/// The structure depends only on roles, states, interfaces, names and children, never on what is
/// read afterwards (extents, actions, values), so the reader can decide what to fetch from a first
/// pass and build the tree after (`plannedIDs`).
public enum AtspiMapping {
    public enum Kind: Equatable, Sendable {
        case hidden, element, container
    }

    /// Roles that stay containers whatever interfaces they have.
    static let containerRoles: Set<AtspiRole> = [
        .application, .frame, .window, .dialog, .alert, .filler, .panel, .scrollPane, AtspiRole(rawValue: 68) /* viewport */,
        .pageTabList, .menuBar, .toolBar, .table, AtspiRole(rawValue: 65) /* tree */, AtspiRole(rawValue: 66) /* tree table */,
        .list, .listBox, AtspiRole(rawValue: 53) /* split pane */, AtspiRole(rawValue: 54) /* status bar */, .popupMenu,
        AtspiRole(rawValue: 82) /* document frame */, AtspiRole(rawValue: 95) /* document web */,
    ]

    /// Roles that are never collapsed into their only child: the windows a user switches between.
    static let windowRoles: Set<AtspiRole> = [.frame, .window, .dialog, .alert]

    /// Leaves that say something: elements when they have a name.
    static let informativeRoles: Set<AtspiRole> = [
        .label, .heading, .staticText, .paragraph, .caption, .icon, .image, .progressBar, .levelBar,
        .tableCell, .listItem, .treeItem, .columnHeader, .tableColumnHeader, .tableRowHeader, .rowHeader,
        .animation, .timer, .header,
    ]

    public static func kind(_ n: AtspiNode) -> Kind {
        if n.role == .application { return .container }
        guard n.states.contains(.showing), n.states.contains(.visible) else { return .hidden }
        if containerRoles.contains(n.role) { return .container }
        if n.role == .pageTab || n.interfaces.contains(.action) || n.states.contains(.editable) { return .element }
        if n.interfaces.contains(.value) && (n.states.contains(.focusable) || n.role == .progressBar || n.role == .levelBar) {
            return .element
        }
        if informativeRoles.contains(n.role), n.children.isEmpty, !n.name.trimmed.isEmpty { return .element }
        return .container
    }

    /// Whether a node, or something showing below it, can be operated by itself (would be a scan
    /// item): such descendants of an element are lifted out instead of absorbed.
    static func isOperable(_ n: AtspiNode) -> Bool {
        switch kind(n) {
        case .hidden: return false
        case .element:
            if n.role == .pageTab || n.interfaces.contains(.action) || n.states.contains(.editable) { return true }
            if n.interfaces.contains(.value) && n.states.contains(.focusable) { return true }
        case .container: break
        }
        return n.children.contains(where: isOperable)
    }

    /// The tree for `app` (an application node whose children are the windows to scan). `screen`
    /// is the X screen's size; frames are in its pixels.
    public static func tree(_ app: AtspiNode, screen: Size) -> ElementTree {
        var root: Element
        switch kind(app) {
        case .hidden:
            root = Element(id: app.id, isAccessibilityElement: false)
        case .container:
            root = container(app, children: app.children.flatMap { map($0) })
            root.isAccessibilityElement = false
        case .element:
            root = Element(id: app.id, isAccessibilityElement: false, children: map(app))
        }
        root.frame = nil
        _ = ElementTree.assignIDs(&root)
        return ElementTree(screen: screen, root: root)
    }

    /// The ids of the nodes `tree` keeps (elements and containers), without needing what is read
    /// after: the reader fetches extents, actions and values for these only.
    public static func plannedIDs(_ app: AtspiNode) -> Set<String> {
        var ids: Set<String> = [app.id]
        tree(app, screen: Size(width: 1, height: 1)).forEachNode { e, _ in ids.insert(e.id) }
        return ids
    }

    /// What `node` becomes in its parent's child list: nothing, one element or container, or an
    /// element followed by what was lifted out of it.
    static func map(_ n: AtspiNode) -> [Element] {
        switch kind(n) {
        case .hidden:
            return []
        case .element:
            var lifted: [Element] = []
            var absorbed: [AtspiNode] = []
            for c in n.children {
                if isOperable(c) { lifted += map(c) } else { absorbed.append(c) }
            }
            return [element(n, absorbed: absorbed)] + lifted
        case .container:
            var children: [Element] = []
            var after: [Element] = []
            for c in n.children {
                let mapped = map(c)
                if n.role == .pageTabList, c.role == .pageTab, let tab = mapped.first {
                    // A tab's page follows the tab list, not the tab: the tabs stay one tab bar.
                    children.append(tab)
                    after += mapped.dropFirst()
                } else {
                    children += mapped
                }
            }
            if children.isEmpty { return after }
            let e = container(n, children: children)
            let keep = e.viewIsModal || e.traits.contains(.tabBar) || !e.customActions.isEmpty || windowRoles.contains(n.role)
            if children.count == 1, !keep { return children + after }
            return [e] + after
        }
    }

    static func container(_ n: AtspiNode, children: [Element]) -> Element {
        let label = n.name.trimmed
        return Element(id: n.id, isAccessibilityElement: false, label: label.isEmpty ? nil : label,
                       traits: n.role == .pageTabList ? .tabBar : [], frame: n.extents?.frame,
                       customActions: uniqueNames(n.actions), viewIsModal: n.states.contains(.modal),
                       order: .reading, children: children)
    }

    /// One element: label from the name, else the labelled-by target, else the words of what it
    /// absorbed, else a field's placeholder; value from checked state, Value or the field's text; traits from role and states.
    static func element(_ n: AtspiNode, absorbed: [AtspiNode]) -> Element {
        let role = n.role
        var label = n.name.trimmed
        if label.isEmpty { label = (n.labelledBy ?? "").trimmed }
        if label.isEmpty { label = words(absorbed) }
        if label.isEmpty { label = (n.placeholder ?? "").trimmed }  // a field's placeholder, as UIKit does
        let value = valueText(n)
        var traits: Traits = []
        var responds: Bool?

        let editable = n.states.contains(.editable)
        let adjustable = n.interfaces.contains(.value) && n.states.contains(.focusable)
            && [AtspiRole.slider, .spinButton, .scrollBar, .dial].contains(role)
        if adjustable {
            traits.insert(.adjustable)
        } else if editable {
            if isSearchField(n, label: label) { traits.insert(.searchField) } else { responds = true }
        } else if role == .link {
            traits.insert(.link)
        } else if role == .pageTab || n.interfaces.contains(.action) {
            traits.insert(.button)
        }
        if adjustable && editable { responds = true }
        if [AtspiRole.label, .staticText, .paragraph, .caption].contains(role) || (role == .text && !editable) {
            traits.insert(.staticText)
        }
        if [AtspiRole.heading, .columnHeader, .tableColumnHeader, .tableRowHeader, .rowHeader].contains(role) {
            traits.insert(.header)
        }
        if role == .image || role == .icon { traits.insert(.image) }
        if [AtspiRole.progressBar, .levelBar, .animation, .timer].contains(role) { traits.insert(.updatesFrequently) }
        if n.states.contains(.selected) { traits.insert(.selected) }
        if !n.states.contains(.enabled) && !n.states.contains(.sensitive) { traits.insert(.notEnabled) }

        var hint = n.description.trimmed
        // GTK gives a slider's value text as its description ("50.0"): not a hint.
        if hint == label || hint == value || hint == n.value?.text?.trimmed || (n.value != nil && Double(hint) == n.value?.current) {
            hint = ""
        }
        let custom = n.actions.count > 1 ? uniqueNames(Array(n.actions.dropFirst())) : []
        // A field the keyboard types into (docs/typing.md): its kind from the password role and
        // the multi-line state; a spin button's text is a number, not a field to write in.
        var entry: Element.TextEntry?
        if editable && !adjustable {
            entry = role == .passwordText ? .password : (n.states.contains(.multiLine) ? .multiLine : .singleLine)
        }
        return Element(id: n.id, isAccessibilityElement: true, label: label.isEmpty ? nil : label,
                       value: value, hint: hint.isEmpty ? nil : hint, traits: traits, frame: n.extents?.frame,
                       customActions: custom, respondsToUserInteraction: responds, textEntry: entry)
    }

    /// Checked state as words (on/off for a toggle button, checked/not checked/mixed for check
    /// boxes and radio buttons), else the Value's text or number (a percentage for progress and
    /// level bars), else an editable field's text (never a password's), else expanded/collapsed.
    static func valueText(_ n: AtspiNode) -> String? {
        let s = n.states
        let checkable: Set<AtspiRole> = [.checkBox, .checkMenuItem, .radioButton, .radioMenuItem]
        if n.role == .toggleButton {
            return s.contains(.checked) || s.contains(.pressed) ? "on" : "off"
        }
        if checkable.contains(n.role) || s.contains(.checkable) || s.contains(.checked) {
            if s.contains(.indeterminate) { return "mixed" }
            return s.contains(.checked) ? "checked" : "not checked"
        }
        if let v = n.value {
            if let t = v.text?.trimmed, !t.isEmpty { return t }
            if (n.role == .progressBar || n.role == .levelBar) && v.maximum > v.minimum {
                return formatNumber(((v.current - v.minimum) / (v.maximum - v.minimum) * 100).rounded()) + "%"
            }
            return formatNumber((v.current * 100).rounded() / 100)
        }
        if n.role != .passwordText, let t = n.text?.trimmed, !t.isEmpty { return t }
        if s.contains(.expandable) { return s.contains(.expanded) ? "expanded" : "collapsed" }
        return nil
    }

    /// AT-SPI has no search-field role: an editable field whose label or placeholder speaks of
    /// searching, or one with GTK3's "edit-find-symbolic" icon inside.
    static func isSearchField(_ n: AtspiNode, label: String) -> Bool {
        if label.lowercased().contains("search") || (n.placeholder ?? "").lowercased().contains("search") { return true }
        return n.children.contains { $0.name == "edit-find-symbolic" }
    }

    /// The names of what an element absorbed, in order, joined with ", " (a repeat of the previous
    /// part dropped).
    static func words(_ nodes: [AtspiNode]) -> String {
        var parts: [String] = []
        for n in nodes {
            n.forEach { d in
                guard d.states.contains(.showing) else { return }
                let w = d.name.trimmed
                if !w.isEmpty, parts.last != w { parts.append(w) }
            }
        }
        return parts.joined(separator: ", ")
    }

    static func uniqueNames(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.map(\.trimmed).filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
