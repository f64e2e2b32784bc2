/// The scanning keyboard inside the engine (docs/typing.md, issue 18). While it is open the engine
/// scans only it, with a scanner of its own (the profile's method, the keyboard's own scan time,
/// keys tapped at once, back to the first stop after each); the application's scanner and its
/// model are kept, untouched, and scanning returns to the field when the keyboard closes.
/// Predictions and the text read back from the field are inputs (`setPredictions`,
/// `fieldText`), so `simulate` and `text stats` run this very code.
///
///     open (a text field activated, or `openKeyboard`)
///       keyboard opened · [predictions asked]  ──(words in / 0.5 s)──▶  first highlight
///     key selected (tap, point tap, or a colour)
///       type "q" / keyboard page|shift · [the tree waits for the new context's words]
///       ──▶ predictions "queen" … · the tree rebuilt (a layout change: the highlight stays by id)
///     word selected   type "en " (the rest and a space) · speak "queen"
///     close key, or escape at the keyboard's top level
///       keyboard closed · highlight on the field (application scanner)
///
/// Timelines (tests in Tests/SwitchCoreTests/Keyboard/KeyboardEngineTests.swift):
///
///   keyboard_open_on_field         |field ^select perform activate field, keyboard opened, |kbd …
///   keyboard_word_by_keys          |row ^ |h ^ type "H" |row … ^ |i ^ type "i"
///   keyboard_word_by_prediction    … predictions "hello" … |Predictions ^ |hello ^ type "llo " speak "hello"
///   keyboard_backspace             |delete ^ type "" delete 1
///   keyboard_shift                 |shift ^ keyboard shift once … |a ^ type "A", keyboard shift off
///   keyboard_page_switch           |123 ^ keyboard page "digits" … |1 ^ type "1"
///   keyboard_close                 |hide keyboard ^ keyboard closed |field
///   keyboard_predictions_timeout   keyboard opened … 0.5 s: predictions failed, the keys without words
///   keyboard_learns_sentences      … type "llo." … the sentence to learn (`takeLearning`); at the
///                                  close the rest; never a password's, never with learning off
///   keyboard_for_the_focus         (focus: a terminal) |button menu ^ … |Keyboard ^ keyboard opened (the
///                                  terminal) … |hide keyboard ^ keyboard closed |button
///   keyboard_long_word             … the 65th letter of a run ^ type "x", predictions [] (none asked
///                                  until the run ends) … |space ^ type " " · predictions asked again
public struct PredictionRequest: Sendable, Equatable {
    /// The end of the text before the caret that a predictor reads (presage's past stream):
    /// the word being typed and the three before it (`KeyboardText.predictionContext`).
    public var context: String
    /// How many words the row shows.
    public var count: Int

    public init(context: String, count: Int) {
        self.context = context
        self.count = count
    }
}

public enum HighlightReach: Sendable, Equatable { case item, group }

/// What has the keyboard focus on the live desktop (`Engine.keyboardFocusChanged`): the keyboard
/// opened from a scanner menu's Keyboard entry on an item that is no text field types into it.
public struct KeyboardFocus: Sendable, Equatable {
    /// The live desktop's id for it (it need not be a scan item: a terminal, a drawing area that
    /// takes keys).
    public var id: String
    /// What the `keyboard opened` line names it.
    public var label: String
    public var frame: Rect?
    /// What it takes, when known: a password field (bullets, no predictions, nothing spoken or
    /// learned), a terminal (no sentence capitals).
    public var entry: Element.TextEntry?

    public init(id: String, label: String, frame: Rect?, entry: Element.TextEntry? = nil) {
        self.id = id
        self.label = label
        self.frame = frame
        self.entry = entry
    }
}

/// What the keyboard opens on: a text field of the model, or what has the keyboard focus.
struct KeyboardTarget: Sendable {
    var id: String
    var label: String
    var frame: Rect?
    var value: String?
    var entry: Element.TextEntry?
    var password: Bool { entry == .password }
    /// Where scanning goes back to when the keyboard closes (the field, or the item whose menu
    /// opened it for the focus).
    var returnTo: String

    init(_ item: ScanItem) {
        id = item.id
        label = item.description
        frame = item.element.frame
        value = item.element.value
        entry = item.element.textEntry
        returnTo = item.id
    }

