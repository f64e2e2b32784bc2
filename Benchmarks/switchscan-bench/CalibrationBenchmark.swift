import Foundation
import SwitchCore

/// KEY_ENTER (28): the generated sessions' second switch.
let keyEnter: UInt16 = 28

/// Issue target: `calibrate` over a grid of 1,000 settings (10 hold durations × 10 ignore-repeat
/// times × 10 debounce windows) and a 10,000-event switch recording in under 5 s.
enum CalibrationBenchmark {
    static func run(_ args: [String]) {
        let keyEvents = Int(args.first ?? "") ?? 10_000
        let events = SwitchRecordingGenerator.events(keyEvents: keyEvents, codes: [EventCodes.KEY_SPACE, keyEnter], seed: 7)
        var profile = Profile()
        profile.switches = [SwitchBinding(keyName: "KEY_SPACE", code: EventCodes.KEY_SPACE, action: .select),
                            SwitchBinding(keyName: "KEY_ENTER", code: keyEnter, action: .next)]
        let grid = try! Calibration.Grid(holdDurations: (0..<10).map { .milliseconds(Int64($0) * 50) },
                                         ignoreRepeats: (0..<10).map { .milliseconds(Int64($0) * 100) },
                                         debounces: (0..<10).map { .milliseconds(Int64($0) * 10) })
        let stats = SwitchRecordingGenerator.describe(events)
        print("recording: \(stats.keyEvents) key events (\(stats.presses) presses, \(stats.autorepeats) autorepeats) + "
              + "\(events.count - stats.keyEvents) SYN_REPORTs, 2 switches, \(String(format: "%.0f", stats.seconds)) s of virtual time")
        var times: [Double] = []
        var outcomes: [Calibration.Outcome] = []
        for _ in 0..<3 {
            let cpu = cpuSeconds(), wall = monotonicSeconds()
            outcomes = Calibration.run(events: events, profile: profile, grid: grid)
            times.append(cpuSeconds() - cpu)
            if times.count == 1 { print(String(format: "first run: %.3f s wall", monotonicSeconds() - wall)) }
        }
        times.sort()
        let accepted = outcomes.map(\.accepted)
        print("grid: \(outcomes.count) settings; accepted presses from \(accepted.min() ?? 0) to \(accepted.max() ?? 0), "
              + "\(Set(accepted).count) different counts")
        print(String(format: "calibrate: median %.3f s CPU (min %.3f, max %.3f) over 3 runs; %.0f settings × key events per second; target < 5 s: %@",
                     times[1], times[0], times[2], Double(outcomes.count * stats.keyEvents) / times[1], times[1] < 5 ? "met" : "MISSED"))
    }
}

/// A switch user's session, generated (deterministic for a seed): presses of 40 ms to 2.5 s with
/// autorepeat (value 2 from 250 ms, every 33 ms) while held, contact chatter on some presses and
/// releases, pauses of 0.15–1.5 s. Every key event is followed by a SYN_REPORT, as evdev sends it.
enum SwitchRecordingGenerator {
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        /// Uniform-ish in the closed range.
        mutating func int(_ r: ClosedRange<Int64>) -> Int64 { r.lowerBound + Int64(next() % UInt64(r.upperBound - r.lowerBound + 1)) }
        mutating func chance(_ percent: UInt64) -> Bool { next() % 100 < percent }
    }

    static func events(keyEvents target: Int, codes: [UInt16], seed: UInt64, start: Int64 = 0, until: Int64 = .max) -> [TimedEvent] {
        var random = Random(state: seed)
        var out: [TimedEvent] = []
        out.reserveCapacity(min(target, 1_000_000) * 2 + 64)
        var keys = 0
        var t = start
        func key(_ code: UInt16, _ value: Int32, _ at: Int64) {
            out.append(TimedEvent(time: Instant(microseconds: at), event: InputEvent(type: EventCodes.EV_KEY, code: code, value: value)))
            out.append(TimedEvent(time: Instant(microseconds: at), event: InputEvent(type: EventCodes.EV_SYN, code: EventCodes.SYN_REPORT, value: 0)))
            keys += 1
        }
        while keys < target {
            t += random.int(150_000...1_500_000)
            if t >= until { break }
            let code = codes[Int(random.next() % UInt64(codes.count))]
            key(code, 1, t)
            if random.chance(30) {  // press chatter: P R P within a few ms
                t += random.int(1_000...8_000); key(code, 0, t)
                t += random.int(1_000...6_000); key(code, 1, t)
            }
            let hold = random.chance(5) ? random.int(1_000_000...2_500_000) : random.int(40_000...600_000)
            let release = t + hold
            var repeatAt = t + 250_000
            while repeatAt < release {
                key(code, 2, repeatAt)
                repeatAt += 33_333
            }
            t = release
            key(code, 0, t)
            if random.chance(20) {  // release chatter
                t += random.int(1_000...5_000); key(code, 1, t)
                t += random.int(1_000...5_000); key(code, 0, t)
            }
        }
        return out
    }

    static func describe(_ events: [TimedEvent]) -> (keyEvents: Int, presses: Int, autorepeats: Int, seconds: Double) {
        let keys = events.filter { $0.event.type == EventCodes.EV_KEY }
        return (keys.count, keys.filter { $0.event.value == 1 }.count, keys.filter { $0.event.value == 2 }.count,
                (events.last?.time.seconds ?? 0) - (events.first?.time.seconds ?? 0))
    }
}
