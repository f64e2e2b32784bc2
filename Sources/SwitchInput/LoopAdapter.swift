import SwitchCore

/// A shell module the live loop drives besides the input devices (swift-nio's shape: adapters
/// around one loop). Where the tree comes from (AT-SPI), how a perform is carried out (uinput,
/// AT-SPI, XTest) and how a highlight is presented (overlay, speech) are adapters; each keeps
/// its C library to itself. Everything happens on the loop's one thread, in this order per wakeup:
///
///     prepare ─→ (one epoll wait over devices, timerfd, signals and every adapter's fds) ─→
///     devices' frames to the engine ─→ dispatch (adapters whose fds are ready or whose deadline
///     passed) ─→ the inputs they return to the engine ─→ observe (every transcript line)
///
/// An adapter never reads the engine's clock: the loop hands it CLOCK_MONOTONIC microseconds.
public protocol LoopAdapter: AnyObject {
    /// A short name for notes on stderr ("desktop", "overlay", "speech", "inject").
    var name: String { get }

    /// Before every wait: the descriptors to watch now and the CLOCK_MONOTONIC time (µs) by which
    /// `dispatch` must run even if none of them is ready. The set may change from one call to the
    /// next (GLib's does: `g_main_context_query`); the loop registers only the differences.
    func prepare(nowMonotonic: Int64) -> LoopInterest

    /// After a wait in which one of its descriptors was ready (`ready` holds those, with the
    /// poll(2) bits that came back) or its deadline passed (`ready` may then be empty).
    func dispatch(ready: [LoopFD], nowMonotonic: Int64) -> [ShellInput]

    /// Every transcript line, in order, right after it is written, with the model the engine
    /// scans at that moment (ids resolve in it). Presenters draw or speak; performers act and
    /// may answer with inputs (a result line for the transcript).
    func observe(_ line: TranscriptLine, model: ScanModel) -> [ShellInput]

    /// Touch passthrough's feedback (a hold countdown started or ended at a finger); frames for
    /// the virtual touchscreen are not sent here.
    func observeTouch(_ output: TouchOutput)

    /// The engine took a new tree (any adapter's `.layout`, SIGHUP). A highlight that stays on the
    /// same id writes no line, but its frame may have moved: presenters redraw here.
    func layoutChanged(model: ScanModel)

    /// The loop ends (any way out): release windows, connections, grabs.
    func finish()

    /// Once, before the first line: the CLOCK_MONOTONIC time (µs) of the engine's t = 0, so an
    /// adapter can turn a line's instant into a deadline (the overlay animates a sweep between
    /// its lines).
    func engineStarted(atMonotonic: Int64)
}

extension LoopAdapter {
    public func prepare(nowMonotonic: Int64) -> LoopInterest { LoopInterest() }
    public func dispatch(ready: [LoopFD], nowMonotonic: Int64) -> [ShellInput] { [] }
    public func observe(_ line: TranscriptLine, model: ScanModel) -> [ShellInput] { [] }
    public func observeTouch(_ output: TouchOutput) {}
    public func layoutChanged(model: ScanModel) {}
    public func finish() {}
    public func engineStarted(atMonotonic: Int64) {}
}

/// A descriptor and poll(2) event bits: asked for in `prepare`, returned (as `revents`) in
/// `dispatch`. The values are poll(2)'s (POLLIN 0x1, POLLPRI 0x2, POLLOUT 0x4, POLLERR 0x8,
/// POLLHUP 0x10), which epoll shares.
public struct LoopFD: Hashable, Sendable {
    public var fd: Int32
    public var events: UInt32

    public init(fd: Int32, events: UInt32) {
        self.fd = fd
        self.events = events
    }

    public static let readable: UInt32 = 0x001
    public static let writable: UInt32 = 0x004
}

/// What an adapter wants watched before the next wait.
public struct LoopInterest: Equatable, Sendable {
    public var fds: [LoopFD]
    /// CLOCK_MONOTONIC µs; nil: no deadline.
    public var deadline: Int64?

    public init(fds: [LoopFD] = [], deadline: Int64? = nil) {
        self.fds = fds
        self.deadline = deadline
    }
}

/// What an adapter tells the loop. The loop applies inputs at the instant of the wakeup, in the
/// order given.
public enum ShellInput: Sendable {
    /// A new tree: a layout change for the engine (the highlight stays on the same id when it is
    /// still there).
    case layout(ElementTree)
    /// A line the shell adds to the transcript at this instant (e.g. a perform's result).
    case line(TranscriptEvent)
    /// A note for stderr.
    case log(String)
    /// Speech finished (spoken to its end, or cancelled) the `utterance`-th `speak` line of the
    /// transcript, counted from 0: speech-paced scanning's input (`Engine.speechFinished`).
    case speechFinished(utterance: Int)
    /// The live desktop's windows (issue 19): every window but the one scanned, most recently used
    /// first, and the one scanned (`Engine.windowsChanged`: the Windows page).
    case windows([WindowEntry], current: WindowEntry?)
    /// The field the keyboard types into, read back: its text before and after the caret
    /// (`Engine.fieldText`, docs/typing.md).
    case fieldText(before: String, after: String?)
    /// What has the keyboard focus on the live desktop (nil: nothing known): the scanner menu's
    /// Keyboard entry opens the keyboard for it (`Engine.keyboardFocusChanged`, issue 18).
    case keyboardFocus(KeyboardFocus?)
    /// The adapter's work is done (`switchscan setup` finished or gave up): the loop ends after
    /// this wakeup, as at `until` (`LiveRunner.Ending.requested`).
    case end
    /// Something the run cannot go on without is gone (the Wayland compositor the desktop is
    /// driven through): the loop ends at this wakeup, every grab released and every adapter
    /// finished, and `run` returns `.failed` with this reason (a non-zero exit).
    case fatal(String)
}
