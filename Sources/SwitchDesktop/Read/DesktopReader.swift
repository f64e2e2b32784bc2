import SwitchCore

/// Reads an application's windows from the bus into `AtspiNode`s, fast enough to re-read after
/// every UI change (BENCHMARKS.md "Live desktop").
///
/// libatspi's getters are one blocking round trip each, and its cache is wrong with GTK3 (children
/// out of order, a box replaced by a duplicate), so the reader talks D-Bus itself, on libatspi's own
/// connection to the application, with libatspi's timeout:
///
/// 1. one `Cache.GetItems` call gives role, name, description, states, interfaces and child count
///    of every object the application has registered (its live values at the time of the call);
///    only these per-object values are taken from it, never the structure;
/// 2. the structure comes from an uncached walk: `GetChildren` of every showing node, level by
///    level, each level's calls sent together (pipelined) instead of one round trip after another;
///    objects GetItems did not list get their values the same way; a node that manages its
///    descendants (a table of thousands of rows) lists only its SHOWING children (Collection);
/// 3. the mapping decides which nodes become elements and containers (`AtspiMapping.plannedIDs`),
///    and only those get their extents, actions, values, texts and labelled-by names, in one more
///    pipelined round.
///
/// A change below a known node (`subtrees`) re-reads only the nodes below it, the same way without
/// GetItems (whose answer is the whole application), and splices them into the tree kept.
///
/// GTK 4 (toolkit "GTK", `Gtk4Quirks`): it has no Cache object and sets no SHOWING below its
/// windows, so the walk descends into VISIBLE nodes and asks every node's extents (relative to its
/// window) and actions with its values; the quirks then decide what shows (a stack's showing page
/// asked from the toolkit's hit test when its extents do not tell), and each window gets its
/// origin on the screen from X11 (`windowOrigin`).
///
/// A call that times out ends the read (`Failure.notAnswering`): the application hangs; a call
/// whose object or application is gone drops that node (or ends the read when it is the
/// application itself).
final class DesktopReader {
    enum Failure: Error, Equatable {
        case notAnswering
        case gone(String)
    }

    /// A node's own values (what GetItems gives).
    struct Info: Equatable {
        var role: AtspiRole
        var name: String
        var description: String
        var states: AtspiStates
        var interfaces: AtspiInterfaces
        /// -1 when the application does not say (it manages its descendants, or they are transient).
        var childCount: Int
        /// Asked with the values for GTK 4 only: its window-relative extents and its actions.
        var extents: AtspiRect? = nil
        var actions: [String]? = nil
    }

    /// What the reader knows of an application's bridge (asked once per application).
    struct AppFacts: Equatable {
        /// It answers `Properties.GetAll` (GTK's bridges; Qt 5's crashes on it).
        var getAll: Bool
        /// GTK 4's own bridge (`Gtk4Quirks`).
        var gtk4: Bool
        /// GTK 4 that sets no SHOWING below its windows (4.8); learnt at the first read.
        var infersShowing: Bool?
    }

    static let rootPath = "/org/a11y/atspi/accessible/root"
    /// A tree larger than this is cut (the rest is not read).
    static let nodeLimit = 5000
    /// Children of one node walked at most (the rest not read: a hostile list of a million).
    static let childLimit = 2000
    /// Levels walked at most (a chain a thousand deep is cut here; the importers allow 512 too).
    static let depthLimit = 512
    /// Actions whose names are asked one by one (when the list's names say nothing).
    static let actionNameLimit = 8
    /// Showing children listed for a node that manages its descendants.
    static let managedChildrenLimit: Int32 = 500

    let bus: AtspiBus
    /// Applications whose GetItems gave nothing: not asked again.
    private var withoutItems: Set<String> = []
    /// Calls sent by the last read (for the benchmark's notes).
    var lastCallCount = 0
    /// Notes on the reads' parts (`SWITCHSCAN_DESKTOP_TRACE`).
    var trace: ((String) -> Void)?


    /// The screen position of an application's window (its title, the size its extents say, and
    /// where its first child starts in them, asked only when the display needs it), for toolkits
    /// whose extents are relative to their window (GTK 4; every toolkit on Wayland); nil when it
    /// cannot be found (no display).
    var windowOrigin: ((AppRef, String, AtspiRect?, () -> AtspiPoint?) -> AtspiPoint?)?
    /// Every toolkit's extents are relative to its window (a Wayland session): every window gets
    /// its origin, not only GTK 4's (`placeWindows`).
    var windowRelative = false
    /// Origins found by the last full read, by window id (subtree reads keep them).
    private var origins: [String: AtspiPoint] = [:]
    /// The last hit tests of GTK 4 stacks, by stack id.
    private var picks: [String: String] = [:]

    init(bus: AtspiBus) {
        self.bus = bus
    }

    // MARK: Windows

    /// An application's top-level windows: their paths and values, in the application's order.
    func windows(of app: AppRef) throws(Failure) -> [(path: String, info: Info)] {
        guard let b = bus.batch(for: app.bus) else { throw .gone("no connection") }
        let t = b.call(DesktopReader.rootPath, "org.a11y.atspi.Accessible", "GetChildren")
        let paths = try references(b.reply(t), app: app, root: true)
        var infos: [String: Info] = [:]
        try fetchInfos(paths, app: app, into: &infos)
        return paths.compactMap { p in infos[p].map { (p, $0) } }
    }

