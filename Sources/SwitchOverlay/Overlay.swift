internal import CX11
import SwitchCore
import SwitchInput

/// `run --show`: the highlight on screen, a presenter of the live loop (README "Presentation").
/// It follows the transcript: every highlight line moves the cursor, the menu lines open and
/// close the menu panel, a layout change moves both to the stops' new frames, and when scanning
/// stops everything disappears.
///
///     highlight item X        ring (solid) around X
///     highlight group G       ring (dashed) around G
///     highlight groupExit G   ring (dashed) around G + "Exit group" tab at its top-left corner
///     menu open on X: …       ring (solid) around X, panel next to X listing the entries
///     highlight menuItem E    the panel marks E
///     menu closed             panel gone
///     scan stopped            everything gone
///     layout change           ring and panel follow the frames of the same ids
///
/// Tree frames are taken as X root-window pixels (AT-SPI's screen extents are; a tree file is
/// drawn 1:1 from the screen's top-left corner).
public final class Overlay: LoopAdapter {
    public struct Settings: Sendable {
        public var color: CursorColor
        public var large: Bool

        public init(color: CursorColor = .blue, large: Bool = false) {
            self.color = color
            self.large = large
        }

        public init(_ scanning: ScanningSettings) {
            self.init(color: scanning.cursorColor, large: scanning.largeCursor)
        }
    }

    public let name = "overlay"
    public let settings: Settings
    let connection: OverlayDisplay
    let ring: OverlayWindow
    let exitTab: TextPanel
    let menu: TextPanel
    let thickness: Int

    private var model: ScanModel?
    /// The stop the cursor is on (nil: not scanning).
    private var stop: (id: String, kind: HighlightKind)?
    /// The item the menu is open on, its entries (id, what the panel says) and the marked one.
    private var menuItem: String?
    private var entries: [(id: String, label: String)] = []
    private var marked: Int?
    private var notes: [String] = []
    private var notedFrameless = false
    private var notedDeath = false

    /// Opens the display (`DISPLAY` unless `display` names one) and creates the windows, unmapped.
    public init(settings: Settings, display: String? = nil) throws(OverlayError) {
        self.settings = settings
        connection = try OverlayDisplay(name: display)
        thickness = OverlayGeometry.thickness(large: settings.large)
        ring = OverlayWindow(connection, name: "switchscan highlight", background: connection.pixel(settings.color))
        exitTab = try TextPanel(connection, name: "switchscan exit group",
                                style: .init(accent: settings.color, pixelSize: settings.large ? 22 : 15, border: 0))
        menu = try TextPanel(connection, name: "switchscan menu",
                             style: .init(accent: settings.color, pixelSize: settings.large ? 28 : 20, border: 3))
        connection.flush()
    }

    /// The X display it draws on (":0").
    public var displayName: String { connection.name }
    /// The X screen, in pixels.
    public var screen: PixelRect { connection.bounds }
    public var isConnected: Bool { !connection.isDead }

    // MARK: LoopAdapter

    public func prepare(nowMonotonic: Int64) -> LoopInterest {
        connection.isDead ? LoopInterest() : LoopInterest(fds: [LoopFD(fd: connection.fileDescriptor, events: LoopFD.readable)])
    }

    public func dispatch(ready: [LoopFD], nowMonotonic: Int64) -> [ShellInput] {
        connection.drain()
        return takeNotes()
    }

    public func observe(_ line: TranscriptLine, model: ScanModel) -> [ShellInput] {
        self.model = model
        if take(line.event) {
            redraw()
            connection.flush()
        }
        return takeNotes()
    }

    public func layoutChanged(model: ScanModel) {
        self.model = model
        redraw()
        connection.flush()
    }

    public func finish() {
        stop = nil
        menuItem = nil
        for w in [ring, exitTab.window, menu.window] { w.destroy() }
        connection.sync()
    }

    /// Waits until the X server has drawn everything asked so far (tests, the benchmark).
    public func sync() { connection.sync() }

    // MARK: What the transcript says

