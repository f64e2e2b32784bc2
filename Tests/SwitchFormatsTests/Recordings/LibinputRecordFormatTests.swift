import SwitchCore
@_spi(Fuzzing) @testable import SwitchFormats
import Testing

@Suite("libinput-record format")
struct LibinputRecordFormatTests {
    /// Two devices recorded together (`libinput record --multiple`), with the keys libinput adds
    /// that switchscan does not use, a libinput event entry among the frames and a hid entry.
    static let twoDevices = """
        version: 1
        ndevices: 2
        libinput:
          version: "1.25.0"
          git: "unknown"
        system:
          os: "debian:12"
          kernel: "6.1.0"
          dmi: "dmi:bvnX"
        devices:
        - node: /dev/input/event3
          evdev:
            # Name: Adapted switch
            name: "Adapted switch"
            id: [3, 4660, 171, 1]
            codes:
              0: [0, 1, 2, 3, 4]   # EV_SYN
              1: [57, 28]          # EV_KEY
              4: [4]               # EV_MSC
            properties: []
          hid: [5, 1, 9, 6]
          udev:
            properties:
            - ID_INPUT=1
            - ID_INPUT_KEY=1
          quirks:
          events:
          - evdev:
            - [  0,      0,   4,   4, 458796] # EV_MSC / MSC_SCAN
            - [  0,      0,   1,  57,      1] # EV_KEY / KEY_SPACE 1
            - [  0,      0,   0,   0,      0] # ------------ SYN_REPORT (0) ---------- +0ms
          - libinput:
            - {time: 0.000, type: KEYBOARD_KEY, key: 57, state: pressed}
          - evdev:
            - [  0, 250000,   1,  57,      0]
            - [  0, 250000,   0,   0,      0]
        - node: /dev/input/event7
          evdev:
            name: "Touch panel"
            id: [24, 0, 0, 0]
            codes:
              1: [330]
              3: [0, 1]
            absinfo:
              0: [0, 799, 0, 0, 10]
              1: [-5, 479, 2, 3, 10]
            properties: [1]
            unknown_future_key: {a: 1}
          events:
          - hid: {time: [0, 100], hidraw0: [1, 2, 3]}
          - evdev:
            - [  0, 100000,   3,   0,    400]
            - [  0, 100000,   1, 330,      1]
            - [  0, 100000,   0,   0,      0]
          - evdev:
            - [  0, 250000,   1, 330,      0]
            - [  0, 250000,   0,   0,      0]
        """

