import Glibc
import SwitchCore

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

    private let arc: OverlayWindow
    private let track: OverlayWindow
    /// The track's pieces: the same whole circle for every countdown, made once.
    private let trackShape: [PixelRect]
    /// The countdowns running: contact → (where, from, until), in the order they started.
    private var running: [(device: Int, contact: Int, at: Point, from: Instant, until: Instant)] = []
    private var drawnSweep: Int?

    init(_ connection: OverlayDisplay, color: CursorColor, large: Bool) {
        radius = large ? 48 : 32
        thickness = large ? 10 : 7
        trackShape = Self.ring(radius: radius, thickness: 2, sweepDegrees: 360)
        track = OverlayWindow(connection, name: "switchscan hold countdown track", background: connection.pixel(.black))
        arc = OverlayWindow(connection, name: "switchscan hold countdown", background: connection.pixel(color))
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

    /// Draws the latest countdown as of `now` (or hides both windows).
    func draw(at now: Instant, screen: PixelRect) {
        guard let c = running.last else {
            arc.hide()
            track.hide()
            drawnSweep = nil
            return
        }
        let span = Double(max(c.until.microseconds - c.from.microseconds, 1))
        let progress = min(max(Double(now.microseconds - c.from.microseconds) / span, 0), 1)
        // Whole degrees: the shape changes (and is sent to the server) at most 360 times.
        let sweep = Int((progress * 360).rounded(.down))
        let size = 2 * radius + 1
        let origin = PixelRect(x: Int(c.at.x.rounded()) - radius, y: Int(c.at.y.rounded()) - radius, width: size, height: size)
        guard origin.intersection(screen).width > 0 else { return }
        track.place(origin, shape: trackShape)
        track.show()
        if sweep != drawnSweep {
            drawnSweep = sweep
            let pieces = Self.ring(radius: radius, thickness: thickness, sweepDegrees: sweep)
            if pieces.isEmpty {
                arc.hide()
            } else {
                arc.place(origin, shape: pieces)
                arc.show()
            }
        }
    }

    func destroy() {
        arc.destroy()
        track.destroy()
    }

    /// The pixels of a ring of outer radius `radius` (centre at (radius, radius)) between
    /// 12 o'clock and `sweepDegrees` clockwise, as one rectangle per run of pixels in a row.
    static func ring(radius: Int, thickness: Int, sweepDegrees: Int) -> [PixelRect] {
        guard sweepDegrees > 0 else { return [] }
        let outer = Double(radius) + 0.5, inner = Double(radius - thickness) + 0.5
        var rects: [PixelRect] = []
        for y in 0...(2 * radius) {
            var start: Int?
            for x in 0...(2 * radius + 1) {
                var inside = false
                if x <= 2 * radius {
                    let dx = Double(x - radius), dy = Double(y - radius)
                    let d = (dx * dx + dy * dy).squareRoot()
                    if d <= outer && d > inner {
                        // Clockwise from 12 o'clock, in degrees 0 ..< 360 (y grows downwards).
                        var angle = atan2Degrees(dx, -dy)
                        if angle < 0 { angle += 360 }
                        inside = sweepDegrees >= 360 || angle < Double(sweepDegrees)
                    }
                }
                if inside, start == nil { start = x }
                if !inside, let s = start {
                    rects.append(PixelRect(x: s, y: y, width: x - s, height: 1))
                    start = nil
                }
            }
        }
        return rects
    }
}

/// The angle of (x, y) from the y axis towards the x axis, in degrees.
private func atan2Degrees(_ x: Double, _ y: Double) -> Double { atan2(x, y) * 180 / Double.pi }
