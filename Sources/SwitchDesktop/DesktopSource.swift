import SwitchCore
import SwitchDisplay
import SwitchInput

/// The live desktop as an adapter of the live loop (docs/desktop.md): it reads the
/// active window (or the application named with `--app`) into an `ElementTree`, hands the engine
/// a new tree when the UI changed (a layout change: the highlight stays on the same widget), and
/// carries out the engine's performs, answering each with a `result` line.
///
/// One thread: libatspi's GLib main context is iterated from the loop's epoll wait (`prepare`
/// gives its descriptors and next timeout, `dispatch` runs it); events are only collected there,
/// and `RefreshSchedule` decides when to read again. Every call to an application is bounded by
/// the bus timeout: an application that hangs costs that once, its tree ends (`tree notAnswering`
/// line; for a read, one probe later: a busy browser answers by then), and it is pinged in the
/// background until it answers. One that quits ends its tree
/// (`tree ended`); the engine keeps running, and scanning starts again when a window comes.
public final class DesktopSource: LoopAdapter {
    public let name = "desktop"
    /// The screen's size (the trees' screen; frames are in its pixels).
    public let screen: Size
    /// The tree scanned now.
    public private(set) var tree: ElementTree
    /// `SWITCHSCAN_DESKTOP_TRACE`: a note on stderr (with CLOCK_MONOTONIC µs) for every read.
    public var trace: ((String) -> Void)? {
        didSet { reader.trace = trace }
    }
    /// Called with every tree handed to the engine (`SWITCHSCAN_DESKTOP_TREE`: the tests compare
    /// the last one, kept up to date by partial re-reads, with a full read).
    public var newTree: ((ElementTree) -> Void)?
    /// D-Bus calls the last read sent (the benchmark's note).
    public var lastReadCalls: Int { reader.lastCallCount }
    /// How long the scanner menu's Hold keeps the button down (the profile's `menu.holdTime`).
    public var holdTime: Interval = MenuSettings().holdTime
    /// Keys by keysym through the current layout, on this source's display (nil without one).
    public var keys: DisplayKeys? { performer.keys }

    let appName: String?
    let bus: AtspiBus
    let reader: DesktopReader
    let performer: DesktopPerformer
    /// The display's windows (nil without a display).
    let windows: DisplayWindows?
    private let events = AtspiEvents()
    private let glib = GLibContext()
    private var schedule: RefreshSchedule
    private var floodGuard = BoundsFloodGuard()

    /// What the current tree was read from.
    private var app: AppRef?
    private var snapshot: AtspiNode?
    private(set) var index: [String: DesktopNodeInfo] = [:]
    /// The last window:activate (any application), while following the active window.
    var activeWindow: (bus: String, path: String)?
    /// Applications that did not answer (skipped when looking for the active window).
    var silent: Set<String> = []
    /// The source of the last `tree window` line (application bus + window path); nil after an
    /// `ended` or `notAnswering` line.
    private var lastSource: String?
    var lines: [TranscriptEvent] = []
    private var probe: (bus: String, answered: Bool?)?
    /// Whole reads of web pages under way, by document id.
    private var jobs: [String: PageJob] = [:]
    /// Pages that changed since their last whole read.
    private var changedPages: Set<String> = []
    /// The page (document id) each node of a page belongs to.
    private var pageOf: [String: String] = [:]
    /// Pages the Scroll page scrolled: what showed of them before, and until when they are read
    /// again while a read finds the same (`rereadScrolledPage`).
    private var scrolledPages: [String: (showing: Set<String>, until: Int64)] = [:]
    /// The Windows page (`DesktopSource+Windows.swift`): every window, matched to applications.
    var windowList: [WindowList.Window] = []
    /// What was last handed to the engine, to hand it again only when it changes.
    var sentWindows: [WindowEntry]?
    var sentCurrent: WindowEntry?
    /// The window list wants reading again (a window came, went or was activated).
    var windowsStale = true
    /// Application bus names → their process (asked once).
    var pids: [String: Int32] = [:]
    /// The window scanned now (application bus, window path).
    var scannedWindow: (bus: String, path: String)?
    /// The keyboard's typing: its field, read-backs waiting for the application, the focus said
    /// to the engine (DesktopSource+Typing, issue 18).
    var typing = TypingState()

