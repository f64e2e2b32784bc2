import SwitchCore

/// AT-SPI → UIAccessibility: an application's accessible tree (plain `AtspiNode` values) to the
/// `ElementTree` the scanner reads. Pure; docs/desktop.md "The AT-SPI mapping" is this file.
///
/// Which nodes count (`kind`): a node that is not SHOWING and VISIBLE is hidden with its subtree
/// (unmapped pages, closed popups); inside a web document (`AtspiNode.inDocument`) VISIBLE is
/// enough: a node scrolled out of the viewport is not SHOWING but is still on the page (the web
/// reader leaves out the collapsed and hidden ones). An **element** is an interactive role (push,
/// toggle, check, radio, link, combo box, menu item, page tab, slider …) with an action or the
/// focus, any other node with an Action interface (except text: labels, paragraphs, headings,
/// static text; and, in a web document, structure such as sections, list items and landmarks,
/// unless they take the focus: Chromium gives every node an action), a Value it can be focused
/// for (sliders, spin buttons), an EDITABLE one, a page tab, or an informative leaf with a name
/// (labels, headings, images, progress bars); everything else is a **container** (windows,
/// fillers, panels, lists, tables, tab lists), and a container with nothing to show inside is
/// dropped. Container roles keep being containers even when the toolkit gives them an action:
/// their actions become the container's custom actions (offered in the menu of every item
/// inside, performed on the container).
///
/// An element hides its descendants, as in UIKit, except descendants that can be operated
/// themselves (a combo box's entry, an entry's icon, a tab's page): those are lifted out and follow
/// the element in its container, a tab's page after the whole tab list. What is hidden gives its
/// words to an element that has no name of its own.
///
/// A container with one child and nothing of its own (no modality, no tab bar, no actions, not a
/// window) is replaced by that child: GTK nests boxes deeply, and a chain of them is one thing.
///
/// In a web document (`WebGroups`) only what a person sees as a part of the page is a container:
/// landmarks, forms, lists, tables, dialogs, named groupings and sections with a heading, each a
/// group in document order when it holds at least two scan items; every other wrapper (div,
/// paragraph, list item) gives its children to its parent. Frames are clipped to the document's
/// viewport; an element outside it has none (it is reached by scrolling it into view).
///
/// GTK 4 gives extents relative to the window (every toolkit does on Wayland): a window node
/// carrying `windowOrigin` has every extent below it moved by that much (`screenExtents`); GTK
/// 4.8's buttons are grown from their content box to their border box (`buttonPadding`).
///
/// The structure depends only on roles, states, interfaces, names and children, never on what is
/// read afterwards (extents, actions, values), so the reader can decide what to fetch from a first
/// pass and build the tree after (`plannedIDs`).
public enum AtspiMapping {
    public enum Kind: Equatable, Sendable {
        case hidden, element, container
    }

    /// Roles that stay containers whatever interfaces they have.
    static let containerRoles: Set<AtspiRole> = [
        .application, .frame, .window, .dialog, .alert, .filler, .panel, .scrollPane, .viewport,
        .pageTabList, .menuBar, .toolBar, .table, .tree, .treeTable, .list, .listBox, .splitPane, .statusBar, .popupMenu,
        .documentFrame, .documentWeb, .documentText, .internalFrame, .embedded, .form, .landmark, .article, .tableRow,
        .descriptionList, .grouping, .blockQuote, .log, .notification,
    ]

    /// Roles that are operated: an element when they have an action or take the focus.
    static let interactiveRoles: Set<AtspiRole> = [
        .pushButton, .toggleButton, .checkBox, .radioButton, .link, .comboBox, .menuItem, .checkMenuItem,
        .radioMenuItem, .menu, .pageTab, .slider, .spinButton, .dial, .pushButtonMenu, .entry,
    ]

    /// Roles that hold text: never an element because of an action (GTK 4's labels list clipboard
    /// actions, Chromium's static text "doDefault" or "clickAncestor", Firefox's label "click").
    static let textRoles: Set<AtspiRole> = [
        .label, .staticText, .paragraph, .heading, .caption, .header, .footer, AtspiRole(rawValue: 1) /* accelerator label */,
    ]

