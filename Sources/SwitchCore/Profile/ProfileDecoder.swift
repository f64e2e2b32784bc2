/// Reads a profile (docs/profiles.md): every key optional, every key and range validated, an
/// unknown key or an out-of-range value is an `InputError` naming it.
public enum ProfileDecoder {
    static let topKeys: Set<String> = ["name", "scanning", "switches", "switchStabilization", "touchAccommodations", "devices",
                                       "safetyExit", "menu", "keyboard", "adaptiveTiming"]
    static let scanningKeys: Set<String> = ["style", "groupItems", "grouping", "autoScanningTime", "pauseOnFirstItem", "loops", "moveRepeat",
                                            "tapBehavior", "autoTapTime", "focusedItemAfterTap", "speech",
                                            "mode", "modeSwitch", "point"]
    static let pointKeys: Set<String> = ["bandSpeed", "lineSpeed", "bandWidth", "bandHeight", "edgePause"]
    static let switchKeys: Set<String> = ["key", "action", "longPressAction"]
    static let stabilizationKeys: Set<String> = ["holdDuration", "ignoreRepeat", "ignoreRepeatFrom", "longPress", "debounce", "selectTarget"]
    static let touchKeys: Set<String> = ["holdDuration", "ignoreRepeat", "tapAssistance", "tapAssistanceGestureDelay", "touchAsSwitch", "output"]
    static let safetyExitKeys: Set<String> = ["pauseHold", "pauseChord"]

    /// Ranges in seconds. Zero means off where a setting can be off.
    public static let ranges: [String: ClosedRange<Double>] = [
        "autoScanningTime": 0.1...60, "pauseOnFirstItem": 0...60, "moveRepeat": 0...10, "autoTapTime": 0.1...10,
        "holdDuration": 0...10, "ignoreRepeat": 0...10, "longPress": 0...10, "debounce": 0...1,
        "tapAssistanceGestureDelay": 0.05...10,
    ]

    static let actions: KeyValuePairs<String, SwitchAction> = [
        "select": .select, "next": .next, "previous": .previous, "menu": .menu, "escape": .escape,
        "stopScanning": .stopScanning, "resumeScanning": .resumeScanning,
        "group1": .group1, "group2": .group2, "group3": .group3, "group4": .group4, "group5": .group5, "group6": .group6,
    ]

    /// The profile as written, each setting checked alone (a partial profile is fine: tests and
    /// tools bind one switch to look at one filter).
    public static func decode(_ bytes: [UInt8], file: String) throws(InputError) -> Profile {
        let json = try JSONParser.parse(bytes, file: file)
        return try decode(json, reader: JSONReader(file: file, bytes: bytes))
    }

    /// A profile to run with: also checked as a whole (`ProfileConsistency`), contradictory
    /// settings thrown, settings that do nothing in `warnings`.
    public static func decode(_ bytes: [UInt8], file: String, warnings: inout [InputError]) throws(InputError) -> Profile {
        let json = try JSONParser.parse(bytes, file: file)
        let reader = JSONReader(file: file, bytes: bytes)
        let profile = try decode(json, reader: reader)
        warnings += try ProfileConsistency.check(profile, json, reader)
        return profile
    }

