import SwitchCore
import SwitchDisplay

/// What the overlay draws for issue 11's scanning methods, as pure functions of the transcript's
/// events and the virtual clock (tested without X; `Overlay` puts the results in windows).
///
/// Point scanning (`PointPicture`): each sweep line starts a step; a step clears every later one.
///
///     step     drawn                                          the moving part
///     xBand    the band's two long edges (outlined band)      band, at position(t)
///     xLine    the band (the line's range) + a vertical line  line, at position(t)
///     yBand    the fixed x line + a horizontal band           band
///     yLine    the fixed x line + the band + a horizontal line line
///     point    a crosshair at the point (and the point's menu, by `Overlay`)
///     menu closed, mode, scan stopped, a highlight of an item or group: nothing
///
/// Between two sweep lines a band or line moves linearly (the transcript's `from → to in d`), so
/// the overlay redraws it by itself: `nextFrame(after:)` is the instant its pixel position next
/// changes, at most `frameRate` times a second, and nil once it rests (no timer while nothing
/// moves).
///
/// Group selection (`ColorGroupPicture`): each colour's items ringed at once in that colour (a
/// ring just outside each frame, as the cursor's), a 1-px black edge around every ring so light
/// colours show on light windows, and a "Back" tab in the colour that holds back.
public struct PointPicture: Equatable, Sendable {
    /// A sweep as the transcript gave it, and when its line was written.
    public struct Motion: Equatable, Sendable {
        public var sweep: Sweep
        public var start: Instant

        /// Where the band's leading edge or the line is at `t` (clamped to the leg).
        public func position(at t: Instant) -> Double {
            switch sweep.motion {
            case .stopped(let at):
                return at
            case .moving(let from, let to, let d):
                guard d.microseconds > 0 else { return to }
                let elapsed = min(max(t.microseconds - start.microseconds, 0), d.microseconds)
                return from + (to - from) * Double(elapsed) / Double(d.microseconds)
            }
        }

        /// The range the band or line covers along its axis over the whole leg.
        var range: (lo: Double, hi: Double) {
            switch sweep.motion {
            case .stopped(let at): return (at, at + sweep.width)
            case .moving(let from, let to, _): return (min(from, to), max(from, to) + sweep.width)
            }
        }
    }

    enum Step: Int, CaseIterable { case xBand, xLine, yBand, yLine }

    /// The four steps' latest sweeps (index: `Step`).
    public private(set) var steps: [Motion?] = [nil, nil, nil, nil]
    /// The chosen point (its crosshair), until the menu closes.
    public private(set) var point: Point?

    public init() {}

    public var isEmpty: Bool { point == nil && steps.allSatisfy { $0 == nil } }

    /// Takes one transcript event written at `t`; true when the picture changed.
    public mutating func take(_ event: TranscriptEvent, at t: Instant) -> Bool {
        switch event {
        case .sweep(let s):
            let step: Step = s.axis == .x ? (s.kind == .band ? .xBand : .xLine) : (s.kind == .band ? .yBand : .yLine)
            for later in Step.allCases where later.rawValue > step.rawValue { steps[later.rawValue] = nil }
            steps[step.rawValue] = Motion(sweep: s, start: t)
            point = nil
        case .point(let p, _, _), .pointMenuOpened(let p, _, _, _, _):
            steps = [nil, nil, nil, nil]
            point = p
        case .menuClosed, .mode, .scan(started: false), .scanStopped:
            guard !isEmpty else { return false }
            self = PointPicture()
        case .highlight(_, let kind, _) where kind != .menuItem:
            guard !isEmpty else { return false }
            self = PointPicture()
        default:
            return false
        }
        return true
    }

    /// The step that moves now (the latest one).
    private var current: (step: Step, motion: Motion)? {
        for step in Step.allCases.reversed() { if let m = steps[step.rawValue] { return (step, m) } }
        return nil
    }

