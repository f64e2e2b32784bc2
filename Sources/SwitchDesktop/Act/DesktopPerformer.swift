import SwitchCore
import SwitchDisplay
import SwitchInput

/// Carries out `DesktopStep`s: accessible actions, tab selection and values through D-Bus (on the
/// application's connection, with the bus timeout), clicks and the Escape key through the
/// display's pointer and keys (`DisplayPointer`, `DisplayKeys`: XTest on X11); the scanner menu's
/// keys by keysym and its pointer gestures, whose operations run over time from the loop
/// (`gestures`: the desktop adapter asks for its deadline and runs what is due). A part the
/// display lacks fails the step in the backend's words ("no X display to click on").
final class DesktopPerformer {
    let bus: AtspiBus
    private let pointer: DisplayPointer?
    let keys: DisplayKeys?
    /// What a step that needs a missing part says (the backend's words: "no X display to click on").
    let missing: (DisplayNeed) -> String
    let gestures = TimedSteps<PointerOp>()
    /// The screen origin of the window a node is in, when its toolkit's extents are relative to
    /// it (GTK 4; every toolkit on Wayland): an extent read here is moved by it.
    var originOf: (String) -> AtspiPoint? = { _ in nil }

    init(bus: AtspiBus, display: DisplayBackend) {
        self.bus = bus
        pointer = display.pointer
        keys = display.keys
        missing = display.missing
    }

    /// The gesture operations due at `now` (CLOCK_MONOTONIC µs), carried out.
    func runGestures(now: Int64) {
        for op in gestures.takeDue(now) { _ = pointer?.perform(op) }
    }

    /// At the end of the loop: no button stays down, whatever was changed to send keys is put back.
    func finish() {
        for op in gestures.takeAll() {
            if case .button(_, down: false) = op { _ = pointer?.perform(op) }
        }
        keys?.finish()
    }

    /// (bus name, object path) of a node id (":1.42/org/a11y/…").
    static func split(_ id: String) -> (bus: String, path: String)? {
        guard let slash = id.firstIndex(of: "/"), slash != id.startIndex else { return nil }
        return (String(id[..<slash]), String(id[slash...]))
    }

