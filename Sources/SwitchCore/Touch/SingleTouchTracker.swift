/// A single-touch screen: `BTN_TOUCH` 1/0 puts the one finger down and lifts it, `ABS_X/Y`
/// move it. Ids are a running number from 0 (one per touch).
///
///     frame                       contact
///     X Y BTN_TOUCH 1             down(0) at (X, Y)
///     X                           moved(0)
///     BTN_TOUCH 0                 up(0) where it was last
///     X Y BTN_TOUCH 1 BTN_TOUCH 0 down(1) then up(1) (a touch within one frame)
///     X  (not touching)           nothing (a hovering pen, or noise)
///
/// Positions are taken at the end of the frame (drivers send the position before or after the
/// button, in no fixed order); they start from the device's absinfo.
struct SingleTouchTracker: Sendable {
    var mapping: ScreenMapping
    private var x: Int32
    private var y: Int32
    /// The current touch's id, nil when not touching.
    private var touching: Int?
    private var reported: Point?
    private var nextID = 0

    init(device: DeviceDescription, mapping: ScreenMapping) {
        self.mapping = mapping
        x = device.absInfo[EventCodes.ABS_X]?.value ?? 0
        y = device.absInfo[EventCodes.ABS_Y]?.value ?? 0
    }

    mutating func handle(frame: [InputEvent]) -> [TouchSample] {
        // (id, started in this frame) of touches that ended in this frame.
        var ended: [(id: Int, started: Bool)] = []
        var startedThisFrame = false
        for e in frame {
            switch (e.type, e.code) {
            case (EventCodes.EV_KEY, EventCodes.BTN_TOUCH):
                if e.value != 0, touching == nil {
                    touching = nextID
                    nextID += 1
                    startedThisFrame = true
                } else if e.value == 0, let id = touching {
                    ended.append((id, startedThisFrame))
                    touching = nil
                    startedThisFrame = false
                }
            case (EventCodes.EV_ABS, EventCodes.ABS_X):
                x = e.value
            case (EventCodes.EV_ABS, EventCodes.ABS_Y):
                y = e.value
            default:
                continue
            }
        }
        let p = mapping.point(x: x, y: y), r = RawTouch(x: x, y: y)
        var out: [TouchSample] = []
        for (id, started) in ended {
            if started { out.append(TouchSample(.down(id: id, p), r)) }
            out.append(TouchSample(.up(id: id, p), r))
        }
        if let id = touching {
            if startedThisFrame {
                out.append(TouchSample(.down(id: id, p), r))
                reported = p
            } else if reported != p {
                out.append(TouchSample(.moved(id: id, p), r))
                reported = p
            }
        }
        return out
    }

    mutating func liftAll() -> [TouchSample] {
        guard let id = touching else { return [] }
        touching = nil
        return [TouchSample(.up(id: id, mapping.point(x: x, y: y)), RawTouch(x: x, y: y))]
    }
}