    /// A web page's structure: an element because of an action only when it takes the focus (a
    /// clickable, focusable div); Chromium gives every node an action.
    static let webStructureRoles: Set<AtspiRole> = [
        .section, .listItem, .descriptionTerm, .descriptionValue, .definition, .footnote, .image, .tableCell, .caption,
        AtspiRole(rawValue: 86) /* redundant object */, AtspiRole(rawValue: 113) /* math */,
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
        if n.inDocument {
            // On the page: scrolled out of view is not hidden (the web reader left out the rest).
            guard n.states.contains(.visible) else { return .hidden }
            if WebGroups.isBullet(n) { return .hidden }
        } else {
            guard n.states.contains(.showing), n.states.contains(.visible) else { return .hidden }
        }
        if containerRoles.contains(n.role) { return .container }
        if n.role == .pageTab || n.states.contains(.editable) { return .element }
        let action = n.interfaces.contains(.action)
        if interactiveRoles.contains(n.role) {
            // GTK 4.8's check buttons have no action; its menu button's outer button has none
            // and no focus (its inner button is the one).
            if action || n.states.contains(.focusable) { return .element }
        } else if textRoles.contains(n.role) || (n.role == .text && !n.states.contains(.editable)) {
            // Text is read, never operated by itself.
        } else if (n.inDocument && webStructureRoles.contains(n.role)) || n.role == .section {
            // Firefox's own window is a web page too: its sections say "click" or "clickAncestor".
            if action && n.states.contains(.focusable) { return .element }
        } else if n.role == .separator {
            // Firefox's toolbar springs are separators that say "clickAncestor".
        } else if action {
            return .element
        }
        if n.interfaces.contains(.value) && (n.states.contains(.focusable) || n.role == .progressBar || n.role == .levelBar) {
            return .element
        }
        if informativeRoles.contains(n.role), n.children.isEmpty, !n.name.trimmed.isEmpty { return .element }
        // A heading is one thing to read, its text inside it (a link in it is lifted out).
        if n.role == .heading, !n.name.trimmed.isEmpty { return .element }
        return .container
    }

    /// Whether a node, or something showing below it, can be operated by itself (would be a scan
    /// item): such descendants of an element are lifted out instead of absorbed.
    static func isOperable(_ n: AtspiNode) -> Bool {
        switch kind(n) {
        case .hidden: return false
        case .element:
            if n.role == .pageTab || n.states.contains(.editable) { return true }
            if interactiveRoles.contains(n.role) { return true }
            if n.interfaces.contains(.action) && !textRoles.contains(n.role) { return true }
            if n.interfaces.contains(.value) && n.states.contains(.focusable) { return true }
        case .container: break
        }
        return n.children.contains(where: isOperable)
    }

    /// What a node's mapping needs from above it: where the document's viewport is (frames are
    /// clipped to it) and the nearest frame (Firefox's document has no extents of its own).
    struct Context {
        var viewport: Rect?
        var nearestFrame: Rect?
    }

    /// The tree for `app` (an application node whose children are the windows to scan). `screen`
    /// is the X screen's size; frames are in its pixels.
    public static func tree(_ app: AtspiNode, screen: Size) -> ElementTree {
        let app = screenExtents(app)
        var root: Element
        let context = Context()
        switch kind(app) {
        case .hidden:
            root = Element(id: app.id, isAccessibilityElement: false)
        case .container:
            root = container(app, children: app.children.flatMap { map($0, context) }, context)
            root.isAccessibilityElement = false
        case .element:
            root = Element(id: app.id, isAccessibilityElement: false, children: map(app, context))
        }
        root.frame = nil
        _ = ElementTree.assignIDs(&root)
        return ElementTree(screen: screen, root: root)
    }

