import SwitchCore
import SwitchInput

/// Reading a web document (Chromium, Firefox): the whole page, with Collection queries instead of a
/// walk, without blocking the loop (docs/desktop.md "Web pages").
///
/// A page is tens of thousands of nodes (the 5,000-link benchmark page: 20,441 in Chromium), and a
/// node-by-node walk of it takes seconds (pyatspi: 17–41 s). What scanning needs of it is far less:
/// the things a person operates and the parts of the page they sit in. They are asked of the
/// browser with `Collection.GetMatches`, which the browser answers from inside its own process,
/// in document order, a whole page per call:
///
/// 1. **queries**: every VISIBLE, FOCUSABLE node below the document (the items: links, buttons,
///    fields, check boxes, selects, tabs, summaries, ARIA widgets with a tabindex; a label, a
///    link's text and a bullet are not focusable, so each control comes once), and every VISIBLE
///    node of a part's role or an interactive role (the page's order of both); then what the
///    values need not ask node by node: the links (by role; a rule that excludes a role is
///    answered wrongly by the browsers' bridge, at-spi2-atk), the nodes that show or have a state
///    the mapping reads beyond the queries' (`exceptionalStates`: checked, expanded, selected,
///    editable …), and the disabled (neither ENABLED nor SENSITIVE);
/// 2. **values**, pipelined: each one's name; its role unless it is a link; its
///    states and extents when it shows or is in the exceptional or disabled answers (any other
///    node's states are what the queries say: VISIBLE, ENABLED, SENSITIVE, and FOCUSABLE for an
///    item); the extents of what is not an item too (a part above or below the viewport has its
///    tab at that edge). An off-screen link costs one call (its name) instead of four: the
///    browser answers every call on its main thread, and a page of 5,000 links was 20,000 calls
///    (BENCHMARKS.md "The web");
/// 3. **parts**: which part holds which (landmarks, forms, lists, tables, dialogs, articles,
///    groupings, panels: the order query asked of each; the innermost part that lists a node is
///    its parent), and what an item holds (a select's options, which Chromium says are showing
///    while the select is closed: left out, the select is one item);
/// 4. **interfaces** of what is on screen (SHOWING): what it can do (Value, Text …); and the
///    extents of the off-screen nodes that follow a collapsed disclosure in their part (what
///    tells collapsed content, below).
///
/// A node that is VISIBLE but not SHOWING is scrolled out of the viewport when it has an extent
/// (both browsers lay the whole page out): it stays, without a frame; one without an extent
/// (Firefox's collapsed `<details>` content says (-1, -1, -1, -1)) is hidden and left out.
///
/// Each phase sends its calls at once and the next one starts when all of them are answered:
/// `step` does what the replies that came allow, so the live loop keeps scanning while a browser
/// works out a large page (the replies arrive while the loop iterates GLib's main context).
/// `runToEnd` waits for each phase instead (`tree show`, `tree dump`). A call not answered within
/// the job's timeout fails the job; the page read before stays.
final class PageJob {
    /// Roles whose nodes are parts of a page (`WebGroups` decides which become groups).
    static let partRoles: Set<AtspiRole> = [
        .landmark, .form, .list, .table, .dialog, .alert, .article, .grouping, .panel, .heading, .descriptionList,
        .tree, .treeTable, .documentFrame, .documentWeb, .log,
    ]

    /// Items that hold items (what is inside an item is the item's: a select's options).
    static let holderRoles: Set<AtspiRole> = [.comboBox, .listBox, .menu, .tree, .treeTable, .table]

    /// The states the mapping, the performer and the typing read of a node besides VISIBLE,
    /// SHOWING, FOCUSABLE, ENABLED and SENSITIVE (which the queries tell): a node off screen with
    /// none of these, and not disabled, gets its states from the queries instead of `GetState`.
    /// A new use of another state belongs here.
    static let exceptionalStates: AtspiStates = [
        .active, .checked, .checkable, .editable, .expandable, .expanded, .focused, .horizontal, .vertical,
        .indeterminate, .managesDescendants, .modal, .multiLine, .pressed, .selected,
    ]

