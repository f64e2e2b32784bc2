internal import CWayland

/// An output as the overlay and the virtual pointer need it: where it sits in the desktop and how
/// large it is in logical (compositor) pixels, and its scale (a buffer has scale × scale device
/// pixels per logical pixel). The logical geometry comes from xdg-output; without it, from
/// wl_output's position and its mode divided by the scale.
public struct WaylandOutputInfo: Equatable, Sendable, CustomStringConvertible {
    /// The compositor's name for it ("HEADLESS-1", "DP-2"); "" when it gives none.
    public var name: String
    public var x: Int, y: Int, width: Int, height: Int
    public var scale: Int
    /// The current mode, in device pixels.
    public var pixelWidth: Int, pixelHeight: Int

    public var description: String { "\(name) \(width)x\(height)+\(x)+\(y) scale \(scale) (\(pixelWidth)x\(pixelHeight) px)" }
}

/// One wl_output and its zxdg_output_v1; `info` is complete once `isDescribed`.
final class WaylandOutput {
    let proxy: OpaquePointer
    let globalName: UInt32
    private var xdgOutput: OpaquePointer?
    private(set) var info = WaylandOutputInfo(name: "", x: 0, y: 0, width: 0, height: 0, scale: 1, pixelWidth: 0, pixelHeight: 0)
    /// wl_output.done seen (and, with xdg-output, its logical size).
    private(set) var isDescribed = false
    private var sawLogicalSize = false
    private var sawWlDone = false
    private let version: UInt32
    private let changed: () -> Void

    init(proxy: OpaquePointer, version: UInt32, globalName: UInt32, changed: @escaping () -> Void) {
        self.proxy = proxy
        self.version = version
        self.globalName = globalName
        self.changed = changed
        wl_output_add_listener(proxy, outputListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if let xdgOutput { zxdg_output_v1_destroy(xdgOutput) }
        if version >= 3 { wl_output_release(proxy) } else { wl_output_destroy(proxy) }
    }

    /// Asks for the logical geometry (once the xdg-output manager is bound).
    func describe(with manager: OpaquePointer?) {
        guard xdgOutput == nil, let manager, let o = zxdg_output_manager_v1_get_xdg_output(manager, proxy) else { return }
        xdgOutput = o
        zxdg_output_v1_add_listener(o, xdgOutputListener, Unmanaged.passUnretained(self).toOpaque())
    }

    fileprivate func geometry(x: Int32, y: Int32) {
        if xdgOutput == nil { info.x = Int(x); info.y = Int(y) }
    }

    fileprivate func mode(current: Bool, width: Int32, height: Int32) {
        guard current else { return }
        info.pixelWidth = Int(width)
        info.pixelHeight = Int(height)
    }

    fileprivate func scale(_ s: Int32) { info.scale = max(1, Int(s)) }
    fileprivate func name(_ n: String) { info.name = n }
    fileprivate func logicalPosition(_ x: Int32, _ y: Int32) { info.x = Int(x); info.y = Int(y) }

    fileprivate func logicalSize(_ w: Int32, _ h: Int32) {
        info.width = Int(w)
        info.height = Int(h)
        sawLogicalSize = true
    }

    /// wl_output.done (and xdg_output.done before xdg-output v3): the description is whole.
    fileprivate func done() {
        sawWlDone = true
        if xdgOutput == nil {
            info.width = info.pixelWidth / info.scale
            info.height = info.pixelHeight / info.scale
        }
        guard sawLogicalSize || xdgOutput == nil else { return }
        isDescribed = true
        changed()
    }

    fileprivate func xdgDone() {
        if sawWlDone { done() }
    }
}

nonisolated(unsafe) private let outputListener: UnsafeMutablePointer<wl_output_listener> = {
    let p = UnsafeMutablePointer<wl_output_listener>.allocate(capacity: 1)
    func me(_ data: UnsafeMutableRawPointer?) -> WaylandOutput { Unmanaged<WaylandOutput>.fromOpaque(data!).takeUnretainedValue() }
    p.initialize(to: wl_output_listener(
        geometry: { data, _, x, y, _, _, _, _, _, _ in me(data).geometry(x: x, y: y) },
        mode: { data, _, flags, w, h, _ in me(data).mode(current: flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0, width: w, height: h) },
        done: { data, _ in me(data).done() },
        scale: { data, _, s in me(data).scale(s) },
        name: { data, _, n in if let n { me(data).name(String(cString: n)) } },
        description: { _, _, _ in }))
    return p
}()

nonisolated(unsafe) private let xdgOutputListener: UnsafeMutablePointer<zxdg_output_v1_listener> = {
    let p = UnsafeMutablePointer<zxdg_output_v1_listener>.allocate(capacity: 1)
    func me(_ data: UnsafeMutableRawPointer?) -> WaylandOutput { Unmanaged<WaylandOutput>.fromOpaque(data!).takeUnretainedValue() }
    p.initialize(to: zxdg_output_v1_listener(
        logical_position: { data, _, x, y in me(data).logicalPosition(x, y) },
        logical_size: { data, _, w, h in me(data).logicalSize(w, h) },
        done: { data, _ in me(data).xdgDone() },
        name: { data, _, n in if let n { me(data).name(String(cString: n)) } },
        description: { _, _, _ in }))
    return p
}()
