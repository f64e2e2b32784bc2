import Testing
import SwitchCore

/// Device descriptions for the tracker tests: panels 0…1000 × 0…2000 on a 100 × 200 screen, so
/// device units / 10 = points.
enum TouchDevices {
    static let screen = Size(width: 100, height: 200)

    static func abs(_ min: Int32, _ max: Int32, value: Int32 = 0) -> DeviceDescription.AbsInfo {
        DeviceDescription.AbsInfo(value: value, minimum: min, maximum: max)
    }

    /// A protocol B touchscreen (slots 0…9) with the single-touch emulation.
    static func protocolB(slotValue: Int32 = 0) -> DeviceDescription {
        DeviceDescription(
            name: "B panel", properties: [EventCodes.INPUT_PROP_DIRECT],
            codes: [EventCodes.EV_ABS: [EventCodes.ABS_X, EventCodes.ABS_Y, EventCodes.ABS_MT_SLOT, EventCodes.ABS_MT_POSITION_X,
                                        EventCodes.ABS_MT_POSITION_Y, EventCodes.ABS_MT_TRACKING_ID],
                    EventCodes.EV_KEY: [EventCodes.BTN_TOUCH]],
            absInfo: [EventCodes.ABS_X: abs(0, 1000), EventCodes.ABS_Y: abs(0, 2000), EventCodes.ABS_MT_SLOT: abs(0, 9, value: slotValue),
                      EventCodes.ABS_MT_POSITION_X: abs(0, 1000), EventCodes.ABS_MT_POSITION_Y: abs(0, 2000),
                      EventCodes.ABS_MT_TRACKING_ID: abs(0, 65535)])
    }

    /// A protocol A touchscreen: MT positions, no slots.
    static let protocolA = DeviceDescription(
        name: "A panel", properties: [EventCodes.INPUT_PROP_DIRECT],
        codes: [EventCodes.EV_ABS: [EventCodes.ABS_X, EventCodes.ABS_Y, EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y],
                EventCodes.EV_KEY: [EventCodes.BTN_TOUCH]],
        absInfo: [EventCodes.ABS_X: abs(0, 1000), EventCodes.ABS_Y: abs(0, 2000),
                  EventCodes.ABS_MT_POSITION_X: abs(0, 1000), EventCodes.ABS_MT_POSITION_Y: abs(0, 2000)])

    /// A single-touch screen.
    static func singleTouch(x: DeviceDescription.AbsInfo = abs(0, 1000), y: DeviceDescription.AbsInfo = abs(0, 2000)) -> DeviceDescription {
        DeviceDescription(
            name: "ST panel",
            codes: [EventCodes.EV_ABS: [EventCodes.ABS_X, EventCodes.ABS_Y], EventCodes.EV_KEY: [EventCodes.BTN_TOUCH]],
            absInfo: [EventCodes.ABS_X: x, EventCodes.ABS_Y: y])
    }
}

// Event shorthands.
func slot(_ v: Int32) -> InputEvent { InputEvent(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_SLOT, value: v) }
func tid(_ v: Int32) -> InputEvent { InputEvent(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_TRACKING_ID, value: v) }
func mx(_ v: Int32) -> InputEvent { InputEvent(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_POSITION_X, value: v) }
func my(_ v: Int32) -> InputEvent { InputEvent(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_POSITION_Y, value: v) }
func ax(_ v: Int32) -> InputEvent { InputEvent(type: EventCodes.EV_ABS, code: EventCodes.ABS_X, value: v) }
func ay(_ v: Int32) -> InputEvent { InputEvent(type: EventCodes.EV_ABS, code: EventCodes.ABS_Y, value: v) }
func touch(_ v: Int32) -> InputEvent { InputEvent(type: EventCodes.EV_KEY, code: EventCodes.BTN_TOUCH, value: v) }
let mtReport = InputEvent(type: EventCodes.EV_SYN, code: EventCodes.SYN_MT_REPORT, value: 0)

