internal import CWayland
import SwitchDisplay

/// The overlay on wlroots compositors (sway, and any with zwlr_layer_shell_v1): one surface per
/// output on the OVERLAY layer, above every window and panel, anchored to all four edges (the
/// compositor gives it the output's logical size), exclusive zone −1 (no panel pushes it aside),
/// keyboard interactivity none and an EMPTY input region, so every click and key goes through to
/// what is beneath. Each surface draws the whole `OverlayScene` clipped to its output, at the
/// output's scale (`SceneRenderer`).
///
///     show(scene) ─→ each configured surface: a free buffer of the pair ─→ clear what that buffer
///       drew last ─→ draw ─→ attach, damage (what was shown ∪ what is drawn), commit
///     no free buffer (the compositor holds both) ─→ redrawn when one is released
///     configure ─→ ack, size, redraw │ closed (output gone) ─→ surface dropped
///     outputs added or removed (registry) ─→ a surface made or dropped
public final class LayerShellOverlay {
    private let connection: WaylandConnection
    private let shell: OpaquePointer
    private let shellVersion: UInt32
    let renderer = SceneRenderer()
    private var surfaces: [LayerOutputSurface] = []
    public private(set) var scene = OverlayScene.empty

    /// Binds the layer shell and puts a surface on every output (configured by the compositor in
    /// its answer: call `connection.roundtrip()` or let the loop run before expecting pixels).
    public init(connection: WaylandConnection) throws(WaylandConnection.Failure) {
        guard let (shell, version) = connection.bind("zwlr_layer_shell_v1", upTo: 4) else { throw .missing("zwlr_layer_shell_v1") }
        self.connection = connection
        self.shell = shell
        shellVersion = version
        connection.outputsChanged.append { [weak self] in self?.followOutputs() }
        followOutputs()
        connection.flush()
    }

    deinit {
        surfaces.removeAll()
        if shellVersion >= 3 { zwlr_layer_shell_v1_destroy(shell) } else { wl_proxy_destroy(shell) }
        connection.flush()
    }

    /// Replaces the scene on every output (an empty scene clears).
    public func show(_ newScene: OverlayScene) {
        scene = newScene
        for s in surfaces { s.redraw() }
        connection.flush()
    }

    /// The size of `text` in logical pixels, as the overlay draws it.
    public func textSize(_ text: String, size: Double, font: String = OverlayScene.TextShape.defaultFont) -> (width: Int, height: Int) {
        renderer.textSize(text, size: size, font: font)
    }

    /// The outputs covered, with whether their surface is configured (tests wait for this).
    public var configuredOutputs: [String] { surfaces.filter(\.isConfigured).map { $0.output.info.name } }

    /// True once every surface shows the current scene (nothing waits for a buffer release).
    public var isUpToDate: Bool { surfaces.allSatisfy { $0.isConfigured && !$0.needsRedraw } }

    private func followOutputs() {
        surfaces.removeAll { s in !connection.outputObjects.contains { $0 === s.output } || s.isClosed }
        for o in connection.outputObjects where o.isDescribed && !surfaces.contains(where: { $0.output === o }) {
            guard let compositor = connection.compositor, let shm = connection.shm,
                  let s = LayerOutputSurface(compositor: compositor, compositorVersion: connection.compositorVersion, shm: shm, shell: shell, output: o, overlay: self) else { continue }
            surfaces.append(s)
        }
        for s in surfaces { s.redraw() }
        connection.flush()
    }
}

/// One output's layer surface and its buffer pair.
final class LayerOutputSurface {
    let output: WaylandOutput
    private let surface: OpaquePointer
    private let layerSurface: OpaquePointer
    private let swapchain: ShmSwapchain
    private unowned let overlay: LayerShellOverlay
    private let damageInBufferPixels: Bool
    private(set) var isConfigured = false
    private(set) var isClosed = false
    private(set) var needsRedraw = false
    private var width = 0, height = 0
    /// What the compositor shows now (device pixels of the last committed buffer).
    private var shown: [DeviceBox] = []
    /// The size (device pixels) of the buffer shown; (0, 0) before the first.
    private var shownSize = (width: 0, height: 0)