    init(_ focus: KeyboardFocus, returnTo: String) {
        id = focus.id
        label = focus.label
        frame = focus.frame
        value = nil
        entry = focus.entry
        self.returnTo = returnTo
    }
}

enum SpeechOwner: Sendable, Equatable {
    case app(Int)
    case keyboard(Int)
    case engine
}

struct KeyboardSession: Sendable {
    var layout: KeyboardLayout
    var page: KeyboardLayout.Page
    var text: KeyboardText
    var fieldID: String?
    var fieldLabel: String?
    /// Where scanning goes back to when it closes.
    var returnTo: String?
    var password: Bool
    var slots: Int
    var panel: Rect
    var screen: Size
    var scanner: Scanner
    var started = false
    var utterances = 0
    /// The words shown for `predictedFor` (as the predictor gave them, filtered).
    var words: [String] = []
    var predictedFor: String?
    /// The context whose words the tree waits for.
    var awaiting: String?
    /// Something shown changed: the tree is rebuilt once the words are in.
    var dirty = false
    /// The change came from a key: scanning starts over from the new tree's first stop (the
    /// scanner went back to the old tree's first stop when the key was tapped).
    var restart = false
    /// A word typed, to be spoken after the next highlight's line.
    var spokenWord: String?
    var closing = false
    /// The text before the caret as it was at the last learning point (its opening, a sentence's
    /// end): what follows it is the person's own writing, to be learned next.
    var learnedUpTo = ""
}

/// The models of the keyboard trees shown so far, by what they show (the same page, shift, words
/// and panel is the same tree): at most `limit`, then forgotten all at once. A tree with other
/// words than one seen before is the same tree but for the words' ids and labels: its model is
/// made from a template of that shape (`templates`), the words put in their places, rather than
/// ordered and grouped again, and its scanner keeps the levels it shaped for the shape
/// (`ScanModel.structureKey`). `reusing: false` builds every model from its tree and keeps
/// nothing between keyboards (the tests compare both ways).
public struct KeyboardModelCache: Sendable {
    var models: [String: ScanModel] = [:]
    /// Models of each shape, with placeholder words.
    var templates: [String: ScanModel] = [:]
    static let limit = 512
    /// Group selection's level costs by weight sequence (`ColorGroups.CostsBySequence`): a pure
    /// function of the weights and the switch count, kept from one opening of the keyboard to the
    /// next (`text stats` types every phrase in a keyboard of its own).
    let colorCosts: ColorGroups.CostsBySequence
    public let reusing: Bool
    /// How many templates were made (the tests check the fast path was taken).
    public private(set) var templatesMade = 0

    public init(reusing: Bool = true) {
        self.reusing = reusing
        colorCosts = ColorGroups.CostsBySequence(enabled: reusing)
    }

    mutating func model(_ content: KeyboardTree.Content, panel: Rect, screen: Size) -> ScanModel {
        let place = "\u{2}\(panel)\(screen.width)x\(screen.height)"
        let key = content.key + place
        if let known = models[key] { return known }
        var m: ScanModel
        let words = Array(content.predictions.prefix(content.slots))
        if reusing && !words.isEmpty {
            let structure = content.structureKey + place
            if templates[structure] == nil {
                var placeholders = content
                placeholders.predictions = words.indices.map { "\u{0}\($0)" }
                var t = ScanModel(tree: KeyboardTree.tree(placeholders, panel: panel, screen: screen))
                t.structureKey = structure
                if templates.count >= KeyboardModelCache.limit { templates.removeAll(keepingCapacity: true) }
                templates[structure] = t
                templatesMade += 1
            }
            let t = templates[structure]!
            var replacements: [(item: Int, element: Element)] = []
            for (k, word) in words.enumerated() {
                guard let i = t.itemIndex(id: KeyboardTree.wordPrefix + "\u{0}\(k)") else { continue }
                replacements.append((i, KeyboardTree.wordElement(word, frame: t.items[i].element.frame)))
            }
            m = t.replacingItemElements(replacements)
        } else {
            m = ScanModel(tree: KeyboardTree.tree(content, panel: panel, screen: screen))
            if reusing { m.structureKey = content.structureKey + place }
        }
        if !reusing { return m }
        m.shapeKey = key
        if models.count >= KeyboardModelCache.limit { models.removeAll(keepingCapacity: true) }
        models[key] = m
        return m
    }
}

