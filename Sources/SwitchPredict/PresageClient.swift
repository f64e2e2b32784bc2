import Glibc

/// switchscan's side of the presage child process (`PresageServer`): it starts the child (the same
/// executable, `presage-server`), asks it over a pipe, and survives its death. When presage
/// aborts (presage 0.9.1 does, `../shared/research/presage-abort-repro.py`), the question in
/// flight fails with the reason (the signal and presage's last words on its standard error), the
/// child is reaped, and the next question starts a new one: a prediction failure never ends the
/// session. A database the child refuses (`e <why> <path>` instead of its "ready" line) is a
/// `database` failure naming the file: it would fail again, so the caller goes on without it.
///
///     not started ──start──▶ running ──EOF on its pipe / write fails──▶ ended(reason)
///          ▲   │                │  predict / learn: one line out, one line back                │
///          │   └─ refused ─▶ database(path, why): the child exited 2; not started again as is  │
///          └──────── the next question (at most `restartLimit` starts a minute) ◀────────────┘
public final class PresageClient {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The child died or closed its pipe (the reason says how).
        case ended(String)
        /// It could not be started, or refused its configuration.
        case cannotStart(String)
        /// It refused a database (`path`: the model given, or the person's own) with presage's
        /// reason (`why` names the file): the same file fails again, so the caller goes on
        /// without it.
        case database(path: String, why: String)
        /// It answered with an error.
        case refused(String)
        /// Too many starts in a minute: presage is left alone for a while.
        case resting