/// "down(7, (50, 100))"
func render(_ contacts: [TouchTracker.Contact]) -> [String] {
    contacts.map { c in
        switch c {
        case .down(let id, let p): return "down(\(id), \(p))"
        case .moved(let id, let p): return "moved(\(id), \(p))"
        case .up(let id, let p): return "up(\(id), \(p))"
        }
    }
}

@Suite("Touch tracker: protocol B")
struct ProtocolBTests {
    func tracker(slotValue: Int32 = 0) -> TouchTracker {
        TouchTracker(device: TouchDevices.protocolB(slotValue: slotValue), screen: TouchDevices.screen)
    }

    @Test("one finger: down at the end of the frame (positions after the id), moved, up where it was")
    func oneFinger() {
        var t = tracker()
        #expect(t.kind == .protocolB)
        #expect(render(t.handle(frame: [tid(7), mx(500), my(1000)])) == ["down(7, (50, 100))"])
        #expect(render(t.handle(frame: [mx(600)])) == ["moved(7, (60, 100))"])
        #expect(render(t.handle(frame: [my(1000)])).isEmpty, "a value that did not change moves nothing")
        #expect(render(t.handle(frame: [tid(-1)])) == ["up(7, (60, 100))"])
        #expect(render(t.handle(frame: [mx(700)])).isEmpty)
    }