    /// Connects to the accessibility bus and the display's desktop parts (`display`: the
    /// backend the command line chose). `app`: follow this application instead of the active
    /// window.
    public init(app: String?, display: DisplayBackend, settings: RefreshSchedule.Settings = .init()) throws(DesktopError) {
        bus = try AtspiBus()
        reader = DesktopReader(bus: bus)
        performer = DesktopPerformer(bus: bus, display: display)
        windows = display.windows
        screen = display.screen ?? Size(width: 1920, height: 1080)
        appName = app
        schedule = RefreshSchedule(settings: settings)
        tree = DesktopSource.emptyTree(screen)
        let (bus, origins) = (bus, display.origins)
        reader.windowRelative = origins?.windowRelativeExtents ?? false
        reader.windowOrigin = { app, title, extents, firstChild in
            // Window-relative extents (GTK 4's; every toolkit's on Wayland): the window's origin
            // from the display, by process id and then title.
            guard let origins else { return nil }
            let size = extents.map { Size(width: Double($0.width), height: Double($0.height)) }
            guard let p = origins.origin(pid: bus.pid(of: app.bus), title: title, size: size,
                                         firstChild: { firstChild().map { Point(x: Double($0.x), y: Double($0.y)) } }) else { return nil }
            return AtspiPoint(x: Int32(clamping: Int(p.x)), y: Int32(clamping: Int(p.y)))
        }
        performer.originOf = { [unowned self] id in index[id]?.origin }
    }

    static func emptyTree(_ screen: Size) -> ElementTree {
        ElementTree(screen: screen, root: Element(id: "desktop", isAccessibilityElement: false))
    }

    // MARK: Reading

    /// Starts listening, then reads the tree: the tree the engine starts with, and the transcript
    /// lines that say where it comes from.
    public func start() -> (tree: ElementTree, lines: [TranscriptEvent]) {
        events.start()
        if let why = events.failure { trace?(why) }
        let outcome = readAll()
        startPageJobs()
        _ = schedule.handle(.readFinished(outcome), at: Instant(microseconds: MonotonicClock.nowMicroseconds()))
        newTree?(tree)
        return (tree, takeLines())
    }

    /// One read for `tree show` / `tree dump`: the tree, or why there is none.
    public func readOnce() throws(DesktopError) -> ElementTree {
        let outcome = readAll()
        // A dump is of the whole page: each showing page read whole now (the note: all of them).
        if outcome == .done, let app, let snapshot {
            var note: (items: Int, parts: Int, calls: Int, milliseconds: Double)?
            for doc in DesktopReader.documents(in: snapshot) where reader.pages[doc.id] == nil {
                guard let job = PageJob(document: doc, app: app, bus: bus, getAll: reader.facts(app).getAll) else { continue }
                job.trace = trace
                job.runToEnd()
                let n = note ?? (0, 0, 0, 0)
                note = (n.items + job.note.items, n.parts + job.note.parts, n.calls + job.note.calls,
                        n.milliseconds + Double(job.note.microseconds) / 1000)
                if let page = job.page { place(page) }
            }
            if note != nil { lastPageRead = note }
        }
        if outcome == .done, app != nil { return tree }
        let why = takeLines().compactMap { e -> String? in
            if case .tree(let c) = e, c.change != .window { return c.detail }
            return nil
        }.first
        throw DesktopError(why ?? "nothing to read")
    }

    /// Forgets the web pages read whole, so the next `readOnce` reads them whole again (the
    /// benchmark's repeated reads).
    public func forgetPages() {
        reader.forgetPages(notIn: AtspiNode(id: "", role: .application))
    }