    /// The pieces to draw at `t`, in screen pixels; `screen` is the scanned screen (the tree's).
    public func shapes(at t: Instant, screen: PixelRect, large: Bool) -> PointShapes {
        var out = PointShapes()
        let lw = PointShapes.lineWidth(large: large)
        if let p = point {
            out.crosshair = PointShapes.crosshair(at: p, large: large)  // may reach off the screen: X clips it
        }
        guard let (step, m) = current else { return out }
        switch step {
        case .xBand, .yBand:
            let pos = m.position(at: t)
            out.band = PointShapes.band(m.sweep.axis, lo: pos, hi: pos + m.sweep.width, screen: screen)
        case .xLine, .yLine:
            let r = m.range
            out.band = PointShapes.band(m.sweep.axis, lo: r.lo, hi: r.hi, screen: screen)
        }
        if step == .xLine {
            out.lineX = PointShapes.line(.x, at: m.position(at: t), width: lw, screen: screen)
        } else if step.rawValue >= Step.yBand.rawValue, let x = steps[Step.xLine.rawValue] {
            out.lineX = PointShapes.line(.x, at: x.position(at: t), width: lw, screen: screen)
        }
        if step == .yLine { out.lineY = PointShapes.line(.y, at: m.position(at: t), width: lw, screen: screen) }
        out.bandAxis = m.sweep.axis
        return out
    }

    /// The overlay's redraw rate while something moves (one frame of a 60 Hz screen).
    public static let frameInterval = Interval(microseconds: 16_667)

    /// When the moving band or line next reaches another whole pixel after `t` (at least
    /// `frameInterval` after `t`, and the leg's end at the latest); nil when nothing moves.
    public func nextFrame(after t: Instant) -> Instant? {
        guard let (_, m) = current, case .moving(let from, let to, let d) = m.sweep.motion, from != to else { return nil }
        let end = m.start + d
        guard t < end else { return nil }
        let p = m.position(at: t)
        let target = to > from ? p.rounded(.down) + 1 : p.rounded(.up) - 1
        let fraction = (target - from) / (to - from)
        var next = Instant(microseconds: m.start.microseconds + Int64((fraction * Double(d.microseconds)).rounded(.up)))
        next = min(max(next, t + Interval(microseconds: 1)), end)
        return max(next, min(t + Self.frameInterval, end))
    }
}

/// Point scanning's pieces in screen pixels (each a window of its own in `Overlay`).
public struct PointShapes: Equatable, Sendable {
    /// The band's area (full screen height for x, full width for y); drawn as its two long edges.
    public var band: PixelRect?
    public var bandAxis: Sweep.Axis = .x
    public var lineX: PixelRect?
    public var lineY: PixelRect?
    /// The crosshair's bounds (arms in `crosshairArms`).
    public var crosshair: PixelRect?

    public static func lineWidth(large: Bool) -> Int { large ? 4 : 2 }
    /// Crosshair arms: `arm` px from the point, a gap of `gap` px around it (the point itself
    /// stays visible).
    static func arm(large: Bool) -> Int { large ? 30 : 20 }
    static let gap = 3

    static func band(_ axis: Sweep.Axis, lo: Double, hi: Double, screen: PixelRect) -> PixelRect? {
        let a = Int(saturating: lo.rounded(.down)), b = max(a + 1, Int(saturating: hi.rounded(.up)))
        let r = axis == .x ? PixelRect(x: a, y: screen.y, width: b - a, height: screen.height)
                           : PixelRect(x: screen.x, y: a, width: screen.width, height: b - a)
        let c = r.intersection(screen)
        return c.isEmpty ? nil : c
    }

    /// A line at `position` along `axis`, `width` px thick, centred on the position's pixel
    /// (width 2: the pixels position − 1 and position).
    static func line(_ axis: Sweep.Axis, at position: Double, width: Int, screen: PixelRect) -> PixelRect? {
        let a = Int(saturating: position.rounded(.down)) - width / 2
        let r = axis == .x ? PixelRect(x: a, y: screen.y, width: width, height: screen.height)
                           : PixelRect(x: screen.x, y: a, width: screen.width, height: width)
        let c = r.intersection(screen)
        return c.isEmpty ? nil : c
    }

    static func crosshair(at p: Point, large: Bool) -> PixelRect {
        let px = Int(saturating: p.x.rounded(.down)), py = Int(saturating: p.y.rounded(.down)), a = arm(large: large)
        return PixelRect(x: px - a, y: py - a, width: 2 * a + 1, height: 2 * a + 1)
    }

    /// The band's two long edges, `t` px each, relative to a window of the band's size.
    public static func bandEdges(width w: Int, height h: Int, axis: Sweep.Axis, thickness t: Int) -> [PixelRect] {
        if axis == .x {
            let e = min(t, max(1, w / 2))
            return [PixelRect(x: 0, y: 0, width: e, height: h), PixelRect(x: w - e, y: 0, width: e, height: h)]
        }
        let e = min(t, max(1, h / 2))
        return [PixelRect(x: 0, y: 0, width: w, height: e), PixelRect(x: 0, y: h - e, width: w, height: e)]
    }

