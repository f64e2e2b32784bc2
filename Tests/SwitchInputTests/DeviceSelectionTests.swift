import Glibc
import SwitchCore
import SwitchInput
import Testing

/// Device descriptions like the fixtures' (and the real devices they stand for).
enum Devices {
    static func keys(_ codes: [UInt16]) -> [UInt16: Set<UInt16>] { [EventCodes.EV_KEY: Set(codes)] }
    static let oneKeySwitch = DeviceDescription(name: "Test One-Key Switch", bus: 3, vendor: 0x1234, product: 0x5678, codes: keys([EventCodes.KEY_SPACE]))
    static let keyboard = DeviceDescription(name: "AT Translated Set 2 keyboard", bus: 0x11, vendor: 0x0001, product: 0x0001,
                                            codes: keys(Array(1...88)))
    static let usbKeyboard = DeviceDescription(name: "Logitech K400 Plus", bus: 3, vendor: 0x046d, product: 0x404d, codes: keys(Array(1...88)))
    static let touchscreen = DeviceDescription(name: "Test MT Touchscreen", bus: 0x18, vendor: 0x045e, product: 0x04d2,
                                               properties: [EventCodes.INPUT_PROP_DIRECT],
                                               codes: [EventCodes.EV_KEY: [EventCodes.BTN_TOUCH],
                                                       EventCodes.EV_ABS: [0, 1, EventCodes.ABS_MT_SLOT, EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y, EventCodes.ABS_MT_TRACKING_ID]],
                                               absInfo: [0: .init(minimum: 0, maximum: 1919, resolution: 10), 1: .init(minimum: 0, maximum: 1079, resolution: 10)])
    static let receiverMouse = DeviceDescription(name: "Logitech USB Receiver Mouse", bus: 3, vendor: 0x046d, product: 0xc52b,
                                                 codes: [EventCodes.EV_KEY: [EventCodes.BTN_LEFT, 0x111], EventCodes.EV_REL: [0, 1]])
    static let receiverKeys = DeviceDescription(name: "Logitech USB Receiver Consumer Control", bus: 3, vendor: 0x046d, product: 0xc52b,
                                                codes: keys([113, 114, 115]))

    static func entry(_ node: String, _ d: DeviceDescription) -> DeviceEntry { DeviceEntry(node: node, result: .success(d)) }
    static func denied(_ node: String) -> DeviceEntry { DeviceEntry(node: node, result: .failure(DeviceError(node: node, operation: .open, errno: EACCES))) }

    static let desk: [DeviceEntry] = [
        entry("/dev/input/event0", keyboard),
        entry("/dev/input/event2", oneKeySwitch),
        entry("/dev/input/event5", touchscreen),
        entry("/dev/input/event7", receiverMouse),
        entry("/dev/input/event8", receiverKeys),
        denied("/dev/input/event9"),
    ]
}

@Suite struct DeviceSelectorTests {
    @Test func parsesTheThreeForms() {
        #expect(DeviceSelector("/dev/input/event3") == .path("/dev/input/event3"))
        #expect(DeviceSelector("046d:C52B") == .vendorProduct(vendor: 0x046d, product: 0xc52b))
        #expect(DeviceSelector("switch") == .name("switch"))
        // Not quite an id: a name.
        #expect(DeviceSelector("46d:c52b") == .name("46d:c52b"))
        #expect(DeviceSelector("zzzz:0000") == .name("zzzz:0000"))
        #expect(DeviceSelector("Foo: Bar") == .name("Foo: Bar"))
    }
}

@Suite struct DeviceSelectionTests {
    func resolve(_ texts: [String], _ entries: [DeviceEntry] = Devices.desk) throws(InputError) -> [String] {
        try DeviceSelection.resolve(texts.map(DeviceSelector.init), origin: { "--device \(texts[$0])" }, entries: entries).map(\.node)
    }

    func error(_ texts: [String], _ entries: [DeviceEntry] = Devices.desk) -> String? {
        do { _ = try resolve(texts, entries); return nil } catch { return error.description }
    }

    @Test func byPath() throws {
        #expect(try resolve(["/dev/input/event5"]) == ["/dev/input/event5"])
    }

    @Test func byExactName() throws {
        #expect(try resolve(["Test One-Key Switch"]) == ["/dev/input/event2"])
    }

    @Test func byUniqueCaseInsensitivePart() throws {
        #expect(try resolve(["one-KEY"]) == ["/dev/input/event2"])
    }

    @Test func exactNameWinsOverParts() throws {
        let entries = [Devices.entry("/dev/input/event1", DeviceDescription(name: "Switch")),
                       Devices.entry("/dev/input/event2", DeviceDescription(name: "Switch Interface Pro"))]
        #expect(try resolve(["Switch"], entries) == ["/dev/input/event1"])
    }

    @Test func ambiguousPartIsAnError() {
        #expect(error(["logitech"]) == "--device logitech: \"logitech\" matches several devices: \"Logitech USB Receiver Consumer Control\", \"Logitech USB Receiver Mouse\"; give more of the name, the node path or vendor:product")
    }

    @Test func vendorProductPicksEveryNodeOfTheDevice() throws {
        #expect(try resolve(["046d:c52b"]) == ["/dev/input/event7", "/dev/input/event8"])
    }

