import Foundation
import SwitchCore
import SwitchInput
import SwitchDisplay
@testable import SwitchDisplayServers
@testable import SwitchOverlay
import Testing

/// The scanning keyboard's panel (issue 18) under a real X server, read back as screenshots: the
/// real engine opens the bundled `qwerty` layout on a text field and its lines and models go to
/// the overlay exactly as the live loop hands them (`observe(line, model: engine.model)`). The
/// application is a white window under the field; the screen is 800 × 600.
///
///     field at the top    → the panel at the bottom, the field untouched
///     field at the bottom → the panel at the top, the field untouched
///     words in            → a white cell per word in the prediction row
///     a key typed         → the text line shows it (a password's as •)
///     the ring            → over the highlighted key, drawn in the gap around it
///     closed              → the panel is gone
@Suite(.serialized, .timeLimit(.minutes(2)))
struct KeyboardPanelTests {
    static let blue = CursorColor.blue

    static var qwerty: KeyboardLayout {
        get throws {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Keyboards/qwerty.json")
            return try KeyboardLayoutDecoder.decode(Array(try Data(contentsOf: url)), file: "qwerty.json")
        }
    }

    /// A driver of the real engine that hands every line and model to the overlay.
    struct Session {
        var engine: Engine
        let overlay: Overlay
        var lines: [TranscriptLine] = []

        init(field: Rect, entry: Element.TextEntry = .singleLine, value: String? = nil, predictions: Int, overlay: Overlay) throws {
            var p = Profile()
            p.scanning.grouping = .containers
            p.switchStabilization.debounce = .zero
            p.keyboard.predictions = predictions
            p.switches = [SwitchBinding(keyName: "KEY_SPACE", code: EventCodes.KEY_SPACE, action: .select)]
            let tree = ElementTree(screen: Size(width: 800, height: 600), root: Element(
                id: "window", frame: Rect(x: 0, y: 0, width: 800, height: 600),
                children: [Element(id: "field", label: "Message", value: value, frame: field, textEntry: entry)]))
            engine = Engine(tree: tree, profile: p, devices: [DeviceDescription(name: "switch", codes: [EventCodes.EV_KEY: [EventCodes.KEY_SPACE]])])
            engine.keyboardLayout = try KeyboardPanelTests.qwerty
            self.overlay = overlay
            show(engine.start(at: .zero))
        }

        mutating func show(_ new: [TranscriptLine]) {
            for l in new { _ = overlay.observe(l, model: engine.model) }
            lines += new
        }

        mutating func open(at t: Double) { show(engine.openKeyboard(fieldID: "field", at: .seconds(t))) }

        mutating func words(_ words: [String], at t: Double) {
            guard let r = engine.wantedPredictions else { return }
            show(engine.setPredictions(words, context: r.context, at: .seconds(t)))
        }

        /// A press at `t` (released 50 ms later).
        mutating func press(at t: Double) {
            func frame(_ v: Int32, _ at: Double) -> InputFrame {
                InputFrame(time: .seconds(at), events: [InputEvent(type: EventCodes.EV_KEY, code: EventCodes.KEY_SPACE, value: v)])
            }
            show(engine.handle(frame: frame(1, t), device: 0))
            show(engine.handle(frame: frame(0, t + 0.05), device: 0))
        }

        mutating func run(until t: Double) { show(engine.advance(to: .seconds(t))) }

        func shot(_ x: XvfbServer) throws -> Screenshot {
            overlay.sync()
            return try #require(Screenshot.capture(display: x.display))
        }
    }

    /// Every pixel of `r` is `rgb`.
    static func all(_ s: Screenshot, _ r: PixelRect, _ rgb: UInt32) -> Bool {
        for y in r.y..<r.maxY { for x in r.x..<r.maxX where s.rgb(x, y) != rgb { return false } }
        return true
    }

    static func count(_ s: Screenshot, _ r: PixelRect, where test: (UInt32) -> Bool) -> Int {
        var n = 0
        for y in r.y..<r.maxY { for x in r.x..<r.maxX where test(s.rgb(x, y)) { n += 1 } }
        return n
    }