    /// The outcome, and whether the application did not answer in time.
    func perform(_ step: DesktopStep) -> (PerformResult.Outcome, notAnswering: Bool) {
        switch step {
        case .fail(let why):
            return (.failed(why), false)
        case .escapeKey:
            guard let keys else { return (.failed(missing(.escapeKey)), false) }
            switch keys.send(KeyCombo(modifiers: [], keyName: "Escape", keysym: 0xff1b)) {  // XK_Escape
            case .success: return (.done("key Escape"), false)
            case .failure(let why): return (.failed(why.description), false)
            }
        case .click(let id, let point):
            guard let pointer else { return (.failed(missing(.click)), false) }
            var how = "click at \(point)"
            if let id, let (b, p) = DesktopPerformer.split(id), let batch = bus.batch(for: b) {
                // Focus first, so a widget that acts on focus + release gets both.
                let t = batch.call(p, "org.a11y.atspi.Component", "GrabFocus")
                if case .failure(.timeout) = batch.reply(t) { return (.failed(DBusCallError.timeout.reason), true) }
                how = "focus + " + how
            }
            if case .failure(let why) = pointer.click(.left, at: point) { return (.failed(why.description), false) }
            return (.done(how), false)
        case .pointer(let ops, let how):
            guard let pointer, pointer.unavailable == nil else { return (.failed(missing(.pointerGesture)), false) }
            gestures.schedule(ops.map { ($0.after, $0.op) }, now: MonotonicClock.nowMicroseconds())
            runGestures(now: MonotonicClock.nowMicroseconds())
            return (.done(how), false)
        case .keys(let text):
            guard let keys else { return (.failed(missing(.keys)), false) }
            guard let combo = try? KeyCombo(parsing: text) else { return (.failed("\"\(text)\" is not a key combination"), false) }
            switch keys.send(combo) {
            case .success(let how): return (.done(how), false)
            case .failure(let why): return (.failed(why.description), false)
            }
        case .elsewhere:
            return (.failed("not the desktop's to do"), false)
        case .focus(let id):
            return call(id, "org.a11y.atspi.Component", "GrabFocus", []) { v in
                v?.bool == false ? .failed("it cannot take the focus") : .done("focused (adjust it with increment and decrement)")
            }
        case .focusField(let id):
            return call(id, "org.a11y.atspi.Component", "GrabFocus", []) { v in
                v?.bool == false ? .failed("it cannot take the focus") : .done("focused (the keyboard types into it)")
            }
        case .doAction(let id, let index, let name):
            return call(id, "org.a11y.atspi.Action", "DoAction", [.i32(Int32(clamping: index))]) { v in
                v?.bool == false ? .failed("the application refused action \"\(name)\"") : .done("action \"\(name)\"")
            }
        case .selectTab(let listID, let index):
            return call(listID, "org.a11y.atspi.Selection", "SelectChild", [.i32(Int32(clamping: index))]) { v in
                v?.bool == false ? .failed("the tab list refused to select tab \(index + 1)") : .done("selected tab \(index + 1) of its tab list")
            }
        case .scrollIntoViewThenActivate(let id):
            return scrollIntoViewThenActivate(id)
        case .scrollTo(let id, let type, let what):
            return call(id, "org.a11y.atspi.Component", "ScrollTo", [.u32(type)]) { v in
                v?.bool == false ? .failed("the page did not scroll") : .done("scrolled \(what)")
            }
        case .scrollBar(let id, let direction, let page):
            return moveScrollBar(id, direction, page: page)
        case .wheel(let point, let button, let clicks, let what):
            guard let pointer else { return (.failed(missing(.scroll)), false) }
            let direction = ScrollDirection(wheelButton: button)
            for _ in 0..<clicks {
                if case .failure(let why) = pointer.wheel(direction, at: point) { return (.failed(why.description), false) }
            }
            return (.done("\(clicks) wheel clicks at \(point): \(what)"), false)
        case .window:
            return (.failed("not the performer's to do"), false)  // the live desktop does it
        case .stepValue(let id, let up):
            do {
                let (batch, p, value) = try readValue(id)
                let after = try setValue(batch, p, value.stepped(up: up))
                if after == value.current { return (.failed("the value stays at \(formatNumber(after))"), false) }
                return (.done("value \(formatNumber(value.current)) → \(formatNumber(after))"), false)
            } catch { return (error.outcome, error.notAnswering) }
        }
    }

    /// A scroll bar's Value read, then moved by `page` (or to an end), read back.
    private func moveScrollBar(_ id: String, _ direction: ScrollDirection, page: Double) -> (PerformResult.Outcome, notAnswering: Bool) {
        do {
            let (batch, p, value) = try readValue(id)
            let current = value.current
            let target: Double
            switch direction {
            case .down, .right: target = min(value.maximum, current + page)
            case .up, .left: target = max(value.minimum, current - page)
            case .top: target = value.minimum
            case .bottom: target = value.maximum
            }
            if target == current { return (.failed("the list is already at its \(direction == .up || direction == .top || direction == .left ? "start" : "end")"), false) }
            let after = try setValue(batch, p, target)
            return (.done("scroll bar \(formatNumber(current)) → \(formatNumber(after))"), false)
        } catch { return (error.outcome, error.notAnswering) }
    }

    /// Ends a perform early: its outcome, and whether the application did not answer in time.
    private struct Stop: Error {
        var outcome: PerformResult.Outcome
        var notAnswering = false
    }

