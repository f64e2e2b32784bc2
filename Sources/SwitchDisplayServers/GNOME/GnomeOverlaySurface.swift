import SwitchCore
import SwitchDisplay

/// The seam's overlay surface on GNOME Shell: the overlay's calls kept as one scene
/// (`OverlaySceneBuilder`) and sent whole to switchscan's extension (`SetScene`), which paints it
/// with St in the Shell's top chrome, taking no input. Text is measured with Pango in DejaVu
/// Sans (`SceneRenderer`'s measure, as the extension lays it out with PangoCairo).
///
///     show / hide / close   the builder's scene changes (nothing is sent yet)
///     flush                 the scene, when it changed, sent (not waited for; an error is said
///                           once)
///     sync                  flush, then `Sync` waited for: the Shell has painted it
///     the extension goes    nothing sent; the scene kept
///     the extension comes back   the scene sent again whole
///     GNOME Shell goes      `isConnected` false (the overlay says so; the driver ends the run)
///
/// On a connection of its own, read by the overlay's adapter (`fileDescriptor`, `drain`).
final class GnomeOverlaySurface: OverlaySurface {
    let shell: GnomeShellConnection
    private var builder = OverlaySceneBuilder()
    private let measure = SceneRenderer()
    private var metrics: [Int: FontMetrics] = [:]
    private let desktop: () -> PixelRect
    /// A scene the extension refused, said once in the Shell's words (tests, `SWITCHSCAN_OVERLAY_TRACE`).
    private(set) var refused: String?

    /// `bounds`: the desktop's logical bounds now (the Wayland connection's outputs).
    init(shell: GnomeShellConnection, bounds: @escaping () -> PixelRect) {
        self.shell = shell
        desktop = bounds
        shell.onExtension { [weak self] up in
            guard let self, up else { return }
            send(builder.scene)
        }
    }

    var name: String { "GNOME Shell \(shell.shellVersion ?? "") (switchscan's extension)" }
    var server: String { "GNOME Shell" }
    var bounds: PixelRect { desktop() }
    var isConnected: Bool { shell.shellGone == nil && shell.bus.isConnected }
    var fileDescriptor: Int32? { shell.bus.fileDescriptor }

    func drain() { shell.bus.dispatch() }

    func flush() {
        guard let scene = builder.takeScene() else { return }
        send(scene)
    }

    private func send(_ scene: OverlayScene) {
        shell.send(scene.isEmpty ? "ClearScene" : "SetScene", scene.isEmpty ? [] : [.string(scene.json)]) { [weak self] answer in
            if case .failure(let e) = answer, self?.refused == nil { self?.refused = e.description }
        }
    }

    func sync() {
        flush()
        _ = shell.call(shell.apiVersion >= 2 ? "Sync" : "GetVersion")
    }

    func fontMetrics(pixelSize: Int) -> FontMetrics? {
        if let m = metrics[pixelSize] { return m }
        let (ascent, descent) = measure.lineMetrics(size: Double(pixelSize))
        guard ascent > 0 else { return nil }
        metrics[pixelSize] = FontMetrics(ascent: ascent, descent: descent)
        return metrics[pixelSize]
    }

    func textWidth(_ text: String, pixelSize: Int) -> Int {
        measure.textSize(text, size: Double(pixelSize)).width
    }

    func show(_ part: OverlayPart, _ content: OverlayContent) { builder.show(part, content) }
    func hide(_ part: OverlayPart) { builder.hide(part) }

    func close() {
        builder.close()
        flush()
        // Carried out before the process leaves (its connection closing drops what is unsent).
        _ = shell.call("GetVersion", timeoutMilliseconds: 500)
    }

    /// The scene shown now (tests).
    var scene: OverlayScene { builder.scene }
}
