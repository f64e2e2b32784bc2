/// Multitouch protocol A (obsolete, still found on N-Trig panels): every frame lists all current
/// contacts, each closed by `SYN_MT_REPORT`, with no ids. We keep ids stable by matching each
/// frame's contacts to the previous frame's, nearest pair first (in screen points); a previous
/// contact left unmatched lifted, a new one left unmatched went down.
///
///     frame                                   contacts
///     X Y MT_REPORT                           down(0)
///     X Y MT_REPORT · X Y MT_REPORT           moved(0) (the nearer one), down(1)
///     X Y MT_REPORT                           up(the farther one)
///     MT_REPORT   (or no contact data)        up(every contact): a frame with no contacts lifts all
///
/// A contact's data not closed by `SYN_MT_REPORT` before the frame ends still counts as a
/// contact. A position missing from a contact keeps the last value seen for it (protocol A sends
/// both with every contact; the position is what matches contacts). Any other axis (pressure,
/// touch size …) belongs to its contact: one it omits keeps that contact's own last value, as a
/// protocol B slot does, never the value of the contact read before it. Tracking ids some
/// protocol A drivers send are ignored. Ids are a running number from 0.
struct UnslottedTracker: Sendable {
    struct Live: Sendable {
        var id: Int
        var point: Point
        var raw: RawTouch
    }

    var mapping: ScreenMapping
    private var live: [Live] = []
    private var nextID = 0
    private var x: Int32 = 0
    private var y: Int32 = 0

    init(mapping: ScreenMapping) {
        self.mapping = mapping
    }

    mutating func handle(frame: [InputEvent]) -> [TouchSample] {
        var points: [(point: Point, raw: RawTouch)] = []
        var hasData = false
        /// The other axes the contact being read sent (its missing ones come from its match).
        var axes: [UInt16: Int32] = [:]
        for e in frame {
            if e.type == EventCodes.EV_SYN && e.code == EventCodes.SYN_MT_REPORT {
                if hasData { points.append((mapping.point(x: x, y: y), RawTouch(x: x, y: y, axes: axes))) }
                hasData = false
                axes = [:]
            } else if e.type == EventCodes.EV_ABS && e.code == EventCodes.ABS_MT_POSITION_X {
                x = e.value
                hasData = true
            } else if e.type == EventCodes.EV_ABS && e.code == EventCodes.ABS_MT_POSITION_Y {
                y = e.value
                hasData = true
            } else if e.type == EventCodes.EV_ABS && RawTouch.isContactAxis(e.code) {
                axes[e.code] = e.value
            }
        }
        if hasData { points.append((mapping.point(x: x, y: y), RawTouch(x: x, y: y, axes: axes))) }
        return match(points)
    }

    /// Greedy nearest-first matching of the previous contacts to `points`.
    private mutating func match(_ points: [(point: Point, raw: RawTouch)]) -> [TouchSample] {
        var pairs: [(distance: Double, old: Int, new: Int)] = []
        pairs.reserveCapacity(live.count * points.count)
        for (o, l) in live.enumerated() {
            for (n, p) in points.enumerated() {
                let dx = l.point.x - p.point.x, dy = l.point.y - p.point.y
                pairs.append((dx * dx + dy * dy, o, n))
            }
        }
        pairs.sort { a, b in
            if a.distance != b.distance { return a.distance < b.distance }
            if a.old != b.old { return a.old < b.old }
            return a.new < b.new
        }
        var idForNew = [Int?](repeating: nil, count: points.count)
        var oldMatched = [Bool](repeating: false, count: live.count)
        for pair in pairs where !oldMatched[pair.old] && idForNew[pair.new] == nil {
            oldMatched[pair.old] = true
            idForNew[pair.new] = pair.old
        }
        var out: [TouchSample] = []
        for (o, l) in live.enumerated() where !oldMatched[o] {
            out.append(TouchSample(.up(id: l.id, l.point), l.raw))
        }
        var next: [Live] = []
        next.reserveCapacity(points.count)
        for (n, p) in points.enumerated() {
            if let o = idForNew[n] {
                let id = live[o].id
                var raw = p.raw
                for (code, value) in live[o].raw.axes where raw.axes[code] == nil { raw.axes[code] = value }
                if live[o].point != p.point { out.append(TouchSample(.moved(id: id, p.point), raw)) }
                next.append(Live(id: id, point: p.point, raw: raw))
            } else {
                out.append(TouchSample(.down(id: nextID, p.point), p.raw))
                next.append(Live(id: nextID, point: p.point, raw: p.raw))
                nextID += 1
            }
        }
        live = next
        return out
    }

    mutating func liftAll() -> [TouchSample] {
        defer { live = [] }
        return live.map { TouchSample(.up(id: $0.id, $0.point), $0.raw) }
    }
}
