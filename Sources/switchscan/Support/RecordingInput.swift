import Foundation
import SwitchCore
import SwitchFormats

/// A recording for `simulate`, `demo` and `calibrate`, read twice: once whole, to check it
/// (`RecordingSurvey`, `RecordingCheck`) before anything is printed, and once to replay it. An
/// evemu file is read 1 MB at a time both times, so memory does not grow with the file (a
/// 114 MB recording simulates in tens of MB). A libinput-record file (several devices merged by
/// time), or a recording that is not a regular file, is read whole, up to the recording size limit
/// (`ReaderLimits`); a regular evemu file has no size limit.
struct RecordingInput {
    enum Source {
        /// An evemu file read in pieces, with the description from `--desc` when given.
        case evemuFile(path: String, description: DeviceDescription?)
        /// Rebased already.
        case memory(Recording)
    }

    let source: Source
    let survey: RecordingSurvey
    let files: (events: String, description: String?)

    static let chunkSize = 1 << 20

    /// What each device is, in the order the frames name them.
    var devices: [DeviceDescription?] { survey.devices.map(\.description) }

    static func open(_ path: String, desc: String?) throws(InputError) -> RecordingInput {
        let separate = try desc.map { d throws(InputError) in try RecordingFile.description(InputFiles.read(d, .recording), file: d) }
        if isRegularFile(path), let first = try firstChunk(path),
           RecordingFile.detect(first.bytes) == .format(.evemu) || (RecordingFile.detect(first.bytes) == .empty && first.whole) {
            var survey = RecordingSurvey(devices: [])
            var device = RecordingSurvey.Device(description: separate, describedSeparately: separate != nil)
            let own = try streamEvemu(path) { (stream: inout EvemuStream, event: TimedEvent) in
                if stream.firstEventLine != nil, device.events == 0, separate == nil { device.description = stream.description }
                device.observe(event)
                return true
            }
            if let separate, let desc {
                try RecordingFile.checkOwnDescription(own.description, nameLine: own.nameLine, file: path, against: separate, from: desc)
            } else {
                device.description = own.description
            }
            device.cutAtLine = own.cutAtLine
            survey.devices = [device]
            return RecordingInput(source: .evemuFile(path: path, description: device.description), survey: survey, files: (path, desc))
        }
        let name = InputFiles.displayName(path)
        if let desc {
            let recording = try RecordingFile.decode(events: (try InputFiles.read(path, .recording), name),
                                                     description: (try InputFiles.read(desc, .recording), InputFiles.displayName(desc)))
            return RecordingInput(recording, files: (name, InputFiles.displayName(desc)))
        }
        return RecordingInput(try RecordingFile.decode(InputFiles.read(path, .recording), file: name), files: (name, nil))
    }

    /// A recording read whole already (standard input, a libinput-record file, the demo's).
    init(_ recording: Recording, files: (events: String, description: String?)) {
        var survey = RecordingSurvey(recording)
        if files.description != nil { survey.devices[0].describedSeparately = true }
        self.init(source: .memory(recording.rebasedForSimulation()), survey: survey, files: files)
    }

    private init(source: Source, survey: RecordingSurvey, files: (events: String, description: String?)) {
        self.source = source
        self.survey = survey
        self.files = files
    }

    /// Checks the survey against the profile (errors thrown) and prints the warnings on stderr.
    /// - Parameter watching: a run with an end of its own (`simulate --until`): no events is fine.
    func check(profile: Profile, profileFile: String, replaying: Bool = true, watching: Bool = false) throws(InputError) {
        let files = RecordingCheck.Files(events: self.files.events, description: self.files.description, profile: profileFile)
        let (warnings, error) = RecordingCheck.review(survey, files, profile: profile, replaying: replaying, watching: watching)
        for warning in warnings { note("warning: \(warning)") }
        if let error { throw error }
    }

    /// Every event of every device, times rebased to the simulator's t = 0, device by device.
    /// `body` returns false to stop.
    func forEachEvent(_ body: (Int, TimedEvent) -> Bool) throws(InputError) {
        switch source {
        case .memory(let recording):
            for (k, d) in recording.devices.enumerated() {
                for e in d.events where !body(k, e) { return }
            }
        case .evemuFile(let path, _):
            let shift = survey.rebaseShift
            _ = try Self.streamEvemu(path) { (_: inout EvemuStream, event: TimedEvent) in
                var e = event
                e.time.microseconds -= shift
                return body(0, e)
            }
        }
    }

    /// Every frame in time order (devices merged), rebased. `body` returns false to stop.
    func forEachFrame(_ body: (Int, InputFrame) -> Bool) throws(InputError) {
        switch source {
        case .memory(let recording):
            for (device, frame) in recording.mergedFrames() where !body(device, frame) { return }
        case .evemuFile:
            var grouper = InputFrame.Grouper()
            var going = true
            try forEachEvent { _, e in
                if let frame = grouper.add(e) { going = body(0, frame) }
                return going
            }
            if going, let frame = grouper.finish() { _ = body(0, frame) }
        }
    }

    // MARK: Reading

    static func isRegularFile(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }

    /// The first chunk of the file, and whether it is the whole file.
    static func firstChunk(_ path: String) throws(InputError) -> (bytes: [UInt8], whole: Bool)? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let data = try readChunk(fd, path, count: chunkSize + 1)
        return (Array(data.prefix(chunkSize)), data.count <= chunkSize)
    }

    /// Up to `count` bytes (fewer only at the end of the file), retrying EINTR; a read error is
    /// named by the system's words (`/proc/self/mem: cannot be read: Input/output error`).
    static func readChunk(_ fd: Int32, _ path: String, count: Int) throws(InputError) -> [UInt8] {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buf, n in
            n = 0
            while n < count {
                let r = Glibc.read(fd, buf.baseAddress! + n, count - n)
                if r == 0 { return }
                if r < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                n += r
            }
        }
        if failure != 0 {
            throw InputError(file: path, message: failure == EISDIR ? "is a directory, expected a file" : "cannot be read: \(String(cString: strerror(failure)))")
        }
        return bytes
    }

    /// Reads `path` in chunks through an `EvemuStream`, handing every event to `body` (false
    /// stops); returns the stream at the end (its description and where it was).
    @discardableResult
    static func streamEvemu(_ path: String, _ body: (inout EvemuStream, TimedEvent) -> Bool) throws(InputError) -> EvemuStream {
        var stream = EvemuStream(file: path)
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError(file: path, message: "cannot be read: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        while true {
            let data = try readChunk(fd, path, count: chunkSize)
            let events = data.isEmpty ? try stream.finish() : try stream.feed(data)
            for e in events where !body(&stream, e) { return stream }
            if data.isEmpty { return stream }
        }
    }
}
