import SwitchCore

/// Touch passthrough in the live loop: the engine's second output (`Engine.takeTouchOutput`)
/// to each touchscreen's virtual touchscreen, and the hold countdowns to the presenters.
extension LiveRunner {
    /// The mirrors of the touchscreens, by engine device index (tests, notes).
    public var virtualTouchscreens: [Int: String] {
        var out: [Int: String] = [:]
        for (k, s) in slots.enumerated() { if let node = s.mirror?.node { out[k] = node } }
        return out
    }

    func writeTouch(_ output: TouchOutput) {
        switch output {
        case .frame(let device, let changes):
            guard slots.indices.contains(device), let mirror = slots[device].mirror else { return }
            if let failure = mirror.write(changes), !slots[device].mirrorWriteFailed {
                slots[device].mirrorWriteFailed = true
                hooks.log("\(slots[device].node): \(failure)")
            }
        case .countdown, .countdownEnded:
            adapters.observeTouch(output)
        }
    }
}
