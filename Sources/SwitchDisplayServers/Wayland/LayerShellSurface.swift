import SwitchDisplay

/// The seam's overlay surface on a compositor with the layer shell (wlroots, KWin): the overlay's
/// calls kept as one scene (`OverlaySceneBuilder`), drawn whole by `LayerShellOverlay` (cairo,
/// Pango) on `flush` when it changed; text measured by the same Pango layouts the scene is drawn
/// with, in DejaVu Sans.
///
///     show / hide / close   the builder's scene changes (nothing is sent yet)
///     flush                 the scene, if it changed, on every output's layer surface; the
///                           connection flushed
///     sync                  flush, then the loop's two steps until every surface shows it and
///                           the compositor answered a round trip (tests, the benchmark)
///
/// The connection is read by the backend's loop adapter (`WaylandDriver`), so the surface gives
/// the loop no descriptor of its own. Once the compositor is gone nothing is drawn, and
/// `isConnected` says so.
public final class LayerShellSurface: OverlaySurface {
    public let connection: WaylandConnection
    public let layer: LayerShellOverlay
    private var builder = OverlaySceneBuilder()
    private let compositorName: String
    /// Font metrics by pixel size (Pango lays out "Ag" once per size).
    private var metrics: [Int: FontMetrics] = [:]

    /// The layer shell on `connection`, every output's surface configured before this returns
    /// (at most `timeout` s: `bounds` and the first scene need them). `compositor` names the
    /// compositor in notes ("sway").
    public init(connection: WaylandConnection, compositor: String, timeout: Double = 5) throws(OverlayError) {
        self.connection = connection
        compositorName = compositor
        do {
            layer = try LayerShellOverlay(connection: connection)
            try connection.wait(timeout: timeout, for: "the overlay's surfaces") {
                !layer.configuredOutputs.isEmpty && layer.configuredOutputs.count == connection.outputs.count
            }
        } catch {
            throw OverlayError("--show: the overlay cannot be drawn on \(compositor): \(error)")
        }
    }

    public var name: String { "\(compositorName) (Wayland \(WaylandSocketName.of(connection.socketPath)), layer shell)" }
    public var server: String { "the Wayland compositor \(compositorName)" }

    public var bounds: PixelRect {
        let b = connection.layoutBounds
        return PixelRect(x: b.x, y: b.y, width: b.width, height: b.height)
    }

    public var isConnected: Bool { connection.failure == nil }
    public var fileDescriptor: Int32? { nil }
    public func drain() {}

    public func flush() {
        guard isConnected else { return }
        if let scene = builder.takeScene() { layer.show(scene) }
        connection.flush()
    }

    public func sync() {
        flush()
        try? connection.wait(timeout: 5, for: "the overlay drawn") { layer.isUpToDate }
        try? connection.roundtrip()
    }

    public func fontMetrics(pixelSize: Int) -> FontMetrics? {
        if let m = metrics[pixelSize] { return m }
        let (ascent, descent) = layer.renderer.lineMetrics(size: Double(pixelSize))
        guard ascent > 0 else { return nil }
        let m = FontMetrics(ascent: ascent, descent: descent)
        metrics[pixelSize] = m
        return m
    }

    public func textWidth(_ text: String, pixelSize: Int) -> Int {
        layer.textSize(text, size: Double(pixelSize)).width
    }

    public func show(_ part: OverlayPart, _ content: OverlayContent) { builder.show(part, content) }
    public func hide(_ part: OverlayPart) { builder.hide(part) }

    public func close() {
        builder.close()
        flush()
    }

    /// The scene shown now (tests).
    public var scene: OverlayScene { builder.scene }
}

/// "wayland-1" of "/run/user/1000/wayland-1".
enum WaylandSocketName {
    static func of(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