    /// An element's Value, read in one round trip (with the batch and path its `setValue` goes through).
    private func readValue(_ id: String) throws(Stop) -> (batch: DBusBatch, path: String, value: AtspiValue) {
        guard let (b, p) = DesktopPerformer.split(id), let batch = bus.batch(for: b) else { throw Stop(outcome: .failed("the element is gone")) }
        let t = batch.properties(p, "org.a11y.atspi.Value", AtspiValue.propertyNames)
        let props: [String: DBusValue]
        switch batch.reply(t) {
        case .success(let v): props = v?.dictionary ?? [:]
        case .failure(let e): throw Stop(outcome: .failed(e.reason), notAnswering: e == .timeout)
        }
        return (batch, p, AtspiValue(current: props["CurrentValue"]?.double ?? 0, minimum: props["MinimumValue"]?.double ?? 0,
                                     maximum: props["MaximumValue"]?.double ?? 0, increment: props["MinimumIncrement"]?.double ?? 0))
    }

    /// The Value set to `target`, then read back (`target` when the read-back says nothing).
    private func setValue(_ batch: DBusBatch, _ p: String, _ target: Double) throws(Stop) -> Double {
        let set = batch.call(p, "org.freedesktop.DBus.Properties", "Set",
                             [.string("org.a11y.atspi.Value"), .string("CurrentValue"), .variantDouble(target)])
        let now = batch.property(p, "org.a11y.atspi.Value", "CurrentValue")
        batch.flush()
        if case .failure(let e) = batch.reply(set) { throw Stop(outcome: .failed(e.reason), notAnswering: e == .timeout) }
        return (try? batch.reply(now).get())??.double ?? target
    }

    /// `Component.ScrollTo(ANYWHERE)`, then the default action read afresh, else a click at the
    /// centre of where it is now.
    private func scrollIntoViewThenActivate(_ id: String) -> (PerformResult.Outcome, notAnswering: Bool) {
        guard let (b, p) = DesktopPerformer.split(id), let batch = bus.batch(for: b) else { return (.failed("the element is gone"), false) }
        let scrolled = batch.call(p, "org.a11y.atspi.Component", "ScrollTo", [.u32(6)])  // ATSPI_SCROLL_ANYWHERE
        let actions = batch.call(p, "org.a11y.atspi.Action", "GetActions")
        let extents = batch.call(p, "org.a11y.atspi.Component", "GetExtents", [.u32(0)])
        batch.flush()
        switch batch.reply(scrolled) {
        case .failure(let e): return (.failed(e.reason), e == .timeout)
        case .success(let v) where v?.bool == false: return (.failed("the page did not scroll it into view"), false)
        case .success: break
        }
        let count = (try? batch.reply(actions).get())??.items.count ?? 0
        var name = ""
        if count > 0, case .success(let v) = batch.reply(batch.call(p, "org.a11y.atspi.Action", "GetName", [.i32(0)])) {
            name = v?.string ?? ""
        }
        if count > 0 {
            let t = batch.call(p, "org.a11y.atspi.Action", "DoAction", [.i32(0)])
            switch batch.reply(t) {
            case .failure(let e): return (.failed(e.reason), e == .timeout)
            case .success(let v) where v?.bool == false: return (.failed("the application refused action \"\(name)\""), false)
            case .success: return (.done("scrolled into view + action \"\(name)\""), false)
            }
        }
        guard let pointer, var f = DesktopReader.rect((try? batch.reply(extents).get()) ?? nil)?.frame else {
            return (.failed("scrolled into view, but it has no action and no place on screen to click"), false)
        }
        if let o = originOf(id) {
            f.x += Double(o.x)
            f.y += Double(o.y)
        }
        if case .failure(let why) = pointer.click(.left, at: f.center) { return (.failed(why.description), false) }
        return (.done("scrolled into view + click at \(f.center)"), false)
    }

    private func call(_ id: String, _ interface: String, _ member: String, _ args: [DBusArgument],
                      _ outcome: (DBusValue?) -> PerformResult.Outcome) -> (PerformResult.Outcome, notAnswering: Bool) {
        guard let (b, p) = DesktopPerformer.split(id), let batch = bus.batch(for: b) else { return (.failed("the element is gone"), false) }
        let t = batch.call(p, interface, member, args)
        switch batch.reply(t) {
        case .success(let v): return (outcome(v), false)
        case .failure(let e): return (.failed(e.reason), e == .timeout)
        }
    }
}