    /// What the last whole read of a page (`readOnce`: of its pages) found and cost (the benchmark's notes).
    public private(set) var lastPageRead: (items: Int, parts: Int, calls: Int, milliseconds: Double)?

    func takeLines() -> [TranscriptEvent] {
        let l = lines
        lines = []
        return l
    }

    /// Finds what to read (the application and its windows), reads it, and makes the tree.
    /// `started`: when the read that came to this began (the trace's note).
    func readAll(started: Int64 = MonotonicClock.nowMicroseconds()) -> RefreshSchedule.ReadOutcome {
        let apps = bus.applications()
        var target: AppRef?
        var windows: [String] = []
        var title = ""
        if let appName {
            guard let a = apps.first(where: { $0.name == appName }) else {
                let names = apps.map(\.name).filter { !$0.isEmpty }
                return end(.ended, app: appName, "no application named \"\(appName)\" on the accessibility bus"
                           + (names.isEmpty ? "" : " (there are: \(names.joined(separator: ", ")))"))
            }
            target = a
            do {
                let all = try reader.windows(of: a)
                let showing = all.filter { $0.info.states.contains(.showing) }
                windows = showing.map(\.path)
                title = (showing.first(where: { $0.info.states.contains(.active) }) ?? showing.first)?.info.name ?? ""
            } catch {
                return fail(error, app: a)
            }
        } else {
            if let w = activeWindow, !silent.contains(w.bus), let a = apps.first(where: { $0.bus == w.bus }) {
                target = a
                windows = [w.path]
            } else {
                let found = reader.activeWindow(among: apps, skip: silent)
                silent.formUnion(found.notAnswering)
                if let f = found.found {
                    target = f.app
                    windows = [f.path]
                    activeWindow = (f.app.bus, f.path)
                } else if let f = newestShowingWindow(apps) {
                    // No window has the keyboard focus (no window manager gave it): the most
                    // recently started application's first showing window.
                    target = f.app
                    windows = [f.path]
                }
            }
            guard let a = target else { return end(.ended, app: "desktop", "no active window") }
            do {
                // The active window, and the application's popups and modal windows that show with it.
                let all = try reader.windows(of: a)
                guard let active = all.first(where: { $0.path == windows[0] }), active.info.states.contains(.showing) else {
                    activeWindow = nil
                    return end(.ended, app: a.name, "its window closed")
                }
                title = active.info.name
                windows += all.filter { $0.path != active.path && $0.info.states.contains(.showing)
                    && ($0.info.role == .window || $0.info.states.contains(.modal)) }.map(\.path)
            } catch {
                return fail(error, app: a)
            }
        }
        guard let app = target else { return .gone }
        let root: AtspiNode
        do {
            root = try reader.read(app, windows: windows)
        } catch {
            return fail(error, app: app)
        }
        silent.remove(app.bus)
        unanswered = nil
        install(root, app: app)
        if scannedWindow?.bus != app.bus || scannedWindow?.path != windows[0] { windowsStale = true }
        scannedWindow = (app.bus, windows[0])
        let source = app.bus + (appName == nil ? windows[0] : "")
        if source != lastSource {
            lastSource = source
            lines.append(.tree(TreeSourceChange(.window, app: app.name, detail: title.isEmpty ? app.name : title)))
        }
        trace?("read \(app.name): \(reader.lastCallCount) calls, \(ScanModel(tree: tree).items.count) items in \(formatNumber(Double(MonotonicClock.nowMicroseconds() - started) / 1000)) ms, started at \(started), done at \(MonotonicClock.nowMicroseconds())")
        return .done
    }

    private func newestShowingWindow(_ apps: [AppRef]) -> (app: AppRef, path: String)? {
        for a in apps.reversed() where !silent.contains(a.bus) {
            guard let all = try? reader.windows(of: a) else { continue }
            if let w = all.first(where: { $0.info.states.contains(.showing) && AtspiMapping.windowRoles.contains($0.info.role) }) {
                return (a, w.path)
            }
        }
        return nil
    }