extension Engine {
    /// How long the keyboard waits for the predictions of a new context before it shows the keys
    /// without them (the live predictor answers in milliseconds; a dead one never does).
    public static let predictionWait = Interval.milliseconds(500)

    public var isKeyboardOpen: Bool { keyboard != nil }


    /// What the keyboard believes the field holds.
    public var keyboardText: KeyboardText? { keyboard?.text }

    /// The predictions the keyboard waits for: the driver asks its predictor and answers with
    /// `setPredictions` (or `predictionsFailed`). Nil when none is wanted.
    public var wantedPredictions: PredictionRequest? {
        guard let kb = keyboard, let context = kb.awaiting else { return nil }
        return PredictionRequest(context: context, count: kb.slots)
    }

    /// The scanner in charge now (the keyboard's while it is open).
    var activeScanner: Scanner? { keyboard?.scanner ?? scanner }

    /// When the active scanner's dwell ends (a simulated person presses just before it).
    public var scanDeadline: Instant? { activeScanner?.dwellDeadline }

    /// How the stop highlighted now leads to the item `id`: it is the item, or a group holding
    /// it; nil when neither (or nothing is highlighted).
    public func highlightReach(itemID id: String) -> HighlightReach? {
        guard let s = activeScanner, let i = s.levels.model.itemIndex(id: id) else { return nil }
        switch s.state {
        case .scanning(let c), .autoTapWindow(let c, _):
            switch s.levels.stop(c.location) {
            case .item(let j): return j == i ? .item : nil
            case .group(let g): return s.levels.groups[g].items.contains(i) ? .group : nil
            case .exit: return nil
            }
        default:
            return nil
        }
    }

    /// Group selection: the colour (from 0) whose run holds the item `id` now; nil when the
    /// colours are not shown or none holds it.
    public func colorHolding(itemID id: String) -> Int? {
        guard let s = activeScanner, case .colorGroups(let c) = s.state, case .items = c.subject,
              let i = s.levels.model.itemIndex(id: id) else { return nil }
        return c.runs.firstIndex { $0.items.contains(i) }
    }

    // MARK: Inputs

    /// Opens the keyboard on the field `fieldID` of the application's model (nil, or an id not
    /// there: on whatever has the focus, no field known), as the scanner menu's Keyboard entry
    /// does. Nothing when it is open already or no layout is set.
    public mutating func openKeyboard(fieldID: String?, at t: Instant) -> [TranscriptLine] {
        catchUp(to: t)
        if keyboard == nil {
            openKeyboard(on: fieldID.flatMap { model.itemIndex(id: $0) }.map { KeyboardTarget(model.items[$0]) })
        }
        return flush()
    }

    /// Closes the keyboard (as its close key does); scanning returns to the field.
    public mutating func closeKeyboard(at t: Instant) -> [TranscriptLine] {
        catchUp(to: t)
        if keyboard != nil { closeKeyboardNow() }
        return flush()
    }

    /// The words predicted for `context` (the text before the caret). Words for another context
    /// than the one awaited (a late answer) change nothing.
    public mutating func setPredictions(_ words: [String], context: String, at t: Instant) -> [TranscriptLine] {
        catchUp(to: t)
        guard var kb = keyboard, kb.awaiting == context else { return flush() }
        kb.words = KeyboardPredictions.filter(words, prefix: kb.text.wordPrefix, count: kb.slots)
        kb.predictedFor = context
        kb.awaiting = nil
        keyboard = kb
        timers.cancel(.predictionWait)
        out.append(TranscriptLine(t: now, .keyboard(.predictions(kb.text.casing(kb.words)))))
        refreshKeyboard()
        return flush()
    }

    /// Prediction failed (the predictor died, refused, timed out): the keys are shown without
    /// words, and the transcript says why. The next context asks again.
    public mutating func predictionsFailed(context: String?, reason: String, at t: Instant) -> [TranscriptLine] {
        catchUp(to: t)
        guard keyboard != nil, context == nil || keyboard!.awaiting == context else { return flush() }
        givePredictionsUp(reason)
        return flush()
    }

    /// The field's text as read back from the application: edits made another way count.
    public mutating func fieldText(before: String, after: String?, at t: Instant) -> [TranscriptLine] {
        catchUp(to: t)
        guard var kb = keyboard, before != kb.text.before || (after != nil && after != kb.text.after) else { return flush() }
        kb.text.fieldText(before: before, after: after)
        kb.dirty = true
        keyboard = kb
        askPredictions()
        if keyboard!.awaiting == nil { refreshKeyboard() }
        return flush()
    }

