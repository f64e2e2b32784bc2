/// The engine: device frames in, transcript lines out, on whatever clock drives it. It wires the
/// pure parts together (docs/architecture.md):
///
///     device frame ─┬─ keys ──→ SwitchPipeline (per device + key) ─→ switch actions ─┐
///                   └─ touch ─→ TouchTracker → TouchFilter ─→ tap / swipe / hold     │
///                               │ (or the whole screen as one switch) ───────────────┤
///                               └→ TouchPassthrough ─→ virtual touchscreen frames    │
///                                  (`takeTouchOutput`, the live shell's second channel)
///                                                                                    ↓
///                                                  Scanner (scan order, menu) → highlight/perform
///
/// Every part is a pure state machine that returns actions; timers are actions too, kept here in
/// one `TimerQueue`. The live loop (libevdev + timerfd) and the simulator (recording + virtual
/// clock) drive this same struct, so a simulation is the real engine. Rule for simultaneous
/// things: timers due at or before an input's time fire first, in deadline order.
///
/// Every key edge also goes to `PauseControl` (the safety exit) before the switch filters. While
/// paused, scanning is stopped, switches and touches do nothing and layouts wait for the resume;
/// at the resume, a switch still held is ignored until it is released.
public struct Engine: Sendable {
    /// The model scanned now: the application's, or the keyboard's while it is open.
    public internal(set) var model: ScanModel
    /// The profile in force: as given, with the settings the person changed from the scanner
    /// menu since (each is a `setting` line; the live shell saves them).
    public internal(set) var profile: Profile

    var scanner: Scanner?
    private var devices: [DeviceState]
    private var pipelines: [PipelineState] = []
    var timers = TimerQueue<TimerKey>()
    var out: [TranscriptLine] = []
    /// What the touch passthrough writes (and the countdowns it shows): not transcript lines.
    var touchOut: [TouchOutput] = []
    /// Arrays reused by every touch frame instead of made anew (empty between frames).
    private var touchSamples: [TouchSample] = []
    private var passthroughOut: [TouchPassthrough.Output] = []
    /// The storage of the last live move's frame, taken back by `takeTouchOutput(_:)` for the
    /// next one (a gesture's frames then allocate nothing).
    private var spareMove: [VirtualTouch] = []
    public internal(set) var now = Instant.zero
    /// The layout the keyboard opens with (docs/typing.md); nil: activating a field opens nothing.
    /// A text field's scanner menu offers Keyboard while there is one.
    public var keyboardLayout: KeyboardLayout? {
        didSet { scanner?.menuBase.keyboard = keyboardLayout != nil }
    }
    /// The open keyboard (Engine+Keyboard).
    var keyboard: KeyboardSession?
    /// What has the keyboard focus, as the live desktop says (`keyboardFocusChanged`).
    var keyboardFocus: KeyboardFocus?
    /// The person's writing to learn, not yet taken (`takeLearning`).
    var learning: [String] = []
    /// The keyboard's trees built so far (a driver that runs many engines may hand them on).
    public var keyboardModels = KeyboardModelCache()
    /// While the keyboard is open: the application's latest model, kept for its return.
    var appModel: ScanModel?
    var appModelChanged = false
    /// Group selection's memory of the keys chosen, kept from one opening to the next.
    var keyboardUses: [String: Int] = [:]
    /// `speak` lines written so far, and who spoke each recent one (speech-paced scanning hears
    /// back by this number).
    var utterancesSpoken = 0
    var speechOwners: [Int: SpeechOwner] = [:]
    var appUtterances = 0
    private var pause: PauseControl
    /// Adaptive timing (`Engine+AdaptiveTiming`), when the profile turns it on; how far into its
    /// stop's dwell the last physical press came, and that dwell's length (seconds).
    var adaptive: AdaptiveTiming?
    var adaptivePress: (fraction: Double, dwell: Double)?
    /// A layout arrived while paused: the scanner gets it at the resume.
    private var layoutWhilePaused = false