    @Test("two fingers: two contacts, moved and lifted independently")
    func twoFingers() {
        var t = tracker()
        #expect(render(t.handle(frame: [slot(0), tid(7), mx(100), my(100), slot(1), tid(8), mx(900), my(1900)]))
            == ["down(7, (10, 10))", "down(8, (90, 190))"])
        #expect(render(t.handle(frame: [slot(0), mx(200), slot(1), my(1800)])) == ["moved(7, (20, 10))", "moved(8, (90, 180))"])
        #expect(render(t.handle(frame: [tid(-1)])) == ["up(8, (90, 180))"])
        #expect(render(t.handle(frame: [slot(0), mx(300)])) == ["moved(7, (30, 10))"])
        #expect(render(t.handle(frame: [tid(-1)])) == ["up(7, (30, 10))"])
    }

    @Test("slot reuse: a new finger in a slot starts where the slot's values are (only changes are sent)")
    func slotReuse() {
        var t = tracker()
        _ = t.handle(frame: [tid(7), mx(500), my(1000)])
        _ = t.handle(frame: [tid(-1)])
        #expect(render(t.handle(frame: [tid(9)])) == ["down(9, (50, 100))"])
        #expect(render(t.handle(frame: [tid(-1), slot(1), tid(10), mx(10)])) == ["up(9, (50, 100))", "down(10, (1, 0))"])
    }

    @Test("a tracking id change in one slot ends the old contact and starts a new one")
    func trackingIDChange() {
        var t = tracker()
        _ = t.handle(frame: [tid(7), mx(500), my(1000)])
        #expect(render(t.handle(frame: [tid(10), mx(100), my(200)])) == ["up(7, (50, 100))", "down(10, (10, 20))"])
        #expect(render(t.handle(frame: [tid(10)])).isEmpty, "the same id again is the same contact")
    }

    @Test("axis updates for a slot without a valid tracking id never create a touch")
    func updatesWithoutTrackingID() {
        var t = tracker()
        #expect(render(t.handle(frame: [slot(2), mx(100), my(100)])).isEmpty)
        #expect(render(t.handle(frame: [mx(300)])).isEmpty)
        #expect(render(t.handle(frame: [tid(-1)])).isEmpty, "ending nothing ends nothing")
        #expect(render(t.handle(frame: [tid(11)])) == ["down(11, (30, 10))"])
    }

    @Test("the single-touch emulation is ignored when MT is present")
    func singleTouchEmulationIgnored() {
        var t = tracker()
        #expect(render(t.handle(frame: [touch(1), ax(500), ay(500)])).isEmpty)
        #expect(render(t.handle(frame: [tid(3), mx(0), my(0), touch(1), ax(900)])) == ["down(3, (0, 0))"])
    }

    @Test("the current slot starts from absinfo")
    func initialSlotFromAbsinfo() {
        var t = tracker(slotValue: 3)
        #expect(render(t.handle(frame: [tid(5), mx(100), my(100)])) == ["down(5, (10, 10))"])
        #expect(render(t.handle(frame: [slot(0), tid(-1)])).isEmpty, "slot 0 has no contact")
        #expect(render(t.handle(frame: [slot(3), tid(-1)])) == ["up(5, (10, 10))"])
    }

    @Test("bad input: slots out of range are ignored until a valid slot is selected")
    func slotOutOfRange() {
        var t = tracker()
        #expect(render(t.handle(frame: [slot(200), tid(4), mx(100)])).isEmpty)
        #expect(render(t.handle(frame: [slot(-1), tid(4), mx(100)])).isEmpty)
        #expect(render(t.handle(frame: [slot(12), tid(4), mx(100), my(0)])) == ["down(4, (10, 0))"], "beyond absinfo's 9 but within 64")
        #expect(render(t.handle(frame: [slot(Int32.max), tid(-1)])).isEmpty)
        #expect(render(t.handle(frame: [slot(12), tid(-1)])) == ["up(4, (10, 0))"])
    }

    @Test("a contact that starts and ends within one frame is reported down then up")
    func downAndUpInOneFrame() {
        var t = tracker()
        #expect(render(t.handle(frame: [tid(6), mx(100), my(100), tid(-1)])) == ["down(6, (10, 10))", "up(6, (10, 10))"])
    }

    @Test("liftAll ends every contact where it was, and their later updates are ignored")
    func liftAll() {
        var t = tracker()
        _ = t.handle(frame: [slot(0), tid(7), mx(100), my(100), slot(1), tid(8), mx(900), my(1900)])
        #expect(render(t.liftAll()) == ["up(7, (10, 10))", "up(8, (90, 190))"])
        #expect(render(t.liftAll()).isEmpty)
        #expect(render(t.handle(frame: [mx(500)])).isEmpty)
    }

    @Test("events of other types and codes are ignored")
    func otherEventsIgnored() {
        var t = tracker()
        let frame = [InputEvent(type: EventCodes.EV_MSC, code: 5, value: 1234), tid(1),
                     InputEvent(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_TOUCH_MAJOR, value: 3), mx(10), my(20), mtReport]
        #expect(render(t.handle(frame: frame)) == ["down(1, (1, 2))"])
    }
}

@Suite("Touch tracker: protocol A")
struct ProtocolATests {
    func tracker() -> TouchTracker { TouchTracker(device: TouchDevices.protocolA, screen: TouchDevices.screen) }

    @Test("one contact: down, moved, a frame with no contacts lifts it")
    func oneContact() {
        var t = tracker()
        #expect(t.kind == .protocolA)
        #expect(render(t.handle(frame: [mx(500), my(1000), mtReport])) == ["down(0, (50, 100))"])
        #expect(render(t.handle(frame: [mx(510), my(1000), mtReport])) == ["moved(0, (51, 100))"])
        #expect(render(t.handle(frame: [mx(510), my(1000), mtReport])).isEmpty)
        #expect(render(t.handle(frame: [mtReport])) == ["up(0, (51, 100))"])
        #expect(render(t.handle(frame: [mx(100), my(100), mtReport])) == ["down(1, (10, 10))"], "a new touch, a new id")
    }

