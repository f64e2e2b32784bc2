/// `text stats`: a phrase typed on the keyboard by a perfect user, with the real engine on the
/// virtual clock (docs/typing.md). The user knows the phrase and the screen, never errs, and
/// presses at the very end of the right stop's dwell (1 µs before the dwell's timer), which is
/// what `tree stats` counts (`ScanCostModel`: the stop at index j of a level costs (j+1)·T); with
/// k switches it presses the colour holding its key one scan time after the colours show
/// (T + hold per press). It takes a predicted word as soon as the row shows the word it is typing
/// (with at least one letter still to type), else the key of the next character, reaching other
/// pages through their page keys. Case is not compared: the keyboard capitalises sentence starts
/// by itself, and text-entry phrase sets are typed without case.
///
/// A phrase's time runs from the keyboard's opening (t = 0) to the press that typed its last
/// character; its presses are the accepted presses.
public struct TextEntrySimulation: Sendable {
    public enum Method: Sendable, Equatable, Hashable {
        case linear, grouped, rowColumn, auto
        case groupSelection(Int)

        /// `tree stats`'s names.
        public var name: String {
            switch self {
            case .linear: return "linear"
            case .grouped: return "grouped"
            case .rowColumn: return "rowColumn"
            case .auto: return "auto"
            case .groupSelection: return "groupSelection"
            }
        }

        public var switches: Int {
            if case .groupSelection(let k) = self { return k }
            return 1
        }

        var grouping: Grouping {
            switch self {
            case .linear: return .none
            case .grouped, .groupSelection: return .containers
            case .rowColumn: return .rowColumn
            case .auto: return .auto
            }
        }

        public static let all: [Method] = [.linear, .grouped, .rowColumn, .auto] + (2...6).map { .groupSelection($0) }
    }

    /// One phrase's outcome.
    public struct PhraseResult: Sendable, Equatable {
        public var time: Interval
        public var presses: Int
        public var characters: Int
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// No page has a key for this character.
        case untypeable(Character)
        /// The engine did not let the user reach its key (a bug, or scanning stopped).
        case stuck(String)

        public var description: String {
            switch self {
            case .untypeable(let c): return "no key types \"\(c)\""
            case .stuck(let why): return why
            }
        }
    }

    public let profile: Profile
    public let layout: KeyboardLayout
    public let method: Method

    /// `base`'s timings, filters and keyboard settings, scanned with `method` and `predictions`
    /// words; speech off (a perfect user does not wait for it).
    public init(base: Profile, layout: KeyboardLayout, method: Method, predictions: Int) {
        var p = base
        p.scanning.style = .auto
        p.scanning.speech = false
        p.scanning.pauseForSpeech = false
        p.scanning.grouping = method.grouping
        p.keyboard.grouping = method.grouping
        p.keyboard.predictions = predictions
        switch method {
        case .groupSelection(let k):
            p.scanning.mode = .groupSelection
            p.switches = (0..<k).map { SwitchBinding(keyName: "KEY_\($0 + 1)", code: UInt16(2 + $0), action: SwitchAction.groups[$0]) }
        default:
            p.scanning.mode = .item
            p.switches = [SwitchBinding(keyName: "KEY_SPACE", code: EventCodes.KEY_SPACE, action: .select)]
        }
        profile = p
        self.method = method
        // Arranged once for this configuration: every phrase's engine opens it as it is.
        var settings = p.scanning
        if let t = p.keyboard.autoScanningTime { settings.autoScanningTime = t }
        let cost = ScanCostModel(settings, holdDuration: p.switchStabilization.holdDuration)
        self.layout = KeyboardArrangement.arrange(layout, method: KeyboardArrangement.Method(
            grouping: method.grouping, cost: cost, groupSwitches: method.switches > 1 ? method.switches : 0), slots: predictions)
    }

    /// The tree the keyboard opens over: one text field filling the top of a 1280 × 800 screen.
    static let fieldTree = ElementTree(screen: Size(width: 1280, height: 800), root: Element(
        id: "window", frame: Rect(x: 0, y: 0, width: 1280, height: 800),
        children: [Element(id: "field", label: "Message", frame: Rect(x: 20, y: 20, width: 1240, height: 40), textEntry: .singleLine)]))

    /// Types `phrase`; `predict(context, count)` answers every prediction the keyboard asks for.
    public func type(_ phrase: String, predict: (String, Int) -> [String]) throws(Failure) -> PhraseResult {
        var models = KeyboardModelCache()
        return try type(phrase, models: &models, predict: predict)
    }