    /// The crosshair's four arms relative to a window of `crosshair(at:)`'s size (centre at
    /// (arm, arm)).
    public static func crosshairArms(large: Bool) -> [PixelRect] {
        let a = arm(large: large), lw = lineWidth(large: large), g = gap
        let half = lw / 2
        return [PixelRect(x: 0, y: a - half, width: a - g, height: lw),                  // left
                PixelRect(x: a + g + 1, y: a - half, width: a - g, height: lw),          // right
                PixelRect(x: a - half, y: 0, width: lw, height: a - g),                  // up
                PixelRect(x: a - half, y: a + g + 1, width: lw, height: a - g)]          // down
    }
}

/// Group selection's colours: what each colour holds, ringed.
public struct ColorGroupPicture: Equatable, Sendable {
    public struct Group: Equatable, Sendable {
        /// The engine's name ("blue") and the colour drawn.
        public var name: String
        public var color: CursorColor
        /// The rings' outer bounds, one per item with a frame on the screen.
        public var rings: [PixelRect]
        public var back: Bool
    }

    public var groups: [Group]

    /// The engine's colour names (`ColorGroups.colorNames`: Android's blue, red, green, white,
    /// orange, then purple) drawn in the Okabe–Ito palette (Okabe & Ito 2008, "Color Universal
    /// Design"), told apart with every common colour-vision deficiency: blue #0072B2, vermillion
    /// #D55E00, bluish green #009E73, white (with the black edge), orange #E69F00, reddish purple
    /// #CC79A7.
    public static let palette: [String: CursorColor] = [
        "blue": CursorColor(red: 0x00, green: 0x72, blue: 0xB2),
        "red": CursorColor(red: 0xD5, green: 0x5E, blue: 0x00),
        "green": CursorColor(red: 0x00, green: 0x9E, blue: 0x73),
        "white": CursorColor(red: 0xFF, green: 0xFF, blue: 0xFF),
        "orange": CursorColor(red: 0xE6, green: 0x9F, blue: 0x00),
        "purple": CursorColor(red: 0xCC, green: 0x79, blue: 0xA7),
    ]

    public static func color(named name: String) -> CursorColor {
        palette[name] ?? CursorColor(parsing: name) ?? .blue
    }

    /// `frame(id)`: an item's frame in screen pixels (nil: not drawn).
    public init(_ lines: [ColorGroupLine], thickness t: Int, screen: PixelRect, frame: (String) -> PixelRect?) {
        groups = lines.map { line in
            Group(name: line.color, color: Self.color(named: line.color),
                  rings: line.ids.compactMap { frame($0).flatMap { OverlayGeometry.ringBounds(frame: $0, thickness: t, screen: screen) } },
                  back: line.back)
        }
    }

    /// One window for a colour: the rings' bounding box, and each ring's four strips relative to it.
    public static func shape(rings: [PixelRect], thickness t: Int) -> (bounds: PixelRect, rects: [PixelRect])? {
        guard let first = rings.first else { return nil }
        var x0 = first.x, y0 = first.y, x1 = first.maxX, y1 = first.maxY
        for r in rings.dropFirst() { x0 = min(x0, r.x); y0 = min(y0, r.y); x1 = max(x1, r.maxX); y1 = max(y1, r.maxY) }
        var rects: [PixelRect] = []
        for r in rings {
            for s in OverlayGeometry.ring(width: r.width, height: r.height, thickness: t, style: .solid) {
                rects.append(PixelRect(x: s.x + r.x - x0, y: s.y + r.y - y0, width: s.width, height: s.height))
            }
        }
        return (PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), rects)
    }

    /// The black edge: every ring grown by one pixel outward (drawn under the colours, so only
    /// its outermost pixel shows).
    public var edgeRings: [PixelRect] { groups.flatMap(\.rings).map { $0.insetBy(-1) } }

    /// Where the "Back" tab goes: above the top-left corner of everything ringed (nil: no ring).
    public var ringedBounds: PixelRect? {
        Self.shape(rings: groups.flatMap(\.rings), thickness: 1)?.bounds
    }
}