    public static func decode(_ json: JSONNode, reader r: JSONReader) throws(InputError) -> Profile {
        var p = Profile()
        let top = try r.object(json, "", allowed: topKeys)
        if let v = top["name"] { p.name = try r.string(v, "name") }

        func seconds(_ m: [String: JSONNode], _ key: String, _ path: String) throws(InputError) -> Interval? {
            guard let v = m[key] else { return nil }
            return .seconds(try r.number(v, r.join(path, key), in: ranges[key]!))
        }

        if let s = top["scanning"] {
            let m = try r.object(s, "scanning", allowed: scanningKeys.union(presentationKeys))
            var sc = ScanningSettings()
            if let v = m["style"] { sc.style = try r.choice(v, "scanning.style", ["auto": .auto, "manual": .manual, "singleSwitchStep": .singleSwitchStep]) }
            if let v = m["groupItems"] { sc.groupItems = try r.bool(v, "scanning.groupItems") }
            if let v = m["grouping"] {
                sc.grouping = try r.choice(v, "scanning.grouping", ["none": .none, "containers": .containers, "rowColumn": .rowColumn, "auto": .auto])
                // `groupItems` is the old spelling of none / containers: both keys must agree.
                if let old = m["groupItems"], try r.bool(old, "scanning.groupItems") != (sc.grouping != .none) {
                    throw r.error(v, "scanning.grouping", "\"\(sc.grouping.rawValue)\" contradicts scanning.groupItems; give one of the two")
                }
            }
            if let v = try seconds(m, "autoScanningTime", "scanning") { sc.autoScanningTime = v }
            if let v = try seconds(m, "pauseOnFirstItem", "scanning") { sc.pauseOnFirstItem = v }
            if let v = m["loops"] { sc.loops = try r.integer(v, "scanning.loops", in: 1...100) }
            if let v = try seconds(m, "moveRepeat", "scanning") { sc.moveRepeat = v }
            if let v = m["tapBehavior"] { sc.tapBehavior = try r.choice(v, "scanning.tapBehavior", ["default": .default, "autoTap": .autoTap, "alwaysTap": .alwaysTap]) }
            if let v = try seconds(m, "autoTapTime", "scanning") { sc.autoTapTime = v }
            if let v = m["focusedItemAfterTap"] { sc.focusedItemAfterTap = try r.choice(v, "scanning.focusedItemAfterTap", ["first": .first, "current": .current]) }
            if let v = m["speech"] { sc.speech = try r.bool(v, "scanning.speech") }
            if let v = m["mode"] { sc.mode = try r.choice(v, "scanning.mode", ["item": .item, "point": .point, "groupSelection": .groupSelection]) }
            sc.modeSwitch = sc.mode == .point
            if let v = m["modeSwitch"] { sc.modeSwitch = try r.bool(v, "scanning.modeSwitch") }
            if let v = m["point"] { sc.point = try pointScanning(v, r) }
            try decodePresentation(m, &sc, r)
            p.scanning = sc
        }

        if let s = top["switches"] {
            p.switches = []
            for (k, sw) in try r.array(s, "switches").enumerated() {
                let path = r.join("switches", k)
                let m = try r.object(sw, path, allowed: switchKeys)
                guard let keyNode = m["key"] else { throw r.error(sw, path, "missing key \"key\" (an evdev key name such as \"KEY_SPACE\" or a number)") }
                guard let actionNode = m["action"] else { throw r.error(sw, path, "missing key \"action\"") }
                let (name, code) = try keyCode(keyNode, r.join(path, "key"), r)
                let action = try r.choice(actionNode, r.join(path, "action"), actions)
                var binding = SwitchBinding(keyName: name, code: code, action: action)
                if let v = m["longPressAction"] { binding.longPressAction = try r.choice(v, r.join(path, "longPressAction"), actions) }
                if let earlier = p.switches.first(where: { $0.code == code }) {
                    throw r.error(keyNode, r.join(path, "key"), "\(name) is already assigned to \(earlier.action.rawValue); a key can have one action")
                }
                p.switches.append(binding)
            }
        }

        try checkGroupSwitches(p, top, r)

        if let s = top["switchStabilization"] {
            let m = try r.object(s, "switchStabilization", allowed: stabilizationKeys)
            var st = SwitchStabilization()
            if let v = try seconds(m, "holdDuration", "switchStabilization") { st.holdDuration = v }
            if let v = try seconds(m, "ignoreRepeat", "switchStabilization") { st.ignoreRepeat = v }
            if let v = m["ignoreRepeatFrom"] { st.ignoreRepeatFrom = try r.choice(v, "switchStabilization.ignoreRepeatFrom", ["acceptedPress": .acceptedPress, "release": .release]) }
            if let v = try seconds(m, "longPress", "switchStabilization") { st.longPress = v }
            if let v = try seconds(m, "debounce", "switchStabilization") { st.debounce = v }
            if let v = m["selectTarget"] { st.selectTarget = try r.choice(v, "switchStabilization.selectTarget", ["press": .press, "accept": .accept]) }
            p.switchStabilization = st
        }

        if let s = top["touchAccommodations"] {
            let m = try r.object(s, "touchAccommodations", allowed: touchKeys)
            var t = TouchAccommodations()
            if let v = try seconds(m, "holdDuration", "touchAccommodations") { t.holdDuration = v }
            if let v = try seconds(m, "ignoreRepeat", "touchAccommodations") { t.ignoreRepeat = v }
            if let v = m["tapAssistance"] { t.tapAssistance = try r.choice(v, "touchAccommodations.tapAssistance", ["off": .off, "initial": .initial, "final": .final]) }
            if let v = try seconds(m, "tapAssistanceGestureDelay", "touchAccommodations") { t.tapAssistanceGestureDelay = v }
            if let v = m["touchAsSwitch"], case .null = v.value {
                t.touchAsSwitch = nil
            } else if let v = m["touchAsSwitch"] {
                t.touchAsSwitch = try r.choice(v, "touchAccommodations.touchAsSwitch", actions)
            }
            p.touchAccommodations = t
            if let v = m["output"] { try touchOutput(v, into: &p, r) }
        }

        if let s = top["devices"] {
            for (k, d) in try r.array(s, "devices").enumerated() {
                let v = try r.string(d, r.join("devices", k))
                guard !v.isEmpty else { throw r.error(d, r.join("devices", k), "expected a device node, name or vendor:product") }
                p.devices.append(v)
            }
        }

        if let s = top["safetyExit"] { try safetyExit(s, into: &p, r) }
        if let s = top["menu"] { p.menu = try menuSettings(s, r) }
        if let s = top["keyboard"] { p.keyboard = try keyboard(s, r) }
        if let s = top["adaptiveTiming"] { p.adaptiveTiming = try adaptiveTiming(s, r) }
        return p
    }

