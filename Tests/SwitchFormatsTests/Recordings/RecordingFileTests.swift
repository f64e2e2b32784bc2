import SwitchCore
import SwitchFormats
import Testing

@Suite("Recording files")
struct RecordingFileTests {
    // MARK: Detection by content

    @Test(arguments: [
        ("N: x\n", RecordingFile.Detection.format(.evemu)),
        ("# EVEMU 1.3\n# comment\n\nE: 0.000001 0000 0000 0\n", .format(.evemu)),
        ("  E: 0.000001 0000 0000 0\n", .format(.evemu)),
        ("\u{FEFF}N: x\n", .format(.evemu)),
        ("version: 1\n", .format(.libinputRecord)),
        ("# libinput record\nversion: 1\n", .format(.libinputRecord)),
        ("---\nversion: 1\n", .format(.libinputRecord)),
        ("%YAML 1.1\n---\n", .format(.libinputRecord)),
        ("{version: 1}\n", .format(.libinputRecord)),
        ("- a\n", .format(.libinputRecord)),
        ("ndevices: 1\n", .format(.libinputRecord)),
        ("", .empty),
        ("\n\n   \n", .empty),
        ("# EVEMU 1.3\n# only comments\n", .empty),
        ("hello world\n", .unknown(line: 1)),
        ("# c\n\nE 0.000001 0000 0000 0\n", .unknown(line: 3)),
        ("NN: x\n", .format(.libinputRecord)),  // a YAML key; the YAML reader then says what is missing
        ("N:x\n", .unknown(line: 1)),
        ("\u{89}PNG\r\n", .unknown(line: 1)),
    ] as [(String, RecordingFile.Detection)])
    func detection(text: String, expected: RecordingFile.Detection) {
        #expect(RecordingFile.detect(Array(text.utf8)) == expected)
    }

    /// The name does not matter: a libinput-record file called .evemu is still YAML.
    @Test func formatComesFromContentNotName() throws {
        let yaml = RecordingFixtures.bytes("libinput-record/ite-8595-touchpad_acer-sw5-012_two-finger-scroll.yml")
        let evemu = RecordingFixtures.bytes("evemu-devices/Apple_Touch_Mouse.evemu")
        #expect(try RecordingFile.decode(yaml, file: "recording.evemu").eventCount == 112)
        #expect(try RecordingFile.decode(evemu, file: "recording.yml").eventCount == 45)
    }

    // MARK: One clear error for a bad file

    /// "An events file may hold no events at all": an empty file is a recording of nothing.
    @Test(arguments: ["", "# EVEMU 1.3\n\n", "\n\n   \n"])
    func emptyFilesAreRecordingsOfNothing(text: String) throws {
        let r = try RecordingFile.decode(Array(text.utf8), file: "empty.evemu")
        #expect(r == Recording(devices: [Recording.Device(description: nil, events: [])]))
    }

