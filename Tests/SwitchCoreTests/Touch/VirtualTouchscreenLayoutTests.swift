import Testing
import SwitchCore

/// The virtual touchscreen made from the real one, and the events its encoder writes (the table
/// and the timeline at the top of `VirtualTouchscreenLayout.swift`).
@Suite("Virtual touchscreen layout and encoder")
struct VirtualTouchscreenLayoutTests {
    func abs(_ min: Int32, _ max: Int32, res: Int32 = 0, fuzz: Int32 = 0) -> DeviceDescription.AbsInfo {
        DeviceDescription.AbsInfo(value: 7, minimum: min, maximum: max, fuzz: fuzz, resolution: res)
    }

    /// A real protocol B panel with pressure and touch size, pen-like keys and a bus id.
    var panel: DeviceDescription {
        DeviceDescription(
            name: "ELAN Touchscreen", bus: 0x18, vendor: 0x04f3, product: 0x2a1c, version: 0x0100,
            properties: [EventCodes.INPUT_PROP_DIRECT],
            codes: [EventCodes.EV_ABS: [EventCodes.ABS_X, EventCodes.ABS_Y, EventCodes.ABS_MT_SLOT, EventCodes.ABS_MT_POSITION_X,
                                        EventCodes.ABS_MT_POSITION_Y, EventCodes.ABS_MT_TRACKING_ID, 0x30, 0x3a],
                    EventCodes.EV_KEY: [EventCodes.BTN_TOUCH, EventCodes.BTN_TOOL_FINGER]],
            absInfo: [EventCodes.ABS_X: abs(0, 3839, res: 12), EventCodes.ABS_Y: abs(0, 2159, res: 12),
                      EventCodes.ABS_MT_SLOT: abs(0, 9), EventCodes.ABS_MT_POSITION_X: abs(0, 3839, res: 12, fuzz: 4),
                      EventCodes.ABS_MT_POSITION_Y: abs(0, 2159, res: 12, fuzz: 4), EventCodes.ABS_MT_TRACKING_ID: abs(0, 65535),
                      0x30: abs(0, 255), 0x3a: abs(0, 1024)])
    }

