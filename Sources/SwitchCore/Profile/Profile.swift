/// A user's settings, with Apple's setting names (docs/profiles.md). Every field has the default
/// a profile gets when it leaves the key out.
public struct Profile: Sendable, Equatable {
    public var name: String = "Unnamed profile"
    public var scanning = ScanningSettings()
    public var switches: [SwitchBinding] = [SwitchBinding(keyName: "KEY_SPACE", code: EventCodes.KEY_SPACE, action: .select)]
    public var switchStabilization = SwitchStabilization()
    public var touchAccommodations = TouchAccommodations()
    /// Devices to read in the live engine (node path, name, or vendor:product); empty = decide by
    /// the command line or by what the switches need.
    public var devices: [String] = []
    /// The scanning keyboard (docs/typing.md).
    public var keyboard = KeyboardSettings()
    /// The safety exit: the long hold and the keyboard chord that pause and resume.
    public var safetyExit = SafetyExit()
    /// How the scanner menu is arranged for this person (`MenuSettings`).
    public var menu = MenuSettings()
    /// The scan time follows the person (`AdaptiveTiming`, issue 31).
    public var adaptiveTiming = AdaptiveTimingSettings()

    public init() {}

    /// Scanning runs when something can drive it: a switch, or the touchscreen as a switch.
    /// A touch-only profile (no switches) only filters touches.
    public var scans: Bool { !switches.isEmpty || touchAccommodations.touchAsSwitch != nil }

    /// k for group selection: the switches bound to group1 … groupk (the decoder checks that
    /// they come without gaps); 0 when none is.
    public var groupSwitchCount: Int {
        var k = 0
        while k < SwitchAction.groups.count, switches.contains(where: { $0.action == SwitchAction.groups[k] }) { k += 1 }
        return k
    }
}

public struct ScanningSettings: Sendable, Equatable {
    public enum Style: String, Sendable, Equatable { case auto, manual, singleSwitchStep }
    public enum TapBehavior: String, Sendable, Equatable { case `default`, autoTap, alwaysTap }
    public enum FocusAfterTap: String, Sendable, Equatable { case first, current }

    public var style: Style = .auto
    /// How item scanning groups stops (docs/scanning.md "Scanning methods"); `groupItems` is its old spelling.
    public var grouping: Grouping = .none
    /// `true` = `grouping` containers, `false` = none. Setting true keeps a grouping already chosen.
    public var groupItems: Bool {
        get { grouping != .none }
        set { if !newValue { grouping = .none } else if grouping == .none { grouping = .containers } }
    }
    public var autoScanningTime: Interval = .seconds(1.0)
    /// Added to the dwell of the first item of every pass; zero is off.
    public var pauseOnFirstItem: Interval = .zero
    /// Full passes without a selection before auto scanning stops.
    public var loops = 4
    /// Repeat interval for a held next/previous switch; zero is off.
    public var moveRepeat: Interval = .zero
    public var tapBehavior: TapBehavior = .default
    public var autoTapTime: Interval = .seconds(0.75)
    public var focusedItemAfterTap: FocusAfterTap = .first
    public var speech = false
    // What the person sees and hears besides the transcript (docs/live.md "Presentation"). Apple's names.
    /// Speaking rate, 0 (slowest) to 1 (fastest), 0.5 normal (AVSpeechUtterance's scale).
    public var speechRate = 0.5
    /// A speech-dispatcher synthesis voice name (`spd-say -L`); nil: speech-dispatcher's default.
    public var speechVoice: String?
    /// Auto scanning waits on each stop until its description has been spoken (capped).
    public var pauseForSpeech = false
    /// A tick on each highlight, a click on each selection.
    public var soundEffects = false
    public var cursorColor = CursorColor.blue
    public var largeCursor = false
    /// Item scanning, point scanning, or group selection with k switches (docs/scanning.md "Scanning methods").
    public var mode: Mode = .item
    /// A scanner-menu entry that switches between item and point mode (iOS's Item Mode / Point
    /// Mode); a profile in point mode gets it unless it says `false`.
    public var modeSwitch = false
    public var point = PointScanning()

    public enum Mode: String, Sendable, Equatable { case item, point, groupSelection }

    public init() {}
}

/// Point scanning's sweeps (ChromeOS Switch Access's defaults, `point_scan_controller.cc` and
/// ash's accessibility constants: a 150-dip band for x, 120 for y, 50 dips/s, the fine line at
/// half that, 250 ms at every edge; scanning-anchors §2.2). Distances in the tree's points.
public struct PointScanning: Sendable, Equatable {
    /// How fast the band crosses the screen, points per second.
    public var bandSpeed = 50.0
    /// How fast the fine line crosses the chosen band, points per second.
    public var lineSpeed = 25.0
    /// The band of the first (x) sweep: a vertical band this wide.
    public var bandWidth = 150.0
    /// The band of the y sweep: a horizontal band this tall.
    public var bandHeight = 120.0
    /// The pause at every edge before the sweep turns back.
    public var edgePause: Interval = .milliseconds(250)

    public init() {}
}

