internal import CPresage
import Glibc

/// The child process that runs presage (`switchscan presage-server`, started by `PresageClient`):
/// presage 0.9.1 aborts the process it runs in on ordinary input (an assertion in its smoothed
/// n-gram predictor, `../shared/research/presage-abort-repro.py`), so it never runs inside the
/// switchscan that scans. Requests come on standard input, answers go to standard output, one
/// line each, in order (`PresageProtocol`).
///
/// Configuration (presage's own keys, set before the first prediction): the database given
/// (`database_en.db`, or one built with text2ngram), `SUGGESTIONS` = the most words asked,
/// `REPEAT_SUGGESTIONS` yes (the same context always gives the same words, so answers can be
/// kept), online learning off unless asked (the keyboard learns what was written, explicitly),
/// and with a user model the `UserSmoothedNgramPredictor` on a database of its own. `HOME` is set
/// to a folder of the child's own (`ScratchHome`) before presage starts, so nothing is written to
/// `~/.presage`.
///
/// A database presage cannot use is refused before the first question, with presage's reason:
///
///     start ──databases there, files, readable?──▶ presage_new, its keys set ──▶ one prediction
///       │ no: "e <path>: <why> <path>"             │ refused: "e …"             │ fails: "e …"
///       ▼                                          ▼                            ▼
///     exit 2 (never presage_free after a refusal: presage 0.9.1's SmoothedNgramPredictor deletes
///     its database connector before opening the new one, keeps the freed pointer when the new
///     one throws, and deletes it again when freed: SIGSEGV)
///
/// What presage says on its standard error while it starts (`[DatabaseConnector] … : file is not
/// a database`) is kept in a file and becomes the reason; afterwards its standard error is the
/// client's again (an abort's last words).
public enum PresageServer {
    public struct Options: Sendable {
        public var database: String
        /// The person's own model (learning); nil: none.
        public var userDatabase: String?
        /// Learn from every context presage sees (presage's default, which aborts; for the tests).
        public var onlineLearning = false
        public var suggestions = 8
        /// Where presage may keep its files; nil: a folder of the child's own, removed once
        /// presage is ready (`ScratchHome`).
        public var home: String?

        public init(database: String, userDatabase: String?, home: String? = nil) {
            self.database = database
            self.userDatabase = userDatabase
            self.home = home
        }
    }

    /// The text presage reads as "the past" (its callback asks for it).
    final class Past {
        var buffer: UnsafeMutablePointer<CChar>? = strdup("")
        func set(_ s: String) {
            free(buffer)
            buffer = strdup(s)
        }
        deinit { free(buffer) }
    }

