import CX11
import Foundation

/// A private Xvfb for one test (its own display, picked by Xvfb: `-displayfd`), torn down by
/// `stop()` or when the test ends. `-br`: a black root window, so whatever a test did not draw is
/// black.
final class XvfbServer {
    let display: String
    private var pid: pid_t = 0

    init(width: Int = 800, height: Int = 600) throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw XvfbError.didNotStart }
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
        posix_spawn_file_actions_addclose(&actions, fds[0])
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
    }

    /// TERM, then KILL after 2 s; waits for it.
    func stop() {
        guard pid > 0 else { return }
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

    static var installed: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") }
}

enum XvfbError: Error { case didNotStart }

/// A plain X client window (an "application" under the overlay): a white rectangle that
/// reports the button presses it receives. There is no window manager, so it is mapped exactly
/// where asked.
final class AppWindow {
    let display: OpaquePointer
    let window: Window

    init(_ name: String, x: Int, y: Int, width: Int, height: Int) {
        display = XOpenDisplay(name)!
        let screen = cx11_default_screen(display)
        var a = XSetWindowAttributes()
        a.background_pixel = XWhitePixel(display, screen)
        a.event_mask = ButtonPressMask
        window = XCreateWindow(display, cx11_root_window(display, screen), Int32(x), Int32(y), UInt32(width), UInt32(height), 0,
                               cx11_default_depth(display, screen), UInt32(InputOutput), cx11_default_visual(display, screen),
                               UInt(CWBackPixel | CWEventMask), &a)
        XMapWindow(display, window)
        XSync(display, 0)
    }

    deinit { XCloseDisplay(display) }

    /// Button presses received so far (waits up to `timeout` for the first).
    func presses(timeout: Double = 2) -> [(x: Int, y: Int)] {
        var found: [(Int, Int)] = []
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            while XPending(display) > 0 {
                var e = XEvent()
                XNextEvent(display, &e)
                if e.type == ButtonPress { found.append((Int(e.xbutton.x), Int(e.xbutton.y))) }
            }
            if !found.isEmpty { break }
            usleep(10_000)
        } while Date() < deadline
        return found
    }
}
