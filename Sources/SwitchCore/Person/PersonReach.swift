/// `tree stats --person` (issue 31): the seconds a simulated person takes to activate each scan
/// item of a tree with one scanning method, errors and corrections included. Each item is one
/// run from scanning's start (t = 0) on the real engine, the person's seed moved on by the
/// item's index so the items do not share their draws; a select activates at once (Always Tap),
/// so the time is what `tree stats` counts for the perfect user: the time to select the item.
public enum PersonReach {
    public struct Figures: Sendable, Equatable {
        /// Per scan item, in scan order; nil for one not activated within `limit`.
        public var reach: [Interval?]
        public var counts: PersonCounts
        /// Activations of other items on the way.
        public var wrong: Int

        public var reached: [Interval] { reach.compactMap { $0 } }
        public var averageTime: Interval {
            let r = reached
            guard !r.isEmpty else { return .zero }
            return Interval(microseconds: r.reduce(Int64(0)) { $0 + $1.microseconds } / Int64(r.count))
        }
        public var worstTime: Interval { reached.max() ?? .zero }
        public var unreached: Int { reach.count - reached.count }
    }

    /// How long one item may take before it is given up.
    public static let limit = Interval.seconds(600)

    /// `profile` scanned with `grouping` (item scanning) or, with `groupSwitches` ≥ 2, group
    /// selection with that many switches; auto style, Always Tap.
    public static func profile(_ base: Profile, grouping: Grouping, groupSwitches: Int = 0) -> Profile {
        var p = base
        p.scanning.style = .auto
        p.scanning.tapBehavior = .alwaysTap
        p.scanning.speech = false
        p.scanning.pauseForSpeech = false
        p.scanning.grouping = grouping
        if groupSwitches >= 2 {
            p.scanning.mode = .groupSelection
            p.switches = (0..<groupSwitches).map { SwitchBinding(keyName: "KEY_\($0 + 1)", code: UInt16(2 + $0), action: SwitchAction.groups[$0]) }
        } else {
            p.scanning.mode = .item
            if !p.switches.contains(where: { $0.action == .select }) {
                p.switches = [SwitchBinding(keyName: "KEY_SPACE", code: EventCodes.KEY_SPACE, action: .select)]
            }
        }
        return p
    }

    public static func figures(tree: ElementTree, model: ScanModel, profile: Profile, person: PersonModel) -> Figures {
        var out = Figures(reach: [], counts: PersonCounts(), wrong: 0)
        for (k, item) in model.items.enumerated() {
            var p = person
            p.seed = person.seed &+ UInt64(k)
            var session = PersonSession(engine: Engine(tree: tree, profile: profile, devices: [nil]), person: p)
            var task = PersonTargets([item.id])
            session.take(session.withEngine { $0.start(at: .zero) }, &task) { _ in }
            let outcome = session.run(&task, until: .zero + limit) { _ in }
            if case .done = outcome, let at = task.reached.first { out.reach.append(at - .zero) } else { out.reach.append(nil) }
            out.counts = out.counts + session.counts
            out.wrong += task.wrong
        }
        return out
    }
}
