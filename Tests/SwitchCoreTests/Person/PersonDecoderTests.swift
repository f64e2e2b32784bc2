import SwitchCore
import Testing

/// Person files: the issue's example reads; every bad value is refused with its field named.
@Suite("Person files")
struct PersonDecoderTests {
    static func decode(_ text: String) throws(InputError) -> PersonModel {
        try PersonDecoder.decode(Array(text.utf8), file: "p.json")
    }

    static func error(_ text: String) -> String {
        do {
            _ = try decode(text)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func the_issues_example_reads() throws {
        let p = try Self.decode("""
        {"name": "typical", "reactionTime": {"mean": 0.8, "sd": 0.2}, "pressDuration": {"mean": 0.15, "sd": 0.05},
         "bounce": {"probability": 0.05, "gap": 0.03}, "missProbability": 0.01, "falsePressesPerMinute": 0.2, "seed": 1}
        """)
        #expect(p.name == "typical")
        #expect(p.reactionTime == PersonModel.Distribution(mean: 0.8, sd: 0.2))
        #expect(p.pressDuration == PersonModel.Distribution(mean: 0.15, sd: 0.05))
        #expect(p.bounce == PersonModel.Bounce(probability: 0.05, gap: 0.03))
        #expect(p.missProbability == 0.01)
        #expect(p.falsePressesPerMinute == 0.2)
        #expect(p.seed == 1)
        #expect(p.falsePressDuration == nil)
    }

    @Test func only_the_reaction_time_is_required() throws {
        let p = try Self.decode(#"{"reactionTime": {"mean": 1.2}}"#)
        #expect(p.reactionTime == PersonModel.Distribution(mean: 1.2, sd: 0))
        #expect(p.missProbability == 0 && p.falsePressesPerMinute == 0 && p.bounce.probability == 0 && p.seed == 1)
    }

    @Test func bad_values_name_their_field() {
        #expect(Self.error(#"{"name": "x"}"#) == #"p.json:1:1: missing key "reactionTime" (an object {"mean": seconds, "sd": seconds})"#)
        #expect(Self.error(#"{"reactionTime": {"mean": -0.8, "sd": 0.2}}"#) == "p.json:1:27: reactionTime.mean: -0.8 is out of range (expected 0.05…10)")
        #expect(Self.error(#"{"reactionTime": {"mean": 0.8, "sd": -1}}"#) == "p.json:1:38: reactionTime.sd: -1 is out of range (expected 0…5)")
        #expect(Self.error(#"{"reactionTime": {"mean": 0.8, "sd": 1e999}}"#) == "p.json:1:38: invalid JSON: number out of range")
        #expect(Self.error(#"{"reactionTime": {"mean": 400}}"#) == "p.json:1:27: reactionTime.mean: 400 is out of range (expected 0.05…10)")
        #expect(Self.error(#"{"reactionTime": {"mean": 0.8, "sd": 2}}"#).hasPrefix("p.json:1:38: reactionTime.sd: 2 is more than twice the mean (0.8)"))
        #expect(Self.error(#"{"reactionTime": {"sd": 0.2}}"#) == #"p.json:1:18: reactionTime: missing key "mean" (seconds)"#)
        #expect(Self.error(#"{"reactionTime": {"mean": "fast"}}"#) == "p.json:1:27: reactionTime.mean: expected a number, found a string")
        #expect(Self.error(#"{"reactionTime": {"mean": 0.8}, "missProbability": 1}"#) == "p.json:1:52: missProbability: 1 is out of range (expected 0…0.9)")
        #expect(Self.error(#"{"reactionTime": {"mean": 0.8}, "falsePressesPerMinute": -0.1}"#) == "p.json:1:58: falsePressesPerMinute: -0.1 is out of range (expected 0…60)")
        #expect(Self.error(#"{"reactionTime": {"mean": 0.8}, "bounce": {"probability": 1.5}}"#) == "p.json:1:59: bounce.probability: 1.5 is out of range (expected 0…1)")
        #expect(Self.error(#"{"reactionTime": {"mean": 0.8}, "bounce": {"gap": 0}}"#) == "p.json:1:51: bounce.gap: 0 is out of range (expected 0.001…1)")
        #expect(Self.error(#"{"reactionTime": {"mean": 0.8}, "seed": 1.5}"#) == "p.json:1:41: seed: 1.5 is not a whole number in 0…9007199254740991")
        #expect(Self.error(#"{"reactionTime": {"mean": 0.8}, "seed": -1}"#) == "p.json:1:41: seed: -1 is not a whole number in 0…9007199254740991")
        #expect(Self.error(#"{"reactionTime": {"mean": 0.8}, "sed": 1}"#) == #"p.json:1:40: sed: unknown key "sed" (expected one of: bounce, description, falsePressDuration, falsePressesPerMinute, missProbability, name, pressDuration, reactionTime, seed)"#)
        #expect(Self.error(#"{"reactionTime": {"mean": NaN}}"#).hasPrefix("p.json:1:27: "))
        #expect(Self.error(#"[1]"#) == "p.json:1:1: expected an object, found an array")
        #expect(Self.error(#"{"name": " ", "reactionTime": {"mean": 1}}"#) == "p.json:1:10: name: expected a name, found an empty string")
    }
}