    enum TimerKey: Hashable, Sendable {
        case scanner(Scanner.TimerID)
        /// The keyboard's scanner (Engine+Keyboard).
        case keyboard(Scanner.TimerID)
        /// How long the keyboard waits for predictions before it shows the keys without them.
        case predictionWait
        case pipeline(Int, SwitchPipeline.TimerID)
        case touch(device: Int, TouchFilter.TimerID)
        case passthrough(device: Int, TouchPassthrough.TimerID)
        case pauseHold
    }

    private struct PipelineState: Sendable {
        var pipeline: SwitchPipeline
        var device: Int
        /// What was highlighted at this switch's last physical press (selectTarget: press).
        var target: Scanner.ScanTarget?
        /// Held at a resume: its events are ignored until its release (which is ignored too).
        var waitsForRelease = false
    }

    private struct DeviceState: Sendable {
        var description: DeviceDescription? {
            didSet { codeBitmap = description.map(EventCodeBitmap.init) }
        }
        /// `description`'s codes, looked up without hashing (every event of every frame is checked).
        var codeBitmap: EventCodeBitmap?
        /// Read only for the pause chord (a keyboard the live loop watches): its keys are never
        /// switches, and it has no description.
        var chordOnly = false
        /// Pipeline index per EV_KEY code, made on first use; the screen as one switch
        /// (`touchAsSwitch`) is filed under BTN_TOUCH.
        var pipelineByCode: [UInt16: Int] = [:]
        /// Present for a touchscreen.
        var tracker: TouchTracker?
        /// Present for a touchscreen whose touches tap (not the screen as a switch).
        var touchFilter: TouchFilter?
        /// Present instead of the filter when touches pass on to a virtual touchscreen.
        var passthrough: TouchPassthrough?
        /// Contacts down now (the screen as a switch is pressed while any is).
        var contactsDown = 0
    }

    /// - Parameter devices: what each input device is; `handle(frame:device:)` takes indices into
    ///   this list. A device is a touchscreen only when its description says so; a device without
    ///   a description (an events-only recording) has only switches.
    /// - Parameter chordOnly: indices of devices read only for the pause chord.
    public init(tree: ElementTree, profile: Profile, devices: [DeviceDescription?], chordOnly: Set<Int> = []) {
        self.model = ScanModel(tree: tree)
        self.profile = profile
        self.devices = devices.enumerated().map { k, d in
            var state = DeviceState(chordOnly: chordOnly.contains(k))
            state.description = chordOnly.contains(k) ? nil : d  // didSet: the code bitmap
            return state
        }
        self.pause = PauseControl(pauseHold: profile.pauseHold, chord: profile.safetyExit.pauseChord)
        if profile.scans { scanner = Scanner(model: model, settings: profile.scanning, groupSwitches: profile.groupSwitchCount,
                                                holdDuration: profile.switchStabilization.holdDuration,
                                                menu: MenuContext(profile: profile)) }
        for d in self.devices.indices { setUpTouch(d) }
        if profile.adaptiveTiming.enabled { adaptive = AdaptiveTiming(settings: profile.adaptiveTiming, scanTime: profile.scanning.autoScanningTime) }
    }

    public init(tree: ElementTree, profile: Profile, devices: [DeviceDescription], chordOnly: Set<Int> = []) {
        self.init(tree: tree, profile: profile, devices: devices.map { Optional($0) }, chordOnly: chordOnly)
    }

    /// Paused by the safety exit.
    public var isPaused: Bool { pause.isPaused }

    /// Gives a touchscreen its tracker and, unless the screen is a switch, its touch filter (a
    /// filter it already has is kept, with its ignore-repeat memory); takes them from a device
    /// that is no touchscreen.
    private mutating func setUpTouch(_ d: Int) {
        guard let description = devices[d].description, description.isTouchscreen else {
            devices[d].tracker = nil
            devices[d].touchFilter = nil
            devices[d].passthrough = nil
            return
        }
        devices[d].tracker = TouchTracker(device: description, screen: model.screen)
        if profile.passesTouch {
            if devices[d].passthrough == nil { devices[d].passthrough = TouchPassthrough(settings: profile.touchAccommodations) }
        } else if profile.touchAccommodations.touchAsSwitch == nil, devices[d].touchFilter == nil {
            devices[d].touchFilter = TouchFilter(settings: profile.touchAccommodations)
        }
    }

