/// Settings that each make sense alone but not together. A profile that cannot work (no way to
/// move or to select) is an error; a setting that does nothing is a warning. Both name the
/// setting, with the line and column of the file, so a carer sees at once what to change.
///
/// Errors (the profile scans: it has a switch or the touchscreen as a switch; group selection
/// needs only its colour switches, `ProfileDecoder.checkGroupSwitches`). With no switch but the
/// screen as one, the error names `touchAccommodations.touchAsSwitch`, not `switches`:
/// - `manual` scanning with no `next` or `previous` switch: the highlight can never move;
/// - `auto` or `manual` scanning with no `select` switch (only `stopScanning`, say): nothing
///   can ever be chosen; `singleSwitchStep` with no switch that moves (select, next, previous);
/// - a `longPressAction` with `longPress` not longer than `holdDuration`: a press is accepted
///   only after the long-press time, so every press is a long press and the short action never
///   fires.
///
/// Warnings:
/// - a `longPressAction` while `longPress` is 0 (off): it never fires;
/// - `longPress` set while no switch has a `longPressAction`: it does nothing;
/// - a `group1` … `group6` switch while `scanning.mode` is not `groupSelection`: it does nothing;
/// - `moveRepeat` set while no switch is `next` or `previous` (the actions it repeats);
/// - `BTN_TOUCH` as a switch key: a touchscreen's touches go to the touch accommodations, never
///   to a switch (`touchAsSwitch` makes the screen one);
/// - `touchAccommodations.output` "activate" with `touchAsSwitch`: every touch is a switch press.
///   ("virtualTouchscreen" with `touchAsSwitch` is an error of `ProfileDecoder`.)
public enum ProfileConsistency {
    /// Throws the first error; returns the warnings. `json` is the profile file as parsed, to
    /// point at the settings.
    public static func check(_ p: Profile, _ json: JSONNode, _ r: JSONReader) throws(InputError) -> [InputError] {
        func node(_ path: [String]) -> JSONNode {
            var n = json
            for key in path { n = n[key] ?? n }
            return n
        }
        func switchNode(_ k: Int, _ key: String) -> JSONNode {
            guard case .array(let a)? = json["switches"]?.value, a.indices.contains(k) else { return node(["switches"]) }
            return a[k][key] ?? a[k]
        }

        var warnings: [InputError] = []
        var actions = Set<SwitchAction>()
        for s in p.switches {
            actions.insert(s.action)
            if let long = s.longPressAction, p.switchStabilization.longPress.microseconds > 0 { actions.insert(long) }
        }
        if let touch = p.touchAccommodations.touchAsSwitch { actions.insert(touch) }

        // Group selection moves and selects with its colour switches alone (no highlight moves,
        // nothing is selected by a select switch): `checkGroupSwitches` asks for group1 and
        // group2, as Android sets it up (docs/scanning.md); the style plays no part.
        if p.scans && p.scanning.mode != .groupSelection {
            let bound = actions.map(\.rawValue).sorted().joined(separator: ", ")
            // With no switch, the screen as a switch is the one to blame, not `switches`.
            let screenOnly = p.switches.isEmpty ? p.touchAccommodations.touchAsSwitch : nil
            /// `switches` named with `message`, or the screen as the only switch with `what`.
            func missing(_ what: String, _ message: String) -> InputError {
                if let screen = screenOnly {
                    let colour = SwitchAction.groups.contains(screen)
                        ? " (\(screen.rawValue) chooses a colour only in \"groupSelection\"; scanning.mode is \"\(p.scanning.mode.rawValue)\")" : ""
                    return r.error(node(["touchAccommodations", "touchAsSwitch"]), "touchAccommodations.touchAsSwitch",
                                   "the screen is the only switch and it is \"\(screen.rawValue)\"\(colour): \(what); use \"select\", or add switches")
                }
                return r.error(node(["switches"]), "switches", message)
            }
            switch p.scanning.style {
            case .manual:
                guard actions.contains(.next) || actions.contains(.previous) else {
                    if screenOnly != nil { throw missing("\"manual\" scanning moves only when a next or previous switch is pressed", "") }
                    throw r.error(node(["scanning", "style"]), "scanning.style",
                                  "\"manual\" scanning moves only when a next or previous switch is pressed, and the switches bind none (they bind \(bound)); add {\"key\": …, \"action\": \"next\"} or use \"auto\"")
                }
                fallthrough
            case .auto:
                guard actions.contains(.select) else {
                    throw missing("nothing selects, so nothing could ever be chosen",
                                  "no switch selects (they bind \(bound)), so nothing could ever be chosen; add a switch with \"action\": \"select\"")
                }
            case .singleSwitchStep:
                guard !actions.isDisjoint(with: [.select, .next, .previous]) else {
                    throw missing("\"singleSwitchStep\" scanning moves on a select, next or previous switch and selects by waiting",
                                  "\"singleSwitchStep\" scanning moves on a select, next or previous switch and selects by waiting, and the switches bind none of them (they bind \(bound))")
                }
            }
        }

        let longPress = p.switchStabilization.longPress
        let hold = p.switchStabilization.holdDuration
        let withLongPress = p.switches.indices.filter { p.switches[$0].longPressAction != nil }
        for k in withLongPress {
            let s = p.switches[k]
            if longPress.isZero {
                warnings.append(r.error(switchNode(k, "longPressAction"), "switches[\(k)].longPressAction",
                                        "\(s.longPressAction!.rawValue) never fires: switchStabilization.longPress is 0 (off); set it to the hold time in seconds"))
            } else if longPress <= hold {
                throw r.error(node(["switchStabilization", "longPress"]), "switchStabilization.longPress",
                              "\(formatNumber(longPress.seconds)) s is not longer than holdDuration (\(formatNumber(hold.seconds)) s): a press is accepted only after the long-press time, so \(s.keyName)'s \(s.action.rawValue) would never fire; make longPress longer than holdDuration")
            }
        }
        if let action = p.touchAccommodations.touchAsSwitch, json["touchAccommodations"]?["output"] != nil {
            warnings.append(r.error(node(["touchAccommodations", "output"]), "touchAccommodations.output",
                                    "does nothing: with touchAsSwitch (\"\(action.rawValue)\") every touch is a press of the screen as a switch"))
        }
        if !longPress.isZero && withLongPress.isEmpty {
            warnings.append(r.error(node(["switchStabilization", "longPress"]), "switchStabilization.longPress",
                                    "does nothing: no switch has a \"longPressAction\""))
        }
        // Issue 22: settings that do nothing in this profile.
        if p.scanning.mode != .groupSelection {
            for k in p.switches.indices where SwitchAction.groups.contains(p.switches[k].action) {
                warnings.append(r.error(switchNode(k, "action"), "switches[\(k)].action",
                                        "\(p.switches[k].action.rawValue) does nothing: scanning.mode is \"\(p.scanning.mode.rawValue)\", and the group switches choose colours only in \"groupSelection\""))
            }
        }
        if p.scanning.mode != .groupSelection, let screen = p.touchAccommodations.touchAsSwitch, SwitchAction.groups.contains(screen), !p.switches.isEmpty {
            warnings.append(r.error(node(["touchAccommodations", "touchAsSwitch"]), "touchAccommodations.touchAsSwitch",
                                    "\(screen.rawValue) does nothing: scanning.mode is \"\(p.scanning.mode.rawValue)\", and the group switches choose colours only in \"groupSelection\""))
        }
        if !p.scanning.moveRepeat.isZero && !actions.contains(.next) && !actions.contains(.previous) {
            warnings.append(r.error(node(["scanning", "moveRepeat"]), "scanning.moveRepeat",
                                    "does nothing: it repeats a held next or previous switch, and no switch is one"))
        }
        for k in p.switches.indices where p.switches[k].code == EventCodes.BTN_TOUCH {
            warnings.append(r.error(switchNode(k, "key"), "switches[\(k)].key",
                                    "BTN_TOUCH is a touchscreen's touch, which goes to the touch accommodations and never to a switch; to make the whole screen one switch, use \"touchAccommodations\": {\"touchAsSwitch\": \"\(p.switches[k].action.rawValue)\"}"))
        }
        return warnings
    }
}