    init?(compositor: OpaquePointer, compositorVersion: UInt32, shm: OpaquePointer, shell: OpaquePointer, output: WaylandOutput,
          overlay: LayerShellOverlay) {
        guard let surface = wl_compositor_create_surface(compositor) else { return nil }
        guard let layer = zwlr_layer_shell_v1_get_layer_surface(shell, surface, output.proxy, ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY.rawValue,
                                                                 "switchscan") else {
            wl_surface_destroy(surface)
            return nil
        }
        self.output = output
        self.surface = surface
        layerSurface = layer
        swapchain = ShmSwapchain(shm: shm)
        self.overlay = overlay
        damageInBufferPixels = compositorVersion >= 4
        swapchain.released = { [unowned self] in if needsRedraw { redraw() } }
        zwlr_layer_surface_v1_add_listener(layer, layerSurfaceListener, Unmanaged.passUnretained(self).toOpaque())
        let all = ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM.rawValue
            | ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT.rawValue
        zwlr_layer_surface_v1_set_anchor(layer, all)
        zwlr_layer_surface_v1_set_size(layer, 0, 0)
        zwlr_layer_surface_v1_set_exclusive_zone(layer, -1)
        zwlr_layer_surface_v1_set_keyboard_interactivity(layer, ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE.rawValue)
        if let empty = wl_compositor_create_region(compositor) {
            wl_surface_set_input_region(surface, empty)
            wl_region_destroy(empty)
        }
        wl_surface_commit(surface)  // the first commit, without a buffer: the compositor answers with configure
    }

    deinit {
        zwlr_layer_surface_v1_destroy(layerSurface)
        wl_surface_destroy(surface)
    }

    fileprivate func configure(serial: UInt32, width w: UInt32, height h: UInt32) {
        zwlr_layer_surface_v1_ack_configure(layerSurface, serial)
        width = Int(w) > 0 ? Int(w) : output.info.width
        height = Int(h) > 0 ? Int(h) : output.info.height
        isConfigured = true
        redraw()
    }

    fileprivate func closed() {
        isClosed = true
        isConfigured = false
    }

    /// Draws the overlay's scene into a free buffer and shows it; without a free buffer, waits for
    /// a release.
    func redraw() {
        guard isConfigured, !isClosed else { return }
        let scale = output.info.scale
        if overlay.scene.isEmpty && shown.isEmpty && shownSize == (width * scale, height * scale) {
            needsRedraw = false
            return
        }
        guard let buffer = swapchain.next(width: width * scale, height: height * scale) else {
            needsRedraw = true
            return
        }
        needsRedraw = false
        let drawn = overlay.renderer.render(overlay.scene, into: buffer.pixels, width: buffer.width, height: buffer.height,
                                            stride: buffer.stride, originX: output.info.x, originY: output.info.y, scale: scale,
                                            clear: buffer.drawn)
        buffer.drawn = drawn
        wl_surface_set_buffer_scale(surface, Int32(scale))
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        let whole = shownSize != (buffer.width, buffer.height)
        for b in whole ? [DeviceBox(x: 0, y: 0, width: buffer.width, height: buffer.height)] : shown + drawn {
            if damageInBufferPixels {
                wl_surface_damage_buffer(surface, Int32(b.x), Int32(b.y), Int32(b.width), Int32(b.height))
            } else {  // wl_surface before version 4: damage in surface (logical) pixels
                wl_surface_damage(surface, Int32(b.x / scale), Int32(b.y / scale), Int32((b.width + scale - 1) / scale) + 1,
                                  Int32((b.height + scale - 1) / scale) + 1)
            }
        }
        wl_surface_commit(surface)
        buffer.busy = true
        shown = drawn
        shownSize = (buffer.width, buffer.height)
    }
}

nonisolated(unsafe) private let layerSurfaceListener: UnsafeMutablePointer<zwlr_layer_surface_v1_listener> = {
    let p = UnsafeMutablePointer<zwlr_layer_surface_v1_listener>.allocate(capacity: 1)
    func me(_ data: UnsafeMutableRawPointer?) -> LayerOutputSurface { Unmanaged<LayerOutputSurface>.fromOpaque(data!).takeUnretainedValue() }
    p.initialize(to: zwlr_layer_surface_v1_listener(
        configure: { data, _, serial, w, h in me(data).configure(serial: serial, width: w, height: h) },
        closed: { data, _ in me(data).closed() }))
    return p
}()
