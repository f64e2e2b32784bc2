import Foundation
@testable import SwitchCore
import Testing

/// `text stats`'s fast path is the real engine's numbers: the keyboard's trees made from a template
/// of their shape (the words put in their places), the levels a scanner shaped for that shape, and
/// group selection's cuts kept by weight sequence, all carried from one phrase to the next, give
/// exactly the times and presses of engines that build, shape and cut everything afresh
/// (`KeyboardModelCache(reusing: false)`), for every layout, method and switch count.
@Suite("Text entry simulation: the fast path is the full replay")
struct TextEntryFastPathTests {
    static let phrases = ["my watch fell in the water", "breathing is difficult", "I can see the rings"]

    /// A context's words: the bundled word list's, by frequency (deterministic, no presage).
    static func predictor() throws -> @Sendable (String, Int) -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../Keyboards/words/en.txt")
        let list = try WordList(text: String(contentsOf: url.standardized, encoding: .utf8), file: "en.txt")
        return { context, count in var l = list; return l.predict(context, count: count) }
    }

    @Test(arguments: ["qwerty", "abc", "frequency"])
    func the_fast_path_gives_exactly_the_full_replays_times_and_presses(_ name: String) throws {
        let layout = try TextEntrySimulationTests.layout(name)
        let predict = try Self.predictor()
        var reused = 0
        for method in TextEntrySimulation.Method.all {
            for n in [0, 5] {
                let sim = TextEntrySimulation(base: Profile(), layout: layout, method: method, predictions: n)
                var fast = KeyboardModelCache()
                for phrase in Self.phrases {
                    var full = KeyboardModelCache(reusing: false)
                    let slow = try sim.type(phrase, models: &full, predict: predict)
                    let quick = try sim.type(phrase, models: &fast, predict: predict)
                    #expect(quick == slow, "\(name) \(method) \(n)p: \(phrase)")
                }
                reused += fast.templatesMade
            }
        }
        #expect(reused > 0)  // the fast path was taken
    }

    /// A tree with other words than its template is ordered, grouped and shaped as its template:
    /// the model made from the template is the one `ScanModel(tree:)` makes of the tree.
    @Test func a_model_from_a_template_is_the_model_of_its_tree() throws {
        let layout = try TextEntrySimulationTests.layout("qwerty")
        let panel = Rect(x: 0, y: 400, width: 1280, height: 400)
        let screen = Size(width: 1280, height: 800)
        var cache = KeyboardModelCache()
        for words in [["hello", "help", "he"], ["the", "to", "that"], ["I"]] {
            let content = KeyboardTree.Content(page: layout.pages[0], text: KeyboardText(before: ""), predictions: words, slots: 3, password: false)
            let fromTemplate = cache.model(content, panel: panel, screen: screen)
            let built = ScanModel(tree: KeyboardTree.tree(content, panel: panel, screen: screen))
            #expect(fromTemplate.items.map(\.id) == built.items.map(\.id))
            #expect(fromTemplate.items.map(\.description) == built.items.map(\.description))
            #expect(fromTemplate.items.map(\.element.frame) == built.items.map(\.element.frame))
            #expect(fromTemplate.items.map(\.group) == built.items.map(\.group))
            #expect(fromTemplate.groups.map(\.id) == built.groups.map(\.id))
            #expect(fromTemplate.groups.map(\.stops) == built.groups.map(\.stops))
            #expect(fromTemplate.topStops == built.topStops)
            for w in words { #expect(fromTemplate.itemIndex(id: KeyboardTree.wordPrefix + w.lowercased()) == built.itemIndex(id: KeyboardTree.wordPrefix + w.lowercased())) }
            #expect(fromTemplate.itemIndex(id: KeyboardTree.wordPrefix + "\u{0}0") == nil)
        }
        #expect(cache.templatesMade == 2)  // three words, then one
    }
}
