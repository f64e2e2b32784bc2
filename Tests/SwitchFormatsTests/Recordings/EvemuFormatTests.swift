import SwitchCore
@testable import SwitchFormats
import Testing

@Suite("evemu format")
struct EvemuFormatTests {
    // MARK: Timestamps: the microseconds are an integer (evemu's sscanf("%lu.%06u"))

    @Test(arguments: [
        ("0.000001", 1), ("1.000001", 1_000_001), ("0.50000", 50_000), ("0.5", 5), ("12.345678", 12_345_678),
        ("0.0", 0), ("1352020794.138597", 1_352_020_794_138_597), ("3.000", 3_000_000),
    ] as [(String, Int64)])
    func microsecondsAreAnIntegerCount(text: String, microseconds: Int64) {
        #expect(EvemuFormat.parseTime(Substring(text)) == Instant(microseconds: microseconds))
    }

    @Test(arguments: ["1", "1.", ".5", "1.1234567", "-1.000000", "1.-5", "a.000001", "1.00000x", "1.2.3", "", "9999999999999.0"])
    func malformedTimestamps(text: String) {
        #expect(EvemuFormat.parseTime(Substring(text)) == nil)
    }

    @Test func unpaddedMicrosecondsInAFile() throws {
        let device = try EvemuFormat.parse(Array("E: 0.50000 0001 0039 1\nE: 1.5 0000 0000 0\n".utf8), file: "t.events")
        #expect(device.events.map(\.time) == [Instant(microseconds: 50_000), Instant(microseconds: 1_000_005)])
    }

    @Test func timeStringPadsMicrosecondsToSixDigits() {
        #expect(EvemuFormat.timeString(Instant(microseconds: 50_000)) == "0.050000")
        #expect(EvemuFormat.timeString(Instant(microseconds: 1_352_020_794_138_597)) == "1352020794.138597")
        #expect(EvemuFormat.timeString(Instant(microseconds: -3)) == "0.000000")
    }

    // MARK: Reading