    /// Every call of a page job gives up after this long: a large page takes the browser a few
    /// hundred milliseconds per query, and the loop does not wait for it.
    static let timeoutMilliseconds: Int32 = 10_000
    /// A page's items and its order list are read up to this many (the rest of a larger page is
    /// not scanned: docs/desktop.md "Bounds"); the 5,000-link page is well inside.
    static let itemLimit = 20_000
    static let orderLimit = 40_000

    enum Phase: Equatable {
        case queries, values, parts, interfaces
        case finished
        case failed(DesktopReader.Failure)
    }

    /// What the job found (the benchmark's notes).
    struct Note: Equatable {
        var items = 0
        var parts = 0
        var calls = 0
        var microseconds: Int64 = 0
    }

    let document: AtspiNode
    let app: AppRef
    private(set) var phase: Phase = .queries
    private(set) var note = Note()
    /// The page (the document with its parts and items below it, every node `inDocument`).
    private(set) var page: AtspiNode?
    var trace: ((String) -> Void)?

    private let batch: DBusBatch
    private let getAll: Bool
    private let docPath: String
    private let started = MonotonicClock.nowMicroseconds()
    private let itemRule = MatchRule(states: [.visible, .focusable])
    private let orderRule = MatchRule(states: [.visible], roles: PageJob.partRoles.union(AtspiMapping.interactiveRoles), roleMatch: .any)
    private let linkRule = MatchRule(roles: [.link], roleMatch: .any)
    private let exactRule = MatchRule(states: PageJob.exceptionalStates.union(.showing), stateMatch: .any)
    private let disabledRule = MatchRule(states: [.enabled, .sensitive], stateMatch: .none)

    private var pending: [Int] = []
    /// How many of `pending` (from the start) have been answered.
    private var answered = 0
    private var tItems = 0, tOrder = 0, tDoc = 0, tLinks = 0, tExact = 0, tDisabled = 0
    private var items: [String] = []
    /// `items` as a set, made once with them (both phases look nodes up in it).
    private var focusable: Set<String> = []
    private var order: [String] = []
    private var documentExtents: AtspiRect?
    /// A node's calls: its role, states and extents only when they are asked (`collectQueries`).
    private struct ValueTokens {
        var path: String
        var role: Int?
        var states: Int?
        var name: DBusBatch.PropertyTokens
        var extents: Int?
    }
    private var tValues: [ValueTokens] = []
    private var nodes: [String: AtspiNode] = [:]
    private var tParts: [(String, Int)] = []
    private var tHeld: [(String, Int)] = []
    private var parent: [String: String] = [:]
    /// Each part's nodes and parts in document order (`collectParts`).
    private var children: [String: [String]] = [:]
    private var tIfaces: [(String, Int)] = []
    private var tExtents: [(String, Int)] = []

    /// Starts reading `document` (a node of `app`, which answers `Properties.GetAll` when
    /// `getAll`): the first phase's calls go out now. nil without a connection.
    init?(document: AtspiNode, app: AppRef, bus: AtspiBus, getAll: Bool, timeoutMilliseconds: Int32 = PageJob.timeoutMilliseconds) {
        guard let c = bus.connection(for: app.bus) else { return nil }
        batch = DBusBatch(connection: c, destination: app.bus, timeoutMilliseconds: timeoutMilliseconds)
        self.document = document
        self.app = app
        self.getAll = getAll
        docPath = String(document.id.dropFirst(app.bus.count))
        sendQueries()
        batch.flush()
    }

