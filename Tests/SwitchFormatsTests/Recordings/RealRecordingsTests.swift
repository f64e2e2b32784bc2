import SwitchCore
import SwitchFormats
import Testing

/// The real recordings of `shared/realdata/evdev/` (copied to Fixtures/recordings). Expected
/// counts were taken independently of this code: `grep -c '^E:'` for events, an awk count of
/// non-empty SYN_REPORT frames, PyYAML for the libinput-record file.
@Suite("Real recordings")
struct RealRecordingsTests {
    /// file, events, frames (InputFrame.frames), first time (µs), last time (µs).
    static let eventFiles: [(String, Int, Int, Int64, Int64)] = [
        ("evemu-devices/Apple_Touch_Mouse.evemu", 45, 11, 1, 101_291),
        ("evemu-devices/Atmel_maXTouch_Touchscreen.1-finger-drag-up-down.events", 502, 150, 1, 2_199_870),
        ("evemu-devices/Atmel_maXTouch_Touchscreen.1-finger-fast-taps.events", 84, 18, 1, 1_934_008),
        ("evemu-devices/Atmel_maXTouch_Touchscreen.2-fingers-touch-release.events", 64, 16, 1, 824_236),
        ("evemu-devices/Atmel_maXTouch_Touchscreen.4-finger-drag-down.events", 309, 31, 1, 566_590),
        ("evemu-devices/ELAN_CANDO_Windows7.1-finger-drag-up-down.events", 1849, 322, 1_352_020_794_138_597, 1_352_020_796_992_387),
        ("evemu-devices/EP0430M09.2-finger-scroll-down.events", 695, 98, 1, 754_659),
        ("evemu-devices/EP0430M09.2-fingers-touch-release.events", 58, 14, 1, 527_810),
        ("evemu-devices/Lenovo_ThinkPad_Compact_USB_Keyboard_with_TrackPoint.keyboard.events", 9, 3, 1, 1_560_031),
        ("evemu-devices/Logitech_K400_Plus.events", 15, 6, 1, 11_576_222),
        ("evemu-devices/QUANTA_OpticalTouchScreen.touch-on-left.events", 147, 41, 1_350_644_061_191_558, 1_350_644_062_119_554),
        ("evemu-devices/Saitek_Cyborg_R.A.T.5_Mouse.events", 1838, 803, 1_331_553_248_067_422, 1_331_553_262_733_930),
        ("evemu-devices/eGalax_Inc._USB_TouchController.events", 1200, 405, 1_330_523_780_970_485, 1_330_523_786_030_625),
        ("libinput-record/ite-8595-touchpad_acer-sw5-012_two-finger-scroll.yml", 112, 13, 0, 89_724),
    ]

    static let descriptionOnlyFiles = [
        "evemu-devices/Atmel_maXTouch_Touchscreen.desc", "evemu-devices/CHICONY_USB_Keyboard.desc",
        "evemu-devices/ELAN_CANDO_Windows7.desc", "evemu-devices/EP0430M09.desc",
        "evemu-devices/QUANTA_OpticalTouchScreen.desc", "evemu-devices/Saitek_Cyborg_R.A.T.5_Mouse.desc",
        "evemu-devices/eGalax_Inc._USB_TouchController.desc",
        "xorg-integration-tests/AT-Translated-Set-2-Keyboard.desc", "xorg-integration-tests/Sony-PLAYSTATIONR3-Controller.desc",
    ]

    @Test func theFixturesAreEveryRealdataFile() {
        let listed = Set(Self.eventFiles.map(\.0) + Self.descriptionOnlyFiles)
        #expect(RecordingFixtures.allPaths == listed.sorted())
        #expect(RecordingFixtures.allPaths.count == 23)
    }

