import PropertyBased
import SwitchCore
import Testing

/// Touch passthrough's fast path (`LiveTouchRoute`, `VirtualTouchEncoder.forwardLive`): the rows
/// drawn at the top of `LiveTouchRoute.swift`, and over random gestures, that a device fed by the
/// fast path ends every frame exactly where the engine alone leaves it.
@Suite("Touch passthrough: the live route")
struct LiveTouchRouteTests {
    static let pressure: UInt16 = 0x3a  // ABS_MT_PRESSURE
    /// A protocol B touchscreen with pressure, in points of the 390 × 844 tree.
    static let screen = DeviceDescription(
        name: "screen", properties: [EventCodes.INPUT_PROP_DIRECT],
        codes: [EventCodes.EV_ABS: [EventCodes.ABS_MT_SLOT, EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y,
                                    EventCodes.ABS_MT_TRACKING_ID, pressure, EventCodes.ABS_X, EventCodes.ABS_Y],
                EventCodes.EV_KEY: [EventCodes.BTN_TOUCH]],
        absInfo: [EventCodes.ABS_MT_SLOT: .init(minimum: 0, maximum: 9),
                  EventCodes.ABS_MT_POSITION_X: .init(minimum: 0, maximum: 390),
                  EventCodes.ABS_MT_POSITION_Y: .init(minimum: 0, maximum: 844),
                  EventCodes.ABS_X: .init(minimum: 0, maximum: 390),
                  EventCodes.ABS_Y: .init(minimum: 0, maximum: 844),
                  EventCodes.ABS_MT_TRACKING_ID: .init(minimum: 0, maximum: 65535),
                  pressure: .init(minimum: 0, maximum: 255)])

    /// What a reader of the virtual touchscreen knows: each slot's values, the pointer emulation
    /// (the kernel's evdev state; a value written again unchanged changes nothing).
    struct DeviceState: Equatable {
        var slots: [Int32: [UInt16: Int32]] = [:]
        var selected: Int32 = 0
        var other: [UInt16: Int32] = [:]

        mutating func apply(_ events: [InputEvent]) {
            for e in events {
                if e.type == EventCodes.EV_ABS && e.code == EventCodes.ABS_MT_SLOT { selected = e.value }
                else if e.type == EventCodes.EV_ABS && e.code >= EventCodes.ABS_MT_TOUCH_MAJOR { slots[selected, default: [:]][e.code] = e.value }
                else if e.type != EventCodes.EV_SYN { other[e.type << 12 | e.code] = e.value }
            }
        }
    }

    /// One engine and the virtual touchscreen it writes to; `fast`: frames go through the route
    /// first, as in the live loop.
    struct Rig {
        var engine: Engine
        var encoder = VirtualTouchscreenLayout(mirroring: LiveTouchRouteTests.screen).encoder()
        var device = DeviceState()
        var route: LiveTouchRoute?
        let fast: Bool
        var forwarded = 0
        /// What the engine wrote after the route had forwarded the frame (must be nothing).
        var writtenAfterForward: [[InputEvent]] = []
        var last = Instant.zero

