/// A simulated person who activates each of `targets` in turn (`simulate --person --targets`,
/// `tree stats --person`): the goal is the next target until a switch activation (or tap) of it
/// is performed. An activation of another item is a mistake that cannot be taken back: it is
/// counted (`wrong`) and the person goes on for the same target.
public struct PersonTargets: PersonTask {
    public let targets: [String]
    /// When each target reached was activated, in order.
    public private(set) var reached: [Instant] = []
    /// Activations of something else.
    public private(set) var wrong = 0

    public init(_ targets: [String]) { self.targets = targets }

    public var isDone: Bool { reached.count >= targets.count }

    public func goal(_ engine: Engine) -> PersonGoal? {
        guard reached.count < targets.count else { return nil }
        let target = targets[reached.count]
        // The keyboard opened over the target (a text field was a target before it): hidden first.
        if engine.isKeyboardOpen, engine.model.itemIndex(id: target) == nil { return PersonGoal("key:close") }
        return PersonGoal(target)
    }

    public mutating func observe(_ line: TranscriptLine) {
        guard case .perform(let p) = line.event, p.source == .switch, p.action == .activate || p.action == .tap, !isDone else { return }
        if p.id == targets[reached.count] { reached.append(line.t) } else { wrong += 1 }
    }
}