    // MARK: Opening and closing

    /// The keyboard's scanning settings: the profile's, with its own scan time and grouping,
    /// keys tapped at once and the first stop after each (iOS's "Always Tap Keyboard Keys").
    func keyboardScanning(password: Bool) -> ScanningSettings {
        var s = profile.scanning
        if let t = profile.keyboard.autoScanningTime { s.autoScanningTime = t }
        s.grouping = profile.keyboard.effectiveGrouping(profile.scanning)
        s.tapBehavior = .alwaysTap
        s.focusedItemAfterTap = .first
        if password {
            s.speech = false
            s.pauseForSpeech = false
        }
        return s
    }

    mutating func openKeyboard(on field: KeyboardTarget?) {
        guard let base = keyboardLayout else { return }
        let password = field?.password ?? false
        let settings = keyboardScanning(password: password)
        let slots = password ? 0 : profile.keyboard.predictions
        let method = KeyboardArrangement.Method(grouping: settings.grouping,
                                                cost: ScanCostModel(settings, holdDuration: profile.switchStabilization.holdDuration),
                                                groupSwitches: settings.mode == .groupSelection ? profile.groupSwitchCount : 0)
        let layout = KeyboardArrangement.arrange(base, method: method, slots: slots)
        let rows = layout.pages.map(\.rows.count).max() ?? 1
        let screen = model.screen
        let panel = KeyboardTree.panel(screen: screen, field: field?.frame, lines: KeyboardTree.lines(rows: rows, slots: slots))
        let initial = password ? "" : (field?.value ?? "")
        var text = KeyboardText(before: initial)
        text.autoCapitalize = field?.entry != .terminal
        let first = KeyboardTree.Content(page: layout.pages[0], text: text, predictions: [], slots: slots, password: password)
        // The first model through the cache: the refresh below asks for the same content.
        var scanner = Scanner(model: keyboardModels.model(first, panel: panel, screen: screen), settings: settings,
                              groupSwitches: profile.groupSwitchCount, holdDuration: profile.switchStabilization.holdDuration,
                              menu: MenuContext(profile: profile))
        scanner.uses = keyboardUses
        scanner.colorCosts = keyboardModels.colorCosts
        for id in [Scanner.TimerID.dwell, .autoTap, .sweep] { timers.cancel(.scanner(id)) }
        appModel = model
        appModelChanged = false
        keyboard = KeyboardSession(layout: layout, page: layout.pages[0], text: text, fieldID: field?.id,
                                   fieldLabel: field?.label, returnTo: field?.returnTo, password: password, slots: slots, panel: panel,
                                   screen: screen, scanner: scanner, dirty: true, learnedUpTo: initial)
        out.append(TranscriptLine(t: now, .keyboard(.opened(layout: layout.name, page: layout.pages[0].name, id: field?.id,
                                                             label: field?.label, password: password))))
        askPredictions()
        if keyboard!.awaiting == nil { refreshKeyboard() }
    }

    mutating func closeKeyboardNow() {
        learnWritten(closing: true)
        guard let kb = keyboard else { return }
        for id in [Scanner.TimerID.dwell, .autoTap, .sweep] { timers.cancel(.keyboard(id)) }
        timers.cancel(.predictionWait)
        keyboardUses = kb.scanner.uses
        keyboard = nil
        out.append(TranscriptLine(t: now, .keyboard(.closed)))
        if let app = appModel { model = app }
        appModel = nil
        offerKeyboardForFocus()
        guard scanner != nil else { return }
        if appModelChanged { takeAppOutputs(scanner!.handle(.layout(model), at: now)) }
        appModelChanged = false
        takeAppOutputs(scanner!.returnTo(itemID: kb.returnTo ?? kb.fieldID, at: now))
    }

    // MARK: The keyboard's scanner

    mutating func deliverToKeyboard(_ event: Scanner.Event) {
        guard keyboard != nil else { return }
        let outputs = keyboard!.scanner.handle(event, at: now)
        takeKeyboardOutputs(outputs)
        finishKeyboardBatch()
    }