    /// What the schedule asked for: everything, or the subtrees below some nodes, then some
    /// nodes' values and others' extents outside them (a real move reads everything).
    private func read(_ scope: RefreshSchedule.Scope, _ now: Instant) -> RefreshSchedule.ReadOutcome {
        if scope.isFull || !scope.subtrees.isEmpty {
            // Bounds checks right after it are this change's late layout, not a flood.
            guardOutputs(floodGuard.handle(.shapeRead, at: now))
        }
        if scope.isFull { return readAll() }
        let started = MonotonicClock.nowMicroseconds()
        var scope = scope
        var subtreeCalls: Int?
        var extentsRead: [String: AtspiRect?]?
        if !scope.subtrees.isEmpty || !scope.unlisted.isEmpty {
            guard let app, let snapshot, !scope.subtrees.isEmpty else { return readAll() }
            do {
                // Bounds told outside the subtrees are asked with them.
                guard let read = try reader.subtrees(snapshot, app: app, ids: scope.subtrees, extentsOf: scope.bounds) else {
                    return readAll(started: started)
                }
                install(read.root, app: app)
                extentsRead = read.extents
            } catch {
                return fail(error, app: app)
            }
            // A node the tree did not hold said it shows: the subtrees must have brought it.
            if scope.unlisted.contains(where: { index[$0] == nil }) { return readAll(started: started) }
            var fresh: Set<String> = []
            for id in scope.subtrees { index[id]?.node.forEach { fresh.insert($0.id) } }
            scope.bounds.subtract(fresh)
            scope.nodes.subtract(fresh)
            subtreeCalls = reader.lastCallCount
        }
        if !scope.bounds.isEmpty, let app {
            do {
                let extents: [String: AtspiRect?]
                if let e = extentsRead { extents = e } else { extents = try reader.extents(app, ids: scope.bounds) }
                // Only nodes whose extents the tree holds count (the elements and containers).
                let moved = scope.bounds.contains { id in
                    guard let known = index[id]?.node.extents else { return false }
                    return extents[id] != known
                }
                guardOutputs(floodGuard.handle(.checked(moved: moved), at: now))
                if moved { return readAll(started: started) }
            } catch {
                return fail(error, app: app)
            }
        }
        let outcome = scope.nodes.isEmpty ? .done : readNodes(scope.nodes)
        if let subtreeCalls, let app {
            trace?("read \(app.name): \(subtreeCalls) calls (\(scope.subtrees.count) subtrees), \(ScanModel(tree: tree).items.count) items in \(formatNumber(Double(MonotonicClock.nowMicroseconds() - started) / 1000)) ms, started at \(started), done at \(MonotonicClock.nowMicroseconds())")
        }
        return outcome
    }

    private func guardOutputs(_ outputs: [BoundsFloodGuard.Output]) {
        for o in outputs {
            switch o {
            case .pause:
                events.setListening("object:bounds-changed", false)
                trace?("bounds-changed keeps coming with nothing moved: not listened to for \(floodGuard.settings.pause)")
            case .resume:
                events.setListening("object:bounds-changed", true)
                trace?("bounds-changed listened to again")
            case .setDeadline:
                break  // `prepare` asks the guard
            }
        }
    }

    /// The display said its windows changed (one moved, came or went): the tree's windows at
    /// their origins now. No AT-SPI read: the application does not know it moved.
    private func followWindows() {
        guard let app, let snapshot, let moved = reader.followWindows(snapshot, app: app) else { return }
        install(moved, app: app)
        trace?("windows moved: frames followed at \(MonotonicClock.nowMicroseconds())")
    }

    /// Re-reads only the nodes `ids`; a full read when that cannot do.
    private func readNodes(_ ids: Set<String>) -> RefreshSchedule.ReadOutcome {
        guard let app, let snapshot else { return readAll() }
        do {
            guard let patched = try reader.patch(snapshot, app: app, ids: ids) else { return readAll() }
            install(patched, app: app)
            trace?("patch \(ids.count) nodes, done at \(MonotonicClock.nowMicroseconds())")
            return .done
        } catch {
            return fail(error, app: app)
        }
    }