    @Test func aFieldAtTheTopHasThePanelAtTheBottomAndStaysUncovered() throws {
        let x = try XvfbServer()
        let app = try AppWindow(x.display, x: 20, y: 40, width: 760, height: 40)
        let overlay = try Overlay(settings: .init(), display: x.display)
        var s = try Session(field: Rect(x: 20, y: 40, width: 760, height: 40), predictions: 5, overlay: overlay)
        s.open(at: 0.5)
        s.words(["I", "The", "You", "It", "We"], at: 0.51)
        let shot = try s.shot(x)
        OverlayTests.keep(shot, "keyboard-bottom")
        let panel = try #require(overlay.keyboardPanel.picture?.panel)
        #expect(overlay.keyboardPanel.window.isShown)
        // Full width, at the bottom, at most half the screen high, below the field.
        #expect(panel.x == 0 && panel.width == 800 && panel.maxY == 600 && panel.height <= 300 && panel.y > 80, "\(panel)")
        // The field (the application's white window) is untouched, ring or no ring.
        #expect(Self.all(shot, PixelRect(x: 20, y: 40, width: 760, height: 40), 0xFFFFFF))
        // The panel's own colour fills its margins; keys are drawn in theirs.
        #expect(shot.rgb(panel.x + 1, panel.y + 1) == KeyboardPanel.background.rgb)
        let picture = try #require(overlay.keyboardPanel.picture)
        let q = try #require(picture.cells.first { $0.label == "Q" || $0.label == "q" })
        #expect(shot.rgb(panel.x + q.frame.x + 2, panel.y + q.frame.y + 2) == KeyboardPanel.characterKey.rgb)
        let shift = try #require(picture.cells.first { $0.label == "shift" })
        #expect(shot.rgb(panel.x + shift.frame.x + 2, panel.y + shift.frame.y + 2) == KeyboardPanel.functionKey.rgb)
        // Five word cells, white, with the words in them (dark ink inside each).
        let words = picture.cells.filter { $0.kind == .word }
        #expect(words.map(\.label) == ["I", "The", "You", "It", "We"])
        for w in words {
            let r = PixelRect(x: panel.x + w.frame.x, y: panel.y + w.frame.y, width: w.frame.width, height: w.frame.height)
            #expect(shot.rgb(r.x + 2, r.y + 2) == 0xFFFFFF)
            #expect(Self.count(shot, r) { $0 & 0xFF < 0x80 } > 10, "ink of \(w.label)")
        }
        // The ring (blue) is on the first stop, the prediction row, over the panel.
        #expect(shot.pixels.contains(Self.blue.rgb))
        _ = app
    }

    @Test func aFieldInTheLowerHalfHasThePanelAtTheTop() throws {
        let x = try XvfbServer()
        let app = try AppWindow(x.display, x: 20, y: 500, width: 760, height: 40)
        let overlay = try Overlay(settings: .init(), display: x.display)
        var s = try Session(field: Rect(x: 20, y: 500, width: 760, height: 40), predictions: 0, overlay: overlay)
        s.open(at: 0.5)
        let shot = try s.shot(x)
        OverlayTests.keep(shot, "keyboard-top")
        let panel = try #require(overlay.keyboardPanel.picture?.panel)
        #expect(panel.y == 0 && panel.width == 800 && panel.maxY < 500, "\(panel)")
        #expect(Self.all(shot, PixelRect(x: 20, y: 500, width: 760, height: 40), 0xFFFFFF))
        #expect(shot.rgb(1, 1) == KeyboardPanel.background.rgb)
        // No prediction row: the first key row follows the text line.
        #expect(overlay.keyboardPanel.picture?.cells.contains { $0.kind == .word } == false)
        _ = app
    }