    /// `app` with the extents below each window that has a `windowOrigin` moved by it (GTK 4's
    /// window-relative extents made screen-relative).
    public static func screenExtents(_ app: AtspiNode) -> AtspiNode {
        guard app.children.contains(where: { $0.windowOrigin != nil || $0.buttonPadding != nil }) else { return app }
        var app = app
        for k in app.children.indices {
            if let p = app.children[k].buttonPadding { Gtk4Quirks.padButtons(&app.children[k], by: p, within: nil) }
            guard let o = app.children[k].windowOrigin else { continue }
            app.children[k].shiftExtents(dx: o.x, dy: o.y)
        }
        return app
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
    static func map(_ n: AtspiNode, _ outer: Context) -> [Element] {
        var context = outer
        if let f = n.extents?.frame { context.nearestFrame = f }
        if n.role == .documentWeb || n.role == .documentFrame {
            // Firefox's document says (-1, -1, -1, -1): its frame is the browser's content area.
            context.viewport = n.extents?.frame ?? outer.nearestFrame
        }
        switch kind(n) {
        case .hidden:
            return []
        case .element:
            var lifted: [Element] = []
            var absorbed: [AtspiNode] = []
            for c in n.children {
                if isOperable(c) { lifted += map(c, context) } else { absorbed.append(c) }
            }
            return [element(n, absorbed: absorbed, context)] + lifted
        case .container:
            var children: [Element] = []
            var after: [Element] = []
            for c in n.children {
                let mapped = map(c, context)
                if n.role == .pageTabList, c.role == .pageTab, let tab = mapped.first {
                    // A tab's page follows the tab list, not the tab: the tabs stay one tab bar.
                    children.append(tab)
                    after += mapped.dropFirst()
                } else {
                    children += mapped
                }
            }
            if children.isEmpty { return after }
            if n.inDocument { return WebGroups.container(n, children: children, context) + after }
            var e = container(n, children: children, context)
            if e.scrollable, let stop = autoScrollStop(n, context) { e.children.append(stop) }
            let keep = e.viewIsModal || e.traits.contains(.tabBar) || !e.customActions.isEmpty || windowRoles.contains(n.role) || e.scrollable
            if children.count == 1, !keep { return children + after }
            return [e] + after
        }
    }

    static func container(_ n: AtspiNode, children: [Element], _ context: Context) -> Element {
        let label = capped(n.name.trimmed)
        return Element(id: n.id, isAccessibilityElement: false, label: label.isEmpty ? nil : label,
                       traits: n.role == .pageTabList ? .tabBar : [], frame: frame(n, context),
                       // A container's plain "click" (Firefox's frames) does nothing a person wants.
                       customActions: uniqueNames(n.actions).filter { !nonActions.contains($0) && !activationVerbs.contains($0.lowercased()) },
                       viewIsModal: n.states.contains(.modal),
                       order: .reading, scrollable: n.role == .scrollPane, children: children)
    }

    /// The id suffix of a scroll pane's "Scroll down" stop (`autoScrollStop`).
    public static let scrollDownSuffix = "#scroll-down"

    /// Android's auto-scroll: a "Scroll down" stop after the last row of a scroll pane whose
    /// content goes on below it (GTK's and Qt's views put no rows out of view on the bus), so one
    /// switch reaches every row: choosing it pages the pane down (`DesktopPerformPlan`). Its
    /// frame is the pane's bottom edge, so it comes last in reading order.
    static func autoScrollStop(_ pane: AtspiNode, _ context: Context) -> Element? {
        guard let f = frame(pane, context), f.height > 0 else { return nil }
        var below = false
        for c in pane.children where c.states.contains(.showing) && c.role != .scrollBar {
            if let e = c.extents?.frame, e.maxY > f.maxY + 1 { below = true }
        }
        guard below else { return nil }
        return Element(id: pane.id + scrollDownSuffix, isAccessibilityElement: true, label: "Scroll down", traits: .button,
                       frame: Rect(x: f.x, y: f.maxY - 1, width: f.width, height: 1))
    }

    /// A node's frame: its extents, clipped to the web document's viewport (nil outside it, or
    /// when it is not SHOWING there: scrolled out of view). A part of a page entirely above or
    /// below the viewport (`edge`) gets a line of no height along that edge of the viewport: where
    /// the overlay shows its tab (`OffscreenTab`), and no place to click.
    static func frame(_ n: AtspiNode, _ context: Context, edge: Bool = false) -> Rect? {
        guard let f = n.extents?.frame else { return nil }
        guard n.inDocument, let v = context.viewport else { return f }
        guard n.states.contains(.showing) || n.role == .documentWeb || n.role == .documentFrame, f.intersects(v) else {
            guard edge else { return nil }
            if f.maxY <= v.minY { return Rect(x: v.minX, y: v.minY, width: v.width, height: 0) }
            if f.minY >= v.maxY { return Rect(x: v.minX, y: v.maxY, width: v.width, height: 0) }
            return nil
        }
        let x0 = max(f.minX, v.minX), y0 = max(f.minY, v.minY)
        return Rect(x: x0, y: y0, width: min(f.maxX, v.maxX) - x0, height: min(f.maxY, v.maxY) - y0)
    }

    /// One element: label from the name, else the labelled-by target, else the words of what it
    /// absorbed, else a field's placeholder; value from checked state, Value or the field's text; traits from role and states.
    static func element(_ n: AtspiNode, absorbed: [AtspiNode], _ context: Context) -> Element {
        let role = n.role
        var label = n.name.trimmed
        if label.isEmpty { label = (n.labelledBy ?? "").trimmed }
        if label.isEmpty { label = words(absorbed) }
        if label.isEmpty { label = (n.placeholder ?? "").trimmed }  // a field's placeholder, as UIKit does
        let value = valueText(n)
        var traits: Traits = []
        var responds: Bool?

        let editable = n.states.contains(.editable)
        let adjustable = isAdjustable(n)
        let operable = interactiveRoles.contains(role) || (n.interfaces.contains(.action) && !textRoles.contains(role)
            && !(role == .text && !editable))
        if adjustable {
            traits.insert(.adjustable)
        } else if editable {
            if isSearchField(n, label: label) { traits.insert(.searchField) } else { responds = true }
        } else if role == .terminal {
            responds = true  // a field to type in (VTE's has Text but no EditableText and no EDITABLE state)
        } else if role == .link {
            traits.insert(.link)
        } else if role == .pageTab || operable {
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
        // Text offers nothing to do; nor does what a browser lists on every node.
        var custom = n.actions.count > 1 && operable ? uniqueNames(Array(n.actions.dropFirst())).filter { !nonActions.contains($0) } : []
        // A second way to activate it (Firefox's links "jump" and "click") is Tap again.
        if let first = n.actions.first, activationVerbs.contains(first.lowercased()) {
            custom.removeAll { activationVerbs.contains($0.lowercased()) }
        }
        // A field the keyboard types into (docs/typing.md): its kind from the password role and
        // the multi-line state; a spin button's text is a number, not a field to write in; a
        // terminal takes lines of text (through key events: it has no EditableText).
        var entry: Element.TextEntry?
        if editable && !adjustable {
            entry = role == .passwordText ? .password : (n.states.contains(.multiLine) ? .multiLine : .singleLine)
        } else if role == .terminal {
            entry = .terminal
        }
        return Element(id: n.id, isAccessibilityElement: true, label: label.isEmpty ? nil : capped(label),
                       value: value.map(capped), hint: hint.isEmpty ? nil : capped(hint), traits: traits, frame: frame(n, context),
                       customActions: custom, respondsToUserInteraction: responds, textEntry: entry)
    }

    /// Checked state as words (on/off for a toggle button, checked/not checked/mixed for check
    /// boxes and radio buttons), else the Value's text or number (a percentage for progress and
    /// level bars), else an editable field's text (never a password's), else expanded/collapsed.
    static func valueText(_ n: AtspiNode) -> String? {
        let s = n.states
        let checkable: Set<AtspiRole> = [.checkBox, .checkMenuItem, .radioButton, .radioMenuItem]
        if n.role == .toggleButton {
            // A disclosure (a web page's <summary>) is open or closed, not on or off.
            if s.contains(.expandable) { return s.contains(.expanded) ? "expanded" : "collapsed" }
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
        if n.role != .passwordText, n.role != .terminal, let t = n.text?.trimmed, !t.isEmpty { return t }
        if s.contains(.expandable) { return s.contains(.expanded) ? "expanded" : "collapsed" }
        return nil
    }

    /// A field the keyboard types into: editable text that is not a number to adjust, or a
    /// terminal (docs/typing.md).
    public static func isFieldToTypeIn(_ n: AtspiNode) -> Bool {
        if n.role == .terminal { return true }
        return n.states.contains(.editable) && !isAdjustable(n)
    }

    /// A number to move with increment and decrement (a slider, a spin button, a scroll bar, a dial).
    static func isAdjustable(_ n: AtspiNode) -> Bool {
        n.interfaces.contains(.value) && n.states.contains(.focusable) && [AtspiRole.slider, .spinButton, .scrollBar, .dial].contains(n.role)
    }

    /// AT-SPI has no search-field role: an editable field whose label or placeholder speaks of
    /// searching, or one with GTK3's "edit-find-symbolic" icon inside.
    static func isSearchField(_ n: AtspiNode, label: String) -> Bool {
        if label.lowercased().contains("search") || (n.placeholder ?? "").lowercased().contains("search") { return true }
        return n.children.contains { $0.name == "edit-find-symbolic" }
    }

    /// The names of what an element absorbed, in order, joined with ", " (a repeat of the previous
    /// part dropped, a list bullet left out).
    static func words(_ nodes: [AtspiNode]) -> String {
        var parts: [String] = []
        for n in nodes {
            n.forEach { d in
                guard d.states.contains(.showing) || (d.inDocument && d.states.contains(.visible)), !WebGroups.isBullet(d) else { return }
                let w = d.name.trimmed
                if !w.isEmpty, parts.last != w { parts.append(w) }
            }
        }
        return parts.joined(separator: ", ")
    }

    /// What browsers list as an action of every node: nothing to offer in a menu (the
    /// Gestures page has the right click a context menu needs).
    static let nonActions: Set<String> = ["showContextMenu", "doDefault", "clickAncestor"]

    /// Names of an element's plain activation: a second one of them is not a custom action.
    static let activationVerbs: Set<String> = ["click", "press", "activate", "jump"]

    /// Words an application gives are at most this many characters in a label, value or hint
    /// (docs/desktop.md "Bounds"): a 10 MB name is read as its first thousand characters and "…".
    static let wordLimit = 1000

    static func capped(_ s: String) -> String {
        guard s.count > wordLimit else { return s }
        return String(s.prefix(wordLimit)) + "…"
    }

    static func uniqueNames(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.map(\.trimmed).filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