    @Test(arguments: RealRecordingsTests.eventFiles)
    func eachRecordingHasItsEventsAndFrames(file: String, events: Int, frames: Int, first: Int64, last: Int64) throws {
        let recording = try RecordingFixtures.decode(file)
        #expect(recording.devices.count == 1)
        let device = try #require(recording.devices.first)
        #expect(device.events.count == events)
        #expect(recording.eventCount == events)
        #expect(InputFrame.frames(from: device.events).count == frames)
        #expect(recording.mergedFrames().count == frames)
        #expect(device.events.first?.time == Instant(microseconds: first))
        #expect(device.events.last?.time == Instant(microseconds: last))
        #expect(device.events.last?.event.isSynReport == true)
        // Time order holds (the parser rejects the opposite).
        #expect(zip(device.events, device.events.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test(arguments: RealRecordingsTests.descriptionOnlyFiles)
    func eachDescriptionParsesWithoutEvents(file: String) throws {
        let recording = try RecordingFixtures.decode(file)
        #expect(recording.devices.count == 1)
        #expect(recording.devices.first?.description != nil)
        #expect(recording.eventCount == 0)
        #expect(recording.mergedFrames().isEmpty)
    }

    /// Older `.events` files have no N:/I:/B: lines.
    @Test func olderEventsFilesCarryNoDescription() throws {
        for file in ["ELAN_CANDO_Windows7.1-finger-drag-up-down.events", "QUANTA_OpticalTouchScreen.touch-on-left.events",
                     "Saitek_Cyborg_R.A.T.5_Mouse.events", "eGalax_Inc._USB_TouchController.events"] {
            let recording = try RecordingFixtures.decode("evemu-devices/\(file)")
            #expect(recording.devices.first?.description == nil, "\(file)")
        }
    }

    // MARK: Names, ids, ranges

    /// file, name, bus, vendor, product, version (the I: line).
    static let identities: [(String, String, UInt16, UInt16, UInt16, UInt16)] = [
        ("evemu-devices/Apple_Touch_Mouse.evemu", "mouses", 0x05, 0x05ac, 0x030d, 0x0306),
        ("evemu-devices/Atmel_maXTouch_Touchscreen.desc", "Atmel maXTouch Touchscreen", 0x18, 0, 0, 0),
        ("evemu-devices/CHICONY_USB_Keyboard.desc", "CHICONY USB Keyboard", 0x03, 0x04f2, 0x0112, 0x0110),
        ("evemu-devices/ELAN_CANDO_Windows7.desc", "ELAN CANDO Windows7", 0x03, 0x04f3, 0x0732, 0),
        ("evemu-devices/EP0430M09.desc", "EP0430M09", 0x18, 0, 0, 0),
        ("evemu-devices/Lenovo_ThinkPad_Compact_USB_Keyboard_with_TrackPoint.keyboard.events",
         "Lenovo ThinkPad Compact USB Keyboard with TrackPoint", 0x03, 0x17ef, 0x6047, 0x0100),
        ("evemu-devices/Logitech_K400_Plus.events", "Logitech K400 Plus", 0x03, 0x046d, 0x404d, 0x0111),
        ("evemu-devices/QUANTA_OpticalTouchScreen.desc", "QUANTA OpticalTouchScreen", 0x03, 0x0408, 0x3001, 0x0110),
        ("evemu-devices/Saitek_Cyborg_R.A.T.5_Mouse.desc", "Saitek Cyborg R.A.T.5 Mouse", 0x03, 0x06a3, 0x0cc3, 0x0111),
        ("evemu-devices/eGalax_Inc._USB_TouchController.desc", "eGalax Inc. USB TouchController", 0x03, 0x0eef, 0x0001, 0x0210),
        ("xorg-integration-tests/AT-Translated-Set-2-Keyboard.desc", "AT Translated Set 2 keyboard", 0x11, 0x0001, 0x0001, 0xab54),
        ("xorg-integration-tests/Sony-PLAYSTATIONR3-Controller.desc", "Sony PLAYSTATION(R)3 Controller", 0x03, 0x054c, 0x0268, 0x0111),
        ("libinput-record/ite-8595-touchpad_acer-sw5-012_two-finger-scroll.yml", "ITE Tech. Inc. ITE Device(8595) Touchpad", 3, 0x06cb, 0x2968, 0x0110),
    ]

    @Test(arguments: RealRecordingsTests.identities)
    func deviceNamesAndIDs(file: String, name: String, bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16) throws {
        let d = try RecordingFixtures.description(file)
        #expect(d.name == name)
        #expect([d.bus, d.vendor, d.product, d.version] == [bus, vendor, product, version])
    }

    @Test func atmelRangesAndCodes() throws {
        let d = try RecordingFixtures.description("evemu-devices/Atmel_maXTouch_Touchscreen.desc")
        #expect(d.absInfo[EventCodes.ABS_MT_POSITION_X] == DeviceDescription.AbsInfo(minimum: 0, maximum: 799))
        #expect(d.absInfo[EventCodes.ABS_MT_POSITION_Y] == DeviceDescription.AbsInfo(minimum: 0, maximum: 479))
        #expect(d.absInfo[EventCodes.ABS_MT_SLOT]?.maximum == 9)
        #expect(d.absInfo[EventCodes.ABS_MT_TRACKING_ID]?.maximum == 65535)
        #expect(d.codes[EventCodes.EV_KEY] == [EventCodes.BTN_TOUCH])
        #expect(d.codes[EventCodes.EV_ABS] == [0x00, 0x01, 0x2f, 0x35, 0x36, 0x37, 0x39, 0x3b])
        #expect(d.properties == [EventCodes.INPUT_PROP_DIRECT])
        #expect(d.codes.keys.sorted() == [EventCodes.EV_KEY, EventCodes.EV_ABS])
    }

    @Test func appleTouchMouseRangesWithFuzzAndResolution() throws {
        let d = try RecordingFixtures.description("evemu-devices/Apple_Touch_Mouse.evemu")
        #expect(d.absInfo[0x34] == DeviceDescription.AbsInfo(minimum: -31, maximum: 32, fuzz: 1))
        #expect(d.absInfo[EventCodes.ABS_MT_POSITION_X] == DeviceDescription.AbsInfo(minimum: -1100, maximum: 1258, fuzz: 4, resolution: 26))
        #expect(d.absInfo[EventCodes.ABS_MT_POSITION_Y] == DeviceDescription.AbsInfo(minimum: -1589, maximum: 2047, fuzz: 4, resolution: 70))
        #expect(d.codes[EventCodes.EV_REL] == [0, 1, 6, 8])
        #expect(d.codes[EventCodes.EV_KEY] == [0x110, 0x111, 0x112])
    }

    /// Files from before evemu 1.2 give A: lines without the resolution.
    @Test func fiveNumberAbsLinesHaveNoResolution() throws {
        let elan = try RecordingFixtures.description("evemu-devices/ELAN_CANDO_Windows7.desc")
        #expect(elan.absInfo[EventCodes.ABS_X] == DeviceDescription.AbsInfo(minimum: 0, maximum: 3008))
        #expect(elan.absInfo[EventCodes.ABS_MT_POSITION_Y] == DeviceDescription.AbsInfo(minimum: 0, maximum: 1856))
        #expect(elan.absInfo.count == 12)
        let ps3 = try RecordingFixtures.description("xorg-integration-tests/Sony-PLAYSTATIONR3-Controller.desc")
        #expect(ps3.absInfo[0x3b] == DeviceDescription.AbsInfo(minimum: 0, maximum: 1023, fuzz: 3, flat: 63))
        #expect(ps3.absInfo[EventCodes.ABS_MT_SLOT] == DeviceDescription.AbsInfo(minimum: 0, maximum: 255, flat: 15))
        #expect(ps3.absInfo.count == 27)
    }

    @Test func eGalaxSingleTouchRanges() throws {
        let d = try RecordingFixtures.description("evemu-devices/eGalax_Inc._USB_TouchController.desc")
        #expect(d.absInfo[EventCodes.ABS_X] == DeviceDescription.AbsInfo(minimum: 42, maximum: 1981))
        #expect(d.absInfo[EventCodes.ABS_Y] == DeviceDescription.AbsInfo(minimum: 42, maximum: 1981))
        #expect(d.codes[EventCodes.EV_KEY] == [0x110, 0x111, EventCodes.BTN_TOOL_PEN, EventCodes.BTN_TOUCH])
        #expect(!d.hasMultitouchPositions)
    }

    /// The K400's keyboard bitmask spans the B: 01 lines: its highest codes (0x250, 0x251) come
    /// from the tenth.
    @Test func keyboardBitmasksSpanEveryLine() throws {
        let k400 = try RecordingFixtures.description("evemu-devices/Logitech_K400_Plus.events")
        #expect(k400.codes[EventCodes.EV_KEY]?.count == 277)
        #expect(k400.codes[EventCodes.EV_KEY]?.contains(EventCodes.KEY_SPACE) == true)
        #expect(k400.codes[EventCodes.EV_KEY]?.max() == 0x251)
        #expect(k400.codes[EventCodes.EV_LED] == [0, 1, 2, 3, 4])
        #expect(k400.absInfo[0x20] == DeviceDescription.AbsInfo(minimum: 1, maximum: 652))
        let at = try RecordingFixtures.description("xorg-integration-tests/AT-Translated-Set-2-Keyboard.desc")
        #expect(at.codes[EventCodes.EV_KEY]?.count == 149)
        #expect(at.codes[EventCodes.EV_LED] == [0, 1, 2])
    }

    // MARK: Classification

    /// file, kind, touchscreen.
    static let kinds: [(String, DeviceKind, Bool)] = [
        ("evemu-devices/Atmel_maXTouch_Touchscreen.desc", .touchscreen, true),
        ("evemu-devices/EP0430M09.desc", .touchscreen, true),
        ("evemu-devices/ELAN_CANDO_Windows7.desc", .touchscreen, true),
        ("evemu-devices/QUANTA_OpticalTouchScreen.desc", .touchscreen, true),
        // BTN_TOOL_PEN for the finger, without stylus buttons or pressure: a touchscreen.
        ("evemu-devices/eGalax_Inc._USB_TouchController.desc", .touchscreen, true),
        ("evemu-devices/Lenovo_ThinkPad_Compact_USB_Keyboard_with_TrackPoint.keyboard.events", .keyboard, false),
        // The K400 Plus has a touchpad that reports as a mouse on the same node.
        ("evemu-devices/Logitech_K400_Plus.events", [.keyboard, .pointer], false),
        ("xorg-integration-tests/AT-Translated-Set-2-Keyboard.desc", .keyboard, false),
        // The Chicony .desc is the keyboard's mouse interface: BTN_LEFT/RIGHT/MIDDLE, REL_X/Y/WHEEL, no keys.
        ("evemu-devices/CHICONY_USB_Keyboard.desc", .pointer, false),
        ("evemu-devices/Saitek_Cyborg_R.A.T.5_Mouse.desc", .pointer, false),
        ("evemu-devices/Apple_Touch_Mouse.evemu", .pointer, false),
        // ABS 0x28-0x3e includes ABS_MT_SLOT and the code below it: udev's "fake MT", not touch.
        ("xorg-integration-tests/Sony-PLAYSTATIONR3-Controller.desc", .gamepad, false),
        ("libinput-record/ite-8595-touchpad_acer-sw5-012_two-finger-scroll.yml", .pointer, false),
    ]

    @Test(arguments: RealRecordingsTests.kinds)
    func classification(file: String, kind: DeviceKind, touchscreen: Bool) throws {
        let d = try RecordingFixtures.description(file)
        #expect(d.kind == kind, "\(file): \(d.kind.names)")
        #expect(d.isTouchscreen == touchscreen)
    }

    @Test func ps3ControllerAdvertisesMTSlotButIsNoTouchDevice() throws {
        let d = try RecordingFixtures.description("xorg-integration-tests/Sony-PLAYSTATIONR3-Controller.desc")
        #expect(d.has(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_SLOT))
        #expect(d.has(type: EventCodes.EV_ABS, code: EventCodes.ABS_MT_POSITION_X))
        #expect(!d.hasMultitouchPositions)
        #expect(!d.isTouchscreen)
    }

    @Test func appleTouchMouseHasMTPositionsButIsNoTouchscreen() throws {
        let d = try RecordingFixtures.description("evemu-devices/Apple_Touch_Mouse.evemu")
        #expect(d.hasMultitouchPositions)
        #expect(!d.isTouchscreen)
    }

    // MARK: The libinput-record touchpad

    @Test func libinputRecordTouchpad() throws {
        let recording = try RecordingFixtures.decode("libinput-record/ite-8595-touchpad_acer-sw5-012_two-finger-scroll.yml")
        let device = try #require(recording.devices.first)
        let d = try #require(device.description)
        #expect(d.codes[EventCodes.EV_KEY] == [0x110, EventCodes.BTN_TOOL_FINGER, EventCodes.BTN_TOUCH, 0x14d, 0x14e])
        #expect(d.codes[EventCodes.EV_ABS] == [0, 1, 47, 53, 54, 55, 57])
        #expect(d.codes[EventCodes.EV_MSC] == [5])
        #expect(d.codes[EventCodes.EV_SYN] == nil)
        #expect(d.properties == [EventCodes.INPUT_PROP_POINTER, EventCodes.INPUT_PROP_BUTTONPAD])
        #expect(d.absInfo[EventCodes.ABS_X] == DeviceDescription.AbsInfo(minimum: 0, maximum: 1051, resolution: 12))
        #expect(d.absInfo[EventCodes.ABS_MT_POSITION_Y] == DeviceDescription.AbsInfo(minimum: 0, maximum: 571, resolution: 12))
        #expect(d.absInfo[EventCodes.ABS_MT_SLOT] == DeviceDescription.AbsInfo(minimum: 0, maximum: 2))
        #expect(d.absInfo.count == 7)

        // Two fingers: slots 0 and 1, tracking ids 80 and 81.
        let slots = Set(device.events.filter { $0.event.type == EventCodes.EV_ABS && $0.event.code == EventCodes.ABS_MT_SLOT }.map(\.event.value))
        #expect(slots == [0, 1])
        let ids = device.events.filter { $0.event.type == EventCodes.EV_ABS && $0.event.code == EventCodes.ABS_MT_TRACKING_ID }.map(\.event.value)
        #expect(Set(ids) == [80, 81, -1])

        let frames = InputFrame.frames(from: device.events)
        #expect(frames.count == 13)
        #expect(frames[0].time == .zero)
        #expect(frames[0].events.first == InputEvent(type: 3, code: 57, value: 80))
        #expect(frames[1].time == Instant(microseconds: 9967))
        #expect(frames[1].events.count == 12)
        #expect(frames.map(\.events.count).reduce(0, +) == 112 - 13)
    }

    // MARK: .desc + .events pairs

    /// events file, description file, events. The Atmel events files describe the device too
    /// (the same way as the .desc), the others are events only.
    static let pairs: [(String, String, Int)] = [
        ("Atmel_maXTouch_Touchscreen.1-finger-drag-up-down.events", "Atmel_maXTouch_Touchscreen.desc", 502),
        ("Atmel_maXTouch_Touchscreen.1-finger-fast-taps.events", "Atmel_maXTouch_Touchscreen.desc", 84),
        ("Atmel_maXTouch_Touchscreen.2-fingers-touch-release.events", "Atmel_maXTouch_Touchscreen.desc", 64),
        ("Atmel_maXTouch_Touchscreen.4-finger-drag-down.events", "Atmel_maXTouch_Touchscreen.desc", 309),
        ("ELAN_CANDO_Windows7.1-finger-drag-up-down.events", "ELAN_CANDO_Windows7.desc", 1849),
        ("QUANTA_OpticalTouchScreen.touch-on-left.events", "QUANTA_OpticalTouchScreen.desc", 147),
        ("Saitek_Cyborg_R.A.T.5_Mouse.events", "Saitek_Cyborg_R.A.T.5_Mouse.desc", 1838),
        ("eGalax_Inc._USB_TouchController.events", "eGalax_Inc._USB_TouchController.desc", 1200),
    ]

    @Test(arguments: RealRecordingsTests.pairs)
    func descAndEventsPair(events: String, description: String, count: Int) throws {
        let recording = try RecordingFixtures.decodePair(events: events, description: description)
        let alone = try RecordingFixtures.decode("evemu-devices/\(events)")
        let desc = try RecordingFixtures.description("evemu-devices/\(description)")
        #expect(recording.devices.count == 1)
        #expect(recording.devices.first?.description == desc)
        #expect(recording.devices.first?.events == alone.devices.first?.events)
        #expect(recording.eventCount == count)
    }

    /// The EP0430M09 events files describe the device themselves, the same as the .desc does.
    @Test func singleFileRecordingsMatchTheirDesc() throws {
        let desc = try RecordingFixtures.description("evemu-devices/EP0430M09.desc")
        for file in ["EP0430M09.2-finger-scroll-down.events", "EP0430M09.2-fingers-touch-release.events"] {
            #expect(try RecordingFixtures.description("evemu-devices/\(file)") == desc)
        }
        let atmel = try RecordingFixtures.description("evemu-devices/Atmel_maXTouch_Touchscreen.desc")
        #expect(try RecordingFixtures.description("evemu-devices/Atmel_maXTouch_Touchscreen.1-finger-fast-taps.events") == atmel)
    }

    // MARK: Time base

    @Test func absoluteTimestampsAreRebasedToZero() throws {
        let recording = try RecordingFixtures.decodePair(events: "ELAN_CANDO_Windows7.1-finger-drag-up-down.events", description: "ELAN_CANDO_Windows7.desc")
        let rebased = recording.rebasedForSimulation()
        let events = try #require(rebased.devices.first?.events)
        #expect(events.first?.time == .zero)
        #expect(events.last?.time == Instant(microseconds: 2_853_790))  // 1352020796.992387 − 1352020794.138597
        #expect(events.map(\.event) == recording.devices.first?.events.map(\.event))
        #expect(rebased.mergedFrames().first?.frame.time == .zero)
    }

    @Test func relativeTimestampsAreUnchanged() throws {
        for file in ["evemu-devices/Atmel_maXTouch_Touchscreen.1-finger-fast-taps.events", "evemu-devices/Logitech_K400_Plus.events",
                     "libinput-record/ite-8595-touchpad_acer-sw5-012_two-finger-scroll.yml"] {
            let recording = try RecordingFixtures.decode(file)
            #expect(recording.rebasedForSimulation() == recording, "\(file)")
        }
    }
}
