import Foundation
import SwitchCore
import SwitchFormats
import Testing

/// Runs a real recording (Fixtures/recordings, copies of `shared/realdata/evdev/`) through the
/// real engine on the simulator's virtual clock, exactly as `switchscan simulate` does: the
/// recording rebased when its timestamps are absolute, its frames merged, `Simulation.transcript`
/// to the end (the 5 s tail lets pending hold-duration timers fire).
enum Replay {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// An evemu-devices recording; `description` for an events-only file (or to pair it anyway).
    static func recording(_ events: String, description: String? = nil) throws -> Recording {
        if let description {
            return try RecordingFixtures.decodePair(events: events, description: description)
        }
        return try RecordingFixtures.decode("\(RecordingFixtures.evemuDevices)/\(events)")
    }

    static func transcript(_ recording: Recording, tree: ElementTree, profile: Profile, until: Instant? = nil) -> [TranscriptLine] {
        let rebased = recording.rebasedForSimulation()
        var engine = Engine(tree: tree, profile: profile, devices: rebased.devices.map(\.description))
        let inputs = rebased.mergedFrames().map { Simulation.Input.frame($0.frame, device: $0.device) }
        return Simulation.transcript(&engine, inputs: inputs, until: until)
    }

    // MARK: Trees and profiles

    /// The grid the touch replays tap into: a 1000 × 1000 pt screen covered by 20 × 20 buttons of
    /// 50 × 50 pt, ids "r<row>c<column>" (row from the top, column from the left). The cell of a
    /// point is (⌊y / 50⌋, ⌊x / 50⌋), easy to work out by hand.
    static let gridSide = 1000.0
    static let gridCell = 50.0

    static var gridTree: ElementTree {
        var cells: [Element] = []
        let n = Int(gridSide / gridCell)
        for row in 0..<n {
            for column in 0..<n {
                cells.append(Element(id: "r\(row)c\(column)", label: "Cell \(row) \(column)", traits: .button,
                                     frame: Rect(x: Double(column) * gridCell, y: Double(row) * gridCell, width: gridCell, height: gridCell)))
            }
        }
        return ElementTree(screen: Size(width: gridSide, height: gridSide),
                           root: Element(id: "grid", frame: Rect(x: 0, y: 0, width: gridSide, height: gridSide), children: cells))
    }

    /// The bundled demo tree (Sources/switchscan/Demo/demo-tree.json).
    static func demoTree() throws -> ElementTree {
        let path = packageRoot.appendingPathComponent("Sources/switchscan/Demo/demo-tree.json").path
        let data = try #require(FileManager.default.contents(atPath: path))
        return try TreeFile.decode([UInt8](data), file: path)
    }

    /// A profile from the repository's Profiles/ folder.
    static func bundledProfile(_ name: String) throws -> Profile {
        let path = packageRoot.appendingPathComponent("Profiles/\(name).json").path
        let data = try #require(FileManager.default.contents(atPath: path))
        return try ProfileDecoder.decode([UInt8](data), file: path)
    }

    /// Touch only (no switches, so no scanning), taps activating what they hit (output
    /// "activate"): every line is a touch decision or its perform.
    static func touchProfile(_ configure: (inout TouchAccommodations) -> Void = { _ in }) -> Profile {
        var p = Profile()
        p.name = "replay: touch"
        p.switches = []
        p.touchAccommodations.output = .activate
        configure(&p.touchAccommodations)
        return p
    }

    // MARK: Device units → grid points

    /// The mapping the spec gives, written out for the hand counts:
    /// `(v − min) / (max − min) × 1000`, clamped to [0, 1000].
    static func mapped(_ v: Int32, _ minimum: Int32, _ maximum: Int32) -> Double {
        let p = (Double(v) - Double(minimum)) / (Double(maximum) - Double(minimum)) * gridSide
        return min(max(p, 0), gridSide)
    }