    /// The screen extents of some of an application's nodes (its windows), by path; none on failure.
    func extents(of app: AppRef, paths: [String]) -> [String: Rect?] {
        guard let b = bus.batch(for: app.bus) else { return [:] }
        let tokens = paths.map { ($0, b.call($0, "org.a11y.atspi.Component", "GetExtents", [.u32(0)])) }
        b.flush()
        var out: [String: Rect?] = [:]
        for (p, t) in tokens { out[p] = DesktopReader.rect((try? b.reply(t).get()) ?? nil)?.frame }
        return out
    }

    /// The window with the ACTIVE state among `apps` (skipping `skip`): its application and path.
    /// Applications that do not answer are returned in `notAnswering`.
    func activeWindow(among apps: [AppRef], skip: Set<String>) -> (found: (app: AppRef, path: String)?, notAnswering: Set<String>) {
        var silent: Set<String> = []
        var batches: [(AppRef, DBusBatch, Int)] = []
        for app in apps where !skip.contains(app.bus) {
            guard let b = bus.batch(for: app.bus) else { continue }
            batches.append((app, b, b.call(DesktopReader.rootPath, "org.a11y.atspi.Accessible", "GetChildren")))
            b.flush()
        }
        var states: [(AppRef, String, DBusBatch, Int)] = []
        for (app, b, t) in batches {
            do {
                for p in try references(b.reply(t), app: app, root: true) {
                    states.append((app, p, b, b.call(p, "org.a11y.atspi.Accessible", "GetState")))
                }
                b.flush()
            } catch {
                if error == .notAnswering { silent.insert(app.bus) }
            }
        }
        var found: (AppRef, String)?
        for (app, path, b, t) in states {
            switch b.reply(t) {
            case .success(let v):
                if found == nil, DesktopReader.states(v).contains(.active) { found = (app, path) }
            case .failure(.timeout):
                silent.insert(app.bus)
            case .failure:
                break
            }
        }
        return (found.map { (app: $0.0, path: $0.1) }, silent)
    }

    // MARK: Full read

    /// Reads `app` with the top-level windows `windows` (paths) as its children.
    func read(_ app: AppRef, windows: [String]) throws(Failure) -> AtspiNode {
        lastCallCount = 0
        var infos: [String: Info] = [:]
        // GTK 4's values are asked node by node anyway (with their extents and actions).
        if !withoutItems.contains(app.bus), !facts(app).gtk4, let b = bus.batch(for: app.bus) {
            let t = b.call("/org/a11y/atspi/cache", "org.a11y.atspi.Cache", "GetItems")
            lastCallCount += 1
            switch b.reply(t) {
            case .success(let v):
                for item in v?.items ?? [] { if let (path, info) = DesktopReader.cacheItem(item) { infos[path] = info } }
                if infos.isEmpty { withoutItems.insert(app.bus) }
            case .failure(.timeout):
                throw .notAnswering
            case .failure(.gone(let why)) where !why.contains("/org/a11y/atspi/cache"):
                throw .gone(why)
            case .failure:
                // No Cache object (GTK 4.8 has none: "Object does not exist at path
                // /org/a11y/atspi/cache") or another refusal: the walk asks every node instead.
                withoutItems.insert(app.bus)
            }
        }
        let gtk4 = facts(app).gtk4
        let children = try walk(windows, app: app, infos: &infos)
        var root = AtspiNode(id: app.bus + DesktopReader.rootPath, role: .application, name: app.name,
                             children: windows.compactMap { node($0, app: app, infos: infos, children: children, visibleIsEnough: gtk4) })
        if gtk4 {
            origins = [:]
            try prepareGtk4(&root, app: app)
        }
        placePages(&root)
        try fetchDetails(&root, app: app, infos: infos)
        if windowRelative && !gtk4 {
            origins = [:]
            placeWindows(&root, app: app)
        }
        return root
    }

    /// Wayland: each window of `root` gets its origin on the screen (found once per full read,
    /// kept by window id for the partial reads), so the mapping moves its window-relative extents
    /// onto the screen, as it does GTK 4's.
    private func placeWindows(_ root: inout AtspiNode, app: AppRef) {
        for k in root.children.indices {
            let w = root.children[k]
            if origins[w.id] == nil, let o = origin(of: w, app: app) { origins[w.id] = o }
            root.children[k].windowOrigin = origins[w.id]
        }
    }

