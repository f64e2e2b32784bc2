import SwitchCore
import SwitchDisplay
import SwitchInput

/// `run --show`: the highlight on screen, a presenter of the live loop (docs/live.md "Presentation").
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
///     sweep …                 point scanning's band and line, moving by themselves between
///                             sweep lines (`PointPicture`; redrawn as each whole pixel is
///                             reached, at most 60 times a second, nothing while nothing moves)
///     point / menu open at P  a crosshair at P; the point's menu next to it (and the ring
///                             around the element under it, which Snap would activate)
///     groups blue: … | red: … each colour's items ringed in its colour at once (Okabe–Ito,
///                             `ColorGroupPicture`), "Back" tab in back's colour; in a menu,
///                             each entry's row in its colour
///     keyboard opened … closed the keyboard's panel (`KeyboardPanel`): its keys, words and the
///                             text being written (from the type and result lines), under the
///                             ring; drawn again when what it shows changes
///     (touch) countdown at P  touch passthrough's hold duration counting down at the finger
///                             (`HoldCountdown`), filling 30 times a second until it ends
///
/// Tree frames are taken as the surface's pixels (AT-SPI's screen extents are X root-window
/// pixels; a tree file is drawn 1:1 from the screen's top-left corner). What is drawn is decided
/// here; the surface (`OverlaySurface`: X11 windows, a Wayland surface) only puts the parts on the
/// screen.
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
    let surface: OverlaySurface
    let ring: SurfacePart
    let exitTab: TextPanel
    /// A web page's part out of view (`OffscreenTab`).
    let offscreenTab: TextPanel
    let menu: TextPanel
    let thickness: Int
    /// Point scanning: the band (its two edges), the lines, the crosshair.
    let band: SurfacePart
    let lineX: SurfacePart
    let lineY: SurfacePart
    let crosshair: SurfacePart
    /// Group selection: one part per colour (in colour order), the black edge under them, and
    /// the "Back" tab.
    private(set) var colorWindows: [SurfacePart] = []
    let colorEdge: SurfacePart
    let backTab: TextPanel
    /// The scanning keyboard (issue 18).
    let keyboardPanel: KeyboardPanel
    private var keyboardOpen = false
    private var keyboardText = KeyboardTextLine()
    /// The application's latest model (the field's text when the keyboard opens on it).
    private var appModel: ScanModel?
    /// Touch passthrough's hold countdown at the finger.
    let countdown: HoldCountdown

    private var model: ScanModel?
    /// The stop the cursor is on (nil: not scanning).
    private var stop: (id: String, kind: HighlightKind)?
    /// The item the menu is open on, its entries (id, what the panel says) and the marked one.
    private var menuItem: String?
    private var entries: [(id: String, label: String)] = []
    private var marked: Int?
    /// Point scanning's picture, drawn as of `now` (the engine's clock).
    private(set) var point = PointPicture()
    private var now = Instant.zero
    /// CLOCK_MONOTONIC µs of the engine's t = 0 (nil: not told; sweeps are drawn only at lines).
    private var engineStart: Int64?
    /// The point the open menu belongs to (point scanning's menu).
    private var menuPoint: Point?
    /// Group selection's colours now (empty: none shown).
    private var colorLines: [ColorGroupLine] = []
    private var notes: [String] = []
    /// `SWITCHSCAN_OVERLAY_TRACE` (the typing latency benchmark, scripts/typing/bench-latency.sh):
    /// each time new words are on the screen (drawn, and carried out by the server), a note
    /// with the engine's time.
    public var trace: ((String) -> Void)?
    /// A `keyboard predictions` line came: the next render of the panel shows its words.
    private var wordsToShow = false
    private var notedFrameless = false
    private var notedDeath = false

    /// Draws on `surface` (the backend opened it: `DisplayBackend.openOverlay`); nothing shows yet.
    /// Fails when the surface has no font for the panels.
    public init(settings: Settings, surface: OverlaySurface) throws(OverlayError) {
        self.settings = settings
        self.surface = surface
        thickness = OverlayGeometry.thickness(large: settings.large)
        ring = SurfacePart(.ring, on: surface)
        exitTab = try TextPanel(surface, .exitTab, style: .init(accent: settings.color, pixelSize: settings.large ? 22 : 15, border: 0))
        offscreenTab = try TextPanel(surface, .offscreenTab, style: .init(accent: settings.color, pixelSize: settings.large ? 22 : 15, border: 2))
        menu = try TextPanel(surface, .menu, style: .init(accent: settings.color, pixelSize: settings.large ? 28 : 20, border: 3))
        band = SurfacePart(.pointBand, on: surface)
        lineX = SurfacePart(.pointLineX, on: surface)
        lineY = SurfacePart(.pointLineY, on: surface)
        crosshair = SurfacePart(.crosshair, on: surface)
        colorEdge = SurfacePart(.colorEdge, on: surface)
        backTab = try TextPanel(surface, .backTab, style: .init(accent: settings.color, pixelSize: settings.large ? 22 : 15, border: 0))
        keyboardPanel = KeyboardPanel(surface)
        countdown = HoldCountdown(surface, color: settings.color, large: settings.large)
        surface.flush()
    }

    /// Where it draws, as a note says it ("X display :0").
    public var surfaceName: String { surface.name }
    /// The whole desktop, in pixels.
    public var screen: PixelRect { surface.bounds }
    public var isConnected: Bool { surface.isConnected }

    // MARK: LoopAdapter

    public func prepare(nowMonotonic: Int64) -> LoopInterest {
        guard surface.isConnected else { return LoopInterest() }
        // A moving band or line: wake when it reaches its next pixel; a countdown: its next frame.
        let frames = [point.nextFrame(after: now), countdown.nextFrame(after: now)].compactMap { $0 }.min()
        let next = engineStart.flatMap { start in frames.map { start + $0.microseconds } }
        return LoopInterest(fds: surface.fileDescriptor.map { [LoopFD(fd: $0, events: LoopFD.readable)] } ?? [], deadline: next)
    }

    public func dispatch(ready: [LoopFD], nowMonotonic: Int64) -> [ShellInput] {
        surface.drain()
        if let start = engineStart, point.nextFrame(after: now) != nil || countdown.isRunning {
            advance(to: Instant(microseconds: max(now.microseconds, nowMonotonic - start)))
        }
        return takeNotes()
    }

    public func observe(_ line: TranscriptLine, model: ScanModel) -> [ShellInput] {
        self.model = model
        if model.scopeID != KeyboardTree.rootID { appModel = model }
        now = max(now, line.t)
        if take(line.event, at: line.t) {
            redraw()
            surface.flush()
        }
        return takeNotes()
    }

    public func engineStarted(atMonotonic start: Int64) { engineStart = start }

    public func observeTouch(_ output: TouchOutput) {
        if case .countdown(_, _, _, let from, _) = output { now = max(now, from) }
        guard countdown.take(output) else { return }
        countdown.draw(at: now, screen: surface.bounds)
        surface.flush()
    }

    /// Draws a moving band or line where it is at `t` (the engine's clock): the loop's deadline
    /// calls it; tests call it to look at a sweep at a given instant.
    public func advance(to t: Instant) {
        now = max(now, t)
        drawPoint()
        if countdown.isRunning { countdown.draw(at: now, screen: surface.bounds) }
        surface.flush()
    }

    public func layoutChanged(model: ScanModel) {
        self.model = model
        if model.scopeID != KeyboardTree.rootID { appModel = model }
        let before = ring.isShown ? ring.frame : nil
        redraw()
        surface.flush()
        // The display benchmark (scripts/desktop-tests/bench-highlight.sh): when a layout change
        // moved the ring, the CLOCK_MONOTONIC time the server has it.
        if let trace, ring.isShown, ring.frame != before {
            surface.sync()
            trace("highlight drawn at \(MonotonicClock.nowMicroseconds()): \(ring.frame)")
        }
    }

    public func finish() {
        stop = nil
        menuItem = nil
        point = PointPicture()
        colorLines = []
        keyboardOpen = false
        surface.close()
    }

    /// Waits until the server has drawn everything asked so far (tests, the benchmark).
    public func sync() { surface.sync() }

    // MARK: What the transcript says

    /// Updates the state from one transcript event; true when the picture changes.
    private func take(_ event: TranscriptEvent, at t: Instant) -> Bool {
        let pointChanged = point.take(event, at: t)
        switch event {
        case .scan(let started):
            guard !started else { return pointChanged }
            stop = nil
            closeMenu()
            colorLines = []
        case .scanStopped:
            stop = nil
            closeMenu()
            colorLines = []
        case .highlight(let id, let kind, _):
            if kind == .menuItem {
                marked = entries.firstIndex { $0.id == id }
            } else {
                stop = (id, kind)
                colorLines = []
            }
        case .menuOpened(let id, _, let items, _):
            menuItem = id
            menuPoint = nil
            entries = items.map { ($0.id, $0.label) }
            marked = nil
            colorLines = []
        case .menuClosed:
            closeMenu()
            colorLines = []
        case .pointMenuOpened(let p, let id, _, let items, _):
            // The point's menu: next to the crosshair, the element under it (Snap's) ringed.
            stop = nil
            menuItem = id
            menuPoint = p
            entries = items.map { ($0.id, $0.label) }
            marked = nil
        case .colorGroups(let lines):
            colorLines = lines
            if menuItem == nil && menuPoint == nil { stop = nil }  // the items' colours replace the cursor
        case .sweep, .point, .mode:
            stop = nil
            closeMenu()
            colorLines = []
        case .keyboard(.opened(_, _, let id, _, let password)):
            keyboardOpen = true
            let field = password ? nil : id.flatMap { id in appModel.flatMap { m in m.itemIndex(id: id).map { m.items[$0].element } } }
            keyboardText = KeyboardTextLine(before: field?.value ?? "")
        case .keyboard(.closed):
            keyboardOpen = false
        case .keyboard(.predictions):
            wordsToShow = true  // the model that came with the line shows them
        case .keyboard:
            break  // a page, shift: the model that came with the line shows them
        case .typed(let typed):
            keyboardText.apply(typed)
        case .typeResult(let r):
            guard let text = r.shownText else { return false }
            keyboardText.read(text)
        case .perform, .speak, .filter, .touch, .device, .pause, .result, .tree, .setting, .drag, .layoutLoaded, .adaptiveTiming:
            return false
        }
        return true
    }

    private func closeMenu() {
        menuItem = nil
        menuPoint = nil
        entries = []
        marked = nil
    }

    // MARK: Drawing

    /// Puts every part where the state says (or hides it).
    private func redraw() {
        guard surface.isConnected else { return }
        drawKeyboard()  // first: every other part is raised above it
        drawPoint()
        drawColors()
        guard let model, stop != nil || menuItem != nil || menuPoint != nil else {
            ring.hide()
            exitTab.hide()
            offscreenTab.hide()
            menu.hide()
            return
        }
        var ringFrame: PixelRect?
        var style = RingStyle.solid
        var showExit = false
        var outOfView: (OffscreenTab.Direction, String?)?
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
                if let g = model.groups.firstIndex(where: { $0.id == id }), let d = OffscreenTab.direction(ofGroup: g, in: model) {
                    outOfView = (d, model.groups[g].label)
                }
            }
        }
        drawOffscreenTab(outOfView, edge: ringFrame)
        let bounds = ringFrame.flatMap { OverlayGeometry.ringBounds(frame: $0, thickness: thickness, screen: surface.bounds) }
        if let bounds {
            ring.show(bounds, pieces: OverlayGeometry.ring(width: bounds.width, height: bounds.height, thickness: thickness, style: style),
                      color: settings.color)
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
                                                       screen: surface.bounds)
            exitTab.show(label, marked: 0, at: origin)
        } else {
            exitTab.hide()
        }
        if menuItem != nil || menuPoint != nil, !entries.isEmpty {
            var lines = entries.map(\.label)
            // Group selection in the menu: each entry's row in its colour, back as a last row.
            var rowColors: [Int: CursorColor] = [:]
            for group in colorLines {
                let color = ColorGroupPicture.color(named: group.color)
                for id in group.ids { if let k = entries.firstIndex(where: { $0.id == id }) { rowColors[k] = color } }
                if group.back {
                    rowColors[lines.count] = color
                    lines.append("Back")
                }
            }
            let size = menu.size(for: lines)
            // Next to the crosshair for a point's menu, else next to the item's ring.
            let anchor = menuPoint.map { PointShapes.crosshair(at: $0, large: settings.large) } ?? ringFrame
            let origin = OverlayGeometry.panelOrigin(item: anchor, panelWidth: size.width, panelHeight: size.height,
                                                     thickness: thickness, screen: surface.bounds)
            menu.show(lines, marked: marked, rowColors: rowColors, at: origin)
        } else {
            menu.hide()
        }
    }

    /// The keyboard's panel while it is open and its tree is the one scanned.
    private func drawKeyboard() {
        if keyboardOpen, let model, let picture = KeyboardPicture(model: model, text: keyboardText, inset: thickness) {
            keyboardPanel.show(picture)
            if wordsToShow, let trace {
                wordsToShow = false
                surface.sync()
                let t = engineStart.map { MonotonicClock.nowMicroseconds() - $0 } ?? 0
                trace("keyboard words drawn at \(Double(t) / 1_000_000) s: " + picture.cells.filter { $0.kind == .word }.map(\.label).joined(separator: " "))
            }
        } else {
            keyboardPanel.hide()
        }
    }

    /// The tab of a highlighted part of a page that is out of view, or none.
    private func drawOffscreenTab(_ outOfView: (OffscreenTab.Direction, String?)?, edge: PixelRect?) {
        guard let (direction, label) = outOfView, let edge else {
            offscreenTab.hide()
            return
        }
        let lines = [OffscreenTab.text(direction, label: label)]
        let size = offscreenTab.size(for: lines)
        offscreenTab.show(lines, marked: nil, at: OffscreenTab.origin(edge: edge, direction: direction, tabWidth: size.width,
                                                                       tabHeight: size.height, screen: surface.bounds))
    }

    /// Point scanning's parts as of `now`.
    private func drawPoint() {
        guard surface.isConnected else { return }
        let screen = model.map { PixelRect(Rect(x: 0, y: 0, width: $0.screen.width, height: $0.screen.height)) }
            .map { $0.intersection(surface.bounds) } ?? surface.bounds
        let shapes = point.shapes(at: now, screen: screen, large: settings.large)
        if let b = shapes.band {
            band.show(b, pieces: PointShapes.bandEdges(width: b.width, height: b.height, axis: shapes.bandAxis, thickness: thickness),
                      color: settings.color)
        } else {
            band.hide()
        }
        for (part, rect) in [(lineX, shapes.lineX), (lineY, shapes.lineY)] {
            if let rect {
                part.show(rect, color: settings.color)
            } else {
                part.hide()
            }
        }
        if let c = shapes.crosshair {
            crosshair.show(c, pieces: PointShapes.crosshairArms(large: settings.large), color: settings.color)
        } else {
            crosshair.hide()
        }
    }

    /// Group selection's parts: every colour's items ringed (items' colours only; a menu's
    /// colours are its rows).
    private func drawColors() {
        guard surface.isConnected else { return }
        let inMenu = menuItem != nil || menuPoint != nil
        let picture = ColorGroupPicture(inMenu ? [] : colorLines, thickness: thickness, screen: surface.bounds) { id in
            self.model.flatMap { self.itemFrame(id, $0) }
        }
        if let edge = ColorGroupPicture.shape(rings: picture.edgeRings, thickness: thickness + 1) {
            colorEdge.show(edge.bounds, pieces: edge.rects, color: .black)
        } else {
            colorEdge.hide()
        }
        while colorWindows.count < picture.groups.count {
            colorWindows.append(SurfacePart(.colorGroup(colorWindows.count), on: surface))
        }
        for (k, part) in colorWindows.enumerated() {
            guard k < picture.groups.count, let shape = ColorGroupPicture.shape(rings: picture.groups[k].rings, thickness: thickness) else {
                part.hide()
                continue
            }
            part.show(shape.bounds, pieces: shape.rects, color: picture.groups[k].color)  // after the edge: above it
        }
        if let back = picture.groups.first(where: \.back), let ringed = picture.ringedBounds {
            let label = ["Back"]
            let origin = OverlayGeometry.exitTabOrigin(ring: ringed, tabHeight: backTab.size(for: label).height, thickness: thickness,
                                                       screen: surface.bounds)
            backTab.show(label, marked: 0, accent: back.color, at: origin)
        } else {
            backTab.hide()
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
        if !surface.isConnected && !notedDeath {
            notedDeath = true
            notes.append("overlay: \(surface.server) went away; scanning goes on without the on-screen highlight")
        }
        guard !notes.isEmpty else { return [] }
        defer { notes = [] }
        return notes.map { .log($0) }
    }
}
