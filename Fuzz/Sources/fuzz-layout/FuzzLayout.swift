import FuzzSupport
import SwitchCore

/// Keyboard layouts (`keyboards/NAME.json`, issue 32): the reader, and what the keyboard does with
/// a layout it accepts: every computed page placed for each scanning method (a key that looked
/// like a placeholder once indexed out of range there), each page drawn as a keyboard tree and
/// scanned, and a few of its characters typed by the simulated user on the real engine.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLayout(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    do {
        Fuzz.exercise(try KeyboardLayoutDecoder.decode(bytes, file: Fuzz.file))
    } catch {
        Fuzz.check(error, in: bytes)
    }
    return 0
}

extension Fuzz {
    static func exercise(_ layout: KeyboardLayout) {
        let cost = ScanCostModel(scanTime: .seconds(1), firstItemPause: .zero)
        let methods = [KeyboardArrangement.Method(grouping: .containers, cost: cost),
                       KeyboardArrangement.Method(grouping: .auto, cost: cost),
                       KeyboardArrangement.Method(grouping: .containers, cost: cost, groupSwitches: 3)]
        for method in methods {
            for slots in [0, 3] {
                let arranged = KeyboardArrangement.arrange(layout, method: method, slots: slots)
                for (page, original) in zip(arranged.pages, layout.pages) {
                    require(page.computed == nil, "page \(page.name) still computed")
                    // Every key of a computed page placed once, nothing else.
                    if let c = original.computed {
                        require(page.rows.joined().map(\.id).sorted() == (c.keys + c.fixed.joined()).map(\.id).sorted(),
                                "page \(page.name) placed \(page.rows.joined().map(\.id)), not its keys")
                    }
                    let content = KeyboardTree.Content(page: page, text: KeyboardText(), predictions: ["one", "two"], slots: slots, password: false)
                    let screen = Size(width: 1280, height: 800)
                    let panel = KeyboardTree.panel(screen: screen, field: nil, lines: KeyboardTree.lines(rows: page.rows.count, slots: slots))
                    let model = ScanModel(tree: KeyboardTree.tree(content, panel: panel, screen: screen))
                    require(model.items.count == page.rows.joined().count + min(slots, 2), "page \(page.name) scans \(model.items.count) items")
                }
            }
        }
        // The simulated user types the first few characters a single key types.
        var text = ""
        for page in layout.pages {
            for key in page.rows.joined() + (page.computed.map { $0.keys + $0.fixed.joined() } ?? []) {
                if case .text(let t) = key.kind, t.count == 1, text.count < 3 { text += t }
            }
        }
        guard !text.isEmpty else { return }
        let sim = TextEntrySimulation(base: Profile(), layout: layout, method: .grouped, predictions: 0)
        do {
            let r = try sim.type(text) { _, _ in [] }
            require(r.characters == Array(text.lowercased()).count, "typed \(r.characters) characters of \(text.debugDescription)")
        } catch {
            // A character that is no key's in lower case (the simulation compares lower case):
            // left out, as `text stats` leaves it out; nothing else may fail.
            guard case .untypeable = error else { fatalError("typing \(text.debugDescription): \(error)") }
        }
    }
}

@_cdecl("fuzz_layout_main")
public func fuzzLayoutMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.main(argc, argv, fuzzLayout)
}