        init(_ settings: TouchAccommodations, fast: Bool) throws {
            var profile = try ProfileDecoder.decode(Array(#"{"switches": []}"#.utf8), file: "p.json")
            profile.touchAccommodations = settings
            engine = Engine(tree: try threeButtonTree(), profile: profile, devices: [LiveTouchRouteTests.screen])
            _ = engine.start(at: .zero)
            self.fast = fast
            makeRoute()
        }

        /// Before each wait: the engine makes the route from its state.
        mutating func makeRoute() { route = fast ? engine.liveTouchRoute(device: 0, notBefore: last, until: nil) : nil }

        /// One frame (without its SYN_REPORT) at `t` ms; returns whether the route forwarded it.
        @discardableResult
        mutating func frame(_ events: [InputEvent], at t: Int64) -> Bool {
            var wasForwarded = false
            if route != nil, route!.admits(frameAt: ms(t)) != nil {
                var out: [InputEvent] = []
                if encoder.forwardLive(events + [syn], route: &route!, into: &out) {
                    device.apply(out)
                    wasForwarded = true
                    forwarded += 1
                } else {
                    route = nil
                }
            } else {
                route = nil
            }
            _ = engine.handle(frame: InputFrame(time: ms(t), events: events), device: 0)
            last = max(last, ms(t))
            let written = writeOutput()
            if wasForwarded && !written.isEmpty { writtenAfterForward.append(written) }
            if !wasForwarded { makeRoute() }
            return wasForwarded
        }

        mutating func advance(to t: Int64) {
            _ = engine.advance(to: ms(t))
            last = max(last, ms(t))
            _ = writeOutput()
            makeRoute()
        }

        mutating func writeOutput() -> [InputEvent] {
            var all: [InputEvent] = []
            for o in engine.takeTouchOutput() {
                if case .frame(_, let changes) = o { all += encoder.encode(changes) }
            }
            device.apply(all)
            return all
        }
    }

    static let syn = InputEvent(type: EventCodes.EV_SYN, code: EventCodes.SYN_REPORT, value: 0)
    var syn: InputEvent { Self.syn }
    static func p(_ v: Int32) -> InputEvent { InputEvent(type: EventCodes.EV_ABS, code: pressure, value: v) }

    func names(_ events: [InputEvent]) -> String {
        events.map { e in
            let n: [UInt16: String] = [EventCodes.ABS_MT_SLOT: "SLOT", EventCodes.ABS_MT_POSITION_X: "X", EventCodes.ABS_MT_POSITION_Y: "Y",
                                       EventCodes.ABS_X: "ABS_X", EventCodes.ABS_Y: "ABS_Y", Self.pressure: "PRESSURE"]
            if e.type == EventCodes.EV_SYN { return "SYN" }
            return "\(n[e.code] ?? "\(e.type):\(e.code)") \(e.value)"
        }.joined(separator: " · ")
    }

    /// Tap assistance off, no hold duration: a finger passes live from its down.
    static var live: TouchAccommodations {
        var s = TouchAccommodations()
        s.tapAssistance = .off
        return s
    }

    @Test("slot 0 live: a move is forwarded as the engine writes it, and the engine then writes nothing")
    func aMoveOfALiveSlotIsForwarded() throws {
        var r = try Rig(Self.live, fast: true)
        #expect(r.route == nil)                                   // nothing down: no route
        r.frame([slot(0), tid(7), mx(50), my(20)], at: 1000)      // the down: the engine's
        #expect(r.route == LiveTouchRoute(virtualContact: [0] + Array(repeating: -1, count: 9), selectedSlot: 0,
                                          notBefore: ms(1000), validBefore: nil))
        var out: [InputEvent] = []
        var route = r.route!
        #expect(r.encoder.forwardLive([mx(60), Self.p(9), syn], route: &route, into: &out))
        #expect(names(out) == "X 60 · PRESSURE 9 · ABS_X 60 · SYN")
        // The engine's move, encoded after the fast path wrote it: nothing left to write.
        _ = r.engine.handle(frame: InputFrame(time: ms(1010), events: [mx(60), Self.p(9)]), device: 0)
        #expect(r.writeOutput().isEmpty)
    }

    @Test("slot 0 → v0, slot 1 → v1: a frame moving both is forwarded with its slot changes, on the virtual slots")
    func twoLiveSlotsAreForwardedInOneFrame() throws {
        var r = try Rig(Self.live, fast: true)
        r.frame([slot(0), tid(7), mx(50), my(20)], at: 1000)
        r.frame([slot(1), tid(8), mx(150), my(220)], at: 1010)
        var route = r.route!
        var out: [InputEvent] = []
        #expect(r.encoder.forwardLive([my(230), slot(0), mx(55), syn], route: &route, into: &out))
        #expect(names(out) == "Y 230 · SLOT 0 · X 55 · ABS_X 55 · SYN")
        #expect(route.selectedSlot == 0)
    }