    @Test("two contacts keep their ids when the device lists them in another order (nearest first)")
    func stableIDs() {
        var t = tracker()
        #expect(render(t.handle(frame: [mx(100), my(100), mtReport, mx(900), my(1900), mtReport]))
            == ["down(0, (10, 10))", "down(1, (90, 190))"])
        #expect(render(t.handle(frame: [mx(880), my(1900), mtReport, mx(120), my(100), mtReport]))
            == ["moved(1, (88, 190))", "moved(0, (12, 10))"])
        // One lifts: the one farther from what is left.
        #expect(render(t.handle(frame: [mx(870), my(1900), mtReport])) == ["up(0, (12, 10))", "moved(1, (87, 190))"])
        // A new one: down with the next id.
        #expect(render(t.handle(frame: [mx(870), my(1900), mtReport, mx(500), my(500), mtReport])) == ["down(2, (50, 50))"])
    }

    @Test("a frame with no contact data at all (BTN_TOUCH 0 only) lifts all")
    func emptyFrameLiftsAll() {
        var t = tracker()
        _ = t.handle(frame: [mx(100), my(100), mtReport, mx(900), my(1900), mtReport])
        #expect(render(t.handle(frame: [touch(0)])) == ["up(0, (10, 10))", "up(1, (90, 190))"])
    }

    @Test("contact data not closed by SYN_MT_REPORT still counts; a missing axis keeps its last value")
    func unclosedContact() {
        var t = tracker()
        #expect(render(t.handle(frame: [mx(100), my(100)])) == ["down(0, (10, 10))"])
        #expect(render(t.handle(frame: [mx(200), mtReport])) == ["moved(0, (20, 10))"])
    }

    @Test("a contact that omits an axis keeps its own last value, never the contact's read before it")
    func axesStayWithTheirContact() {
        var t = tracker()
        let code: UInt16 = 0x3a  // ABS_MT_PRESSURE
        let pressure = { (v: Int32) in InputEvent(type: EventCodes.EV_ABS, code: code, value: v) }
        func axes(_ samples: [TouchSample]) -> [String] { samples.map { "\($0.contact.id): \($0.raw.axes)" } }
        // The second contact sends no pressure: it has none (it used to get the first one's 50).
        #expect(axes(t.handleSamples(frame: [mx(100), my(100), pressure(50), mtReport, mx(900), my(1900), mtReport]))
            == ["0: [\(code): 50]", "1: [:]"])
        // Listed the other way round, neither sending pressure: each keeps its own.
        #expect(axes(t.handleSamples(frame: [mx(880), my(1900), mtReport, mx(120), my(100), mtReport]))
            == ["1: [:]", "0: [\(code): 50]"])
        // A new value is taken; a contact that starts without one has none.
        #expect(axes(t.handleSamples(frame: [mx(130), my(100), pressure(60), mtReport, mx(870), my(1900), mtReport, mx(500), my(500), mtReport]))
            == ["0: [\(code): 60]", "1: [:]", "2: [:]"])
    }

    @Test("liftAll ends every contact")
    func liftAll() {
        var t = tracker()
        _ = t.handle(frame: [mx(100), my(100), mtReport])
        #expect(render(t.liftAll()) == ["up(0, (10, 10))"])
        #expect(render(t.handle(frame: [mtReport])).isEmpty)
    }
}

@Suite("Touch tracker: single-touch and mapping")
struct SingleTouchTests {
    @Test("BTN_TOUCH puts the finger down and lifts it; ids are a running number")
    func singleTouch() {
        var t = TouchTracker(device: TouchDevices.singleTouch(), screen: TouchDevices.screen)
        #expect(t.kind == .singleTouch)
        #expect(render(t.handle(frame: [ax(500), ay(1000), touch(1)])) == ["down(0, (50, 100))"])
        #expect(render(t.handle(frame: [ax(520)])) == ["moved(0, (52, 100))"])
        #expect(render(t.handle(frame: [touch(1)])).isEmpty)
        #expect(render(t.handle(frame: [touch(0)])) == ["up(0, (52, 100))"])
        #expect(render(t.handle(frame: [ax(0)])).isEmpty, "moving while not touching")
        #expect(render(t.handle(frame: [touch(0)])).isEmpty)
        #expect(render(t.handle(frame: [touch(1), ay(0)])) == ["down(1, (0, 0))"])
        #expect(render(t.liftAll()) == ["up(1, (0, 0))"])
        #expect(render(t.handle(frame: [touch(1), touch(0)])) == ["down(2, (0, 0))", "up(2, (0, 0))"])
    }