    private func sendQueries() {
        tItems = call(docPath, "org.a11y.atspi.Collection", "GetMatches", [.match(itemRule)])
        tOrder = call(docPath, "org.a11y.atspi.Collection", "GetMatches", [.match(orderRule)])
        tDoc = call(docPath, "org.a11y.atspi.Component", "GetExtents", [.u32(0)])
        tLinks = call(docPath, "org.a11y.atspi.Collection", "GetMatches", [.match(linkRule)])
        tExact = call(docPath, "org.a11y.atspi.Collection", "GetMatches", [.match(exactRule)])
        tDisabled = call(docPath, "org.a11y.atspi.Collection", "GetMatches", [.match(disabledRule)])
    }

    /// How many times a read starts over because the page changed between its queries and its
    /// values (then it is read as it is).
    static let restartLimit = 3
    private var restarts = 0

    var isDone: Bool {
        switch phase {
        case .finished, .failed: return true
        default: return false
        }
    }

    private func call(_ path: String, _ interface: String, _ member: String, _ args: [DBusArgument] = []) -> Int {
        let t = batch.call(path, interface, member, args)
        pending.append(t)
        note.calls += 1
        return t
    }

    /// Advances through every phase whose replies have all come; returns whether it is done.
    @discardableResult
    func step() -> Bool {
        batch.pump()
        while !isDone {
            // Replies come about in the order the calls went out: the first not yet answered is
            // where to look next time.
            while answered < pending.count && batch.isComplete(pending[answered]) { answered += 1 }
            guard answered == pending.count else { break }
            advance()
        }
        return isDone
    }

    /// Waits for every phase (a one-shot read).
    func runToEnd() {
        while !isDone { advance() }
    }

    private func lap(_ what: String) {
        trace?("page \(docPath): \(what) at +\(formatNumber(Double(MonotonicClock.nowMicroseconds() - started) / 1000)) ms")
    }

    /// Collects the current phase's replies (waiting for any still out) and sends the next one's.
    private func advance() {
        pending = []
        answered = 0
        do {
            switch phase {
            case .queries: try collectQueries()
            case .values: try collectValues()
            case .parts: try collectParts()
            case .interfaces: try collectInterfaces()
            case .finished, .failed: return
            }
            batch.flush()
        } catch {
            phase = .failed(error)
            lap("failed: \(error)")
        }
    }

    private func collectQueries() throws(DesktopReader.Failure) {
        let itemsReply = batch.reply(tItems)
        if case .failure(let e) = itemsReply, e != .timeout { throw .gone("no Collection: \(e.reason)") }
        items = Array(try DesktopReader.references(itemsReply, bus: app.bus).prefix(PageJob.itemLimit))
        order = Array(try DesktopReader.references(batch.reply(tOrder), bus: app.bus).prefix(PageJob.orderLimit))
        documentExtents = DesktopReader.rect(try DesktopReader.value(batch.reply(tDoc)))
        let links = Set(try DesktopReader.references(batch.reply(tLinks), bus: app.bus))
        let exact = Set(try DesktopReader.references(batch.reply(tExact), bus: app.bus))
            .union(try DesktopReader.references(batch.reply(tDisabled), bus: app.bus))
        note.items = items.count
        lap("\(items.count) items, \(order.count) in order, \(links.count) links, \(exact.count) asked their states")
        focusable = Set(items)
        for p in Set(order).union(items) where p != docPath {
            let name = getAll ? batch.allProperties(p, "org.a11y.atspi.Accessible") : batch.properties(p, "org.a11y.atspi.Accessible", ["Name"])
            switch name {
            case .all(let t): pending.append(t); note.calls += 1
            case .each(_, let ts): pending += ts; note.calls += ts.count
            }
            let item = focusable.contains(p), asked = exact.contains(p)
            tValues.append(ValueTokens(path: p, role: links.contains(p) ? nil : call(p, "org.a11y.atspi.Accessible", "GetRole"),
                                       states: asked ? call(p, "org.a11y.atspi.Accessible", "GetState") : nil, name: name,
                                       extents: asked || !item ? call(p, "org.a11y.atspi.Component", "GetExtents", [.u32(0)]) : nil))
        }
        phase = .values
    }

