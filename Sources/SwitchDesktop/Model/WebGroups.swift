import SwitchCore

/// What a web page's structure becomes (pure; part of `AtspiMapping`, docs/desktop.md "Web pages").
///
/// A page is thousands of nodes, most of them wrappers (divs, paragraphs, list items) that a
/// person does not see as parts. ChromeOS Switch Access scans the page by landmarks and lists;
/// so does this: a **group** is a landmark (banner, navigation, main, contentinfo, complementary,
/// region), a form, a list, a table, a dialog, an article, a named grouping (a fieldset with its
/// legend) or a section with a heading, and the document itself, when it holds at least two scan
/// items (a group of one costs a press and narrows nothing). Its label is its name, else its first
/// heading's; its children stay in document order (an item scrolled out of view has no frame to
/// order it by, and the page's order is the order its author meant). Every other container gives
/// its children to its parent. A modal dialog stays a container whatever it holds: only it is
/// scanned while it is open.
///
/// List bullets and ordered-list markers ("•", "1.") are the list's decoration, never elements.
enum WebGroups {
    /// Roles that are a group whatever their name.
    static let groupRoles: Set<AtspiRole> = [
        .landmark, .form, .list, .listBox, .table, .tree, .treeTable, .dialog, .alert, .article, .descriptionList,
        .documentWeb, .documentFrame, .log,
    ]

    /// Roles that are a group when named or headed by a heading (a fieldset, an ARIA region, a
    /// `<section>`).
    static let namedGroupRoles: Set<AtspiRole> = [.grouping, .panel, .section, .blockQuote, .filler]

    static func container(_ n: AtspiNode, children: [Element], _ context: AtspiMapping.Context) -> [Element] {
        let modal = n.states.contains(.modal)
        let label = n.name.trimmed.isEmpty ? headingLabel(children) : AtspiMapping.capped(n.name.trimmed)
        let grouped = groupRoles.contains(n.role) || (namedGroupRoles.contains(n.role) && label != nil)
        let group = grouped && scanItems(children, atLeast: 2)
        // A page with something out of view scrolls (the Scroll page pages it): it stays a
        // container even when it is too small to be a group.
        let scrolls = DesktopReader.isDocument(n.role) && n.first { $0.inDocument && !$0.states.contains(.showing) } != nil
        guard modal || group || scrolls else { return children }
        return [Element(id: n.id, isAccessibilityElement: false, label: label, frame: AtspiMapping.frame(n, context, edge: true),
                        viewIsModal: modal, shouldGroupChildren: group || modal, order: .declared, scrollable: scrolls, children: children)]
    }

    /// The label of the part's own heading: the first heading among `elements`, or inside a
    /// wrapper that is not a group (a heading inside an inner group is that group's).
    static func headingLabel(_ elements: [Element]) -> String? {
        for e in elements {
            if e.isElement {
                if e.traits.contains(.header), let l = e.label?.trimmed, !l.isEmpty { return l }
            } else if !e.shouldGroupChildren, let l = headingLabel(e.children) {
                return l
            }
        }
        return nil
    }

    /// Whether `elements` hold at least `n` scan items.
    static func scanItems(_ elements: [Element], atLeast n: Int) -> Bool {
        var count = 0
        var stack = elements
        while let e = stack.popLast() {
            if e.isElement {
                if e.isScanItem { count += 1; if count >= n { return true } }
            } else {
                stack += e.children
            }
        }
        return false
    }

    static let bulletCharacters: Set<Character> = ["•", "◦", "▪", "▫", "‣", "⁃", "○", "●", "■", "□", "-", "–", "*", "·"]

    /// A list item's marker ("•", "◦", "1.", "iv.", "a)") inside a web document.
    static func isBullet(_ n: AtspiNode) -> Bool {
        guard n.inDocument, n.children.isEmpty, n.role == .staticText || n.role == .text || n.role == .label else { return false }
        let s = n.name.trimmed
        guard !s.isEmpty, s.count <= 6 else { return false }
        if s.allSatisfy({ bulletCharacters.contains($0) }) { return true }
        // "1." "12)" "a." "iv."
        guard let last = s.last, last == "." || last == ")" else { return false }
        let body = s.dropLast()
        if body.isEmpty { return false }
        if body.allSatisfy(\.isNumber) { return true }
        if body.count == 1 { return body.allSatisfy { $0.isLetter && $0.isASCII } }
        return body.count <= 4 && body.allSatisfy { "ivxlcdmIVXLCDM".contains($0) }
    }
}