    /// `scanning.point`: speeds in points per second (1–5000), band sizes in points (1–10000), the
    /// edge pause in seconds (0–10).
    static func pointScanning(_ node: JSONNode, _ r: JSONReader) throws(InputError) -> PointScanning {
        let m = try r.object(node, "scanning.point", allowed: pointKeys)
        var ps = PointScanning()
        if let v = m["bandSpeed"] { ps.bandSpeed = try r.number(v, "scanning.point.bandSpeed", in: 1...5000) }
        if let v = m["lineSpeed"] { ps.lineSpeed = try r.number(v, "scanning.point.lineSpeed", in: 1...5000) }
        if let v = m["bandWidth"] { ps.bandWidth = try r.number(v, "scanning.point.bandWidth", in: 1...10000) }
        if let v = m["bandHeight"] { ps.bandHeight = try r.number(v, "scanning.point.bandHeight", in: 1...10000) }
        if let v = m["edgePause"] { ps.edgePause = .seconds(try r.number(v, "scanning.point.edgePause", in: 0...10)) }
        return ps
    }

    /// Group switches come as group1 … groupk without a gap; group selection needs k ≥ 2.
    static func checkGroupSwitches(_ p: Profile, _ top: [String: JSONNode], _ r: JSONReader) throws(InputError) {
        let k = p.groupSwitchCount
        if let gap = p.switches.firstIndex(where: { ($0.action.groupIndex ?? -1) >= k }), let node = top["switches"] {
            let action = p.switches[gap].action.rawValue
            throw r.error(node, r.join("switches", gap), "\(action) needs switches for every group before it (group1 … \(action))")
        }
        if p.scanning.mode == .groupSelection && k < 2 {
            let node = top["scanning"] ?? top["switches"]!
            throw r.error(node, "scanning.mode", "groupSelection needs at least two switches with the actions group1 and group2 (up to group6)")
        }
    }

