import SwitchCore

/// What a recording holds, gathered event by event while it is read (so a recording read in
/// pieces is checked in full before any of it is replayed): per device, the keys pressed, whether
/// it touches, what its description does not announce, and what follows the last SYN_REPORT.
/// `RecordingCheck` turns it into errors and warnings.
public struct RecordingSurvey: Sendable, Equatable {
    public struct Device: Sendable, Equatable {
        public var description: DeviceDescription?
        /// Whether the description comes from a separate `.desc` file (`--desc`).
        public var describedSeparately = false
        public var events = 0
        public var firstTime: Instant?
        public var lastTime: Instant?
        /// Presses (EV_KEY value 1) per key code.
        public var presses: [UInt16: Int] = [:]
        /// Touch events: contacts (ABS_MT_TRACKING_ID ≥ 0) and positions (ABS_X/Y,
        /// ABS_MT_POSITION_X/Y); BTN_TOUCH presses are in `presses`.
        public var touchEvents = 0
        /// The first of them, for messages ("ABS_MT_POSITION_X").
        public var firstTouchCode: UInt16?
        /// Absolute-axis events of any code, and the first one's code.
        public var absEvents = 0
        public var firstAbsCode: UInt16?
        /// Events whose type and code the description does not list (a device never sends those).
        public var unannounced = 0
        public var firstUnannounced: InputEvent?
        /// The first key the description does not list.
        public var firstUnannouncedKey: UInt16?
        /// Events after the last SYN_REPORT, and the time of the first of them.
        public var trailing = 0
        public var trailingFrom: Instant?
        /// The file ends inside this line (`Recording.Device.cutAtLine`).
        public var cutAtLine: Int?
        /// Per absolute axis: the first value it reported, and whether it ever reported another.
        public var axes: [UInt16: (first: Int32, moved: Bool)] = [:]

        public init(description: DeviceDescription?, describedSeparately: Bool = false) {
            self.description = description
            self.describedSeparately = describedSeparately
        }

        public var isTouchscreen: Bool { description?.isTouchscreen ?? false }

        public mutating func observe(_ e: TimedEvent) {
            events += 1
            if firstTime == nil { firstTime = e.time }
            lastTime = e.time
            let ev = e.event
            if ev.isSynReport {
                trailing = 0
                trailingFrom = nil
                return
            }
            if trailing == 0 { trailingFrom = e.time }
            trailing += 1
            switch ev.type {
            case EventCodes.EV_SYN:
                return
            case EventCodes.EV_KEY:
                if ev.value == 1 { presses[ev.code, default: 0] += 1 }
            case EventCodes.EV_ABS:
                if let a = axes[ev.code] {
                    if !a.moved && a.first != ev.value { axes[ev.code] = (a.first, true) }
                } else {
                    axes[ev.code] = (ev.value, false)
                }
                absEvents += 1
                if firstAbsCode == nil { firstAbsCode = ev.code }
                let contact = ev.code == EventCodes.ABS_MT_TRACKING_ID && ev.value >= 0
                let position = [EventCodes.ABS_X, EventCodes.ABS_Y, EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y].contains(ev.code)
                if contact || position {
                    touchEvents += 1
                    if firstTouchCode == nil { firstTouchCode = ev.code }
                }
            default:
                break
            }
            if let d = description, !d.has(type: ev.type, code: ev.code) {
                unannounced += 1
                if firstUnannounced == nil { firstUnannounced = ev }
                if ev.type == EventCodes.EV_KEY, firstUnannouncedKey == nil { firstUnannouncedKey = ev.code }
            }
        }

        /// Whether it looks like a touchscreen's events: contacts or positions, or BTN_TOUCH
        /// with any absolute axis (single-touch controllers such as eGalax report on ABS_Z/RX).
        public var looksLikeTouch: Bool { touchEvents > 0 || ((presses[EventCodes.BTN_TOUCH] ?? 0) > 0 && absEvents > 0) }

        /// Whether a touchscreen's touches are in it (what the touch pipeline acts on).
        public var touches: Bool { touchEvents > 0 || (presses[EventCodes.BTN_TOUCH] ?? 0) > 0 }

        /// The axes that moved while the position axes the touch pipeline reads (ABS_X/Y,
        /// ABS_MT_POSITION_X/Y) never did: a controller that reports its position elsewhere
        /// (an eGalax on ABS_Z and ABS_RX), whose every touch lands at one point. Empty otherwise.
        public var movedInsteadOfPosition: [UInt16] {
            let position = [EventCodes.ABS_X, EventCodes.ABS_Y, EventCodes.ABS_MT_POSITION_X, EventCodes.ABS_MT_POSITION_Y]
            guard !position.contains(where: { axes[$0]?.moved ?? false }) else { return [] }
            return axes.filter { !position.contains($0.key) && $0.value.moved && $0.key != EventCodes.ABS_MT_TRACKING_ID && $0.key != EventCodes.ABS_MT_SLOT }
                .keys.sorted()
        }

        // Equatable without the axes' tuples.
        public static func == (a: Device, b: Device) -> Bool {
            a.description == b.description && a.describedSeparately == b.describedSeparately && a.events == b.events
                && a.firstTime == b.firstTime && a.lastTime == b.lastTime && a.presses == b.presses && a.touchEvents == b.touchEvents
                && a.firstTouchCode == b.firstTouchCode && a.absEvents == b.absEvents && a.firstAbsCode == b.firstAbsCode
                && a.unannounced == b.unannounced && a.firstUnannounced == b.firstUnannounced
                && a.firstUnannouncedKey == b.firstUnannouncedKey && a.trailing == b.trailing && a.trailingFrom == b.trailingFrom
                && a.cutAtLine == b.cutAtLine && a.axes.mapValues { [Int($0.first), $0.moved ? 1 : 0] } == b.axes.mapValues { [Int($0.first), $0.moved ? 1 : 0] }
        }
    }

    public var devices: [Device]

    public init(devices: [Device]) { self.devices = devices }

    /// The survey of a recording held whole.
    public init(_ recording: Recording) {
        devices = recording.devices.map { d in
            var s = Device(description: d.description)
            for e in d.events { s.observe(e) }
            s.cutAtLine = d.cutAtLine
            return s
        }
    }

    public var firstTime: Instant? { devices.compactMap(\.firstTime).min() }
    public var lastTime: Instant? { devices.compactMap(\.lastTime).max() }
    public var events: Int { devices.reduce(0) { $0 + $1.events } }

    /// The shift `Recording.rebasedForSimulation` applies (absolute timestamps to t = 0).
    public var rebaseShift: Int64 {
        guard let first = firstTime, first.microseconds > Recording.absoluteTimeThreshold else { return 0 }
        return first.microseconds
    }
}
