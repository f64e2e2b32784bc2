import FuzzSupport
import SwitchCore

/// Person files (`--person`, `PersonDecoder`), then what the tools do with a person: a short
/// session on the real engine (six targets of an eight-button row, auto scanning) and the guided
/// setup (`setup --person`). What it promises: every value accepted is within its range (the
/// rest is refused naming the field), a session never traps or runs away (it ends by the virtual
/// deadline, with counts that add up), the same file gives the same run, and the setup ends with
/// a profile that reads back or a reason.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPerson(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    do {
        let person = try PersonDecoder.decode(bytes, file: Fuzz.file)
        Fuzz.check(person)
        let first = Fuzz.targets(person)
        Fuzz.require(first == Fuzz.targets(person), "the same person gave another run")
        Fuzz.setup(person)
    } catch {
        Fuzz.check(error, in: bytes)
    }
    return 0
}

extension Fuzz {
    /// Every number of an accepted person inside the range `PersonDecoder.ranges` gives it.
    static func check(_ p: PersonModel) {
        func within(_ v: Double, _ key: String) {
            require(PersonDecoder.ranges[key]!.contains(v), "\(key) \(v) accepted outside \(PersonDecoder.ranges[key]!)")
        }
        for (d, key) in [(p.reactionTime, "reactionTime"), (p.pressDuration, "pressDuration")] + (p.falsePressDuration.map { [($0, "falsePressDuration")] } ?? []) {
            within(d.mean, key + ".mean")
            within(d.sd, key + ".sd")
            require(d.sd <= 2 * d.mean, "\(key): sd \(d.sd) more than twice the mean \(d.mean)")
        }
        within(p.bounce.probability, "bounce.probability")
        within(p.bounce.gap, "bounce.gap")
        within(p.bounce.duration, "bounce.duration")
        within(p.missProbability, "missProbability")
        within(p.falsePressesPerMinute, "falsePressesPerMinute")
        require(Double(p.seed) <= PersonDecoder.maximumSeed, "seed \(p.seed)")
        require(!p.name.trimmed.isEmpty, "an empty name accepted")
    }

    struct TargetsRun: Equatable {
        var counts: PersonCounts
        var reached: Int
        var lines: Int
    }

    /// The person activates six buttons of eight in turn (1 s a stop), ten virtual minutes at most.
    static func targets(_ person: PersonModel) -> TargetsRun {
        let row = ElementTree(screen: Size(width: 1000, height: 200), root: Element(
            id: "window", frame: Rect(x: 0, y: 0, width: 1000, height: 200),
            children: (0..<8).map { Element(id: "b\($0)", label: "B\($0)", traits: [.button], frame: Rect(x: Double($0) * 100, y: 0, width: 90, height: 90)) }))
        var profile = Profile()
        profile.scanning.tapBehavior = .alwaysTap
        profile.scanning.loops = 100
        var session = PersonSession(engine: Engine(tree: row, profile: profile, devices: [nil]), person: person)
        var task = PersonTargets(["b3", "b0", "b7", "b7", "b5", "b1"])
        var lines = 0
        var last = Instant.zero
        let emit = { (line: TranscriptLine) in
            require(line.t >= last, "a transcript line at \(line.t) after one at \(last)")
            last = line.t
            lines += 1
        }
        let deadline = Instant.seconds(600)
        session.take(session.withEngine { $0.start(at: .zero) }, &task, emit: emit)
        _ = session.run(&task, until: deadline, emit: emit)
        let c = session.counts
        require(session.now <= deadline + .seconds(60), "the session ran on to \(session.now)")
        require(c.late <= c.selections && c.corrections <= c.selections, "counts: \(c)")
        require(task.reached.count <= task.targets.count, "more targets reached than asked")
        return TargetsRun(counts: c, reached: task.reached.count, lines: lines)
    }

    /// `setup --person`: the switch test, the recommendation and the confirmation scan, an hour
    /// of virtual time at most. It ends, with a profile that is written and read back the same,
    /// or with a reason.
    static func setup(_ person: PersonModel) {
        var driver = PersonDriver(SetupSession(base: Profile()), person: person)
        var task = SetupTask()
        driver.take(driver.withWorld { $0.start(at: .zero) }, &task) { _ in }
        _ = driver.run(&task, until: .seconds(3600)) { _ in }
        let session = driver.world
        guard let result = session.result else {
            require(!session.isOver || session.failure != nil, "setup over with neither a result nor a reason")
            return
        }
        let t = result.profile.scanning.autoScanningTime.seconds
        require(t.isFinite && t > 0 && t <= 60, "a recommended scan time of \(t) s")
        require(result.seconds.isFinite && result.seconds >= 0, "setup took \(result.seconds) s")
        let written = Array(ProfileEncoder.encode(result.profile).rendered(indent: 2).utf8)
        do {
            _ = try ProfileDecoder.decode(written, file: "profile.json")
        } catch {
            fatalError("the recommended profile does not read back: \(error)")
        }
    }
}

@_cdecl("fuzz_person_main")
public func fuzzPersonMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.main(argc, argv, fuzzPerson)
}