    @Test("slot 1 held by the hold duration: a frame moving it is not forwarded, and nothing changes")
    func aMoveOfAHeldSlotIsNotForwarded() throws {
        var s = Self.live
        s.holdDuration = .milliseconds(100)
        var r = try Rig(s, fast: true)
        r.frame([slot(0), tid(7), mx(50), my(20)], at: 1000)
        r.advance(to: 1100)                                        // 7 accepted: live
        r.frame([slot(1), tid(8), mx(150), my(220)], at: 1150)     // 8 held until 1250
        var route = r.route!
        #expect(route.virtualContact[0] == 0 && route.virtualContact[1] == -1)
        #expect(route.validBefore == ms(1250))
        var out: [InputEvent] = []
        let before = route
        #expect(!r.encoder.forwardLive([mx(160), syn], route: &route, into: &out))
        #expect(out.isEmpty && route == before)
        // A frame moving both, the live one first: not forwarded either (whole or not at all).
        #expect(!r.encoder.forwardLive([slot(0), mx(51), slot(1), mx(161), syn], route: &route, into: &out))
        #expect(out.isEmpty && route == before)
    }

    @Test("any route: a tracking id (a finger down or up) is not forwarded")
    func aTrackingIDIsNotForwarded() throws {
        var r = try Rig(Self.live, fast: true)
        r.frame([slot(0), tid(7), mx(50), my(20)], at: 1000)
        var route = r.route!
        var out: [InputEvent] = []
        #expect(!r.encoder.forwardLive([mx(70), tid(-1), syn], route: &route, into: &out))
        #expect(!r.encoder.forwardLive([slot(1), tid(9), syn], route: &route, into: &out))
        #expect(out.isEmpty)
    }

    @Test("any route: BTN_TOUCH, ABS_X/Y and MSC events are skipped; a frame of only those changes nothing")
    func pointerAndMiscEventsAreSkipped() throws {
        var r = try Rig(Self.live, fast: true)
        r.frame([slot(0), tid(7), mx(50), my(20)], at: 1000)
        var route = r.route!
        var out: [InputEvent] = []
        let misc = InputEvent(type: 4, code: 5, value: 1234)  // MSC_TIMESTAMP
        let absX = InputEvent(type: EventCodes.EV_ABS, code: EventCodes.ABS_X, value: 300)
        let touch = InputEvent(type: EventCodes.EV_KEY, code: EventCodes.BTN_TOUCH, value: 1)
        #expect(r.encoder.forwardLive([absX, touch, misc, syn], route: &route, into: &out))
        #expect(out.isEmpty)
        #expect(r.encoder.forwardLive([mx(52), absX, misc, syn], route: &route, into: &out))
        #expect(names(out) == "X 52 · ABS_X 52 · SYN")
    }

    @Test("a timer due at or before the frame: not admitted (the timer fires first); the engine's clock is kept")
    func aTimerDueFirstIsNotAdmitted() {
        let route = LiveTouchRoute(virtualContact: [0], selectedSlot: 0, notBefore: ms(500), validBefore: ms(1000))
        #expect(route.admits(frameAt: ms(999)) == ms(999))
        #expect(route.admits(frameAt: ms(1000)) == nil)
        #expect(route.admits(frameAt: ms(400)) == ms(500))         // never before what the engine has
        let open = LiveTouchRoute(virtualContact: [0], selectedSlot: 0, notBefore: .zero, validBefore: nil)
        #expect(open.admits(frameAt: ms(10_000_000)) == ms(10_000_000))
    }

