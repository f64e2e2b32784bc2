/// A profile written back as JSON with every setting present, defaults included, so a clinician
/// sees the real settings (`switchscan profiles show`). The output reads back as the same profile.
///
/// The settings are read by reflection (`Mirror`): a stored property's name is its JSON key (the
/// profile structs use Apple's setting names, as `ProfileDecoder` does), so a setting added to the
/// profile appears here without a second list to keep in step. The tests check the round trip and
/// that every key the decoder accepts is written.
public enum ProfileEncoder {
    public static func encode(_ profile: Profile) -> JSONOut {
        guard case .object(var members) = value(profile) else { return value(profile) }
        // Where touches go when the profile leaves it out depends on its switches: written as
        // the output in force, which reads back as that same default.
        if let k = members.firstIndex(where: { $0.0 == "touchAccommodations" }), case .object(var touch) = members[k].1,
           let o = touch.firstIndex(where: { $0.0 == "output" }) {
            touch[o].1 = .string(profile.touchOutput.rawValue)
            members[k].1 = .object(touch)
        }
        // The pause hold left out of a profile depends on its other holds (`Profile.pauseHold`):
        // written as the hold in force, which reads back as that same default.
        if let k = members.firstIndex(where: { $0.0 == "safetyExit" }) {
            members[k].1 = .object([("pauseHold", .number(profile.pauseHold.seconds)),
                                    ("pauseChord", profile.safetyExit.pauseChord.map { .string($0.description) } ?? .null)])
        }
        return .object(members)
    }

    private static func value(_ any: Any) -> JSONOut {
        switch any {
        case let s as String: return .string(s)
        case let b as Bool: return .bool(b)
        case let n as Int: return .number(Double(n))
        case let d as Double: return .number(d)
        case let i as Interval: return .number(i.seconds)
        case let binding as SwitchBinding:
            var members: [(String, JSONOut)] = [("key", .string(binding.keyName)), ("action", .string(binding.action.rawValue))]
            if let long = binding.longPressAction { members.append(("longPressAction", .string(long.rawValue))) }
            return .object(members)
        case let color as CursorColor:
            return .string(color.description)
        case let r as any RawRepresentable:
            return value(r.rawValue)
        default:
            break
        }
        let mirror = Mirror(reflecting: any)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.map { value($0.value) } ?? .null
        case .collection, .set:
            return .array(mirror.children.map { value($0.value) })
        default:
            return .object(mirror.children.compactMap { child in child.label.map { ($0, value(child.value)) } })
        }
    }
}