    @Test("mapping: (v − min) / (max − min) × size, clamped to the screen")
    func mappingAndClamping() {
        let device = TouchDevices.singleTouch(x: TouchDevices.abs(100, 1100), y: TouchDevices.abs(-1000, 1000))
        var t = TouchTracker(device: device, screen: Size(width: 1000, height: 500))
        #expect(render(t.handle(frame: [ax(600), ay(0), touch(1)])) == ["down(0, (500, 250))"])
        #expect(render(t.handle(frame: [ax(50), ay(-2000)])) == ["moved(0, (0, 0))"], "below min: clamped to 0")
        #expect(render(t.handle(frame: [ax(5000), ay(1001)])) == ["moved(0, (1000, 500))"], "above max: clamped to the size")
        #expect(render(t.handle(frame: [ax(350), ay(-500)])) == ["moved(0, (250, 125))"])
    }

    @Test("bad absinfo: max ≤ min or missing maps to 0; a negative screen size to 0")
    func degenerateAbsinfo() {
        let device = TouchDevices.singleTouch(x: TouchDevices.abs(5, 5), y: TouchDevices.abs(10, 0))
        var t = TouchTracker(device: device, screen: TouchDevices.screen)
        #expect(render(t.handle(frame: [ax(5), ay(7), touch(1)])) == ["down(0, (0, 0))"])
        var noAbs = TouchTracker(device: DeviceDescription(name: "no absinfo", codes: [EventCodes.EV_ABS: [EventCodes.ABS_X, EventCodes.ABS_Y]]),
                                 screen: TouchDevices.screen)
        #expect(render(noAbs.handle(frame: [ax(5), ay(7), touch(1)])) == ["down(0, (0, 0))"])
        var negative = TouchTracker(device: TouchDevices.singleTouch(), screen: Size(width: -5, height: .nan))
        #expect(render(negative.handle(frame: [ax(500), ay(500), touch(1)])) == ["down(0, (0, 0))"])
    }

    @Test("MT positions without MT absinfo fall back to ABS_X/Y's")
    func multitouchFallsBackToSingleTouchAbsinfo() {
        var d = TouchDevices.protocolB()
        d.absInfo[EventCodes.ABS_MT_POSITION_X] = nil
        d.absInfo[EventCodes.ABS_X] = TouchDevices.abs(0, 500)
        var t = TouchTracker(device: d, screen: TouchDevices.screen)
        #expect(render(t.handle(frame: [tid(1), mx(250), my(1000)])) == ["down(1, (50, 100))"])
    }

    @Test("a device without touch axes, or with fake MT, reports nothing")
    func notATouchscreen() {
        var keys = TouchTracker(device: DeviceDescription(name: "switch", codes: [EventCodes.EV_KEY: [EventCodes.KEY_SPACE]]), screen: TouchDevices.screen)
        #expect(keys.kind == .none)
        #expect(keys.handle(frame: [touch(1), tid(1), mx(5)]).isEmpty)
        #expect(keys.liftAll().isEmpty)
        // A gamepad reusing the MT range (it has the axis just below ABS_MT_SLOT): udev's fake MT.
        let pad = DeviceDescription(name: "pad", codes: [EventCodes.EV_ABS: [EventCodes.ABS_MT_SLOT - 1, EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y]])
        #expect(TouchTracker(device: pad, screen: TouchDevices.screen).kind == .none)
    }
}
