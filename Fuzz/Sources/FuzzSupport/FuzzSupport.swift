import SwitchCore
import SwitchFormats
import SwitchReport

/// What every fuzz target shares: the input as bytes, the invariants every reader promises, and
/// the work done on whatever a reader accepts (so the code behind the reader is fuzzed too).
/// A broken invariant is a `fatalError`, which libFuzzer records as a crash with its input.
public enum Fuzz {
    /// The name the targets give their input; errors must name it.
    public static let file = "fuzz-input"

    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("fuzz invariant broken: " + message()) }
    }

    /// A reader's error is one line that names the file, and its line and column (when given)
    /// are inside the input.
    public static func check(_ error: InputError, in bytes: [UInt8], file: String = Fuzz.file) {
        let text = error.description
        require(error.file == file, "the error names \(error.file), not \(file): \(text)")
        require(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029 },
                "the error is not one printable line: \(text.debugDescription)")
        if let line = error.line {
            let lines = lineCount(bytes)
            require(line >= 1 && line <= lines, "line \(line) outside 1…\(lines): \(text)")
        }
        if let column = error.column { require(column >= 1, "column \(column): \(text)") }
    }

    /// Lines as the most generous reader counts them: YAML also breaks lines at a lone CR, NEL,
    /// LINE SEPARATOR and PARAGRAPH SEPARATOR.
    static func lineCount(_ bytes: [UInt8]) -> Int {
        var n = 1
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case 0x0A: n += 1
            case 0x0D where i + 1 >= bytes.count || bytes[i + 1] != 0x0A: n += 1
            case 0xC2 where i + 1 < bytes.count && bytes[i + 1] == 0x85: n += 1
            case 0xE2 where i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9): n += 1
            default: break
            }
            i += 1
        }
        return n
    }

    /// Everything the tools do with a tree once it is read: scan order, reports, statistics,
    /// audit, hit testing, and writing it back out (which must read back).
    public static func exercise(_ tree: ElementTree) {
        let model = ScanModel(tree: tree)
        var ids = Set<String>()
        for item in model.items { require(ids.insert(item.id).inserted, "scan item id \(item.id) twice") }
        _ = TreeReport.text(model)
        _ = TreeReport.json(model).rendered()
        _ = TreeAudit.findings(tree, model: model)
        _ = TreeStats(tree: tree, model: model, scanning: ScanningSettings())
        for (x, y) in [(0.0, 0.0), (tree.screen.width / 2, tree.screen.height / 2), (tree.screen.width, tree.screen.height)] {
            if let hit = model.hitTest(Point(x: x, y: y)) { require(model.items.indices.contains(hit), "hit test index \(hit)") }
        }
        let written = Array(TreeEncoder.encode(tree).rendered().utf8)
        do {
            let again = try TreeDecoder.decode(written, file: "written.json")
            require(ScanModel(tree: again).items.count == model.items.count, "the written tree scans differently")
        } catch {
            fatalError("the tree written back does not read: \(error)")
        }
    }
}

extension Fuzz {
    /// A tree drawn as `tree show --format svg` draws it, and as the report of a session over it:
    /// the engine scans it (auto scanning, 1 s a stop, the tree loaded again as a layout change at
    /// 5 s) for 12 s with a select every 1.5 s, and the report renders those lines. Both documents
    /// must be text a browser takes: no control character XML cannot carry, no NaN or infinity,
    /// no number with an exponent, the elements closed.
    public static func draw(_ tree: ElementTree) {
        let svg = ScreenPicture.svg(tree, title: "fuzz")
        checkDocument(svg, "svg")
        var profile = Profile()
        profile.scanning.loops = 0
        profile.switches = [SwitchBinding(keyName: "KEY_SPACE", code: EventCodes.KEY_SPACE, action: .select)]
        var engine = Engine(tree: tree, profile: profile, devices: [nil])
        var lines = engine.start(at: .zero)
        var t = Instant.zero
        for k in 1...8 {
            t = Instant.seconds(Double(k) * 1.5)
            if k == 4 { lines += engine.loadLayout(tree, at: Instant.seconds(5)) }
            for value: Int32 in [1, 0] {
                let at = t + Interval.milliseconds(Int64(value == 1 ? 0 : 100))
                let frame = InputFrame(time: at, events: [InputEvent(type: EventCodes.EV_KEY, code: EventCodes.KEY_SPACE, value: value)])
                lines += engine.handle(frame: frame, device: 0)
            }
        }
        let end = Instant.seconds(12)
        lines += engine.advance(to: end)
        let screens = [SessionReport.Screen(at: .zero, name: "fuzz", tree: tree), SessionReport.Screen(at: Instant.seconds(5), name: "again", tree: tree)]
        let html = SessionReport.html(SessionReport.Session(treeName: "fuzz", profileName: "fuzz", inputName: "fuzz",
                                                            screens: screens, lines: lines, end: end))
        checkDocument(html, "html")
    }

    static func checkDocument(_ text: String, _ root: String) {
        require(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" },
                "a control character in the \(root)")
        for bad in ["nan", "NaN", "inf", "e+", "e-"] {
            // Words of the tree are text (a label "infinite"): only numbers in attributes count.
            require(!text.contains("=\"\(bad)") && !text.contains("=\"-\(bad)") && !text.contains(bad + "\""), "\(bad) in a number of the \(root)")
        }
        require(text.components(separatedBy: "<" + root).count == text.components(separatedBy: "</" + root + ">").count,
                "<\(root)> not closed")
    }
}

import CLibFuzzer

extension Fuzz {
    public typealias Callback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    /// Hands the command line to libFuzzer's driver with the target's function.
    public static func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ callback: Callback) -> CInt {
        var argc = argc
        var argv = argv
        return LLVMFuzzerRunDriver(&argc, &argv, callback)
    }
}