    /// The keyboard scanner's outputs: a key's perform becomes its effect (a `type` line, a page,
    /// shift); escape at its top level closes it; the rest goes to the transcript. After a close,
    /// the keyboard's own highlight lines of that instant are not shown.
    mutating func takeKeyboardOutputs(_ outputs: [Scanner.Output]) {
        for o in outputs {
            guard keyboard != nil else { return }
            switch o {
            case .emit(let e):
                if case .speak = e { keyboard!.utterances += 1 }
                if keyboard!.closing {
                    switch e {
                    case .highlight, .speak, .colorGroups, .sweep, .scan: continue
                    default: break
                    }
                }
                if case .setting(let change) = e {
                    profile.apply(change)
                    adaptiveScanTimeSet(change)
                }
                switch e {
                case .perform(let p):
                    performOnKeyboard(p)
                case .speak:
                    noteSpeech(.keyboard(keyboard!.utterances - 1))
                    out.append(TranscriptLine(t: now, e))
                case .highlight, .colorGroups:
                    // The word typed is said first: the stop's own phrase follows it, and
                    // speech-paced scanning waits for that one.
                    out.append(TranscriptLine(t: now, e))
                    sayTypedWord()
                default:
                    out.append(TranscriptLine(t: now, e))
                }
            case .setTimer(let id, let at): timers.set(.keyboard(id), at: at)
            case .cancelTimer(let id): timers.cancel(.keyboard(id))
            case .pauseRequested: _ = runPause(.menu)
            case .keyboardRequested: break  // open already
            }
        }
    }

    /// After a batch: the close, or the rebuilt tree (once the words of the new context are in).
    mutating func finishKeyboardBatch() {
        guard let kb = keyboard else { return }
        if kb.closing { return closeKeyboardNow() }
        sayTypedWord()
        if kb.dirty && kb.awaiting == nil { refreshKeyboard() }
    }

    private mutating func sayTypedWord() {
        guard let word = keyboard?.spokenWord else { return }
        keyboard!.spokenWord = nil
        noteSpeech(.engine)
        out.append(TranscriptLine(t: now, .speak(word)))
    }

    private mutating func performOnKeyboard(_ p: Perform) {
        switch p.action {
        case .activate, .tap:
            if let word = keyboard!.words.first(where: { KeyboardTree.wordPrefix + $0.lowercased() == p.id }) {
                apply(keyboard!.text.choose(word), key: p.id)
            } else if let key = keyboard!.page.rows.joined().first(where: { $0.id == p.id }) {
                let shift = keyboard!.text.shift
                apply(keyboard!.text.apply(key.kind), key: p.id)
                if keyboard!.text.shift != shift {
                    out.append(TranscriptLine(t: now, .keyboard(.shift(keyboard!.text.shift))))
                }
            }
        case .escape:
            keyboard!.closing = true
        default:
            break  // a key has no custom action, value, click of another kind or gesture
        }
    }

    private mutating func apply(_ effect: KeyboardText.Effect, key: String) {
        keyboard!.restart = true
        if let edit = effect.edit {
            out.append(TranscriptLine(t: now, .typed(TypedText(edit, key: key, secure: keyboard!.password))))
            // A sentence or a line ended: what was written since the last one is learned.
            if let last = edit.text.reversed().first(where: { $0 != " " }), last == "\n" || last == "." || last == "!" || last == "?" {
                learnWritten()
            }
            if let word = effect.word, profile.scanning.speech, !keyboard!.password { keyboard!.spokenWord = word }
            keyboard!.dirty = true
            askPredictions()
        }
        if let page = effect.page, let p = keyboard!.layout.page(named: page) {
            keyboard!.page = p
            keyboard!.dirty = true
            out.append(TranscriptLine(t: now, .keyboard(.page(page))))
        }
        if effect.close { keyboard!.closing = true }
        if effect.edit == nil { keyboard!.dirty = true }
    }

    // MARK: Learning

    /// The person's writing since the last learning point, for the shell to learn
    /// (`takeLearning`): whole words only (a word still being typed waits, unless the keyboard
    /// closes), never a password's, only with `keyboard.learning` on.
    mutating func learnWritten(closing: Bool = false) {
        guard let kb = keyboard else { return }
        var before = kb.text.before
        // A word still being typed is not learned yet, nor is the mark moved past it.
        while !closing, let c = before.last, KeyboardText.isWordCharacter(c) { before.removeLast() }
        defer { keyboard!.learnedUpTo = before }
        guard !kb.password, profile.keyboard.learning else { return }
        let mark = kb.learnedUpTo
        let segment = before.hasPrefix(mark) ? String(before.dropFirst(mark.count))
            : String(before.split(separator: "\n", omittingEmptySubsequences: false).last ?? "")
        let text = segment.trimmed
        if text.contains(where: { $0.isLetter }) { learning.append(text) }
    }