    private func install(_ root: AtspiNode, app: AppRef) {
        self.app = app
        snapshot = root
        index = [:]
        reader.forgetPages(notIn: root)
        pageOf = [:]
        func visit(_ n: AtspiNode, parent: AtspiNode?, at k: Int, origin: AtspiPoint?, page: String?) {
            let origin = n.windowOrigin ?? origin
            let page = DesktopReader.isDocument(n.role) && n.inDocument ? n.id : page
            index[n.id] = DesktopNodeInfo(node: n, parent: parent, index: k, origin: origin)
            if let page { pageOf[n.id] = page }
            for (i, c) in n.children.enumerated() { visit(c, parent: n, at: i, origin: origin, page: page) }
        }
        visit(root, parent: nil, at: 0, origin: nil, page: nil)
        // The pages kept for the next reads follow what this read changed in them (a node patched).
        for doc in DesktopReader.documents(in: root) where doc.inDocument && reader.pages[doc.id] != nil { reader.keep(page: doc) }
        tree = AtspiMapping.tree(root, screen: screen)
    }

    /// A read of the scanned application that got no answer in time (its `tree notAnswering` line
    /// written), its tree kept until the probe a second later (`fail`): a browser laying out a
    /// large page after a scroll can be busy for longer than the timeout and still answer within
    /// the second; it is then read again (`tree window`) and scanning goes on where it was.
    private var unanswered: (app: String, why: String, bus: String)?

    /// `deferrable`: a read (not a perform) of the application scanned now may keep its tree until
    /// the next probe says whether it answers (then it is read again, and scanning goes on where it
    /// was); a perform that gets no answer, or a second silence, ends the tree at once.
    private func fail(_ error: DesktopReader.Failure, app: AppRef, deferrable: Bool = true) -> RefreshSchedule.ReadOutcome {
        switch error {
        case .notAnswering where bus.isOnBus(app.bus):
            silent.insert(app.bus)
            probe = (app.bus, nil)
            let why = "no reply within \(AtspiBus.timeoutMilliseconds) ms"
            if deferrable, self.app?.bus == app.bus, !index.isEmpty, unanswered == nil {
                // The line now (the pause it cost is this one timeout), the tree kept until the probe.
                unanswered = (app.name, why, app.bus)
                let key = "notAnswering:" + app.name
                if lastSource != key {
                    lastSource = key
                    lines.append(.tree(TreeSourceChange(.notAnswering, app: app.name, detail: why)))
                }
                trace?("read \(app.name): no reply in time; its tree kept until the probe")
                return .notAnswering
            }
            unanswered = nil
            if appName == nil, activeWindow?.bus != app.bus { activeWindow = nil }
            return end(.notAnswering, app: app.name, why, bus: app.bus)
        case .notAnswering, .gone:
            if activeWindow?.bus == app.bus { activeWindow = nil }
            silent.remove(app.bus)
            let quit = !bus.isOnBus(app.bus)
            if case .gone(let why) = error, !quit { return end(.ended, app: app.name, why) }
            return end(.ended, app: app.name, "the application quit")
        }
    }

    /// Ends the tree: nothing to scan, and a line that says why (once).
    private func end(_ change: TreeSourceChange.Change, app name: String, _ why: String, bus: String? = nil) -> RefreshSchedule.ReadOutcome {
        app = nil
        snapshot = nil
        index = [:]
        tree = DesktopSource.emptyTree(screen)
        // Once per ending: what follows until a window comes is the same ending seen again.
        let key = change == .notAnswering ? "notAnswering:" + name : "ended"
        if lastSource != key {
            lastSource = key
            lines.append(.tree(TreeSourceChange(change, app: name, detail: why)))
        }
        return change == .notAnswering ? .notAnswering : .gone
    }