    /// The text line follows the type lines; the ring sits in the gap around the highlighted key
    /// (the key's own colour is whole inside it); closing takes the panel away.
    @Test func theTextLineTheRingAndTheClose() throws {
        let x = try XvfbServer()
        let overlay = try Overlay(settings: .init(), display: x.display)
        var s = try Session(field: Rect(x: 20, y: 40, width: 760, height: 40), value: "Dear", predictions: 0, overlay: overlay)
        s.open(at: 0.5)
        #expect(overlay.keyboardPanel.picture?.text.before == "Dear")
        let empty = try s.shot(x)
        let panel = try #require(overlay.keyboardPanel.picture?.panel)
        let line = try #require(overlay.keyboardPanel.picture?.textLine)
        let lineOnScreen = PixelRect(x: panel.x + line.x, y: panel.y + line.y, width: line.width, height: line.height)
        let inkBefore = Self.count(empty, lineOnScreen) { $0 & 0xFF < 0x80 }
        #expect(inkBefore > 20)  // "Dear" and the caret
        // Rows as groups, 1 s a stop: row 1 (q…p) from 0.5 s, pressed at 1.4 s; its first key q
        // from 1.4 s.
        s.press(at: 1.4)   // row 1: its keys are scanned
        s.run(until: 2.3)
        let ringed = try s.shot(x)
        let q = try #require(overlay.keyboardPanel.picture?.cells.first { $0.label.lowercased() == "q" })
        let qOnScreen = PixelRect(x: panel.x + q.frame.x, y: panel.y + q.frame.y, width: q.frame.width, height: q.frame.height)
        #expect(s.lines.contains { if case .highlight(let id, .item, _) = $0.event { return id == "key:q" } else { return false } })
        #expect(ringed.has(Self.blue, qOnScreen.x - 2, qOnScreen.y + qOnScreen.height / 2), "the ring left of q")
        #expect(ringed.rgb(qOnScreen.x + 2, qOnScreen.y + 2) == KeyboardPanel.characterKey.rgb, "q itself, whole")
        s.press(at: 2.35)  // q
        #expect(s.lines.contains { if case .typed(let t) = $0.event { return t.edit.text == "q" } else { return false } })
        #expect(overlay.keyboardPanel.picture?.text.before == "Dearq")
        let typed = try s.shot(x)
        #expect(Self.count(typed, lineOnScreen) { $0 & 0xFF < 0x80 } > inkBefore)
        // A result line read back from the application wins (the application changed the text).
        _ = overlay.observe(TranscriptLine(t: .seconds(2.5), .typeResult(TypeResult(id: "field", label: "Message", text: "Dear q", secure: false, .done("")))),
                            model: s.engine.model)
        #expect(overlay.keyboardPanel.picture?.text.before == "Dear q")
        s.show(s.engine.closeKeyboard(at: .seconds(3)))
        let closed = try s.shot(x)
        #expect(!overlay.keyboardPanel.window.isShown)
        #expect(!closed.pixels.contains(KeyboardPanel.background.rgb))
    }

    @Test func aPasswordIsShownAsBullets() throws {
        let x = try XvfbServer()
        let overlay = try Overlay(settings: .init(), display: x.display)
        var s = try Session(field: Rect(x: 20, y: 40, width: 760, height: 40), entry: .password, value: nil, predictions: 5, overlay: overlay)
        s.open(at: 0.5)
        s.press(at: 1.4)
        s.run(until: 2.3)
        s.press(at: 2.35)
        #expect(overlay.keyboardPanel.picture?.text.before == "•")
        #expect(overlay.keyboardPanel.picture?.cells.contains { $0.kind == .word } == false)
        _ = try s.shot(x)
    }

    /// The pure parts: what the text line keeps around the caret, and edits with moves.
    @Test func theTextLineKeepsTheCaretInView() {
        var t = KeyboardTextLine(before: "hello")
        t.apply(TypedText(KeyboardText.Edit(delete: 1, text: "p me", move: -2), key: "k"))
        #expect(t.before == "hellp " && t.after == "me")
        t.read("hellp me")
        #expect(t.before == "hellp " && t.after == "me")  // agrees: kept
        t.read("help you")
        #expect(t.before == "help you" && t.after == "")
        let long = KeyboardTextLine(before: String(repeating: "a", count: 100) + "end", after: "tail")
        let v = long.visible(limit: 20)
        #expect(v.before.hasPrefix("…") && v.before.hasSuffix("end") && v.before.count + v.after.count <= 20 && v.after == "tail")
    }
}
