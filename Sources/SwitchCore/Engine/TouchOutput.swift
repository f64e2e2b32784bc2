/// The engine's second output, besides the transcript (`Engine.takeTouchOutput`): what touch
/// passthrough writes to the virtual touchscreen of each device, and the hold countdowns a
/// presenter draws at the finger. Only the live shell uses it; `simulate` has the transcript's
/// one line per touch.
public enum TouchOutput: Sendable, Equatable {
    /// One frame for the virtual touchscreen that mirrors `devices[device]`.
    case frame(device: Int, [VirtualTouch])
    /// A finger is down at `at` (screen points); its hold duration runs from `from` to `until`.
    case countdown(device: Int, contact: Int, at: Point, from: Instant, until: Instant)
    /// That countdown is over (accepted, lifted, or the device went away).
    case countdownEnded(device: Int, contact: Int)
}
