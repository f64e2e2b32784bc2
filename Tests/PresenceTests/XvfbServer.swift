import CX11
import Dispatch
import Foundation
@testable import SwitchDisplayServers
import Synchronization
import TestPrograms
import Testing

/// A private Xvfb for one test (its own display, picked by Xvfb: `-displayfd`), torn down by
/// `stop()` or when the test ends. `-br`: a black root window, so whatever a test did not draw is
/// black.
///
/// A watchdog bounds the test: an Xlib call waits for its reply without a timeout, so if the test
/// is still running after `watchdog` seconds, its server is killed. The blocked call then returns
/// (the connection is lost: Xlib's IO error, which every connection here survives), and `stop()`
/// records the failure, so a stuck X test fails instead of hanging the whole run. If the test is
/// still stuck `grace` seconds later (an Xlib connection left in a broken state can wait on a
/// lock rather than on the socket), the test process is aborted with a message: a red run, never a
/// hung one.
final class XvfbServer {
    let display: String
    private var pid: pid_t = 0
    private let limit: Double
    private let state = WatchdogState()
    private let timer: DispatchSourceTimer

    /// Fails the test with "missing: Xvfb (Debian package xvfb)" where it is not installed.
    init(width: Int = 800, height: Int = 600, watchdog: Double = 60) throws {
        try Programs.require("/usr/bin/Xvfb")
        limit = watchdog
        timer = DispatchSource.makeTimerSource(queue: .global())
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw XvfbError.didNotStart }
        // Close-on-exec: a child another test spawns meanwhile must not hold this pipe (Xvfb's
        // own end is dup'ed onto its stdout, which stays open).
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        defer { close(fds[0]) }
        // posix_spawn with an empty signal mask and default handlers: a child spawned from a
        // test runner's thread would otherwise inherit blocked signals and ignore SIGTERM.
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setsigdefault(&attr, &all)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ["/usr/bin/Xvfb", "-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-br", "-noreset"]
        var cargs = argv.map { strdup($0) } + [nil]
        defer { for a in cargs { free(a) } }
        let rc = posix_spawn(&pid, argv[0], &actions, &attr, &cargs, environ)
        close(fds[1])
        guard rc == 0 else { throw XvfbError.didNotStart }
        var number = ""
        var byte: UInt8 = 0
        var poll = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
        while Glibc.poll(&poll, 1, 20_000) > 0, read(fds[0], &byte, 1) == 1, byte != 10 {
            number.append(Character(UnicodeScalar(byte)))
        }
        guard !number.isEmpty else {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            throw XvfbError.didNotStart
        }
        display = ":" + number
        let (server, state, name) = (pid, state, display)
        timer.setEventHandler {
            guard state.fire() else { return }
            kill(server, SIGKILL)
            DispatchQueue.global().asyncAfter(deadline: .now() + XvfbServer.grace) {
                guard state.stillStuck else { return }
                let message = "XvfbServer watchdog: an X test is still stuck \(XvfbServer.grace) s after its server \(name) was killed; aborting the test run\n"
                _ = message.withCString { write(2, $0, strlen($0)) }
                abort()
            }
        }
        timer.schedule(deadline: .now() + watchdog)
        timer.resume()
    }

    /// TERM, then KILL after 2 s; waits for it. Records the failure if the watchdog fired.
    func stop() {
        guard pid > 0 else { return }
        timer.cancel()
        if !state.stop() {
            Issue.record("watchdog: the test was still running after \(limit) s, so its X server \(display) was killed (an X call was stuck)")
        }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<200 {
            if waitpid(pid, &status, WNOHANG) == pid { pid = 0; return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        pid = 0
    }

    deinit { stop() }

    static let grace: Double = 30

}

enum XvfbError: Error { case didNotStart }

/// Who came first: the test's end (`stop`) or the watchdog (`fire`); exactly one wins.
final class WatchdogState: Sendable {
    private let value = Atomic<Int>(0)  // 0 running, 1 stopped, 2 fired, 3 stopped after firing

    /// True if the watchdog fired first (and may kill the server: it is not reaped yet).
    func fire() -> Bool { value.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged }
    /// False if the watchdog had fired.
    func stop() -> Bool {
        if value.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged { return true }
        value.store(3, ordering: .releasing)
        return false
    }
    /// Fired, and the test has not got past it.
    var stillStuck: Bool { value.load(ordering: .acquiring) == 2 }
}

/// A plain X client window (an "application" under the overlay): a white rectangle that
/// reports the button presses it receives. There is no window manager, so it is mapped exactly
/// where asked.
final class AppWindow {
    let connection: OverlayDisplay
    let window: Window

    init(_ name: String, x: Int, y: Int, width: Int, height: Int) throws {
        connection = try OverlayDisplay(name: name)  // Xlib set up as the overlay has it; survives a lost server
        let display = connection.display
        var a = XSetWindowAttributes()
        a.background_pixel = XWhitePixel(display, connection.screen)
        a.event_mask = ButtonPressMask
        window = XCreateWindow(display, connection.root, Int32(x), Int32(y), UInt32(width), UInt32(height), 0,
                               connection.depth, UInt32(InputOutput), connection.visual, UInt(CWBackPixel | CWEventMask), &a)
        XMapWindow(display, window)
        connection.sync()
    }

    /// Button presses received so far (waits up to `timeout` for the first).
    func presses(timeout: Double = 2) -> [(x: Int, y: Int)] {
        var found: [(Int, Int)] = []
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            while !connection.isDead && XPending(connection.display) > 0 {
                var e = XEvent()
                XNextEvent(connection.display, &e)
                if e.type == ButtonPress { found.append((Int(e.xbutton.x), Int(e.xbutton.y))) }
            }
            if !found.isEmpty { break }
            usleep(10_000)
        } while Date() < deadline
        return found
    }
}
