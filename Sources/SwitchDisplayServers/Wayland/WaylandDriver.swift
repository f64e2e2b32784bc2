import SwitchInput

/// The live loop's adapter for a Wayland backend (the backend's `driver`): it keeps the one
/// compositor connection read (libwayland's prepare / read / dispatch, `WaylandConnection`), and
/// the compositor's other sockets with it (sway's event socket: `sources`), in the loop's one
/// epoll wait; no thread. When the compositor goes away it ends the run with a clear message
/// (`ShellInput.fatal`): the overlay, the pointer and the keys are gone with it, and a switch
/// user must not be left pressing at nothing.
///
///     attach(connection, sources)   the backend opened its connection (at the first use of a part)
///     prepare    connection.prepare (its socket, writable too while requests wait) + each source
///     dispatch   connection.dispatch; each ready source read ─→ a failure: fatal, once;
///                the periodic look (`attach(every:poll:)`) when its time came
///     the connection lost (hang-up, protocol error) ─→ fatal, once; nothing watched after
public final class WaylandDriver: LoopAdapter {
    /// Another socket of the compositor, read in the same turn: `read` takes what came and says
    /// why it failed when the server hung up.
    public struct Source {
        public var fd: Int32
        public var read: () -> String?

        public init(fd: Int32, read: @escaping () -> String?) {
            self.fd = fd
            self.read = read
        }
    }

    public let name = "wayland"
    /// "sway": the compositor as the fatal message names it.
    private let compositor: String
    public private(set) var connection: WaylandConnection?
    private var sources: [Source] = []
    /// Said once (the loop ends at that wakeup).
    private var reported = false

    public init(compositor: String) {
        self.compositor = compositor
    }

    /// The backend opened its connection: drive it (and `sources`) from now on.
    public func attach(_ connection: WaylandConnection, sources: [Source] = [], every interval: Int64? = nil, poll: (() -> Void)? = nil) {
        self.connection = connection
        self.sources = sources
        if let interval, let poll { periodic = (interval, poll) }
    }

    /// Something to look at every so often (µs), for what the compositor does not tell (sway 1.7:
    /// a floating window moved).
    private var periodic: (interval: Int64, run: () -> Void)?
    private var nextPoll: Int64?

    public func prepare(nowMonotonic: Int64) -> LoopInterest {
        guard let connection, !reported else { return LoopInterest() }
        var interest = connection.prepare()
        if connection.failure != nil {
            // Lost while preparing (a flush that failed): dispatch at once to say so.
            interest.deadline = nowMonotonic
            return interest
        }
        for s in sources { interest.fds.append(LoopFD(fd: s.fd, events: LoopFD.readable)) }
        if let p = periodic {
            let at = nextPoll ?? nowMonotonic + p.interval
            nextPoll = at
            interest.deadline = at
        }
        return interest
    }

    public func dispatch(ready: [LoopFD], nowMonotonic: Int64) -> [ShellInput] {
        guard let connection, !reported else { return [] }
        connection.dispatch(ready: ready)
        var why = connection.failure.map(\.description)
        for s in sources where why == nil && ready.contains(where: { $0.fd == s.fd }) {
            why = s.read()
        }
        if why == nil, let p = periodic, let at = nextPoll, at <= nowMonotonic {
            nextPoll = nowMonotonic + p.interval
            p.run()
        }
        guard let why else { return [] }
        reported = true
        return [.fatal(DriverNotes.wentAway("the Wayland compositor \(compositor)", why))]
    }

    public func finish() {
        connection?.flush()
    }
}