    /// A window's origin from the display: its extents (asked when the read did not), and where
    /// its first child starts, asked only when the display needs it (sway: a GTK 3 window that
    /// draws its own shadow).
    private func origin(of w: AtspiNode, app: AppRef) -> AtspiPoint? {
        guard let windowOrigin else { return nil }
        let path = String(w.id.dropFirst(app.bus.count))
        var extents = w.extents
        if extents == nil, let b = bus.batch(for: app.bus) {
            extents = DesktopReader.rect((try? b.reply(b.call(path, "org.a11y.atspi.Component", "GetExtents", [.u32(0)])).get()) ?? nil)
        }
        return windowOrigin(app, w.name, extents) { [bus] in
            if let e = w.children.first?.extents, e.frame != nil { return AtspiPoint(x: e.x, y: e.y) }
            guard let b = bus.batch(for: app.bus) else { return nil }
            let child: String
            if let first = w.children.first {
                child = String(first.id.dropFirst(app.bus.count))
            } else {
                guard let r = (try? b.reply(b.call(path, "org.a11y.atspi.Accessible", "GetChildAtIndex", [.i32(0)])).get()) ?? nil,
                      let ref = r.reference, ref.bus == app.bus else { return nil }
                child = ref.path
            }
            guard let e = DesktopReader.rect((try? b.reply(b.call(child, "org.a11y.atspi.Component", "GetExtents", [.u32(0)])).get()) ?? nil) else {
                return nil
            }
            return AtspiPoint(x: e.x, y: e.y)
        }
    }

    /// The windows of `root` at their origins now (a window moved, or the layout of the outputs
    /// changed: the display said so); nil when none moved.
    func followWindows(_ root: AtspiNode, app: AppRef) -> AtspiNode? {
        guard windowOrigin != nil, windowRelative || facts(app).gtk4 else { return nil }
        var moved = root
        var changed = false
        for k in root.children.indices {
            let w = root.children[k]
            guard let o = origin(of: w, app: app) else { continue }
            origins[w.id] = o
            if w.windowOrigin != o {
                moved.children[k].windowOrigin = o
                changed = true
            }
        }
        return changed ? moved : nil
    }

    /// The web pages read whole (`PageJob`), by document id: a read of the window puts them in
    /// place of their documents instead of walking what shows of them.
    private(set) var pages: [String: AtspiNode] = [:]

    /// Keeps a page read whole for the next reads (the document's latest own values come from
    /// the walk).
    func keep(page: AtspiNode) { pages[page.id] = page }

    /// What shows of a page read whole gets what the mapping shows of it (actions, values,
    /// texts, labelled-by names): the page job reads no more than names, states and extents.
    /// Nodes `known` already has (the tree read before, by id) keep theirs; the others are asked.
    func completeDetails(_ page: inout AtspiNode, app: AppRef, known: [String: AtspiNode]) throws(Failure) {
        var ask: Set<String> = []
        var unbounded: Set<String> = []
        let pageID = page.id
        func fill(_ n: inout AtspiNode) {
            if n.states.contains(.showing), n.id != pageID {
                // Firefox says (-1, -1, -1, -1) for a node whose bounds it has not worked out yet
                // (a page just loaded): the walk may have had them, else they are asked again.
                if n.extents?.frame == nil {
                    if let e = known[n.id]?.extents, e.frame != nil { n.extents = e } else { unbounded.insert(n.id) }
                }
                if let k = known[n.id], k.role == n.role {
                    n.actions = k.actions
                    n.value = k.value
                    n.text = k.text
                    n.labelledBy = k.labelledBy
                    n.placeholder = k.placeholder
                    if !k.interfaces.isEmpty { n.interfaces = k.interfaces }
                } else {
                    ask.insert(n.id)
                }
            }
            for c in n.children.indices { fill(&n.children[c]) }
        }
        fill(&page)
        lastCallCount = 0
        if !ask.isEmpty { try fetchDetails(&page, app: app, infos: [:], only: ask) }
        if !unbounded.isEmpty { try fetchDetails(&page, app: app, infos: [:], only: unbounded, extents: true) }
    }

    /// Forgets the pages of documents that are no longer in `root`.
    func forgetPages(notIn root: AtspiNode) {
        guard !pages.isEmpty else { return }
        var present: Set<String> = []
        root.forEach { if DesktopReader.isDocument($0.role) { present.insert($0.id) } }
        pages = pages.filter { present.contains($0.key) }
    }

    /// The showing web documents of `root` (their ids).
    static func documents(in root: AtspiNode) -> [AtspiNode] {
        var out: [AtspiNode] = []
        root.forEach { if isDocument($0.role), $0.states.contains(.showing), $0.states.contains(.visible) { out.append($0) } }
        return out
    }

    static func isDocument(_ role: AtspiRole) -> Bool { role == .documentWeb || role == .documentFrame }

    /// The documents with a page read whole get it in place of their walked content.
    private func placePages(_ root: inout AtspiNode) {
        guard !pages.isEmpty else { return }
        func place(_ n: inout AtspiNode) {
            if DesktopReader.isDocument(n.role), let page = pages[n.id] {
                n.children = page.children
                n.extents = page.extents
                n.inDocument = true
                return
            }
            for k in n.children.indices { place(&n.children[k]) }
        }
        place(&root)
    }