    /// `type`, with the keyboard's trees kept from one phrase to the next (`models`).
    public func type(_ phrase: String, models: inout KeyboardModelCache, predict: (String, Int) -> [String]) throws(Failure) -> PhraseResult {
        var engine = Engine(tree: TextEntrySimulation.fieldTree, profile: profile, devices: [nil])
        engine.keyboardLayout = layout
        engine.keyboardModels = models
        models = KeyboardModelCache()  // not shared while the engine adds to it (no copy)
        defer { models = engine.keyboardModels }
        _ = engine.start(at: .zero)
        _ = engine.openKeyboard(fieldID: "field", at: .zero)
        var now = Instant.zero
        serve(&engine, now, predict)
        let target = Array(phrase.lowercased())
        var presses = 0
        var finished = Instant.zero
        let hold = profile.switchStabilization.holdDuration
        let scanTime = profile.keyboard.autoScanningTime ?? profile.scanning.autoScanningTime
        var lastShown = Instant.zero
        var steps = 0
        while true {
            guard let text = engine.keyboardText else { throw .stuck("the keyboard closed") }
            guard let goal = try next(text, target, engine.model) else { break }
            // Reach `goal`: presses at the end of the right stops' dwells (or the right colours).
            var chosen = false
            while !chosen {
                steps += 1
                if steps > 200_000 { throw .stuck("no way to \(goal) after 200,000 steps") }
                if case .groupSelection = method {
                    guard let color = engine.colorHolding(itemID: goal) else { throw .stuck("no colour holds \(goal)") }
                    let at = lastShown + scanTime
                    let lines = press(&engine, code: UInt16(2 + color), at: at, hold: hold)
                    presses += 1
                    now = at + hold + .milliseconds(1)
                    lastShown = at + hold
                    chosen = lines.contains { if case .typed = $0.event { return true }; if case .keyboard = $0.event { return true }; return false }
                    finished = at + hold
                } else {
                    guard let due = engine.scanDeadline else { throw .stuck("scanning stopped before \(goal)") }
                    switch engine.highlightReach(itemID: goal) {
                    case .item?, .group?:
                        let isItem = engine.highlightReach(itemID: goal) == .item
                        let at = due - Interval(microseconds: 1)
                        _ = press(&engine, code: EventCodes.KEY_SPACE, at: at, hold: hold)
                        presses += 1
                        now = at + hold + .milliseconds(1)
                        chosen = isItem
                        finished = at + hold
                    case nil:
                        _ = engine.advance(to: due)
                        now = due
                    }
                }
                serve(&engine, now, predict)
            }
        }
        return PhraseResult(time: finished - .zero, presses: presses, characters: target.count)
    }

    /// A press at `at`, released once accepted (`hold` later, plus 1 ms).
    private func press(_ engine: inout Engine, code: UInt16, at: Instant, hold: Interval) -> [TranscriptLine] {
        let syn = InputEvent(type: EventCodes.EV_SYN, code: EventCodes.SYN_REPORT, value: 0)
        var lines = engine.handle(frame: InputFrame(time: at, events: [InputEvent(type: EventCodes.EV_KEY, code: code, value: 1), syn]), device: 0)
        let release = at + hold + .milliseconds(1)
        lines += engine.advance(to: release)
        lines += engine.handle(frame: InputFrame(time: release, events: [InputEvent(type: EventCodes.EV_KEY, code: code, value: 0), syn]), device: 0)
        return lines
    }

    private func serve(_ engine: inout Engine, _ now: Instant, _ predict: (String, Int) -> [String]) {
        var guardCount = 0
        while let request = engine.wantedPredictions, guardCount < 4 {
            guardCount += 1
            _ = engine.setPredictions(predict(request.context, request.count), context: request.context, at: now)
        }
    }

    /// The item the user goes for next: a predicted word, the key of the next character, or the
    /// page key towards it; nil when the phrase is typed.
    func next(_ text: KeyboardText, _ target: [Character], _ model: ScanModel) throws(Failure) -> String? {
        var typed = Array(text.before.lowercased())
        if typed == target || typed == target + [" "] { return nil }
        if !typed.starts(with: target.prefix(typed.count)) || typed.count > target.count {
            // A chosen word's space before a closing mark: the mark takes its place.
            if text.autoSpace, typed.last == " ", Array(typed.dropLast()) == Array(target.prefix(typed.count - 1)) {
                typed.removeLast()
            } else {
                throw .stuck("typed \"\(text.before)\", which is not the start of \"\(String(target))\"")
            }
        }
        let remaining = target[typed.count...]
        let prefix = Array(text.wordPrefix.lowercased())
        let rest = remaining.prefix(while: KeyboardText.isWordCharacter)
        if !rest.isEmpty, typed.count == text.before.count {
            let word = String(prefix + rest)
            let after = remaining.dropFirst(rest.count).first
            if after == nil || after == " " || KeyboardText.closingMarks.contains(after!),
               model.itemIndex(id: KeyboardTree.wordPrefix + word) != nil {
                return KeyboardTree.wordPrefix + word
            }
        }
        let c = remaining.first!
        let kind: KeyboardLayout.Kind = c == " " ? .space : (c == "\n" ? .returnKey : .text(String(c)))
        func matches(_ key: KeyboardLayout.Key) -> Bool {
            if case .text(let t) = key.kind, case .text(let want) = kind { return t.lowercased() == want }
            return key.kind == kind
        }
        // The page the keyboard shows is the one whose keys are in the model.
        let current = layout.pages.first { page in page.rows.joined().allSatisfy { model.itemIndex(id: $0.id) != nil } } ?? layout.pages[0]
        if let key = current.rows.joined().first(where: matches) { return key.id }
        // Breadth-first over page keys to a page that has it.
        var seen: Set<String> = [current.name]
        var queue: [(page: KeyboardLayout.Page, first: String)] = []
        for key in current.rows.joined() { if case .page(let p) = key.kind, let page = layout.page(named: p), seen.insert(p).inserted { queue.append((page, key.id)) } }
        while !queue.isEmpty {
            let (page, first) = queue.removeFirst()
            if page.rows.joined().contains(where: matches) { return first }
            for key in page.rows.joined() { if case .page(let p) = key.kind, let next = layout.page(named: p), seen.insert(p).inserted { queue.append((next, first)) } }
        }
        throw .untypeable(c)
    }
}