/// What a switch does.
public enum SwitchAction: String, Sendable, Equatable, CaseIterable {
    case select, next, previous, menu, escape, stopScanning, resumeScanning
    /// Group selection: the switch of colour 1 … 6 (ignored in item and point mode).
    case group1, group2, group3, group4, group5, group6

    public static let groups: [SwitchAction] = [.group1, .group2, .group3, .group4, .group5, .group6]

    /// 0 … 5 for group1 … group6.
    public var groupIndex: Int? { SwitchAction.groups.firstIndex(of: self) }
}

public struct SwitchBinding: Sendable, Equatable {
    /// The name as written in the profile or the canonical evdev name ("KEY_SPACE").
    public var keyName: String
    /// The EV_KEY code.
    public var code: UInt16
    public var action: SwitchAction
    /// Fires when the switch is held for `switchStabilization.longPress`; ignored when that is 0.
    public var longPressAction: SwitchAction?

    public init(keyName: String, code: UInt16, action: SwitchAction, longPressAction: SwitchAction? = nil) {
        self.keyName = keyName
        self.code = code
        self.action = action
        self.longPressAction = longPressAction
    }
}

public struct SwitchStabilization: Sendable, Equatable {
    public enum IgnoreRepeatAnchor: String, Sendable, Equatable { case acceptedPress, release }
    public enum SelectTarget: String, Sendable, Equatable { case press, accept }

    public var holdDuration: Interval = .zero
    public var ignoreRepeat: Interval = .zero
    public var ignoreRepeatFrom: IgnoreRepeatAnchor = .acceptedPress
    public var longPress: Interval = .zero
    /// libinput's bounce window; zero is off.
    public var debounce: Interval = .seconds(0.025)
    public var selectTarget: SelectTarget = .press

    public init() {}
}

public struct TouchAccommodations: Sendable, Equatable {
    public enum TapAssistance: String, Sendable, Equatable { case off, initial, final }

    public var holdDuration: Interval = .zero
    public var ignoreRepeat: Interval = .zero
    public var tapAssistance: TapAssistance = .off
    public var tapAssistanceGestureDelay: Interval = .seconds(0.5)
    /// The whole touchscreen as one switch with this action; nil = touches tap what they hit.
    public var touchAsSwitch: SwitchAction?
    /// Where what the accommodations let through goes; nil = the default (`Profile.touchOutput`).
    public var output: TouchOutput?

    /// `virtualTouchscreen`: taps and gestures go on to the desktop through a virtual
    /// touchscreen (touch passthrough); `activate`: a tap activates the element under it (the
    /// scanner's tree, or the desktop's with `--desktop`), other touches are only decided.
    public enum TouchOutput: String, Sendable, Equatable { case virtualTouchscreen, activate }

    public init() {}
}

extension Profile {
    /// Where touches go: the profile's `touchAccommodations.output`, else the virtual
    /// touchscreen for a touch-only profile (no switches, the screen not a switch) and
    /// activation otherwise.
    public var touchOutput: TouchAccommodations.TouchOutput {
        touchAccommodations.output ?? defaultTouchOutput
    }

    public var defaultTouchOutput: TouchAccommodations.TouchOutput {
        switches.isEmpty && touchAccommodations.touchAsSwitch == nil ? .virtualTouchscreen : .activate
    }

    /// Touches are passed on to a virtual touchscreen (never while the screen is a switch).
    public var passesTouch: Bool { touchOutput == .virtualTouchscreen && touchAccommodations.touchAsSwitch == nil }
}

/// docs/live.md "Safety exit": a long hold on any switch, or a chord on a keyboard, pauses the engine
/// (scanning stops, grabs are released) and the same again resumes it. On by default: someone who
/// cannot reach a keyboard must always have a way out, so a profile that never mentions it has it.
public struct SafetyExit: Sendable, Equatable {
    /// The default hold time.
    public static let defaultPauseHold = Interval.seconds(3)
    /// How much longer than the profile's own holds (hold duration, long press) the default hold is.
    public static let marginOverOtherHolds = Interval.seconds(2)

    /// The hold time as written; nil: the default (see `Profile.pauseHold`); zero: off.
    public var pauseHold: Interval?
    /// nil: off.
    public var pauseChord: KeyChord? = .default

    public init() {}
}

extension Profile {
    /// The long hold that pauses and resumes: the profile's `safetyExit.pauseHold`, else 3 s, or
    /// 2 s longer than a hold the profile gives another meaning (hold duration, long press) when
    /// that is longer than 1 s: the default must never swallow a setting. Zero is off.
    public var pauseHold: Interval { safetyExit.pauseHold ?? defaultPauseHold }

    /// The hold used when the profile does not set one.
    public var defaultPauseHold: Interval {
        let own = max(switchStabilization.holdDuration, longPressInUse ? switchStabilization.longPress : .zero)
        return max(SafetyExit.defaultPauseHold, own + SafetyExit.marginOverOtherHolds)
    }

    /// Whether some switch has a long-press action that can fire.
    var longPressInUse: Bool {
        !switchStabilization.longPress.isZero && switches.contains { $0.longPressAction != nil }
    }
}