    /// GTK 4: the quirks applied (what shows, names, actions) and the windows' screen origins.
    private func prepareGtk4(_ root: inout AtspiNode, app: AppRef) throws(Failure) {
        var f = facts(app)
        if f.infersShowing == nil {
            f.infersShowing = !Gtk4Quirks.setsShowing(root)
            appFacts[app.bus] = f
        }
        let infer = f.infersShowing ?? true
        if infer {
            let stacks = Gtk4Quirks.ambiguousStacks(root)
            if !stacks.isEmpty, let b = bus.batch(for: app.bus) {
                // The toolkit's own hit test (of the window) at each stack's centre lands in its
                // showing page.
                let tokens = stacks.map { s in
                    (s.id, b.call(String(s.window.dropFirst(app.bus.count)), "org.a11y.atspi.Component", "GetAccessibleAtPoint",
                                  [.i32(s.point.x), .i32(s.point.y), .u32(1)]))
                }
                lastCallCount += tokens.count
                b.flush()
                for (id, t) in tokens {
                    if let r = try value(b.reply(t))?.reference, r.bus == app.bus { picks[id] = app.bus + r.path } else { picks[id] = nil }
                }
            }
        }
        Gtk4Quirks.normalize(&root, picks: picks, inferShowing: infer)
        for k in root.children.indices {
            let w = root.children[k]
            if origins[w.id] == nil, let o = windowOrigin?(app, w.name, w.extents, { nil }) { origins[w.id] = o }
            root.children[k].windowOrigin = origins[w.id]
            root.children[k].buttonPadding = infer ? Gtk4Quirks.buttonPadding : nil
        }
    }

    /// The uncached walk below `roots`, level by level (each level's calls pipelined): the child
    /// paths of every node walked; `infos` gets the values of the nodes it did not hold.
    /// `early`: roots whose children are asked together with their values (they had children
    /// before: one round trip less; the answer is used only if they still descend).
    private func walk(_ roots: [String], app: AppRef, infos: inout [String: Info], early: Set<String> = []) throws(Failure) -> [String: [String]] {
        var children: [String: [String]] = [:]
        var level = roots
        var seen = Set(roots)
        var asked: [String: (DBusBatch, Int)] = [:]
        if !early.isEmpty, let b = bus.batch(for: app.bus) {
            for p in roots where early.contains(p) { asked[p] = (b, b.call(p, "org.a11y.atspi.Accessible", "GetChildren")) }
            lastCallCount += asked.count
        }
        try fetchInfos(level.filter { infos[$0] == nil }, app: app, into: &infos)
        let visibleIsEnough = facts(app).gtk4
        var depth = 0
        while !level.isEmpty && seen.count < DesktopReader.nodeLimit && depth < DesktopReader.depthLimit {
            depth += 1
            guard let b = bus.batch(for: app.bus) else { throw .gone("no connection") }
            // Per node: its calls, and whether they are GetChildAtIndex calls (one child each).
            var tokens: [(String, DBusBatch, [Int], byIndex: Bool)] = []
            for p in level {
                guard let info = infos[p], DesktopReader.descends(info, visibleIsEnough: visibleIsEnough) else { continue }
                // A page read whole (`PageJob`) is not walked again.
                if DesktopReader.isDocument(info.role), pages[app.bus + p] != nil { continue }
                if info.states.contains(.managesDescendants) {
                    tokens.append((p, b, [b.call(p, "org.a11y.atspi.Collection", "GetMatches", [.showingChildrenQuery(DesktopReader.managedChildrenLimit)])], false))
                } else if info.childCount > DesktopReader.childLimit {
                    // More children than are read (a hostile list of a million): the first ones
                    // one by one, not a reply listing them all.
                    tokens.append((p, b, (0..<Int32(DesktopReader.childLimit)).map { b.call(p, "org.a11y.atspi.Accessible", "GetChildAtIndex", [.i32($0)]) }, true))
                } else if let (eb, t) = asked.removeValue(forKey: p) {
                    tokens.append((p, eb, [t], false))
                    lastCallCount -= 1
                } else {
                    tokens.append((p, b, [b.call(p, "org.a11y.atspi.Accessible", "GetChildren")], false))
                }
            }
            lastCallCount += tokens.reduce(0) { $0 + $1.2.count }
            b.flush()
            var next: [String] = []
            for (p, tb, ts, byIndex) in tokens {
                var kids: [String] = []
                if byIndex {
                    for t in ts {
                        if let r = try value(tb.reply(t))?.reference, r.bus == app.bus, r.path != "/org/a11y/atspi/null" { kids.append(r.path) }
                    }
                } else {
                    kids = try references(tb.reply(ts[0]), app: app, root: false)
                }
                // A node that is its own descendant, or a child listed twice, is walked once; a
                // node keeps at most `childLimit` children, the walk at most `nodeLimit` nodes.
                let room = min(DesktopReader.childLimit, max(0, DesktopReader.nodeLimit - seen.count))
                var fresh: [String] = []
                for k in kids where fresh.count < room && seen.insert(k).inserted { fresh.append(k) }
                children[p] = fresh
                next += fresh
            }
            try fetchInfos(next.filter { infos[$0] == nil }, app: app, into: &infos)
            level = next
        }
        return children
    }

    /// The node at `path` and what shows below it, from a walk's values (no details yet, except a
    /// GTK 4 node's extents and actions). `visibleIsEnough`: GTK 4, whose SHOWING is decided after.
    /// `inDocument`: below a web document (a SHOWING node there is marked so: the page's mapping).
    private func node(_ path: String, app: AppRef, infos: [String: Info], children: [String: [String]],
                      visibleIsEnough: Bool = false, inDocument: Bool = false) -> AtspiNode? {
        guard let i = infos[path] else { return nil }
        var n = AtspiNode(id: app.bus + path, role: i.role, name: i.name, description: i.description,
                          states: i.states, interfaces: i.interfaces, extents: i.extents, actions: i.actions ?? [])
        let document = inDocument || DesktopReader.isDocument(i.role)
        n.inDocument = document && i.states.contains(.showing)
        if visibleIsEnough ? i.states.contains(.visible) : AtspiMapping.kind(n) != .hidden {
            n.children = (children[path] ?? []).compactMap {
                node($0, app: app, infos: infos, children: children, visibleIsEnough: visibleIsEnough, inDocument: document)
            }
        }
        return n
    }