    /// A new pipeline for `code` on `device`.
    private mutating func addPipeline(device: Int, code: UInt16, binding: SwitchBinding) -> Int {
        pipelines.append(PipelineState(pipeline: SwitchPipeline(binding: binding, stabilization: profile.switchStabilization,
                                                                moveRepeat: profile.scanning.moveRepeat),
                                       device: device, target: nil))
        devices[device].pipelineByCode[code] = pipelines.count - 1
        return pipelines.count - 1
    }

    // MARK: Inputs

    /// Starts scanning at `t` (scan started + the first highlight) when the profile scans.
    public mutating func start(at t: Instant) -> [TranscriptLine] {
        now = t
        if scanner != nil { deliverToScanner(.start) }
        return flush()
    }

    /// One frame from `devices[device]` at the frame's time. Timers due at or before it fire first.
    public mutating func handle(frame: InputFrame, device: Int) -> [TranscriptLine] {
        catchUp(to: frame.time)
        guard devices.indices.contains(device) else { return flush() }
        // A code the device's description does not list is dropped, as the kernel drops it from
        // such a device (a recording replayed with another description; issue 22).
        if let d = devices[device].codeBitmap, frame.events.contains(where: { $0.type != EventCodes.EV_SYN && !d.has(type: $0.type, code: $0.code) }) {
            var kept = frame
            kept.events = frame.events.filter { $0.type == EventCodes.EV_SYN || d.has(type: $0.type, code: $0.code) }
            return handleKept(kept, device: device)
        }
        return handleKept(frame, device: device)
    }

    private mutating func handleKept(_ frame: InputFrame, device: Int) -> [TranscriptLine] {
        if devices[device].chordOnly {
            for e in frame.events where e.type == EventCodes.EV_KEY {
                _ = runPause(.key(PauseControl.Key(device: device, code: e.code), value: e.value, switchName: nil))
            }
        } else if devices[device].tracker != nil {
            handleTouch(frame.events, device: device)
        } else {
            for e in frame.events where e.type == EventCodes.EV_KEY {
                handleKey(code: e.code, value: e.value, device: device)
            }
        }
        return flush()
    }

    /// Fires every timer due at or before `t`.
    public mutating func advance(to t: Instant) -> [TranscriptLine] {
        catchUp(to: t)
        return flush()
    }

    /// What the touch passthrough wrote since the last call (frames for the virtual touchscreens,
    /// the hold countdowns): the live shell's second output, besides the transcript.
    public mutating func takeTouchOutput() -> [TouchOutput] {
        if touchOut.isEmpty { return [] }
        defer { touchOut = [] }
        return touchOut
    }

    /// `takeTouchOutput`, one at a time and without a copy (the live loop, every frame).
    public mutating func takeTouchOutput(_ body: (TouchOutput) -> Void) {
        if touchOut.isEmpty { return }
        for o in touchOut { body(o) }
        if case .frame(_, var changes) = touchOut.removeLast() {
            changes.removeAll(keepingCapacity: true)
            spareMove = changes
        }
        touchOut.removeAll(keepingCapacity: true)
    }

    /// Touch passthrough's fast path for `device`'s next frames (`LiveTouchRoute`), made from the
    /// engine's state now: which source slot moves which virtual contact. nil when nothing there
    /// passes live (or the device is not a protocol B touchscreen passed through, or the engine is
    /// paused). `notBefore`: the shell's clock (frames are delivered no earlier); `until`: the
    /// run's end (a frame after it is not delivered).
    public mutating func liveTouchRoute(device: Int, notBefore: Instant, until: Instant?) -> LiveTouchRoute? {
        // Made before every wait: nothing is built unless a gesture passes live.
        guard devices.indices.contains(device), !pause.isPaused, devices[device].passthrough?.gesture == .live,
              let contacts = devices[device].tracker?.slotContacts else { return nil }
        var virtual = [Int](repeating: -1, count: contacts.ids.count)
        var any = false
        for (slot, id) in contacts.ids.enumerated() where id >= 0 {
            guard let v = devices[device].passthrough!.liveVirtual(ofContact: Int(id)) else { continue }
            virtual[slot] = v
            any = true
        }
        guard any else { return nil }
        var before = timers.nextDeadline()
        if let until {
            let end = until + Interval(microseconds: 1)
            before = min(before ?? end, end)
        }
        return LiveTouchRoute(virtualContact: virtual, selectedSlot: contacts.selected, notBefore: max(notBefore, now), validBefore: before)
    }

