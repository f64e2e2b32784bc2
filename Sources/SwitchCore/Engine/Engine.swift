/// PLACEHOLDER with the final public interface; the real engine replaces this file.
public struct Engine: Sendable {
    public private(set) var model: ScanModel
    public init(tree: ElementTree, profile: Profile, devices: [DeviceDescription]) {
        model = ScanModel(tree: tree)
    }
    public init(tree: ElementTree, profile: Profile, devices: [DeviceDescription?]) {
        model = ScanModel(tree: tree)
    }
    /// Starts scanning at t (scan started + first highlight, when the profile scans).
    public mutating func start(at t: Instant) -> [TranscriptLine] { [] }
    /// One input frame from `devices[device]`; timers due at or before the frame's time fire first.
    public mutating func handle(frame: InputFrame, device: Int) -> [TranscriptLine] { [] }
    /// Fires every timer due at or before t.
    public mutating func advance(to t: Instant) -> [TranscriptLine] { [] }
    /// The earliest pending timer (arm the timerfd there); nil when nothing is pending.
    public mutating func nextDeadline() -> Instant? { nil }
    /// A device went away at t: its pressed keys are released and its contacts end, cleanly.
    public mutating func deviceRemoved(_ device: Int, at t: Instant) -> [TranscriptLine] { [] }
    /// A device came back (same index), possibly with a new description.
    public mutating func deviceAdded(_ device: Int, _ description: DeviceDescription, at t: Instant) -> [TranscriptLine] { [] }
    /// A new tree (layout change) at t.
    public mutating func loadLayout(_ tree: ElementTree, at t: Instant) -> [TranscriptLine] { [] }
}
