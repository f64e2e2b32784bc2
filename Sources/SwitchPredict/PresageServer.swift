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
/// to a folder of switchscan's before presage starts, so nothing is written to `~/.presage`.
public enum PresageServer {
    public struct Options: Sendable {
        public var database: String
        /// The person's own model (learning); nil: none.
        public var userDatabase: String?
        /// Learn from every context presage sees (presage's default, which aborts; for the tests).
        public var onlineLearning = false
        public var suggestions = 8
        /// Where presage may keep its files.
        public var home: String

        public init(database: String, userDatabase: String?, home: String) {
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

    /// Serves until standard input ends; the exit status.
    public static func serve(_ o: Options) -> Int32 {
        setenv("HOME", o.home, 1)
        let past = Past()
        let pastCallback: _presage_callback_get_past_stream = { arg in
            UnsafePointer(Unmanaged<Past>.fromOpaque(arg!).takeUnretainedValue().buffer)
        }
        let futureCallback: _presage_callback_get_future_stream = { _ in UnsafePointer(PresageServer.empty) }
        var handle: presage_t?
        let context = Unmanaged.passUnretained(past).toOpaque()
        guard presage_new(pastCallback, context, futureCallback, nil, &handle) == PRESAGE_OK, let h = handle else {
            _ = write(1, "e\tpresage could not start\n", 26)
            return 1
        }
        defer { presage_free(h) }
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
            let line = PresageProtocol.line(["e", "presage refused \(key) = \(value)"])
            _ = line.withCString { write(1, $0, strlen($0)) }
            return 1
        }
        _ = "r\n".withCString { write(1, $0, 2) }  // ready
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
            let out = PresageProtocol.line(answer)
            var ok = true
            out.withCString { p in
                var left = strlen(p), at = 0
                while left > 0 {
                    let n = write(1, p + at, left)
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { ok = false; return }
                    left -= n
                    at += n
                }
            }
            if !ok { return 1 }
        }
        return 0
    }

    nonisolated(unsafe) static let empty: UnsafeMutablePointer<CChar> = strdup("")
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
