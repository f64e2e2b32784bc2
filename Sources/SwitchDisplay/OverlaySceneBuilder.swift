/// The overlay surface's calls turned into one `OverlayScene`: what a surface that draws a whole
/// scene at a time keeps (the Wayland layer-shell renderer, the GNOME extension). Pure: the
/// surface calls `show`/`hide` as the overlay asks, and on `flush` draws `takeScene()` when it
/// changed.
///
///     show(part, content)   the part's shapes, moved onto the screen, last (over the others)
///     show(…) the same, already last   no change
///     hide(part)            its shapes gone
///     close()               the empty scene (which clears)
///
/// Contents become shapes: pieces are filled rects; a panel's shapes are moved by its frame; an
/// arc (the hold countdown) is the scene's pie: a part of the circle as a filled sector, the
/// whole circle (the countdown's track) as its outline, `thickness` wide (X11 draws both as
/// rings).
public struct OverlaySceneBuilder: Sendable {
    /// The parts shown, from the bottom, with what each shows.
    public private(set) var parts: [(part: OverlayPart, content: OverlayContent)] = []
    private var changed = false

    public init() {}

    public mutating func show(_ part: OverlayPart, _ content: OverlayContent) {
        if let last = parts.last, last.part == part, last.content == content { return }
        parts.removeAll { $0.part == part }
        parts.append((part, content))
        changed = true
    }

    public mutating func hide(_ part: OverlayPart) {
        let before = parts.count
        parts.removeAll { $0.part == part }
        if parts.count != before { changed = true }
    }

    public mutating func close() {
        parts = []
        changed = true
    }

    /// Everything shown, bottom first.
    public var scene: OverlayScene {
        OverlayScene(shapes: parts.flatMap { Self.shapes(of: $0.content) })
    }

    /// The scene when it changed since the last call, else nil.
    public mutating func takeScene() -> OverlayScene? {
        guard changed else { return nil }
        changed = false
        return scene
    }

    /// A content's shapes in screen coordinates.
    public static func shapes(of content: OverlayContent) -> [OverlayScene.Shape] {
        switch content {
        case .pieces(let frame, let pieces, let color):
            let fill = SceneColor(color)
            guard let pieces else { return [.rect(.init(frame, fill: fill))] }
            return pieces.map { .rect(.init($0.offsetBy(frame.x, frame.y), fill: fill)) }
        case .arc(let a):
            let c = SceneColor(a.color), (x, y, r) = (Double(a.centerX), Double(a.centerY), Double(a.radius))
            if a.sweepDegrees >= 360 { return [.pie(.init(cx: x, cy: y, r: r, fraction: 0, fill: c, stroke: c, lineWidth: Double(a.thickness)))] }
            guard a.sweepDegrees > 0 else { return [] }
            return [.pie(.init(cx: x, cy: y, r: r, fraction: Double(a.sweepDegrees) / 360, fill: c))]
        case .panel(let frame, let shapes):
            return shapes.map { $0.offsetBy(frame.x, frame.y) }
        }
    }
}
