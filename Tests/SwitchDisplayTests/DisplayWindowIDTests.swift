import SwitchDisplay
import Testing

/// A window's id across the seam: written and read back as the transcript has it, ordered by
/// number within a backend.
@Suite struct DisplayWindowIDTests {
    @Test func writtenAndReadBack() {
        let id = DisplayWindowID(backend: "x11", number: 0x400004)
        #expect(id.description == "x11:0x400004")
        #expect(DisplayWindowID(parsing: "x11:0x400004") == id)
        #expect(DisplayWindowID(parsing: "wlroots:0x2a")?.number == 42)
        for bad in ["desktop", "x11:400004", "x11:0x", ":0x1", "x11:0xzz", "a/b:0x1"] { #expect(DisplayWindowID(parsing: bad) == nil, "\(bad)") }
    }

    @Test func orderedByNumberNotByText() {
        #expect(DisplayWindowID(backend: "x11", number: 0x9) < DisplayWindowID(backend: "x11", number: 0x10))
        #expect(DisplayWindowID(backend: "gnome", number: 99) < DisplayWindowID(backend: "x11", number: 1))
    }
}