    /// Atmel maXTouch: ABS_MT_POSITION_X 0…799, Y 0…479 (its .desc A: 35 / A: 36 lines).
    static func atmel(_ x: Int32, _ y: Int32) -> Point { Point(x: mapped(x, 0, 799), y: mapped(y, 0, 479)) }
    /// EP0430M09: X 0…1279, Y 0…767.
    static func ep0430(_ x: Int32, _ y: Int32) -> Point { Point(x: mapped(x, 0, 1279), y: mapped(y, 0, 767)) }
    /// ELAN CANDO: X 0…3008, Y 0…1856.
    static func elan(_ x: Int32, _ y: Int32) -> Point { Point(x: mapped(x, 0, 3008), y: mapped(y, 0, 1856)) }
    /// QUANTA: X 0…1920, Y 0…1080.
    static func quanta(_ x: Int32, _ y: Int32) -> Point { Point(x: mapped(x, 0, 1920), y: mapped(y, 0, 1080)) }

    /// The grid cell under a point, as the hand count names it.
    static func cell(_ p: Point) -> String { "r\(Int(p.y / gridCell))c\(Int(p.x / gridCell))" }
}

/// What a transcript says, sorted out for assertions.
struct ReplayResult {
    var lines: [TranscriptLine]

    struct Tap: Equatable, CustomStringConvertible {
        var t: Instant, contact: Int, point: Point, id: String?
        var description: String { "tap \(contact) at \(t) \(point) → \(id ?? "nothing")" }
    }

    struct Swipe: Equatable, CustomStringConvertible {
        var t: Instant, contact: Int, from: Point, to: Point, direction: TouchDecision.SwipeDirection
        var description: String { "swipe \(contact) at \(t) \(from) → \(to) \(direction)" }
    }

    struct Hold: Equatable {
        var t: Instant, contact: Int, point: Point
    }

    struct TouchRejection: Equatable {
        var t: Instant, contact: Int, reason: TouchDecision.TouchRejectReason, point: Point
    }

    var taps: [Tap] {
        lines.compactMap { l in
            guard case .touch(let d) = l.event, case .tap(let p, let id, _) = d.decision else { return nil }
            return Tap(t: l.t, contact: d.contact, point: p, id: id)
        }
    }

    var swipes: [Swipe] {
        lines.compactMap { l in
            guard case .touch(let d) = l.event, case .swipe(let from, let to, let dir) = d.decision else { return nil }
            return Swipe(t: l.t, contact: d.contact, from: from, to: to, direction: dir)
        }
    }

    var holds: [Hold] {
        lines.compactMap { l in
            guard case .touch(let d) = l.event, case .hold(let p) = d.decision else { return nil }
            return Hold(t: l.t, contact: d.contact, point: p)
        }
    }

    var touchRejections: [TouchRejection] {
        lines.compactMap { l in
            guard case .touch(let d) = l.event, case .rejected(let reason, let p) = d.decision else { return nil }
            return TouchRejection(t: l.t, contact: d.contact, reason: reason, point: p)
        }
    }

    /// (time, switch, decision) of every filter line.
    var filterLines: [(t: Instant, key: String, decision: FilterDecision.Decision)] {
        lines.compactMap { l in
            guard case .filter(let f) = l.event else { return nil }
            return (l.t, f.switchName, f.decision)
        }
    }

    /// Times of `accepted` lines of one switch.
    func accepted(_ key: String) -> [Instant] {
        filterLines.filter { if $0.key == key, case .accepted = $0.decision { return true }; return false }.map(\.t)
    }

    func rejected(_ key: String, _ reason: FilterDecision.RejectReason) -> [Instant] {
        filterLines.filter { $0.key == key && $0.decision == .rejected(reason) }.map(\.t)
    }

    func longPresses(_ key: String) -> [Instant] {
        filterLines.filter { if $0.key == key, case .longPress = $0.decision { return true }; return false }.map(\.t)
    }

    /// (time, element id, source) of every perform line.
    var performs: [(t: Instant, id: String, source: Perform.Source)] {
        lines.compactMap { l in
            guard case .perform(let p) = l.event else { return nil }
            return (l.t, p.id, p.source)
        }
    }
}

extension Instant {
    /// A recording timestamp in microseconds, as the evemu files write it (0.095573 → 95_573).
    static func µs(_ v: Int64) -> Instant { Instant(microseconds: v) }
}