    // MARK: Subtrees

    /// Reads the nodes below `ids` (nodes of `root`) afresh, as a full read would, and splices them
    /// into `root`: a change confined to those subtrees (children added or removed, shown or
    /// hidden) costs the calls for them, not for the window. Nodes outside them that the mapping
    /// now shows and did not before get their details too. `extentsOf`: nodes whose extents are
    /// asked in the same round trip as the details (bounds told outside the subtrees). Returns nil
    /// when one of `ids` is not in `root` or is gone (read it all).
    func subtrees(_ root: AtspiNode, app: AppRef, ids: Set<String>,
                  extentsOf: Set<String> = []) throws(Failure) -> (root: AtspiNode, extents: [String: AtspiRect?])? {
        lastCallCount = 0
        // The outermost of `ids` (one inside another is read with it).
        var outer: [String] = []
        var inRoot = 0
        var early: Set<String> = []
        func find(_ n: AtspiNode, covered: Bool) {
            let hit = ids.contains(n.id)
            if hit { inRoot += 1 }
            if hit && !covered {
                outer.append(n.id)
                if AtspiMapping.kind(n) != .hidden, !n.children.isEmpty, !n.states.contains(.managesDescendants) {
                    early.insert(String(n.id.dropFirst(app.bus.count)))
                }
            }
            for c in n.children { find(c, covered: covered || hit) }
        }
        find(root, covered: false)
        guard inRoot == ids.count, !outer.isEmpty, outer.allSatisfy({ $0.hasPrefix(app.bus) }) else { return nil }
        let paths = outer.map { String($0.dropFirst(app.bus.count)) }
        var infos: [String: Info] = [:]
        let gtk4 = facts(app).gtk4
        let children = try walk(paths, app: app, infos: &infos, early: early)
        var fresh: [String: AtspiNode] = [:]
        for p in paths {
            guard let n = node(p, app: app, infos: infos, children: children, visibleIsEnough: gtk4) else { return nil }
            fresh[n.id] = n
        }
        func splice(_ n: AtspiNode) -> AtspiNode {
            if let f = fresh[n.id] { return f }
            var n = n
            n.children = n.children.map(splice)
            return n
        }
        var spliced = splice(root)
        if gtk4 { try prepareGtk4(&spliced, app: app) } else if windowRelative { placeWindows(&spliced, app: app) }
        var below: Set<String> = []
        for f in fresh.values { f.forEach { below.insert($0.id) } }
        let before = AtspiMapping.plannedIDs(root)
        let wanted = AtspiMapping.plannedIDs(spliced).filter { below.contains($0) || !before.contains($0) }
        // Queued first: they go out with the details' calls.
        let outside = extentsOf.subtracting(below)
        guard let b = bus.batch(for: app.bus) else { throw .gone("no connection") }
        let asked = askExtents(outside, app: app, b)
        try fetchDetails(&spliced, app: app, infos: infos, only: wanted, extents: true)
        return (spliced, try extentReplies(asked, b))
    }

    // MARK: Patch

    /// Re-reads the own values of the nodes `ids` in `root` (names, states, values, texts): a
    /// change confined to them. Returns nil when a node changed kind (the tree's shape may differ:
    /// read it all) or is no longer there.
    func patch(_ root: AtspiNode, app: AppRef, ids: Set<String>) throws(Failure) -> AtspiNode? {
        let paths = ids.filter { $0.hasPrefix(app.bus) }.map { String($0.dropFirst(app.bus.count)) }
        var infos: [String: Info] = [:]
        try fetchInfos(paths, app: app, into: &infos)
        var changedKind = false
        func update(_ n: AtspiNode) -> AtspiNode {
            var n = n
            let path = String(n.id.dropFirst(app.bus.count))
            if ids.contains(n.id) {
                guard let i = infos[path] else { changedKind = true; return n }
                let before = AtspiMapping.kind(n)
                n.role = i.role
                n.name = i.name
                n.description = i.description
                n.states = i.states
                n.interfaces = i.interfaces
                if let e = i.extents { n.extents = e }
                if let a = i.actions { n.actions = a }
                if !gtk4, AtspiMapping.kind(n) != before { changedKind = true }
            }
            n.children = n.children.map(update)
            return n
        }
        let gtk4 = facts(app).gtk4
        var patched = update(root)
        if gtk4 {
            // The raw values are back: the quirks again, then the shape must not have changed.
            try prepareGtk4(&patched, app: app)
            if AtspiMapping.plannedIDs(patched) != AtspiMapping.plannedIDs(root) { return nil }
        }
        guard !changedKind else { return nil }
        try fetchDetails(&patched, app: app, infos: [:], only: ids)
        if !gtk4 && windowRelative { placeWindows(&patched, app: app) }
        return patched
    }

    // MARK: Bounds