    // MARK: Web pages

    /// A page read whole put in place of its document: in the tree scanned now and in the reads to
    /// come (until the next whole read of it).
    private func place(_ read: AtspiNode) {
        guard var root = snapshot, let app, read.id.hasPrefix(app.bus) else { return }
        var page = read
        do {
            try reader.completeDetails(&page, app: app, known: index.mapValues(\.node))
        } catch {
            trace?("page \(page.id): details not read: \(error)")
        }
        reader.keep(page: page)
        func splice(_ n: inout AtspiNode) -> Bool {
            if n.id == page.id {
                n.children = page.children
                n.extents = page.extents
                n.inDocument = true
                return true
            }
            for k in n.children.indices where splice(&n.children[k]) { return true }
            return false
        }
        guard splice(&root) else { return }
        install(root, app: app)
    }

    /// Starts a whole read of every showing page that has none or changed since (one job per
    /// page at a time: a page that changes while its job runs is read again after it).
    private func startPageJobs() {
        guard let app, let snapshot else { return }
        for doc in DesktopReader.documents(in: snapshot) where jobs[doc.id] == nil {
            guard reader.pages[doc.id] == nil || changedPages.contains(doc.id) else { continue }
            changedPages.remove(doc.id)
            guard let job = PageJob(document: doc, app: app, bus: bus, getAll: reader.facts(app).getAll) else { continue }
            job.trace = trace
            jobs[doc.id] = job
        }
    }

    /// Advances the page jobs with the replies that came; a finished page goes into the tree.
    private func stepPageJobs() {
        for (id, job) in jobs where job.step() {
            jobs[id] = nil
            lastPageRead = (job.note.items, job.note.parts, job.note.calls, Double(job.note.microseconds) / 1000)
            if let page = job.page, job.app.bus == app?.bus {
                rereadScrolledPage(page)
                place(page)
            }
            if case .failed(let why) = job.phase { trace?("page \(id) not read: \(why)") }
        }
    }

    /// A page read after the Scroll page scrolled it that still shows what it showed before is read
    /// again, until it shows something else or the highlight no longer follows the scroll: the
    /// browsers say nothing when a page scrolls, and Firefox moves its page a moment after
    /// `ScrollTo` answered (a read right after it can find the page where it was).
    private func rereadScrolledPage(_ page: AtspiNode) {
        guard let s = scrolledPages[page.id] else { return }
        if MonotonicClock.nowMicroseconds() < s.until, DesktopSource.showing(in: page) == s.showing {
            changedPages.insert(page.id)
        } else {
            scrolledPages[page.id] = nil
        }
    }

    /// The ids of what shows of a page.
    static func showing(in page: AtspiNode) -> Set<String> {
        var ids: Set<String> = []
        page.forEach { if $0.id != page.id, $0.states.contains(.showing) { ids.insert($0.id) } }
        return ids
    }

    /// Pages an event may have changed: the one holding a known node, or every page of the
    /// application for a node the tree does not hold.
    private func notePageChange(_ e: DesktopEvent) {
        guard e.bus == app?.bus, !pageOf.isEmpty || reader.pages.keys.contains(where: { $0.hasPrefix(e.bus) }) else { return }
        let shape = e.type.hasPrefix("object:children-changed") || e.type.hasPrefix("object:state-changed:showing")
            || e.type.hasPrefix("object:state-changed:visible") || e.type.hasPrefix("object:state-changed:defunct")
            || e.type.hasPrefix("object:state-changed:expanded") || e.type.hasPrefix("object:bounds-changed")
            || e.type.hasPrefix("object:property-change:accessible-name")
        guard shape else { return }
        if let doc = pageOf[e.id] {
            changedPages.insert(doc)
        } else if index[e.id] == nil {
            for id in reader.pages.keys where id.hasPrefix(e.bus) { changedPages.insert(id) }
        }
    }

    // MARK: The loop

