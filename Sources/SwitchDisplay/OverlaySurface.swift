import SwitchCore

/// Where the overlay draws (`run --show`): the highlight and its panels over every window,
/// never taking a click. The overlay's logic (SwitchOverlay: which ring, panel or line goes where
/// for each transcript line) decides everything and hands the surface finished parts; the surface
/// only puts them on the screen: X11 windows, a Wayland layer-shell surface drawn with cairo
/// (through `OverlaySceneBuilder`), or the GNOME Shell extension drawing the scene's JSON.
///
///     show(part, content)   the part drawn as `content`, above every other part (shown again:
///                           raised again, redrawn only where the content changed)
///     hide(part)            the part gone (hidden already: nothing)
///     close()               every part gone, for good (the end of a run)
///
/// Everything is in the desktop's logical pixels (`bounds`). Text is measured here too (a panel's
/// size depends on its words), in the font every part is drawn in ("DejaVu Sans").
public protocol OverlaySurface: AnyObject {
    /// Where it draws, as the notes say it ("X display :0").
    var name: String { get }
    /// What serves it, as a note says it went away ("the X server :0").
    var server: String { get }
    /// The whole desktop.
    var bounds: PixelRect { get }
    /// False once the server went away (everything after that does nothing).
    var isConnected: Bool { get }

    /// A descriptor the loop watches (readable when the server wrote or hung up), if any.
    var fileDescriptor: Int32? { get }
    /// Takes whatever the server sent (after the descriptor was readable).
    func drain()
    /// Sends what was asked so far.
    func flush()
    /// Waits until the server has drawn everything asked so far (tests, the benchmark).
    func sync()

    /// The font's metrics at `pixelSize` (nil: no such font).
    func fontMetrics(pixelSize: Int) -> FontMetrics?
    /// How far `text` advances at `pixelSize`, in pixels.
    func textWidth(_ text: String, pixelSize: Int) -> Int

    func show(_ part: OverlayPart, _ content: OverlayContent)
    func hide(_ part: OverlayPart)
    func close()
}

/// A font's vertical metrics, in pixels: a line of text is `ascent + descent` high, its baseline
/// `ascent` below its top.
public struct FontMetrics: Equatable, Sendable {
    public var ascent: Int
    public var descent: Int

    public init(ascent: Int, descent: Int) {
        self.ascent = ascent
        self.descent = descent
    }
}

/// The overlay's parts, each drawn on its own and shown, moved or hidden by itself. The order of
/// `fixed` is the order they come into being (a part shown later is drawn over earlier ones).
public enum OverlayPart: Hashable, Sendable, CustomStringConvertible {
    /// The cursor: a solid ring around an item, a dashed one around a group.
    case ring
    /// "Exit group" above a group's escape stop.
    case exitTab
    /// A web page's part out of view: the tab at the viewport's edge.
    case offscreenTab
    /// The scanner menu's panel.
    case menu
    /// Point scanning: the band's edges, the x and y lines, the crosshair.
    case pointBand, pointLineX, pointLineY, crosshair
    /// Group selection: the black edge under the colour rings, each colour's rings (0 first),
    /// and the "Back" tab.
    case colorEdge
    case colorGroup(Int)
    case backTab
    /// The scanning keyboard's panel.
    case keyboard
    /// Touch passthrough's hold countdown: the whole circle's thin track, and the arc over it.
    case countdownTrack, countdownArc

    /// Every part but the colour groups (whose number grows with the colours shown).
    public static let fixed: [OverlayPart] = [.ring, .exitTab, .offscreenTab, .menu, .pointBand, .pointLineX, .pointLineY, .crosshair,
                                               .colorEdge, .backTab, .keyboard, .countdownTrack, .countdownArc]

    public var description: String {
        switch self {
        case .ring: return "highlight"
        case .exitTab: return "exit group"
        case .offscreenTab: return "out of view"
        case .menu: return "menu"
        case .pointBand: return "point band"
        case .pointLineX: return "point line x"
        case .pointLineY: return "point line y"
        case .crosshair: return "point"
        case .colorEdge: return "colour edges"
        case .colorGroup(let k): return "colour \(k + 1)"
        case .backTab: return "back"
        case .keyboard: return "keyboard"
        case .countdownTrack: return "hold countdown track"
        case .countdownArc: return "hold countdown"
        }
    }
}

/// What a part shows.
public enum OverlayContent: Equatable, Sendable {
    /// `color` over `pieces` (relative to `frame`; nil: all of `frame`) and nothing elsewhere: a
    /// ring's strips or dashes, a band's edges, a line, the crosshair's arms, colour rings.
    case pieces(frame: PixelRect, pieces: [PixelRect]?, color: CursorColor)
    /// An arc of a ring (`OverlayArc`): the hold countdown.
    case arc(OverlayArc)
    /// An opaque rectangle drawn from `shapes` (relative to `frame`, in order): a panel of text
    /// rows, the keyboard. No pie or dash in it (none of the panels has one).
    case panel(frame: PixelRect, shapes: [OverlayScene.Shape])

    /// Where it is on the screen.
    public var frame: PixelRect {
        switch self {
        case .pieces(let frame, _, _), .panel(let frame, _): return frame
        case .arc(let a): return a.frame
        }
    }
}

/// A ring of outer radius `radius` around the centre pixel `center`, `thickness` wide, drawn from
/// 12 o'clock clockwise over `sweepDegrees` (360: the whole ring).
public struct OverlayArc: Equatable, Sendable {
    public var centerX: Int
    public var centerY: Int
    public var radius: Int
    public var thickness: Int
    public var sweepDegrees: Int
    public var color: CursorColor

    public init(centerX: Int, centerY: Int, radius: Int, thickness: Int, sweepDegrees: Int, color: CursorColor) {
        self.centerX = centerX
        self.centerY = centerY
        self.radius = radius
        self.thickness = thickness
        self.sweepDegrees = sweepDegrees
        self.color = color
    }

    /// The square the whole ring fits in (2r + 1 pixels a side).
    public var frame: PixelRect {
        PixelRect(x: centerX - radius, y: centerY - radius, width: 2 * radius + 1, height: 2 * radius + 1)
    }
}

extension CursorColor {
    /// The panels' ground and ink (and the edges that make light colours show).
    public static let white = CursorColor(red: 255, green: 255, blue: 255)
    public static let black = CursorColor(red: 0, green: 0, blue: 0)
}

extension SceneColor {
    /// The cursor colour `c`, opaque.
    public init(_ c: CursorColor) {
        self.init(red: c.red, green: c.green, blue: c.blue)
    }

    /// The colour without its alpha.
    public var cursorColor: CursorColor { CursorColor(red: red, green: green, blue: blue) }
}

extension OverlayScene.RectShape {
    /// `r` filled with `fill`.
    public init(_ r: PixelRect, fill: SceneColor) {
        self.init(x: Double(r.x), y: Double(r.y), w: Double(r.width), h: Double(r.height), fill: fill)
    }
}

extension OverlayScene.Shape {
    /// The same shape moved by (dx, dy).
    public func offsetBy(_ dx: Int, _ dy: Int) -> OverlayScene.Shape {
        switch self {
        case .rect(var r):
            r.x += Double(dx)
            r.y += Double(dy)
            return .rect(r)
        case .text(var t):
            t.x += Double(dx)
            t.y += Double(dy)
            return .text(t)
        case .pie(var p):
            p.cx += Double(dx)
            p.cy += Double(dy)
            return .pie(p)
        }
    }
}