    /// The screen extents of the nodes `ids` now (nil for one without extents or gone).
    func extents(_ app: AppRef, ids: Set<String>) throws(Failure) -> [String: AtspiRect?] {
        guard let b = bus.batch(for: app.bus) else { throw .gone("no connection") }
        let tokens = askExtents(ids, app: app, b)
        b.flush()
        return try extentReplies(tokens, b)
    }

    private func askExtents(_ ids: Set<String>, app: AppRef, _ b: DBusBatch) -> [(String, Int)] {
        // GTK 4's are kept relative to their window (the mapping adds the window's origin).
        let coordinates: UInt32 = facts(app).gtk4 ? 1 : 0
        let tokens = ids.filter { $0.hasPrefix(app.bus) }.map { id in
            (id, b.call(String(id.dropFirst(app.bus.count)), "org.a11y.atspi.Component", "GetExtents", [.u32(coordinates)]))
        }
        lastCallCount += tokens.count
        return tokens
    }

    private func extentReplies(_ tokens: [(String, Int)], _ b: DBusBatch) throws(Failure) -> [String: AtspiRect?] {
        var out: [String: AtspiRect?] = [:]
        for (id, t) in tokens {
            let f = (try value(b.reply(t)))?.items.compactMap(\.int) ?? []
            out[id] = f.count == 4 ? AtspiRect(x: Int32(clamping: f[0]), y: Int32(clamping: f[1]), width: Int32(clamping: f[2]), height: Int32(clamping: f[3])) : nil
        }
        return out
    }

    // MARK: Pieces

    /// What each application's bridge is (by bus name), from its `Application.ToolkitName`, asked
    /// once per application. GTK's bridges (GTK 3's atk-bridge says "gtk", GTK 4's own "GTK")
    /// answer `Properties.GetAll`; others get one `Get` per property (Qt 5's bridge crashes the
    /// application on GetAll): three calls a node instead of one, which doubles a subtree read's
    /// time (BENCHMARKS.md "Live desktop", follow-up 3).
    private var appFacts: [String: AppFacts] = [:]

    private func props(_ b: DBusBatch, _ path: String, _ interface: String, _ names: [String], app: AppRef) -> DBusBatch.PropertyTokens {
        facts(app).getAll ? b.allProperties(path, interface) : b.properties(path, interface, names)
    }

    func facts(_ app: AppRef) -> AppFacts {
        if let known = appFacts[app.bus] { return known }
        guard let b = bus.batch(for: app.bus) else { return AppFacts(getAll: false, gtk4: false) }
        let t = b.property(DesktopReader.rootPath, "org.a11y.atspi.Application", "ToolkitName")
        lastCallCount += 1
        let result = b.reply(t)
        if case .failure(.timeout) = result { return AppFacts(getAll: false, gtk4: false) }  // asked again next time
        let name = (try? result.get())??.string ?? ""
        let f = AppFacts(getAll: name.lowercased() == "gtk", gtk4: name == "GTK")
        appFacts[app.bus] = f
        return f
    }

    /// Whether the walk lists a node's children: anything not hidden that may have some (for GTK
    /// 4, whose SHOWING is decided after the walk, anything VISIBLE).
    static func descends(_ i: Info, visibleIsEnough: Bool = false) -> Bool {
        guard i.childCount != 0 else { return false }
        if i.role == .application { return true }
        return (visibleIsEnough || i.states.contains(.showing)) && i.states.contains(.visible)
    }

    /// Values of the objects `paths` (GetRole, GetState, the Accessible properties, GetInterfaces),
    /// pipelined. An object that is gone is left out.
    private func fetchInfos(_ paths: [String], app: AppRef, into infos: inout [String: Info]) throws(Failure) {
        guard !paths.isEmpty else { return }
        guard let b = bus.batch(for: app.bus) else { throw .gone("no connection") }
        // GTK 4: the window-relative extents (WINDOW coordinates) and the actions too.
        let gtk4 = facts(app).gtk4
        var tokens: [(String, Int, Int, DBusBatch.PropertyTokens, Int, (Int, Int)?)] = []
        for p in paths {
            tokens.append((p, b.call(p, "org.a11y.atspi.Accessible", "GetRole"), b.call(p, "org.a11y.atspi.Accessible", "GetState"),
                           props(b, p, "org.a11y.atspi.Accessible", ["Name", "Description", "ChildCount"], app: app),
                           b.call(p, "org.a11y.atspi.Accessible", "GetInterfaces"),
                           gtk4 ? (b.call(p, "org.a11y.atspi.Component", "GetExtents", [.u32(1)]), b.call(p, "org.a11y.atspi.Action", "GetActions")) : nil))
        }
        lastCallCount += tokens.reduce(0) { n, t in n + 3 + t.3.calls + (t.5 == nil ? 0 : 2) }
        b.flush()
        for (p, tRole, tState, tProps, tIfaces, tGtk4) in tokens {
            let role = try value(b.reply(tRole)), state = try value(b.reply(tState))
            let props = try value(b.reply(tProps)), ifaces = try value(b.reply(tIfaces))
            var extents: AtspiRect?, actions: [String]?
            if let (te, ta) = tGtk4 {
                extents = DesktopReader.rect(try value(b.reply(te)))
                actions = (try value(b.reply(ta)))?.items.map { $0.items.first?.string ?? "" } ?? []
            }
            guard let role, let props else { continue }  // gone meanwhile
            let d = props.dictionary
            infos[p] = Info(role: AtspiRole(rawValue: UInt32(truncatingIfNeeded: role.int ?? 0)),
                            name: d["Name"]?.string ?? "", description: d["Description"]?.string ?? "",
                            states: DesktopReader.states(state), interfaces: AtspiInterfaces(names: (ifaces?.items ?? []).compactMap(\.string)),
                            childCount: Int(d["ChildCount"]?.int ?? -1), extents: extents, actions: actions)
        }
    }