    @Test("protocol B source: its slots, ranges, resolutions, other MT axes and ids; fuzz 0; BTN_TOUCH and INPUT_PROP_DIRECT only")
    func protocolBMirror() {
        let layout = VirtualTouchscreenLayout(mirroring: panel)
        let d = layout.description
        #expect(d.name == "switchscan ELAN Touchscreen")
        #expect([d.bus, d.vendor, d.product, d.version] == [0x18, 0x04f3, 0x2a1c, 0x0100])
        #expect(d.properties == [EventCodes.INPUT_PROP_DIRECT])
        #expect(d.codes[EventCodes.EV_KEY] == [EventCodes.BTN_TOUCH])
        #expect(d.codes[EventCodes.EV_ABS] == [EventCodes.ABS_X, EventCodes.ABS_Y, EventCodes.ABS_MT_SLOT, EventCodes.ABS_MT_POSITION_X,
                                               EventCodes.ABS_MT_POSITION_Y, EventCodes.ABS_MT_TRACKING_ID, 0x30, 0x3a])
        #expect(layout.slots == 10)
        #expect(d.absInfo[EventCodes.ABS_MT_POSITION_X] == DeviceDescription.AbsInfo(minimum: 0, maximum: 3839, resolution: 12))
        #expect(d.absInfo[0x3a] == DeviceDescription.AbsInfo(minimum: 0, maximum: 1024))
        #expect(d.isTouchscreen && d.kind == .touchscreen)
    }

    @Test("protocol A source: slots and tracking ids added")
    func protocolAMirror() {
        var a = panel
        a.codes[EventCodes.EV_ABS]!.subtract([EventCodes.ABS_MT_SLOT, EventCodes.ABS_MT_TRACKING_ID])
        a.absInfo[EventCodes.ABS_MT_SLOT] = nil
        let layout = VirtualTouchscreenLayout(mirroring: a)
        #expect(layout.slots == VirtualTouchscreenLayout.defaultSlots)
        #expect(layout.description.absInfo[EventCodes.ABS_MT_SLOT]?.maximum == 9)
        #expect(layout.description.absInfo[EventCodes.ABS_MT_TRACKING_ID]?.maximum == 65535)
    }

    @Test("single-touch source: MT positions with ABS_X/Y's ranges, 10 slots, a touchscreen even without INPUT_PROP_DIRECT")
    func singleTouchMirror() {
        let st = DeviceDescription(name: "eGalax Inc. USB TouchController", bus: 3, vendor: 0x0eef, product: 0x0001,
                                   codes: [EventCodes.EV_ABS: [EventCodes.ABS_X, EventCodes.ABS_Y],
                                           EventCodes.EV_KEY: [EventCodes.BTN_TOUCH, EventCodes.BTN_TOOL_PEN]],
                                   absInfo: [EventCodes.ABS_X: abs(30, 4050), EventCodes.ABS_Y: abs(60, 4000)])
        let d = VirtualTouchscreenLayout(mirroring: st).description
        #expect(d.absInfo[EventCodes.ABS_MT_POSITION_X] == DeviceDescription.AbsInfo(minimum: 30, maximum: 4050))
        #expect(d.absInfo[EventCodes.ABS_MT_POSITION_Y] == DeviceDescription.AbsInfo(minimum: 60, maximum: 4000))
        #expect(d.absInfo[EventCodes.ABS_MT_SLOT]?.maximum == 9)
        #expect(d.codes[EventCodes.EV_KEY] == [EventCodes.BTN_TOUCH])
        #expect(d.kind == .touchscreen)
    }

    @Test("the name: switchscan + the real name, 79 bytes at most (uinput keeps 80 with the NUL), never half a character")
    func nameCut() {
        #expect(VirtualTouchscreenLayout.name(for: "Panel") == "switchscan Panel")
        let long = VirtualTouchscreenLayout.name(for: String(repeating: "x", count: 100))
        #expect(long.utf8.count == 79 && long.hasPrefix("switchscan x"))
        let wide = VirtualTouchscreenLayout.name(for: String(repeating: "€", count: 30))   // 3 bytes each
        #expect(wide.utf8.count == 77, "11 + 3 × 22: a 23rd € would make 80")
        #expect(VirtualTouchscreenLayout.isOwnDevice(name: "switchscan ELAN Touchscreen"))
        #expect(VirtualTouchscreenLayout.isOwnDevice(name: "switchscan output"))
        #expect(!VirtualTouchscreenLayout.isOwnDevice(name: "switchscanner"))
        #expect(!VirtualTouchscreenLayout.isOwnDevice(name: "ELAN switchscan Touchscreen"))
    }

    func names(_ events: [InputEvent]) -> String { events.map(\.description).joined(separator: " · ") }

    @Test("encoder: down, moves (only what changed), a second finger, lifts in any order; BTN_TOUCH and ABS_X/Y follow the oldest contact")
    func encoderTimeline() {
        var e = VirtualTouchscreenLayout(mirroring: panel).encoder()
        let raw = RawTouch(x: 100, y: 200, axes: [0x3a: 50, 0x31: 9])   // 0x31 is not an axis of the device: left out
        #expect(names(e.encode([.down(0, raw)])) == "ABS_MT_TRACKING_ID 0 · ABS_MT_POSITION_X 100 · ABS_MT_POSITION_Y 200 · ABS_MT_PRESSURE 50 · BTN_TOUCH 1 · ABS_X 100 · ABS_Y 200 · SYN_REPORT 0")
        #expect(names(e.encode([.move(0, RawTouch(x: 110, y: 200, axes: [0x3a: 50, 0x31: 9]))])) == "ABS_MT_POSITION_X 110 · ABS_X 110 · SYN_REPORT 0",
                "only what changed")
        #expect(e.encode([.move(0, RawTouch(x: 110, y: 200, axes: [0x3a: 50, 0x31: 9]))]).isEmpty, "nothing changed: nothing written")
        #expect(names(e.encode([.move(0, RawTouch(x: 110, y: 200, axes: [0x3a: 60]))])) == "ABS_MT_PRESSURE 60 · SYN_REPORT 0")
        #expect(names(e.encode([.down(1, RawTouch(x: 900, y: 900))])) == "ABS_MT_SLOT 1 · ABS_MT_TRACKING_ID 1 · ABS_MT_POSITION_X 900 · ABS_MT_POSITION_Y 900 · SYN_REPORT 0",
                "ABS_X/Y stay at the oldest contact's")
        #expect(names(e.encode([.up(0)])) == "ABS_MT_SLOT 0 · ABS_MT_TRACKING_ID -1 · ABS_X 900 · ABS_Y 900 · SYN_REPORT 0")
        #expect(names(e.encode([.down(2, RawTouch(x: 5, y: 6))])) == "ABS_MT_TRACKING_ID 2 · ABS_MT_POSITION_X 5 · ABS_MT_POSITION_Y 6 · SYN_REPORT 0",
                "slot 0 is free again (lowest first); the oldest contact is still 1")
        #expect(e.activeCount == 2)
        #expect(names(e.liftAll()) == "ABS_MT_TRACKING_ID -1 · ABS_MT_SLOT 1 · ABS_MT_TRACKING_ID -1 · BTN_TOUCH 0 · SYN_REPORT 0")
        #expect(e.liftAll().isEmpty)
        #expect(e.encode([.move(7, raw), .up(7)]).isEmpty, "unknown contacts write nothing")
    }

    @Test("encoder: a contact with no free slot is dropped with its moves and lift; tracking ids wrap at 65536")
    func encoderFullAndWrap() {
        var one = panel
        one.absInfo[EventCodes.ABS_MT_SLOT] = abs(0, 0)
        var e = VirtualTouchscreenLayout(mirroring: one).encoder()
        _ = e.encode([.down(0, RawTouch(x: 1, y: 1))])
        #expect(e.encode([.down(1, RawTouch(x: 2, y: 2))]).isEmpty)
        #expect(e.encode([.move(1, RawTouch(x: 3, y: 3)), .up(1)]).isEmpty)
        for v in 2..<65537 { _ = e.encode([.up(v - 2 == 0 ? 0 : v - 1), .down(v, RawTouch(x: 1, y: 1))]) }
        #expect(e.activeCount == 1)
        #expect(names(e.encode([.up(65536), .down(70000, RawTouch(x: 4, y: 4))])).hasPrefix("ABS_MT_TRACKING_ID -1 · ABS_MT_TRACKING_ID 0 ·"),
                "65,536 contacts got ids 0 … 65535 (the dropped one none): the next is 0 again")
    }

    @Test("encoder: ABS_X/Y scaled when their range differs from the MT positions'")
    func encoderScalesThePointer() {
        var p = panel
        p.absInfo[EventCodes.ABS_X] = abs(0, 1919)
        var e = VirtualTouchscreenLayout(mirroring: p).encoder()
        let events = e.encode([.down(0, RawTouch(x: 3839, y: 0))])
        #expect(events.contains(InputEvent(type: EventCodes.EV_ABS, code: EventCodes.ABS_X, value: 1919)))
    }
}
