import Foundation
import SwitchCore
import Testing

/// `text stats`'s perfect user on the real engine: its times are the cost model's (`tree stats`:
/// the stop at index j of a level costs (j+1)·T), and every character of every layout is
/// reachable with every method and switch count.
@Suite("Text entry simulation")
struct TextEntrySimulationTests {
    static func layout(_ name: String) throws -> KeyboardLayout { try KeyboardLayoutTests.bundled(name) }

    @Test func the_baseline_costs_what_tree_stats_counts() throws {
        // qwerty, one group a row, T = 1 s: "a" is row 2 (2 s) + its first key (1 s); "h" is
        // row 2 + the sixth key (6 s); space is row 4 + the second key. Presses: two a character.
        let sim = TextEntrySimulation(base: Profile(), layout: try Self.layout("qwerty"), method: .grouped, predictions: 0)
        let r = try sim.type("ah h") { _, _ in [] }
        #expect(r.time == Interval(microseconds: (3 + 8 + 6 + 8) * 1_000_000 - 8))  // each press 1 µs before its dwell's end
        #expect(r.presses == 8)
        #expect(r.characters == 4)
    }

    @Test func a_pause_on_the_first_item_and_a_hold_are_paid_as_tree_stats_pays_them() throws {
        var p = Profile()
        p.scanning.pauseOnFirstItem = .seconds(0.5)
        p.switchStabilization.holdDuration = .seconds(0.2)
        let sim = TextEntrySimulation(base: p, layout: try Self.layout("qwerty"), method: .grouped, predictions: 0)
        // "q": row 1 (P + T + H), its first key (P + T + H).
        let r = try sim.type("q") { _, _ in [] }
        #expect(r.time == Interval(microseconds: 2 * 1_700_000 - 2))
    }

    @Test func a_predicted_word_is_taken_when_the_row_shows_it() throws {
        let sim = TextEntrySimulation(base: Profile(), layout: try Self.layout("qwerty"), method: .grouped, predictions: 3)
        var asked: [String] = []
        let r = try sim.type("hello you") { context, count in
            asked.append(context)
            return context.lowercased().hasSuffix("h") ? ["hello", "help"] : (context.hasSuffix(" ") ? ["you"] : [])
        }
        // h (row 3 of 5 with the prediction row, 6th key), then "hello" (row 1, key 1), then "you" (row 1, key 1).
        #expect(r.presses == 2 + 2 + 2)
        #expect(asked == ["", "H", "Hello ", "Hello you "])
    }

    @Test func group_selection_presses_one_colour_a_scan_time() throws {
        let sim = TextEntrySimulation(base: Profile(), layout: try Self.layout("qwerty"), method: .groupSelection(2), predictions: 0)
        let r = try sim.type("e") { _, _ in [] }
        #expect(r.time == .seconds(Double(r.presses)))
        #expect(r.presses >= 2 && r.presses <= 6)
    }

    /// Property: every character any page of a layout types is reached, from the page it is on
    /// or through page keys, with every method and switch count, in a random order and under
    /// random timings (seeded).
    @Test(arguments: ["qwerty", "abc", "frequency"])
    func every_character_of_every_layout_is_reachable_in_every_method(_ name: String) throws {
        let layout = try Self.layout(name)
        var characters = layout.typeableCharacters.filter { !$0.isUppercase && $0 != "\n" }.sorted()
        var rng = SplitMix(seed: UInt64(name.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) }))
        for method in TextEntrySimulation.Method.all {
            characters.shuffle(using: &rng)
            var p = Profile()
            p.scanning.autoScanningTime = .milliseconds(Int64.random(in: 300...1500, using: &rng))
            p.scanning.pauseOnFirstItem = .milliseconds(Int64.random(in: 0...500, using: &rng))
            let sim = TextEntrySimulation(base: p, layout: layout, method: method, predictions: Bool.random(using: &rng) ? 0 : 3)
            // Spaces between the characters: every mark is typed on its own, as a word.
            let phrase = characters.map(String.init).joined(separator: " ")
            let r = try sim.type(phrase) { _, _ in [] }
            #expect(r.characters == phrase.count, "\(name) \(method)")
        }
    }
}

/// A small seeded generator (SplitMix64), so the property's cases are the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
