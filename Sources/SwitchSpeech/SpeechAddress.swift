import Glibc

/// Where speech-dispatcher listens, by libspeechd's rules: `SPEECHD_ADDRESS` (`unix_socket` or
/// `unix_socket:PATH`), else `$XDG_RUNTIME_DIR/speech-dispatcher/speechd.sock` (`~/.cache/…`
/// without XDG_RUNTIME_DIR). Starting it when nobody listens is libspeechd's too:
/// `speech-dispatcher --spawn --communication-method unix_socket --socket-path PATH`
/// (`SPEECHD_CMD` names another binary), which returns once the server is up.
public struct SpeechAddress: Sendable, CustomStringConvertible {
    public var socketPath: String

    public init(socketPath: String) { self.socketPath = socketPath }

    public static func fromEnvironment() throws(SpeechError) -> SpeechAddress {
        if let v = getenv("SPEECHD_ADDRESS").map({ String(cString: $0) }), !v.isEmpty {
            let parts = v.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts[0] == "unix_socket" else { throw SpeechError.unsupportedAddress(v) }
            if parts.count == 2, !parts[1].isEmpty { return SpeechAddress(socketPath: parts[1]) }
        }
        let runtime = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
            ?? ((getenv("HOME").map { String(cString: $0) } ?? "/tmp") + "/.cache")
        return SpeechAddress(socketPath: runtime + "/speech-dispatcher/speechd.sock")
    }

    public var description: String { socketPath }

    /// A connected (blocking) socket.
    func connect(spawnIfMissing: Bool) throws(SpeechError) -> Int32 {
        var reason = ""
        if let fd = tryConnect(&reason) { return fd }
        guard spawnIfMissing else { throw SpeechError.cannotConnect(socketPath, reason: reason, spawn: "not started") }
        let spawned = spawn()
        if let fd = tryConnect(&reason) { return fd }
        throw SpeechError.cannotConnect(socketPath, reason: reason, spawn: spawned)
    }

    private func tryConnect(_ reason: inout String) -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { reason = String(cString: strerror(errno)); return nil }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let path = Array(socketPath.utf8)
        guard path.count < MemoryLayout.size(ofValue: addr.sun_path) else {
            close(fd)
            reason = "the path is too long for a socket"
            return nil
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (k, b) in path.enumerated() { raw[k] = b }
            raw[path.count] = 0
        }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if rc == 0 { return fd }
        reason = String(cString: strerror(errno))
        close(fd)
        return nil
    }

    /// Runs `speech-dispatcher --spawn …` and waits for it (10 s at most); says what happened.
    private func spawn() -> String {
        let command = getenv("SPEECHD_CMD").map { String(cString: $0) } ?? "speech-dispatcher"
        let argv = [command, "--spawn", "--communication-method", "unix_socket", "--socket-path", socketPath]
        var cargs = argv.map { strdup($0) } + [nil]
        defer { for a in cargs { free(a) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, command, &actions, nil, &cargs, environ)
        guard rc == 0 else { return "starting \(command) failed: \(String(cString: strerror(rc)))" }
        var status: Int32 = 0
        for _ in 0..<1000 {
            if waitpid(pid, &status, WNOHANG) == pid {
                return status == 0 ? "\(command) --spawn started it" : "\(command) --spawn refused to start it (status \(status >> 8))"
            }
            usleep(10_000)
        }
        return "\(command) --spawn did not return in 10 s"
    }
}
