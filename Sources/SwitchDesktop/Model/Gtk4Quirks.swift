/// What GTK 4's own AT-SPI bridge says differently, made to read like GTK 3 before the mapping
/// (pure; the reader applies it to applications whose toolkit is GTK 4; docs/desktop.md "GTK 4").
///
/// Seen with GTK 4.8 (Debian 12: gnome-calculator 43, gnome-text-editor 43, gtk4-widget-factory):
///
/// - **No SHOWING below the window.** Everything is VISIBLE, with extents, and never SHOWING, so
///   the mapping's hidden rule would drop every widget. Where the toolkit sets no SHOWING on any
///   node below its windows, a node is showing when it is VISIBLE, its parent is showing, its
///   extent is not empty and lies (at least partly) inside its window, and it is not in a hidden
///   stack page. A toolkit that sets SHOWING below its windows (newer GTK 4) is left alone.
/// - **Hidden stack pages.** A GtkStack's pages are children laid out on the same rectangle (its
///   `GetChildren` lists the pages' widgets, not the `GtkStackPage` objects `GetChildAtIndex`
///   gives); a page never shown has an empty extent, but one shown before keeps its extent when
///   another page is shown. The page that shows is the one the toolkit's own hit test
///   (`Component.GetAccessibleAtPoint` of the window at the pages' centre) lands in (`picks`);
///   without an answer, every page with something laid out stays.
/// - **Type names.** An unnamed widget is named after its type ("GtkMenuButton", "GtkSourceView",
///   "AdwGizmo", "HistoryView"), and the words a person would hear are in the description
///   ("Primary menu"): a type name gives way to the description.
/// - **Doubled names.** A button named from its label child is named twice ("2 2", "mod mod",
///   "_Inform Inform"): read once, without the mnemonic mark ("Page _1" is "Page 1").
/// - **Actions everywhere.** Every node has the Action interface, most with no action: an empty
///   action list is no Action interface (GtkMenuButton's outer button then is no button: its inner
///   button is the one item). Labels and text views list clipboard and context-menu actions
///   ("clipboard.copy", "menu.popup"), containers their window's and application's actions
///   ("win.close", "cal.solve"): none of those is something to offer in a scanner menu.
/// - **Extents relative to the window**, not the screen: the reader gives each window its
///   origin on the screen (`AtspiNode.windowOrigin`, from the display), and the mapping adds it.
/// - **A button's content box.** A button's extents are its label's box inside the button's
///   padding and border (measured with Adwaita, by screenshot, on X11, GNOME and sway: "Press me"
///   reported 1202×24 at (39, 27), drawn 1236×34 at (22, 22)): 4.8 (the toolkit that sets no
///   SHOWING) gets its buttons grown by Adwaita's text button padding and border, (17, 5) a side,
///   never past the button's parent (`buttonPadding`, applied by the mapping: the tree read stays
///   as the toolkit said, so a bounds check compares like with like). A theme with other padding
///   is off by the difference; an image button (4 px padding) stays inside its parent.
enum Gtk4Quirks {
    /// What GTK 4.8 leaves out of a button's extents on each side with Adwaita (padding + border).
    static let buttonPadding = AtspiPoint(x: 17, y: 5)
    /// The roles whose extents are a content box.
    static let paddedRoles: Set<AtspiRole> = [.pushButton, .toggleButton, .pushButtonMenu]

    /// Every button below `n` grown by `p` a side, clipped to its parent's extent (`within`, in
    /// the same coordinates).
    static func padButtons(_ n: inout AtspiNode, by p: AtspiPoint, within parent: AtspiRect?) {
        if paddedRoles.contains(n.role), let e = n.extents, e.x != Int32.min, e.width > 0, e.height > 0 {
            var x0 = Int64(e.x) - Int64(p.x), y0 = Int64(e.y) - Int64(p.y)
            var x1 = Int64(e.x) + Int64(e.width) + Int64(p.x), y1 = Int64(e.y) + Int64(e.height) + Int64(p.y)
            if let q = parent, q.x != Int32.min, q.width > 0, q.height > 0 {
                x0 = max(x0, Int64(q.x)); y0 = max(y0, Int64(q.y))
                x1 = min(x1, Int64(q.x) + Int64(q.width)); y1 = min(y1, Int64(q.y) + Int64(q.height))
            }
            if x1 > x0 && y1 > y0 {
                n.extents = AtspiRect(x: Int32(clamping: x0), y: Int32(clamping: y0), width: Int32(clamping: x1 - x0), height: Int32(clamping: y1 - y0))
            }
        }
        let here = n.extents
        for k in n.children.indices { padButtons(&n.children[k], by: p, within: here) }
    }