    public func prepare(nowMonotonic: Int64) -> LoopInterest {
        var interest = glib.prepare(nowMonotonic: nowMonotonic)
        // A stale window list is read at the next turn of the loop; a display that tells of
        // changes itself is watched.
        let windowsDue: Int64? = windowsStale && windows != nil && appName == nil ? nowMonotonic : nil
        // Watched with --app too: a window that moves moves its tree (Wayland's window-relative
        // extents follow the window's origin).
        if case .descriptor(let fd) = windows?.changes { interest.fds.append(LoopFD(fd: fd, events: LoopFD.readable)) }
        let reads = gesturing ? [] : [schedule.deadline, floodGuard.deadline].compactMap({ $0?.microseconds })
        for d in reads + [performer.gestures.deadline, windowsDue, typing.readDeadline].compactMap({ $0 }) {
            interest.deadline = min(interest.deadline ?? d, d)
        }
        return interest
    }

    public func dispatch(ready: [LoopFD], nowMonotonic: Int64) -> [ShellInput] {
        glib.dispatch(ready: ready)
        let before = tree
        if case .descriptor(let fd) = windows?.changes, ready.contains(where: { $0.fd == fd }), windows?.takeChanges() == true {
            if appName == nil { windowsStale = true }
            followWindows()
        }
        performer.runGestures(now: nowMonotonic)
        if !gesturing { readWhatChanged(nowMonotonic: nowMonotonic) }
        var inputs: [ShellInput] = takeLines().map { .line($0) }
        if let w = refreshWindows() { inputs.append(w) }
        if tree != before {
            inputs.append(.layout(tree))
            newTree?(tree)
            trace?("layout handed at \(MonotonicClock.nowMicroseconds())")
        }
        inputs += typingDue(nowMonotonic: nowMonotonic)
        if let f = keyboardFocusChange() { inputs.append(f) }
        return inputs
    }

    /// A pointer gesture is under way (a double click's second click, a drag's moves are still
    /// to come): no tree is read until it is over. The application reacts to the first click (a
    /// row selected), and a read of it, synchronous on this loop, could hold the next step back:
    /// on a loaded machine past the toolkit's double-click time (GTK: 400 ms), so that the double
    /// click becomes two clicks. What changed is read as soon as the gesture ends (at most its
    /// length: a drag 0.5 s, a hold the menu's hold time).
    private var gesturing: Bool { performer.gestures.deadline != nil }

    /// The application's events, the probe's answer and the schedule's deadline: the reads they
    /// ask for, and the web pages' jobs.
    private func readWhatChanged(nowMonotonic: Int64) {
        let now = Instant(microseconds: nowMonotonic)
        stepPageJobs()
        if let p = probe, let answered = p.answered {
            probe = (p.bus, nil)
            if let u = unanswered, u.bus == p.bus {
                // Still silent a second later: hung, not busy; its tree ends now.
                unanswered = nil
                if !answered {
                    if appName == nil, activeWindow?.bus != u.bus { activeWindow = nil }
                    _ = end(.notAnswering, app: u.app, u.why, bus: u.bus)
                }
            }
            run(schedule.handle(answered ? .probeAnswered : .probeFailed, at: now), now)
        }
        let context = DesktopEventRules.Context(appBus: app?.bus, followsActiveWindow: appName == nil, knows: { self.index[$0] != nil },
                                                parent: { id in self.index[id]?.parent.flatMap { $0.role == .application ? nil : $0.id } },
                                                inPage: { id in self.pageOf[id].map { self.reader.pages[$0] != nil } ?? false })
        for e in events.drain() {
            if e.type == "window:activate" { activeWindow = (e.bus, e.path) }
            if e.type.hasPrefix("window:") || (e.path == DesktopReader.rootPath && e.type.hasPrefix("object:children-changed")) {
                windowsStale = true
            }
            if e.bus == app?.bus || silent.contains(e.bus) { silent.remove(e.bus) }
            let change = DesktopEventRules.change(type: e.type, bus: e.bus, id: e.id, detail1: e.detail1, path: e.path, context)
            trace?("event \(e.type) \(e.id) \(e.detail1) → \(change.map { "\($0)" } ?? "ignored") at \(nowMonotonic)")
            notePageChange(e)
            if let c = change {
                run(schedule.handle(.change(c), at: now), now)
            }
        }
        if let d = schedule.deadline, d <= now { run(schedule.handle(.deadline, at: now), now) }
        if let d = floodGuard.deadline, d <= now { guardOutputs(floodGuard.handle(.deadline, at: now)) }
        startPageJobs()
    }