    /// The earliest pending timer (arm the timerfd there); nil when nothing is pending.
    public mutating func nextDeadline() -> Instant? { timers.nextDeadline() }

    /// A device went away at `t`: its switches return to rest without firing and its contacts end
    /// without becoming taps.
    public mutating func deviceRemoved(_ device: Int, at t: Instant) -> [TranscriptLine] {
        catchUp(to: t)
        guard devices.indices.contains(device) else { return flush() }
        _ = runPause(.deviceGone(device))
        for p in pipelines.indices where pipelines[p].device == device {
            runPipeline(p, .deviceGone)
            pipelines[p].waitsForRelease = false
        }
        devices[device].contactsDown = 0
        if devices[device].tracker != nil { _ = devices[device].tracker!.liftAll() }
        runTouchFilter(device, .deviceGone)
        runPassthrough(device, .deviceGone)
        return flush()
    }

    /// A device came back (same index), possibly with a new description. Its switch pipelines
    /// (at rest since `deviceRemoved`) and its touch filter are kept.
    public mutating func deviceAdded(_ device: Int, _ description: DeviceDescription, at t: Instant) -> [TranscriptLine] {
        catchUp(to: t)
        guard devices.indices.contains(device), !devices[device].chordOnly else { return flush() }
        devices[device].description = description
        devices[device].contactsDown = 0
        setUpTouch(device)
        return flush()
    }

    /// A new tree (layout change) at `t`; `file`, when the tree comes from one, is named in a
    /// `layoutLoaded` line first.
    public mutating func loadLayout(_ tree: ElementTree, at t: Instant, file: String? = nil) -> [TranscriptLine] {
        catchUp(to: t)
        if let file { out.append(TranscriptLine(t: now, .layoutLoaded(file: file))) }
        let newModel = ScanModel(tree: tree)
        if newModel.screen != model.screen {
            // Fingers that are down stay down; only the mapping to points changes.
            for d in devices.indices {
                if let desc = devices[d].description { devices[d].tracker?.setScreen(newModel.screen, device: desc) }
            }
        }
        if keyboard != nil {
            // The application goes on changing under the keyboard: kept for when it closes.
            appModel = newModel
            appModelChanged = true
            return flush()
        }
        model = newModel
        offerKeyboardForFocus()
        if pause.isPaused {
            layoutWhilePaused = true
        } else if scanner != nil {
            deliverToScanner(.layout(newModel))
        }
        return flush()
    }

    /// Speech finished the `utterance`-th `speak` line (from 0) at `t` (speech-paced scanning):
    /// the live loop hears it from speech-dispatcher, the simulator from `SpeechTimeModel`.
    public mutating func speechFinished(utterance: Int, at t: Instant) -> [TranscriptLine] {
        catchUp(to: t)
        switch speechOwners.removeValue(forKey: utterance) {
        case .app(let n): if scanner != nil, keyboard == nil { deliverToScanner(.speechFinished(utterance: n)) }
        case .keyboard(let n): if keyboard != nil { deliverToKeyboard(.speechFinished(utterance: n)) }
        case .engine, nil: break
        }
        return flush()
    }

    /// What has the keyboard focus now (the live desktop's input; nil: nothing known). While
    /// something that scanning cannot reach by itself has it (no scan item: a widget that only
    /// reads keys), every item's scanner menu offers Keyboard, which opens the keyboard for it
    /// (docs/typing.md). A field that is a scan item opens the keyboard itself (activated, or its
    /// own menu's Keyboard): no entry on every menu for it, which would cost every menu a stop.
    public mutating func keyboardFocusChanged(_ focus: KeyboardFocus?, at t: Instant) -> [TranscriptLine] {
        catchUp(to: t)
        keyboardFocus = focus
        offerKeyboardForFocus()
        return flush()
    }

    mutating func offerKeyboardForFocus() {
        let app = appModel ?? model
        scanner?.menuBase.keyboardFocus = keyboardFocus.map { app.itemIndex(id: $0.id) == nil } ?? false
    }

