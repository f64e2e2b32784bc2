import SwitchCore

/// What makes a replay meaningless (errors) or differ from what the devices would have done
/// (warnings), decided from a `RecordingSurvey` before anything is replayed. A run that can do
/// nothing says so instead of printing nothing and exiting 0.
public enum RecordingCheck {
    public struct Files: Sendable {
        public var events: String
        public var description: String?
        public var profile: String

        public init(events: String, description: String?, profile: String) {
            self.events = events
            self.description = description
            self.profile = profile
        }
    }

    /// Throws the first error; returns the warnings. With `replaying: false` (calibrate, which
    /// has its own rule for what it counts) the "nothing reaches the profile" check is skipped.
    public static func check(_ survey: RecordingSurvey, _ files: Files, profile: Profile, replaying: Bool = true) throws(InputError) -> [InputError] {
        let file = files.events
        if let last = survey.lastTime, last.microseconds - survey.rebaseShift > TimeLimit.maximum.microseconds {
            throw InputError(file: file, message: "events go on until \(EvemuFormat.timeString(last)) s, more than one year (\(TimeLimit.maximumSeconds) s) after \(survey.rebaseShift > 0 ? "the first event" : "t = 0"); switchscan replays at most one year")
        }
        var warnings: [InputError] = []
        for d in survey.devices {
            if let description = d.description, d.describedSeparately, let desc = files.description {
                // A description that cannot be the recorded device's: keys it does not have, or
                // touches on something that is not a touchscreen.
                if let key = d.firstUnannouncedKey {
                    throw InputError(file: file, message: "presses \(EventCodes.describe(type: EventCodes.EV_KEY, code: key)), which the device in \(desc) (\"\(description.name)\") does not have; is \(desc) the description of the device this was recorded from?")
                }
                if d.looksLikeTouch && !description.isTouchscreen {
                    throw InputError(file: file, message: "has touchscreen events, but the device in \(desc) (\"\(description.name)\") is not a touchscreen; is \(desc) the description of the device this was recorded from?")
                }
            }
            if let description = d.description, d.unannounced > 0, let first = d.firstUnannounced {
                // Real recordings have a few (a kernel's axes renumbered since): a warning.
                warnings.append(InputError(file: file, message: "\(d.unannounced) of its \(d.events) events use codes the device \"\(description.name)\" does not list (the first: \(EventCodes.describe(type: first.type, code: first.code))); they are replayed, but a device does not send those: do the description and the events belong together?"))
            }
            if d.description == nil, d.looksLikeTouch, let code = d.firstTouchCode ?? d.firstAbsCode {
                throw InputError(file: file, message: "touchscreen events (\(EventCodes.describe(type: EventCodes.EV_ABS, code: code)) …) but no device description to map them onto the screen; pass the touchscreen's description with --desc FILE.desc (evemu-describe writes one)")
            }
            if d.trailing > 0, let from = d.trailingFrom {
                warnings.append(InputError(file: file, message: "the last \(d.trailing == 1 ? "event" : "\(d.trailing) events") (from \(EvemuFormat.timeString(from)) s) \(d.trailing == 1 ? "has" : "have") no SYN_REPORT after \(d.trailing == 1 ? "it" : "them"); replayed as a frame of \(d.trailing == 1 ? "its" : "their") own (a device ends every frame with one: was the recording cut short?)"))
            }
        }
        if replaying { try checkReachesProfile(survey, files, profile: profile) }
        return warnings
    }

    /// Something in the recording must reach the profile: a press of one of its switches on a
    /// device that is not a touchscreen, or a touch on a touchscreen. An empty recording is fine
    /// when the profile scans (the transcript then shows scanning on its own).
    static func checkReachesProfile(_ survey: RecordingSurvey, _ files: Files, profile: Profile) throws(InputError) {
        let bound = Set(profile.switches.map(\.code))
        var heard = false
        for d in survey.devices {
            if d.isTouchscreen { heard = heard || d.touches } else { heard = heard || bound.contains { (d.presses[$0] ?? 0) > 0 } }
        }
        if heard || (survey.events == 0 && profile.scans) { return }

        var listens: [String] = []
        if !profile.switches.isEmpty { listens.append("presses of " + profile.switches.map(\.keyName).joined(separator: ", ")) }
        if let action = profile.touchAccommodations.touchAsSwitch {
            listens.append("touches on a touchscreen (the whole screen as one \(action.rawValue) switch)")
        } else {
            listens.append("touches on a touchscreen" + (profile.switches.isEmpty ? " (it binds no switches)" : ""))
        }
        var pressed: [String] = []
        for d in survey.devices where !d.isTouchscreen {
            for code in d.presses.keys.sorted() {
                let name = EventCodes.codeName(type: EventCodes.EV_KEY, code: code) ?? "key \(code)"
                if !pressed.contains(name) { pressed.append(name) }
            }
        }
        let has: String
        if survey.events == 0 {
            has = "no events at all, and the profile does not scan: nothing would happen"
        } else if !pressed.isEmpty {
            has = "presses of " + pressed.prefix(8).joined(separator: ", ") + (pressed.count > 8 ? ", …" : "")
        } else if survey.devices.contains(where: { $0.isTouchscreen }) {
            has = "a touchscreen that is never touched"
        } else {
            has = "no key presses and no touchscreen (\(survey.events) events)"
        }
        throw InputError(file: files.events, message: "nothing in it reaches the profile \(files.profile): the profile listens to \(listens.joined(separator: " and ")); the recording has \(has)")
    }
}