    @Test func commentsBlankLinesAndCRLFAreSkipped() throws {
        let text = "# EVEMU 1.3\r\n\r\n   \nN: Switch # one\r\nI: 0003 0001 0002 0003\n# between\nB: 01 00 00 00 00 00 00 00 00\n"
            + "B: 01 00 00 00 00 00 00 00 00\nE: 0.000001 0001 0039 1 # KEY_SPACE\r\n  E: 0.000001 0000 0000 0\n"
        let device = try EvemuFormat.parse(Array(text.utf8), file: "t.evemu")
        // '#' is kept in a name: evemu reads N: lines to the end.
        #expect(device.description?.name == "Switch # one")
        #expect(device.description?.product == 2)
        #expect(device.description?.codes == [:])
        #expect(device.events == [
            TimedEvent(time: Instant(microseconds: 1), event: InputEvent(type: 1, code: 57, value: 1)),
            TimedEvent(time: Instant(microseconds: 1), event: InputEvent(type: 0, code: 0, value: 0)),
        ])
    }

    @Test func valuesMayBeZeroPaddedOrSigned() throws {
        // evemu 2.x writes values with "%04d": "0001", "-001".
        let device = try EvemuFormat.parse(Array("E: 0.000001 0003 0039 -001\nE: 0.000002 0003 0035 0412\nE: 0.000003 0002 0000 +5\n".utf8), file: "t")
        #expect(device.events.map(\.event.value) == [-1, 412, 5])
    }

    @Test func lastLineWithoutNewline() throws {
        let device = try EvemuFormat.parse(Array("E: 0.000001 0001 0039 1\nE: 0.000002 0000 0000 0".utf8), file: "t")
        #expect(device.events.count == 2)
    }

    @Test func ledAndSwitchStateLinesAreRead() throws {
        let text = "N: k\nI: 0003 0001 0001 0001\nB: 11 07 00 00 00 00 00 00 00\nL: 00 1\nS: 01 1\n"
        let device = try EvemuFormat.parse(Array(text.utf8), file: "t")
        #expect(device.description?.codes[EventCodes.EV_LED] == [0, 1, 2])
    }

    // MARK: Round trip: parse → write → parse

    /// Every real recording with a description comes back identical, and its written bitmasks
    /// decode to the same codes. (`libevemu` 2.7.0's own reader, driven from a small C program,
    /// read these written files to the same names, ids, codes, ranges and events.)
    @Test(arguments: RecordingFixtures.allPaths.filter { !$0.hasSuffix(".yml") })
    func roundTripOfRealFiles(path: String) throws {
        let original = try #require(try RecordingFixtures.decode(path).devices.first)
        let written = EvemuFormat.write(original)
        let back = try EvemuFormat.parse(Array(written.utf8), file: "written")
        #expect(back == original)
        #expect(try EvemuFormat.parse(Array(written.utf8), file: "written") == back)
        // Written again, the text is the same: the writer depends only on the data.
        #expect(EvemuFormat.write(back) == written)
    }

    @Test func roundTripOfTheLibinputRecordDevice() throws {
        let recording = try RecordingFixtures.decode("libinput-record/ite-8595-touchpad_acer-sw5-012_two-finger-scroll.yml")
        let device = try #require(recording.devices.first)
        let back = try EvemuFormat.parse(Array(EvemuFormat.write(device).utf8), file: "written")
        #expect(back == device)
    }

    @Test func writtenBitmasksDecodeToTheSameCodes() throws {
        let d = DeviceDescription(
            name: "Every corner", bus: 0x1d, vendor: 0xffff, product: 0, version: 0xabcd,
            properties: [0, 1, 0x1f],
            codes: [EventCodes.EV_KEY: [1, 63, 64, 0x2ff], EventCodes.EV_REL: [0, 15], EventCodes.EV_ABS: [0, 0x3f],
                    EventCodes.EV_SW: [0x10], EventCodes.EV_LED: [0xf], 0x15: [0x7f], 0x16: [3]],
            absInfo: [0: .init(minimum: -5, maximum: 5, fuzz: 1, flat: 2, resolution: 3), 0x3f: .init(minimum: Int32.min, maximum: Int32.max)])
        let back = try #require(try EvemuFormat.parse(Array(EvemuFormat.write(description: d, events: []).utf8), file: "w").description)
        #expect(back == d)
    }

    /// The exact text, as evemu-record lays it out. libevemu 2.7.0 reads it back to the same
    /// device and events; `evemu-device` gets as far as creating the device (no /dev/uinput here).
    @Test func writerOutput() {
        let d = DeviceDescription(name: "Adapted switch", bus: 3, vendor: 0x1234, product: 0xab, version: 1,
                                  codes: [EventCodes.EV_KEY: [EventCodes.KEY_SPACE], EventCodes.EV_ABS: [0]],
                                  absInfo: [0: .init(minimum: 0, maximum: 255, resolution: 4)])
        let events = [
            TimedEvent(time: Instant(microseconds: 1), event: InputEvent(type: 1, code: 57, value: 1)),
            TimedEvent(time: Instant(microseconds: 1), event: InputEvent(type: 0, code: 0, value: 0)),
            TimedEvent(time: Instant(microseconds: 1_250_001), event: InputEvent(type: 1, code: 57, value: 0)),
            TimedEvent(time: Instant(microseconds: 1_250_001), event: InputEvent(type: 0, code: 0, value: 0)),
        ]
        let zeros = " 00 00 00 00 00 00 00 00\n"
        let expected = """
            # EVEMU 1.3
            # Input device name: "Adapted switch"
            # Input device ID: bus 0x03 vendor 0x1234 product 0xab version 0x01
            # Supported events:
            #   Event type 1 (EV_KEY)
            #     Event code 57 (KEY_SPACE)
            #   Event type 3 (EV_ABS)
            #     Event code 0 (ABS_X)
            #       Min 0 Max 255 Fuzz 0 Flat 0 Resolution 4
            # Properties:
            # Written by switchscan
            N: Adapted switch
            I: 0003 1234 00ab 0001
            P: 00 00 00 00 00 00 00 00
            B: 00 0b 00 00 00 00 00 00 00
            B: 01 00 00 00 00 00 00 00 02
            """ + "\n" + String(repeating: "B: 01" + zeros, count: 11)
            + "B: 02" + zeros + "B: 03 01 00 00 00 00 00 00 00\n" + "B: 04" + zeros + "B: 05" + zeros + "B: 11" + zeros
            + "B: 12" + zeros + "B: 14" + zeros + "B: 15" + zeros + "B: 15" + zeros
            + """
            A: 00 0 255 0 0 4
            E: 0.000001 0001 0039 1\t# EV_KEY / KEY_SPACE 1
            E: 0.000001 0000 0000 0\t# ------------ SYN_REPORT (0) ---------- +0ms
            E: 1.250001 0001 0039 0\t# EV_KEY / KEY_SPACE 0
            E: 1.250001 0000 0000 0\t# ------------ SYN_REPORT (0) ---------- +1250ms

            """
        #expect(EvemuFormat.write(description: d, events: events) == expected)
    }

    @Test func eventsOnlyDevicesWriteEventsOnly() throws {
        let device = Recording.Device(description: nil, events: [
            TimedEvent(time: Instant(microseconds: 1_352_020_794_138_597), event: InputEvent(type: 3, code: 0x39, value: -1)),
        ])
        let text = EvemuFormat.write(device)
        #expect(text == "E: 1352020794.138597 0003 0039 -1\t# EV_ABS / ABS_MT_TRACKING_ID -1\n")
        #expect(try EvemuFormat.parse(Array(text.utf8), file: "w") == device)
    }

    @Test func aNewlineInANameCannotBreakTheFile() throws {
        let d = DeviceDescription(name: "two\nlines", codes: [EventCodes.EV_KEY: [EventCodes.KEY_SPACE]])
        let back = try EvemuFormat.parse(Array(EvemuFormat.write(description: d, events: []).utf8), file: "w")
        #expect(back.description?.name == "two lines")
        #expect(back.description?.codes == d.codes)
    }

    @Test func negativeTimesAreWrittenAsZero() throws {
        let text = EvemuFormat.writeEvents([TimedEvent(time: Instant(microseconds: -5), event: InputEvent(type: 0, code: 0, value: 0))])
        #expect(text.hasPrefix("E: 0.000000 0000 0000 0\t"))
    }

    // MARK: Bad input: one line naming file and line (and column for a bad field)

    @Test(arguments: [
        // Truncated event lines.
        ("E: 0.000001 0001 0039\n", "bad.evemu:1: expected \"E: <sec>.<usec> <type> <code> <value>\", found 3 fields"),
        ("E: 0.000001 0001 0039 1\nE: 0.000002\n", "bad.evemu:2: expected \"E: <sec>.<usec> <type> <code> <value>\", found 1 field"),
        ("E:\n", "bad.evemu:1: expected \"E: <sec>.<usec> <type> <code> <value>\", found 0 fields"),
        ("E: 0.000001 0001 0039 1 2\n", "bad.evemu:1: expected \"E: <sec>.<usec> <type> <code> <value>\", found 5 fields"),
        // Non-hex codes and types, bad values.
        ("E: 0.000001 0001 00zz 1\n", "bad.evemu:1:18: bad event code \"00zz\": expected hex up to 2ff (KEY_MAX)"),
        ("E: 0.000001 0x01 0039 1\n", "bad.evemu:1:13: bad event type \"0x01\": expected hex below 20 (EV_CNT)"),
        ("E: 0.000001 0020 0039 1\n", "bad.evemu:1:13: bad event type \"0020\": expected hex below 20 (EV_CNT)"),
        ("E: 0.000001 0001 0300 1\n", "bad.evemu:1:18: bad event code \"0300\": expected hex up to 2ff (KEY_MAX)"),
        ("E: 0.000001 0001 0039 one\n", "bad.evemu:1:23: bad event value \"one\": expected a decimal 32-bit integer"),
        ("E: 0.000001 0001 0039 2147483648\n", "bad.evemu:1:23: bad event value \"2147483648\": expected a decimal 32-bit integer"),
        ("E: 0,000001 0001 0039 1\n", "bad.evemu:1:4: bad timestamp \"0,000001\": expected <seconds>.<microseconds>, 1 to 6 digits after the dot"),
        ("E: 0.0000001 0001 0039 1\n", "bad.evemu:1:4: bad timestamp \"0.0000001\": expected <seconds>.<microseconds>, 1 to 6 digits after the dot"),
        // Time going backwards.
        ("E: 1.000000 0001 0039 1\nE: 0.999999 0000 0000 0\n", "bad.evemu:2:4: timestamp 0.999999 goes backwards (the event before is at 1.000000)"),
        // Description lines.
        ("N: x\nI: 0003 0001 0001\n", "bad.evemu:2: expected \"I: <bus> <vendor> <product> <version>\" (4 hex numbers), found 3"),
        ("N: x\nI: 0003 0001 0001 1ffff\n", "bad.evemu:2:19: bad id \"1ffff\": expected hex up to ffff"),
        ("N: x\nI: 0003 0001 0001 0001\nP: 00 00\n", "bad.evemu:3: expected \"P:\" and 8 hex bytes, found 2"),
        ("N: x\nI: 0003 0001 0001 0001\nB: 01 00 00 00 00 00 00 00 0g\n", "bad.evemu:3:28: bad bitmask byte \"0g\": expected hex 00 to ff"),
        ("N: x\nI: 0003 0001 0001 0001\nB: 01 00 00 00\n", "bad.evemu:3: expected \"B: <type> <8 hex bytes>\", found 4 fields"),
        ("N: x\nI: 0003 0001 0001 0001\nB: 20 00 00 00 00 00 00 00 00\n", "bad.evemu:3:4: bad event type \"20\": expected hex below 20 (EV_CNT)"),
        ("N: x\nI: 0003 0001 0001 0001\nA: 40 0 1 0 0 0\n", "bad.evemu:3:4: bad axis code \"40\": expected hex up to 3f (ABS_MAX)"),
        ("N: x\nI: 0003 0001 0001 0001\nA: 00 0 1 0\n", "bad.evemu:3: expected \"A: <code> <min> <max> <fuzz> <flat> [<resolution>]\", found 4 fields"),
        ("N: x\nI: 0003 0001 0001 0001\nA: 00 0 1.5 0 0\n", "bad.evemu:3:9: bad axis value \"1.5\": expected a decimal 32-bit integer"),
        ("N: x\nI: 0003 0001 0001 0001\nL: 00\n", "bad.evemu:3: expected \"L: <code (hex)> <state>\""),
        // Order and structure.
        ("N: x\nB: 01 00 00 00 00 00 00 00 00\n", "bad.evemu:2: expected \"I: <bus> <vendor> <product> <version>\" right after the N: line, found B:"),
        ("N: x\n", "bad.evemu:1: the file ends after the N: line; expected \"I: <bus> <vendor> <product> <version>\" next"),
        ("I: 0003 0001 0001 0001\n", "bad.evemu:1: I: line before the device name: a description starts with \"N: <name>\""),
        ("N: x\nI: 0003 0001 0001 0001\nA: 00 0 1 0 0\nB: 01 00 00 00 00 00 00 00 00\n",
         "bad.evemu:4: B: line after A: lines: an evemu file lists N:, I:, P:, B:, A:, L:, S: and then E: lines"),
        ("E: 0.000001 0000 0000 0\nN: x\n", "bad.evemu:2: N: line after E: lines: an evemu file lists N:, I:, P:, B:, A:, L:, S: and then E: lines"),
        ("N: x\nI: 0003 0001 0001 0001\nE: 0.000001 0000 0000 0\nN: y\n", "bad.evemu:4: a second N: line: an evemu file describes one device (its N: is at line 1)"),
        ("N: x\nI: 0003 0001 0001 0001\nI: 0003 0001 0001 0001\n", "bad.evemu:3: I: line after I: lines: an evemu file lists N:, I:, P:, B:, A:, L:, S: and then E: lines"),
        ("N: x\nI: 0003 0001 0001 0001\nX: 1\n", "bad.evemu:3: expected an evemu line (\"N: <name>\", \"E: <sec>.<usec> <type> <code> <value>\", …), found \"X: 1\""),
        ("E: 0.000001 0000 0000 0\nE 0.000002 0000 0000 0\n", "bad.evemu:2: expected an evemu line (\"N: <name>\", \"E: <sec>.<usec> <type> <code> <value>\", …), found \"E 0.000002 0000 0000 0\""),
    ] as [(String, String)])
    func badInput(text: String, error: String) {
        #expect(RecordingFixtures.error(text) == error)
    }

    @Test func tooManyBitmaskLinesForOneType() {
        let text = "N: x\nI: 0003 0001 0001 0001\n" + String(repeating: "B: 01 00 00 00 00 00 00 00 00\n", count: 13)
        #expect(RecordingFixtures.error(text) == "bad.evemu:15: too many B: lines for type 01 (at most 12, codes up to 2ff)")
    }

    /// A real file with one byte changed: the error points at that line.
    @Test func corruptedRealFile() throws {
        var text = String(decoding: RecordingFixtures.bytes("evemu-devices/Apple_Touch_Mouse.evemu"), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex { $0.hasPrefix("E: 0.011162") })
        var copy = lines.map(String.init)
        copy[index] = "E: 0.0x1162" + copy[index].dropFirst("E: 0.011162".count)
        text = copy.joined(separator: "\n")
        let error = try #require(RecordingFixtures.error(text, file: "Apple_Touch_Mouse.evemu"))
        #expect(error.hasPrefix("Apple_Touch_Mouse.evemu:\(index + 1):4: bad timestamp \"0.0x1162\": expected"))
    }
}

@Test func writingInPiecesKeepsTheReportIntervalsRelative() {
    func frame(_ ms: Int64) -> [TimedEvent] {
        [TimedEvent(time: Instant(microseconds: ms * 1000), event: InputEvent(type: 1, code: 57, value: 1)),
         TimedEvent(time: Instant(microseconds: ms * 1000), event: InputEvent(type: 0, code: 0, value: 0))]
    }
    var last: Int64 = 0
    let first = EvemuFormat.writeEvents(frame(1000), lastReportMilliseconds: &last)
    let second = EvemuFormat.writeEvents(frame(1250), lastReportMilliseconds: &last)
    #expect(first.hasSuffix("+1000ms\n"))
    #expect(second.hasSuffix("+250ms\n"))
    #expect(first + second == EvemuFormat.writeEvents(frame(1000) + frame(1250)))
}
