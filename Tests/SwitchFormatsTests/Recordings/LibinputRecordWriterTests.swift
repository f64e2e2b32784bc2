import Foundation
import SwitchCore
@_spi(Fuzzing) @testable import SwitchFormats
import Testing

/// `LibinputRecordWriter`: what `switchscan record` writes for several devices reads back through
/// `LibinputRecordFormat` (what `simulate` reads) as the same devices and events.
@Suite("libinput-record writer")
struct LibinputRecordWriterTests {
    static let touch = DeviceDescription(
        name: "Touch \"Screen\"", bus: 3, vendor: 0x1234, product: 0x5678, version: 1, properties: [EventCodes.INPUT_PROP_DIRECT],
        codes: [EventCodes.EV_KEY: [EventCodes.BTN_TOUCH], EventCodes.EV_ABS: [0, 1, 0x2f, 0x35, 0x36, 0x39]],
        absInfo: [0: .init(minimum: 0, maximum: 1919, resolution: 10), 1: .init(minimum: 0, maximum: 1079, resolution: 10),
                  0x2f: .init(minimum: 0, maximum: 9), 0x35: .init(minimum: 0, maximum: 1919, resolution: 10),
                  0x36: .init(minimum: 0, maximum: 1079, resolution: 10), 0x39: .init(minimum: 0, maximum: 65535)])
    static let oneKey = DeviceDescription(name: "Switch", bus: 3, vendor: 0x1234, product: 0x5678, version: 1,
                                          codes: [EventCodes.EV_KEY: [EventCodes.KEY_SPACE], EventCodes.EV_REP: [0, 1]])

    static func key(_ t: Double, _ value: Int32) -> [TimedEvent] {
        [TimedEvent(time: .seconds(t), event: InputEvent(type: EventCodes.EV_KEY, code: EventCodes.KEY_SPACE, value: value)),
         TimedEvent(time: .seconds(t), event: InputEvent(type: EventCodes.EV_SYN, code: 0, value: 0))]
    }

    @Test func twoDevicesReadBackAsWritten() throws {
        let touchEvents: [TimedEvent] = [
            (0.25, 3, 0x39, 7), (0.25, 3, 0x35, 960), (0.25, 3, 0x36, 540), (0.25, 1, 0x14a, 1), (0.25, 3, 0, 960), (0.25, 3, 1, 540), (0.25, 0, 0, 0),
            (1.5, 3, 0x39, -1), (1.5, 1, 0x14a, 0), (1.5, 0, 0, 0),
        ].map { TimedEvent(time: .seconds($0.0), event: InputEvent(type: UInt16($0.1), code: UInt16($0.2), value: Int32($0.3))) }
        let keyEvents = Self.key(0.5, 1) + Self.key(0.7, 0) + Self.key(3601.000001, 1) + Self.key(3601.5, 0)
        var text = LibinputRecordWriter.header(deviceCount: 2, comments: ["a note"])
        text += LibinputRecordWriter.device(node: "/dev/input/event2", description: Self.oneKey)
        var keyWriter = LibinputRecordWriter.Events()
        // Written in pieces, one frame split across two calls, as the recorder's reads may split it.
        text += keyWriter.write(Array(keyEvents[0..<3]))
        text += keyWriter.write(Array(keyEvents[3...]))
        text += LibinputRecordWriter.device(node: "/dev/input/event5", description: Self.touch, comments: ["keys hidden"])
        var touchWriter = LibinputRecordWriter.Events()
        text += touchWriter.write(touchEvents)
        for fast in [true, false] {
            let read = try LibinputRecordFormat.parse(Array(text.utf8), file: "rec.yml", readingFramesAhead: fast)
            #expect(read.devices.count == 2)
            #expect(read.devices[0].description == Self.oneKey)
            #expect(read.devices[0].events == keyEvents)
            #expect(read.devices[1].description == Self.touch)
            #expect(read.devices[1].events == touchEvents)
        }
    }

    @Test func theLayoutIsLibinputs() {
        var w = LibinputRecordWriter.Events()
        #expect(w.write(Self.key(0.5, 1)) == """
          - evdev:
            - [  0, 500000,   1,  57,       1] # EV_KEY / KEY_SPACE            1
            - [  0, 500000,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +500ms

        """)
        #expect(LibinputRecordWriter.device(node: "/dev/input/event2", description: Self.oneKey) == """
        - node: "/dev/input/event2"
          evdev:
            # Name: Switch
            # ID: bus 0x3 vendor 0x1234 product 0x5678 version 0x1
            name: "Switch"
            id: [3, 4660, 22136, 1]
            codes:
              1: [57] # EV_KEY
              20: [0, 1] # EV_REP
            properties: []
          events:

        """)
    }

    @Test func namesAreQuotedForYAML() {
        #expect(LibinputRecordWriter.quoted("a\"b\\c\nd\u{1}") == "\"a\\\"b\\\\c\\nd\\x01\"")
    }
}
