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
        p.keyboard.learning = false  // `text stats` never learns
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
    ///
    /// Linear in the phrase: what the field holds is followed from the `type` lines (`Written`),
    /// never read whole again, and the engine's text is never held while the engine edits it.
    public func type(_ phrase: String, models: inout KeyboardModelCache, predict: (String, Int) -> [String]) throws(Failure) -> PhraseResult {
        var engine = Engine(tree: TextEntrySimulation.fieldTree, profile: profile, devices: [nil])
        engine.keyboardLayout = layout
        engine.keyboardModels = models
        models = KeyboardModelCache()  // not shared while the engine adds to it (no copy)
        defer { models = engine.keyboardModels }
        var written = Written(target: Array(phrase.lowercased()))
        written.take(engine.start(at: .zero))
        written.take(engine.openKeyboard(fieldID: "field", at: .zero))
        var now = Instant.zero
        serve(&engine, now, predict, &written)
        var presses = 0
        var finished = Instant.zero
        let hold = profile.switchStabilization.holdDuration
        let scanTime = profile.keyboard.autoScanningTime ?? profile.scanning.autoScanningTime
        var lastShown = Instant.zero
        while true {
            guard let autoSpace = engine.keyboardText?.autoSpace else { throw .stuck("the keyboard closed") }
            guard let goal = try next(&written, autoSpace: autoSpace, engine.model) else { break }
            // Reach `goal`: presses at the end of the right stops' dwells (or the right colours).
            var chosen = false
            var steps = 0
            while !chosen {
                steps += 1
                if steps > 10_000 { throw .stuck("no way to \(goal) after 10,000 steps") }
                if case .groupSelection = method {
                    guard let color = engine.colorHolding(itemID: goal) else { throw .stuck("no colour holds \(goal)") }
                    let at = lastShown + scanTime
                    let lines = press(&engine, code: UInt16(2 + color), at: at, hold: hold)
                    written.take(lines)
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
                        written.take(press(&engine, code: EventCodes.KEY_SPACE, at: at, hold: hold))
                        presses += 1
                        now = at + hold + .milliseconds(1)
                        chosen = isItem
                        finished = at + hold
                    case nil:
                        written.take(engine.advance(to: due))
                        now = due
                    }
                }
                serve(&engine, now, predict, &written)
            }
        }
        return PhraseResult(time: finished - .zero, presses: presses, characters: written.target.count)
    }

    /// What the field holds, as the `type` lines built it (lower case), and how much of it is
    /// known to be the start of the phrase: each edit is checked once, so following a phrase
    /// costs each key the characters it typed, whatever came before.
    struct Written {
        let target: [Character]
        private(set) var characters: [Character] = []
        /// `characters[..<verified]` is the start of `target`.
        private(set) var verified = 0

        init(target: [Character]) { self.target = target }

        /// What a field holds now, read whole (the simulated person's typing reads the field at
        /// each goal, as its corrections rewrite it).
        init(target: [Character], field: String) {
            self.target = target
            characters = Array(field.lowercased())
        }

        mutating func take(_ lines: [TranscriptLine]) {
            for line in lines {
                guard case .typed(let t) = line.event else { continue }
                characters.removeLast(min(t.edit.delete, characters.count))
                characters += Array(t.edit.text.lowercased())
                verified = min(verified, characters.count)
            }
        }

        /// Checks what was written since the last check; whether all of it begins `target`.
        mutating func check() -> Bool {
            while verified < characters.count, verified < target.count, characters[verified] == target[verified] { verified += 1 }
            return verified == characters.count
        }

        /// The last characters written, for a message.
        var tail: String { (characters.count > 40 ? "…" : "") + String(characters.suffix(40)) }
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

    private func serve(_ engine: inout Engine, _ now: Instant, _ predict: (String, Int) -> [String], _ written: inout Written) {
        var guardCount = 0
        while let request = engine.wantedPredictions, guardCount < 4 {
            guardCount += 1
            written.take(engine.setPredictions(predict(request.context, request.count), context: request.context, at: now))
        }
    }

    /// The item the user goes for next: a predicted word, the key of the next character, or the
    /// page key towards it; nil when the phrase is typed. The user types what is written: a
    /// predicted word is taken only where the space it adds is what follows (or a closing mark
    /// that takes its place and is followed by a space or the end), so "hello . world" and
    /// "e.g." are typed as written.
    func next(_ written: inout Written, autoSpace: Bool, _ model: ScanModel) throws(Failure) -> String? {
        let target = written.target
        let consistent = written.check()
        var typed = written.characters.count
        if written.verified == target.count && (typed == target.count || (typed == target.count + 1 && written.characters.last == " ")) { return nil }
        if !consistent || typed > target.count {
            // A chosen word's space before a closing mark: the mark takes its place.
            if autoSpace, written.characters.last == " ", written.verified == typed - 1 {
                typed -= 1
            } else {
                throw .stuck("typed \"\(written.tail)\", which is not the start of the phrase")
            }
        }
        let remaining = target[typed...]
        // The word being typed, looked at no further back than the longest word predicted.
        var start = typed
        while start > 0, typed - start <= KeyboardText.longestWord, KeyboardText.isWordCharacter(written.characters[start - 1]) { start -= 1 }
        let prefix = written.characters[start..<typed]
        let rest = remaining.prefix(KeyboardText.longestWord + 1).prefix(while: KeyboardText.isWordCharacter)
        if !rest.isEmpty, typed == written.characters.count, prefix.count + rest.count <= KeyboardText.longestWord {
            let word = String(prefix + rest)
            let after = remaining.dropFirst(rest.count).first
            let afterThat = remaining.dropFirst(rest.count + 1).first
            let fits: Bool
            switch after {
            case nil: fits = true
            case " "?: fits = !(afterThat.map(KeyboardText.closingMarks.contains) ?? false)
            case let mark? where KeyboardText.closingMarks.contains(mark): fits = afterThat == nil || afterThat == " "
            default: fits = false
            }
            if fits, model.itemIndex(id: KeyboardTree.wordPrefix + word) != nil {
                return KeyboardTree.wordPrefix + word
            }
        }
        let c = remaining.first!
        // How many characters of what remains `key` types (0: none of it). A key may type several
        // ("\u{E000}99", ".com"): the longest that fits is taken.
        func reach(_ key: KeyboardLayout.Key) -> Int {
            switch key.kind {
            case .space: return c == " " ? 1 : 0
            case .returnKey: return c == "\n" ? 1 : 0
            case .text(let t):
                let want = Array(t.lowercased())
                return remaining.starts(with: want) ? want.count : 0
            default: return 0
            }
        }
        func matches(_ key: KeyboardLayout.Key) -> Bool { reach(key) > 0 }
        // The page the keyboard shows is the one whose keys are in the model.
        let current = layout.pages.first { page in page.rows.joined().allSatisfy { model.itemIndex(id: $0.id) != nil } } ?? layout.pages[0]
        if let key = current.rows.joined().filter(matches).max(by: { reach($0) < reach($1) }) { return key.id }
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