    private func run(_ outputs: [RefreshSchedule.Output], _ now: Instant) {
        for o in outputs {
            switch o {
            case .read(let scope):
                let outcome = read(scope, now)
                run(schedule.handle(.readFinished(outcome), at: Instant(microseconds: MonotonicClock.nowMicroseconds())), now)
            case .probe:
                guard let p = probe else {
                    run(schedule.handle(.probeFailed, at: now), now)
                    continue
                }
                bus.ping(p.bus) { [weak self] ok in self?.probe = (p.bus, ok) }
            case .busy(let on):
                let name = app?.name ?? appName ?? "desktop"
                lines.append(.tree(TreeSourceChange(on ? .busy : .settled, app: name, detail: on
                    ? "it changes without a pause: read once every \(formatNumber(Double(schedule.settings.busyInterval.microseconds) / 1e6)) s until it settles"
                    : "read as it changes again")))
            case .setDeadline, .cancelDeadline:
                break  // `prepare` asks the schedule for its deadline
            }
        }
    }

    public func observe(_ line: TranscriptLine, model: ScanModel) -> [ShellInput] {
        switch line.event {
        case .keyboard(.opened(_, _, let id, let label, let password)):
            keyboardOpened(id: id, label: label, password: password)
            return []
        case .keyboard(.closed):
            typingInto = nil
            return []
        case .typed(let typed):
            return type(typed)
        default:
            break
        }
        guard case .perform(let p) = line.event else { return [] }
        let step = DesktopPerformPlan.step(for: p, lookup: { self.index[$0] }, holdTime: holdTime)
        if step == .elsewhere { return [] }
        if case .window(let id, let close) = step { return windowPerform(p, id: id, close: close) }
        let (outcome, notAnswering) = performer.perform(step)
        var inputs: [ShellInput] = [.line(.result(PerformResult(p, outcome)))]
        let now = Instant(microseconds: MonotonicClock.nowMicroseconds())
        if notAnswering, let app {
            let before = tree
            run(schedule.handle(.readFinished(fail(.notAnswering, app: app, deferrable: false)), at: now), now)
            inputs += takeLines().map { .line($0) }
            if tree != before { inputs.append(.layout(tree)); newTree?(tree) }
        } else {
            // Whatever the application says about it, a perform changes the UI: read again once it
            // settled (some changes send no event at all: GTK3's gtk_box_pack_start); its pages
            // too (a page scrolled by it says nothing of what shows now).
            run(schedule.handle(.change(.structure), at: now), now)
            if let bus = app?.bus {
                for id in reader.pages.keys where id.hasPrefix(bus) {
                    changedPages.insert(id)
                    // The page scrolled (the perform's container), when something of it showed.
                    if case .scroll = p.action, case .done = outcome, id == p.id, let page = reader.pages[id] {
                        let showing = DesktopSource.showing(in: page)
                        if !showing.isEmpty { scrolledPages[id] = (showing, now.microseconds + Scanner.scrollFollowTime.microseconds) }
                    }
                }
            }
        }
        return inputs
    }

    /// The field the keyboard types into, and how (DesktopSource+Typing).
    var typingInto: TypingTarget? {
        get { typing.target }
        set { typing.target = newValue }
    }

    public func finish() {
        performer.finish()
        events.stop()
    }
}