    /// Serves until standard input ends; the exit status (2: a database refused).
    public static func serve(_ o: Options) -> Int32 {
        var scratch: String?
        defer { if let scratch { ScratchHome.remove(scratch) } }
        func refuse(_ why: String, _ path: String?) -> Int32 {
            if let s = scratch { ScratchHome.remove(s) }
            scratch = nil
            send(["e", why] + (path.map { [$0] } ?? []))
            return 2
        }
        if let home = o.home {
            setenv("HOME", home, 1)
        } else {
            ScratchHome.removeStale()
            do { scratch = try ScratchHome.make() } catch { return refuse("\(error)", nil) }
            setenv("HOME", scratch!, 1)
        }
        if let why = problem(o.database, user: false) { return refuse("\(o.database): \(why)", o.database) }
        if let user = o.userDatabase, let why = problem(user, user: true) { return refuse("\(user): \(why)", user) }

        let said = PresageStderr()
        let past = Past()
        let pastCallback: _presage_callback_get_past_stream = { arg in
            UnsafePointer(Unmanaged<Past>.fromOpaque(arg!).takeUnretainedValue().buffer)
        }
        let futureCallback: _presage_callback_get_future_stream = { _ in UnsafePointer(PresageServer.empty) }
        var handle: presage_t?
        let context = Unmanaged.passUnretained(past).toOpaque()
        guard presage_new(pastCallback, context, futureCallback, nil, &handle) == PRESAGE_OK, let h = handle else {
            return refuse("presage could not start" + said.reason(), nil)
        }
        var settings: [(String, String)] = [
            ("Presage.Predictors.DefaultSmoothedNgramPredictor.DBFILENAME", o.database),
            ("Presage.Selector.SUGGESTIONS", String(o.suggestions)),
            ("Presage.Selector.REPEAT_SUGGESTIONS", "yes"),
            ("Presage.ContextTracker.ONLINE_LEARNING", o.onlineLearning ? "yes" : "no"),
        ]
        if let user = o.userDatabase {
            settings += [("Presage.Predictors.UserSmoothedNgramPredictor.DBFILENAME", user),
                         ("Presage.Predictors.UserSmoothedNgramPredictor.LEARN", "true"),
                         ("Presage.PredictorRegistry.PREDICTORS", "DefaultSmoothedNgramPredictor UserSmoothedNgramPredictor")]
        } else {
            settings += [("Presage.Predictors.UserSmoothedNgramPredictor.LEARN", "false"),
                         ("Presage.PredictorRegistry.PREDICTORS", "DefaultSmoothedNgramPredictor")]
        }
        for (key, value) in settings where presage_config_set(h, key, value) != PRESAGE_OK {
            // Never presage_free(h) from here on (the header says why).
            let (path, why) = said.databaseReason(default: key.hasSuffix(".DBFILENAME") ? value : nil)
            return refuse(path.map { "\($0): presage cannot use it: \(why)" } ?? "presage refused \(key) = \(value)\(said.reason())", path)
        }
        // One prediction, so a file that is no n-gram database is refused now, not at the first
        // word (presage opens it lazily).
        var words: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        guard presage_predict(h, &words) == PRESAGE_OK else {
            let (path, why) = said.databaseReason(default: o.database)
            return refuse("\(path ?? o.database): presage cannot read it: \(why)", path ?? o.database)
        }
        if let words { presage_free_string_array(words) }
        said.stop()
        defer { presage_free(h) }
        if let s = scratch { ScratchHome.remove(s) }
        scratch = nil
        send(["r"])  // ready
        var reader = LineReader(fd: 0)
        while let line = reader.next() {
            let fields = PresageProtocol.fields(line)
            guard let verb = fields.first else { continue }
            var answer: [String]
            switch verb {
            case "p" where fields.count == 2:
                past.set(fields[1])
                var words: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
                if presage_predict(h, &words) == PRESAGE_OK, let words {
                    answer = ["w"]
                    var k = 0
                    while let w = words[k] {
                        answer.append(String(cString: w))
                        k += 1
                    }
                    presage_free_string_array(words)
                } else {
                    answer = ["e", "presage could not predict"]
                }
            case "l" where fields.count == 2:
                answer = presage_learn(h, fields[1]) == PRESAGE_OK ? ["k"] : ["e", "presage could not learn"]
            default:
                answer = ["e", "unknown request"]
            }
            if !send(answer) { return 1 }
        }
        return 0
    }

    /// One answer line on standard output; false when it cannot be written.
    @discardableResult
    static func send(_ fields: [String]) -> Bool {
        var ok = true
        PresageProtocol.line(fields).withCString { p in
            var left = strlen(p), at = 0
            while left > 0 {
                let n = write(1, p + at, left)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { ok = false; return }
                left -= n
                at += n
            }
        }
        return ok
    }

    /// Why presage could not use `path` before it is asked (nil: let presage try): presage says
    /// only "Unable to create/open database" for a missing file or a folder. The person's own
    /// model (`user`) may be missing (presage makes it) if its folder is there.
    static func problem(_ path: String, user: Bool) -> String? {
        var st = stat()
        if stat(path, &st) != 0 {
            let e = errno
            guard user && e == ENOENT else { return e == ENOENT ? "no such file" : String(cString: strerror(e)) }
            let slash = path.lastIndex(of: "/")
            let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
            var f = stat()
            guard stat(folder, &f) == 0, (f.st_mode & S_IFMT) == S_IFDIR else { return "its folder \(folder) is not there" }
            return nil
        }
        if (st.st_mode & S_IFMT) == S_IFDIR { return "is a folder, expected presage's n-gram database (an SQLite file)" }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return "is not a regular file" }
        let fd = open(path, user ? O_RDWR : O_RDONLY)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        close(fd)
        return nil
    }

    nonisolated(unsafe) static let empty: UnsafeMutablePointer<CChar> = strdup("")
}