    /// `"safetyExit": {"pauseHold": 3.0, "pauseChord": "Ctrl+Alt+Shift+S"}` (docs/live.md "Safety exit").
    /// An explicit hold must be longer than the holds the profile already gives a meaning.
    static func safetyExit(_ node: JSONNode, into p: inout Profile, _ r: JSONReader) throws(InputError) {
        let m = try r.object(node, "safetyExit", allowed: safetyExitKeys)
        if let v = m["pauseHold"] {
            let path = "safetyExit.pauseHold"
            let seconds = try r.number(v, path, in: 0...60)
            if seconds > 0 && seconds < 1 { throw r.error(v, path, "expected 0 (off) or 1 to 60 seconds, found \(seconds)") }
            let hold = Interval.seconds(seconds)
            if !hold.isZero, hold <= p.switchStabilization.holdDuration {
                throw r.error(v, path, "\(seconds) s is not longer than switchStabilization.holdDuration (\(p.switchStabilization.holdDuration.seconds) s): every accepted press would also pause; make it longer, or 0 to turn the hold off")
            }
            if !hold.isZero, p.longPressInUse, hold <= p.switchStabilization.longPress {
                throw r.error(v, path, "\(seconds) s is not longer than switchStabilization.longPress (\(p.switchStabilization.longPress.seconds) s): the long-press action could never fire; make it longer, or 0 to turn the hold off")
            }
            p.safetyExit.pauseHold = hold
            // Equal to the default the other holds give: stored as the default (the same hold,
            // and what `profiles show` writes reads back as the same profile).
            if hold == p.defaultPauseHold { p.safetyExit.pauseHold = nil }
        }
        if let v = m["pauseChord"] {
            if case .null = v.value {
                p.safetyExit.pauseChord = nil
            } else {
                let text = try r.string(v, "safetyExit.pauseChord")
                do {
                    p.safetyExit.pauseChord = text.isEmpty ? nil : try KeyChord(parsing: text)
                } catch {
                    throw r.error(v, "safetyExit.pauseChord", error.message)
                }
            }
        }
    }

    /// `touchAccommodations.output`: "virtualTouchscreen" or "activate". Contradicting the screen as
    /// a switch is an error; the value the profile would have anyway is stored as the default
    /// (what `profiles show` writes reads back as the same profile).
    static func touchOutput(_ node: JSONNode, into p: inout Profile, _ r: JSONReader) throws(InputError) {
        let path = "touchAccommodations.output"
        let output = try r.choice(node, path, ["virtualTouchscreen": TouchAccommodations.TouchOutput.virtualTouchscreen, "activate": .activate])
        if output == .virtualTouchscreen, let action = p.touchAccommodations.touchAsSwitch {
            throw r.error(node, path, "\"virtualTouchscreen\" contradicts touchAsSwitch (\"\(action.rawValue)\"): with the screen as a switch no touch reaches the desktop; remove one of the two")
        }
        p.touchAccommodations.output = output == p.defaultTouchOutput ? nil : output
    }

    /// "KEY_SPACE", "BTN_0", "BTN_A" or a number (57) → (canonical name, code).
    static func keyCode(_ node: JSONNode, _ path: String, _ r: JSONReader) throws(InputError) -> (String, UInt16) {
        if case .number = node.value {
            let n = try r.integer(node, path, in: 1...Int(EventCodes.KEY_MAX))
            let code = UInt16(n)
            return (EventCodes.codeName(type: EventCodes.EV_KEY, code: code) ?? "KEY_\(n)", code)
        }
        let name = try r.string(node, path)
        guard let (type, code) = EventCodes.code(named: name), type == EventCodes.EV_KEY else {
            throw r.error(node, path, "\"\(name)\" is not an evdev key or button name (such as KEY_SPACE, BTN_0, BTN_SOUTH) or a key number")
        }
        return (name, code)
    }
}