    /// What the mapping shows of the nodes it keeps: extents, action names, Value, an editable
    /// field's text and placeholder, and a labelled-by target's name for a node without a name.
    /// `only`: just these ids (a patch), extents left as they were unless `extents`.
    private func fetchDetails(_ root: inout AtspiNode, app: AppRef, infos: [String: Info], only: Set<String>? = nil,
                              extents: Bool = false) throws(Failure) {
        let wanted = only ?? AtspiMapping.plannedIDs(root)
        // GTK 4's extents and actions came with the values (and went through its quirks).
        let gtk4 = facts(app).gtk4
        let withExtents = (only == nil || extents) && !gtk4
        guard let b = bus.batch(for: app.bus) else { throw .gone("no connection") }
        struct Tokens { var extents, actions, text, attributes, relations: Int?; var value: DBusBatch.PropertyTokens? }
        var tokens: [String: Tokens] = [:]
        root.forEach { n in
            guard wanted.contains(n.id), n.role != .application else { return }
            // A page's node out of view: its name (read with the page) is all scanning needs.
            if n.inDocument && !n.states.contains(.showing) { return }
            let p = String(n.id.dropFirst(app.bus.count))
            let element = AtspiMapping.kind(n) == .element
            var t = Tokens()
            // A page's node read whole has its extents already; a page's node walked is asked
            // whatever its interface list says.
            let extentsWanted = n.inDocument ? n.extents?.frame == nil : n.interfaces.contains(.component)
            if withExtents, extentsWanted { t.extents = b.call(p, "org.a11y.atspi.Component", "GetExtents", [.u32(0)]) }
            if n.interfaces.contains(.action) && !gtk4 { t.actions = b.call(p, "org.a11y.atspi.Action", "GetActions") }
            if element, n.interfaces.contains(.value) { t.value = props(b, p, "org.a11y.atspi.Value", AtspiValue.propertyNames, app: app) }
            if element, n.states.contains(.editable), n.interfaces.contains(.text) {
                t.text = b.call(p, "org.a11y.atspi.Text", "GetText", [.i32(0), .i32(-1)])
                t.attributes = b.call(p, "org.a11y.atspi.Accessible", "GetAttributes")
            }
            if element, n.name.trimmed.isEmpty { t.relations = b.call(p, "org.a11y.atspi.Accessible", "GetRelationSet") }
            tokens[n.id] = t
        }
        b.flush()
        lastCallCount += tokens.values.reduce(0) { s, t in
            s + [t.extents, t.actions, t.text, t.attributes, t.relations].compactMap { $0 }.count + (t.value?.calls ?? 0)
        }
        // Replies, then labelled-by targets whose names are not known yet.
        struct Details { var extents: AtspiRect?; var actions: [String]?; var value: AtspiValue?; var text: String?; var placeholder: String?; var labelPath: String? }
        var details: [String: Details] = [:]
        var labelNames: [String: String] = [:]
        var nameTokens: [String: Int] = [:]
        var actionNameTokens: [String: [Int]] = [:]
        let b2 = bus.batch(for: app.bus)
        for (id, t) in tokens {
            var d = Details()
            if let k = t.extents, let v = try value(b.reply(k)) {
                let f = v.items.compactMap(\.int)
                if f.count == 4 {
                    d.extents = AtspiRect(x: Int32(clamping: f[0]), y: Int32(clamping: f[1]), width: Int32(clamping: f[2]), height: Int32(clamping: f[3]))
                }
            }
            if let k = t.actions, let v = try value(b.reply(k)) {
                d.actions = v.items.map { $0.items.first?.string ?? "" }
                // GetActions gives localized names: Chromium's are empty, Firefox's hold its key
                // bindings (";;"). Those are asked by index (GetName: the action's name).
                if let a = d.actions, a.contains(where: { $0.isEmpty || $0.contains(";") }), let b2 {
                    actionNameTokens[id] = a.indices.prefix(DesktopReader.actionNameLimit).map { b2.call(String(id.dropFirst(app.bus.count)), "org.a11y.atspi.Action", "GetName", [.i32(Int32($0))]) }
                }
            }
            if let k = t.value, let v = try value(b.reply(k)) {
                let p = v.dictionary
                d.value = AtspiValue(current: p["CurrentValue"]?.double ?? 0, minimum: p["MinimumValue"]?.double ?? 0,
                                     maximum: p["MaximumValue"]?.double ?? 0, increment: p["MinimumIncrement"]?.double ?? 0,
                                     text: p["Text"]?.string)
            }
            if let k = t.text, let v = try value(b.reply(k)) { d.text = v.string }
            if let k = t.attributes, let v = try value(b.reply(k)) { d.placeholder = v.dictionary["placeholder-text"]?.string }
            if let k = t.relations, let v = try value(b.reply(k)) {
                // a(ua(so)): the first LABELLED_BY (2) target.
                for relation in v.items {
                    let f = relation.items
                    guard f.count == 2, f[0].int == 2, let target = f[1].items.first?.reference, target.bus == app.bus else { continue }
                    d.labelPath = target.path
                    if let known = infos[target.path] {
                        labelNames[target.path] = known.name
                    } else if nameTokens[target.path] == nil, let b2 {
                        nameTokens[target.path] = b2.property(target.path, "org.a11y.atspi.Accessible", "Name")
                    }
                    break
                }
            }
            details[id] = d
        }
        if let b2, !nameTokens.isEmpty || !actionNameTokens.isEmpty {
            b2.flush()
            lastCallCount += nameTokens.count + actionNameTokens.values.reduce(0) { $0 + $1.count }
            for (path, k) in nameTokens { if let v = try value(b2.reply(k)), let s = v.string { labelNames[path] = s } }
            for (id, tokens) in actionNameTokens {
                var names = details[id]?.actions ?? []
                for (i, k) in tokens.enumerated() where i < names.count {
                    if let v = try value(b2.reply(k)), let s = v.string { names[i] = s }
                }
                details[id]?.actions = names
            }
        }
        if gtk4 {
            // A label target GTK 4 names after its type ("GtkImage") says nothing.
            for (path, name) in labelNames { labelNames[path] = Gtk4Quirks.isTypeName(name, role: .label) ? "" : Gtk4Quirks.undoubled(name) }
        }
        func apply(_ n: inout AtspiNode) {
            if let d = details[n.id] {
                if withExtents && (!n.inDocument || n.extents?.frame == nil) { n.extents = d.extents }
                if let a = d.actions {
                    n.actions = a
                    // Qt 5 lists the Action interface on every object, labels and panes too, most
                    // with no action: such a node has nothing to activate (not a button).
                    if a.isEmpty { n.interfaces.remove(.action) }
                }
                if only == nil || d.value != nil { n.value = d.value }
                if only == nil || d.text != nil { n.text = d.text }
                if let p = d.placeholder { n.placeholder = p }
                if let path = d.labelPath { n.labelledBy = labelNames[path] }
            }
            for k in n.children.indices { apply(&n.children[k]) }
        }
        apply(&root)
    }