    @Test func garbageBytes() {
        // A PNG header, random binary, and text of the wrong kind.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D]
        png += [0xFF, 0xFE, 0x00, 0x01]
        #expect(throws: InputError(file: "x.png", line: 1, message: "not a recording switchscan reads: expected evemu lines (\"N: <name>\", \"E: <sec>.<usec> <type> <code> <value>\") or a libinput-record YAML (\"version: 1\"), found \"\u{FFFD}PNG\"")) {
            try RecordingFile.decode(png, file: "x.png")
        }
        let error = RecordingFixtures.error("# notes\n\nThe quick brown fox\n", file: "notes.txt")
        #expect(error?.hasPrefix("notes.txt:3: not a recording switchscan reads:") == true)
        #expect(error?.hasSuffix("found \"The quick brown fox\"") == true)
        // Binary junk after a valid start fails on its line.
        var bytes = Array("E: 0.000001 0001 0039 1\n".utf8)
        bytes += [0x00, 0xFF, 0x13, 0x37, 0x0A]
        let junk = RecordingFixtures.error(String(decoding: bytes, as: UTF8.self))
        #expect(junk == "bad.evemu:2: expected an evemu line (\"N: <name>\", \"E: <sec>.<usec> <type> <code> <value>\", …), found \"\u{FFFD}\u{FFFD}\u{FFFD}7\"")
        // Old Mac line ends (a lone \r) make one long line; the message stays on one line.
        let cr = RecordingFixtures.error("N: x\rI: 0003 0001 0001 0001\rB: 01\r", file: "cr.evemu")
        #expect(cr == "cr.evemu:1: the file ends after the N: line; expected \"I: <bus> <vendor> <product> <version>\" next")
        let crEvents = RecordingFixtures.error("E: 0.000001 0001 0039 1\rE: 0.000002 0000 0000 0\r", file: "cr.evemu")
        #expect(crEvents == "cr.evemu:1: expected \"E: <sec>.<usec> <type> <code> <value>\", found 8 fields")
        #expect(cr?.contains("\r") == false)
    }

    @Test func evemuFileWithNothingInIt() throws {
        // Only an EVEMU header: a recording of nothing, not an error.
        #expect(RecordingFixtures.error("# EVEMU 1.3\n") == nil)
        #expect(try RecordingFile.decode(Array("# EVEMU 1.3\n".utf8), file: "x").eventCount == 0)
    }

    // MARK: .desc + .events pairs

    static let desc = "# EVEMU 1.3\nN: Adapted switch\nI: 0003 1234 00ab 0001\nB: 01 00 00 00 00 00 00 00 02\n"
    static let events = "E: 5.000000 0001 0039 1\nE: 5.000000 0000 0000 0\n"

    func pair(events: String, description: String) throws(InputError) -> Recording {
        try RecordingFile.decode(events: (Array(events.utf8), "s.events"), description: (Array(description.utf8), "s.desc"))
    }

    @Test func pairTakesTheDescriptionFromTheDesc() throws {
        let recording = try pair(events: Self.events, description: Self.desc)
        #expect(recording.devices.count == 1)
        #expect(recording.devices.first?.description?.name == "Adapted switch")
        #expect(recording.devices.first?.description?.codes == [EventCodes.EV_KEY: [EventCodes.KEY_SPACE]])
        #expect(recording.devices.first?.events.map(\.time) == [Instant(microseconds: 5_000_000), Instant(microseconds: 5_000_000)])
    }

    @Test(arguments: ["", "\n", "# EVEMU 1.3\n# nothing happened\n"])
    func anEmptyEventsFileIsValid(events: String) throws {
        let recording = try pair(events: events, description: Self.desc)
        #expect(recording.devices.count == 1)
        #expect(recording.devices.first?.description?.name == "Adapted switch")
        #expect(recording.eventCount == 0)
        #expect(recording.mergedFrames().isEmpty)
    }

    @Test func eventsFileDescribingTheSameDeviceIsAccepted() throws {
        let recording = try pair(events: Self.desc + Self.events, description: Self.desc)
        #expect(recording.eventCount == 2)
    }

    @Test(arguments: [
        // The events file describes another device.
        (desc.replacingOccurrences(of: "Adapted switch", with: "Other") + events, desc,
         "s.events:2: this file describes its own device (\"Other\"), not the one in s.desc (\"Adapted switch\"); decode it alone"),
        // The description file holds events.
        (events, desc + events, "s.desc:5: this description file also holds 2 events; decode it alone or pass a description-only file"),
        // The description file has no description.
        (events, events, "s.desc:1: no device description (expected N:, I:, B: lines)"),
        (events, "", "s.desc:1: no device description (expected N:, I:, B: lines)"),
        (events, "hello\n", "s.desc:1: not an evemu device description (expected N:, I:, B: lines)"),
        (events, "version: 1\n", "s.desc:1: a libinput-record file describes its own devices; decode it alone, without an events file"),
        // The events file is of the wrong kind or broken.
        ("version: 1\n", desc, "s.events:1: a libinput-record file describes its own devices; decode it alone, without s.desc"),
        ("hello\n", desc, "s.events:1: not an evemu events file (expected \"E: <sec>.<usec> <type> <code> <value>\" lines)"),
        ("E: 5.000000 0001 0039 1\nE: 4.000000 0000 0000 0\n", desc, "s.events:2:4: timestamp 4.000000 goes backwards (the event before is at 5.000000)"),
        // A broken description.
        (events, "N: x\nI: 0003\n", "s.desc:2: expected \"I: <bus> <vendor> <product> <version>\" (4 hex numbers), found 1"),
    ] as [(String, String, String)])
    func pairErrors(events: String, description: String, error: String) {
        #expect(pairError(events: events, description: description) == error)
    }

    func pairError(events: String, description: String) -> String? {
        do {
            _ = try pair(events: events, description: description)
            return nil
        } catch {
            return error.description
        }
    }
}
