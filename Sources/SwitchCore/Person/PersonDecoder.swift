/// Reads a person file (`PersonModel`): strict like profiles. An unknown key, a value of the
/// wrong kind, a negative, NaN or absurd value is an `InputError` with the file, line, column
/// and the field's path, saying what is expected. Only `reactionTime` is required; the rest
/// default to a person who holds 0.15 ± 0.05 s, never misses, has no bounce and no accidental
/// presses, seed 1.
public enum PersonDecoder {
    static let topKeys: Set<String> = ["name", "description", "reactionTime", "pressDuration", "falsePressDuration", "bounce",
                                       "missProbability", "falsePressesPerMinute", "seed"]
    static let distributionKeys: Set<String> = ["mean", "sd"]
    static let bounceKeys: Set<String> = ["probability", "gap", "duration"]

    /// What a person may be: the slowest switch users react in a few seconds; a press held longer
    /// than 5 s is not a press; missing 9 stops in 10 would never select anything.
    public static let ranges: [String: ClosedRange<Double>] = [
        "reactionTime.mean": 0.05...10, "reactionTime.sd": 0...5,
        "pressDuration.mean": 0.005...5, "pressDuration.sd": 0...5,
        "falsePressDuration.mean": 0.001...5, "falsePressDuration.sd": 0...5,
        "bounce.probability": 0...1, "bounce.gap": 0.001...1, "bounce.duration": 0.0005...0.1,
        "missProbability": 0...0.9, "falsePressesPerMinute": 0...60,
    ]
    /// Seeds are whole numbers a JSON number holds exactly.
    public static let maximumSeed = 9_007_199_254_740_991.0

    public static func decode(_ bytes: [UInt8], file: String) throws(InputError) -> PersonModel {
        let json = try JSONParser.parse(bytes, file: file)
        return try decode(json, reader: JSONReader(file: file, bytes: bytes))
    }

    public static func decode(_ json: JSONNode, reader r: JSONReader) throws(InputError) -> PersonModel {
        var p = PersonModel()
        let top = try r.object(json, "", allowed: topKeys)
        func number(_ m: [String: JSONNode], _ key: String, _ path: String) throws(InputError) -> Double? {
            guard let v = m[key] else { return nil }
            let full = r.join(path, key)
            return try r.number(v, full, in: ranges[full]!)
        }
        func distribution(_ key: String) throws(InputError) -> PersonModel.Distribution? {
            guard let node = top[key] else { return nil }
            let m = try r.object(node, key, allowed: distributionKeys)
            guard let mean = try number(m, "mean", key) else { throw r.error(node, key, "missing key \"mean\" (seconds)") }
            let sd = try number(m, "sd", key) ?? 0
            // A spread far beyond the mean is not a person's timing (and the lognormal would put
            // almost every draw near zero).
            if sd > 2 * mean, let v = m["sd"] {
                throw r.error(v, key + ".sd", "\(formatNumber(sd)) is more than twice the mean (\(formatNumber(mean))); expected a coefficient of variation of 2 or less")
            }
            return PersonModel.Distribution(mean: mean, sd: sd)
        }
        if let v = top["name"] {
            p.name = try r.string(v, "name")
            guard !p.name.trimmed.isEmpty else { throw r.error(v, "name", "expected a name, found an empty string") }
        }
        if let v = top["description"] { p.description = try r.string(v, "description") }
        guard let rt = try distribution("reactionTime") else {
            throw r.error(json, "", "missing key \"reactionTime\" (an object {\"mean\": seconds, \"sd\": seconds})")
        }
        p.reactionTime = rt
        if let d = try distribution("pressDuration") { p.pressDuration = d }
        p.falsePressDuration = try distribution("falsePressDuration")
        if let node = top["bounce"] {
            let m = try r.object(node, "bounce", allowed: bounceKeys)
            if let v = try number(m, "probability", "bounce") { p.bounce.probability = v }
            if let v = try number(m, "gap", "bounce") { p.bounce.gap = v }
            if let v = try number(m, "duration", "bounce") { p.bounce.duration = v }
        }
        if let v = try number(top, "missProbability", "") { p.missProbability = v }
        if let v = try number(top, "falsePressesPerMinute", "") { p.falsePressesPerMinute = v }
        if let v = top["seed"] {
            let d = try r.number(v, "seed")
            guard d >= 0, d <= maximumSeed, d.rounded() == d else {
                throw r.error(v, "seed", "\(formatNumber(d)) is not a whole number in 0…\(Int64(maximumSeed))")
            }
            p.seed = UInt64(d)
        }
        return p
    }
}
