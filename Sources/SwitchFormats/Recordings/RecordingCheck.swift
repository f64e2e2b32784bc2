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
        let (warnings, error) = review(survey, files, profile: profile, replaying: replaying)
        if let error { throw error }
        return warnings
    }

    /// The warnings found before the first error, and that error: a warning can be its cause
    /// (keys the description lacks are dropped, and then nothing reaches the profile), so the
    /// shell prints them before it.
    /// - Parameter watching: the run has an end of its own (`simulate --until`): a recording without
    ///   events (or none) watches the scan without input, as long as the profile scans.
    public static func review(_ survey: RecordingSurvey, _ files: Files, profile: Profile, replaying: Bool = true,
                              watching: Bool = false) -> (warnings: [InputError], error: InputError?) {
        var warnings: [InputError] = []
        if watching && survey.events == 0 {
            guard profile.scans else {
                return (warnings, InputError(file: files.events, message: "no events to replay, and the profile \(files.profile) does not scan (no switch, no touchAsSwitch): there is no scan to watch"))
            }
            return (warnings, nil)
        }
        do {
            try check(survey, files, profile: profile, replaying: replaying, into: &warnings)
            return (warnings, nil)
        } catch {
            return (warnings, error)
        }
    }

    static func check(_ survey: RecordingSurvey, _ files: Files, profile: Profile, replaying: Bool, into warnings: inout [InputError]) throws(InputError) {
        let file = files.events
        if let last = survey.lastTime, last.microseconds - survey.rebaseShift > TimeLimit.maximum.microseconds {
            throw InputError(file: file, message: "events go on until \(EvemuFormat.timeString(last)) s, more than one year (\(TimeLimit.maximumSeconds) s) after \(survey.rebaseShift > 0 ? "the first event" : "t = 0"); switchscan replays at most one year")
        }
        if survey.events == 0 { throw noEvents(survey, file) }
        for d in survey.devices {
            if let line = d.cutAtLine {
                warnings.append(InputError(file: file, line: line, message: "the file ends inside this line (no line break, and it does not read): the recording was cut short here; the line is left out, the \(d.events) events before it are replayed"))
            }
            if let description = d.description, d.looksLikeTouch && !description.isTouchscreen {
                // Touches from something that is not a touchscreen: the cause is the device
                // (a touchpad moves a pointer), not a description of another device.
                if description.isTouchpad {
                    throw InputError(file: file, message: "has the touches of a touchpad: \"\(description.name)\"\(d.describedSeparately ? " (in \(files.description ?? "--desc"))" : "") has BTN_TOOL_FINGER and no INPUT_PROP_DIRECT; a touchpad moves a pointer and is not a touchscreen, and switchscan takes touches from touchscreens only (switch presses from keys)")
                }
                if d.describedSeparately, let desc = files.description {
                    throw InputError(file: file, message: "has touchscreen events, but the device in \(desc) (\"\(description.name)\") is not a touchscreen; is \(desc) the description of the device this was recorded from?")
                }
            }
            if let description = d.description, d.unannounced > 0, let first = d.firstUnannounced {
                // Real recordings have some (a kernel's axes renumbered since, a tool key the
                // description left out): the kernel drops them, and so does the replay.
                warnings.append(InputError(file: file, message: "\(d.unannounced) of its \(d.events) events use codes \(d.describedSeparately ? "the description in \(files.description ?? "--desc")" : "the description") of \"\(description.name)\" does not list (the first: \(EventCodes.describe(type: first.type, code: first.code))); the kernel drops those from such a device, and so does the replay"))
            }
            if let description = d.description, description.isTouchscreen, d.touches {
                let moved = d.movedInsteadOfPosition
                if !moved.isEmpty {
                    let names = moved.map { EventCodes.describe(type: EventCodes.EV_ABS, code: $0) }.joined(separator: " and ")
                    warnings.append(InputError(file: file, message: "\"\(description.name)\" reports its touches' movement on \(names) while ABS_X and ABS_Y never move: switchscan reads the position from ABS_X/ABS_Y (or ABS_MT_POSITION_X/Y), so every touch is at one point (\(moved.count == 1 ? "that axis is" : "those axes are") not read)"))
                }
            }
            if d.description == nil, d.looksLikeTouch, let code = d.firstTouchCode ?? d.firstAbsCode {
                throw InputError(file: file, message: "touchscreen events (\(EventCodes.describe(type: EventCodes.EV_ABS, code: code)) …) but no device description to map them onto the screen; pass the touchscreen's description with --desc FILE.desc (evemu-describe writes one)")
            }
            if d.trailing > 0, let from = d.trailingFrom {
                warnings.append(InputError(file: file, message: "the last \(d.trailing == 1 ? "event" : "\(d.trailing) events") (from \(EvemuFormat.timeString(from)) s) \(d.trailing == 1 ? "has" : "have") no SYN_REPORT after \(d.trailing == 1 ? "it" : "them"); replayed as a frame of \(d.trailing == 1 ? "its" : "their") own (a device ends every frame with one: was the recording cut short?)"))
            }
        }
        if replaying { try checkReachesProfile(survey, files, profile: profile) }
    }

    /// The error for a recording without a single event: it would replay nothing and exit 0.
    static func noEvents(_ survey: RecordingSurvey, _ file: String) -> InputError {
        if let cut = survey.devices.compactMap(\.cutAtLine).first {
            return InputError(file: file, line: cut, message: "no events: the file ends inside this line, before its first event (was it cut short?)")
        }
        if survey.devices.contains(where: { $0.description != nil }) {
            return InputError(file: file, message: "no events: it describes \(survey.devices.count == 1 ? "a device" : "its devices") but holds no events (no \"E:\" lines, or an empty \"events:\" list); there is nothing to replay")
        }
        return InputError(file: file, message: "no events: the file is empty, or holds only blank lines and comments; there is nothing to replay (record one with `switchscan record`)")
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
        if heard { return }

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