/// presage's standard error while it starts, kept in an unlinked file (presage writes its
/// reasons there, `[DatabaseConnector] …`, and only returns an error code), then given back.
final class PresageStderr {
    private var saved: Int32 = -1
    private var file: UnsafeMutablePointer<FILE>?

    init() {
        file = tmpfile()
        guard let file else { return }
        saved = dup(2)
        dup2(fileno(file), 2)
    }

    /// Standard error is the client's again.
    func stop() {
        guard saved >= 0 else { return }
        dup2(saved, 2)
        close(saved)
        saved = -1
    }

    deinit {
        stop()
        if let file { fclose(file) }
    }

    /// What presage wrote so far, its lines.
    private func lines() -> [String] {
        guard let file else { return [] }
        let fd = fileno(file)
        var out: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 4096)
        var at: off_t = 0
        while out.count < 1 << 16 {
            let n = block.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, at) }
            if n <= 0 { break }
            out += block[..<n]
            at += off_t(n)
        }
        return String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// `" (presage's last line)"`, or nothing.
    func reason() -> String {
        lines().last.map { " (" + $0 + ")" } ?? ""
    }

    /// The database presage names in its last complaint and what it said of it:
    /// `Error executing SQL: '…' on database: '/x.db' : file is not a database` →
    /// (`/x.db`, "file is not a database"); `Unable to create/open database: /x.db` →
    /// (`/x.db`, "cannot be opened").
    func databaseReason(default path: String?) -> (path: String?, why: String) {
        guard let last = lines().last(where: { $0.contains("[DatabaseConnector]") }) else {
            return (path, lines().last ?? "presage gave no reason")
        }
        if let on = last.firstRange(of: " on database: '"), let end = last[on.upperBound...].firstRange(of: "' : ") {
            return (String(last[on.upperBound..<end.lowerBound]), String(last[end.upperBound...]))
        }
        if let open = last.firstRange(of: "Unable to create/open database: ") {
            return (String(last[open.upperBound...]), "cannot be opened")
        }
        return (path, String(last.dropFirst("[DatabaseConnector] ".count)))
    }
}

/// Lines of the child's pipe protocol: fields separated by tabs, each with `\`, tab and new line
/// escaped (`\\`, `\t`, `\n`), so a context may hold anything.
///
///     → p <context>            ← w <word> <word> …   (or e <why>)
///     → l <text to learn>      ← k                    (or e <why>)
///                              ← r                    once, when presage is ready
public enum PresageProtocol {
    public static func line(_ fields: [String]) -> String {
        fields.map(escape).joined(separator: "\t") + "\n"
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\0": continue
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    public static func fields(_ line: String) -> [String] {
        var fields: [String] = []
        var current = ""
        var escaping = false
        for c in line.unicodeScalars {
            if escaping {
                switch c {
                case "t": current += "\t"
                case "n": current += "\n"
                case "r": current += "\r"
                default: current.unicodeScalars.append(c)
                }
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else if c == "\t" {
                fields.append(current)
                current = ""
            } else {
                current.unicodeScalars.append(c)
            }
        }
        fields.append(current)
        return fields
    }
}

/// Lines from a descriptor, read in blocks (blocking).
struct LineReader {
    let fd: Int32
    var pending: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    mutating func next() -> String? {
        while true {
            if let nl = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<nl], as: UTF8.self)
                pending.removeSubrange(...nl)
                return line
            }
            var block = [UInt8](repeating: 0, count: 65536)
            let n = block.withUnsafeMutableBytes { read(fd, $0.baseAddress, 65536) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            pending += block[..<n]
        }
    }
}