    @Test("no route: while the gesture delay runs, while paused-free profiles activate, or for a protocol A screen")
    func noRouteWhereNothingPassesLive() throws {
        var s = TouchAccommodations()
        s.tapAssistance = .final
        s.tapAssistanceGestureDelay = .milliseconds(300)
        var r = try Rig(s, fast: true)
        r.frame([slot(0), tid(7), mx(50), my(20)], at: 1000)
        #expect(r.route == nil)                                    // waiting out the delay
        r.advance(to: 1300)
        #expect(r.route?.virtualContact.first == 0)                // live from the delay
        let protocolA = DeviceDescription(name: "a", properties: [EventCodes.INPUT_PROP_DIRECT],
                                          codes: [EventCodes.EV_ABS: [EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y]],
                                          absInfo: [EventCodes.ABS_MT_POSITION_X: .init(minimum: 0, maximum: 390),
                                                    EventCodes.ABS_MT_POSITION_Y: .init(minimum: 0, maximum: 844)])
        var profile = try ProfileDecoder.decode(Array(#"{"switches": [], "touchAccommodations": {"tapAssistance": "off"}}"#.utf8), file: "p.json")
        profile.touchAccommodations.tapAssistance = .off
        var a = Engine(tree: try threeButtonTree(), profile: profile, devices: [protocolA])
        _ = a.start(at: .zero)
        let mtReport = InputEvent(type: EventCodes.EV_SYN, code: 2, value: 0)
        _ = a.handle(frame: InputFrame(time: ms(1000), events: [mx(50), my(20), mtReport]), device: 0)
        #expect(a.liveTouchRoute(device: 0, notBefore: .zero, until: nil) == nil)
    }

    /// (gap ms, finger 0…2, what: 0 down / 1 move / 2 up / 3 pressure, x, y, timers first)
    static let step = zip(Gen.int(in: 0...150), Gen.int(in: 0...2), Gen.int(in: 0...3), Gen.int(in: 0...390), Gen.int(in: 0...844), Gen<Bool>.bool(0.5))
    static let settings = zip(Gen.int(in: 0...2), Gen.int(in: 0...2), Gen.int(in: 0...2))
        .map { hold, ignore, assist -> TouchAccommodations in
            var s = TouchAccommodations()
            s.holdDuration = .milliseconds([0, 40, 120][hold])
            s.ignoreRepeat = .milliseconds([0, 100, 400][ignore])
            s.tapAssistance = [.off, .initial, .final][assist]
            s.tapAssistanceGestureDelay = .milliseconds(150)
            return s
        }

    @Test("over random gestures the virtual device fed by the route is, after every frame, where the engine alone leaves it")
    func theRouteAgreesWithTheEngineOverRandomGestures() throws {
        var rng = Xoshiro(seed: (3, 5, 7, 9))
        var forwarded = 0, frames = 0
        for _ in 0..<600 {
            let settings = Self.settings.run(using: &rng)
            let steps = Self.step.array(of: 1...80).run(using: &rng)
            var slow = try Rig(settings, fast: false), fast = try Rig(settings, fast: true)
            var t: Int64 = 1000
            var down: [Int: Int32] = [:]   // finger → tracking id
            var nextID: Int32 = 1
            var selected = 0
            for (gap, finger, what, x, y, timersFirst) in steps {
                t += Int64(gap)
                if timersFirst {
                    // The live loop wakes for a timer before a frame that comes after it.
                    while let d = fast.engine.nextDeadline(), d < ms(t) {
                        slow.advance(to: d.microseconds / 1000)
                        fast.advance(to: d.microseconds / 1000)
                        #expect(fast.engine.nextDeadline() != d)
                    }
                }
                var events: [InputEvent] = []
                if finger != selected { events.append(slot(Int32(finger))); selected = finger }
                switch (what, down[finger]) {
                case (_, nil):
                    down[finger] = nextID
                    events += [tid(nextID), mx(Int32(x)), my(Int32(y)), Self.p(Int32(x % 200))]
                    nextID += 1
                case (2, _?):
                    down[finger] = nil
                    events.append(tid(-1))
                case (3, _?):
                    events.append(Self.p(Int32(y % 200)))
                default:
                    events += [mx(Int32(x)), my(Int32(y))]
                }
                slow.frame(events, at: t)
                if fast.frame(events, at: t) { forwarded += 1 }
                frames += 1
                #expect(fast.device == slow.device, "frame at \(t) ms: \(events)")
                #expect(fast.writtenAfterForward.isEmpty, "the engine wrote after a forwarded frame: \(fast.writtenAfterForward)")
                if fast.device != slow.device || !fast.writtenAfterForward.isEmpty { return }
            }
        }
        // The route is not idle: most moves of live fingers take it.
        #expect(forwarded > frames / 5, "\(forwarded) of \(frames) frames forwarded")
    }
}
