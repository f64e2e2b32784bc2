import Foundation
import SwitchCore
import SwitchFormats
import Testing

/// The real recordings in `Fixtures/recordings/` (copies of `shared/realdata/evdev/`, see the
/// PROVENANCE.md there), read from the test bundle.
enum RecordingFixtures {
    static let evemuDevices = "evemu-devices"
    static let xorg = "xorg-integration-tests"
    static let libinputRecord = "libinput-record"

    static var directory: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures/recordings", isDirectory: true)
    }

    /// The bytes of `folder/name`; records an issue (and returns no bytes) if it is missing.
    static func bytes(_ path: String) -> [UInt8] {
        let url = directory.appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record("missing fixture \(path)")
            return []
        }
        return [UInt8](data)
    }

    /// Every recording fixture, as "folder/name" (PROVENANCE.md excluded).
    static var allPaths: [String] {
        var paths: [String] = []
        for folder in [evemuDevices, xorg, libinputRecord] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(folder).path)) ?? []
            paths += names.map { "\(folder)/\($0)" }
        }
        return paths.sorted()
    }

    static func decode(_ path: String) throws(InputError) -> Recording {
        try RecordingFile.decode(bytes(path), file: path)
    }

    /// A `.desc` + `.events` pair from evemu-devices.
    static func decodePair(events: String, description: String) throws(InputError) -> Recording {
        let e = "\(evemuDevices)/\(events)"
        let d = "\(evemuDevices)/\(description)"
        return try RecordingFile.decode(events: (bytes(e), e), description: (bytes(d), d))
    }

    /// The single device's description of a fixture that has one.
    static func description(_ path: String) throws -> DeviceDescription {
        let recording = try decode(path)
        return try #require(recording.devices.first?.description)
    }

    /// The one-line error a decoder gives for `text`, or nil when it decodes.
    static func error(_ text: String, file: String = "bad.evemu") -> String? {
        do {
            _ = try RecordingFile.decode(Array(text.utf8), file: file)
            return nil
        } catch {
            return error.description
        }
    }
}