    @Test func severalSelectorsNoDuplicates() throws {
        #expect(try resolve(["/dev/input/event2", "one-key", "Test MT"]) == ["/dev/input/event2", "/dev/input/event5"])
    }

    @Test func unknownNameListsTheDevicesAndTheUnreadable() {
        let e = error(["pedal"], [Devices.entry("/dev/input/event2", Devices.oneKeySwitch), Devices.denied("/dev/input/event9")])
        #expect(e == "--device pedal: no input device is named like \"pedal\"; devices: /dev/input/event2 \"Test One-Key Switch\" 1234:5678 (1 more could not be opened; see `switchscan devices`)")
    }

    @Test func unknownIdIsAnError() {
        #expect(error(["dead:beef"], []) == "--device dead:beef: no input device has id dead:beef; no readable input devices (see `switchscan devices`)")
    }

    @Test func unknownPathIsAnError() {
        #expect(error(["/dev/input/event42"], []) == "--device /dev/input/event42: /dev/input/event42: no such input device node; no readable input devices (see `switchscan devices`)")
    }

    @Test func unreadablePathSaysWhy() {
        #expect(error(["/dev/input/event9"]) == "--device /dev/input/event9: permission denied: add yourself to the `input` group (sudo usermod -aG input $USER) and log in again")
    }

    @Test func automaticPicksSwitchKeyHolders() {
        let picked = DeviceSelection.automatic(profile: Profile(), entries: Devices.desk)
        #expect(picked.map(\.node) == ["/dev/input/event0", "/dev/input/event2"])
        #expect(picked.map(\.reason) == ["has KEY_SPACE", "has KEY_SPACE"])
        #expect(picked.allSatisfy { !$0.explicit })
    }

    @Test func automaticAddsTouchscreensWhenTouchIsUsed() {
        var p = Profile()
        p.switches = [SwitchBinding(keyName: "BTN_LEFT", code: EventCodes.BTN_LEFT, action: .select)]
        p.touchAccommodations.holdDuration = .seconds(0.1)
        let picked = DeviceSelection.automatic(profile: p, entries: Devices.desk)
        #expect(picked.map(\.node) == ["/dev/input/event5", "/dev/input/event7"])
        #expect(picked.map(\.reason) == ["touchscreen", "has BTN_LEFT"])
    }

    @Test func automaticTouchAsSwitchOnly() {
        var p = Profile()
        p.switches = []
        p.touchAccommodations.touchAsSwitch = .select
        #expect(DeviceSelection.automatic(profile: p, entries: Devices.desk).map(\.node) == ["/dev/input/event5"])
    }

    @Test func automaticWithoutTouchSettingsSkipsTouchscreens() {
        var p = Profile()
        p.switches = [SwitchBinding(keyName: "KEY_F13", code: 183, action: .select)]
        #expect(DeviceSelection.automatic(profile: p, entries: Devices.desk).isEmpty)
    }
}

@Suite struct GrabSafetyTests {
    func selected(_ node: String, _ d: DeviceDescription, explicit: Bool) -> SelectedDevice {
        SelectedDevice(node: node, description: d, explicit: explicit, reason: "")
    }

    @Test func theOnlyKeyboardIsNotGrabbedWhenPickedAutomatically() {
        let s = [selected("/dev/input/event0", Devices.keyboard, explicit: false), selected("/dev/input/event2", Devices.oneKeySwitch, explicit: false)]
        let d = DeviceSelection.grabDecisions(s, entries: Devices.desk)
        #expect(d.map(\.grab) == [false, true])
        #expect(d[0].warning == "not grabbing /dev/input/event0 \"AT Translated Set 2 keyboard\": it looks like your only full keyboard (name it with --device to grab it anyway)")
        #expect(d[1].warning == nil)
    }

    @Test func theOnlyKeyboardIsGrabbedWhenNamedWithAWarning() {
        let d = DeviceSelection.grabDecisions([selected("/dev/input/event0", Devices.keyboard, explicit: true)], entries: Devices.desk)
        #expect(d == [GrabDecision(grab: true, warning: "grabbing /dev/input/event0 \"AT Translated Set 2 keyboard\", a full keyboard: its keys will not reach other programs until switchscan ends")])
    }

    @Test func oneOfTwoKeyboardsStaysFree() {
        let entries = Devices.desk + [Devices.entry("/dev/input/event12", Devices.usbKeyboard)]
        let s = [selected("/dev/input/event0", Devices.keyboard, explicit: false), selected("/dev/input/event12", Devices.usbKeyboard, explicit: false)]
        #expect(DeviceSelection.grabDecisions(s, entries: entries).map(\.grab) == [true, false])
    }

    @Test func aSecondKeyboardLeftAloneLetsTheFirstBeGrabbed() {
        let entries = Devices.desk + [Devices.entry("/dev/input/event12", Devices.usbKeyboard)]
        let d = DeviceSelection.grabDecisions([selected("/dev/input/event12", Devices.usbKeyboard, explicit: false)], entries: entries)
        #expect(d == [GrabDecision(grab: true, warning: nil)])
    }
}
