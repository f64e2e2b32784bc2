import Testing
@testable import SwitchCore

/// Item scanning over shaped levels (profile `"grouping": "rowColumn"` and `"auto"`), on the
/// virtual clock, auto style, 1 s per stop. The screens are MethodFixture's keyboard (rows
/// q w e r t / a s d f / z x / space) and a column of 12 buttons. `|` is a highlight, `^` a press.
///
///   rowcol_rows_then_items        |row1 (0) |row2 (1) ^select(1.5) |a |s |d |f |exit row2 (5.5)
///                                 ^select(6) |row2 again: the exit stop leaves the row
///   rowcol_item_in_row_menu       |row1 ^select(0.5) |q (0.5) |w (1.5) ^select(2) menu open on w …
///   rowcol_short_rows_inline      |row1 |row2 |z |x |space |row1: rows under three keys stay items
///   rowcol_labels_name_the_row    text output: highlight group "Q to T, row, 5 items"
///   auto_parts_of_a_column        |part1 ^select |part1#part1 ^select |b0 … ; |part1 |part2 |b9
///                                 ^select(2.5) menu open on b9: the cheap stops go first
@Suite struct ScannerRowColumnTests {
    typealias M = MethodFixture

    static func settings(_ grouping: Grouping) -> ScanningSettings {
        Fixture.settings(.auto) { $0.grouping = grouping }
    }

    @Test func rowcol_rows_then_items() {
        var h = ScannerHarness(M.keyboard(), Self.settings(.rowColumn))
        #expect(h.start() == ["0.000 scan started", "0.000 highlight group root#row1"])
        #expect(h.run(until: 1) == ["1.000 highlight group root#row2"])
        #expect(h.press(.select, at: 1.5) == ["1.500 highlight item a"])
        #expect(h.run(until: 5.5) == ["2.500 highlight item s", "3.500 highlight item d", "4.500 highlight item f",
                                      "5.500 highlight groupExit root#row2"])
        #expect(h.press(.select, at: 6) == ["6.000 highlight group root#row2"])
        #expect(h.violations.isEmpty)
    }

    @Test func rowcol_item_in_row_menu() {
        var h = ScannerHarness(M.keyboard(), Self.settings(.rowColumn))
        h.start()
        #expect(h.press(.select, at: 0.5) == ["0.500 highlight item q"])
        #expect(h.run(until: 1.5) == ["1.500 highlight item w"])
        let lines = h.press(.select, at: 2)
        #expect(lines.first == "2.000 menu open on w: menu:tap, menu:escape, menu:close")
    }

    @Test func rowcol_short_rows_inline() {
        var h = ScannerHarness(M.keyboard(), Self.settings(.rowColumn))
        h.start()
        #expect(h.run(until: 5) == ["1.000 highlight group root#row2", "2.000 highlight item z", "3.000 highlight item x",
                                    "4.000 highlight item space", "5.000 highlight group root#row1"])
    }

    @Test func rowcol_labels_name_the_row() {
        var scanner = Scanner(model: M.keyboard(), settings: Self.settings(.rowColumn))
        let out = scanner.handle(.start, at: .zero)
        let texts = out.compactMap { o -> String? in
            if case .emit(let e) = o { return TranscriptFormat.text(TranscriptLine(t: .zero, e), ids: true) }
            return nil
        }
        #expect(texts.last == #"   0.000  highlight  group     "Q to T, row, 5 items" [root#row1]"#)
    }

    @Test func auto_parts_of_a_column() {
        var h = ScannerHarness(M.column(12), Self.settings(.auto))
        #expect(h.start() == ["0.000 scan started", "0.000 highlight group root#part1"])
        #expect(h.press(.select, at: 0.5) == ["0.500 highlight group root#part1#part1"])
        #expect(h.press(.select, at: 1) == ["1.000 highlight item b0"])

        var g = ScannerHarness(M.column(12), Self.settings(.auto))
        g.start()
        #expect(g.run(until: 2) == ["1.000 highlight group root#part2", "2.000 highlight item b9"])
        #expect(g.press(.select, at: 2.5).first == "2.500 menu open on b9: menu:tap, menu:escape, menu:close")
        #expect(g.violations.isEmpty)
    }
}