    private func collectValues() throws(DesktopReader.Failure) {
        var stale = false
        let listedFor = PageJob.exceptionalStates.union(.showing)
        for v in tValues {
            let p = v.path
            let props = try DesktopReader.value(batch.reply(v.name))
            var r = AtspiRole.link
            if let t = v.role {
                guard let role = try DesktopReader.value(batch.reply(t)) else { continue }  // gone meanwhile
                r = AtspiRole(rawValue: UInt32(truncatingIfNeeded: role.int ?? 0))
            } else if props == nil {
                continue  // gone meanwhile
            }
            // What the queries say, unless the node's own states were asked.
            var states: AtspiStates = [.visible, .enabled, .sensitive]
            if focusable.contains(p) { states.insert(.focusable) }
            if let t = v.states {
                states = DesktopReader.states(try DesktopReader.value(batch.reply(t)))
                // The queries listed it for a state it no longer has: the page changed meanwhile
                // (Firefox moves a page a moment after `ScrollTo` answered).
                if !states.isEmpty, states.isDisjoint(with: listedFor),
                   states.contains(.enabled) || states.contains(.sensitive) { stale = true }
            }
            var extents: AtspiRect?
            if let t = v.extents { extents = DesktopReader.rect(try DesktopReader.value(batch.reply(t))) }
            // A focusable node can be operated: its actions are read when it is on screen.
            var interfaces: AtspiInterfaces = [.component]
            if focusable.contains(p) { interfaces.insert(.action) }
            let d = props?.dictionary ?? [:]
            nodes[p] = AtspiNode(id: app.bus + p, role: r, name: d["Name"]?.string ?? "", description: d["Description"]?.string ?? "",
                                 states: states, interfaces: interfaces, extents: extents, inDocument: true)
        }
        tValues = []
        lap("values of \(nodes.count)" + (stale ? ", changed since the queries" : ""))
        if stale && restarts < PageJob.restartLimit {
            restarts += 1
            nodes = [:]
            sendQueries()
            phase = .queries
            return
        }
        for p in order {
            guard let n = nodes[p] else { continue }
            if PageJob.partRoles.contains(n.role) && n.role != .heading && !focusable.contains(p) {
                note.parts += 1
                tParts.append((p, call(p, "org.a11y.atspi.Collection", "GetMatches", [.match(orderRule)])))
            }
        }
        for p in items {
            // An open select's options are the items to choose from.
            guard let n = nodes[p], PageJob.holderRoles.contains(n.role), !n.states.contains(.expanded) else { continue }
            tHeld.append((p, call(p, "org.a11y.atspi.Collection", "GetMatches", [.match(orderRule)])))
        }
        phase = .parts
    }

    private func collectParts() throws(DesktopReader.Failure) {
        // The innermost part (the last in document order) whose answer lists a node is its parent.
        for (p, t) in tParts {
            for c in try DesktopReader.references(batch.reply(t), bus: app.bus) where c != p { parent[c] = p }
        }
        for (p, t) in tHeld {
            for c in try DesktopReader.references(batch.reply(t), bus: app.bus) where c != p { nodes[c] = nil }
        }
        lap("parts of \(tParts.count), holders \(tHeld.count)")
        tParts = []
        tHeld = []
        for (p, n) in nodes where n.states.contains(.showing) {
            tIfaces.append((p, call(p, "org.a11y.atspi.Accessible", "GetInterfaces")))
        }
        children = childLists()
        // What follows a collapsed disclosure in its part, off screen: its extents tell whether it
        // is collapsed content (`build`).
        for (_, kids) in children {
            var collapsed = false
            for k in kids {
                guard let n = nodes[k] else { continue }
                if collapsed && !n.states.contains(.showing) && n.extents == nil {
                    tExtents.append((k, call(k, "org.a11y.atspi.Component", "GetExtents", [.u32(0)])))
                }
                if n.states.contains(.expandable) && !n.states.contains(.expanded) { collapsed = true }
            }
        }
        phase = .interfaces
    }