        public var description: String {
            switch self {
            case .ended(let why): return "presage ended: \(why)"
            case .cannotStart(let why): return "presage could not start: \(why)"
            case .database(_, let why): return why
            case .refused(let why): return "presage: \(why)"
            case .resting: return "presage ended too often; predictions are off for a minute"
            }
        }
    }

    public let executable: String
    public let options: PresageServer.Options
    /// Starts allowed within a minute before it rests.
    public static let restartLimit = 5

    private var pid: pid_t = 0
    private var toChild: Int32 = -1
    private var fromChild: Int32 = -1
    private var errors: Int32 = -1
    private var reader: LineReader?
    private var starts: [Double] = []
    /// How many times the child was started.
    public private(set) var startCount = 0

    public init(executable: String, options: PresageServer.Options) {
        self.executable = executable
        self.options = options
    }

    deinit { stop() }

    public var isRunning: Bool { pid > 0 }

    /// The child's process id (0: none).
    public var childPID: pid_t { pid }

    /// Words for the text before the caret.
    public func predict(_ context: String) throws(Failure) -> [String] {
        let answer = try ask(["p", context])
        guard answer.first == "w" else { throw .refused(answer.dropFirst().first ?? "no answer") }
        return Array(answer.dropFirst())
    }

    /// Adds text to the person's model.
    public func learn(_ text: String) throws(Failure) {
        let answer = try ask(["l", text])
        guard answer.first == "k" else { throw .refused(answer.dropFirst().first ?? "no answer") }
    }

    private func ask(_ fields: [String]) throws(Failure) -> [String] {
        if pid == 0 { try start() }
        guard writeAll(PresageProtocol.line(fields)) else { throw .ended(reap()) }
        guard let line = reader!.next() else { throw .ended(reap()) }
        return PresageProtocol.fields(line)
    }

    /// Starts the child and waits for its "ready" line.
    public func start() throws(Failure) {
        let t = now()
        starts = starts.filter { t - $0 < 60 }
        guard starts.count < PresageClient.restartLimit else { throw .resting }
        starts.append(t)
        // The questions and answers go over a socket pair, not pipes: a write to a child that just
        // died then fails with EPIPE (MSG_NOSIGNAL) instead of sending SIGPIPE, and the process
        // keeps its signal dispositions (its children, and a test runner's, inherit them).
        var pair: [Int32] = [0, 0], err: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0, pipe(&err) == 0 else {
            throw .cannotStart("no socket pair: \(String(cString: strerror(errno)))")
        }
        for fd in err { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, pair[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        var args = ["switchscan", "presage-server", "--database", options.database, "--suggestions", String(options.suggestions)]
        if let home = options.home { args += ["--home", home] }
        if let user = options.userDatabase { args += ["--user-database", user] }
        if options.onlineLearning { args.append("--online-learning") }
        var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        // The child's own crash report would bury presage's last words (an assertion): off.
        var env: [UnsafeMutablePointer<CChar>?] = [strdup("SWIFT_BACKTRACE=enable=no")]
        var k = 0
        while let e = environ[k] {
            if strncmp(e, "SWIFT_BACKTRACE=", 16) != 0 { env.append(strdup(e)) }
            k += 1
        }
        env.append(nil)
        defer { for e in env { free(e) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, nil, &argv, &env)
        close(pair[1]); close(err[1])
        guard rc == 0 else {
            close(pair[0]); close(err[0])
            throw .cannotStart("\(executable): \(String(cString: strerror(rc)))")
        }
        pid = child
        toChild = pair[0]
        fromChild = pair[0]
        errors = err[0]
        _ = fcntl(errors, F_SETFL, fcntl(errors, F_GETFL) | O_NONBLOCK)
        reader = LineReader(fd: fromChild)
        startCount += 1
        guard let ready = reader!.next() else { throw .cannotStart(reap()) }
        let fields = PresageProtocol.fields(ready)
        guard fields.first == "r" else {
            let why = fields.dropFirst().first ?? ready
            _ = reap()
            if fields.count >= 3 { throw .database(path: fields[2], why: why) }
            throw .cannotStart(why)
        }
    }

    /// Ends the child (standard input closed, then waited for).
    public func stop() {
        guard pid > 0 else { return }
        shutdown(toChild, Int32(SHUT_WR))
        var status: Int32 = 0
        for _ in 0..<100 {
            if waitpid(pid, &status, WNOHANG) == pid { break }
            usleep(10_000)
        }
        if waitpid(pid, &status, WNOHANG) == 0 { kill(pid, SIGKILL); waitpid(pid, &status, 0) }
        close(fromChild); close(errors)
        pid = 0
        toChild = -1; fromChild = -1; errors = -1
        reader = nil
    }

    /// The child's end: waited for, and said as a signal or a status with its last words.
    private func reap() -> String {
        guard pid > 0 else { return "not running" }
        shutdown(toChild, Int32(SHUT_WR))
        var status: Int32 = 0
        var got = waitpid(pid, &status, 0)
        while got < 0 && errno == EINTR { got = waitpid(pid, &status, 0) }
        var said = ""
        var block = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = block.withUnsafeMutableBytes { read(errors, $0.baseAddress, 8192) }
            if n <= 0 { break }
            said += String(decoding: block[..<n], as: UTF8.self)
        }
        close(fromChild); close(errors)
        pid = 0
        toChild = -1; fromChild = -1; errors = -1
        reader = nil
        let saidLines = said.split(separator: "\n").map(String.init)
        let last = saidLines.first { $0.contains("Assertion") || $0.contains("terminate") } ?? saidLines.last ?? ""
        let how: String
        // Glibc's status macros, spelled out (Swift does not import them).
        let signalled = (status & 0x7f) != 0 && (status & 0x7f) != 0x7f
        if signalled {
            let sig = status & 0x7f
            how = "killed by \(PresageClient.signalName(sig))"
        } else {
            how = "exited with status \((status >> 8) & 0xff)"
        }
        return last.isEmpty ? how : how + " (" + last + ")"
    }

    static func signalName(_ sig: Int32) -> String {
        switch sig {
        case SIGABRT: return "SIGABRT"
        case SIGSEGV: return "SIGSEGV"
        case SIGKILL: return "SIGKILL"
        case SIGTERM: return "SIGTERM"
        case SIGBUS: return "SIGBUS"
        case SIGFPE: return "SIGFPE"
        default: return "signal \(sig)"
        }
    }

    private func writeAll(_ s: String) -> Bool {
        var ok = true
        s.withCString { p in
            var left = strlen(p), at = 0
            while left > 0 {
                let n = send(toChild, p + at, left, Int32(MSG_NOSIGNAL))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { ok = false; return }
                left -= n
                at += n
            }
        }
        return ok
    }

    private func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
