import SwitchCore
import SwitchDisplay

/// The hold duration's countdown at the finger (touch passthrough, as iOS draws it when Hold
/// Duration is above 0.3 s): a ring centred where the finger went down, which stays there while
/// the finger wanders, and fills clockwise from 12 o'clock as the hold runs; full, the touch
/// counts. A thin black track shows the whole circle from the start, so the ring's size says how
/// far there is to go. It disappears when the touch is accepted, lifted or the device goes.
///
///     countdown #c at P from A until B      track + arc at P, the arc's sweep (t − A) / (B − A)
///     countdown #c ended                    both gone (another finger's countdown may stay)
///
/// Several fingers may count down at once; the latest one is drawn (the others are usually
/// brushes about to be rejected). Animated by the overlay's deadline, 30 times a second.
final class HoldCountdown {
    /// The ring's outer radius and thickness, in pixels (large cursor: bigger).
    let radius: Int
    let thickness: Int
    /// 30 frames a second while a countdown runs.
    static let frameInterval = Interval(microseconds: 33_333)

    private let color: CursorColor
    private let arc: SurfacePart
    private let track: SurfacePart
    /// The countdowns running: contact → (where, from, until), in the order they started.
    private var running: [(device: Int, contact: Int, at: Point, from: Instant, until: Instant)] = []
    private var drawnSweep: Int?

    init(_ surface: OverlaySurface, color: CursorColor, large: Bool) {
        radius = large ? 48 : 32
        thickness = large ? 10 : 7
        self.color = color
        track = SurfacePart(.countdownTrack, on: surface)
        arc = SurfacePart(.countdownArc, on: surface)
    }

    var isRunning: Bool { !running.isEmpty }

    /// Takes a countdown output; true when the picture changes.
    func take(_ output: TouchOutput) -> Bool {
        switch output {
        case .countdown(let device, let contact, let at, let from, let until):
            running.removeAll { $0.device == device && $0.contact == contact }
            running.append((device, contact, at, from, until))
            drawnSweep = nil
            return true
        case .countdownEnded(let device, let contact):
            let before = running.count
            running.removeAll { $0.device == device && $0.contact == contact }
            drawnSweep = nil
            return running.count != before
        case .frame:
            return false
        }
    }

    /// The next instant the arc grows by a frame, while one runs.
    func nextFrame(after now: Instant) -> Instant? {
        guard let c = running.last, now < c.until else { return nil }
        return min(now + Self.frameInterval, c.until)
    }

    /// Draws the latest countdown as of `now` (or hides both parts).
    func draw(at now: Instant, screen: PixelRect) {
        guard let c = running.last else {
            arc.hide()
            track.hide()
            drawnSweep = nil
            return
        }
        let span = Double(max(c.until.microseconds - c.from.microseconds, 1))
        let progress = min(max(Double(now.microseconds - c.from.microseconds) / span, 0), 1)
        // Whole degrees: the arc changes (and is sent to the server) at most 360 times.
        let sweep = Int((progress * 360).rounded(.down))
        let (x, y) = (Int(c.at.x.rounded()), Int(c.at.y.rounded()))
        let whole = OverlayArc(centerX: x, centerY: y, radius: radius, thickness: 2, sweepDegrees: 360, color: .black)
        guard whole.frame.intersection(screen).width > 0 else { return }
        track.show(.arc(whole))
        if sweep != drawnSweep {
            drawnSweep = sweep
            if sweep <= 0 {
                arc.hide()
            } else {
                arc.show(.arc(OverlayArc(centerX: x, centerY: y, radius: radius, thickness: thickness, sweepDegrees: sweep, color: color)))
            }
        }
    }
}