    /// The live desktop's windows changed (issue 19): every window but the one scanned, most
    /// recently used first, and the one scanned; the scanner menu's Windows page lists them from
    /// its next opening. No line: a list is not an event a person made.
    public mutating func windowsChanged(_ windows: [WindowEntry], current: WindowEntry?, at t: Instant) -> [TranscriptLine] {
        catchUp(to: t)
        scanner?.menuBase.windows = windows
        scanner?.menuBase.currentWindow = current
        return flush()
    }

    // MARK: Switches

    private mutating func handleKey(code: UInt16, value: Int32, device: Int) {
        let existing = devices[device].pipelineByCode[code]
        let binding = existing.map { pipelines[$0].pipeline.binding } ?? profile.switches.first(where: { $0.code == code })
        if pause.isEnabled,
           runPause(.key(PauseControl.Key(device: device, code: code), value: value, switchName: binding?.keyName)) {
            return
        }
        guard let binding, !pause.isPaused else { return }
        let p = existing ?? addPipeline(device: device, code: code, binding: binding)
        switchEdge(p, value: value)
    }

    /// A switch's key event to its pipeline, unless it is held over from before a resume.
    private mutating func switchEdge(_ p: Int, value: Int32) {
        if pipelines[p].waitsForRelease {
            if value == 0 { pipelines[p].waitsForRelease = false }
            return
        }
        runPipeline(p, .key(value: value))
    }

    private mutating func runPipeline(_ p: Int, _ event: SwitchPipeline.Event) {
        let outputs = pipelines[p].pipeline.handle(event, at: now)
        for o in outputs {
            switch o {
            case .decision(let d):
                out.append(TranscriptLine(t: now, .filter(d)))
                if case .rejected = d.decision { adaptiveForgetPress() }
            case .physicalPress:
                if profile.switchStabilization.selectTarget == .press { pipelines[p].target = activeScanner?.target(at: now) }
                adaptiveNotePress()
            case .action(let a):
                guard scanner != nil else { continue }
                let selection = a == .select ? adaptiveSelection() : nil
                deliverToScanner(.action(a, target: pipelines[p].target))
                if let selection { adaptiveSelected(selection) }
            case .setTimer(let id, let at):
                timers.set(.pipeline(p, id), at: at)
            case .cancelTimer(let id):
                timers.cancel(.pipeline(p, id))
            }
        }
    }

    // MARK: Touch

    private mutating func handleTouch(_ events: [InputEvent], device: Int) {
        guard devices[device].tracker != nil else { return }
        if devices[device].passthrough != nil {
            var samples = touchSamples
            touchSamples = []
            defer {
                samples.removeAll(keepingCapacity: true)
                touchSamples = samples
            }
            devices[device].tracker!.handleSamples(frame: events, into: &samples)
            guard !pause.isPaused else { return }
            // Moves: no output but the virtual contacts' moves (`TouchPassthrough.move`), those
            // of one source frame in one virtual frame, as they came.
            var moves = spareMove
            spareMove = []
            for s in samples {
                if case .moved = s.contact {
                    if let v = devices[device].passthrough!.move(s) { moves.append(.move(v, s.raw)) }
                } else {
                    if !moves.isEmpty {
                        touchOut.append(.frame(device: device, moves))
                        moves = []
                    }
                    runPassthrough(device, .contact(s))
                }
            }
            if !moves.isEmpty { touchOut.append(.frame(device: device, moves)) } else { spareMove = moves }
            return
        }
        let contacts = devices[device].tracker!.handle(frame: events)
        for c in contacts {
            if let action = profile.touchAccommodations.touchAsSwitch {
                let p = devices[device].pipelineByCode[EventCodes.BTN_TOUCH]
                    ?? addPipeline(device: device, code: EventCodes.BTN_TOUCH,
                                   binding: SwitchBinding(keyName: "touchscreen", code: EventCodes.BTN_TOUCH, action: action))
                let value: Int32
                switch c {
                case .down:
                    devices[device].contactsDown += 1
                    guard devices[device].contactsDown == 1 else { continue }
                    value = 1
                case .up:
                    guard devices[device].contactsDown > 0 else { continue }
                    devices[device].contactsDown -= 1
                    guard devices[device].contactsDown == 0 else { continue }
                    value = 0
                case .moved:
                    continue
                }
                let key = PauseControl.Key(device: device, code: EventCodes.BTN_TOUCH)
                if runPause(.key(key, value: value, switchName: "touchscreen")) || pause.isPaused { continue }
                switchEdge(p, value: value)
            } else if !pause.isPaused {
                runTouchFilter(device, .contact(c))
            }
        }
    }