    /// Whether any node below the application's windows says SHOWING (newer GTK 4 does; 4.8 does not).
    static func setsShowing(_ app: AtspiNode) -> Bool {
        var found = false
        for w in app.children {
            for c in w.children where !found {
                c.forEach { if $0.states.contains(.showing) { found = true } }
            }
        }
        return found
    }

    /// Type names: "GtkMenuButton", "AdwGizmo", "GtkSourceView" for any role; a CamelCase word of
    /// two humps or more ("HistoryView", "MathDisplay") for roles whose name is not their text.
    static func isTypeName(_ name: String, role: AtspiRole) -> Bool {
        let s = Substring(name)
        guard !s.isEmpty, s.count <= 64, s.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }), s.first!.isUppercase else { return false }
        let prefixes = ["Gtk", "Adw", "Gdk", "Gsk", "Hdy", "Vte", "WebKit", "Gsv", "Ide", "Panel"]
        if prefixes.contains(where: { s.hasPrefix($0) && s.count > $0.count && s.dropFirst($0.count).first!.isUppercase }) { return true }
        if AtspiMapping.textRoles.contains(role) || role == .text { return false }
        let humps = s.filter(\.isUppercase).count
        return humps >= 2 && s.contains(where: \.isLowercase)
    }

    /// "Pi [Ctrl+P]" → "Pi": a tooltip's shortcut is not part of a name.
    static func withoutAccelerator(_ s: String) -> String {
        guard s.hasSuffix("]"), let open = s.lastIndex(of: "["), open > s.startIndex else { return s }
        let head = String(s[..<open]).trimmed
        return head.isEmpty ? s : head
    }

    /// "2 2" → "2", "_Inform Inform" → "Inform": a name that is one word or phrase twice (once
    /// with its mnemonic), separated by a space.
    static func undoubled(_ name: String) -> String {
        let chars = Array(name)
        for (k, c) in chars.enumerated() where c == " " {
            let a = String(chars[..<k]), b = String(chars[(k + 1)...])
            if !b.isEmpty, withoutMnemonic(a) == b { return b }
        }
        return name
    }

    /// "Page _1" → "Page 1": GTK's mnemonic marks (an underscore before the key's character;
    /// "__" is an underscore).
    static func withoutMnemonic(_ s: String) -> String {
        guard s.contains("_") else { return s }
        var out = ""
        var it = s.makeIterator()
        while let c = it.next() {
            if c == "_" {
                if let d = it.next() { out.append(d) }
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// Actions nobody would choose from a scanner menu: clipboard, selection and context menu
    /// ones, and (for containers) the window's and application's GActions ("win.close").
    static func isContextAction(_ name: String, container: Bool) -> Bool {
        let n = name.trimmed
        if n.isEmpty { return true }
        for p in ["clipboard.", "selection.", "menu.popup", "link.copy", "link.open", "misc.", "text."] where n.hasPrefix(p) { return true }
        return container && n.contains(".") && !n.contains(" ")
    }

    /// Siblings laid out on exactly the same rectangle: a stack's pages (GtkStack, AdwLeaflet,
    /// AdwViewStack lay every page out on the stack's whole area, and a page shown once keeps its
    /// extent when another is shown). Indices into `n.children`, by rectangle.
    static func stackedChildren(_ n: AtspiNode) -> [[Int]] {
        var byRect: [AtspiRect: [Int]] = [:]
        for (k, c) in n.children.enumerated() {
            guard let e = c.extents, e.x != Int32.min, e.width > 0, e.height > 0 else { continue }
            byRect[e, default: []].append(k)
        }
        return byRect.values.filter { $0.count >= 2 }.sorted { $0[0] < $1[0] }
    }

    /// The stacks whose showing page the extents cannot tell, with the window to ask the
    /// toolkit's hit test of and the point to ask it at (the centre of the pages' rectangle, in
    /// the window's pixels).
    static func ambiguousStacks(_ app: AtspiNode) -> [(id: String, window: String, point: AtspiPoint)] {
        var out: [(id: String, window: String, point: AtspiPoint)] = []
        for w in app.children {
            w.forEach { n in
                for pages in stackedChildren(n) {
                    let f = n.children[pages[0]].extents!
                    out.append((stackID(n, pages[0]), w.id, AtspiPoint(x: f.x + f.width / 2, y: f.y + f.height / 2)))
                }
            }
        }
        return out
    }

    /// The key of one stack: its parent and its first page (a node may hold more than one stack).
    static func stackID(_ parent: AtspiNode, _ firstPage: Int) -> String { parent.id + "#" + parent.children[firstPage].id }

    static func hasLayout(_ n: AtspiNode) -> Bool {
        var found = false
        n.forEach { d in if let e = d.extents, e.width > 0, e.height > 0, e.x != Int32.min { found = true } }
        return found
    }

    /// Applies the quirks to an application read from a GTK 4 bridge. `picks`: stack id → the id
    /// the hit test at its centre found (a node somewhere below the showing page). `inferShowing`:
    /// the toolkit sets no SHOWING below its windows.
    static func normalize(_ app: inout AtspiNode, picks: [String: String], inferShowing: Bool) {
        for k in app.children.indices {
            let window = app.children[k].extents.flatMap { e -> (Int32, Int32)? in e.width > 0 && e.height > 0 ? (e.width, e.height) : nil }
            normalize(&app.children[k], isWindow: true, parentShowing: true, window: window, picks: picks, inferShowing: inferShowing)
        }
    }

    private static func normalize(_ n: inout AtspiNode, isWindow: Bool, parentShowing: Bool, window: (Int32, Int32)?,
                                  picks: [String: String], inferShowing: Bool) {
        // Names.
        if isTypeName(n.name, role: n.role) {
            n.name = withoutAccelerator(n.description.trimmed)
            n.description = ""
        }
        n.name = undoubled(n.name)
        // A button's or tab's name keeps its label's mnemonic mark; text is left as it is.
        if AtspiMapping.interactiveRoles.contains(n.role) { n.name = withoutMnemonic(n.name) }
        // Actions (the reader asks a GTK 4 node's actions with its values).
        let container = AtspiMapping.containerRoles.contains(n.role)
        n.actions = n.actions.filter { !isContextAction($0, container: container) }
        if n.actions.isEmpty { n.interfaces.remove(.action) }
        // SHOWING.
        var showing = n.states.contains(.showing)
        if inferShowing && !isWindow {
            if !n.interfaces.contains(.component) {
                // No place of its own (a GtkStackPage): it shows with its parent.
                showing = parentShowing && n.states.contains(.visible)
            } else {
                showing = parentShowing && n.states.contains(.visible) && laidOutInside(n.extents, window)
            }
            if showing { n.states.insert(.showing) } else { n.states.remove(.showing) }
        }
        // Which pages of a stack show: the one the hit test landed in (the others stay where
        // they were laid out last, unseen).
        var hiddenPages: Set<Int> = []
        if inferShowing {
            for pages in stackedChildren(n) {
                guard let hit = picks[stackID(n, pages[0])], let page = pages.first(where: { contains(n.children[$0], id: hit) }) else { continue }
                hiddenPages.formUnion(pages.filter { $0 != page })
            }
        }
        for k in n.children.indices {
            normalize(&n.children[k], isWindow: false, parentShowing: showing && !hiddenPages.contains(k), window: window,
                      picks: picks, inferShowing: inferShowing)
        }
    }

    /// A non-empty extent that overlaps the window (its own pixels: the window is at 0, 0).
    static func laidOutInside(_ e: AtspiRect?, _ window: (Int32, Int32)?) -> Bool {
        guard let e, e.x != Int32.min, e.width > 0, e.height > 0 else { return false }
        guard let (w, h) = window else { return true }
        return Int64(e.x) < Int64(w) && Int64(e.x) + Int64(e.width) > 0 && Int64(e.y) < Int64(h) && Int64(e.y) + Int64(e.height) > 0
    }

    static func contains(_ n: AtspiNode, id: String) -> Bool {
        var found = false
        n.forEach { if $0.id == id { found = true } }
        return found
    }
}
