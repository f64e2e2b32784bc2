@testable import SwitchDisplayServers
import SwitchCore
import Testing

/// The virtual keyboard's own keymap, compiled by the real libxkbcommon.
struct VirtualKeymapTests {
    @Test func baseKeymapCompilesWithModifierMasks() throws {
        let map = VirtualKeymap()
        let compiled = try CompiledKeymap(source: map.source)
        #expect(compiled.masks == ["Shift": 1, "Control": 4, "Mod1": 8, "Mod4": 64])
        #expect(map.code(of: 0xffe3) == 2)                  // Control_L
        #expect(map.code(of: 0x20) == 5)                    // space: the first base key
        #expect(map.code(of: 0x61) == UInt32(70))  // "a": 0x61 − 0x20 keys after space
        #expect(compiled.text.contains("EuroSign") == false)
    }

    /// "é", "ß", "€" and a character of no Latin layout get keys of their own; the compiled
    /// keymap types each at its key's only level.
    @Test func nonAsciiKeysymsGetKeysAndCompile() throws {
        var map = VirtualKeymap()
        let wanted: [UInt32] = ["é", "ß", "€", "ж"].map { KeyCombo.typingKeysym(for: Unicode.Scalar($0)!)! }
        let grew = map.make(room: wanted), grewAgain = map.make(room: wanted)
        #expect(grew)
        #expect(!grewAgain)  // already there: no new upload
        let compiled = try CompiledKeymap(source: map.source)
        for k in wanted {
            let code = try #require(map.code(of: k))
            #expect(compiled.text.contains("key <K\(code)>"), "\(k)")
        }
        #expect(compiled.text.contains("eacute") && compiled.text.contains("ssharp"))
        #expect(map.source.contains("[ U20AC ]") && map.source.contains("[ U0436 ]"))
    }

    /// With every key taken, the added keysym used longest ago gives its key up; the base keys
    /// and the keysyms needed now never do.
    @Test func fullKeymapRecyclesTheLeastRecentlyUsedKey() throws {
        var map = VirtualKeymap()
        let room = VirtualKeymap.maxKeys - VirtualKeymap.modifierKeysyms.count - VirtualKeymap.baseKeysyms.count
        let extra = (0..<room).map { 0x0100_4e00 + UInt32($0) }  // CJK ideographs
        let grew = map.make(room: extra)
        #expect(grew)
        #expect(map.keysyms.count + VirtualKeymap.modifierKeysyms.count == VirtualKeymap.maxKeys)
        _ = map.make(room: [extra[0]])                         // used again: now the most recent
        let code1 = map.code(of: extra[1])
        let recycled = map.make(room: [0x0100_9fa0])
        #expect(recycled)
        #expect(map.code(of: extra[1]) == nil)                 // the least recently used went
        #expect(map.code(of: 0x0100_9fa0) == code1)            // onto its key
        #expect(map.code(of: extra[0]) != nil)
        #expect(map.code(of: 0x61) != nil)
        _ = try CompiledKeymap(source: map.source)
        #expect(map.source.contains("maximum = 255;"))
    }
}