    /// The texts the person wrote that are to be learned into their own model, in order, since
    /// the last call (the live shell and `simulate --learn` hand them to the predictor).
    public mutating func takeLearning() -> [String] {
        defer { learning = [] }
        return learning
    }

    /// The prediction context now; when it is new, the tree waits for its words (at most
    /// `predictionWait`).
    private mutating func askPredictions() {
        guard let kb = keyboard, kb.slots > 0, !kb.password else { return }
        if kb.text.inLongWord {
            // No predictor completes a run this long: the row is empty until it ends.
            guard kb.predictedFor != nil || kb.awaiting != nil || !kb.words.isEmpty else { return }
            timers.cancel(.predictionWait)
            keyboard!.awaiting = nil
            keyboard!.words = []
            keyboard!.predictedFor = nil
            out.append(TranscriptLine(t: now, .keyboard(.predictions([]))))
            return
        }
        let context = kb.text.predictionContext
        guard context != kb.predictedFor else { return }
        keyboard!.awaiting = context
        keyboard!.words = []
        timers.set(.predictionWait, at: now + Engine.predictionWait)
    }

    mutating func predictionsTimedOut() {
        guard keyboard?.awaiting != nil else { return }
        givePredictionsUp("no predictions within \(Engine.predictionWait.seconds) s")
    }

    private mutating func givePredictionsUp(_ reason: String) {
        timers.cancel(.predictionWait)
        keyboard!.awaiting = nil
        keyboard!.words = []
        keyboard!.predictedFor = nil
        keyboard!.dirty = true
        out.append(TranscriptLine(t: now, .keyboard(.predictionsFailed(reason))))
        refreshKeyboard()
    }

    /// The tree for what the keyboard shows now, to its scanner (started the first time).
    mutating func refreshKeyboard() {
        guard var kb = keyboard else { return }
        kb.dirty = false
        let content = KeyboardTree.Content(page: kb.page, text: kb.text, predictions: kb.text.casing(kb.words),
                                           slots: kb.slots, password: kb.password)
        let m = keyboardModels.model(content, panel: kb.panel, screen: kb.screen)
        model = m
        let first = !kb.started
        kb.started = true
        keyboard = kb
        let restart = kb.restart && keyboard!.scanner.isAtFirstStop
        keyboard!.restart = false
        var outputs = first ? keyboard!.scanner.handleFirst(model: m, at: now) : keyboard!.scanner.handle(.layout(m), at: now)
        // After a key the scan starts over from the first stop, of the tree as it is now (the
        // prediction row may have come or gone).
        if restart && !keyboard!.scanner.isAtFirstStop { outputs += keyboard!.scanner.returnTo(itemID: nil, at: now) }
        // The keyboard's first start is its `opened` line.
        if first { outputs.removeAll { if case .emit(.scan(started: true)) = $0 { return true } else { return false } } }
        takeKeyboardOutputs(outputs)
        if keyboard?.closing == true { closeKeyboardNow() }
    }

}

extension Scanner {
    /// The highlight is on the first stop of the top level (item scanning).
    var isAtFirstStop: Bool {
        if case .scanning(let c) = state { return c.location == .first }
        return false
    }

    /// The keyboard scanner's start on its first tree.
    mutating func handleFirst(model: ScanModel, at now: Instant) -> [Output] {
        var out = handle(.layout(model), at: now)
        out += handle(.start, at: now)
        return out
    }
}

/// Which predicted words the row shows.
public enum KeyboardPredictions {
    /// Words that complete `prefix` (case aside), once each, at most `count`; never a word with a
    /// space or a control character in it.
    public static func filter(_ words: [String], prefix: String, count: Int) -> [String] {
        var out: [String] = []
        var seen = Set<String>()
        let p = prefix.lowercased()
        for w in words where out.count < count {
            let lower = w.lowercased()
            guard !w.isEmpty, lower.hasPrefix(p), !w.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }),
                  seen.insert(lower).inserted else { continue }
            out.append(w)
        }
        return out
    }
}