    private mutating func runTouchFilter(_ device: Int, _ event: TouchFilter.Event) {
        guard devices[device].touchFilter != nil else { return }
        let outputs = devices[device].touchFilter!.handle(event, at: now)
        for o in outputs {
            switch o {
            case .tap(let contact, let point):
                let hit = model.hitTest(point).map { model.items[$0] }
                let label = hit?.description
                out.append(TranscriptLine(t: now, .touch(TouchDecision(contact: contact, .tap(point: point, id: hit?.id, label: label)))))
                if let hit, let label {
                    out.append(TranscriptLine(t: now, .perform(Perform(.activate, id: hit.id, label: label, point: point, source: .touch))))
                }
            case .swipe(let contact, let from, let to, let direction):
                out.append(TranscriptLine(t: now, .touch(TouchDecision(contact: contact, .swipe(from: from, to: to, direction: direction)))))
            case .hold(let contact, let point):
                out.append(TranscriptLine(t: now, .touch(TouchDecision(contact: contact, .hold(point: point)))))
            case .rejected(let contact, let reason, let point):
                out.append(TranscriptLine(t: now, .touch(TouchDecision(contact: contact, .rejected(reason, point: point)))))
            case .setTimer(let id, let at):
                timers.set(.touch(device: device, id), at: at)
            case .cancelTimer(let id):
                timers.cancel(.touch(device: device, id))
            }
        }
    }

    private mutating func runPassthrough(_ device: Int, _ event: TouchPassthrough.Event) {
        guard devices[device].passthrough != nil else { return }
        var outputs = passthroughOut
        passthroughOut = []
        defer {
            outputs.removeAll(keepingCapacity: true)
            passthroughOut = outputs
        }
        devices[device].passthrough!.handle(event, at: now, into: &outputs)
        for o in outputs {
            switch o {
            case .write(let changes): touchOut.append(.frame(device: device, changes))
            case .tap(let contact, let point):
                out.append(TranscriptLine(t: now, .touch(TouchDecision(contact: contact, .passedTap(point: point)))))
            case .gesture(let contact, let from, let to, let duration):
                out.append(TranscriptLine(t: now, .touch(TouchDecision(contact: contact, .gesture(from: from, to: to, duration: duration)))))
            case .rejected(let contact, let reason, let point):
                out.append(TranscriptLine(t: now, .touch(TouchDecision(contact: contact, .rejected(reason, point: point)))))
            case .countdown(let contact, let point, let until):
                touchOut.append(.countdown(device: device, contact: contact, at: point, from: now, until: until))
            case .countdownEnded(let contact): touchOut.append(.countdownEnded(device: device, contact: contact))
            case .setTimer(let id, let at): timers.set(.passthrough(device: device, id), at: at)
            case .cancelTimer(let id): timers.cancel(.passthrough(device: device, id))
            }
        }
    }

    // MARK: Safety exit

    /// Runs the pause machine; true when the key was the pause chord's (not a switch press).
    mutating func runPause(_ event: PauseControl.Event) -> Bool {
        var consumed = false
        for o in pause.handle(event, at: now) {
            switch o {
            case .consumed: consumed = true
            case .setTimer(let at): timers.set(.pauseHold, at: at)
            case .cancelTimer: timers.cancel(.pauseHold)
            case .changed(let change):
                out.append(TranscriptLine(t: now, .pause(change)))
                if change.state == .paused { enterPause() } else { leavePause() }
            }
        }
        return consumed
    }

    /// Every switch and touch back to rest without firing, scanning stopped.
    private mutating func enterPause() {
        for p in pipelines.indices {
            runPipeline(p, .deviceGone)
            pipelines[p].waitsForRelease = false
        }
        for d in devices.indices {
            runTouchFilter(d, .deviceGone)
            runPassthrough(d, .deviceGone)
        }
        deliverToScanner(.action(.stopScanning, target: nil))
    }

