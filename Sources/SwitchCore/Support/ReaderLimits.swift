/// How much the readers of outside files accept. Generous bounds, far above any real file (the
/// largest real tree in the benchmarks, a 126 MB Android dump, has 300,000 nodes), so that a file
/// from another tool, or a damaged one, gets a clear error naming the limit instead of taking
/// the machine's memory. Every limit is counted before the memory it bounds is spent: file sizes
/// before the file is read (or while a pipe is), elements while the tree is built.
///
/// The command line reads them from the environment (`overridden(by:)`): `SWITCHSCAN_MAX_FILE_MB`
/// sets every file-size limit, `SWITCHSCAN_MAX_ELEMENTS` the element count. Nesting is bounded
/// apart (512 levels for JSON and trees, 64 for libinput-record YAML): the readers recurse, so
/// that bound protects the stack and is not adjustable.
public struct ReaderLimits: Sendable, Equatable {
    /// What a file is read as, for its size limit and the error's wording.
    public enum FileKind: Sendable {
        case tree, profile, recording, person, learnedWords
        /// A keyboard layout (`keyboards/NAME.json`).
        case layout
        /// A word list (`keyboards/words/LANGUAGE.txt`).
        case wordList
        /// `text stats`' phrase file.
        case phrases

        var noun: String {
            switch self {
            case .tree: return "a tree file"
            case .profile: return "a profile"
            case .recording: return "a recording read whole (libinput-record, a description, or standard input)"
            case .person: return "a person file"
            case .learnedWords: return "a file of learned words (at most \(UserWords.maximumWords) words)"
            case .layout: return "a keyboard layout"
            case .wordList: return "a word list"
            case .phrases: return "a phrase file"
            }
        }
    }

    /// Tree files (every format): read whole, as the scanner needs the tree whole.
    public var treeBytes = 256 << 20
    /// Elements in one tree (every format: nodes, XML elements, dump lines).
    public var treeElements = 2_000_000
    /// Profiles: a few kilobytes in practice.
    public var profileBytes = 1 << 20
    /// Recordings read whole: libinput-record files (devices merged by time), `--desc` files and
    /// recordings from standard input. A regular evemu file is streamed and has no size limit.
    public var recordingBytes = 256 << 20
    /// Simulated people (issue 31): a few hundred bytes in practice.
    public var personBytes = 1 << 20
    /// The person's learned words (`UserWords`): the most its bound of words can take.
    public var learnedWordsBytes = UserWords.maximumFileBytes
    /// Keyboard layouts: a few kilobytes in practice, as profiles.
    public var layoutBytes = 1 << 20
    /// Word lists: the bundled English one (40,000 words) has 0.5 MB.
    public var wordListBytes = 64 << 20
    /// `text stats` phrase files: the 500-phrase set has 14 KB; every character is typed on
    /// 108 configurations, so 16 MiB is already days of typing.
    public var phraseBytes = 16 << 20

    public static let standard = ReaderLimits()

    public static let fileSizeVariable = "SWITCHSCAN_MAX_FILE_MB"
    public static let elementsVariable = "SWITCHSCAN_MAX_ELEMENTS"

    public init() {}

    public func bytes(_ kind: FileKind) -> Int {
        switch kind {
        case .tree: return treeBytes
        case .profile: return profileBytes
        case .recording: return recordingBytes
        case .person: return personBytes
        case .learnedWords: return learnedWordsBytes
        case .layout: return layoutBytes
        case .wordList: return wordListBytes
        case .phrases: return phraseBytes
        }
    }

    /// These limits with `SWITCHSCAN_MAX_FILE_MB` (every file-size limit, in MiB) and
    /// `SWITCHSCAN_MAX_ELEMENTS` applied when set; a value that is not a positive whole number
    /// is an error naming the variable.
    public func overridden(by environment: [String: String]) throws(InputError) -> ReaderLimits {
        var limits = self
        if let mb = try Self.positive(environment, Self.fileSizeVariable, upTo: 1 << 20) {
            limits.treeBytes = mb << 20
            limits.profileBytes = mb << 20
            limits.recordingBytes = mb << 20
            limits.personBytes = mb << 20
            limits.learnedWordsBytes = mb << 20
            limits.layoutBytes = mb << 20
            limits.wordListBytes = mb << 20
            limits.phraseBytes = mb << 20
        }
        if let n = try Self.positive(environment, Self.elementsVariable, upTo: 1 << 40) { limits.treeElements = n }
        return limits
    }

    private static func positive(_ environment: [String: String], _ name: String, upTo max: Int) throws(InputError) -> Int? {
        guard let text = environment[name], !text.isEmpty else { return nil }
        guard let n = Int(text), n >= 1, n <= max else {
            throw InputError(file: "environment", message: "\(name)=\(text): expected a whole number from 1 to \(max)")
        }
        return n
    }

    /// `file: 300000000 bytes, larger than the 256 MiB (268435456 bytes) a tree file may have; …`
    /// (`size` nil when the file is a pipe, read until it passed the limit).
    public static func fileTooLarge(_ file: String, size: Int?, limit: Int, _ kind: FileKind) -> InputError {
        let found = size.map { "\($0) bytes, larger" } ?? "larger"
        let stopped = size == nil ? " (reading stopped there)" : ""
        return InputError(file: file, message: "\(found) than the \(mebibytes(limit)) (\(limit) bytes) \(kind.noun) may have\(stopped); \(fileSizeVariable)=N raises the limit to N MiB")
    }

    /// The message for a tree with more than `treeElements` elements (each reader adds where).
    public func tooManyElements() -> String {
        "more than \(treeElements) elements, the most a tree file may have; \(Self.elementsVariable)=N raises the limit"
    }

    private static func mebibytes(_ n: Int) -> String {
        n % (1 << 20) == 0 ? "\(n >> 20) MiB" : "\(n) bytes"
    }
}

/// Counts the elements of a tree being built against `ReaderLimits.treeElements`; each reader
/// takes one per element before building it and throws its own located error when refused.
public struct ElementBudget: Sendable {
    public let limits: ReaderLimits
    public private(set) var count = 0

    public init(_ limits: ReaderLimits) { self.limits = limits }

    /// One more element: false once there are more than the limit.
    public mutating func take() -> Bool {
        count += 1
        return count <= limits.treeElements
    }

    public var message: String { limits.tooManyElements() }
}