    /// A reply's value; a gone object or a failed call is nil; a timeout ends the read.
    func value(_ r: Result<DBusValue?, DBusCallError>) throws(Failure) -> DBusValue? { try DesktopReader.value(r) }

    static func value(_ r: Result<DBusValue?, DBusCallError>) throws(Failure) -> DBusValue? {
        switch r {
        case .success(let v): return v
        case .failure(.timeout): throw .notAnswering
        case .failure: return nil
        }
    }

    /// The paths in an `a(so)` reply that belong to `app` (children in another application, a
    /// plug's socket for instance, are not followed). For the application's root, a failure means
    /// the application is gone.
    func references(_ r: Result<DBusValue?, DBusCallError>, app: AppRef, root: Bool) throws(Failure) -> [String] {
        switch r {
        case .success: return try DesktopReader.references(r, bus: app.bus)
        case .failure(.timeout): throw .notAnswering
        case .failure(let e): if root { throw .gone(e.reason) } else { return [] }
        }
    }

    /// The paths of application `bus` in an `a(so)` reply; none for a failed call, but a timeout
    /// ends the read.
    static func references(_ r: Result<DBusValue?, DBusCallError>, bus: String) throws(Failure) -> [String] {
        switch r {
        case .success(let v):
            return (v?.items ?? []).compactMap { $0.reference }.filter { $0.bus == bus && $0.path != "/org/a11y/atspi/null" }.map(\.path)
        case .failure(.timeout): throw .notAnswering
        case .failure: return []
        }
    }

    /// A `GetExtents` reply `(iiii)`.
    static func rect(_ v: DBusValue?) -> AtspiRect? {
        let f = v?.items.compactMap(\.int) ?? []
        guard f.count == 4 else { return nil }
        return AtspiRect(x: Int32(clamping: f[0]), y: Int32(clamping: f[1]), width: Int32(clamping: f[2]), height: Int32(clamping: f[3]))
    }

    static func states(_ v: DBusValue?) -> AtspiStates {
        AtspiStates(words: (v?.items ?? []).compactMap { $0.int.map { UInt32(truncatingIfNeeded: $0) } })
    }

    /// One `((so)(so)(so)iiassusau)` item of Cache.GetItems: path, application, parent, index in
    /// parent, child count, interfaces, name, role, description, states.
    static func cacheItem(_ item: DBusValue) -> (String, Info)? {
        let f = item.items
        guard f.count == 10, let path = f[0].reference?.path else { return nil }
        return (path, Info(role: AtspiRole(rawValue: UInt32(truncatingIfNeeded: f[7].int ?? 0)), name: f[6].string ?? "",
                           description: f[8].string ?? "", states: states(f[9]),
                           interfaces: AtspiInterfaces(names: f[5].items.compactMap(\.string)), childCount: Int(f[4].int ?? -1)))
    }
}
