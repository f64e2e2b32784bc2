import Foundation
import SwitchDisplayServers
import Testing

/// The session-bus client (`SessionBus`) against a real, private `dbus-daemon --session`: calls
/// and their typed answers, timeouts, errors, names and their owners, signals, exported methods
/// answered at once and later, wire compatibility with libdbus's and GLib's own tools
/// (`dbus-send`, `gdbus`), and the bus going away. Every wait is for a condition, through the
/// descriptor the live loop would watch (`poll` on `fileDescriptor`, then `dispatch`).
@Suite(.serialized, .enabled(if: PrivateBus.usable, "needs dbus-daemon, dbus-send and gdbus (dbus-daemon, dbus-bin, libglib2.0-bin)"))
struct SessionBusTests {
    static var echo: [BusMethod] { [
        BusMethod("Echo", arguments: "suidb", results: "suidb") { $0.reply($0.arguments) },
        BusMethod("Fail", arguments: "s") { $0.fail("org.switchscan.Test.Error.Refused", "refused: \($0.arguments[0].string ?? "")") },
    ] }

    @Test func aCallGetsItsTypedAnswerWaitedForAndThroughTheLoop() throws {
        let daemon = try PrivateBus()
        defer { daemon.stop() }
        let server = try SessionBus(address: daemon.address), client = try SessionBus(address: daemon.address)
        #expect(try server.requestName("org.switchscan.Test").get() == true)
        server.export("/org/switchscan/Test", interface: "org.switchscan.Test1", methods: Self.echo)
        let args: [BusValue] = [.string("wörld é €"), .uint32(4_000_000_000), .int32(-7), .double(2.5), .bool(true)]
        // Waited for: the server is dispatched by the loop (here, a thread standing in for its process).
        let serving = daemon.serve(server)
        let waited = client.callAndWait("org.switchscan.Test", "/org/switchscan/Test", "org.switchscan.Test1", "Echo", args)
        serving.stop()
        #expect(try waited.get() == args)
        // A dictionary of variants (the bus's own a{sv}): this process's credentials.
        let credentials = client.callAndWait("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                             "GetConnectionCredentials", [.string(client.uniqueName)])
        #expect(try credentials.get().first?.dictionary?["ProcessID"] == .uint32(UInt32(getpid())), "\(credentials)")
        // Through the loop: the handler runs in a dispatch once the descriptor said so.
        var answer: Result<[BusValue], SessionBusError>?
        client.call("org.switchscan.Test", "/org/switchscan/Test", "org.switchscan.Test1", "Echo", args) { answer = $0 }
        #expect(answer == nil)
        try PrivateBus.pump([server, client], until: { answer != nil })
        #expect(try answer?.get() == args)
    }

    @Test func errorsSayWhatWentWrong() throws {
        let daemon = try PrivateBus()
        defer { daemon.stop() }
        let server = try SessionBus(address: daemon.address), client = try SessionBus(address: daemon.address)
        _ = try server.requestName("org.switchscan.Test").get()
        server.export("/org/switchscan/Test", interface: "org.switchscan.Test1", methods: Self.echo)
        // Nobody owns the name.
        let nobody = client.callAndWait("org.switchscan.Nobody", "/", "org.switchscan.Test1", "Echo")
        #expect(nobody.failure?.isNoOwner == true, "\(nobody)")
        var answers: [String: SessionBusError] = [:]
        let ask = { (key: String, member: String, args: [BusValue], path: String) in
            client.call("org.switchscan.Test", path, "org.switchscan.Test1", member, args) { answers[key] = $0.failure }
        }
        ask("refused", "Fail", [.string("no")], "/org/switchscan/Test")
        ask("signature", "Echo", [.string("only one")], "/org/switchscan/Test")
        ask("member", "Nope", [], "/org/switchscan/Test")
        ask("path", "Echo", [], "/org/switchscan/Elsewhere")
        try PrivateBus.pump([server, client], until: { answers.count == 4 })
        #expect(answers["refused"] == .remote(name: "org.switchscan.Test.Error.Refused", message: "refused: no"))
        #expect(answers["signature"] == .remote(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "Echo takes (suidb), not (s)"))
        #expect(answers["member"] == .remote(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "org.switchscan.Test1 has no method Nope"))
        #expect(answers["path"]?.description.hasPrefix("org.freedesktop.DBus.Error.UnknownMethod") == true, "\(answers)")
        // A string D-Bus cannot carry is refused here, not by libdbus aborting the process.
        let bad = client.callAndWait("org.switchscan.Test", "/org/switchscan/Test", "org.switchscan.Test1", "Fail", [.string("a\u{0}b")])
        #expect(bad.failure?.description.hasPrefix("cannot send: Fail(") == true, "\(bad)")
        #expect(client.callAndWait("bad name!", "/", "a.b", "C").failure?.description.hasPrefix("cannot send") == true)
    }

    /// A peer that never answers: the waited call returns after its timeout; the loop's call is
    /// told by the descriptor at its deadline (nothing else arrives to wake it).
    @Test func aCallWithoutAnswerTimesOut() throws {
        let daemon = try PrivateBus()
        defer { daemon.stop() }
        let server = try SessionBus(address: daemon.address), client = try SessionBus(address: daemon.address)
        _ = try server.requestName("org.switchscan.Test").get()
        var kept: [BusCall] = []
        server.export("/t", interface: "org.switchscan.Test1", methods: [BusMethod("Hang") { kept.append($0) }])
        let started = Date()
        let waited = client.callAndWait("org.switchscan.Test", "/t", "org.switchscan.Test1", "Hang", timeoutMilliseconds: 200)
        #expect(waited.failure == .timeout(member: "Hang", milliseconds: 200))
        #expect(Date().timeIntervalSince(started) >= 0.2)
        var answer: Result<[BusValue], SessionBusError>?
        client.call("org.switchscan.Test", "/t", "org.switchscan.Test1", "Hang", timeoutMilliseconds: 150) { answer = $0 }
        try PrivateBus.pump([server, client], until: { answer != nil })
        #expect(answer?.failure == .timeout(member: "Hang", milliseconds: 150))
        #expect(kept.count == 2)
        // A call kept and answered later (KWin's long poll): the answer reaches a caller still waiting.
        var late: Result<[BusValue], SessionBusError>?
        client.call("org.switchscan.Test", "/t", "org.switchscan.Test1", "Hang", timeoutMilliseconds: 5000) { late = $0 }
        try PrivateBus.pump([server, client], until: { kept.count == 3 })
        #expect(late == nil)
        kept[2].reply([.string("later")])
        try PrivateBus.pump([server, client], until: { late != nil })
        #expect(try late?.get() == [.string("later")])
    }

    @Test func namesAndTheirOwnersAreWatched() throws {
        let daemon = try PrivateBus()
        defer { daemon.stop() }
        let first = try SessionBus(address: daemon.address), second = try SessionBus(address: daemon.address)
        let watcher = try SessionBus(address: daemon.address)
        var seen: [String?] = []
        let (_, now) = watcher.watchNameOwner("org.switchscan.Shell") { seen.append($0) }
        #expect(try now.get() == nil)
        #expect(try first.requestName("org.switchscan.Shell").get() == true)
        #expect(try first.requestName("org.switchscan.Shell").get() == true)  // already its own
        #expect(try second.requestName("org.switchscan.Shell").get() == false)  // not queued
        #expect(try watcher.nameOwner("org.switchscan.Shell").get() == first.uniqueName)
        first.releaseName("org.switchscan.Shell")
        try PrivateBus.pump([watcher], until: { seen.count == 2 })
        #expect(try second.requestName("org.switchscan.Shell").get() == true)
        try PrivateBus.pump([watcher], until: { seen.count == 3 })
        #expect(seen == [first.uniqueName, nil, second.uniqueName])
    }

    /// Signals reach their handlers in order, also those that came while a call was waited for.
    @Test func signalsArriveInOrderEvenDuringAWaitedCall() throws {
        let daemon = try PrivateBus()
        defer { daemon.stop() }
        let server = try SessionBus(address: daemon.address), client = try SessionBus(address: daemon.address)
        _ = try server.requestName("org.switchscan.Test").get()
        var got: [[BusValue]] = []
        client.subscribe(path: "/t", interface: "org.switchscan.Test1", member: "Changed") { got.append($0.arguments) }
        let other = client.subscribe(path: "/t", interface: "org.switchscan.Test1", member: "Other") { _ in Issue.record("unsubscribed") }
        client.unsubscribe(other)
        // The server emits before it answers: the client reads the signal while it waits.
        server.export("/t", interface: "org.switchscan.Test1", methods: [BusMethod("Poke", arguments: "u", results: "b") { call in
            server.emit("/t", "org.switchscan.Test1", "Changed", [call.arguments[0]])
            server.emit("/t", "org.switchscan.Test1", "Other")
            call.reply([.bool(true)])
        }])
        // The match rules are in before the call that makes the signals (one connection's order).
        let serving = daemon.serve(server)
        #expect(try client.callAndWait("org.switchscan.Test", "/t", "org.switchscan.Test1", "Poke", [.uint32(1)]).get() == [.bool(true)])
        #expect(got.isEmpty)  // not inside the wait
        #expect(try client.callAndWait("org.switchscan.Test", "/t", "org.switchscan.Test1", "Poke", [.uint32(2)]).get() == [.bool(true)])
        serving.stop()
        // The socket was read dry by the wait: the inbox's eventfd makes the descriptor readable.
        try PrivateBus.pump([client], until: { got.count == 2 })
        #expect(got == [[.uint32(1)], [.uint32(2)]])
    }

    /// libdbus's dbus-send and GLib's gdbus (which introspects first) call switchscan's object.
    @Test func otherClientsCallTheExportedObject() throws {
        let daemon = try PrivateBus()
        defer { daemon.stop() }
        let server = try SessionBus(address: daemon.address)
        _ = try server.requestName("org.switchscan.KWinHelper").get()
        var windows: [String] = []
        server.export("/org/switchscan/KWinHelper", interface: "org.switchscan.KWinHelper", methods: [
            BusMethod("Windows", arguments: "s") { windows.append($0.arguments[0].string ?? ""); $0.reply() },
            BusMethod("Result", arguments: "sb", results: "u") { $0.reply([.uint32(UInt32($0.arguments[0].string!.count))]) },
        ])
        let send = try daemon.spawn(["/usr/bin/dbus-send", "--bus=" + daemon.address, "--print-reply", "--dest=org.switchscan.KWinHelper",
                                     "/org/switchscan/KWinHelper", "org.switchscan.KWinHelper.Windows", "string:[{\"id\": \"é\"}]"])
        try PrivateBus.pump([server], until: { !send.process.isRunning })
        #expect(send.process.terminationStatus == 0, "\(send.output())")
        #expect(windows == ["[{\"id\": \"é\"}]"])
        let gdbus = try daemon.spawn(["/usr/bin/gdbus", "call", "--address", daemon.address, "--dest", "org.switchscan.KWinHelper",
                                      "--object-path", "/org/switchscan/KWinHelper", "--method", "org.switchscan.KWinHelper.Result", "abc", "true"])
        try PrivateBus.pump([server], until: { !gdbus.process.isRunning })
        #expect(gdbus.output() == "(uint32 3,)\n")
    }

    /// The bus daemon dies: the descriptor says so, the loop's calls fail `.disconnected`,
    /// `onDisconnect` runs once, and nothing more can be sent.
    @Test func theBusGoingAwayIsNoticed() throws {
        let daemon = try PrivateBus()
        let server = try SessionBus(address: daemon.address), client = try SessionBus(address: daemon.address)
        _ = try server.requestName("org.switchscan.Test").get()
        var kept: [BusCall] = []
        server.export("/t", interface: "org.switchscan.Test1", methods: [BusMethod("Hang") { kept.append($0) }])
        var answer: Result<[BusValue], SessionBusError>?
        var disconnects = 0
        client.onDisconnect = { disconnects += 1 }
        client.call("org.switchscan.Test", "/t", "org.switchscan.Test1", "Hang", timeoutMilliseconds: 60_000) { answer = $0 }
        try PrivateBus.pump([server], until: { kept.count == 1 })
        daemon.stop()
        try PrivateBus.pump([client], until: { !client.isConnected && answer != nil })
        #expect(answer?.failure == .disconnected)
        #expect(disconnects == 1)
        #expect(client.callAndWait("org.switchscan.Test", "/t", "org.switchscan.Test1", "Hang").failure == .disconnected)
        #expect(throws: SessionBusError.self) { try SessionBus(address: daemon.address) }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}

/// A private `dbus-daemon --session` on a socket in a temporary folder, for one test.
final class PrivateBus {
    static let usable = ["/usr/bin/dbus-daemon", "/usr/bin/dbus-send", "/usr/bin/gdbus"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

    let address: String
    let folder: String
    private let daemon: Process

    init() throws {
        folder = NSTemporaryDirectory() + "switchscan-bus-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        address = "unix:path=\(folder)/bus"
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--session", "--nofork", "--nopidfile", "--address=\(address)", "--print-address=1"]
        // It prints its address once it listens (the socket file exists a moment before).
        let printed = Pipe()
        daemon.standardOutput = printed
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let more = printed.fileHandleForReading.availableData
            guard !more.isEmpty else { stop(); throw SwaySession.SessionError("dbus-daemon did not start") }
            line += more
        }
    }

    func stop() {
        if daemon.isRunning {
            daemon.terminate()
            // SIGKILL: a child of the test process may have SIGTERM blocked (inherited from the
            // thread that started it). Polled: Foundation's waitUntilExit can hang on a test's thread.
            kill(daemon.processIdentifier, SIGKILL)
            let end = Date().addingTimeInterval(5)
            while daemon.isRunning && Date() < end { usleep(10_000) }
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    deinit { stop() }

    /// Dispatches `buses` as the loop would (poll on their descriptors, then `dispatch`) until
    /// `done`, at most `timeout` seconds.
    static func pump(_ buses: [SessionBus], until done: () -> Bool, timeout: Double = 10) throws {
        let end = Date().addingTimeInterval(timeout)
        while !done() {
            guard Date() < end else { throw SwaySession.SessionError("waited \(timeout) s for a condition") }
            var fds = buses.map { pollfd(fd: $0.fileDescriptor, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 50)
            for (bus, p) in zip(buses, fds) where p.revents != 0 { bus.dispatch() }
        }
    }

    /// A bus dispatched on a thread of its own while the test's thread waits in `callAndWait`
    /// (as the peer's own process would be).
    final class Serving: @unchecked Sendable {
        let done = NSCondition()
        var stopped = false
        var finished = false
        func stop() {
            done.lock()
            stopped = true
            while !finished { done.wait() }
            done.unlock()
        }
    }

    func serve(_ bus: SessionBus) -> Serving {
        let s = Serving()
        nonisolated(unsafe) let bus = bus
        Thread.detachNewThread {
            while true {
                s.done.lock()
                let stop = s.stopped
                s.done.unlock()
                if stop { break }
                var p = pollfd(fd: bus.fileDescriptor, events: Int16(POLLIN), revents: 0)
                if poll(&p, 1, 20) > 0 { bus.dispatch() }
            }
            s.done.lock()
            s.finished = true
            s.done.signal()
            s.done.unlock()
        }
        return s
    }

    struct Spawned {
        let process: Process
        let path: String
        func output() -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    }

    /// A program run in the background, its output (and errors) to a file.
    func spawn(_ argv: [String]) throws -> Spawned {
        let path = folder + "/out-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst())
        p.standardOutput = FileHandle(forWritingAtPath: path)
        p.standardError = p.standardOutput
        try p.run()
        return Spawned(process: p, path: path)
    }
}