    /// Updates the state from one transcript event; true when the picture changes.
    private func take(_ event: TranscriptEvent) -> Bool {
        switch event {
        case .scan(let started):
            guard !started else { return false }
            stop = nil
            menuItem = nil
            entries = []
            marked = nil
        case .highlight(let id, let kind, _):
            if kind == .menuItem {
                marked = entries.firstIndex { $0.id == id }
            } else {
                stop = (id, kind)
            }
        case .menuOpened(let id, _, let items):
            menuItem = id
            entries = items.map { ($0.id, $0.label) }
            marked = nil
        case .menuClosed:
            menuItem = nil
            entries = []
            marked = nil
        case .pointMenuOpened(_, let id?, _, let items):
            // The point's menu on the element under it (a point on nothing is not drawn yet).
            menuItem = id
            entries = items.map { ($0.id, $0.label) }
            marked = nil
        case .perform, .speak, .filter, .touch, .device, .pause, .result, .tree:
            return false
        case .colorGroups, .sweep, .point, .pointMenuOpened, .mode:
            return false  // Issue 11's colours, bands and lines are not drawn by the overlay yet.
        }
        return true
    }

    // MARK: Drawing

    /// Puts every window where the state says (or hides it).
    private func redraw() {
        guard !connection.isDead else { return }
        guard let model, stop != nil || menuItem != nil else {
            ring.hide()
            exitTab.hide()
            menu.hide()
            return
        }
        var ringFrame: PixelRect?
        var style = RingStyle.solid
        var showExit = false
        if let item = menuItem {
            ringFrame = itemFrame(item, model)
        } else if let (id, kind) = stop {
            switch kind {
            case .item, .menuItem:
                ringFrame = itemFrame(id, model)
            case .group, .groupExit:
                ringFrame = groupFrame(id, model)
                style = .dashed
                showExit = kind == .groupExit
            }
        }
        let bounds = ringFrame.flatMap { OverlayGeometry.ringBounds(frame: $0, thickness: thickness, screen: connection.bounds) }
        if let bounds {
            ring.place(bounds, shape: OverlayGeometry.ring(width: bounds.width, height: bounds.height, thickness: thickness, style: style))
            ring.show()
        } else {
            ring.hide()
            if ringFrame == nil, !notedFrameless {
                notedFrameless = true
                notes.append("overlay: \"\(menuItem ?? stop?.id ?? "")\" has no frame on the screen; stops without one are not drawn")
            }
        }
        if showExit, let bounds {
            let label = ["Exit group"]
            let origin = OverlayGeometry.exitTabOrigin(ring: bounds, tabHeight: exitTab.size(for: label).height, thickness: thickness,
                                                       screen: connection.bounds)
            exitTab.show(label, marked: 0, at: origin)
        } else {
            exitTab.hide()
        }
        if menuItem != nil, !entries.isEmpty {
            let lines = entries.map(\.label)
            let size = menu.size(for: lines)
            let origin = OverlayGeometry.panelOrigin(item: ringFrame, panelWidth: size.width, panelHeight: size.height,
                                                     thickness: thickness, screen: connection.bounds)
            menu.show(lines, marked: marked, at: origin)
        } else {
            menu.hide()
        }
    }

    private func itemFrame(_ id: String, _ model: ScanModel) -> PixelRect? {
        guard let i = model.itemIndex(id: id), let f = model.items[i].element.frame else { return nil }
        return PixelRect(f)
    }

    /// A group's frame, or the union of its items' frames when it has none (the same frame the
    /// clinicians' screen picture outlines).
    private func groupFrame(_ id: String, _ model: ScanModel) -> PixelRect? {
        guard let g = model.groups.firstIndex(where: { $0.id == id }) else { return nil }
        return model.frame(ofGroup: g).map(PixelRect.init)
    }

    private func takeNotes() -> [ShellInput] {
        if connection.isDead && !notedDeath {
            notedDeath = true
            notes.append("overlay: the X server \(connection.name) went away; scanning goes on without the on-screen highlight")
        }
        guard !notes.isEmpty else { return [] }
        defer { notes = [] }
        return notes.map { .log($0) }
    }
}

/// Why the overlay cannot start.
public enum OverlayError: Error, CustomStringConvertible {
    case noDisplaySet
    case cannotOpen(String)
    case noShape(String)
    case noFont(String)

    public var description: String {
        switch self {
        case .noDisplaySet:
            return "--show needs an X server, and DISPLAY is not set (run it in an X session: Xorg, or Xwayland for X11 applications)"
        case .cannotOpen(let name):
            return "--show needs an X server: cannot open display \"\(name)\" (is an X session running there, and may this user connect to it?)"
        case .noShape(let name):
            return "--show: the X server \"\(name)\" has no SHAPE extension, so the highlight cannot let clicks through"
        case .noFont(let pattern):
            return "--show: no font for the menu panel (\(pattern)); install fontconfig and fonts-dejavu-core"
        }
    }
}