    private func collectInterfaces() throws(DesktopReader.Failure) {
        for (p, t) in tIfaces {
            if let v = try DesktopReader.value(batch.reply(t)) { nodes[p]?.interfaces = AtspiInterfaces(names: v.items.compactMap(\.string)) }
        }
        for (p, t) in tExtents { nodes[p]?.extents = DesktopReader.rect(try DesktopReader.value(batch.reply(t))) }
        tIfaces = []
        tExtents = []
        build()
        phase = .finished
        note.microseconds = MonotonicClock.nowMicroseconds() - started
        lap("built: \(note.items) items, \(note.parts) parts, \(note.calls) calls")
    }

    /// Each node below its innermost part, in document order.
    private func childLists() -> [String: [String]] {
        var children: [String: [String]] = [:]
        for p in PageJob.documentOrder(order: order, items: items) where nodes[p] != nil && p != docPath {
            var up = parent[p]
            var steps = 0
            while let u = up, nodes[u] == nil, steps < parent.count { up = parent[u]; steps += 1 }  // its part was left out: the next one up
            children[up ?? docPath, default: []].append(p)
        }
        return children
    }

    /// The tree: each node below its innermost part (`children`), in document order.
    private func build() {
        var children = self.children
        // Collapsed content: what follows a collapsed disclosure (a closed <details>' summary) in
        // its part, out of view with no extent at all. (Firefox also says (-1, -1, -1, -1) for
        // nodes far out of view whose bounds it has not worked out yet: those stay.)
        for (part, kids) in children {
            var collapsed = false
            var kept: [String] = []
            for k in kids {
                guard let n = nodes[k] else { continue }
                if collapsed && !n.states.contains(.showing) && n.extents?.frame == nil { continue }
                if n.states.contains(.expandable) && !n.states.contains(.expanded) { collapsed = true }
                kept.append(k)
            }
            children[part] = kept
        }
        var doc = document
        doc.extents = documentExtents
        doc.children = []
        let nodes = self.nodes
        var built: Set<String> = []
        func build(_ p: String, depth: Int) -> AtspiNode? {
            // A page that says a part holds its own ancestor: each node once. Parts nested deeper
            // than `depthLimit` levels hold what is below them flat.
            guard built.insert(p).inserted, var n = p == docPath ? doc : nodes[p] else { return nil }
            n.inDocument = true
            if depth < DesktopReader.depthLimit {
                n.children = (children[p] ?? []).compactMap { build($0, depth: depth + 1) }
            } else {
                var flat: [AtspiNode] = [], stack = Array((children[p] ?? []).reversed())
                while let q = stack.popLast() {
                    guard built.insert(q).inserted, var m = nodes[q] else { continue }
                    m.inDocument = true
                    flat.append(m)
                    stack += (children[q] ?? []).reversed()
                }
                n.children = flat
            }
            return n
        }
        page = build(docPath, depth: 0)
    }

    /// Parts and items in one document order: `order` lists parts and the items of interactive
    /// roles in document order; an item it does not list (a focusable node of another role: a
    /// clickable div) goes just before the next item in `items` (also document order) that it lists.
    static func documentOrder(order: [String], items: [String]) -> [String] {
        let listed = Set(order)
        guard items.contains(where: { !listed.contains($0) }) else { return order }
        // Each unlisted item, with the listed item it goes before (nil: the end).
        var before: [String: [String]] = [:]
        var atEnd: [String] = []
        var waiting: [String] = []
        for i in items {
            if listed.contains(i) {
                if !waiting.isEmpty { before[i] = waiting; waiting = [] }
            } else {
                waiting.append(i)
            }
        }
        atEnd = waiting
        var out: [String] = []
        out.reserveCapacity(order.count + items.count)
        for p in order {
            if let w = before[p] { out += w }
            out.append(p)
        }
        return out + atEnd
    }
}
