import Foundation

/// A rectangle as sway's IPC reports it (logical pixels of the whole desktop, or relative to the
/// node for `window_rect`).
public struct SwayRect: Equatable, Sendable, Decodable, CustomStringConvertible {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// A window (a view: an xdg-shell or Xwayland client's toplevel) in sway's tree, what `get_tree`
/// says of it.
///
/// Where its client's window-relative coordinates (AT-SPI's, on Wayland) start on the desktop,
/// measured on sway 1.7 with GTK 3 and GTK 4 (Tests/SwitchWaylandTests/SwayLiveTests, each
/// checked against a screenshot to the pixel):
///
///     content = rect + window_rect     rect: the container with its border; window_rect: the
///                                      client's window inside it (the border's width in)
///     origin  = content + max(0, (window_rect.size − client size) / 2) − inset
///
/// sway centres a client window smaller than its content area (one with a fixed or maximum size,
/// tiled); a larger one starts at the content's corner. The IPC's `geometry` is only the view's
/// natural size (x = y = 0 on sway 1.7): the xdg geometry offset of a client that draws its own
/// decorations and shadows is not in it. GTK 4 and server-side-decorated windows (sway offers
/// xdg-decoration; GTK 3 and 4 take it unless the window has a header bar) count from their
/// window itself: inset 0. GTK 3 with a header bar, floating, counts from its shadow's corner:
/// the inset is where its title bar starts in its AT-SPI frame (26, 23 with Adwaita); tiled, GTK
/// drops the shadow and the inset is 0 again.
public struct SwayWindow: Equatable, Sendable, CustomStringConvertible {
    /// The container's id (`[con_id=N]` in commands).
    public var id: Int
    public var pid: Int32
    /// xdg-shell app id (or Xwayland's class); "" when none.
    public var appID: String
    public var title: String
    public var focused: Bool
    public var floating: Bool
    /// Shown now (on a visible workspace, not hidden in a tab or stack).
    public var visible: Bool
    public var rect: SwayRect
    public var windowRect: SwayRect
    /// The natural size (x, y always 0 on sway 1.7).
    public var geometry: SwayRect
    /// The workspace and output it is on ("" for the scratchpad).
    public var workspace: String
    public var output: String

    /// Where the content area starts on the desktop.
    public var contentOrigin: (x: Int, y: Int) { (rect.x + windowRect.x, rect.y + windowRect.y) }

    /// Where the client's window-relative coordinates start, for a client whose frame (AT-SPI's
    /// window extents) is `clientWidth` × `clientHeight` with its window geometry starting at
    /// `inset` inside it (see above); nil sizes: assume the client fills the content area.
    public func origin(clientWidth: Int? = nil, clientHeight: Int? = nil, inset: (x: Int, y: Int) = (0, 0)) -> (x: Int, y: Int) {
        let c = contentOrigin
        let dx = clientWidth.map { max(0, (windowRect.width - ($0 - 2 * inset.x)) / 2) } ?? 0
        let dy = clientHeight.map { max(0, (windowRect.height - ($0 - 2 * inset.y)) / 2) } ?? 0
        return (c.x + dx - inset.x, c.y + dy - inset.y)
    }

    public var description: String {
        "#\(id) pid \(pid) \"\(title)\" (\(appID)) \(rect) content \(windowRect)\(floating ? " floating" : "")\(focused ? " focused" : "")"
    }
}

public enum SwayTree {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Every window of a `get_tree` reply, in tree order (tiled before floating, per workspace).
    public static func windows(fromJSON data: Data) throws(Failure) -> [SwayWindow] {
        let root: Node
        do {
            root = try JSONDecoder().decode(Node.self, from: data)
        } catch {
            throw Failure(description: "sway's get_tree reply is not the tree expected: \(error)")
        }
        var out: [SwayWindow] = []
        walk(root, workspace: "", output: "", into: &out)
        return out
    }

    /// The focused window, if any.
    public static func focused(_ windows: [SwayWindow]) -> SwayWindow? { windows.first { $0.focused } }

    private static func walk(_ n: Node, workspace: String, output: String, into out: inout [SwayWindow]) {
        var workspace = workspace, output = output
        switch n.type {
        case "output": output = n.name ?? ""
        case "workspace": workspace = n.name ?? ""
        default: break
        }
        if let pid = n.pid, n.type == "con" || n.type == "floating_con" {
            out.append(SwayWindow(id: n.id, pid: pid, appID: n.app_id ?? n.window_properties?.class ?? "", title: n.name ?? "",
                                  focused: n.focused, floating: n.type == "floating_con", visible: n.visible ?? false,
                                  rect: n.rect, windowRect: n.window_rect, geometry: n.geometry,
                                  workspace: workspace == "__i3_scratch" ? "" : workspace, output: output))
        }
        for c in n.nodes ?? [] { walk(c, workspace: workspace, output: output, into: &out) }
        for c in n.floating_nodes ?? [] { walk(c, workspace: workspace, output: output, into: &out) }
    }

    /// The part of a node `get_tree` gives that we read.
    private struct Node: Decodable {
        var id: Int
        var type: String
        var name: String?
        var pid: Int32?
        var app_id: String?
        var window_properties: WindowProperties?
        var focused: Bool
        var visible: Bool?
        var rect: SwayRect
        var window_rect: SwayRect
        var geometry: SwayRect
        var nodes: [Node]?
        var floating_nodes: [Node]?
    }

    private struct WindowProperties: Decodable {
        var `class`: String?
    }
}

/// An output as `get_outputs` reports it.
public struct SwayOutput: Equatable, Sendable, Decodable {
    public var name: String
    public var active: Bool
    public var rect: SwayRect
    public var scale: Double?

    public static func list(fromJSON data: Data) throws(SwayTree.Failure) -> [SwayOutput] {
        do {
            return try JSONDecoder().decode([SwayOutput].self, from: data)
        } catch {
            throw SwayTree.Failure(description: "sway's get_outputs reply is not the list expected: \(error)")
        }
    }
}