    @Test func twoDevicesOnOneTimeBase() throws {
        let recording = try LibinputRecordFormat.parse(Array(Self.twoDevices.utf8), file: "two.yml")
        #expect(recording.devices.count == 2)
        let keyboard = try #require(recording.devices.first)
        let touch = try #require(recording.devices.last)
        #expect(keyboard.description == DeviceDescription(
            name: "Adapted switch", bus: 3, vendor: 0x1234, product: 0xab, version: 1,
            codes: [EventCodes.EV_KEY: [57, 28], EventCodes.EV_MSC: [4]]))
        #expect(touch.description == DeviceDescription(
            name: "Touch panel", bus: 24, properties: [EventCodes.INPUT_PROP_DIRECT],
            codes: [EventCodes.EV_KEY: [EventCodes.BTN_TOUCH], EventCodes.EV_ABS: [0, 1]],
            absInfo: [0: .init(minimum: 0, maximum: 799, resolution: 10), 1: .init(minimum: -5, maximum: 479, fuzz: 2, flat: 3, resolution: 10)]))
        #expect(touch.description?.isTouchscreen == true)

        func e(_ us: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> TimedEvent {
            TimedEvent(time: Instant(microseconds: us), event: InputEvent(type: type, code: code, value: value))
        }
        #expect(keyboard.events == [e(0, 4, 4, 458_796), e(0, 1, 57, 1), e(0, 0, 0, 0), e(250_000, 1, 57, 0), e(250_000, 0, 0, 0)])
        #expect(touch.events == [e(100_000, 3, 0, 400), e(100_000, 1, 330, 1), e(100_000, 0, 0, 0), e(250_000, 1, 330, 0), e(250_000, 0, 0, 0)])

        // One time base: the frames interleave by time, ties in device order.
        let merged = recording.mergedFrames()
        #expect(merged.map(\.device) == [0, 1, 0, 1])
        #expect(merged.map(\.frame.time) == [0, 100_000, 250_000, 250_000].map { Instant(microseconds: $0) })
        // Times are already relative: nothing to rebase.
        #expect(recording.rebasedForSimulation() == recording)
    }

    @Test func eventsMayBeNullEmptyOrMissing() throws {
        for events in ["  events:\n", "  events: []\n", "  events: ~\n", ""] {
            let text = """
                version: 1
                devices:
                - evdev:
                    name: switch
                    id: [3, 1, 2, 3]
                    codes: {1: [57]}
                    properties: []

                """ + events
            let recording = try LibinputRecordFormat.parse(Array(text.utf8), file: "t.yml")
            #expect(recording.devices.count == 1)
            #expect(recording.eventCount == 0)
            #expect(recording.devices.first?.description?.codes == [EventCodes.EV_KEY: [57]])
        }
    }

    @Test func flowStyleAndDocumentMarkersAreYAMLToo() throws {
        let text = "---\n{version: 1, devices: [{evdev: {name: s, id: [3, 1, 2, 3], codes: {1: [57]}}, events: [{evdev: [[0, 5, 1, 57, 1], [0, 5, 0, 0, 0]]}]}]}\n...\n"
        let recording = try RecordingFile.decode(Array(text.utf8), file: "flow.yml")
        #expect(recording.devices.first?.events.count == 2)
        #expect(recording.devices.first?.description?.properties == [])
    }

    // MARK: Bad input

    static let header = "version: 1\ndevices:\n- evdev:\n    name: s\n    id: [3, 1, 2, 3]\n    codes: {1: [57], 3: [0]}\n    absinfo: {0: [0, 10, 0, 0, 0]}\n"

    static let badInputs: [(String, String)] = [
        // Wrong shapes, with the path to the node and its position.
        (header + "  events:\n  - evdev:\n    - [0, 0, 1, 57, 1]\n    - [0, 0, 0, 0]\n",
         "bad.yml:11:7: devices[0].events[0].evdev[1]: expected [sec, usec, type, code, value], found a list of 4"),
        (header + "  events:\n  - evdev:\n    - [0, 0, 1, 57, 1]\n  - evdev:\n    - [0, 0, 0, 0, 0]\n  - evdev: [0, 0, 1, 57, 1]\n",
         "bad.yml:13:13: devices[0].events[2].evdev[0]: expected [sec, usec, type, code, value], found \"0\""),
        (header + "  events:\n  - evdev:\n    - [0, 0, 1, KEY_A, 1]\n",
         "bad.yml:10:17: devices[0].events[0].evdev[0][3]: expected an event code (a decimal integer), found \"KEY_A\""),
        (header + "  events:\n  - evdev:\n    - [0, 0, 1, 768, 1]\n",
         "bad.yml:10:17: devices[0].events[0].evdev[0][3]: 768 is out of range for an event code (0…767)"),
        (header + "  events:\n  - evdev:\n    - [0, 1000000, 1, 57, 1]\n",
         "bad.yml:10:11: devices[0].events[0].evdev[0][1]: 1000000 is out of range for microseconds (0…999999)"),
        (header + "  events:\n  - evdev:\n    - [0, 0, 1, 57, 4294967296]\n",
         "bad.yml:10:21: devices[0].events[0].evdev[0][4]: 4294967296 is out of range for an event value (-2147483648…2147483647)"),
        (header + "  events:\n  - [0, 0, 1, 57, 1]\n",
         "bad.yml:9:5: devices[0].events[0]: expected a frame such as {evdev: [[sec, usec, type, code, value], …]}, found a list of 5"),
        (header + "  events: {evdev: []}\n", "bad.yml:8:11: devices[0].events: expected a list, found a mapping"),
        // Time going backwards.
        (header + "  events:\n  - evdev:\n    - [1, 0, 1, 57, 1]\n  - evdev:\n    - [0, 999999, 0, 0, 0]\n",
         "bad.yml:12:7: devices[0].events[1].evdev[0]: time 0.999999 goes backwards (the event before is at 1.000000)"),
        // The description.
        ("version: 1\ndevices:\n- evdev:\n    name: s\n    id: [3, 1, 2]\n    codes: {}\n",
         "bad.yml:5:9: devices[0].evdev.id: expected [bus, vendor, product, version], found 3 numbers"),
        ("version: 1\ndevices:\n- evdev:\n    name: s\n    id: [3, 1, 2, 65536]\n    codes: {}\n",
         "bad.yml:5:19: devices[0].evdev.id[3]: 65536 is out of range for an id (0…65535)"),
        ("version: 1\ndevices:\n- evdev:\n    name: [s]\n    id: [3, 1, 2, 3]\n    codes: {}\n",
         "bad.yml:4:11: devices[0].evdev.name: expected the device name, found a list of 1"),
        ("version: 1\ndevices:\n- evdev:\n    name: s\n    id: [3, 1, 2, 3]\n    codes: {32: [1]}\n",
         "bad.yml:6:13: devices[0].evdev.codes.32: 32 is out of range for an event type (0…31)"),
        ("version: 1\ndevices:\n- evdev:\n    name: s\n    id: [3, 1, 2, 3]\n    codes: {1: 57}\n",
         "bad.yml:6:16: devices[0].evdev.codes.1: expected a list, found \"57\""),
        ("version: 1\ndevices:\n- evdev:\n    name: s\n    id: [3, 1, 2, 3]\n    codes: {3: [0, 1]}\n    absinfo: {0: [0, 10, 0, 0, 0]}\n",
         "bad.yml:7:14: devices[0].evdev.absinfo: missing the range of ABS_Y (code 1), which codes lists"),
        ("version: 1\ndevices:\n- evdev:\n    name: s\n    id: [3, 1, 2, 3]\n    codes: {3: [0]}\n    absinfo: {0: [0, 10, 0, 0]}\n",
         "bad.yml:7:18: devices[0].evdev.absinfo.0: expected [min, max, fuzz, flat, resolution], found 4 numbers"),
        ("version: 1\ndevices:\n- evdev:\n    name: s\n    id: [3, 1, 2, 3]\n    codes: {}\n    properties: [32]\n",
         "bad.yml:7:18: devices[0].evdev.properties[0]: 32 is out of range for an input property (0…31)"),
        ("version: 1\ndevices:\n- evdev:\n    id: [3, 1, 2, 3]\n    codes: {}\n", "bad.yml:4:5: devices[0].evdev: missing \"name\""),
        ("version: 1\ndevices:\n- node: /dev/input/event0\n",
         "bad.yml:3:3: devices[0]: missing \"evdev\": the device's name, id, codes, absinfo and properties"),
        ("version: 1\ndevices: []\n", "bad.yml:2:10: devices: expected at least one device, found an empty list"),
        ("version: 1\ndevices: yes\n", "bad.yml:2:10: devices: expected a list, found \"yes\""),
        ("version: 1\n", "bad.yml:1:1: missing \"devices\": the list of recorded devices"),
        ("version: 2\ndevices: []\n", "bad.yml:1:10: version: unsupported libinput-record version 2; switchscan reads version 1"),
        ("devices: []\n", "bad.yml:1:1: missing \"version\"; a libinput-record file starts with \"version: 1\""),
        ("- version: 1\n", "bad.yml:1:1: expected a mapping (key: value lines), found a list of 1"),
        // Campaign 2 (fuzz-evemu, Fuzz/seeds/evemu/crash-58b63e27-campaign2): an empty document
        // without a final line break is marked on the line after the last; main named line 2.
        ("---", "bad.yml:1: expected a mapping (key: value lines), found nothing (null) at the end of the file"),
        ("version: 1\ndevices:", "bad.yml:2:9: devices: expected a list, found nothing (null)"),
        // Malformed YAML: Yams' position.
        ("version: 1\ndevices:\n- evdev: {name: s\n", "bad.yml:4:1: malformed YAML: did not find expected ',' or '}' (while parsing a flow mapping at line 3, column 10)"),
        ("version: 1\n  devices: []\n", "bad.yml:2:10: malformed YAML: mapping values are not allowed in this context"),
        ("version: 1\nversion: 1\ndevices: []\n", "bad.yml:1:1: malformed YAML: a mapping repeats the key \"version\""),
        ("version: 1\ndevices:\n- evdev: *nowhere\n", "bad.yml:3:10: an alias (*nowhere): libinput-record files have no YAML anchors or aliases (`libinput record` never writes them; an alias repeats a whole part of the file)"),
        ("version: 1\n---\nversion: 1\n", "bad.yml:2:1: malformed YAML: found another document (expected a single document in the stream at line 1, column 1)"),
        ("version: 1\ndevices: \"\u{01}\"\n", "bad.yml:2:11: control character U+0001 (YAML allows none, not even in a comment); expected a libinput-record YAML file"),
    ]

    @Test(arguments: LibinputRecordFormatTests.badInputs)
    func badInput(text: String, error: String) {
        #expect(RecordingFixtures.error(text, file: "bad.yml") == error)
    }

    @Test func invalidUTF8IsReportedWhereItIs() {
        var bytes = Array("version: 1\ndevices:\n- evdev:\n    name: ".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("\n".utf8)
        #expect(throws: InputError(file: "bad.yml", line: 4, column: 11, message: "not UTF-8 text (byte 0xc3); expected a libinput-record YAML file")) {
            try RecordingFile.decode(bytes, file: "bad.yml")
        }
    }

    /// The real file with the SYN_REPORT of its fifth frame cut to four numbers.
    @Test func corruptedRealFile() throws {
        let original = String(decoding: RecordingFixtures.bytes("libinput-record/ite-8595-touchpad_acer-sw5-012_two-finger-scroll.yml"), as: UTF8.self)
        var lines = original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(lines.firstIndex { $0.hasPrefix("    - [  0,  32006,   0,   0,     0]") })
        lines[index] = "    - [  0,  32006,   0,   0]"
        let error = RecordingFixtures.error(lines.joined(separator: "\n"), file: "ite.yml")
        #expect(error == "ite.yml:\(index + 1):7: devices[0].events[4].evdev[7]: expected [sec, usec, type, code, value], found a list of 4")
    }

    // MARK: Frames read ahead of Yams

    /// The pre-pass takes the frames of libinput's own layout out of Yams' way; the result, and
    /// every error, is the same as when Yams reads everything.
    @Test func framesReadAheadGiveTheSameRecording() throws {
        let real = RecordingFixtures.bytes("libinput-record/ite-8595-touchpad_acer-sw5-012_two-finger-scroll.yml")
        #expect(LibinputRecordFrames.rewrite(real)?.frames.count == 13)
        #expect(LibinputRecordFrames.rewrite(real)?.frames.map(\.count) == [9, 13, 10, 10, 8, 8, 8, 8, 8, 8, 7, 7, 8])
        for (bytes, name) in [(real, "real"), (Array(Self.twoDevices.utf8), "two")] {
            let ahead = try LibinputRecordFormat.parse(bytes, file: name, readingFramesAhead: true)
            let yams = try LibinputRecordFormat.parse(bytes, file: name, readingFramesAhead: false)
            #expect(ahead == yams, "\(name)")
        }
    }

    @Test(arguments: LibinputRecordFormatTests.badInputs)
    func framesReadAheadGiveTheSameErrors(text: String, error: String) {
        func decode(_ ahead: Bool) -> String? {
            do {
                _ = try LibinputRecordFormat.parse(Array(text.utf8), file: "bad.yml", readingFramesAhead: ahead)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(decode(true) == decode(false))
    }

    /// Layouts other than libinput's stay with Yams, which still reads them right.
    @Test(arguments: [
        "  - evdev:\n    - [0, 1, 1, 57, 1]\n\n    - [0, 1, 0, 0, 0]\n",          // a blank line inside the list
        "  - evdev:\n    - [0, 1, 1, 57, 1]\n    # note\n    - [0, 1, 0, 0, 0]\n",  // a comment inside the list
        "  - evdev: # frame\n    - [0, 1, 1, 57, 1]\n    - [0, 1, 0, 0, 0]\n",   // a comment after evdev:
        "  - evdev:\n    - [0, 1, 1, 57, 1]\n    - [0, 1, 0, 0, 0]\n",           // libinput's layout: read ahead
        "  - evdev:\n      - [0,1,1,57,1]#x\n      - [0, 1, 0, 0, 0]\n",          // "#" without a blank is not a comment
        "  - evdev:\n    - [0, 1, 1, 57, 1]\n    - [ +0 , 1 , 0 , 0 , 0 ]   # c\n",
        "  - evdev:\n    - [0, 1, 1, 57, 1]\n    - {a: 1}\n",                       // a malformed event after good ones
        "  - evdev:\n    - [0, 1, 1, 57, 1]\n      - [0, 1, 0, 0, 0]\n",         // a deeper line
    ])
    func otherLayouts(frame: String) throws {
        let text = "version: 1\ndevices:\n- evdev:\n    name: s\n    id: [3, 1, 2, 3]\n    codes: {1: [57]}\n  events:\n" + frame
        func decode(_ ahead: Bool) -> Result<Recording, InputError> {
            do throws(InputError) { return .success(try LibinputRecordFormat.parse(Array(text.utf8), file: "t.yml", readingFramesAhead: ahead)) }
            catch { return .failure(error) }
        }
        #expect(decode(true) == decode(false))
    }

    /// Found by the libinput fuzz campaign (Fuzz/seeds/libinput/crash-862058c3-campaign3.yml): a
    /// quoted scalar spanning lines holds frame-like lines, the last of which ends with the
    /// closing quote in what looks like a comment. They are text: the read-ahead pre-pass took
    /// them for a frame, removed the quote and the file read as an error, while Yams reads it.
    @Test func frameLikeLinesInsideAQuotedScalarAreText() throws {
        let dmi = """
              dmi: "dmi:bvnX:cvnAce    - [  0,      0,   3,   1,   255] # EV_ABS / ABS_Y  255
              - evdev:
                - [  0,   9967,   1,  57,     1] # EV_KEY / KEY_SPACE  1
                - [  0,   9967,   0,   0,     0] # SYN_REPORT r:ct10:cvrChassisVersion:"
            """
        let text = Self.twoDevices.replacingOccurrences(of: "  dmi: \"dmi:bvnX\"", with: dmi)
        #expect(text != Self.twoDevices)
        let bytes = Array(text.utf8)
        #expect(LibinputRecordFrames.rewrite(bytes) != nil)  // the pre-pass still sees a frame there
        let ahead = try LibinputRecordFormat.parse(bytes, file: "q.yml", readingFramesAhead: true)
        let yams = try LibinputRecordFormat.parse(bytes, file: "q.yml", readingFramesAhead: false)
        #expect(ahead == yams)
        #expect(ahead == (try LibinputRecordFormat.parse(Array(Self.twoDevices.utf8), file: "q.yml")))
    }

    @Test func aFileMentioningTheTagIsNotRewritten() throws {
        let text = "# \(LibinputRecordFrames.tag)\n" + Self.twoDevices
        #expect(LibinputRecordFrames.rewrite(Array(text.utf8)) == nil)
        #expect(try LibinputRecordFormat.parse(Array(text.utf8), file: "t.yml").eventCount == 10)
        // Written by hand, the tag is refused rather than trusted.
        let forged = "version: 1\ndevices:\n- evdev:\n    name: s\n    id: [3, 1, 2, 3]\n    codes: {}\n  events:\n  - evdev: \(LibinputRecordFrames.tag) 0\n"
        #expect(RecordingFixtures.error(forged, file: "t.yml") == "t.yml:8:12: devices[0].events[0].evdev: unexpected !switchscan-frame tag")
    }
}
