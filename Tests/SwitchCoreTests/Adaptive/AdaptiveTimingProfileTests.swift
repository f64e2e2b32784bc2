import SwitchCore
import Testing

/// The profile's `adaptiveTiming` section: decoded, range-checked, written back; its line in
/// the transcript; the engine applying a change.
@Suite("Adaptive timing in profiles and the engine")
struct AdaptiveTimingProfileTests {
    static func decode(_ text: String) throws(InputError) -> Profile { try ProfileDecoder.decode(Array(text.utf8), file: "p.json") }

    static func error(_ text: String) -> String {
        do { _ = try decode(text); return "no error" } catch { return error.description }
    }

    @Test func the_section_reads_and_is_off_by_default() throws {
        #expect(Profile().adaptiveTiming == AdaptiveTimingSettings())
        #expect(!Profile().adaptiveTiming.enabled)
        let p = try Self.decode(#"{"adaptiveTiming": {"enabled": true, "minimum": 0.6, "maximum": 2.5}}"#)
        #expect(p.adaptiveTiming.enabled)
        #expect(p.adaptiveTiming.minimum == .seconds(0.6) && p.adaptiveTiming.maximum == .seconds(2.5))
    }

    @Test func bad_values_name_their_setting() {
        #expect(Self.error(#"{"adaptiveTiming": {"enabled": 1}}"#) == "p.json:1:32: adaptiveTiming.enabled: expected true or false, found a number")
        #expect(Self.error(#"{"adaptiveTiming": {"minimum": 0.05}}"#) == "p.json:1:32: adaptiveTiming.minimum: 0.05 is out of range (expected 0.1…60)")
        #expect(Self.error(#"{"adaptiveTiming": {"minimum": 3, "maximum": 2}}"#) == "p.json:1:46: adaptiveTiming.maximum: the minimum (3 s) is above the maximum (2 s); expected minimum ≤ maximum")
        #expect(Self.error(#"{"adaptiveTiming": {"minimum": 6}}"#) == "p.json:1:32: adaptiveTiming.minimum: the minimum (6 s) is above the maximum (5 s); expected minimum ≤ maximum")
        #expect(Self.error(#"{"adaptiveTiming": {"step": 1}}"#).contains("unknown key \"step\" (expected one of: enabled, maximum, minimum)"))
    }

    @Test func the_section_is_written_back_and_reads_as_the_same() throws {
        var p = Profile()
        p.adaptiveTiming.enabled = true
        p.adaptiveTiming.minimum = .seconds(0.7)
        let text = ProfileEncoder.encode(p).rendered(indent: 2)
        #expect(text.contains("\"adaptiveTiming\": {\n    \"enabled\": true,\n    \"minimum\": 0.7,\n    \"maximum\": 5\n  }"))
        #expect(try Self.decode(text) == p)
    }

    @Test func the_change_is_a_timing_line() {
        let change = AdaptiveTimingChange(from: .seconds(1), to: .milliseconds(1052), reason: .slower,
                                          window: .init(selections: 20, undone: 3, missed: 1, medianFraction: 0.55))
        let line = TranscriptLine(t: .seconds(12.5), .adaptiveTiming(change))
        #expect(TranscriptFormat.jsonl(line) == #"{"t":12.500,"type":"timing","name":"autoScanningTime","from":1.0,"to":1.052,"reason":"slower","selections":20,"undone":3,"missed":1,"medianPress":0.55}"#)
        #expect(TranscriptFormat.text(line) == "  12.500  timing     autoScanningTime 1.0 → 1.052 s (slower: of 20 selections 3 undone, 1 after a full pass, median press at 55 % of the dwell)")
    }

    /// On the engine: a person far faster than the dwell brings the scan time down step by step,
    /// each change a line, in force from the next highlight, in the engine's profile.
    @Test func the_engine_applies_each_change() {
        var profile = PersonSessionTests.profile { $0.scanning.autoScanningTime = .seconds(2); $0.adaptiveTiming.enabled = true }
        profile.adaptiveTiming.minimum = .seconds(0.4)
        let person = PersonSessionTests.person(seed: 4) { $0.reactionTime = .init(mean: 0.5, sd: 0.05) }
        let r = PersonSessionTests.run(profile: profile, person: person, targets: PersonSessionTests.targets(600, of: 8, seed: 4), keepLines: true)
        let changes = r.lines.compactMap { line -> AdaptiveTimingChange? in if case .adaptiveTiming(let c) = line.event { return c } else { return nil } }
        #expect(changes.count >= 5)
        #expect(changes.first?.from == .seconds(2))
        #expect(zip(changes, changes.dropFirst()).allSatisfy { $0.to == $1.from })
        // The dwells after a change are its scan time, until the next one.
        let lines = r.lines.indices.filter { if case .adaptiveTiming = r.lines[$0].event { return true } else { return false } }
        let between = r.lines[lines[lines.count - 2]..<lines[lines.count - 1]]
        let highlights = between.filter { if case .highlight = $0.event { return true } else { return false } }.map(\.t)
        let gaps = Set(zip(highlights, highlights.dropFirst()).map { $1 - $0 })
        #expect(gaps.contains(changes[changes.count - 2].to))
        #expect(!gaps.contains(changes[changes.count - 2].from))
        let last = changes.last!
        // 0.5 s reactions: it settles near 0.5 / 0.65 ≈ 0.77 s, far below the 2 s it started at.
        #expect(last.to < .seconds(1.0) && last.to > .seconds(0.6))
    }
}