    /// Switches held now wait for their release; the layout that came meanwhile, then scanning
    /// starts again from the first item.
    private mutating func leavePause() {
        for p in pipelines.indices {
            let d = pipelines[p].device
            let code = pipelines[p].pipeline.binding.code
            pipelines[p].waitsForRelease = devices[d].tracker != nil && code == EventCodes.BTN_TOUCH
                ? devices[d].contactsDown > 0
                : pause.isDown(PauseControl.Key(device: d, code: code))
        }
        if layoutWhilePaused {
            layoutWhilePaused = false
            deliverToScanner(.layout(model))
        }
        deliverToScanner(.action(.resumeScanning, target: nil))
    }

    // MARK: Scanner and timers

    mutating func deliverToScanner(_ event: Scanner.Event) {
        if keyboard != nil { return deliverToKeyboard(event) }
        guard scanner != nil else { return }
        takeAppOutputs(scanner!.handle(event, at: now))
    }

    /// The application scanner's outputs. A perform that activates a text field opens the
    /// keyboard on it (docs/typing.md); what the scanner highlighted after it is not shown.
    mutating func takeAppOutputs(_ outputs: [Scanner.Output]) {
        var field: KeyboardTarget?
        for o in outputs {
            switch o {
            case .emit(let e):
                if case .setting(let change) = e {
                    profile.apply(change)
                    adaptiveScanTimeSet(change)
                }
                if case .speak = e { appUtterances += 1 }
                if field != nil {
                    switch e {
                    case .highlight, .speak, .colorGroups, .sweep: continue
                    default: break
                    }
                }
                if case .speak = e { noteSpeech(.app(appUtterances - 1)) }
                out.append(TranscriptLine(t: now, e))
                if case .perform(let p) = e, p.source == .switch, p.action == .activate || p.action == .tap,
                   keyboardLayout != nil, let i = model.itemIndex(id: p.id), model.items[i].element.textEntry != nil {
                    field = KeyboardTarget(model.items[i])
                }
            case .setTimer(let id, let at): timers.set(.scanner(id), at: at)
            case .cancelTimer(let id): timers.cancel(.scanner(id))
            case .pauseRequested: _ = runPause(.menu)
            case .keyboardRequested(let id):
                // On a text field: that field. On anything else: whatever has the keyboard focus
                // (scanning comes back to the item when the keyboard closes).
                if keyboardLayout != nil, let i = model.itemIndex(id: id) {
                    if model.items[i].element.textEntry != nil {
                        field = KeyboardTarget(model.items[i])
                    } else if let focus = keyboardFocus {
                        field = KeyboardTarget(focus, returnTo: id)
                    }
                }
            }
        }
        if let field { openKeyboard(on: field) }
    }

    /// A `speak` line is about to be written by `owner`: its number, for speech-paced scanning.
    mutating func noteSpeech(_ owner: SpeechOwner) {
        speechOwners[utterancesSpoken] = owner
        if speechOwners.count > 64 { speechOwners = speechOwners.filter { $0.key > utterancesSpoken - 32 } }
        utterancesSpoken += 1
    }

    /// Timers due at or before `t` fire first; then the clock is at `t`.
    mutating func catchUp(to t: Instant) {
        fireTimers(upTo: t)
        now = max(now, t)
    }

    private mutating func fireTimers(upTo t: Instant) {
        while let (key, deadline) = timers.popDue(atOrBefore: t) {
            now = max(now, deadline)
            switch key {
            case .scanner(let id): if keyboard == nil { deliverToScanner(.timer(id)) }
            case .keyboard(let id): if keyboard != nil { deliverToKeyboard(.timer(id)) }
            case .predictionWait: predictionsTimedOut()
            case .pipeline(let p, let id): runPipeline(p, .timer(id))
            case .touch(let d, let id): runTouchFilter(d, .timer(id))
            case .passthrough(let d, let id): runPassthrough(d, .timer(id))
            case .pauseHold: _ = runPause(.timer)
            }
        }
    }

    mutating func flush() -> [TranscriptLine] {
        if out.isEmpty { return [] }
        let lines = out
        out = []
        return lines
    }
}
